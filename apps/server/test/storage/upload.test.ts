import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, type UploadSignature } from '@marquee/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/protocol/appError.js';
import { Files } from '../../src/storage/files.js';
import { LocalDiskStorage } from '../../src/storage/local.js';
import type { UploadedFile } from '../../src/storage/policy.js';
import { enterpriseKey } from '../../src/storage/storage.js';
import { registerUploadRoute } from '../../src/storage/upload.js';

const BOUNDARY = '----marquee-test-boundary';

/** A multipart/form-data body: the fields in order, then `file`. */
function form(fields: Record<string, string>, file: { type: string; data: Buffer; name?: string }): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name ?? 'upload.bin'}"\r\n` +
        `Content-Type: ${file.type}\r\n\r\n`,
    ),
  );
  parts.push(file.data, Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

/**
 * The local back end's direct upload (POST /upload): a policy signed by Files.createUpload
 * for one exact key, checked as S3 checks its POST policy, streamed to disk, then the named
 * callback. Every refusal leaves no object, no temporary file and no callback run.
 */
describe('direct upload to local storage', () => {
  let root: string;
  let now = Date.UTC(2026, 10, 23, 8, 0, 0);
  let files: Files;
  let app: FastifyInstance;
  let base: string;
  const calls: UploadedFile[] = [];
  let refuse: AppError | null = null;
  const key = enterpriseKey('ent-a', 'materials', 'm-1.png');
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 7)]);

  const sign = (over: Partial<Parameters<Files['createUpload']>[0]> = {}): UploadSignature =>
    files.createUpload({
      entId: 'ent-a',
      key,
      minBytes: 1,
      maxBytes: 4096,
      contentTypes: ['image/'],
      callback: { name: 'material', body: { uploadId: 'u-1' } },
      ...over,
    });

  const post = (body: Buffer) =>
    app.inject({
      method: 'POST',
      url: '/upload',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: body,
    });

  const nothingStored = async (k = key) => {
    expect(await files.storage.exists(k)).toBe(false);
    expect(await readdir(join(root, '.tmp')).catch(() => [])).toEqual([]);
    expect(calls).toEqual([]);
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'marquee-upload-'));
    files = new Files(new LocalDiskStorage(root), 'test-secret', () => now);
    files.onUploaded('material', (file) => {
      if (refuse) throw refuse;
      calls.push(file);
      return { materialId: 'mat-1' };
    });
    app = Fastify();
    await registerUploadRoute(app, files);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    calls.length = 0;
    refuse = null;
    await files.storage.delete(key);
  });

  it('signs the spec fields for one exact key of the enterprise', () => {
    const signature = sign();
    expect(Object.keys(signature.fields)).toEqual([
      'access-id',
      'policy',
      'key',
      'signature',
      'callback',
      'success_action_status',
    ]);
    expect(signature.url).toBe('/upload');
    expect(signature.key).toBe(key);
    expect(signature.expiresAt).toBe(now + 15 * 60_000);
    expect(JSON.parse(Buffer.from(signature.callback, 'base64').toString())).toEqual({
      name: 'material',
      body: { uploadId: 'u-1' },
    });
    // A key of another enterprise, a bad key or an unknown callback is a server bug: thrown.
    expect(() => sign({ key: enterpriseKey('ent-b', 'materials', 'x.png') })).toThrow();
    expect(() => sign({ key: '../x' })).toThrow();
    expect(() => sign({ callback: { name: 'nobody', body: {} } })).toThrow();
  });

  it('stores the file, runs the callback and answers its result', async () => {
    const signature = sign();
    const res = await post(form(signature.fields, { type: 'image/png', data: png }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: 0,
      message: expect.any(String),
      payload: { key, size: png.length, callback: { materialId: 'mat-1' } },
    });
    expect(await readFile(join(root, key))).toEqual(png);
    expect(calls).toEqual([
      { entId: 'ent-a', key, size: png.length, contentType: 'image/png', body: { uploadId: 'u-1' } },
    ]);
  });

  it('accepts the spec field name `sign` and an upload without a callback', async () => {
    const signature = sign({ callback: undefined });
    const { signature: sig, ...rest } = signature.fields;
    const res = await post(form({ ...rest, sign: sig }, { type: 'image/png', data: png }));
    expect(res.json()).toEqual({ code: 0, message: expect.any(String), payload: { key, size: png.length } });
    expect(calls).toEqual([]);
  });

  it('refuses a forged signature or a policy changed after signing', async () => {
    const signature = sign();
    const sig = signature.fields.signature;
    const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    let res = await post(form({ ...signature.fields, signature: flipped }, { type: 'image/png', data: png }));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.UPLOAD_POLICY_INVALID);

    // A larger size range written into the policy: its signature no longer matches.
    const doc = JSON.parse(Buffer.from(signature.policy, 'base64').toString());
    const widened = Buffer.from(JSON.stringify({ ...doc, max: 10 ** 9 })).toString('base64');
    res = await post(form({ ...signature.fields, policy: widened }, { type: 'image/png', data: png }));
    expect(res.json().code).toBe(ErrorCode.UPLOAD_POLICY_INVALID);

    // Signed by another server secret.
    const stranger = new Files(files.storage, 'another-secret', () => now);
    const foreign = stranger.createUpload({
      entId: 'ent-a',
      key,
      minBytes: 1,
      maxBytes: 4096,
      contentTypes: ['image/'],
    });
    res = await post(form(foreign.fields, { type: 'image/png', data: png }));
    expect(res.json().code).toBe(ErrorCode.UPLOAD_POLICY_INVALID);

    // Missing signature, changed callback.
    const { signature: _s, ...unsigned } = signature.fields;
    res = await post(form(unsigned, { type: 'image/png', data: png }));
    expect(res.json().code).toBe(ErrorCode.UPLOAD_POLICY_INVALID);
    const otherCallback = Buffer.from(JSON.stringify({ name: 'material', body: { uploadId: 'u-2' } })).toString(
      'base64',
    );
    res = await post(form({ ...signature.fields, callback: otherCallback }, { type: 'image/png', data: png }));
    expect(res.json().code).toBe(ErrorCode.UPLOAD_POLICY_INVALID);
    await nothingStored();
  });

  it('refuses an expired policy', async () => {
    const signature = sign({ expiresInSec: 60 });
    now += 61_000;
    const res = await post(form(signature.fields, { type: 'image/png', data: png }));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.UPLOAD_POLICY_EXPIRED);
    await nothingStored();
  });

  it('refuses another key, in the same enterprise or another', async () => {
    const signature = sign();
    const sameEnt = enterpriseKey('ent-a', 'materials', 'm-2.png');
    let res = await post(form({ ...signature.fields, key: sameEnt }, { type: 'image/png', data: png }));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ErrorCode.UPLOAD_POLICY_INVALID);
    await nothingStored(sameEnt);
    const otherEnt = enterpriseKey('ent-b', 'materials', 'm-1.png');
    res = await post(form({ ...signature.fields, key: otherEnt }, { type: 'image/png', data: png }));
    expect(res.json().code).toBe(ErrorCode.UPLOAD_POLICY_INVALID);
    await nothingStored(otherEnt);
    await nothingStored();
  });

  it('refuses a file larger or smaller than the range', async () => {
    const signature = sign({ minBytes: 100, maxBytes: 1000 });
    let res = await post(form(signature.fields, { type: 'image/png', data: Buffer.alloc(1001, 1) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe(ErrorCode.FILE_TOO_LARGE);
    await nothingStored();
    res = await post(form(signature.fields, { type: 'image/png', data: Buffer.alloc(99, 1) }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(ErrorCode.UPLOAD_FILE_TOO_SMALL);
    await nothingStored();
    // The bounds themselves are inside.
    res = await post(form(signature.fields, { type: 'image/png', data: Buffer.alloc(1000, 1) }));
    expect(res.json().payload.size).toBe(1000);
  });

  it('refuses a type the policy does not name', async () => {
    const signature = sign({ contentTypes: ['image/png', 'video/'] });
    for (const type of ['application/pdf', 'image/jpeg', 'text/html']) {
      const res = await post(form(signature.fields, { type, data: png }));
      expect(res.statusCode).toBe(415);
      expect(res.json().code).toBe(ErrorCode.FILE_FORMAT_ERROR);
    }
    // A Content-Type field (S3's) that differs from the part's type is refused too.
    const res = await post(
      form({ ...signature.fields, 'Content-Type': 'image/png' }, { type: 'text/html', data: png }),
    );
    expect(res.json().code).toBe(ErrorCode.FILE_FORMAT_ERROR);
    await nothingStored();
    const ok = await post(form(signature.fields, { type: 'video/mp4', data: png }));
    expect(ok.json().code).toBe(0);
  });

  it('removes the file when the callback refuses it, answering the callback error', async () => {
    refuse = new AppError(ErrorCode.CONFLICT);
    const res = await post(form(sign().fields, { type: 'image/png', data: png }));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe(ErrorCode.CONFLICT);
    await nothingStored();
  });

  it('refuses a request that is not a multipart form with a file', async () => {
    let res = await app.inject({ method: 'POST', url: '/upload', payload: { a: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(ErrorCode.UPLOAD_MALFORMED);
    const fieldsOnly = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="key"\r\n\r\n${key}\r\n--${BOUNDARY}--\r\n`,
    );
    res = await post(fieldsOnly);
    expect(res.json().code).toBe(ErrorCode.UPLOAD_MALFORMED);
    // A form cut short before its closing boundary.
    const whole = form(sign().fields, { type: 'image/png', data: png });
    res = await post(whole.subarray(0, whole.length - 100));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(ErrorCode.UPLOAD_INCOMPLETE);
    await nothingStored();
  });

  it('leaves no object and runs no callback when the client aborts mid-body', async () => {
    const signature = sign({ maxBytes: 50 * 1024 * 1024 });
    const head = form(signature.fields, { type: 'image/png', data: Buffer.alloc(0) });
    const prefix = head.subarray(0, head.length - `\r\n--${BOUNDARY}--\r\n`.length);
    const answered = new Promise<void>((resolve) => {
      app.server.once('request', (_req, res) => res.once('close', () => resolve()));
    });
    const req = httpRequest(`${base}/upload`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(prefix.length + 10 * 1024 * 1024),
      },
    });
    req.on('error', () => {});
    req.write(prefix);
    req.write(Buffer.alloc(256 * 1024, 3));
    // Wait until the server is writing the file, then break the connection.
    for (let i = 0; i < 500; i++) {
      const parts = await readdir(join(root, '.tmp')).catch(() => []);
      if (parts.length > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await readdir(join(root, '.tmp'))).length).toBe(1);
    req.destroy();
    await answered;
    // The handler finished with the broken upload: poll until its temporary file is gone.
    for (let i = 0; i < 500 && (await readdir(join(root, '.tmp'))).length > 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await nothingStored();
  });
});
