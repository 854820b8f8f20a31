import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go out as they are: the headers would cost more than they save. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Text a browser can decode: JSON envelopes, HTML, CSS, JavaScript, SVG. Downloads (Excel
 * files are zip archives already) and images are never matched, so they stream untouched.
 */
const COMPRESSIBLE = /^(?:application\/(?:json|javascript|xml)|text\/[a-z-]+|image\/svg\+xml)(?:;|$)/i;

/**
 * On-the-fly compression of answers above COMPRESS_THRESHOLD, brotli preferred, then gzip.
 * The console's files are compressed at build time (apps/web/vite.compress.ts) and sent by
 * @fastify/static's preCompressed with their content-encoding already set, which this hook
 * leaves alone. Brotli runs at quality 4 here: at its default of 11 a 20 KB answer costs
 * milliseconds of CPU for a few per cent fewer bytes.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
