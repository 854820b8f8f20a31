import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSignedCall, type Envelope, toQueryString } from '@marquee/protocol';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

let seq = 0;
/** A signed console call as the web client makes it. */
export function signed(path: string, data: unknown, token?: string) {
  const call = buildSignedCall(data, {
    token,
    language: 'en-US',
    uuid: 'bench-device',
    sequence: `b${process.pid}-${Date.now()}-${seq++}`,
    traceKey: `bench-${seq}`,
  });
  return { url: `${path}?${toQueryString(call.query)}`, body: call.body };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export function post(port: number, url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'user-id': '86',
          platform: '2',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function callApi<T>(port: number, path: string, data: unknown, token?: string): Promise<Envelope<T>> {
  const { url, body } = signed(path, data, token);
  const res = await post(port, url, body);
  return JSON.parse(res.text) as Envelope<T>;
}

/**
 * A TCP port free on the loopback at this moment (the system's choice): benches never take a
 * fixed port, which the product or another bench may hold.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `npm start`'s entry with its own port (a free one when none is given) and data
 * directory; resolves when it answers. The embedded broker's TCP port is off unless
 * `env.MQTT_TCP_PORT` names one.
 */
export async function startServer(opts: {
  port?: number;
  dataDir: string;
  fresh?: boolean;
  env?: Record<string, string>;
  /** How long to wait for it to answer (a fresh data directory migrates and seeds first). */
  readyTimeoutMs?: number;
}) {
  if (opts.fresh) rmSync(opts.dataDir, { recursive: true, force: true });
  const port = opts.port ?? (await freePort());
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: opts.dataDir,
      LOG_LEVEL: 'warn',
      MQTT_TCP_PORT: 'off',
      // The demo fleet's players would add their load to every figure; a bench asks for it by name.
      DEMO_PLAYERS: 'off',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout?.resume();
  await waitForPort(port, child, opts.readyTimeoutMs);
  return { child, readyMs: performance.now() - started, port };
}

export async function waitForPort(port: number, child?: ChildProcess, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { method: 'GET' });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  throw new Error(`port ${port} did not answer within ${timeoutMs} ms`);
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Closed-loop load: `concurrency` workers each send `make()` requests back to back for
 * `durationMs`; returns requests per second and latency percentiles in ms.
 */
export async function load(make: () => Promise<unknown>, concurrency: number, durationMs: number) {
  const latencies: number[] = [];
  const end = performance.now() + durationMs;
  let errors = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        await make();
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  return summarize(latencies, seconds, errors);
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  latencies: number[];
  seconds: number;
}

function summarize(latencies: number[], seconds: number, errors: number): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    latencies,
    seconds,
  };
}

/** One result from several rounds of `load`: total requests over total time, pooled latencies. */
export function combine(rounds: LoadResult[]): LoadResult {
  return summarize(
    rounds.flatMap((r) => r.latencies),
    rounds.reduce((s, r) => s + r.seconds, 0),
    rounds.reduce((s, r) => s + r.errors, 0),
  );
}

/** The PostgreSQL server benches make their scratch databases on. */
export const BENCH_ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A new, empty database on BENCH_ADMIN_URL's server; `drop()` removes it (forcing its connections off). */
export async function scratchDatabase(prefix = 'mq_bench'): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
