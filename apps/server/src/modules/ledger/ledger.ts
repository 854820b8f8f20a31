import { AMOUNT_MAX_FEN, ErrorCode } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { PendingState, TransferPhase } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { LedgerText } from './texts.js';

/**
 * The ledger's transfers (issue 26; TigerBeetle's semantics kept in PostgreSQL, see
 * docs/ARCHITECTURE.md "The ledger"). Every function runs on the executor it is given: the
 * caller's transaction, so a movement is written with its cause and its operation-log row or
 * not at all. A refusal throws (AppError) and the caller's transaction rolls back.
 *
 * - `transfer` moves an amount from a debit account to a credit account at once, or, with
 *   `pending`, holds it (the debit account's frozen amount grows, its available shrinks).
 * - `postPending` settles a hold in full or in part (the rest is released); `voidPending`
 *   releases it; `expirePending` (the job) voids the holds whose timeout has passed.
 * - Ids are the caller's: the same id twice moves money once and answers the first transfer
 *   (`status: 'exists'`); the same id for a different transfer is TRANSFER_ID_REUSED.
 * - An account with no_overdraft refuses a debit beyond its available balance in the UPDATE
 *   that moves the money (INSUFFICIENT_BALANCE), under any concurrency; a CHECK constraint
 *   holds the same invariant beneath it.
 * - The accounts of a transfer are locked in id order first, so two transfers between the
 *   same accounts in opposite directions cannot deadlock.
 */

export interface Cause {
  /** A registered cause type: 'payOrder', 'correction', and the selling modules' own. */
  type: string;
  id: string;
}

export interface TransferInput {
  /** The caller's id for this movement (idempotency key), at most 128 characters. */
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  /** Fen, a positive safe integer. */
  amount: number;
  /** What moved the money (MOVEMENT_CODES). */
  code: string;
  cause: Cause;
  note?: string;
  actorId?: string | null;
  /** The movement's time (an input, so a test can run a simulated month). */
  now: Date;
  /** A two-phase transfer: hold the amount until posted, voided or timed out. */
  pending?: { timeoutAt: Date | null };
}

export interface TransferRecord {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amount: number;
  phase: TransferPhase;
  pendingId: string | null;
  state: PendingState | null;
  timeoutAt: Date | null;
  code: string;
  causeType: string;
  causeId: string;
  createdAt: Date;
}

export interface TransferResult {
  /** 'created' moved the money now; 'exists' found the same transfer made before (nothing moved). */
  status: 'created' | 'exists';
  transfer: TransferRecord;
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

function toRecord(r: Row): TransferRecord {
  return {
    id: String(r.id),
    debitAccountId: String(r.debit_account_id),
    creditAccountId: String(r.credit_account_id),
    amount: Number(r.amount),
    phase: r.phase as TransferPhase,
    pendingId: (r.pending_id as string | null) ?? null,
    state: (r.state as PendingState | null) ?? null,
    timeoutAt: r.timeout_at ? new Date(r.timeout_at as string) : null,
    code: String(r.code),
    causeType: String(r.cause_type),
    causeId: String(r.cause_id),
    createdAt: new Date(r.created_at as string),
  };
}

const TRANSFER_ID_MAX = 128;

/** The month of a statement: UTC+8 (China's calendar), 'YYYY-MM'. */
export function statementMonth(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 7);
}

function checkAmount(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > AMOUNT_MAX_FEN) {
    throw new AppError(ErrorCode.INVALID_AMOUNT, LedgerText.invalidAmount);
  }
}

function checkId(id: string) {
  if (!id || id.length > TRANSFER_ID_MAX) throw new AppError(ErrorCode.INVALID_PARAMS, LedgerText.badTransferId);
}

async function findTransfer(db: Executor, id: string): Promise<TransferRecord | null> {
  const rows = rowsOf(await db.execute(sql`select * from ledger_transfers where id = ${id}`));
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The earlier transfer under this id, if it is the same transfer; TRANSFER_ID_REUSED if it is another. */
function sameOrRefuse(
  existing: TransferRecord,
  expected: Pick<
    TransferRecord,
    'debitAccountId' | 'creditAccountId' | 'amount' | 'phase' | 'pendingId' | 'code' | 'causeType' | 'causeId'
  >,
): TransferResult {
  const same =
    existing.debitAccountId === expected.debitAccountId &&
    existing.creditAccountId === expected.creditAccountId &&
    existing.amount === expected.amount &&
    existing.phase === expected.phase &&
    existing.pendingId === expected.pendingId &&
    existing.code === expected.code &&
    existing.causeType === expected.causeType &&
    existing.causeId === expected.causeId;
  if (!same) throw new AppError(ErrorCode.TRANSFER_ID_REUSED, LedgerText.idReused);
  return { status: 'exists', transfer: existing };
}

interface Side {
  accountId: string;
  counterpartyId: string;
  /** Change of the posted counter on this side (debits_posted for the debit side, credits_posted for the credit side). */
  posted: number;
  /** Change of the pending counter on this side. */
  pending: number;
  debit: boolean;
}

/**
 * One statement: moves the counters of both sides in one UPDATE (rows already locked in id
 * order), where the debit side of a no-overdraft account is updated only if the result keeps
 * debits within credits; then, only if both rows moved, writes both statement lines (the
 * balance and the account's frozen amount after it) and the months' sums. Throws
 * INSUFFICIENT_BALANCE when the debit side was refused (the caller's transaction rolls back).
 */
async function applySides(
  db: Executor,
  t: { id: string; code: string; causeType: string; causeId: string; note: string; now: Date },
  sides: readonly [Side, Side],
  checkOverdraft: boolean,
) {
  const values = sides.map(
    (s) =>
      sql`(${s.accountId}::text, ${s.counterpartyId}::text, ${s.debit ? s.posted : 0}::bigint, ${s.debit ? s.pending : 0}::bigint, ${s.debit ? 0 : s.posted}::bigint, ${s.debit ? 0 : s.pending}::bigint, ${s.debit && checkOverdraft}::boolean, ${s.debit ? -s.posted : s.posted}::bigint, ${s.pending}::bigint)`,
  );
  const at = t.now.toISOString();
  const result = rowsOf(
    await db.execute(sql`
      with v (id, counterparty, dp, dq, cp, cq, guard, amount, pending_change) as (
        values ${sql.join(values, sql`, `)}
      ),
      u as (
        update ledger_accounts a set
          debits_posted = a.debits_posted + v.dp,
          debits_pending = a.debits_pending + v.dq,
          credits_posted = a.credits_posted + v.cp,
          credits_pending = a.credits_pending + v.cq
        from v
        where a.id = v.id
          and (not v.guard or not a.no_overdraft or a.debits_posted + a.debits_pending + v.dp + v.dq <= a.credits_posted)
        returning a.id, a.credits_posted - a.debits_posted as balance, a.debits_pending as frozen
      ),
      moved as (select count(*) = 2 as ok from u),
      lines as (
        insert into ledger_entries (account_id, transfer_id, counterparty_id, amount, pending_change, balance, frozen,
                                    code, cause_type, cause_id, note, created_at)
        select v.id, ${t.id}, v.counterparty, v.amount, v.pending_change, u.balance, u.frozen,
               ${t.code}, ${t.causeType}, ${t.causeId}, ${t.note}, ${at}::timestamptz
        from u join v on v.id = u.id
        where (select ok from moved)
      ),
      months as (
        insert into ledger_account_months (account_id, month, credits, debits, closing, movements)
        select v.id, ${statementMonth(t.now)}, v.cp, v.dp, u.balance, 1
        from u join v on v.id = u.id
        where (select ok from moved)
        on conflict (account_id, month) do update set
          credits = ledger_account_months.credits + excluded.credits,
          debits = ledger_account_months.debits + excluded.debits,
          closing = excluded.closing,
          movements = ledger_account_months.movements + 1
      )
      select count(*)::int as updated from u`),
  );
  if (Number(result[0]?.updated) !== 2) {
    throw new AppError(ErrorCode.INSUFFICIENT_BALANCE, LedgerText.insufficient);
  }
}

/** Locks both accounts in id order; false when one does not exist. */
async function lockAccounts(db: Executor, a: string, b: string): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`select id from ledger_accounts where id in (${a}, ${b}) order by id for update`),
  );
  return rows.length === 2;
}

/** Moves (or, with `pending`, holds) an amount from one account to another. */
export async function transfer(db: Executor, input: TransferInput): Promise<TransferResult> {
  checkId(input.id);
  checkAmount(input.amount);
  if (input.debitAccountId === input.creditAccountId) {
    throw new AppError(ErrorCode.INVALID_PARAMS, LedgerText.sameAccount);
  }
  const phase: TransferPhase = input.pending ? 'pending' : 'single';
  const expected = {
    debitAccountId: input.debitAccountId,
    creditAccountId: input.creditAccountId,
    amount: input.amount,
    phase,
    pendingId: null,
    code: input.code,
    causeType: input.cause.type,
    causeId: input.cause.id,
  };
  const note = input.note ?? '';
  // One statement: lock both accounts in id order, then insert the transfer (nothing when
  // the id exists: a retry, answered from the earlier transfer below).
  const inserted = rowsOf(
    await db.execute(sql`
      with locked as (
        select id from ledger_accounts where id in (${input.debitAccountId}, ${input.creditAccountId})
        order by id for update
      )
      insert into ledger_transfers (id, debit_account_id, credit_account_id, amount, phase, state, timeout_at,
                                    code, cause_type, cause_id, note, actor_id, created_at)
      select ${input.id}, ${input.debitAccountId}, ${input.creditAccountId}, ${input.amount}::bigint, ${phase},
             ${input.pending ? 'pending' : null}, ${input.pending?.timeoutAt?.toISOString() ?? null}::timestamptz,
             ${input.code}, ${input.cause.type}, ${input.cause.id}, ${note}, ${input.actorId ?? null},
             ${input.now.toISOString()}::timestamptz
      where (select count(*) from locked) = 2
      on conflict (id) do nothing
      returning *`),
  );
  if (inserted.length === 0) {
    const earlier = await findTransfer(db, input.id);
    if (!earlier) throw new AppError(ErrorCode.NOT_FOUND, LedgerText.accountMissing);
    return sameOrRefuse(earlier, expected);
  }
  const posted = input.pending ? 0 : input.amount;
  const pending = input.pending ? input.amount : 0;
  await applySides(
    db,
    { id: input.id, code: input.code, causeType: input.cause.type, causeId: input.cause.id, note, now: input.now },
    [
      { accountId: input.debitAccountId, counterpartyId: input.creditAccountId, posted, pending, debit: true },
      { accountId: input.creditAccountId, counterpartyId: input.debitAccountId, posted, pending, debit: false },
    ],
    true,
  );
  return { status: 'created', transfer: toRecord(inserted[0]) };
}

export interface SettleInput {
  /** The caller's id of the post or void (idempotency key). */
  id: string;
  pendingId: string;
  now: Date;
  actorId?: string | null;
  note?: string;
}

async function settle(
  db: Executor,
  input: SettleInput,
  phase: 'post' | 'void' | 'expire',
  postAmount: number | undefined,
): Promise<TransferResult> {
  checkId(input.id);
  if (postAmount !== undefined) checkAmount(postAmount);
  const earlier = await findTransfer(db, input.id);
  if (earlier) {
    if (earlier.pendingId !== input.pendingId || earlier.phase !== phase) {
      throw new AppError(ErrorCode.TRANSFER_ID_REUSED, LedgerText.idReused);
    }
    if (postAmount !== undefined && earlier.amount !== postAmount) {
      throw new AppError(ErrorCode.TRANSFER_ID_REUSED, LedgerText.idReused);
    }
    return { status: 'exists', transfer: earlier };
  }
  const state: PendingState = phase === 'post' ? 'posted' : phase === 'void' ? 'voided' : 'expired';
  // Claims the hold exactly once: a concurrent settle waits on the row and then finds it claimed.
  const claimed = rowsOf(
    await db.execute(sql`
      update ledger_transfers set state = ${state}
      where id = ${input.pendingId} and phase = 'pending' and state = 'pending'
        and (${phase === 'expire'} or timeout_at is null or timeout_at > ${input.now.toISOString()}::timestamptz)
      returning *`),
  );
  if (claimed.length === 0) {
    const again = await findTransfer(db, input.id);
    if (again && again.pendingId === input.pendingId && again.phase === phase) {
      return { status: 'exists', transfer: again };
    }
    const hold = await findTransfer(db, input.pendingId);
    if (!hold || hold.phase !== 'pending') throw new AppError(ErrorCode.NOT_FOUND, LedgerText.pendingMissing);
    if (hold.state === 'pending') throw new AppError(ErrorCode.TRANSFER_PENDING_EXPIRED, LedgerText.pendingExpired);
    if (hold.state === 'expired') throw new AppError(ErrorCode.TRANSFER_PENDING_EXPIRED, LedgerText.pendingExpired);
    throw new AppError(ErrorCode.CONFLICT, LedgerText.pendingSettled);
  }
  const hold = toRecord(claimed[0]);
  const posted = phase === 'post' ? (postAmount ?? hold.amount) : 0;
  if (posted > hold.amount) throw new AppError(ErrorCode.INVALID_AMOUNT, LedgerText.postAboveHold);
  await lockAccounts(db, hold.debitAccountId, hold.creditAccountId);
  const amount = phase === 'post' ? posted : hold.amount;
  const note = input.note ?? '';
  const inserted = rowsOf(
    await db.execute(sql`
      insert into ledger_transfers (id, debit_account_id, credit_account_id, amount, phase, pending_id,
                                    code, cause_type, cause_id, note, actor_id, created_at)
      values (${input.id}, ${hold.debitAccountId}, ${hold.creditAccountId}, ${amount}, ${phase}, ${hold.id},
              ${hold.code}, ${hold.causeType}, ${hold.causeId}, ${note}, ${input.actorId ?? null},
              ${input.now.toISOString()}::timestamptz)
      returning *`),
  );
  await applySides(
    db,
    { id: input.id, code: hold.code, causeType: hold.causeType, causeId: hold.causeId, note, now: input.now },
    [
      {
        accountId: hold.debitAccountId,
        counterpartyId: hold.creditAccountId,
        posted,
        pending: -hold.amount,
        debit: true,
      },
      {
        accountId: hold.creditAccountId,
        counterpartyId: hold.debitAccountId,
        posted,
        pending: -hold.amount,
        debit: false,
      },
    ],
    false,
  );
  return { status: 'created', transfer: toRecord(inserted[0]) };
}

/** Posts a hold: `amount` (default all of it) moves, the rest is released. */
export function postPending(db: Executor, input: SettleInput & { amount?: number }): Promise<TransferResult> {
  return settle(db, input, 'post', input.amount);
}

/** Releases a hold: nothing moves. */
export function voidPending(db: Executor, input: SettleInput): Promise<TransferResult> {
  return settle(db, input, 'void', undefined);
}

/**
 * Voids the holds whose timeout is at or before `now` (the job's work; time is an input), at
 * most `limit` of them, each in its own transaction; returns how many expired.
 */
export async function expirePending(
  root: Executor,
  now: Date,
  limit = 500,
  onExpired?: (tx: Executor, hold: TransferRecord) => Promise<void>,
): Promise<number> {
  const due = rowsOf(
    await root.execute(sql`
      select id from ledger_transfers
      where state = 'pending' and timeout_at is not null and timeout_at <= ${now.toISOString()}::timestamptz
      order by timeout_at limit ${limit}`),
  );
  let expired = 0;
  for (const { id } of due) {
    const done = await root.transaction(async (tx) => {
      try {
        const result = await settle(
          tx,
          { id: `expire:${String(id)}`, pendingId: String(id), now },
          'expire',
          undefined,
        );
        if (result.status === 'created' && onExpired) {
          const hold = await findTransfer(tx, String(id));
          if (hold) await onExpired(tx, hold);
        }
        return result.status === 'created';
      } catch (error) {
        // Posted or voided by its owner meanwhile: nothing to expire.
        if (error instanceof AppError && error.code === ErrorCode.CONFLICT) return false;
        throw error;
      }
    });
    if (done) expired++;
  }
  return expired;
}

/** The transfers of a cause (a payment order's recharge, an order's hold and its post). */
export async function transfersOf(db: Executor, cause: Cause): Promise<TransferRecord[]> {
  const rows = rowsOf(
    await db.execute(
      sql`select * from ledger_transfers where cause_type = ${cause.type} and cause_id = ${cause.id} order by created_at, id`,
    ),
  );
  return rows.map(toRecord);
}

export { findTransfer };
