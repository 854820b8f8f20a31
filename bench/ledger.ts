// The ledger (issue 26, "What it must show"): on PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; a scratch database is created and dropped),
// 1. transfers per second on one hot wallet: N concurrent callers each debiting the same wallet,
//    each transfer its own transaction through the ledger's `transfer` (the wallet's row lock
//    serialises them: this is the ceiling of one wallet);
// 2. transfers per second across 1,000 wallets: random pairs, N concurrent callers (aim >= 1,000/s
//    on the 2-core machine);
// 3. one wallet filled with 10,000,000 movements (INSERT ... SELECT generate_series straight into
//    ledger_transfers and ledger_entries, with the counterparties' lines, the accounts' counters
//    and the monthly sums consistent, then VACUUM ANALYZE), and p50/p95/p99 of the finance
//    centre's ledger page (the finance module's financeMovements: the wallet check, the page,
//    the total capped at 10,000, the counterparties' names): page 1, page 100, and with a time
//    range (aim p99 <= 15 ms, the list pages' figure).
// Figures, never assertions; the machine's load average is printed with them.
//
//   npx tsx bench/ledger.ts     BENCH_MOVEMENTS=10000000 BENCH_SECONDS=8 BENCH_ITERATIONS=200
//   BENCH_KEEP=1 keeps the database; BENCH_DB=<name> measures the page of a kept one (no seeding);
//   BENCH_PARTS=throughput (or BENCH_MOVEMENTS=0) runs only the throughput figures, BENCH_PARTS=page
//   only the ledger page's; BENCH_EXPLAIN=1 prints the plans of the page's two statements.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { ALL_PERMISSION_CODES } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Executor, openDatabase } from '../apps/server/src/db/client.js';
import { ensureEnterpriseWallet, ensurePlatformAccount } from '../apps/server/src/modules/ledger/accounts.js';
import { transfer } from '../apps/server/src/modules/ledger/ledger.js';
import { AppError } from '../apps/server/src/protocol/appError.js';
import { load, percentile } from './lib.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MOVEMENTS = Number(process.env.BENCH_MOVEMENTS ?? 10_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const WALLETS = 1_000;
/** BENCH_PARTS=throughput or =page: only those figures (default both). */
const PARTS = (process.env.BENCH_PARTS ?? 'throughput,page').split(',');
const CHUNK = 1_000_000;

const reuse = process.env.BENCH_DB;
const keep = Boolean(process.env.BENCH_KEEP) || Boolean(reuse);
const name = reuse ?? `mq_bench_ledger_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
if (!reuse) await admin.query(`create database "${name}"`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 24 });
const db = database.db;
const f = (n: number) => n.toFixed(1);
const load1 = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
type Row = Record<string, unknown>;
/** BENCH_MOVEMENTS=0: only the throughput runs. */
class Done extends Error {}
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const one = async (q: ReturnType<typeof sql>) => rowsOf(await db.execute(q))[0] ?? {};

let seq = 0;
const nextId = (prefix: string) => `${prefix}:${process.pid}:${++seq}`;

/** Enterprises and their wallets, made in bulk (the wallet ids are the ledger's: `ent:<entId>`). */
async function makeWallets(count: number, prefix: string): Promise<string[]> {
  const rows = rowsOf(
    await db.execute(sql`
      insert into enterprises (id, kind, name) select gen_random_uuid()::text, 'enterprise', ${prefix} || ' ' || g from generate_series(1, ${count}::int) g
      returning id`),
  );
  const ids: string[] = [];
  for (const r of rows) ids.push(await ensureEnterpriseWallet(db, String(r.id)));
  return ids;
}

try {
  await database.migrate();
  console.log(`database ${name}${keep ? ' (kept)' : ''}; load average ${load1()} (1, 5, 15 min), 2 cores shared`);
  const clearing = await ensurePlatformAccount(db, 'clearingOffline');
  const revenue = await ensurePlatformAccount(db, 'revenue');
  const now = new Date();
  const cause = { type: 'test', id: 'bench' };

  if (!reuse && PARTS.includes('throughput')) {
    // ---- 1. One hot wallet ----
    const [hot] = await makeWallets(1, 'Hot');
    await db.transaction((tx) =>
      transfer(tx, {
        id: nextId('fund'),
        debitAccountId: clearing,
        creditAccountId: hot,
        amount: 1_000_000_000,
        code: 'recharge',
        cause,
        now,
      }),
    );
    let refused = 0;
    const debitHot = () =>
      db
        .transaction((tx: Executor) =>
          transfer(tx, {
            id: nextId('hot'),
            debitAccountId: hot,
            creditAccountId: revenue,
            amount: 1,
            code: 'payment',
            cause,
            now: new Date(),
          }),
        )
        .catch((e) => {
          if (e instanceof AppError) refused++;
          else throw e;
        });
    await load(debitHot, 4, 1000); // warm: connections, plans
    for (const callers of [1, 8, 32]) {
      refused = 0;
      const r = await load(debitHot, callers, SECONDS * 1000);
      console.log(
        `hot wallet, ${callers} concurrent callers: ${f(r.rps)} transfers/s (${r.requests} in ${f(r.seconds)} s), p50 ${f(r.p50)} ms, p99 ${f(r.p99)} ms, ${r.errors + refused} errors; load ${load1()}`,
      );
    }

    // ---- 2. Across 1,000 wallets ----
    const t0 = performance.now();
    const wallets = await makeWallets(WALLETS, 'Bench');
    for (const w of wallets) {
      await db.transaction((tx) =>
        transfer(tx, {
          id: nextId('fund'),
          debitAccountId: clearing,
          creditAccountId: w,
          amount: 10_000_000,
          code: 'recharge',
          cause,
          now,
        }),
      );
    }
    console.log(`${WALLETS} wallets made and funded (one transfer each) in ${f((performance.now() - t0) / 1000)} s`);
    const pick = () => wallets[Math.floor(Math.random() * wallets.length)];
    const randomPair = () => {
      const from = pick();
      let to = pick();
      while (to === from) to = pick();
      return db
        .transaction((tx: Executor) =>
          transfer(tx, {
            id: nextId('pair'),
            debitAccountId: from,
            creditAccountId: to,
            amount: 1 + Math.floor(Math.random() * 500),
            code: 'payment',
            cause,
            now: new Date(),
          }),
        )
        .catch((e) => {
          if (e instanceof AppError) refused++;
          else throw e;
        });
    };
    await load(randomPair, 8, 1000);
    for (const callers of [8, 16, 24]) {
      refused = 0;
      const r = await load(randomPair, callers, SECONDS * 1000);
      console.log(
        `${WALLETS} wallets, random pairs, ${callers} concurrent callers: ${f(r.rps)} transfers/s (${r.requests} in ${f(r.seconds)} s), p50 ${f(r.p50)} ms, p99 ${f(r.p99)} ms, ${r.errors + refused} errors (aim >= 1,000/s); load ${load1()}`,
      );
    }
    const sums = await one(sql`
      select coalesce(sum(credits_posted - debits_posted), 0)::text as posted, count(*)::int as accounts,
             count(*) filter (where no_overdraft and credits_posted - debits_posted - debits_pending < 0)::int as negative
      from ledger_accounts`);
    console.log(
      `after the runs: ${sums.accounts} accounts, balances sum to ${sums.posted}, ${sums.negative} wallets below zero`,
    );
  }

  // ---- 3. One wallet with 10,000,000 movements, and the finance centre's ledger page ----
  if ((MOVEMENTS <= 0 || !PARTS.includes('page')) && !reuse) throw new Done();
  const owner = reuse
    ? await one(
        sql`select a.id as account, a.ent_id as ent from accounts a where a.login_name like 'bench_ledger_%' limit 1`,
      )
    : await seedMillions();
  const entId = String(owner.ent);
  const walletId = `ent:${entId}`;

  async function seedMillions(): Promise<Row> {
    const [ent] = rowsOf(
      await db.execute(
        sql`insert into enterprises (id, kind, name) values (gen_random_uuid()::text, 'enterprise', 'Ten Million') returning id`,
      ),
    );
    const wallet = await ensureEnterpriseWallet(db, String(ent.id));
    const [account] = rowsOf(
      await db.execute(sql`
        insert into accounts (id, ent_id, login_name, real_name, password_hash, is_ent_admin)
        values (gen_random_uuid()::text, ${ent.id}, ${`bench_ledger_${name}`}, 'Bench', 'x', true) returning id`),
    );
    const t0 = performance.now();
    // Movement i (1..N), every 5 s from `start`: odd i a recharge of 300 fen (clearing -> wallet),
    // even i a payment of 100 fen (wallet -> revenue). After movement i the wallet holds
    // 300 * ceil(i / 2) - 100 * floor(i / 2) >= 0; each side's line carries its running balance.
    const n = MOVEMENTS;
    const start = new Date(now.getTime() - n * 5_000 - 86_400_000);
    const base = Number((await one(sql`select nextval('ledger_entry_seq')::text as s`)).s);
    for (let from = 1; from <= n; from += CHUNK) {
      const to = Math.min(n, from + CHUNK - 1);
      const tc = performance.now();
      await db.execute(sql`
        insert into ledger_transfers (id, debit_account_id, credit_account_id, amount, phase, code, cause_type, cause_id, created_at)
        select 'bulk:' || i,
               case when i % 2 = 1 then ${clearing} else ${wallet} end,
               case when i % 2 = 1 then ${wallet} else ${revenue} end,
               case when i % 2 = 1 then 300 else 100 end,
               'single',
               case when i % 2 = 1 then 'recharge' else 'payment' end,
               'test', 'bulk:' || (i / 1000),
               ${start.toISOString()}::timestamptz + i * interval '5 seconds'
        from generate_series(${from}::bigint, ${to}::bigint) i`);
      // The wallet's lines.
      await db.execute(sql`
        insert into ledger_entries (account_id, seq, transfer_id, counterparty_id, amount, pending_change, balance, frozen,
                                    code, cause_type, cause_id, created_at)
        select ${wallet}, ${base}::bigint + i, 'bulk:' || i,
               case when i % 2 = 1 then ${clearing} else ${revenue} end,
               case when i % 2 = 1 then 300 else -100 end, 0,
               300 * ((i + 1) / 2) - 100 * (i / 2), 0,
               case when i % 2 = 1 then 'recharge' else 'payment' end, 'test', 'bulk:' || (i / 1000),
               ${start.toISOString()}::timestamptz + i * interval '5 seconds'
        from generate_series(${from}::bigint, ${to}::bigint) i`);
      // The counterparties' lines: the clearing account's (debited by each recharge) and revenue's.
      await db.execute(sql`
        insert into ledger_entries (account_id, seq, transfer_id, counterparty_id, amount, pending_change, balance, frozen,
                                    code, cause_type, cause_id, created_at)
        select case when i % 2 = 1 then ${clearing} else ${revenue} end, ${base + n}::bigint + i, 'bulk:' || i, ${wallet},
               case when i % 2 = 1 then -300 else 100 end, 0,
               case when i % 2 = 1 then -300 * ((i + 1) / 2) else 100 * (i / 2) end, 0,
               case when i % 2 = 1 then 'recharge' else 'payment' end, 'test', 'bulk:' || (i / 1000),
               ${start.toISOString()}::timestamptz + i * interval '5 seconds'
        from generate_series(${from}::bigint, ${to}::bigint) i`);
      console.log(`  movements ${from}..${to} written in ${f((performance.now() - tc) / 1000)} s`);
    }
    await db.execute(sql`select setval('ledger_entry_seq', ${base + 2 * n + 1}::bigint)`);
    // The counters (the clearing and revenue accounts keep what the throughput runs moved too).
    const recharges = Math.ceil(n / 2);
    const payments = Math.floor(n / 2);
    await db.execute(sql`
      update ledger_accounts set credits_posted = credits_posted + ${300 * recharges}::bigint,
                                 debits_posted = debits_posted + ${100 * payments}::bigint where id = ${wallet}`);
    await db.execute(
      sql`update ledger_accounts set debits_posted = debits_posted + ${300 * recharges}::bigint where id = ${clearing}`,
    );
    await db.execute(
      sql`update ledger_accounts set credits_posted = credits_posted + ${100 * payments}::bigint where id = ${revenue}`,
    );
    // The wallet's monthly sums (UTC+8 months), as each transfer keeps them.
    await db.execute(sql`
      insert into ledger_account_months (account_id, month, credits, debits, closing, movements)
      select account_id, to_char(created_at at time zone 'Asia/Shanghai', 'YYYY-MM'),
             sum(greatest(amount, 0)), sum(greatest(-amount, 0)), (array_agg(balance order by seq desc))[1], count(*)
      from ledger_entries where account_id = ${wallet} group by 1, 2`);
    const tv = performance.now();
    await db.execute(sql`vacuum analyze ledger_entries`);
    await db.execute(sql`vacuum analyze ledger_transfers`);
    await db.execute(sql`analyze ledger_accounts`);
    await db.execute(sql`analyze ledger_account_months`);
    console.log(
      `seeded ${n} movements of one wallet (${n} transfers, ${2 * n} statement lines) in ${f((performance.now() - t0) / 1000)} s (vacuum analyze ${f((performance.now() - tv) / 1000)} s)`,
    );
    const check = await one(sql`
      select a.credits_posted - a.debits_posted as counters,
             (select balance from ledger_entries where account_id = a.id order by seq desc limit 1) as last_line,
             (select coalesce(sum(credits_posted - debits_posted), 0)::text from ledger_accounts) as all_accounts
      from ledger_accounts a where a.id = ${wallet}`);
    console.log(
      `the wallet's counters ${check.counters} = its last line ${check.last_line}; all balances sum to ${check.all_accounts}`,
    );
    return { account: account.id, ent: ent.id };
  }

  const size = await one(sql`
    select pg_size_pretty(pg_total_relation_size('ledger_entries')) as entries,
           pg_size_pretty(pg_total_relation_size('ledger_transfers')) as transfers`);
  console.log(`ledger_entries ${size.entries}, ledger_transfers ${size.transfers} (tables and indexes)`);

  // The finance centre's ledger page as the endpoint runs it: the finance module's
  // financeMovements with the wallet's enterprise administrator as the caller.
  const finance = await import('../apps/server/src/modules/finance/service.js').catch(() => null);
  const user = {
    entId,
    entKind: 'enterprise',
    accountId: String(owner.account),
    isEntAdmin: true,
    permissions: new Set(ALL_PERMISSION_CODES),
  };
  const ctx = { db, user, principal: user, now: new Date(), language: 'en-US' } as never;
  type Page = { walletId?: string; page: number; size: number; from?: string; to?: string; code?: 'payment' };
  const page = finance
    ? (input: Page) => finance.financeMovements(input as never, ctx)
    : async (input: Page) => {
        // The same SQL when the module is absent: the page and the capped total.
        const range = sql`${input.from ? sql`and created_at >= ${input.from}::timestamptz` : sql``}
          ${input.to ? sql`and created_at < ${input.to}::timestamptz` : sql``}`;
        await db.execute(sql`select * from ledger_entries where account_id = ${walletId} ${range}
          order by created_at desc nulls last, seq desc nulls last limit ${input.size} offset ${(input.page - 1) * input.size}`);
        await db.execute(
          sql`select count(*) from (select 1 from ledger_entries where account_id = ${walletId} ${range} limit 10001) t`,
        );
      };
  console.log(
    finance ? 'ledger page: finance.financeMovements (modules/finance/service.ts)' : 'ledger page: the same SQL',
  );
  if (process.env.BENCH_EXPLAIN) {
    for (const q of [
      sql`select * from ledger_entries where account_id = ${walletId} order by created_at desc nulls last, seq desc nulls last limit 20 offset 1980`,
      sql`select count(*) from (select 1 from ledger_entries where account_id = ${walletId} limit 10001) t`,
    ]) {
      const plan = rowsOf(await db.execute(sql`explain (analyze, buffers) ${q}`));
      console.log(plan.map((r) => `  ${String(r['QUERY PLAN'])}`).join('\n'));
    }
  }
  const measure = async (label: string, input: Page) => {
    for (let i = 0; i < 5; i++) await page(input); // warm: plans, caches
    const times: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const s = performance.now();
      await page(input);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => f(percentile(times, q));
    console.log(
      `${label}: p50 ${p(50)} ms, p95 ${p(95)} ms, p99 ${p(99)} ms (${ITERATIONS} calls; aim p99 <= 15 ms); load ${load1()}`,
    );
  };
  const newest = await one(sql`select max(created_at) as t from ledger_entries where account_id = ${walletId}`);
  const last = new Date(String(newest.t instanceof Date ? newest.t.toISOString() : newest.t));
  const DAY = 86_400_000;
  const iso = (ms: number) => new Date(ms).toISOString();
  await measure('ledger page 1 (20 lines)', { walletId, page: 1, size: 20 });
  await measure('ledger page 100 (20 lines)', { walletId, page: 100, size: 20 });
  await measure('ledger page 1, the last 30 days', {
    walletId,
    page: 1,
    size: 20,
    from: iso(last.getTime() - 30 * DAY),
    to: iso(last.getTime() + 1),
  });
  await measure('ledger page 100, one month a year back', {
    walletId,
    page: 100,
    size: 20,
    from: iso(last.getTime() - 395 * DAY),
    to: iso(last.getTime() - 365 * DAY),
  });
  await measure('ledger page 1, payments only, one day a year back', {
    walletId,
    page: 1,
    size: 20,
    code: 'payment',
    from: iso(last.getTime() - 366 * DAY),
    to: iso(last.getTime() - 365 * DAY),
  });
} catch (e) {
  if (!(e instanceof Done)) throw e;
} finally {
  await database.close();
  await new Promise((r) => setTimeout(r, 300)); // the pools' sockets closed before the database goes
  if (!keep) await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
