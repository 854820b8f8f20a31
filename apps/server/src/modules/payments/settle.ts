import type { PayMethod, PlatformAccount } from '@marquee/protocol';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type PayOrderRow, payOrders } from '../../db/schema/index.js';
import { ensurePlatformAccount } from '../ledger/accounts.js';
import { transfer } from '../ledger/ledger.js';
import { payableOf } from './payables.js';

/**
 * How a payment order becomes paid (issue 26): one function for every way, in the caller's
 * transaction, so the order's state, its ledger transfers and the caller's operation-log row
 * commit together. Transfer ids derive from the order (and the provider payment or offline
 * transfer that brought the money), so a repeated notification or a retried call moves
 * nothing twice.
 */

const CLEARING: Record<Exclude<PayMethod, 'balance'>, PlatformAccount> = {
  wechat: 'clearingWechat',
  alipay: 'clearingAlipay',
  offline: 'clearingOffline',
};

export const payOrderCause = (order: Pick<PayOrderRow, 'id'>) => ({ type: 'payOrder', id: order.id });

/**
 * Money that arrived from outside for the order (a provider's payment, a confirmed bank
 * transfer): from the method's clearing account into the order's wallet. `key` names the
 * arrival (the provider payment's or the offline transfer's id): the same arrival credits once.
 */
export async function creditArrival(
  db: Executor,
  order: PayOrderRow,
  arrival: { method: Exclude<PayMethod, 'balance'>; key: string; amount: number; now: Date; actorId?: string | null },
) {
  const clearing = await ensurePlatformAccount(db, CLEARING[arrival.method]);
  return transfer(db, {
    id: `in:${arrival.key}`,
    debitAccountId: clearing,
    creditAccountId: order.walletId,
    amount: arrival.amount,
    code: 'recharge',
    cause: payOrderCause(order),
    note: order.no,
    actorId: arrival.actorId ?? null,
    now: arrival.now,
  });
}

export interface PaidResult {
  /** paid: this call paid it; already: it was paid before (nothing moved again); not: it is closed. */
  status: 'paid' | 'already' | 'not';
  order: PayOrderRow;
}

/**
 * Marks an unpaid (or under review) order paid by `method` and moves its money: an arrival
 * (not the balance) is credited to the wallet first; then, unless it is a recharge, the
 * order's amount goes from the wallet to its payee (INSUFFICIENT_BALANCE for the balance
 * when the wallet cannot cover it, and nothing is written). An arrival for an order that is
 * already paid or closed stays in the wallet (money is never lost): the caller alarms.
 */
export async function markPaid(
  db: Executor,
  orderId: string,
  paid: {
    method: PayMethod;
    now: Date;
    actorId?: string | null;
    providerTradeNo?: string | null;
    /** The arrival's key (provider payment or offline transfer id); default the order id. */
    arrivalKey?: string;
  },
): Promise<PaidResult> {
  const [claimed] = await db
    .update(payOrders)
    .set({
      state: 'paid',
      method: paid.method,
      paidAt: paid.now,
      providerTradeNo: paid.providerTradeNo ?? null,
      updatedAt: paid.now,
    })
    .where(and(eq(payOrders.id, orderId), inArray(payOrders.state, ['unpaid', 'review'])))
    .returning();
  if (!claimed) {
    const [order] = await db.select().from(payOrders).where(eq(payOrders.id, orderId));
    if (!order) throw new Error(`pay order ${orderId} does not exist`);
    if (paid.method !== 'balance') {
      await creditArrival(db, order, {
        method: paid.method,
        key: paid.arrivalKey ?? order.id,
        amount: order.amount,
        now: paid.now,
        actorId: paid.actorId,
      });
    }
    return { status: order.state === 'paid' ? 'already' : 'not', order };
  }
  if (paid.method !== 'balance') {
    await creditArrival(db, claimed, {
      method: paid.method,
      key: paid.arrivalKey ?? claimed.id,
      amount: claimed.amount,
      now: paid.now,
      actorId: paid.actorId,
    });
  }
  const payable = payableOf(claimed.purpose);
  // The purpose's effect first, the payment to the payee last: a payee (the platform's revenue)
  // is shared by every payer, and its row stays locked from its transfer to the commit. One
  // transaction either way: a refused payment (INSUFFICIENT_BALANCE) rolls the effect back.
  await payable.onPaid?.(db, claimed, paid.now);
  if (payable.payee) {
    const payee =
      typeof payable.payee === 'function' ? payable.payee(claimed) : await ensurePlatformAccount(db, payable.payee);
    await transfer(db, {
      id: `pay:${claimed.id}`,
      debitAccountId: claimed.walletId,
      creditAccountId: payee,
      amount: claimed.amount,
      code: 'payment',
      cause: payOrderCause(claimed),
      note: claimed.no,
      actorId: paid.actorId ?? null,
      now: paid.now,
    });
  }
  return { status: 'paid', order: claimed };
}

/** The next order number: 'P' + the UTC+8 date + 6 digits of a sequence. */
export async function nextOrderNo(db: Executor, now: Date): Promise<string> {
  const day = new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
  const result = (await db.execute(sql`select nextval('pay_order_no_seq') as n`)) as unknown as {
    rows: { n: string | number }[];
  };
  return `P${day}${String(Number(result.rows[0].n) % 1_000_000).padStart(6, '0')}`;
}

/**
 * Opens an unpaid payment order for another module's purpose (the market's orders): the
 * caller chooses the id (a market order shares it) and the number (nextOrderNo).
 */
export async function openPayOrder(
  db: Executor,
  order: {
    id: string;
    no: string;
    purpose: string;
    title: string;
    amount: number;
    walletId: string;
    entId: string;
    createdBy: string;
    expiresAt: Date | null;
    now: Date;
  },
): Promise<PayOrderRow> {
  const [row] = await db
    .insert(payOrders)
    .values({
      id: order.id,
      no: order.no,
      purpose: order.purpose,
      title: order.title,
      amount: order.amount,
      state: 'unpaid',
      walletId: order.walletId,
      entId: order.entId,
      createdBy: order.createdBy,
      expiresAt: order.expiresAt,
      createdAt: order.now,
      updatedAt: order.now,
    })
    .returning();
  return row;
}
