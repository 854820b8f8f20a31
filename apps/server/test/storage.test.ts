import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Files } from '../src/storage/files.js';
import { LocalDiskStorage } from '../src/storage/local.js';
import { parseRange, registerFileRoute } from '../src/storage/routes.js';
import { enterpriseKey, FileTooLargeError, InvalidKeyError } from '../src/storage/storage.js';

/** The storage interface on local disk: streamed put/get, ranges, delete, signed URLs and their route. */
describe('file storage on local disk', () => {
  let root: string;
  let storage: LocalDiskStorage;
  let now = Date.UTC(2026, 10, 23, 8, 0, 0);
  let files: Files;
  let app: FastifyInstance;
  const body = 'The quick brown fox jumps over the lazy dog';
  const key = enterpriseKey('ent-a', 'screenshots', 'device-1', 'shot.png');

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'marquee-storage-'));
    storage = new LocalDiskStorage(root);
    files = new Files(storage, 'test-secret', () => now);
    app = Fastify();
    await registerFileRoute(app, files);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  it('puts a stream, stats, gets it whole or by range, and deletes it', async () => {
    const stored = await storage.put(
      key,
      Readable.from([Buffer.from(body.slice(0, 10)), Buffer.from(body.slice(10))]),
      {
        contentType: 'image/png',
      },
    );
    expect(stored).toEqual({ key, size: body.length, contentType: 'image/png' });
    expect(await storage.exists(key)).toBe(true);
    const whole = await storage.get(key);
    expect(await text(whole!.body)).toBe(body);
    const part = await storage.get(key, { start: 4, end: 8 });
    expect(await text(part!.body)).toBe('quick');
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeNull();
    await storage.delete(key); // a missing file is not an error
  });

  it('refuses a body over the limit and leaves nothing behind', async () => {
    const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(storage.put(key, big, { contentType: 'image/png', maxBytes: 1000 })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    expect(await storage.exists(key)).toBe(false);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
  });

  it('refuses keys that could leave the storage root', async () => {
    for (const bad of ['../etc/passwd', 'e/a/../../x', '/abs', 'e//x', 'e/a/x y', '', 'e/a/..']) {
      await expect(storage.stat(bad)).rejects.toBeInstanceOf(InvalidKeyError);
    }
  });

  it('finds a file only for its own enterprise', async () => {
    await storage.put(key, Readable.from([Buffer.from(body)]), { contentType: 'image/png' });
    expect(await files.open('ent-a', key)).not.toBeNull();
    expect(await files.open('ent-b', key)).toBeNull();
  });

  it('serves a signed URL with ranges; refuses a tampered or expired signature', async () => {
    await storage.put(key, Readable.from([Buffer.from(body)]), { contentType: 'image/png' });
    const url = files.signedUrl(key);
    expect(url).toMatch(/^\/files\/e\/ent-a\/screenshots\/device-1\/shot\.png\?exp=\d+&sig=[\w-]+$/);
    const ok = await app.inject({ url });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('image/png');
    expect(ok.headers['accept-ranges']).toBe('bytes');
    expect(ok.body).toBe(body);

    const ranged = await app.inject({ url, headers: { range: 'bytes=4-8' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 4-8/${body.length}`);
    expect(ranged.body).toBe('quick');
    const suffix = await app.inject({ url, headers: { range: 'bytes=-3' } });
    expect(suffix.body).toBe('dog');
    const outside = await app.inject({ url, headers: { range: 'bytes=999-' } });
    expect(outside.statusCode).toBe(416);

    // Another key with this signature, a changed signature, a changed expiry: refused.
    const other = url.replace('shot.png', 'other.png');
    expect((await app.inject({ url: other })).statusCode).toBe(403);
    const sig = new URL(url, 'http://x').searchParams.get('sig') ?? '';
    const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    expect((await app.inject({ url: url.replace(sig, flipped) })).statusCode).toBe(403);
    const exp = new URL(url, 'http://x').searchParams.get('exp') ?? '';
    expect((await app.inject({ url: url.replace(`exp=${exp}`, `exp=${Number(exp) + 3600}`) })).statusCode).toBe(403);
    expect((await app.inject({ url: url.split('?')[0] })).statusCode).toBe(403);
    expect((await app.inject({ url: '/files/../../etc/passwd?exp=1&sig=x' })).statusCode).toBe(404);

    // Past its expiry the same URL is refused.
    now += 30 * 60_000;
    expect((await app.inject({ url })).statusCode).toBe(403);
    // A fresh one works; a deleted file is not found.
    const fresh = files.signedUrl(key);
    await storage.delete(key);
    expect((await app.inject({ url: fresh })).statusCode).toBe(404);
  });

  it('parses ranges as RFC 9110 says', () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange('bytes=0-', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=2-100', 10)).toEqual({ start: 2, end: 9 });
    expect(parseRange('bytes=-4', 10)).toEqual({ start: 6, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 10)).toBe('unsatisfiable');
    expect(parseRange('items=0-1', 10)).toBeNull();
    expect(parseRange('bytes=0-1,3-4', 10)).toBeNull();
  });
});
