// The ad report of one campaign (issue 13 'Tests and figures'): p50/p95/p99 of report.adDetail,
// report.adDevices and report.adList, the functions the endpoints run (modules/reports/service.ts, with the
// caller's data scope), over 100 days x 10,000 devices of rollups for one ad (1,000,000
// daily rows: 100,000,000 plays' worth at 100 plays per device and day; the hourly rows of
// the days the hourly profile reads), on PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; a scratch database is created, filled with
// INSERT ... SELECT generate_series, and dropped). Figures, never assertions.
//
//   npx tsx bench/ad-report.ts        BENCH_DAYS=100 BENCH_DEVICES=10000 BENCH_ITERATIONS=30
import { randomBytes, randomUUID } from 'node:crypto';
import { REPORT_HOURLY_DAYS } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.js';
import { accounts, ads, departments, enterprises } from '../apps/server/src/db/schema/index.js';
import { ensureDefaultPlan } from '../apps/server/src/modules/ads/plans.js';
import { recomputeAdDaily, refreshAdDevices } from '../apps/server/src/modules/content/rollups.js';
import {
  adReportDetail,
  adReportDevices,
  adReportList,
  type ReportCaller,
} from '../apps/server/src/modules/reports/service.js';
import { percentile } from './lib.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DAYS = Number(process.env.BENCH_DAYS ?? 100);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const DAY_MS = 86_400_000;

// BENCH_DB=<name>: measure a database kept by an earlier run (BENCH_KEEP=1) instead of seeding one.
const reuse = process.env.BENCH_DB;
const keep = Boolean(process.env.BENCH_KEEP) || Boolean(reuse);
const name = reuse ?? `mq_bench_adr_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
if (!reuse) await admin.query(`create database "${name}"`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 4 });
const f = (n: number) => n.toFixed(1);

try {
  await database.migrate();
  const db = database.db;
  const t0 = performance.now();
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const first = new Date(Date.parse(`${today}T00:00:00Z`) - (DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const seeded = reuse ? await db.select().from(ads).limit(1) : [];
  const { ent, owner, ad } = seeded.length
    ? {
        ent: { id: seeded[0].entId },
        owner: { id: seeded[0].ownerId },
        ad: seeded[0],
      }
    : await seed();
  const root = (
    await db.select({ id: departments.id }).from(departments).where(sql`${departments.entId} = ${ent.id}`)
  )[0].id;
  console.log(`database ${name}${keep ? ' (kept)' : ''}`);

  async function seed() {
    const [ent] = await db.insert(enterprises).values({ kind: 'enterprise', name: 'Bench Campaign' }).returning();
    const root = randomUUID();
    await db
      .insert(departments)
      .values({ id: root, entId: ent.id, parentId: null, name: 'Root', path: `/${root}/`, depth: 0 });
    const [owner] = await db
      .insert(accounts)
      .values({
        entId: ent.id,
        loginName: `bench_adr_${name}`,
        realName: 'Bench',
        passwordHash: 'x',
        currentDeptId: root,
      })
      .returning();
    const planId = await ensureDefaultPlan(db, ent.id);
    const materialId = randomUUID();
    // One campaign over the whole range on every screen of the enterprise (its root department),
    // 100 plays a day each (per day, minimum 100).
    const [ad] = await db
      .insert(ads)
      .values({
        entId: ent.id,
        deptId: root,
        ownerId: owner.id,
        name: 'Bench campaign',
        type: 'common',
        planId,
        startAt: new Date(Date.parse(`${first}T00:00:00Z`)),
        endAt: new Date(Date.parse(`${today}T00:00:00Z`) + 30 * DAY_MS),
        strategy: 'perDay',
        playsMin: 100,
        playsMax: 120,
        materialIds: [materialId],
        targets: { deviceIds: [], groupIds: [], tagIds: [], deptIds: [root], spliceIds: [] },
        reviewState: 'passed',
        downloadedAt: new Date(Date.parse(`${first}T00:00:00Z`)),
      })
      .returning();
    await db.execute(sql`
    insert into devices (id, ent_id, dept_id, owner_id, number, name, status, activated_at, created_at, updated_at)
    select 'dev-' || g, ${ent.id}, ${root}, ${owner.id}, 'SN' || lpad(g::text, 6, '0'), 'Screen ' || g, 'online',
      now() - interval '200 days', now(), now()
    from generate_series(1, ${DEVICES}::int) g`);
    // Daily rollups: every device, every day, 90 to 110 plays of 10 s (some devices under-deliver).
    await db.execute(sql`
    insert into play_rollups_daily (day, ent_id, device_id, ad_id, material_id, plays, completed, duration_ms)
    select ${first}::date + d, ${ent.id}, 'dev-' || g, ${ad.id}, ${materialId}, 90 + (g + d) % 21, 90 + (g + d) % 21 - 1,
      (90 + (g + d) % 21) * 10000
    from generate_series(0, ${DAYS - 1}::int) d, generate_series(1, ${DEVICES}::int) g`);
    // Hourly rollups of the days the hourly profile reads (the range's last REPORT_HOURLY_DAYS),
    // 12 hours a day.
    const hourlyDays = Math.min(DAYS, REPORT_HOURLY_DAYS);
    await db.execute(sql`
    insert into play_rollups_hourly (day, hour, ent_id, device_id, ad_id, material_id, plays, completed, duration_ms)
    select ${today}::date - d, h, ${ent.id}, 'dev-' || g, ${ad.id}, ${materialId}, 8, 8, 80000
    from generate_series(0, ${hourlyDays - 1}::int) d, generate_series(8, 19) h, generate_series(1, ${DEVICES}::int) g`);
    // The ad-daily rollups through the play-rollups job's own function: its (ad, day) rows.
    const tAd = performance.now();
    await recomputeAdDaily(
      db,
      Array.from({ length: DAYS }, (_, d) => ({
        ent_id: ent.id,
        ad_id: ad.id,
        day: new Date(Date.parse(`${first}T00:00:00Z`) + d * DAY_MS).toISOString().slice(0, 10),
      })),
    );
    console.log(`ad-daily rollups of ${DAYS} days recomputed in ${f((performance.now() - tAd) / 1000)} s`);
    // The per-ad, per-device rollups (report.adDevices reads them): the job's per-day rows (its
    // materials summed), then its running totals and totals of every device's series.
    const tDev = performance.now();
    await db.execute(sql`
    insert into play_rollups_ad_device_daily
      (ent_id, ad_id, device_id, day, plays, completed, duration_ms, cum_plays, cum_completed, cum_duration_ms)
    select ent_id, ad_id, device_id, day, sum(plays), sum(completed), sum(duration_ms), 0, 0, 0
    from play_rollups_daily where ent_id = ${ent.id} group by ent_id, ad_id, device_id, day`);
    await db.execute(sql`analyze play_rollups_ad_device_daily`);
    await refreshAdDevices(
      db,
      Array.from({ length: DEVICES }, (_, g) => ({
        ent_id: ent.id,
        ad_id: ad.id,
        device_id: `dev-${g + 1}`,
        day: first,
      })),
    );
    console.log(`per-ad, per-device rollups of ${DEVICES} devices made in ${f((performance.now() - tDev) / 1000)} s`);
    await db.execute(sql`vacuum analyze`);
    console.log(
      `seeded ${DEVICES} devices x ${DAYS} days (${DEVICES * DAYS} daily rows, ${DEVICES * hourlyDays * 12} hourly rows) in ${f((performance.now() - t0) / 1000)} s`,
    );
    return { ent, owner, ad };
  }

  const caller: ReportCaller = {
    db,
    user: { entId: ent.id, accountId: owner.id, deptId: root, deptPath: `/${root}/`, dataScope: 'all' },
    now,
    language: 'en-US',
  };
  const range = { from: first, to: today };
  const measure = async (label: string, run: () => Promise<unknown>) => {
    await run(); // warm: plans, caches
    const times: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const s = performance.now();
      await run();
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => f(percentile(times, q));
    console.log(`${label}: p50 ${p(50)} ms, p95 ${p(95)} ms, p99 ${p(99)} ms (${ITERATIONS} calls; aim p99 <= 500 ms)`);
  };
  const detail = await adReportDetail(caller, { id: ad.id, ...range });
  console.log(
    `report.adDetail answers ${detail.totals.plays} plays on ${detail.totals.devices} devices, expected ${detail.totals.expected}, delivery ${detail.totals.deliveryPct} %, full rate ${detail.totals.fullRate} %`,
  );
  await measure(`report.adDetail (${DAYS} days, ${DEVICES} devices)`, () =>
    adReportDetail(caller, { id: ad.id, ...range }),
  );
  await measure(`report.adDevices (${DAYS} days, first page)`, () =>
    adReportDevices(caller, { id: ad.id, ...range, page: 1, size: 20 }),
  );
  await measure(`report.adDevices, under-delivered devices by delivery`, () =>
    adReportDevices(caller, { id: ad.id, ...range, page: 2, size: 20, underOnly: true, sort: 'deliveryPct' }),
  );
  const inside = {
    from: new Date(Date.parse(`${first}T00:00:00Z`) + Math.floor(DAYS / 10) * DAY_MS).toISOString().slice(0, 10),
    to: new Date(Date.parse(`${today}T00:00:00Z`) - Math.floor(DAYS / 20) * DAY_MS).toISOString().slice(0, 10),
  };
  await measure(`report.adDevices, ${inside.from} to ${inside.to} (a range inside the campaign)`, () =>
    adReportDevices(caller, { id: ad.id, ...inside, page: 1, size: 20 }),
  );
  await measure(`report.adList (${DAYS} days)`, () => adReportList(caller, { ...range, page: 1, size: 50 }));
  await measure(`report.adList, last 7 days`, () => adReportList(caller, { page: 1, size: 50 }));
} finally {
  await database.close();
  if (!keep) await admin.query(`drop database if exists "${name}"`);
  await admin.end();
}
