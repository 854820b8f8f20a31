// (a) Throughput and p99 of a signed, authenticated notice-list call against the real
// server, and of a bare Fastify route, measured in the same run with the same client.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { endpoints, type LoginResponse } from '@marquee/protocol';
import { callApi, combine, freePort, load, post, root, signed, startServer, stop, waitForPort } from './lib.js';

const DURATION = Number(process.env.BENCH_MS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const API_PORT = await freePort();
const BARE_PORT = await freePort();

const { child: server } = await startServer({ port: API_PORT, dataDir: join(root, '.tmp/bench-api'), fresh: true });
const bare = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/bare-server.ts')], {
  cwd: root,
  env: { ...process.env, PORT: String(BARE_PORT) },
  stdio: 'inherit',
});
try {
  await waitForPort(BARE_PORT, bare);
  const login = await callApi<LoginResponse>(API_PORT, endpoints.login.path, {
    loginName: 'entadmin',
    password: 'Marquee@2026',
  });
  if (login.code !== 0) throw new Error(`login failed: ${JSON.stringify(login)}`);
  const token = login.payload.token;
  const noticeCall = async () => {
    const { url, body } = signed(endpoints.noticeList.path, { page: 1, size: 10, pushPlatform: 1 }, token);
    const res = await post(API_PORT, url, body);
    if (!res.text.startsWith('{"code":0')) throw new Error(res.text.slice(0, 200));
  };
  const bareCall = async () => {
    const { url, body } = signed('/bare', { page: 1, size: 10, pushPlatform: 1 }, token);
    await post(BARE_PORT, url, body);
  };
  // Warm both paths (JIT, caches, connections) before measuring.
  await load(noticeCall, CONCURRENCY, 1000);
  await load(bareCall, CONCURRENCY, 1000);
  // Alternate short rounds so background load on this shared machine hits both sides alike.
  const ROUNDS = 4;
  const apiRounds: Awaited<ReturnType<typeof load>>[] = [];
  const bareRounds: Awaited<ReturnType<typeof load>>[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    apiRounds.push(await load(noticeCall, CONCURRENCY, DURATION / ROUNDS));
    bareRounds.push(await load(bareCall, CONCURRENCY, DURATION / ROUNDS));
  }
  const api = combine(apiRounds);
  const base = combine(bareRounds);
  const fmt = (r: typeof api) =>
    `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${r.requests} requests, ${r.errors} errors`;
  console.log(`concurrency ${CONCURRENCY}, ${DURATION} ms each`);
  console.log(`signed notice.list : ${fmt(api)}`);
  console.log(`bare Fastify route : ${fmt(base)}`);
  console.log(`ratio (notice.list / bare): ${(api.rps / base.rps).toFixed(2)}  (aim >= 0.5)`);
} finally {
  await stop(server);
  await stop(bare);
}
