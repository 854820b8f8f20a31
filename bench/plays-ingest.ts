// The proof-of-play ingest (issue 13) on PostgreSQL: events stored per second through the
// service function the device upload (POST /api/device/plays) calls, modules/content/plays.ts
// ingestPlays, in batches of the player's batch size (500, apps/player/src/logic/journal.ts)
// from several devices at once, each batch its own statement. Figures, never assertions.
//   npm run bench -- plays-ingest   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
//   a scratch database is created and dropped; BENCH_PLAYS_DEVICES=8, BENCH_PLAYS_MS=10000, BENCH_PLAYS_BATCH=500)
// bench/player.ts measures the same path through HTTP (device auth, JSON, the answer).
import { randomUUID } from 'node:crypto';
import type { PlayEvent } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { ingestPlays } from '../apps/server/src/modules/content/plays.js';
import { percentile, scratchDatabase } from './lib.js';

const DEVICES = Number(process.env.BENCH_PLAYS_DEVICES ?? 8);
const DURATION_MS = Number(process.env.BENCH_PLAYS_MS ?? 10_000);
const BATCH = Number(process.env.BENCH_PLAYS_BATCH ?? 500);

const scratch = await scratchDatabase();
const database = await openDatabase({ databaseUrl: scratch.url, maxConnections: DEVICES + 2 });

/** One device's batch: plays of the last three days (three partitions), each a new event id. */
function batch(now: number): PlayEvent[] {
  return Array.from({ length: BATCH }, (_, i) => ({
    id: randomUUID(),
    materialId: `m-${i % 20}`,
    layoutId: null,
    componentId: null,
    adId: `a-${i % 50}`,
    start: now - (i % 3) * 86_400_000 - i * 1000,
    durationMs: 10_000,
    outcome: 'completed' as const,
  }));
}

try {
  await database.migrate();
  const db = database.db;
  const now = Date.now();
  // Warm up: the partitions exist and the pool's connections are open.
  await Promise.all(
    Array.from({ length: DEVICES }, (_, d) => ingestPlays(db, { id: `warm-${d}`, entId: 'e-bench' }, batch(now), now)),
  );
  const latencies: number[] = [];
  let stored = 0;
  const started = performance.now();
  const deadline = started + DURATION_MS;
  await Promise.all(
    Array.from({ length: DEVICES }, async (_, d) => {
      const device = { id: `bench-device-${d}`, entId: 'e-bench' };
      while (performance.now() < deadline) {
        const events = batch(now);
        const t = performance.now();
        const answer = await ingestPlays(db, device, events, now);
        latencies.push(performance.now() - t);
        stored += answer.accepted.length;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `plays ingest (service, PostgreSQL): ${Math.round(stored / seconds)} events/s — ${stored} events in ${latencies.length} batches of ${BATCH}, ${DEVICES} devices at once, ${seconds.toFixed(1)} s; batch p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (aim >= 20,000 events/s)`,
  );
  // A batch sent again (the device lost the answer): every event a duplicate, nothing stored twice.
  const again = batch(now);
  await ingestPlays(db, { id: 'bench-retry', entId: 'e-bench' }, again, now);
  const t = performance.now();
  const repeat = await ingestPlays(db, { id: 'bench-retry', entId: 'e-bench' }, again, now);
  console.log(
    `a batch sent again: ${repeat.duplicate.length} duplicates, ${repeat.accepted.length} accepted, ${(performance.now() - t).toFixed(1)} ms`,
  );
  const count = (await db.execute(sql`select count(*)::int as n from plays`)) as unknown as { rows: { n: number }[] };
  console.log(`rows in plays: ${count.rows[0].n}`);
} finally {
  await database.close();
  await scratch.drop();
}
