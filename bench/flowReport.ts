// The consumption report (issue 27, modules/flow): on PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; a scratch database is created and dropped), one
// enterprise with 10,000 IoT cards, each bound to its own device, and 365 days of usage for
// every card in flow_days (3,650,000 rows, INSERT ... SELECT generate_series, and the
// enterprise's daily totals in flow_ent_days), then VACUUM ANALYZE; then p50/p95/p99 of
// flow.usageReport as the endpoint runs it (the flow module's usageReport: the page, the total
// counted up to FLOW_REPORT_TOTAL_CAP, the series of every day): a 30-day range page 1, a
// 365-day range page 1, and a 30-day range with a keyword (aim p99 <= 50 ms).
// Figures, never assertions; the machine's load average is printed with them.
//
//   npx tsx bench/flowReport.ts     BENCH_CARDS=10000 BENCH_DAYS=365 BENCH_ITERATIONS=100
//   BENCH_KEEP=1 keeps the database; BENCH_DB=<name> measures a kept one (no seeding);
//   BENCH_EXPLAIN=1 prints the plans of the page and the count.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { FLOW_REPORT_TOTAL_CAP } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.js';
import { usageWhere } from '../apps/server/src/modules/flow/repository.js';
import { usageReport } from '../apps/server/src/modules/flow/service.js';
import { percentile } from './lib.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CARDS = Number(process.env.BENCH_CARDS ?? 10_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
const LAST_DAY = '2026-11-27';

const reuse = process.env.BENCH_DB;
const keep = Boolean(process.env.BENCH_KEEP) || Boolean(reuse);
const name = reuse ?? `mq_bench_flow_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
if (!reuse) await admin.query(`create database "${name}"`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 8 });
const db = database.db;
const f = (n: number) => n.toFixed(1);
const load1 = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const dayBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

try {
  await database.migrate();
  console.log(`database ${name}${keep ? ' (kept)' : ''}; load average ${load1()} (1, 5, 15 min)`);
  const entId = 'bench-flow-ent';
  if (!reuse) {
    const started = performance.now();
    await db.execute(sql`insert into enterprises (id, kind, name) values (${entId}, 'enterprise', 'Flow bench')`);
    await db.execute(sql`
      insert into devices (id, ent_id, name)
      select 'dev-' || g, ${entId}, 'Screen ' || lpad(g::text, 5, '0') from generate_series(1, ${CARDS}::int) g`);
    await db.execute(sql`
      insert into iot_cards (id, ent_id, iccid, operator, state, device_id, package_name, package_mb)
      select 'card-' || g, ${entId}, '8986' || lpad(g::text, 16, '0'), 'chinaMobile', 'activated', 'dev-' || g, '1 GB', 1024
      from generate_series(1, ${CARDS}::int) g`);
    // One day at a time: 10,000 rows a statement, so the insert never holds millions in memory.
    for (let d = 0; d < DAYS; d++) {
      await db.execute(sql`
        insert into flow_days (ent_id, day, device_id, card_id, bytes)
        select ${entId}, ${dayBefore(LAST_DAY, d)}::date, 'dev-' || g, 'card-' || g, (g * 7919 + ${d} * 104729) % 50000000
        from generate_series(1, ${CARDS}::int) g`);
    }
    await db.execute(sql`
      insert into flow_ent_days (ent_id, day, bytes)
      select ent_id, day, sum(bytes) from flow_days where ent_id = ${entId} group by ent_id, day`);
    await db.execute(sql`vacuum analyze`);
    console.log(
      `seeded ${CARDS} cards x ${DAYS} days = ${CARDS * DAYS} rows in ${f((performance.now() - started) / 1000)} s`,
    );
  }

  const user = { entId, accountId: 'bench', permissions: new Set<string>() };
  const ctx = { db, user, principal: user, now: new Date(`${LAST_DAY}T12:00:00Z`), language: 'en-US' } as never;
  type Input = { from: string; to: string; page: number; size: number; keyword?: string; cardId?: string };
  const report = (input: Input) => usageReport(input as never, ctx);

  if (process.env.BENCH_EXPLAIN) {
    const where = usageWhere(entId, { from: dayBefore(LAST_DAY, 364), to: LAST_DAY });
    const from = sql`flow_days fd left join iot_cards c on c.id = fd.card_id and fd.card_id <> '' left join devices d on d.id = fd.device_id`;
    for (const q of [
      sql`select fd.day, fd.card_id, c.iccid, fd.device_id, coalesce(d.name, ''), fd.bytes from ${from} where ${where} order by fd.day desc, coalesce(d.name, ''), fd.device_id, fd.card_id limit 20`,
      sql`select count(*) from (select 1 from ${from} where ${where} limit ${FLOW_REPORT_TOTAL_CAP + 1}) t`,
    ]) {
      const plan = rowsOf(await db.execute(sql`explain (analyze, buffers) ${q}`));
      console.log(plan.map((r) => `  ${String(r['QUERY PLAN'])}`).join('\n'));
    }
  }

  const measure = async (label: string, input: Input) => {
    for (let i = 0; i < 5; i++) await report(input); // warm: plans, caches
    const times: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const s = performance.now();
      await report(input);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => f(percentile(times, q));
    console.log(
      `${label}: p50 ${p(50)} ms, p95 ${p(95)} ms, p99 ${p(99)} ms (${ITERATIONS} calls; aim p99 <= 50 ms); load ${load1()}`,
    );
  };
  await measure('report, 30 days, page 1 (20 rows)', {
    from: dayBefore(LAST_DAY, 29),
    to: LAST_DAY,
    page: 1,
    size: 20,
  });
  await measure('report, 365 days, page 1 (20 rows)', {
    from: dayBefore(LAST_DAY, 364),
    to: LAST_DAY,
    page: 1,
    size: 20,
  });
  await measure('report, 30 days, page 1, keyword (one device)', {
    from: dayBefore(LAST_DAY, 29),
    to: LAST_DAY,
    page: 1,
    size: 20,
    keyword: 'Screen 04242',
  });
  await measure('report, 365 days, page 1, one card', {
    from: dayBefore(LAST_DAY, 364),
    to: LAST_DAY,
    page: 1,
    size: 20,
    cardId: 'card-4242',
  });
} finally {
  await database.close();
  await new Promise((r) => setTimeout(r, 300));
  if (!keep) await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
