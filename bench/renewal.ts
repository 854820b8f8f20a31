// The market's daily renewals (issue 27, spec section 9): on PostgreSQL (BENCH_DATABASE_URL,
// default postgres://postgres@127.0.0.1:5432/postgres; a scratch database is created and
// dropped), 1,000 enterprises x 100 device licences with auto-renewal on, all due today
// (expiring in 5 days), seeded in bulk (INSERT ... SELECT generate_series); each wallet is
// funded by a ledger transfer, one in ten with only half of what its items cost (those items
// fail 'insufficientBalance' and get a letter). Then one run of the job's work,
// `runRenewals(db, now)`, timed: aim well under 60 s for 100,000 items. A second run of the
// same day is timed too (it must try nothing). Figures, never assertions; the machine's load
// average is printed with them.
//
//   npx tsx bench/renewal.ts     BENCH_ENTS=1000 BENCH_ITEMS=100 BENCH_CONCURRENCY=4 BENCH_KEEP=1
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.js';
import { ensureEnterpriseWallet, ensurePlatformAccount } from '../apps/server/src/modules/ledger/accounts.js';
import { transfer } from '../apps/server/src/modules/ledger/ledger.js';
import { runRenewals } from '../apps/server/src/modules/market/renewal.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ENTS = Number(process.env.BENCH_ENTS ?? 1_000);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const PRICE = 1_000;
const keep = Boolean(process.env.BENCH_KEEP);
const name = `mq_bench_renewal_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database "${name}"`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: Math.max(4, CONCURRENCY + 2) });
const db = database.db;
type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const one = async (q: ReturnType<typeof sql>) => rowsOf(await db.execute(q))[0] ?? {};
const load1 = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const secs = (ms: number) => (ms / 1000).toFixed(2);

try {
  await database.migrate();
  console.log(`database ${name}${keep ? ' (kept)' : ''}; load average ${load1()} (1, 5, 15 min)`);
  const now = new Date();
  const t0 = performance.now();
  await db.execute(sql`
    insert into enterprises (id, kind, name)
    select 'ent-' || g, 'enterprise', 'Renewal bench ' || g from generate_series(1, ${ENTS}::int) g`);
  await db.execute(sql`
    insert into accounts (id, ent_id, login_name, real_name, password_hash, is_ent_admin)
    select 'acc-' || g, 'ent-' || g, 'renewal_bench_' || g, 'Admin ' || g, 'x', true from generate_series(1, ${ENTS}::int) g`);
  await db.execute(sql`
    insert into market_products (id, kind, name, state, prices)
    values ('points', 'devicePoints', 'Screen licence', 'onSale', ${JSON.stringify([{ months: 1, price: PRICE }])}::jsonb)`);
  await db.execute(sql`
    insert into devices (id, ent_id, name, status, expire_at)
    select 'dev-' || e || '-' || i, 'ent-' || e, 'Screen ' || i, 'online',
           ${now.toISOString()}::timestamptz + interval '5 days' + make_interval(mins => i)
    from generate_series(1, ${ENTS}::int) e, generate_series(1, ${ITEMS}::int) i`);
  await db.execute(sql`
    insert into market_items (id, ent_id, kind, subject_id, product_id, months, state, starts_at, expires_at, auto_renew)
    select 'item-' || d.id, d.ent_id, 'devicePoints', d.id, 'points', 1, 'active',
           ${now.toISOString()}::timestamptz - interval '25 days', d.expire_at, true
    from devices d`);
  const clearing = await ensurePlatformAccount(db, 'clearingOffline');
  await ensurePlatformAccount(db, 'revenue');
  for (let e = 1; e <= ENTS; e++) {
    const wallet = await ensureEnterpriseWallet(db, `ent-${e}`);
    // One enterprise in ten has half of what its renewals cost.
    const amount = e % 10 === 0 ? (PRICE * ITEMS) / 2 : PRICE * ITEMS;
    await db.transaction((tx) =>
      transfer(tx, {
        id: `fund:${e}`,
        debitAccountId: clearing,
        creditAccountId: wallet,
        amount,
        code: 'recharge',
        cause: { type: 'test', id: 'bench' },
        now,
      }),
    );
  }
  await db.execute(sql`vacuum analyze`);
  console.log(
    `seeded ${ENTS} enterprises x ${ITEMS} items (${ENTS * ITEMS} due) in ${secs(performance.now() - t0)} s; load ${load1()}`,
  );

  const at = new Date(now.getTime() + 60_000);
  const t1 = performance.now();
  const run = await runRenewals(db, at, { concurrency: CONCURRENCY });
  const ms = performance.now() - t1;
  const attempts = await one(sql`select count(*) as n from market_renewals`);
  console.log(
    `runRenewals, ${CONCURRENCY} enterprises at a time: ${secs(ms)} s for ${run.succeeded + run.failed} items ` +
      `(${run.succeeded} renewed, ${run.failed} failed, ${run.enterprises} enterprises; ${attempts.n} attempts recorded), ` +
      `${((run.succeeded + run.failed) / (ms / 1000)).toFixed(0)} items/s; load ${load1()}`,
  );
  const t2 = performance.now();
  const rerun = await runRenewals(db, new Date(at.getTime() + 60_000), { concurrency: CONCURRENCY });
  console.log(
    `a rerun of the same day: ${secs(performance.now() - t2)} s, ${rerun.succeeded + rerun.failed} items tried`,
  );
  const sum = await one(sql`select sum(credits_posted - debits_posted) as s from ledger_accounts`);
  const orders = await one(sql`select count(*) as n from market_orders where source = 'renewal'`);
  const letters = await one(sql`select count(*) as n from station_letters where kind = 'market.renewalFailed'`);
  console.log(`ledger sum ${sum.s} (0 is right); ${orders.n} renewal orders; ${letters.n} failure letters`);
} finally {
  await database.close();
  if (!keep) await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
