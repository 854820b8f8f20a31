import { AMOUNT_MAX_FEN, ErrorCode } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/client.js';
import {
  expirePending,
  postPending,
  type TransferResult,
  transfer,
  voidPending,
} from '../../src/modules/ledger/ledger.js';
import { AppError } from '../../src/protocol/appError.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/index.js';

/**
 * The ledger's invariants over random sequences of operations (issue 26, "What it must show"):
 * single transfers, holds with and without timeouts, posts in full and in part, voids, the
 * expiry job at simulated times, retries of earlier ids (the same transfer: 'exists', nothing
 * moves; another one: TRANSFER_ID_REUSED), and concurrent callers (Promise.all of several
 * transactions, truly concurrent on PostgreSQL's pool, serialised by PGlite's one connection).
 *
 * A model in plain maps predicts every answer; after every step the database must agree with
 * it and hold: the balances (and the pending amounts) of all accounts sum to zero, no wallet's
 * available amount is negative, every transfer made is one row of ledger_transfers and two of
 * ledger_entries, and each account's last statement line carries its counters.
 */

const WALLETS = 3;
const PLATFORMS = 2;
const ACCOUNTS = WALLETS + PLATFORMS;
const MINUTE = 60_000;

interface ModelAccount {
  id: string;
  noOverdraft: boolean;
  debitsPending: number;
  debitsPosted: number;
  creditsPending: number;
  creditsPosted: number;
}

interface ModelTransfer {
  id: string;
  debit: string;
  credit: string;
  amount: number;
  phase: 'single' | 'pending' | 'post' | 'void' | 'expire';
  pendingId: string | null;
  state: 'pending' | 'posted' | 'voided' | 'expired' | null;
  timeoutAt: number | null;
}

/** One operation as fast-check draws it: indexes and fractions, resolved against the model when it runs. */
type Op =
  | { kind: 'transfer'; from: number; to: number; amount: number; hold: null | { timeout: number | null } }
  | { kind: 'post'; hold: number; part: number | null }
  | { kind: 'void'; hold: number }
  | { kind: 'advance'; ms: number; expire: boolean }
  | { kind: 'retry'; which: number; same: boolean }
  | { kind: 'bad'; from: number; to: number; amount: number; hold: boolean }
  | {
      kind: 'concurrent';
      transfers: { from: number; to: number; amount: number; hold: boolean }[];
      duplicate: boolean;
      race: number | null;
    };

const accountIndex = fc.integer({ min: 0, max: ACCOUNTS - 1 });
// Small amounts against small balances: refusals for overdraft are frequent, as they should be.
const amount = fc.integer({ min: 1, max: 5_000 });

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      from: accountIndex,
      to: accountIndex,
      amount,
      hold: fc.option(
        fc.record({
          timeout: fc.option(
            fc.integer({ min: 1, max: 120 }).map((m) => m * MINUTE),
            { nil: null },
          ),
        }),
        { nil: null },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('post' as const),
      hold: fc.nat(),
      part: fc.option(fc.double({ min: 0, max: 1.2, noNaN: true }), { nil: null }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('void' as const), hold: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.integer({ min: 0, max: 90 }).map((m) => m * MINUTE),
      expire: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('retry' as const), which: fc.nat(), same: fc.boolean() }) },
  {
    // Bad input moves nothing: an amount of 0, negative, with a fraction of a fen, not a number,
    // or beyond the largest amount.
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('bad' as const),
      from: accountIndex,
      to: accountIndex,
      amount: fc.constantFrom(
        0,
        -1,
        -500,
        0.5,
        12.34,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        AMOUNT_MAX_FEN + 1,
        2 ** 53,
      ),
      hold: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('concurrent' as const),
      transfers: fc.array(fc.record({ from: accountIndex, to: accountIndex, amount, hold: fc.boolean() }), {
        minLength: 2,
        maxLength: 6,
      }),
      duplicate: fc.boolean(),
      race: fc.option(fc.nat(), { nil: null }),
    }),
  },
);

type Outcome = { ok: TransferResult } | { code: number };

const settleCode = (e: unknown): Outcome => {
  if (e instanceof AppError) return { code: e.code };
  throw e;
};

const codeNames = new Map(Object.entries(ErrorCode).map(([name, code]) => [code as number, name]));

/** One ledger call with arguments kept as data (to be retried later). */
function call(db: Executor, kind: 'transfer' | 'post' | 'void', args: Record<string, unknown>) {
  if (kind === 'transfer') return transfer(db, args as unknown as Parameters<typeof transfer>[1]);
  if (kind === 'post') return postPending(db, args as unknown as Parameters<typeof postPending>[1]);
  return voidPending(db, args as unknown as Parameters<typeof voidPending>[1]);
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

describe.each(BACKENDS)('ledger properties (%s)', (backend) => {
  let d: TestDatabase;
  // One simulated clock for the whole file: each run starts after the last one's holds ended.
  let clock = Date.parse('2026-01-01T00:00:00Z');
  let run = 0;

  beforeAll(async () => {
    d = await createTestDatabase(backend);
  });
  afterAll(() => d?.close());

  /** What the runs did (printed at the end: the sequences must reach every branch, not only refusals). */
  const tally = new Map<string, number>();
  const count = (kind: string, got: Outcome) => {
    const key = `${kind}: ${'ok' in got ? got.ok.status : (codeNames.get(got.code) ?? got.code)}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  };

  const tx = <T>(fn: (db: Executor) => Promise<T>): Promise<Outcome> =>
    d.db.transaction((db) => fn(db)).then((ok) => ({ ok: ok as TransferResult }), settleCode);

  /** A fresh set of accounts for one run: wallets refuse overdraft, platform accounts may go negative. */
  async function openAccounts(prefix: string): Promise<Map<string, ModelAccount>> {
    const accounts = new Map<string, ModelAccount>();
    for (let i = 0; i < ACCOUNTS; i++) {
      const wallet = i < WALLETS;
      const id = wallet ? `${prefix}:w${i}` : `${prefix}:p${i - WALLETS}`;
      await d.db.execute(sql`
        insert into ledger_accounts (id, kind, platform_key, no_overdraft)
        values (${id}, ${wallet ? 'enterprise' : 'platform'}, ${wallet ? null : id}, ${wallet})`);
      accounts.set(id, {
        id,
        noOverdraft: wallet,
        debitsPending: 0,
        debitsPosted: 0,
        creditsPending: 0,
        creditsPosted: 0,
      });
    }
    return accounts;
  }

  /** Runs one sequence against the database and the model; every step checks the invariants. */
  async function runSequence(ops: Op[]) {
    const prefix = `r${++run}${backend[1]}`;
    const accounts = await openAccounts(prefix);
    const ids = [...accounts.keys()];
    const transfers = new Map<string, ModelTransfer>();
    /** Calls that made a transfer, to retry: the arguments as given. */
    const made: { kind: 'transfer' | 'post' | 'void'; args: Record<string, unknown> }[] = [];
    let n = 0;
    const nextId = () => `${prefix}:t${++n}`;
    const holds = () => [...transfers.values()].filter((t) => t.phase === 'pending');
    const cause = { type: 'test', id: prefix };
    const at = () => new Date(clock);

    // The model's rules (TigerBeetle's, as ledger.ts keeps them).
    function modelTransfer(
      a: {
        id: string;
        debitAccountId: string;
        creditAccountId: string;
        amount: number;
        pending?: { timeoutAt: Date | null };
      },
      concurrent = false,
    ): { created: boolean } | { code: number } {
      const phase = a.pending ? 'pending' : 'single';
      const earlier = transfers.get(a.id);
      if (earlier) {
        const same =
          earlier.debit === a.debitAccountId &&
          earlier.credit === a.creditAccountId &&
          earlier.amount === a.amount &&
          earlier.phase === phase &&
          earlier.pendingId === null;
        return same ? { created: false } : { code: ErrorCode.TRANSFER_ID_REUSED };
      }
      const debit = accounts.get(a.debitAccountId) as ModelAccount;
      const credit = accounts.get(a.creditAccountId) as ModelAccount;
      // Concurrent callers ran in an order the model does not know: their refusals are checked apart.
      if (
        !concurrent &&
        debit.noOverdraft &&
        debit.debitsPosted + debit.debitsPending + a.amount > debit.creditsPosted
      ) {
        return { code: ErrorCode.INSUFFICIENT_BALANCE };
      }
      if (a.pending) {
        debit.debitsPending += a.amount;
        credit.creditsPending += a.amount;
      } else {
        debit.debitsPosted += a.amount;
        credit.creditsPosted += a.amount;
      }
      transfers.set(a.id, {
        id: a.id,
        debit: a.debitAccountId,
        credit: a.creditAccountId,
        amount: a.amount,
        phase,
        pendingId: null,
        state: a.pending ? 'pending' : null,
        timeoutAt: a.pending?.timeoutAt ? a.pending.timeoutAt.getTime() : null,
      });
      return { created: true };
    }

    function release(hold: ModelTransfer, posted: number) {
      const debit = accounts.get(hold.debit) as ModelAccount;
      const credit = accounts.get(hold.credit) as ModelAccount;
      debit.debitsPending -= hold.amount;
      credit.creditsPending -= hold.amount;
      debit.debitsPosted += posted;
      credit.creditsPosted += posted;
    }

    function modelSettle(
      phase: 'post' | 'void',
      a: { id: string; pendingId: string; amount?: number },
    ): { created: boolean } | { code: number } {
      const earlier = transfers.get(a.id);
      if (earlier) {
        if (earlier.pendingId !== a.pendingId || earlier.phase !== phase) return { code: ErrorCode.TRANSFER_ID_REUSED };
        if (a.amount !== undefined && earlier.amount !== a.amount) return { code: ErrorCode.TRANSFER_ID_REUSED };
        return { created: false };
      }
      const hold = transfers.get(a.pendingId);
      if (!hold || hold.phase !== 'pending') return { code: ErrorCode.NOT_FOUND };
      if (hold.state === 'pending' && hold.timeoutAt !== null && hold.timeoutAt <= clock) {
        return { code: ErrorCode.TRANSFER_PENDING_EXPIRED };
      }
      if (hold.state === 'expired') return { code: ErrorCode.TRANSFER_PENDING_EXPIRED };
      if (hold.state !== 'pending') return { code: ErrorCode.CONFLICT };
      const posted = phase === 'post' ? (a.amount ?? hold.amount) : 0;
      if (posted > hold.amount) return { code: ErrorCode.INVALID_AMOUNT };
      hold.state = phase === 'post' ? 'posted' : 'voided';
      release(hold, posted);
      transfers.set(a.id, {
        id: a.id,
        debit: hold.debit,
        credit: hold.credit,
        amount: phase === 'post' ? posted : hold.amount,
        phase,
        pendingId: hold.id,
        state: null,
        timeoutAt: null,
      });
      return { created: true };
    }

    function modelExpire(): number {
      let count = 0;
      for (const hold of holds()) {
        if (hold.state === 'pending' && hold.timeoutAt !== null && hold.timeoutAt <= clock) {
          hold.state = 'expired';
          release(hold, 0);
          const id = `expire:${hold.id}`;
          transfers.set(id, {
            id,
            debit: hold.debit,
            credit: hold.credit,
            amount: hold.amount,
            phase: 'expire',
            pendingId: hold.id,
            state: null,
            timeoutAt: null,
          });
          count++;
        }
      }
      return count;
    }

    const expectOutcome = (step: string, got: Outcome, want: { created: boolean } | { code: number }) => {
      const kind = step.slice(step.indexOf('{"kind":"') + 9).split('"')[0];
      count(kind === 'retry' ? (step.includes('"same":true') ? 'retry same' : 'retry other') : kind, got);
      if ('code' in want) {
        expect('code' in got ? got.code : `created ${JSON.stringify((got as { ok: TransferResult }).ok)}`, step).toBe(
          want.code,
        );
      } else {
        expect('ok' in got ? got.ok.status : `code ${(got as { code: number }).code}`, step).toBe(
          want.created ? 'created' : 'exists',
        );
      }
    };

    const pair = (from: number, to: number) => {
      const debit = ids[from];
      const credit = ids[to === from ? (to + 1) % ACCOUNTS : to];
      return { debitAccountId: debit, creditAccountId: credit };
    };

    const transferArgs = (from: number, to: number, amountFen: number, hold: null | { timeout: number | null }) => ({
      id: nextId(),
      ...pair(from, to),
      amount: amountFen,
      code: hold ? 'hold' : 'payment',
      cause,
      now: at(),
      ...(hold ? { pending: { timeoutAt: hold.timeout === null ? null : new Date(clock + hold.timeout) } } : {}),
    });

    // Money in first, from the platform accounts, so the wallets have something to spend.
    const opening: Op[] = Array.from({ length: WALLETS }, (_, i) => ({
      kind: 'transfer',
      from: WALLETS + (i % PLATFORMS),
      to: i,
      amount: 4_000 + i * 1_500,
      hold: null,
    }));

    let stepNo = 0;
    try {
      for (const op of [...opening, ...ops]) {
        const step = `${prefix} step ${++stepNo} ${JSON.stringify(op)}`;
        switch (op.kind) {
          case 'transfer': {
            const args = transferArgs(op.from, op.to, op.amount, op.hold);
            const got = await tx((db) => transfer(db, args));
            const want = modelTransfer(args);
            expectOutcome(step, got, want);
            if ('created' in want) made.push({ kind: 'transfer', args });
            break;
          }
          case 'post':
          case 'void': {
            const all = holds();
            if (all.length === 0) break;
            const hold = all[op.hold % all.length];
            const args: { id: string; pendingId: string; now: Date; amount?: number } = {
              id: nextId(),
              pendingId: hold.id,
              now: at(),
            };
            if (op.kind === 'post' && op.part !== null) args.amount = Math.max(1, Math.round(hold.amount * op.part));
            const got = await tx((db) => (op.kind === 'post' ? postPending(db, args) : voidPending(db, args)));
            const want = modelSettle(op.kind, args);
            expectOutcome(step, got, want);
            if ('created' in want) made.push({ kind: op.kind, args });
            break;
          }
          case 'advance': {
            clock += op.ms;
            if (op.expire) {
              const expired = await expirePending(d.db, at());
              expect(expired, step).toBe(modelExpire());
              tally.set('holds expired by the job', (tally.get('holds expired by the job') ?? 0) + expired);
            }
            break;
          }
          case 'bad': {
            const args = transferArgs(op.from, op.to, op.amount, op.hold ? { timeout: null } : null);
            const got = await tx((db) => transfer(db, args));
            expectOutcome(step, got, { code: ErrorCode.INVALID_AMOUNT });
            // A post of a hold with a bad amount is refused the same way.
            const open = holds().filter((h) => h.state === 'pending');
            if (open.length > 0) {
              const post = await tx((db) =>
                postPending(db, { id: nextId(), pendingId: open[0].id, amount: op.amount, now: at() }),
              );
              expectOutcome(`${step} (post)`, post, { code: ErrorCode.INVALID_AMOUNT });
            }
            break;
          }
          case 'retry': {
            if (made.length === 0) break;
            const earlier = made[op.which % made.length];
            // A retry comes later (its time is now), with the same arguments or another amount.
            const args = { ...earlier.args, now: at() } as Record<string, unknown>;
            if (!op.same) {
              if (earlier.kind === 'void') args.amount = 1;
              else args.amount = Number(args.amount ?? (transfers.get(String(args.id)) as ModelTransfer).amount) + 1;
            }
            const got = await tx((db) =>
              call(
                db,
                earlier.kind === 'transfer' ? 'transfer' : earlier.kind === 'post' || !op.same ? 'post' : 'void',
                args,
              ),
            );
            const want =
              earlier.kind === 'transfer'
                ? modelTransfer(args as Parameters<typeof modelTransfer>[0])
                : modelSettle(
                    earlier.kind === 'post' || !op.same ? 'post' : 'void',
                    args as { id: string; pendingId: string },
                  );
            expectOutcome(step, got, want);
            expect('created' in want && want.created, `${step}: a retry never moves money`).toBe(false);
            break;
          }
          case 'concurrent': {
            // Several callers at once: distinct transfers, perhaps one sent twice (a retried
            // request racing its original), perhaps a post and a void racing for one hold.
            const batch = op.transfers.map((t) =>
              transferArgs(t.from, t.to, t.amount, t.hold ? { timeout: 30 * MINUTE } : null),
            );
            const calls: { kind: 'transfer' | 'post' | 'void'; args: Record<string, unknown> }[] = batch.map(
              (args) => ({
                kind: 'transfer',
                args,
              }),
            );
            if (op.duplicate) calls.push({ kind: 'transfer', args: { ...batch[0] } });
            const open = holds().filter((h) => h.state === 'pending' && (h.timeoutAt === null || h.timeoutAt > clock));
            const raced = op.race !== null && open.length > 0 ? open[op.race % open.length] : null;
            if (raced) {
              calls.push({ kind: 'post', args: { id: nextId(), pendingId: raced.id, now: at() } });
              calls.push({ kind: 'void', args: { id: nextId(), pendingId: raced.id, now: at() } });
            }
            const before = new Map([...accounts].map(([id, a]) => [id, { ...a }]));
            const results = await Promise.all(calls.map((c) => tx((db) => call(db, c.kind, c.args))));
            // The model applies what was made (counters add up in any order) and checks the refusals.
            const createdDebits = new Map<string, number>();
            const seen = new Set<string>();
            results.forEach((got, i) => {
              const c = calls[i];
              const where = `${step} call ${i} ${c.kind} ${String(c.args.id)}`;
              count(`concurrent ${c.kind}`, got);
              if (c.kind !== 'transfer') return;
              const args = c.args as ReturnType<typeof transferArgs>;
              if ('ok' in got) {
                if (got.ok.status === 'created') {
                  expect(seen.has(args.id), `${where}: one id made twice`).toBe(false);
                  seen.add(args.id);
                  expect(modelTransfer(args, true), where).toEqual({ created: true });
                  made.push({ kind: 'transfer', args });
                  createdDebits.set(args.debitAccountId, (createdDebits.get(args.debitAccountId) ?? 0) + args.amount);
                } else {
                  expect([0, batch.length], `${where}: only a duplicate finds its twin`).toContain(i);
                }
              } else {
                expect(got.code, where).toBe(ErrorCode.INSUFFICIENT_BALANCE);
              }
            });
            if (op.duplicate) {
              const pairOutcomes = [results[0], results[batch.length]];
              const madeOnce = pairOutcomes.filter((r) => 'ok' in r && r.ok.status === 'created').length;
              const refused = pairOutcomes.filter((r) => 'code' in r).length;
              // Once made and once found, or (both saw too little money) twice refused.
              expect(madeOnce === 1 || refused === 2, `${step}: a duplicate moves money once`).toBe(true);
            }
            // A refused debit saw an available amount below it: at least what the wallet had minus what the batch made.
            results.forEach((got, i) => {
              const c = calls[i];
              if (c.kind !== 'transfer' || !('code' in got)) return;
              const args = c.args as ReturnType<typeof transferArgs>;
              const was = before.get(args.debitAccountId) as ModelAccount;
              const floor =
                was.creditsPosted -
                was.debitsPosted -
                was.debitsPending -
                (createdDebits.get(args.debitAccountId) ?? 0);
              expect(was.noOverdraft, `${step}: only a wallet refuses`).toBe(true);
              expect(args.amount, `${step}: refused ${args.id} though the wallet had enough`).toBeGreaterThan(floor);
            });
            if (raced) {
              const settled = results.slice(-2);
              const wins = settled.filter((r) => 'ok' in r && r.ok.status === 'created');
              expect(wins.length, `${step}: a post and a void of one hold: exactly one settles it`).toBe(1);
              for (const r of settled) if ('code' in r) expect(r.code, step).toBe(ErrorCode.CONFLICT);
              const winner = settled[0] === wins[0] ? calls[calls.length - 2] : calls[calls.length - 1];
              expect(
                modelSettle(winner.kind as 'post' | 'void', winner.args as { id: string; pendingId: string }),
                step,
              ).toEqual({
                created: true,
              });
              made.push(winner);
            }
            break;
          }
        }
        await checkInvariants(step, accounts, transfers);
      }
    } finally {
      // Ends every hold of the run, so the next run's expiry job finds only its own.
      clock += 200 * MINUTE;
      await expirePending(d.db, at());
      for (const h of holds()) {
        if (h.state === 'pending' && h.timeoutAt === null) {
          await d.db
            .transaction((db) => voidPending(db, { id: `${h.id}:end`, pendingId: h.id, now: at() }))
            .catch(() => undefined); // a failed run's model may be behind: its failure is what is reported
        }
      }
    }
  }

  /** The invariants, and the database against the model. */
  async function checkInvariants(
    step: string,
    accounts: Map<string, ModelAccount>,
    transfers: Map<string, ModelTransfer>,
  ) {
    const ids = [...accounts.keys()];
    const idList = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    const [sums] = rowsOf(
      await d.db.execute(sql`
        select coalesce(sum(credits_posted - debits_posted), 0)::text as posted,
               coalesce(sum(credits_pending - debits_pending), 0)::text as pending,
               count(*) filter (where no_overdraft and credits_posted - debits_posted - debits_pending < 0)::int as negative
        from ledger_accounts`),
    );
    expect(sums, `${step}: balances sum to zero, no wallet below zero`).toEqual({
      posted: '0',
      pending: '0',
      negative: 0,
    });

    const rows = rowsOf(
      await d.db.execute(sql`
        select a.id, a.debits_pending::text as dq, a.debits_posted::text as dp, a.credits_pending::text as cq,
               a.credits_posted::text as cp, l.balance::text as line_balance, l.frozen::text as line_frozen, l.debit
        from ledger_accounts a
        left join lateral (
          select e.balance, e.frozen, t.debit_account_id = e.account_id as debit
          from ledger_entries e join ledger_transfers t on t.id = e.transfer_id
          where e.account_id = a.id order by e.seq desc limit 1
        ) l on true
        where a.id in (${idList})`),
    );
    expect(rows.length, step).toBe(ACCOUNTS);
    for (const r of rows) {
      const m = accounts.get(String(r.id)) as ModelAccount;
      const db = { dq: Number(r.dq), dp: Number(r.dp), cq: Number(r.cq), cp: Number(r.cp) };
      expect(db, `${step}: ${m.id} agrees with the model`).toEqual({
        dq: m.debitsPending,
        dp: m.debitsPosted,
        cq: m.creditsPending,
        cp: m.creditsPosted,
      });
      if (r.line_balance !== null) {
        expect(Number(r.line_balance), `${step}: ${m.id}'s last line carries its balance`).toBe(db.cp - db.dp);
        expect(Number(r.line_frozen), `${step}: ${m.id}'s last line carries its frozen amount`).toBe(db.dq);
      } else {
        expect(db, `${step}: ${m.id} without lines never moved`).toEqual({ dq: 0, dp: 0, cq: 0, cp: 0 });
      }
    }

    const made = rowsOf(
      await d.db.execute(sql`
        select t.id, t.phase, t.state, t.amount::text as amount, t.debit_account_id as debit, t.credit_account_id as credit,
               (select count(*) from ledger_entries e where e.transfer_id = t.id)::int as lines,
               (select count(*) from ledger_entries e where e.transfer_id = t.id and e.account_id in (t.debit_account_id, t.credit_account_id))::int as own_lines
        from ledger_transfers t
        where t.debit_account_id in (${idList}) or t.credit_account_id in (${idList})`),
    );
    expect(made.length, `${step}: every transfer made, once`).toBe(transfers.size);
    for (const t of made) {
      const m = transfers.get(String(t.id));
      expect(m, `${step}: ${String(t.id)} is the model's`).toBeDefined();
      if (!m) continue;
      expect(
        { phase: t.phase, state: t.state ?? null, amount: Number(t.amount), debit: t.debit, credit: t.credit },
        `${step}: ${m.id}`,
      ).toEqual({ phase: m.phase, state: m.state, amount: m.amount, debit: m.debit, credit: m.credit });
      expect([t.lines, t.own_lines], `${step}: ${m.id} has two statement lines`).toEqual([2, 2]);
    }
    // No statement line of these accounts without its transfer.
    const [orphans] = rowsOf(
      await d.db.execute(sql`
        select count(*)::int as n from ledger_entries e
        where e.account_id in (${idList}) and not exists (select 1 from ledger_transfers t where t.id = e.transfer_id)`),
    );
    expect(orphans.n, step).toBe(0);
  }

  const runs = backend === 'pglite' ? 30 : 12;
  const steps = backend === 'pglite' ? 40 : 30;

  it(`keeps every invariant over ${runs} random sequences of up to ${steps} operations`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: steps - 10, maxLength: steps }), (ops) => runSequence(ops)),
      { numRuns: runs, endOnFailure: true },
    );
    console.log(
      `ledger properties (${backend}): ${[...tally]
        .sort()
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
  }, 120_000);
});
