// The warning centre (issue 30): the `warnings-evaluate` job over 1,000,000 devices on
// PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a
// scratch database is created and dropped). BENCH_ENTERPRISES enterprises (default 100) share
// BENCH_DEVICES devices (default 1,000,000), seeded set-based (generate_series): 90% online,
// 8% offline for under 15 days, 1% offline for longer, 1% disabled; 2% expiring within 15
// days; 1% with yesterday's reconciliation (delivery_days), a tenth of them under-delivering; every enterprise's
// storage quota, a fifth of them nearly full. Then the job (evaluateWarnings, every rule and
// the notifications) three times: the first run (opens every warning), the steady state (the
// same facts: nothing to do), and after 10,000 offline devices came back (resolves them).
// Per run: the total and each rule's time, warnings opened and resolved. Aim: under 30 s a run.
// Figures, never assertions.
//
//   npm run bench -- warnings        BENCH_DEVICES=1000000 BENCH_ENTERPRISES=100
import { sql } from 'drizzle-orm';
import { evaluateWarnings } from '../apps/server/src/modules/warnings/evaluate.js';
import type { AppServices } from '../apps/server/src/services.js';
import { load1, rowsOf, scratch } from './sales-lib.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1_000_000);
const ENTERPRISES = Number(process.env.BENCH_ENTERPRISES ?? 100);
const DAY = 86_400_000;

const s = await scratch('warnings');
try {
  const db = s.db;
  const t0 = performance.now();
  const now = new Date();
  await db.execute(sql`
    insert into enterprises (id, kind, name)
    select 'bench-ent-' || e, 'enterprise', 'Bench enterprise ' || e from generate_series(1, ${ENTERPRISES}::int) e`);
  await db.execute(sql`alter table devices disable trigger devices_count`);
  await db.execute(sql`
    insert into devices (id, ent_id, name, status, heartbeat_sec, last_seen_at, status_at, expire_at, created_at, updated_at)
    select 'dev-' || g, 'bench-ent-' || (1 + g % ${ENTERPRISES}), 'Screen ' || g,
      case when g % 100 < 90 then 'online' when g % 100 < 99 then 'offline' else 'invalid' end,
      30,
      ${now.toISOString()}::timestamptz - (g % 60) * interval '1 second',
      case when g % 100 = 98 then ${now.toISOString()}::timestamptz - interval '20 days'
           when g % 100 >= 90 then ${now.toISOString()}::timestamptz - (g % 10) * interval '1 day' - interval '1 hour'
           else ${now.toISOString()}::timestamptz - interval '2 days' end,
      case when g % 50 = 7 then ${now.toISOString()}::timestamptz + (1 + g % 14) * interval '1 day'
           else ${now.toISOString()}::timestamptz + interval '200 days' end,
      ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    from generate_series(1, ${DEVICES}::int) g`);
  await db.execute(sql`alter table devices enable trigger devices_count`);
  // The presence deadlines of the online devices, as the trigger keeps them (far ahead: none past).
  await db.execute(sql`
    insert into device_presence (device_id, ent_id, dept_id, deadline)
    select id, ent_id, dept_id, ${new Date(now.getTime() + DAY).toISOString()}::timestamptz from devices where status = 'online'
    on conflict (device_id) do nothing`);
  // Yesterday's reconciliation (as the delivery-reconcile job writes it): 100 plays expected.
  const day = new Date(now.getTime() - DAY).toISOString().slice(0, 10);
  await db.execute(sql`
    insert into delivery_days (device_id, day, ent_id, expected, delivered, computed_at)
    select id, ${day}::date, ent_id, 100, case when substr(id, 5)::int % 1000 = 3 then 10 else 98 end, now()
    from devices where substr(id, 5)::int % 100 = 3`);
  await db.execute(sql`
    insert into storage_quotas (ent_id, quota_bytes, used_bytes)
    select id, 1000, case when substr(id, 11)::int % 5 = 0 then 950 else 100 end from enterprises where id like 'bench-ent-%'
    on conflict (ent_id) do nothing`);
  await db.execute(sql`vacuum analyze`);
  const [counts] = rowsOf(
    await db.execute(
      sql`select count(*)::int as devices, count(*) filter (where status = 'offline')::int as offline from devices`,
    ),
  );
  console.log(
    `seeded ${counts.devices} devices (${counts.offline} offline) in ${ENTERPRISES} enterprises in ${((performance.now() - t0) / 1000).toFixed(1)} s; load ${load1()}`,
  );

  const services = { db, codeSender: { name: 'none', send: async () => {} } } as unknown as Pick<
    AppServices,
    'db' | 'codeSender'
  >;
  const runOnce = async (label: string, at: Date) => {
    const started = performance.now();
    const r = await evaluateWarnings(services, at);
    const total = (performance.now() - started) / 1000;
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    console.log(
      `${label}: ${total.toFixed(2)} s (aim < 30 s); opened ${sum(r.opened)}, resolved ${sum(r.resolved)}, notified ${r.notified}; load ${load1()}`,
    );
    console.log(
      `  per rule (ms): ${Object.entries(r.ms)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  };
  await runOnce('first run (every warning opens)', now);
  await runOnce('steady state (same facts)', new Date(now.getTime() + 60_000));
  await db.execute(sql`
    update devices set status = 'online', status_at = ${now.toISOString()}::timestamptz
    where id in (select id from devices where status = 'offline' and status_at > ${new Date(now.getTime() - 15 * DAY).toISOString()}::timestamptz limit 10000)`);
  await runOnce('after 10,000 offline devices came back', new Date(now.getTime() + 120_000));
  const [live] = rowsOf(await db.execute(sql`select count(*)::int as n from warnings where state <> 'resolved'`));
  console.log(`live warnings: ${live.n}`);
} finally {
  await s.done();
}
