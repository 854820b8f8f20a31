import { ErrorCode } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { insertEnterprise } from '../../src/modules/enterprise/repository.js';
import { accountBalances, ensureEnterpriseWallet, ensurePlatformAccount } from '../../src/modules/ledger/accounts.js';
import { transfer } from '../../src/modules/ledger/ledger.js';
import { AppError } from '../../src/protocol/appError.js';
import { BACKENDS, createTestDatabase, type TestDatabase, uniqueName } from '../helpers/index.js';

/**
 * Issue 26, "What it must show": 1,000 concurrent debits of one wallet whose balance covers
 * exactly 600 of them, each its own transaction, all at once (Promise.all): exactly 600 are
 * made, 400 refused INSUFFICIENT_BALANCE, the balance ends at 0 and no statement line is ever
 * below it. The no-overdraft rule lives in the UPDATE that moves the money, so this holds under
 * PostgreSQL's pool (truly concurrent transactions queueing on the wallet's row lock) as under
 * PGlite's single connection. On PostgreSQL it runs twice: with the test database's pool of 5
 * and with a pool of 30 connections of its own.
 */

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

const DEBITS = 1_000;
const COVERED = 600;
const PRICE = 137; // fen per debit: the wallet holds 600 x 1.37 yuan

describe.each(BACKENDS)('1,000 concurrent debits of one wallet (%s)', (backend) => {
  let d: TestDatabase;
  let wide: Database | undefined;
  const now = new Date('2026-11-28T02:00:00Z');

  beforeAll(async () => {
    d = await createTestDatabase(backend);
    if (backend === 'postgres' && d.url) wide = await openDatabase({ databaseUrl: d.url, maxConnections: 30 });
  });
  afterAll(async () => {
    await wide?.close();
    await d?.close();
  });

  const pools = () =>
    backend === 'postgres'
      ? [{ name: 'pool of 5', db: d }, ...(wide ? [{ name: 'pool of 30', db: wide }] : [])]
      : [{ name: 'one connection', db: d }];

  it('makes exactly 600, refuses 400, ends at 0 and never goes below', async () => {
    for (const pool of pools()) {
      const ent = await insertEnterprise(d.db, { kind: 'enterprise', name: uniqueName('Hot wallet') } as never);
      const wallet = await ensureEnterpriseWallet(d.db, (ent as { id: string }).id);
      const clearing = await ensurePlatformAccount(d.db, 'clearingOffline');
      const revenue = await ensurePlatformAccount(d.db, 'revenue');
      const tag = wallet.slice(4, 16);
      await d.db.transaction((tx) =>
        transfer(tx, {
          id: `${tag}:recharge`,
          debitAccountId: clearing,
          creditAccountId: wallet,
          amount: COVERED * PRICE,
          code: 'recharge',
          cause: { type: 'test', id: tag },
          now,
        }),
      );

      const started = performance.now();
      const outcomes = await Promise.all(
        Array.from({ length: DEBITS }, (_, i) =>
          pool.db.db
            .transaction((tx) =>
              transfer(tx, {
                id: `${tag}:debit:${i}`,
                debitAccountId: wallet,
                creditAccountId: revenue,
                amount: PRICE,
                code: 'payment',
                cause: { type: 'test', id: tag },
                now: new Date(now.getTime() + i),
              }),
            )
            .then(
              (r) => r.status,
              (e: unknown) => (e instanceof AppError ? e.code : Promise.reject(e)),
            ),
        ),
      );
      const ms = performance.now() - started;

      const tally = new Map<string | number, number>();
      for (const o of outcomes) tally.set(o, (tally.get(o) ?? 0) + 1);
      console.log(
        `concurrent debits (${backend}, ${pool.name}): ${tally.get('created') ?? 0} made, ${tally.get(ErrorCode.INSUFFICIENT_BALANCE) ?? 0} refused in ${ms.toFixed(0)} ms`,
      );
      expect(Object.fromEntries(tally)).toEqual({
        created: COVERED,
        [ErrorCode.INSUFFICIENT_BALANCE]: DEBITS - COVERED,
      });

      const balance = (await accountBalances(d.db, [wallet])).get(wallet);
      expect(balance).toMatchObject({ balance: 0, frozen: 0, available: 0 });

      // The statement: the recharge and 600 debits, each line's balance the one before plus its
      // amount, none below zero; only the debits made have transfers.
      const lines = rowsOf(
        await d.db.execute(sql`
          select amount::text as amount, balance::text as balance from ledger_entries
          where account_id = ${wallet} order by seq`),
      ).map((r) => ({ amount: Number(r.amount), balance: Number(r.balance) }));
      expect(lines.length).toBe(1 + COVERED);
      expect(lines.filter((l) => l.balance < 0)).toEqual([]);
      let running = 0;
      for (const l of lines) {
        running += l.amount;
        expect(l.balance).toBe(running);
      }
      expect(running).toBe(0);
      const [made] = rowsOf(
        await d.db.execute(sql`
          select count(*)::int as transfers,
                 (select count(*)::int from ledger_entries e join ledger_transfers t on t.id = e.transfer_id
                   where t.debit_account_id = ${wallet}) as lines
          from ledger_transfers where debit_account_id = ${wallet}`),
      );
      expect(made).toEqual({ transfers: COVERED, lines: 2 * COVERED });
      const [sums] = rowsOf(
        await d.db.execute(sql`
          select coalesce(sum(credits_posted - debits_posted), 0)::text as posted,
                 coalesce(sum(credits_pending - debits_pending), 0)::text as pending
          from ledger_accounts`),
      );
      expect(sums).toEqual({ posted: '0', pending: '0' });
    }
  }, 120_000);
});
