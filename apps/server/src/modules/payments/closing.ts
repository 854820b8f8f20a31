import { and, eq, isNotNull, lte, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type PayOrderRow, payAttempts, payOrders } from '../../db/schema/index.js';
import { expirePending } from '../ledger/ledger.js';
import { payableOf } from './payables.js';

/**
 * How an unpaid payment order ends without being paid (issue 26): the payer gives up
 * (payment.close) or its time runs out (the job). One conditional UPDATE claims it, so a
 * payment and a close racing for the same order cannot both win; its open provider payments
 * are closed with it (a notification arriving later still credits the wallet: settle.ts).
 */
export async function closeOrder(
  db: Executor,
  orderId: string,
  now: Date,
  options: { expiredOnly?: boolean } = {},
): Promise<PayOrderRow | null> {
  const conds: SQL[] = [eq(payOrders.id, orderId), eq(payOrders.state, 'unpaid')];
  if (options.expiredOnly) conds.push(isNotNull(payOrders.expiresAt), lte(payOrders.expiresAt, now));
  const [closed] = await db
    .update(payOrders)
    .set({ state: 'closed', closedAt: now, updatedAt: now })
    .where(and(...conds))
    .returning();
  if (!closed) return null;
  await db
    .update(payAttempts)
    .set({ state: 'closed', settledAt: now })
    .where(and(eq(payAttempts.orderId, closed.id), eq(payAttempts.state, 'created')));
  await payableOf(closed.purpose).onClosed?.(db, closed, now);
  return closed;
}

/** The job's work: closes the unpaid orders whose expiry is at or before `now` (each in its own transaction). */
export async function closeExpiredOrders(root: Executor, now: Date, limit = 500): Promise<number> {
  const due = await root
    .select({ id: payOrders.id })
    .from(payOrders)
    .where(and(eq(payOrders.state, 'unpaid'), isNotNull(payOrders.expiresAt), lte(payOrders.expiresAt, now)))
    .orderBy(payOrders.expiresAt)
    .limit(limit);
  let closed = 0;
  for (const { id } of due) {
    const row = await root.transaction((tx) => closeOrder(tx, id, now, { expiredOnly: true }));
    if (row) closed++;
  }
  return closed;
}

/** The holds job: voids the ledger's holds whose timeout has passed. */
export function expireHolds(root: Executor, now: Date): Promise<number> {
  return expirePending(root, now);
}

export const CLOSE_EXPIRED_JOB = 'payments-close-expired';
export const EXPIRE_HOLDS_JOB = 'ledger-expire-holds';
export const PAYMENT_JOBS_CRON = '* * * * *';
