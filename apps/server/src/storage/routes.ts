import type { FastifyInstance } from 'fastify';
import { FILE_ROUTE_PREFIX, type Files } from './files.js';
import { type ByteRange, checkKey, InvalidKeyError } from './storage.js';

/**
 * The range a `Range` header asks for within `size` bytes: one `bytes=` range (start-end,
 * start-, -suffix); 'unsatisfiable' when it lies outside; null when absent or not understood
 * (then the whole file is sent, as RFC 9110 allows).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * Serves stored files by signed URL only (`/files/<key>?exp=&sig=`, made by Files.signedUrl):
 * a missing, tampered or expired signature is 403, a missing file 404; HTTP Range for video
 * and resumable downloads (206, 416).
 */
export async function registerFileRoute(app: FastifyInstance, files: Files): Promise<void> {
  app.get(`${FILE_ROUTE_PREFIX}*`, async (request, reply) => {
    const url = request.url;
    const queryAt = url.indexOf('?');
    const rawPath = url.slice(FILE_ROUTE_PREFIX.length, queryAt === -1 ? undefined : queryAt);
    const query = request.query as Record<string, string | undefined>;
    let key: string;
    try {
      key = checkKey(rawPath.split('/').map(decodeURIComponent).join('/'));
    } catch (error) {
      if (error instanceof InvalidKeyError || error instanceof URIError) return reply.code(404).send('Not Found');
      throw error;
    }
    reply.header('cache-control', 'private, no-store').header('x-content-type-options', 'nosniff');
    if (!files.verify(key, query.exp, query.sig)) return reply.code(403).type('text/plain').send('Forbidden');
    const stat = await files.storage.stat(key);
    if (!stat) return reply.code(404).type('text/plain').send('Not Found');
    const range = parseRange(request.headers.range, stat.size);
    if (range === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${stat.size}`).send();
    }
    const opened = await files.storage.get(key, range ?? undefined);
    if (!opened) return reply.code(404).type('text/plain').send('Not Found');
    // The URL is signed until exp: the browser may keep the bytes that long.
    const maxAge = Math.max(0, Number(query.exp) - Math.floor(Date.now() / 1000));
    reply.header('cache-control', `private, max-age=${maxAge}`).header('accept-ranges', 'bytes').type(stat.contentType);
    if (range) {
      reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
        .header('content-length', range.end - range.start + 1);
    } else {
      reply.header('content-length', stat.size);
    }
    return reply.send(opened.body);
  });
}
