import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The build's text files; images and fonts that are compressed already are left alone. */
export const TEXT_ASSET = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest|map)$/;

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every text
 * file of the build, index.html included, so the server sends them with @fastify/static's
 * preCompressed and spends no CPU per request. A variant that is not smaller than its
 * source is not written; the server then sends the source (or compresses it on the fly).
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'marquee:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const path of filesUnder(outDir)) {
        if (!TEXT_ASSET.test(path)) continue;
        const source = readFileSync(path);
        const br = brotliCompressSync(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        });
        const gz = gzipSync(source, { level: 9 });
        if (br.length < source.length) writeFileSync(`${path}.br`, br);
        if (gz.length < source.length) writeFileSync(`${path}.gz`, gz);
      }
    },
  };
}
