import { canMove, ErrorCode, SALES_ORDER_TRANSITIONS, type SalesOrderState } from '@marquee/protocol';
import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from '../../auth/principal.js';
import type { Executor } from '../../db/client.js';
import { accounts, type SalesOrderRow, salesOrderEvents, salesOrders } from '../../db/schema/index.js';
import { AppError, type LocalizedText } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { advertiserScopeWhere } from '../advertisers/scope.js';

/**
 * Who sees which order of the airtime market (issue 28), and the one way an order changes
 * state. An advertiser sees its own orders (advertiser_id = its account); a staff member the
 * orders of the advertiser accounts it sees (modules/advertisers/scope.ts: its data scope on
 * the advertiser's department, widened by the /user/allot assignments); the enterprise
 * administrator every order of the enterprise. Always within the caller's enterprise.
 */

type ScopeUser = Pick<Principal, 'entId' | 'accountId' | 'deptId' | 'deptPath' | 'dataScope'>;

export const OrderScopeText = {
  orderNotFound: {
    'zh-CN': '订单不存在或无权查看',
    'en-US': 'The order does not exist or is not visible to you',
    ja: '注文が存在しないか、閲覧権限がありません',
  },
  orderState: {
    'zh-CN': '订单状态已变化，无法执行此操作',
    'en-US': 'The order is no longer in a state that allows this',
    ja: '注文の状態が変わったため、この操作はできません',
  },
} satisfies Record<string, LocalizedText>;

/**
 * Rows of any table with an advertiser column the caller sees (orders, price contracts,
 * contracts): the tenant, and (unless the caller is the enterprise administrator) the
 * caller's own rows or those of an advertiser account in the caller's advertiser scope.
 */
export function advertiserOwnedWhere(
  user: ScopeUser,
  advertiserColumn: AnyPgColumn | SQL,
  entColumn: AnyPgColumn | SQL,
): SQL {
  const tenant = sql`${entColumn} = ${user.entId}`;
  if (user.dataScope === 'all') return tenant;
  const own = sql`${advertiserColumn} = ${user.accountId}`;
  const seen = sql`${advertiserColumn} = any(array(select ${accounts.id} from ${accounts} where ${advertiserScopeWhere(user)}))`;
  return and(tenant, or(own, seen)) as SQL;
}

/** The orders the caller sees (see the module comment). */
export function salesOrderWhere(user: ScopeUser): SQL {
  return advertiserOwnedWhere(user, salesOrders.advertiserId, salesOrders.entId);
}

/** The order visible to the caller, optionally locked FOR UPDATE; NOT_FOUND otherwise. */
export async function requireOrder(ctx: CallContext, id: string, opts?: { lock?: boolean }): Promise<SalesOrderRow> {
  const q = ctx.db
    .select()
    .from(salesOrders)
    .where(and(eq(salesOrders.id, id), salesOrderWhere(ctx.user)));
  const [row] = opts?.lock ? await q.for('update') : await q;
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, OrderScopeText.orderNotFound);
  return row;
}

export interface OrderEvent {
  orderId: string;
  from: SalesOrderState | null;
  to: SalesOrderState;
  /** The person who moved it; null for the system (jobs). */
  actorId: string | null;
  note?: string;
  at: Date;
}

/** Appends an event row (an order's history: from, to, who, when). */
export async function recordEvent(db: Executor, e: OrderEvent): Promise<void> {
  await db.insert(salesOrderEvents).values({
    orderId: e.orderId,
    fromState: e.from,
    toState: e.to,
    actorId: e.actorId,
    note: e.note ?? '',
    at: e.at,
  });
}

export type OrderPatch = Partial<
  Pick<
    SalesOrderRow,
    | 'paidAmount'
    | 'refundedAmount'
    | 'holdUntil'
    | 'holdTransferId'
    | 'cancelReason'
    | 'paidAt'
    | 'cancelledAt'
    | 'settledAt'
  >
>;

/**
 * Moves an order by SALES_ORDER_TRANSITIONS with a conditional UPDATE (`where state in
 * from`): when the row is no longer in `from` (a concurrent move won), SALES_ORDER_STATE and
 * nothing is written. Writes the event (note: optional) and returns the updated row.
 */
export async function moveOrder(
  db: Executor,
  orderId: string,
  from: SalesOrderState | SalesOrderState[],
  to: SalesOrderState,
  actorId: string | null,
  now: Date,
  patch?: OrderPatch,
  note?: string,
): Promise<SalesOrderRow> {
  const froms = (Array.isArray(from) ? from : [from]).filter((f) => canMove(SALES_ORDER_TRANSITIONS, f, to));
  if (froms.length === 0) throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderScopeText.orderState);
  const [prev] = await db
    .select({ state: salesOrders.state })
    .from(salesOrders)
    .where(and(eq(salesOrders.id, orderId), inArray(salesOrders.state, froms)));
  if (!prev) throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderScopeText.orderState);
  const [row] = await db
    .update(salesOrders)
    .set({ ...patch, state: to, updatedAt: now })
    .where(and(eq(salesOrders.id, orderId), eq(salesOrders.state, prev.state)))
    .returning();
  if (!row) throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderScopeText.orderState);
  await recordEvent(db, { orderId, from: prev.state, to, actorId, note, at: now });
  return row;
}
