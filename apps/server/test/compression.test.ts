import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { endpoints } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD } from '../src/compression.js';
import { BACKENDS, createTestApp, type TestApp } from './helpers/index.js';

const decode = (encoding: unknown, body: Buffer): string =>
  (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body).toString('utf8');

describe.each(BACKENDS)('compression on %s', (backend) => {
  let t: TestApp;
  let dist: string;
  const html = `<!doctype html><title>Marquee</title>${'<!-- padding -->'.repeat(200)}`;
  const js = `console.log(${JSON.stringify('x'.repeat(4000))})`;
  /** Writes a file with the .br and .gz siblings the web build writes (apps/web/vite.compress.ts). */
  const withSiblings = (path: string, text: string) => {
    writeFileSync(path, text);
    writeFileSync(`${path}.br`, brotliCompressSync(text));
    writeFileSync(`${path}.gz`, gzipSync(text));
  };

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'mq-dist-'));
    mkdirSync(join(dist, 'assets'));
    withSiblings(join(dist, 'index.html'), html);
    withSiblings(join(dist, 'assets', 'index-Bx3k2Qd9.js'), js);
    // A text file the build did not compress: compressed on the fly above the threshold.
    writeFileSync(join(dist, 'assets', 'plain-Cq83kd02.css'), `a{color:red}${' '.repeat(3000)}`);
    t = await createTestApp(backend, { config: { webDist: dist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it.each([
    ['br', 'gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip, deflate', 'gzip'],
    ['identity', 'identity', undefined],
    ['no header', undefined, undefined],
  ])('serves the console pre-compressed (%s)', async (_label, accept, expected) => {
    for (const [url, text] of [
      ['/', html],
      ['/index.html', html],
      ['/user/company', html], // the history-mode fallback
      ['/assets/index-Bx3k2Qd9.js', js],
    ] as const) {
      const res = await get(url, accept);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe(expected);
      expect(res.headers.vary, url).toContain('accept-encoding');
      expect(decode(res.headers['content-encoding'], res.rawPayload), url).toBe(text);
    }
    const asset = await get('/assets/index-Bx3k2Qd9.js', accept);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('compresses a text file without siblings on the fly', async () => {
    const res = await get('/assets/plain-Cq83kd02.css', 'br, gzip');
    expect(res.headers['content-encoding']).toBe('br');
    expect(decode('br', res.rawPayload)).toMatch(/^a\{color:red\}/);
  });

  it.each([
    ['br', 'br, gzip', 'br'],
    ['gzip', 'gzip', 'gzip'],
    ['identity', 'identity', undefined],
  ])('compresses API answers above the threshold (%s)', async (_label, accept, expected) => {
    const { client } = await t.tenant();
    const res = await client.call(endpoints.authInfo, {}, { acceptEncoding: accept });
    const text = decode(res.headers['content-encoding'], res.rawPayload);
    expect(Buffer.byteLength(text)).toBeGreaterThan(COMPRESS_THRESHOLD);
    expect(res.headers['content-encoding']).toBe(expected);
    expect(JSON.parse(text)).toMatchObject({ code: 0 });
  });

  it('leaves small answers uncompressed', async () => {
    const res = await t.client().call(endpoints.authInfo, {}, { token: null, acceptEncoding: 'br, gzip' });
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.envelope.code).not.toBe(0);
  });
});
