// Direct uploads through the local back end (issue 10): a file of 256 MB and one of 1 GB
// POSTed to `POST /upload` of an in-process server (the real upload route and Files over
// LocalDiskStorage) with a signed policy, against `cp` of the same file on the same disk.
// Prints the throughput ratio (upload / cp, aim >= 0.5) and the process's peak RSS above
// idle during each upload (aim < 150 MB, the same for both sizes: the file streams). The
// client runs in the same process and streams the file from disk, so its memory is counted
// too. `BENCH_UPLOAD_SIZES_MB` (default 256,1024), `BENCH_DIR` (default the OS temp dir).
// The big files are deleted afterwards.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { Files } from '../apps/server/src/storage/files.js';
import { LocalDiskStorage } from '../apps/server/src/storage/local.js';
import { enterpriseKey } from '../apps/server/src/storage/storage.js';
import { registerUploadRoute } from '../apps/server/src/storage/upload.js';

const MB = 1024 * 1024;
const sizes = (process.env.BENCH_UPLOAD_SIZES_MB ?? '256,1024').split(',').map((s) => Number(s.trim()) * MB);
const work = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'mq-bench-upload-'));

async function makeFile(path: string, size: number): Promise<void> {
  const block = randomBytes(8 * MB);
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += block.length) {
    const chunk = block.subarray(0, Math.min(block.length, size - written));
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** POSTs `path` as the `file` of a multipart form with `fields`, streamed from disk. */
function upload(port: number, fields: Record<string, string>, path: string, size: number) {
  const boundary = `----mq-bench-${randomBytes(6).toString('hex')}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\nContent-Type: application/zip\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/upload',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': Buffer.byteLength(head) + size + Buffer.byteLength(tail),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
    file.on('error', reject);
  });
}

const root = join(work, 'files');
const files = new Files(new LocalDiskStorage(root), 'bench-secret', Date.now);
const app = Fastify();
await registerUploadRoute(app, files);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;

const rows: string[] = [];
try {
  for (const size of sizes) {
    const source = join(work, `source-${size}.bin`);
    await makeFile(source, size);
    // cp of the same file on the same disk (the file is in the page cache for both).
    const copy = join(work, `copy-${size}.bin`);
    let started = process.hrtime.bigint();
    const cp = spawnSync('cp', [source, copy]);
    if (cp.status !== 0) throw new Error(`cp failed: ${cp.stderr}`);
    spawnSync('sync');
    const cpSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    await rm(copy, { force: true });

    const key = enterpriseKey('ent-bench', 'materials', `big-${size}.zip`);
    const signature = files.createUpload({
      entId: 'ent-bench',
      key,
      minBytes: 1,
      maxBytes: 2 * 1024 * MB,
      contentTypes: ['application/zip'],
    });
    global.gc?.();
    await new Promise((r) => setTimeout(r, 200));
    const idle = process.memoryUsage.rss();
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 20);
    started = process.hrtime.bigint();
    const answer = await upload(port, signature.fields, source, size);
    spawnSync('sync');
    const upSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    if (answer.status !== 200) throw new Error(`upload answered ${answer.status}: ${answer.body}`);
    const stored = await stat(join(root, ...key.split('/')));
    if (stored.size !== size) throw new Error(`stored ${stored.size} bytes of ${size}`);
    await files.storage.delete(key);
    await rm(source, { force: true });

    const mb = size / MB;
    rows.push(
      `| ${mb} MB | ${(mb / cpSeconds).toFixed(0)} MB/s (${cpSeconds.toFixed(2)} s) | ${(mb / upSeconds).toFixed(0)} MB/s (${upSeconds.toFixed(2)} s) | ${(cpSeconds / upSeconds).toFixed(2)} | ${((peak - idle) / MB).toFixed(1)} MB |`,
    );
  }
  console.log('| file | cp | POST /upload | ratio (upload/cp, aim >= 0.5) | peak RSS above idle (aim < 150 MB) |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await app.close();
  await rm(work, { recursive: true, force: true });
}
