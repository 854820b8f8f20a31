// Per-device download state (issue 12) on PostgreSQL: the cost of storing heartbeats' download
// reports through recordDownloads (modules/devices/downloads.ts, what the gateway calls when a
// device's report changed), and what the gateway's in-memory filter saves on the repeats.
// Figures, never assertions.
//   npm run bench -- download-states   (BENCH_DATABASE_URL; a scratch database is created and dropped;
//   BENCH_DL_DEVICES=500, BENCH_DL_MATERIALS=50, BENCH_DL_ROUNDS=5)
import { randomUUID } from 'node:crypto';
import type { DownloadReport } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { accounts, devices, enterprises, materialFolders } from '../apps/server/src/db/schema/index.js';
import { DownloadReports, recordDownloads } from '../apps/server/src/modules/devices/downloads.js';
import { percentile, scratchDatabase } from './lib.js';

const DEVICES = Number(process.env.BENCH_DL_DEVICES ?? 500);
const MATERIALS = Number(process.env.BENCH_DL_MATERIALS ?? 50);
const ROUNDS = Number(process.env.BENCH_DL_ROUNDS ?? 5);
const CONCURRENCY = 8;

const scratch = await scratchDatabase();
const database = await openDatabase({ databaseUrl: scratch.url, maxConnections: CONCURRENCY + 2 });

try {
  await database.migrate();
  const db = database.db;
  const [ent] = await db.insert(enterprises).values({ kind: 'enterprise', name: 'Bench Downloads' }).returning();
  const owner = randomUUID();
  await db
    .insert(accounts)
    .values({ id: owner, entId: ent.id, loginName: `bench_dl_${owner}`, realName: 'bench', passwordHash: 'x' });
  const folder = randomUUID();
  await db
    .insert(materialFolders)
    .values({ id: folder, entId: ent.id, path: `/${folder}/`, depth: 1, name: 'Bench', ownerId: owner });
  const materialIds = Array.from({ length: MATERIALS }, () => randomUUID());
  await db.execute(sql`
    insert into materials (id, ent_id, folder_id, owner_id, name, type, size, bytes, status)
    select id, ${ent.id}, ${folder}, ${owner}, 'M', 'image', 1000000, 1000000, 'ready'
    from unnest(${sql.raw(`array[${materialIds.map((m) => `'${m}'`).join(',')}]::text[]`)}) as id`);
  const deviceIds = Array.from({ length: DEVICES }, () => randomUUID());
  await db.insert(devices).values(deviceIds.map((id, i) => ({ id, entId: ent.id, name: `Screen ${i}` })));

  const now = Date.now();
  const reportOf = (round: number): DownloadReport[] =>
    materialIds.map((materialId, i) => {
      const done = Math.min(1, (round + 1) / ROUNDS + i / (MATERIALS * ROUNDS));
      const state = done >= 1 ? 'successful' : 'downloading';
      return {
        materialId,
        state,
        bytes: Math.round(done * 1_000_000),
        size: 1_000_000,
        at: now - 1000 * (ROUNDS - round),
      };
    });
  const run = async (label: string, round: number, filter?: DownloadReports) => {
    const downloads = reportOf(round);
    const latencies: number[] = [];
    let written = 0;
    let skipped = 0;
    const queue = [...deviceIds];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let id = queue.shift(); id; id = queue.shift()) {
          const content = { manifestVersion: round === ROUNDS - 1 ? 'v1' : null, pendingVersion: 'v1', downloads };
          const t = performance.now();
          if (filter && !filter.changed(id, content)) {
            skipped++;
          } else {
            const result = await recordDownloads(db, { id, entId: ent.id }, content, new Date());
            written += result.written;
            filter?.stored(id, content);
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      `${label}: ${Math.round(DEVICES / seconds)} reports/s (${MATERIALS} materials each, ${CONCURRENCY} at once), p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms; rows written ${written}, reports skipped in memory ${skipped}`,
    );
  };
  const filter = new DownloadReports();
  for (let round = 0; round < ROUNDS; round++) await run(`round ${round + 1}, states changed`, round, filter);
  await run('the same report again, gateway filter', ROUNDS - 1, filter);
  await run('the same report again, no filter (another instance): upsert changes nothing', ROUNDS - 1);
  const count = (await db.execute(sql`select count(*)::int as n from device_downloads`)) as unknown as {
    rows: { n: number }[];
  };
  console.log(`rows in device_downloads: ${count.rows[0].n} (${DEVICES} devices x ${MATERIALS} materials)`);
} finally {
  await database.close();
  await scratch.drop();
}
