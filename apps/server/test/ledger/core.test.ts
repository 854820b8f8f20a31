import { ErrorCode } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/client.js';
import { insertEnterprise } from '../../src/modules/enterprise/repository.js';
import { accountBalances, ensureEnterpriseWallet, ensurePlatformAccount } from '../../src/modules/ledger/accounts.js';
import { expirePending, postPending, transfer, voidPending } from '../../src/modules/ledger/ledger.js';
import { AppError } from '../../src/protocol/appError.js';
import { BACKENDS, createTestDatabase, type TestDatabase, uniqueName } from '../helpers/index.js';

/** The ledger's core rules (issue 26): idempotent ids, no overdraft, holds, zero sum. */
describe.each(BACKENDS)('ledger core (%s)', (backend) => {
  let d: TestDatabase;
  let wallet: string;
  let clearing: string;
  let revenue: string;
  const now = new Date('2026-11-28T02:00:00Z');
  const cause = { type: 'test', id: 'core' };
  const code = async (p: Promise<unknown>) =>
    p.then(
      () => 0,
      (e) => (e instanceof AppError ? e.code : Promise.reject(e)),
    );

  beforeAll(async () => {
    d = await createTestDatabase(backend);
    const ent = await insertEnterprise(d.db, { kind: 'enterprise', name: uniqueName('Ledger Co') } as never);
    wallet = await ensureEnterpriseWallet(d.db, (ent as { id: string }).id);
    clearing = await ensurePlatformAccount(d.db, 'clearingOffline');
    revenue = await ensurePlatformAccount(d.db, 'revenue');
  });
  afterAll(() => d?.close());

  it('credits, refuses overdraft, is idempotent, holds and settles, and sums to zero', async () => {
    const tx = <T>(fn: (db: Executor) => Promise<T>): Promise<T> => d.db.transaction((db) => fn(db));
    const r1 = await tx((db) =>
      transfer(db, {
        id: 'c1',
        debitAccountId: clearing,
        creditAccountId: wallet,
        amount: 1000,
        code: 'recharge',
        cause,
        now,
      }),
    );
    expect(r1.status).toBe('created');
    const again = await tx((db) =>
      transfer(db, {
        id: 'c1',
        debitAccountId: clearing,
        creditAccountId: wallet,
        amount: 1000,
        code: 'recharge',
        cause,
        now,
      }),
    );
    expect(again.status).toBe('exists');
    expect(
      await code(
        tx((db) =>
          transfer(db, {
            id: 'c1',
            debitAccountId: clearing,
            creditAccountId: wallet,
            amount: 999,
            code: 'recharge',
            cause,
            now,
          }),
        ),
      ),
    ).toBe(ErrorCode.TRANSFER_ID_REUSED);
    expect(
      await code(
        tx((db) =>
          transfer(db, {
            id: 'd1',
            debitAccountId: wallet,
            creditAccountId: revenue,
            amount: 1001,
            code: 'payment',
            cause,
            now,
          }),
        ),
      ),
    ).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    const hold = await tx((db) =>
      transfer(db, {
        id: 'h1',
        debitAccountId: wallet,
        creditAccountId: revenue,
        amount: 600,
        code: 'payment',
        cause,
        now,
        pending: { timeoutAt: new Date(now.getTime() + 60_000) },
      }),
    );
    expect(hold.status).toBe('created');
    let b = (await accountBalances(d.db, [wallet])).get(wallet);
    expect(b).toMatchObject({ balance: 1000, frozen: 600, available: 400 });
    expect(
      await code(
        tx((db) =>
          transfer(db, {
            id: 'd2',
            debitAccountId: wallet,
            creditAccountId: revenue,
            amount: 401,
            code: 'payment',
            cause,
            now,
          }),
        ),
      ),
    ).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    await tx((db) => postPending(db, { id: 'p1', pendingId: 'h1', amount: 500, now }));
    b = (await accountBalances(d.db, [wallet])).get(wallet);
    expect(b).toMatchObject({ balance: 500, frozen: 0, available: 500 });
    expect(await code(tx((db) => voidPending(db, { id: 'v1', pendingId: 'h1', now })))).toBe(ErrorCode.CONFLICT);
    await tx((db) =>
      transfer(db, {
        id: 'h2',
        debitAccountId: wallet,
        creditAccountId: revenue,
        amount: 100,
        code: 'payment',
        cause,
        now,
        pending: { timeoutAt: new Date(now.getTime() + 60_000) },
      }),
    );
    expect(await expirePending(d.db, new Date(now.getTime() + 30_000))).toBe(0);
    expect(
      await code(tx((db) => postPending(db, { id: 'p2', pendingId: 'h2', now: new Date(now.getTime() + 61_000) }))),
    ).toBe(ErrorCode.TRANSFER_PENDING_EXPIRED);
    expect(await expirePending(d.db, new Date(now.getTime() + 61_000))).toBe(1);
    b = (await accountBalances(d.db, [wallet])).get(wallet);
    expect(b).toMatchObject({ balance: 500, frozen: 0, available: 500 });
    const sum = (await d.db.execute(
      sql`select coalesce(sum(credits_posted - debits_posted), 0)::text as s, coalesce(sum(credits_pending - debits_pending), 0)::text as p from ledger_accounts`,
    )) as unknown as { rows: { s: string; p: string }[] };
    expect(sum.rows[0]).toEqual({ s: '0', p: '0' });
    const lines = (await d.db.execute(
      sql`select amount::text, balance::text from ledger_entries where account_id = ${wallet} order by seq`,
    )) as unknown as { rows: { amount: string; balance: string }[] };
    expect(lines.rows.map((r) => Number(r.balance))).toEqual([1000, 1000, 500, 500, 500]);
  });
});
