import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { UploadSignature } from '@marquee/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Files } from '../../src/storage/files.js';
import { LocalDiskStorage } from '../../src/storage/local.js';
import type { UploadedFile } from '../../src/storage/policy.js';
import { registerFileRoute } from '../../src/storage/routes.js';
import { S3_PART_BYTES, S3Storage, signPostPolicy } from '../../src/storage/s3.js';
import { enterpriseKey, type FileStorage, FileTooLargeError } from '../../src/storage/storage.js';
import { registerUploadRoute } from '../../src/storage/upload.js';
import { startS3rver } from '../helpers/s3rver.js';

interface Backend {
  storage: FileStorage;
  /** Files left in the back end's temporary area (local disk: `.tmp`). */
  leftovers(): Promise<string[]>;
  stop(): Promise<void>;
}

const BACKENDS: Record<string, () => Promise<Backend>> = {
  local: async () => {
    const root = await mkdtemp(join(tmpdir(), 'marquee-backend-'));
    return {
      storage: new LocalDiskStorage(root),
      leftovers: () => readdir(join(root, '.tmp')).catch(() => []),
      stop: () => rm(root, { recursive: true, force: true }),
    };
  },
  s3: async () => {
    const s3 = await startS3rver();
    return { storage: new S3Storage(s3.config), leftovers: async () => [], stop: s3.stop };
  },
};

/** Bytes whose content says where each byte is (so a wrong range or part order shows). */
function pattern(size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) b.writeUInt32BE(i >>> 0, i);
  return b;
}

/** Streams `data` in small chunks, as a network body arrives. */
const chunked = (data: Buffer, step = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += step) yield data.subarray(i, i + step);
    })(),
  );

/** The browser's direct upload: the signature's fields in order, then the file, POSTed where it says. */
async function postUpload(base: string, signature: UploadSignature, data: Buffer, type: string) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(signature.fields)) formData.append(name, value);
  if (!('Content-Type' in signature.fields)) formData.append('Content-Type', type);
  formData.append('file', new Blob([new Uint8Array(data)], { type }), 'upload.bin');
  const url = signature.url.startsWith('/') ? `${base}${signature.url}` : signature.url;
  return fetch(url, { method: 'POST', body: formData });
}

/**
 * One behaviour suite, run on local disk and on a real S3 protocol server (s3rver): the
 * storage interface, signed URLs with Range through the server's /files route, URLs straight
 * from the store, local copies for probing and the browser's direct upload.
 */
describe.each(Object.keys(BACKENDS))('file storage on %s', (name) => {
  let backend: Backend;
  let storage: FileStorage;
  let files: Files;
  let app: FastifyInstance;
  let base: string;
  const now = Date.now();
  const uploaded: UploadedFile[] = [];
  const key = enterpriseKey('ent-a', 'materials', 'clip.mp4');

  beforeAll(async () => {
    backend = await BACKENDS[name]();
    storage = backend.storage;
    files = new Files(storage, 'suite-secret', () => now);
    files.onUploaded('material', (file) => {
      uploaded.push(file);
    });
    app = Fastify();
    await registerFileRoute(app, files);
    await registerUploadRoute(app, files);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await backend?.stop();
  });

  it('puts a stream, stats it, reads it whole and by range, deletes it', async () => {
    const data = pattern(100_000);
    const stored = await storage.put(key, chunked(data), { contentType: 'video/mp4' });
    expect(stored).toEqual({ key, size: data.length, contentType: 'video/mp4' });
    expect(await storage.exists(key)).toBe(true);
    expect(await storage.stat(key)).toEqual({ key, size: data.length, contentType: 'video/mp4' });
    const whole = await storage.get(key);
    expect(await buffer(whole!.body)).toEqual(data);
    const part = await storage.get(key, { start: 4000, end: 4099 });
    expect(part!.object.size).toBe(data.length);
    expect(await buffer(part!.body)).toEqual(data.subarray(4000, 4100));
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.get(key)).toBeNull();
    await storage.delete(key); // a missing object is not an error
  });

  it('streams a file of several parts in order', async () => {
    const data = pattern(S3_PART_BYTES * 2 + 12_345);
    const stored = await storage.put(key, chunked(data, 1024 * 1024), { contentType: 'video/mp4' });
    expect(stored.size).toBe(data.length);
    const read = await storage.get(key);
    const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(digest(await buffer(read!.body))).toBe(digest(data));
    await storage.delete(key);
  });

  it('refuses a body over the limit and leaves nothing', async () => {
    const data = pattern(S3_PART_BYTES + 1000);
    await expect(
      storage.put(key, chunked(data, 1024 * 1024), { contentType: 'video/mp4', maxBytes: S3_PART_BYTES + 999 }),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await storage.exists(key)).toBe(false);
    expect(await backend.leftovers()).toEqual([]);
  });

  it('finds a file only for its own enterprise', async () => {
    await storage.put(key, chunked(Buffer.from('hello')), { contentType: 'video/mp4' });
    const opened = await files.open('ent-a', key);
    expect(await text(opened!.body)).toBe('hello');
    expect(await files.open('ent-b', key)).toBeNull();
    await storage.delete(key);
  });

  it('serves signed URLs through /files with Range; refuses tampered ones', async () => {
    const data = pattern(10_000);
    await storage.put(key, chunked(data), { contentType: 'video/mp4' });
    const url = files.signedUrl(key);
    const ok = await fetch(`${base}${url}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await ok.arrayBuffer())).toEqual(data);
    const ranged = await fetch(`${base}${url}`, { headers: { range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-199/${data.length}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(data.subarray(100, 200));
    const other = url.replace('clip.mp4', 'other.mp4');
    expect((await fetch(`${base}${other}`)).status).toBe(403);
    await storage.delete(key);
    expect((await fetch(`${base}${url}`)).status).toBe(404);
  });

  it('gives a direct URL that serves the file (presigned GET on S3)', async () => {
    const data = pattern(5000);
    await storage.put(key, chunked(data), { contentType: 'video/mp4' });
    const direct = await files.directUrl(key, 60);
    const answer = await fetch(direct.startsWith('/') ? `${base}${direct}` : direct, {
      headers: { range: 'bytes=0-99' },
    });
    expect(answer.status).toBe(206);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(data.subarray(0, 100));
    await storage.delete(key);
  });

  it('makes a local copy for probing and releases it', async () => {
    await storage.put(key, chunked(Buffer.from('probe me')), { contentType: 'video/mp4' });
    const copy = await files.localCopy(key);
    expect(await readFile(copy.path, 'utf8')).toBe('probe me');
    await copy.release();
    if (name === 's3') await expect(readFile(copy.path)).rejects.toThrow();
    await storage.delete(key);
    await expect(files.localCopy(key)).rejects.toThrow();
  });

  it('takes a browser direct upload with the signed fields', async () => {
    uploaded.length = 0;
    const data = pattern(3000);
    const signature = files.createUpload({
      entId: 'ent-a',
      key,
      minBytes: 1,
      maxBytes: 10_000,
      contentTypes: ['video/'],
      contentType: 'video/mp4',
      callback: { name: 'material', body: { uploadId: 'u-9' } },
    });
    const answer = await postUpload(base, signature, data, 'video/mp4');
    expect(answer.status).toBe(200);
    const stored = await storage.get(key);
    expect(await buffer(stored!.body)).toEqual(data);
    if (name === 'local') {
      // The local store answers the envelope and runs the callback itself...
      expect(await answer.json()).toMatchObject({ code: 0, payload: { key, size: data.length } });
      expect(uploaded).toEqual([
        { entId: 'ent-a', key, size: data.length, contentType: 'video/mp4', body: { uploadId: 'u-9' } },
      ]);
    } else {
      // ...S3 answers an empty 200; the verify call runs the callback.
      expect(await answer.text()).toBe('');
      expect(uploaded).toEqual([]);
      await files.runCallback(signature.callback, { entId: 'ent-a', key, size: data.length, contentType: 'video/mp4' });
      expect(uploaded).toHaveLength(1);
    }
    await storage.delete(key);
  });

  it.runIf(name === 's3')('signs its POST policy exactly as the AWS SDK does', async () => {
    // The SDK's createPresignedPost at a fixed time: our SigV4 of its policy matches its signature.
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 23, 8, 0, 0), toFake: ['Date'] });
    try {
      const s3 = storage as S3Storage;
      const sdk = await createPresignedPost(s3.client as unknown as Parameters<typeof createPresignedPost>[0], {
        Bucket: 'marquee-test',
        Key: key,
        Conditions: [['content-length-range', 1, 100]],
        Expires: 600,
      });
      expect(signPostPolicy('S3RVER', '20261123', 'us-east-1', sdk.fields.Policy)).toBe(sdk.fields['X-Amz-Signature']);
      expect(sdk.fields['X-Amz-Credential']).toBe('S3RVER/20261123/us-east-1/s3/aws4_request');
      // Ours for the same time names the same credential and URL, and the policy's terms.
      const ours = new Files(s3, 'x', () => Date.UTC(2026, 10, 23, 8, 0, 0)).createUpload({
        entId: 'ent-a',
        key,
        minBytes: 1,
        maxBytes: 100,
        contentTypes: ['image/png', 'image/jpeg'],
      });
      expect(ours.url).toBe(sdk.url.replace(/\/$/, ''));
      expect(ours.fields['x-amz-credential']).toBe(sdk.fields['X-Amz-Credential']);
      expect(ours.fields['x-amz-date']).toBe('20261123T080000Z');
      const policy = JSON.parse(Buffer.from(ours.policy, 'base64').toString());
      expect(policy).toEqual({
        expiration: '2026-11-23T08:15:00.000Z',
        conditions: [
          { bucket: 'marquee-test' },
          { key },
          ['content-length-range', 1, 100],
          ['starts-with', '$Content-Type', 'image/'],
          { success_action_status: '200' },
          { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
          { 'x-amz-credential': sdk.fields['X-Amz-Credential'] },
          { 'x-amz-date': '20261123T080000Z' },
        ],
      });
      expect(ours.fields['x-amz-signature']).toBe(signPostPolicy('S3RVER', '20261123', 'us-east-1', ours.policy));
    } finally {
      vi.useRealTimers();
    }
  });
});
