import {
  ErrorCode,
  type endpoints,
  hasPermission,
  hoursOfMask,
  Perm,
  SALES_ORDER_STATES,
  type SalesOrder,
  type SubOrder,
} from '@marquee/protocol';
import { aliasedTable, and, asc, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  ads,
  advertisers,
  type SalesOrderRow,
  salesContracts,
  salesCoupons,
  salesOrderEvents,
  salesOrderLineDevices,
  salesOrderLines,
  salesOrders,
  salesSettlements,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { statusOf } from '../ads/service.js';
import { advertiserScopeWhere } from '../advertisers/scope.js';
import { transfersOf } from '../ledger/ledger.js';
import { OrderScopeText, salesOrderWhere } from './orderScope.js';

/**
 * The reads of airtime orders (issue 28): the list with its per-state counts, one order with
 * its sub-orders (and their ads' review), its history and its ledger movements, and the
 * advertisers the caller may order for. Visibility is orderScope.ts's.
 */

type Req<K extends keyof typeof endpoints> = z.infer<(typeof endpoints)[K]['request']>;
export type OrderFilter = Omit<Req<'salesOrderList'>, 'page' | 'size'>;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const nameOf = (real: string | null | undefined, login: string | null | undefined) => real || login || '';

const advertiserAccount = aliasedTable(accounts, 'advertiser_account');
const creatorAccount = aliasedTable(accounts, 'creator_account');

/** The orders of the filter the caller sees (without `state` when `withState` is false: the tabs' counts). */
export function orderFilterWhere(
  user: Pick<Principal, 'entId' | 'accountId' | 'deptId' | 'deptPath' | 'dataScope'>,
  filter: OrderFilter,
  withState = true,
): SQL {
  const conds: (SQL | undefined)[] = [salesOrderWhere(user)];
  if (withState && filter.state) conds.push(eq(salesOrders.state, filter.state));
  if (filter.advertiserId) conds.push(eq(salesOrders.advertiserId, filter.advertiserId));
  if (filter.goodsId) conds.push(eq(salesOrders.goodsId, filter.goodsId));
  if (filter.slotId) {
    conds.push(
      sql`exists (select 1 from ${salesOrderLines} where ${salesOrderLines.orderId} = ${salesOrders.id} and ${salesOrderLines.slotId} = ${filter.slotId})`,
    );
  }
  if (filter.from) conds.push(gte(salesOrders.createdAt, new Date(filter.from)));
  if (filter.to) conds.push(lt(salesOrders.createdAt, new Date(filter.to)));
  const keyword = filter.keyword?.trim();
  if (keyword) {
    // A sub-order number is the order's number, '-' and the line's position.
    const orderNo = keyword.replace(/-\d*$/, '');
    const like = `%${escapeLike(keyword)}%`;
    conds.push(
      or(
        ilike(salesOrders.no, `%${escapeLike(orderNo)}%`),
        ilike(salesOrders.goodsName, like),
        sql`exists (select 1 from ${accounts} where ${accounts.id} = ${salesOrders.advertiserId} and (${ilike(accounts.realName, like)} or ${ilike(accounts.loginName, like)}))`,
      ) as SQL,
    );
  }
  return and(...conds) as SQL;
}

/** The columns every order view needs, over salesOrders joined with its advertiser, creator and coupon. */
const orderColumns = {
  order: salesOrders,
  advertiserReal: advertiserAccount.realName,
  advertiserLogin: advertiserAccount.loginName,
  creatorReal: creatorAccount.realName,
  creatorLogin: creatorAccount.loginName,
  couponName: salesCoupons.name,
  settlementState: salesSettlements.state,
  subOrders: sql<number>`(select count(*)::int from ${salesOrderLines} where ${salesOrderLines.orderId} = ${salesOrders.id})`,
  screens: sql<number>`(select coalesce(sum(${salesOrderLines.screens}), 0)::int from ${salesOrderLines} where ${salesOrderLines.orderId} = ${salesOrders.id})`,
  contractState: sql<
    'signing' | 'signed' | null
  >`(select ${salesContracts.state} from ${salesContracts} where ${salesContracts.kind} = 'order' and ${salesContracts.subjectId} = ${salesOrders.id} limit 1)`,
};

/** Orders with what their view shows (add `.where`, `.orderBy`...). */
export function selectOrders(db: Executor) {
  return db
    .select(orderColumns)
    .from(salesOrders)
    .innerJoin(advertiserAccount, eq(advertiserAccount.id, salesOrders.advertiserId))
    .leftJoin(creatorAccount, eq(creatorAccount.id, salesOrders.createdBy))
    .leftJoin(salesCoupons, eq(salesCoupons.id, salesOrders.couponId))
    .leftJoin(salesSettlements, eq(salesSettlements.orderId, salesOrders.id));
}

export interface OrderViewRow {
  order: SalesOrderRow;
  advertiserReal: string | null;
  advertiserLogin: string | null;
  creatorReal: string | null;
  creatorLogin: string | null;
  couponName: string | null;
  settlementState: 'toBePaid' | 'paid' | 'completed' | null;
  subOrders: number;
  screens: number;
  contractState: 'signing' | 'signed' | null;
}

/** Fen still frozen in the advertiser's wallet: an open hold's amount not yet posted or released. */
export function frozenOf(o: {
  state: string;
  holdTransferId: string | null;
  amount: number;
  paidAmount: number;
  refundedAmount: number;
}): number {
  if (!o.holdTransferId || o.state === 'unpaid' || o.state === 'cancelled' || o.state === 'settled') return 0;
  return Math.max(0, o.amount - o.paidAmount - o.refundedAmount);
}

export function presentOrder(row: OrderViewRow, user: Principal): SalesOrder {
  const o = row.order;
  return {
    id: o.id,
    no: o.no,
    advertiserId: o.advertiserId,
    advertiserName: nameOf(row.advertiserReal, row.advertiserLogin),
    goodsId: o.goodsId,
    goodsName: o.goodsName,
    state: o.state,
    startDate: o.startDate,
    endDate: o.endDate,
    hours: hoursOfMask(o.hoursMask),
    listAmount: o.listAmount,
    amount: o.amount,
    paidAmount: o.paidAmount,
    frozenAmount: frozenOf(o),
    refundedAmount: o.refundedAmount,
    couponId: o.couponId,
    couponName: row.couponName ?? null,
    priceContractId: o.priceContractId,
    holdUntil: o.holdUntil?.toISOString() ?? null,
    cancelReason: o.cancelReason,
    subOrders: Number(row.subOrders),
    screens: Number(row.screens),
    settlementState: row.settlementState ?? null,
    contractState: row.contractState ?? null,
    createdBy: nameOf(row.creatorReal, row.creatorLogin),
    createdAt: o.createdAt.toISOString(),
    paidAt: o.paidAt?.toISOString() ?? null,
    hasPermission: hasPermission(user.permissions, Perm.operateOrder) && !user.thirdMonitor,
  };
}

/** One order the caller sees, as the order endpoints answer it. */
export async function orderView(ctx: CallContext, id: string): Promise<SalesOrder> {
  const [row] = await selectOrders(ctx.db).where(and(eq(salesOrders.id, id), salesOrderWhere(ctx.user)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, OrderScopeText.orderNotFound);
  return presentOrder(row, ctx.user);
}

/** A page of the caller's orders, newest first, with the orders per state over the filter (the tabs). */
export async function listOrders(input: Req<'salesOrderList'>, ctx: CallContext) {
  const { page, size, ...filter } = input;
  const where = orderFilterWhere(ctx.user, filter);
  const [rows, byState] = await Promise.all([
    selectOrders(ctx.db)
      .where(where)
      .orderBy(desc(salesOrders.createdAt), desc(salesOrders.id))
      .limit(size)
      .offset((page - 1) * size),
    ctx.db
      .select({ state: salesOrders.state, n: sql<number>`count(*)::int` })
      .from(salesOrders)
      .where(orderFilterWhere(ctx.user, filter, false))
      .groupBy(salesOrders.state),
  ]);
  const counts: Record<string, number> = Object.fromEntries(SALES_ORDER_STATES.map((s) => [s, 0]));
  for (const r of byState) counts[r.state] = Number(r.n);
  const total = filter.state ? counts[filter.state] : Object.values(counts).reduce((a, b) => a + b, 0);
  return { total, data: rows.map((r) => presentOrder(r, ctx.user)), counts };
}

/** The sub-orders of an order, with their screens and their ads' review state and status. */
export async function subOrdersOf(db: Executor, order: { id: string; no: string }, now: Date): Promise<SubOrder[]> {
  const lines = await db
    .select({ line: salesOrderLines, ad: ads })
    .from(salesOrderLines)
    .leftJoin(ads, eq(ads.id, salesOrderLines.adId))
    .where(eq(salesOrderLines.orderId, order.id))
    .orderBy(asc(salesOrderLines.position));
  const devices =
    lines.length > 0
      ? await db
          .select({ lineId: salesOrderLineDevices.lineId, deviceId: salesOrderLineDevices.deviceId })
          .from(salesOrderLineDevices)
          .where(
            inArray(
              salesOrderLineDevices.lineId,
              lines.map((l) => l.line.id),
            ),
          )
      : [];
  const byLine = new Map<string, string[]>();
  for (const d of devices) {
    const list = byLine.get(d.lineId) ?? [];
    list.push(d.deviceId);
    byLine.set(d.lineId, list);
  }
  return lines.map(({ line, ad }) => ({
    id: line.id,
    subNo: `${order.no}-${line.position}`,
    slotId: line.slotId,
    slotName: line.slotName,
    salesMethod: line.salesMethod,
    durationSec: line.durationSec,
    unitPrice: line.unitPrice,
    rotations: line.rotations,
    impressionsK: line.impressionsK,
    screens: line.screens,
    deviceIds: (byLine.get(line.id) ?? []).sort(),
    amount: line.listAmount,
    adId: ad?.id ?? null,
    adName: ad?.name ?? null,
    adReviewState: ad?.reviewState ?? null,
    adStatus: ad ? statusOf(ad, now) : null,
  }));
}

/** Where a state stands in an order's life (the transition table only moves forward). */
const STATE_RANK = sql`case ${salesOrderEvents.toState} when 'unpaid' then 0 when 'toUpload' then 1 when 'paid' then 2 when 'inProgress' then 3 else 4 end`;

/** What a movement of an order's hold did: froze it, paid the operator, or gave it back. */
const movementCode = (phase: string) =>
  phase === 'pending' ? 'hold' : phase === 'post' ? 'payment' : phase === 'single' ? 'payment' : 'release';

/** One order with its sub-orders, its history (who and when) and its ledger movements. */
export async function orderInfo(input: { id: string }, ctx: CallContext) {
  const order = await orderView(ctx, input.id);
  const actor = aliasedTable(accounts, 'actor');
  const [subOrders, events, transfers] = await Promise.all([
    subOrdersOf(ctx.db, order, ctx.now),
    ctx.db
      .select({ event: salesOrderEvents, real: actor.realName, login: actor.loginName })
      .from(salesOrderEvents)
      .leftJoin(actor, eq(actor.id, salesOrderEvents.actorId))
      .where(eq(salesOrderEvents.orderId, order.id))
      // Newest first; moves at the same instant by the state machine's order (every move goes forward).
      .orderBy(desc(salesOrderEvents.at), desc(STATE_RANK)),
    transfersOf(ctx.db, { type: 'salesOrder', id: order.id }),
  ]);
  return {
    order,
    subOrders,
    events: events.map((e) => ({
      from: e.event.fromState,
      to: e.event.toState,
      actorName: e.event.actorId ? nameOf(e.real, e.login) : '',
      at: e.event.at.toISOString(),
      note: e.event.note,
    })),
    transfers: transfers
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((t) => ({ id: t.id, code: movementCode(t.phase), amount: t.amount, at: t.createdAt.toISOString() })),
  };
}

/** The advertisers the caller may order for: itself when it is one; staff: those it sees on /user/adv. */
export async function advertiserOptions(input: { keyword?: string }, ctx: CallContext) {
  const user = ctx.user;
  const conds: (SQL | undefined)[] = [eq(advertisers.entId, user.entId)];
  const [self] = await ctx.db
    .select({ id: advertisers.accountId })
    .from(advertisers)
    .where(and(eq(advertisers.entId, user.entId), eq(advertisers.accountId, user.accountId)));
  conds.push(self ? eq(advertisers.accountId, user.accountId) : advertiserScopeWhere(user));
  if (input.keyword) {
    const like = `%${escapeLike(input.keyword)}%`;
    conds.push(or(ilike(accounts.realName, like), ilike(accounts.loginName, like)));
  }
  const rows = await ctx.db
    .select({ id: accounts.id, realName: accounts.realName, loginName: accounts.loginName })
    .from(advertisers)
    .innerJoin(accounts, and(eq(accounts.id, advertisers.accountId), eq(accounts.entId, advertisers.entId)))
    .where(and(...conds))
    .orderBy(asc(accounts.loginName), asc(accounts.id))
    .limit(200);
  return { data: rows.map((r) => ({ id: r.id, name: nameOf(r.realName, r.loginName), loginName: r.loginName })) };
}
