import { ErrorCode, endpoints, type MakeGoodRemedy, nextDay, type Settlement, zonedDayStart } from '@marquee/protocol';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  devices,
  type SalesOrderRow,
  type SalesSettlementRow,
  salesOrders,
  salesSettlementLines,
  salesSettlements,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, defineHandler, type Handler } from '../../protocol/handlers.js';
import { postPending, transfersOf, voidPending } from '../ledger/ledger.js';
import { dayIn, enterpriseZone } from '../timeZones/service.js';
import { scheduleMakeGoods } from './makeGood.js';
import { moveOrder, requireOrder } from './orderScope.js';
import { computeSettlement, methodOf, orderLinesOf, SettlementText } from './settlement.js';
import { settlementExportDownload, settlementExportStatus, startSettlementExport } from './settlementExport.js';

/**
 * The settlement endpoints of the sales module (issue 28): an order's settlement with its
 * screen-day lines, (re)computing it, choosing make-goods, confirming it (the ledger's post and
 * release, the make-good bookings), and its Excel export for finance.
 */

const nameOf = (real: string | null | undefined, login: string | null | undefined) => real || login || '';

async function settlementOf(db: Executor, orderId: string, lock = false): Promise<SalesSettlementRow | null> {
  const q = db.select().from(salesSettlements).where(eq(salesSettlements.orderId, orderId));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

/** The settlement as the protocol shows it. */
export async function presentSettlement(
  db: Executor,
  order: SalesOrderRow,
  s: SalesSettlementRow,
): Promise<Settlement> {
  const [adv] = await db
    .select({ real: accounts.realName, login: accounts.loginName })
    .from(accounts)
    .where(eq(accounts.id, order.advertiserId));
  const [confirmer] = s.confirmedBy
    ? await db
        .select({ real: accounts.realName, login: accounts.loginName })
        .from(accounts)
        .where(eq(accounts.id, s.confirmedBy))
    : [];
  const [agg] = await db
    .select({
      audience: sql<number>`count(*) filter (where ${salesSettlementLines.fromAudience})::int`,
      multiplier: sql<number>`count(*) filter (where not ${salesSettlementLines.fromAudience})::int`,
      under: sql<number>`count(*) filter (where ${salesSettlementLines.underDelivered})::int`,
    })
    .from(salesSettlementLines)
    .where(eq(salesSettlementLines.settlementId, s.id));
  const lines = await orderLinesOf(db, order.id);
  const transfers = (await transfersOf(db, { type: 'salesOrder', id: order.id })).filter(
    (t) => t.id === `sales:${order.id}:post` || t.id === `sales:${order.id}:void` || t.id === `sales:${order.id}:hold`,
  );
  return {
    id: s.id,
    orderId: order.id,
    orderNo: order.no,
    advertiserName: nameOf(adv?.real, adv?.login),
    state: s.state,
    salesMethod: methodOf(lines),
    impressionsBasis: {
      multiplierPct: s.impressionsPerPlayPct,
      audienceScreenDays: Number(agg?.audience ?? 0),
      multiplierScreenDays: Number(agg?.multiplier ?? 0),
    },
    expectedPlays: s.expectedPlays,
    deliveredPlays: s.deliveredPlays,
    impressions: s.impressions,
    frozenAmount: order.amount,
    billedAmount: s.billedAmount,
    creditAmount: s.creditAmount,
    underDeliveredScreenDays: Number(agg?.under ?? 0),
    makeGoodUntil: s.makeGoodUntil,
    computedAt: s.computedAt.toISOString(),
    confirmedBy: s.confirmedBy ? nameOf(confirmer?.real, confirmer?.login) : null,
    confirmedAt: s.confirmedAt?.toISOString() ?? null,
    completedAt: s.completedAt?.toISOString() ?? null,
    transfers: transfers.map((t) => ({ id: t.id, code: t.code, amount: t.amount, at: t.createdAt.toISOString() })),
  };
}

export async function settlementInfo(
  input: { orderId: string; underOnly: boolean; page: number; size: number },
  ctx: CallContext,
) {
  const order = await requireOrder(ctx, input.orderId);
  const s = await settlementOf(ctx.db, order.id);
  if (!s) return { settlement: null, lines: { total: 0, data: [] } };
  const where = and(
    eq(salesSettlementLines.settlementId, s.id),
    input.underOnly ? eq(salesSettlementLines.underDelivered, true) : undefined,
  );
  const [count] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(salesSettlementLines).where(where);
  const rows = await ctx.db
    .select({ l: salesSettlementLines, deviceName: devices.name })
    .from(salesSettlementLines)
    .leftJoin(devices, eq(devices.id, salesSettlementLines.deviceId))
    .where(where)
    .orderBy(
      desc(salesSettlementLines.underDelivered),
      salesSettlementLines.day,
      salesSettlementLines.lineId,
      salesSettlementLines.deviceId,
    )
    .limit(input.size)
    .offset((input.page - 1) * input.size);
  return {
    settlement: await presentSettlement(ctx.db, order, s),
    lines: {
      total: Number(count?.n ?? 0),
      data: rows.map(({ l, deviceName }) => ({
        subOrderId: l.lineId,
        deviceId: l.deviceId,
        deviceName: deviceName ?? l.deviceId,
        day: l.day,
        expectedPlays: l.expectedPlays,
        deliveredPlays: l.deliveredPlays,
        impressions: l.impressions,
        impressionsSource: l.fromAudience ? ('audience' as const) : ('multiplier' as const),
        underDelivered: l.underDelivered,
        remedy: l.remedy,
        amount: l.amount,
        credit: l.credit,
      })),
    },
  };
}

export async function settlementCompute(input: { orderId: string }, ctx: CallContext): Promise<Settlement> {
  const order = await requireOrder(ctx, input.orderId, { lock: true });
  if (order.state !== 'inProgress') throw new AppError(ErrorCode.SALES_ORDER_STATE, SettlementText.orderNotInProgress);
  const s = await computeSettlement(ctx.db, order.id, ctx.now);
  await ctx.audit({
    module: 'sales',
    action: 'settlementCompute',
    targetType: 'salesOrder',
    targetId: order.id,
    targetName: order.no,
    detail: {
      billed: s.billedAmount,
      credited: s.creditAmount,
      delivered: s.deliveredPlays,
      expected: s.expectedPlays,
    },
  });
  return presentSettlement(ctx.db, order, s);
}

/** Re-derives credits (CPT lines with remedy credit) and the settlement's totals from its lines. */
async function refreshTotals(db: Executor, order: SalesOrderRow, settlementId: string): Promise<SalesSettlementRow> {
  await db.execute(sql`
    update sales_settlement_lines l
    set credit = case when l.under_delivered and l.remedy = 'credit' and ol.sales_method = 'cpt' and l.expected_plays > 0
      then (l.amount * greatest(0, l.expected_plays - l.delivered_plays)) / l.expected_plays else 0 end
    from sales_order_lines ol
    where l.settlement_id = ${settlementId} and ol.id = l.line_id`);
  const [sum] = rowsOf<{ amount: unknown; credit: unknown }>(
    await db.execute(sql`
      select coalesce(sum(amount), 0)::bigint as amount, coalesce(sum(credit), 0)::bigint as credit
      from sales_settlement_lines where settlement_id = ${settlementId}`),
  );
  const amount = Number(sum?.amount ?? 0);
  const credit = Number(sum?.credit ?? 0);
  const billed = Math.max(0, Math.min(amount - credit, order.amount - order.paidAmount));
  const [row] = await db
    .update(salesSettlements)
    .set({ creditAmount: credit, billedAmount: billed })
    .where(eq(salesSettlements.id, settlementId))
    .returning();
  return row;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export async function settlementRemedy(
  input: { orderId: string; remedy: MakeGoodRemedy; lines?: { subOrderId: string; deviceId: string; day: string }[] },
  ctx: CallContext,
): Promise<Settlement> {
  const order = await requireOrder(ctx, input.orderId, { lock: true });
  const s = await settlementOf(ctx.db, order.id, true);
  if (!s) throw new AppError(ErrorCode.NOT_FOUND, SettlementText.noSettlement);
  if (s.state !== 'toBePaid') throw new AppError(ErrorCode.SETTLEMENT_STATE, SettlementText.notToBePaid);
  let changed = 0;
  if (input.lines) {
    const keys = JSON.stringify(input.lines.map((l) => ({ l: l.subOrderId, d: l.deviceId, y: l.day })));
    const r = await ctx.db.execute(sql`
      update sales_settlement_lines t set remedy = ${input.remedy}
      from jsonb_to_recordset(${keys}::jsonb) as x(l text, d text, y date)
      where t.settlement_id = ${s.id} and t.under_delivered and t.line_id = x.l and t.device_id = x.d and t.day = x.y
      returning t.line_id`);
    changed = rowsOf(r).length;
  } else {
    const r = await ctx.db
      .update(salesSettlementLines)
      .set({ remedy: input.remedy })
      .where(and(eq(salesSettlementLines.settlementId, s.id), eq(salesSettlementLines.underDelivered, true)))
      .returning({ l: salesSettlementLines.lineId });
    changed = r.length;
  }
  const row = await refreshTotals(ctx.db, order, s.id);
  await ctx.audit({
    module: 'sales',
    action: 'settlementRemedy',
    targetType: 'salesOrder',
    targetId: order.id,
    targetName: order.no,
    detail: { remedy: input.remedy, screenDays: changed, credited: row.creditAmount, billed: row.billedAmount },
  });
  return presentSettlement(ctx.db, order, row);
}

/**
 * Confirms the settlement (the call's transaction; the order's period must be over): toBePaid
 * -> paid; the billed amount posted from the hold (`sales:<order>:post`, the rest released; 0:
 * the hold voided, `sales:<order>:void`), last; make-goods booked and scheduled for the
 * extraPlays screen-days; without any, completed at once and the order settled.
 */
export async function settlementConfirm(input: { orderId: string }, ctx: CallContext): Promise<Settlement> {
  const db = ctx.db;
  const now = ctx.now;
  const order = await requireOrder(ctx, input.orderId, { lock: true });
  let s = await settlementOf(db, order.id, true);
  if (s && s.state !== 'toBePaid') throw new AppError(ErrorCode.SETTLEMENT_STATE, SettlementText.notToBePaid);
  if (order.state !== 'inProgress') throw new AppError(ErrorCode.SALES_ORDER_STATE, SettlementText.orderNotInProgress);
  const zone = await enterpriseZone(db, order.entId);
  if (!(order.endDate < dayIn(now, zone))) {
    throw new AppError(ErrorCode.SALES_ORDER_STATE, SettlementText.periodNotOver);
  }
  // Computed before the last day was over: recomputed over the whole period (remedies kept).
  if (!s || s.computedAt.getTime() < zonedDayStart(nextDay(order.endDate), zone)) {
    s = await computeSettlement(db, order.id, now);
  }
  const open = order.amount - order.paidAmount - order.refundedAmount;
  const post = Math.max(0, Math.min(s.billedAmount, open));
  const released = open - post;
  const makeGood = await scheduleMakeGoods(ctx, order, s.id);
  const completed = makeGood.until === null;
  const [row] = await db
    .update(salesSettlements)
    .set({
      state: completed ? 'completed' : 'paid',
      confirmedBy: ctx.user.accountId,
      confirmedAt: now,
      completedAt: completed ? now : null,
      makeGoodUntil: makeGood.until,
    })
    .where(and(eq(salesSettlements.id, s.id), eq(salesSettlements.state, 'toBePaid')))
    .returning();
  if (!row) throw new AppError(ErrorCode.SETTLEMENT_STATE, SettlementText.notToBePaid);
  const patch = { paidAmount: order.paidAmount + post, refundedAmount: order.refundedAmount + released };
  if (completed) {
    await moveOrder(db, order.id, 'inProgress', 'settled', ctx.user.accountId, now, { ...patch, settledAt: now });
  } else {
    await db
      .update(salesOrders)
      .set({ ...patch, updatedAt: now })
      .where(eq(salesOrders.id, order.id));
  }
  await ctx.audit({
    module: 'sales',
    action: 'settlementConfirm',
    targetType: 'salesOrder',
    targetId: order.id,
    targetName: order.no,
    detail: {
      billed: post,
      released,
      credited: s.creditAmount,
      makeGoodUntil: makeGood.until ?? undefined,
      makeGoods: makeGood.screens.map((m) => ({
        subOrder: m.lineId,
        device: m.deviceId,
        wanted: m.wanted,
        days: m.days,
      })),
      makeGoodAds: makeGood.adIds,
    },
  });
  // The money last: the operator's wallet row stays locked only until the commit.
  if (order.holdTransferId && open > 0) {
    const base = { pendingId: order.holdTransferId, now, actorId: ctx.user.accountId, note: order.no };
    if (post > 0) await postPending(db, { ...base, id: `sales:${order.id}:post`, amount: post });
    else await voidPending(db, { ...base, id: `sales:${order.id}:void` });
  }
  const [fresh] = await db.select().from(salesOrders).where(eq(salesOrders.id, order.id));
  return presentSettlement(db, fresh, row);
}

export const settlementHandlers: Handler[] = [
  defineHandler(endpoints.salesSettlementInfo, { handle: (input, ctx) => settlementInfo(input, ctx) }),
  defineHandler(endpoints.salesSettlementCompute, { handle: (input, ctx) => settlementCompute(input, ctx) }),
  defineHandler(endpoints.salesSettlementRemedy, { handle: (input, ctx) => settlementRemedy(input, ctx) }),
  defineHandler(endpoints.salesSettlementConfirm, { handle: (input, ctx) => settlementConfirm(input, ctx) }),
  defineHandler(endpoints.salesSettlementExportStart, { handle: (input, ctx) => startSettlementExport(input, ctx) }),
  defineHandler(endpoints.salesSettlementExportStatus, { handle: (input, ctx) => settlementExportStatus(input, ctx) }),
  defineHandler(endpoints.salesSettlementExportDownload, {
    handle: (input, ctx) => settlementExportDownload(input, ctx),
  }),
] as Handler[];
