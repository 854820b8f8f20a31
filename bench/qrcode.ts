// QR code events (issue 31): the short link's redirect (GET /q/<token>) under load, and no scan
// lost while the database is slow. On PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; a scratch database is created and dropped), the
// app built in this process and listening on a free port, driven by a paced loop of HTTP
// requests over keep-alive connections (no load tool in node_modules; client and server share
// this process's event loop, so the figures include the client's own work).
//
// 1. BENCH_RATE scans/s (default 1,000) for BENCH_SECONDS (default 10) over 100 screens' links:
//    redirect latency p50/p99/max, the rate achieved, every answer a 302; then the writer's
//    batches flushed and the rows counted (aim: p99 at most 5 ms; rows = scans).
// 2. The same rate for BENCH_SLOW_SECONDS (default 10) while another connection holds
//    `LOCK TABLE qrcode_scans IN ACCESS EXCLUSIVE MODE` (every insert waits): redirect latency
//    during the lock, scans held in memory and in the spill file under DATA_DIR (the memory
//    queue lowered to 2,000 so the file is used), then the lock released: how long until every
//    scan is written, and the rows counted (aim: rows = scans, the spill file gone).
// Figures, never assertions.
//
//   npx tsx bench/qrcode.ts   BENCH_RATE=1000 BENCH_SECONDS=10 BENCH_SLOW_SECONDS=10
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { encodeQrToken, qrLinkKey } from '../apps/server/src/modules/content/qrToken.js';
import { percentile } from './lib.js';
import { benchApp, load1, ms, operator, rowsOf, scratch, screens } from './sales-lib.js';

const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SLOW_SECONDS = Number(process.env.BENCH_SLOW_SECONDS ?? 10);
const SCREENS = 100;

/** Sends `rate` requests a second for `seconds`, paced every 10 ms; each request's latency in ms. */
async function drive(port: number, paths: string[], rate: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const total = Math.round(rate * seconds);
  let sent = 0;
  const inflight = new Set<Promise<void>>();
  const one = (path: string) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.get(
        { host: '127.0.0.1', port, path, agent, headers: { 'user-agent': 'bench', 'accept-language': 'zh-CN' } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - t0);
            statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
            resolve();
          });
        },
      );
      req.on('error', () => {
        statuses.set(-1, (statuses.get(-1) ?? 0) + 1);
        resolve();
      });
    });
  const start = performance.now();
  while (sent < total) {
    // Open loop: as many as the schedule says by now, whatever the answers' pace.
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
    while (sent < due) {
      const p = one(paths[sent % paths.length]);
      inflight.add(p);
      void p.then(() => inflight.delete(p));
      sent++;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    sent,
    rate: sent / elapsed,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    statuses: [...statuses].map(([s, n]) => `${s}: ${n}`).join(', '),
  };
}

const s = await scratch('qrcode', 10);
const { app } = await benchApp(s);
try {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const { entId } = await operator(s.db, 0);
  const fleet = await screens(s.db, entId, SCREENS, 'qr');
  const key = qrLinkKey(app.services.secret);
  const paths = Array.from({ length: SCREENS }, (_, i) => {
    const token = encodeQrToken(key, {
      deviceId: fleet.ids(i + 1),
      layoutId: '00000000-0000-4000-8000-000000000001',
      adId: '',
      componentId: 'qr-offer',
      target: `https://example.com/offer/${i + 1}?utm_source=screen`,
    });
    return `/q/${token}`;
  });
  const rows = async () => Number(rowsOf(await s.db.execute(sql`select count(*)::int as n from qrcode_scans`))[0].n);
  console.log(`load average ${load1()}; link length ${`http://localhost${paths[0]}`.length} characters`);

  // Warm-up (JIT, connections): not counted in the figures, counted in the rows.
  const warm = await drive(port, paths, RATE, 3);
  const recorder = app.qrcodeScans;
  await recorder.flush(30_000);

  // 1. Nominal.
  const nominal = await drive(port, paths, RATE, SECONDS);
  const t0 = performance.now();
  await recorder.flush(60_000);
  const flushMs = performance.now() - t0;
  const after1 = await rows();
  console.log(
    `\nredirect at ${RATE}/s for ${SECONDS} s: ${nominal.sent} scans at ${nominal.rate.toFixed(0)}/s; ` +
      `p50 ${ms(nominal.p50)} ms, p90 ${ms(nominal.p90)} ms, p99 ${ms(nominal.p99)} ms, max ${ms(nominal.max)} ms (aim p99 <= 5 ms); answers ${nominal.statuses}`,
  );
  console.log(
    `  written: ${after1} rows for ${warm.sent + nominal.sent} scans (${after1 === warm.sent + nominal.sent ? 'all' : 'MISSING'}); ` +
      `the last batch written ${flushMs.toFixed(0)} ms after the last answer`,
  );

  // 2. The database slowed: the table locked by another connection.
  recorder.maxQueued = 2_000;
  const locker = new pg.Client({ connectionString: s.url });
  await locker.connect();
  await locker.query('begin');
  await locker.query('lock table qrcode_scans in access exclusive mode');
  const slow = await drive(port, paths, RATE, SLOW_SECONDS);
  const spillDir = join(app.services.config.dataDir, 'qrcode');
  const spillFiles = existsSync(spillDir) ? readdirSync(spillDir) : [];
  const pendingAtUnlock = recorder.pending();
  // (Rows cannot be counted while the lock is held: it blocks reads too.)
  const before = after1;
  const t1 = performance.now();
  await locker.query('commit');
  await locker.end();
  await recorder.flush(120_000);
  const recoverMs = performance.now() - t1;
  const after2 = await rows();
  const expected = before + slow.sent;
  console.log(
    `\nredirect at ${RATE}/s for ${SLOW_SECONDS} s with qrcode_scans locked: ${slow.sent} scans at ${slow.rate.toFixed(0)}/s; ` +
      `p50 ${ms(slow.p50)} ms, p90 ${ms(slow.p90)} ms, p99 ${ms(slow.p99)} ms, max ${ms(slow.max)} ms; answers ${slow.statuses}`,
  );
  console.log(
    `  while locked: ${pendingAtUnlock} scans waiting (memory queue at most ${recorder.maxQueued}, the rest in ${spillFiles.join(', ') || 'no file'} under ${spillDir})`,
  );
  console.log(
    `  lock released: every scan written ${recoverMs.toFixed(0)} ms later; ${after2} rows for ${expected} scans ` +
      `(${after2 === expected ? 'none lost' : 'MISSING'}); spill files left: ${existsSync(spillDir) ? readdirSync(spillDir).length : 0}`,
  );
} finally {
  await app.close();
  await s.done();
}
