import {
  daysInclusive,
  ErrorCode,
  type Goods,
  hoursMask,
  ORDER_DAYS_MAX,
  Perm,
  type salesEndpoints,
} from '@marquee/protocol';
import { and, count, desc, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AdSlotRow,
  adSlots,
  type SalesGoodsLineRow,
  type SalesGoodsRow,
  salesGoods,
  salesGoodsLines,
  salesOrders,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { callerZone, dayIn, enterpriseTodaySql } from '../timeZones/service.js';
import { ALL_HOURS_MASK } from './availability.js';
import { deviceStates, refreshSoldOut, slotScreens } from './inventory.js';
import { nextNumber9 } from './numbers.js';
import { presentGoods, slotUnitPrice } from './presenter.js';
import { auditSales, contains } from './slots.js';
import { InventoryText } from './texts.js';

/**
 * Goods and programmes (issue 28, /operate/goods): one slot (single) or several (programme)
 * packaged for a period and hours, optionally narrowed to some of each slot's screens. New
 * goods are off shelf; goods on sale cannot be edited or deleted (COMMODITY_ON_SALE).
 * Advertisers (no yxf_new_operate_sales_manage) see the goods on sale only.
 */

type Req<K extends keyof typeof salesEndpoints> = z.infer<(typeof salesEndpoints)[K]['request']>;

/** Today in the goods' enterprise's zone (their dates are its days), as SQL. */
const today = (ctx: CallContext) => enterpriseTodaySql(salesGoods.entId, ctx.now);
const manages = (ctx: CallContext) => ctx.user.permissions.has(Perm.salesManage);

/** What a caller without sales management sees: goods on sale, not expired. */
function buyerWhere(ctx: CallContext): SQL {
  return and(eq(salesGoods.state, 'onSale'), sql`${salesGoods.endDate} >= ${today(ctx)}`) as SQL;
}

function stateWhere(state: Goods['state'], day: SQL): SQL {
  switch (state) {
    case 'offShelf':
      return eq(salesGoods.state, 'offShelf');
    case 'expired':
      return and(eq(salesGoods.state, 'onSale'), sql`${salesGoods.endDate} < ${day}`) as SQL;
    case 'soldOut':
      return and(
        eq(salesGoods.state, 'onSale'),
        sql`${salesGoods.endDate} >= ${day}`,
        eq(salesGoods.soldOut, true),
      ) as SQL;
    default:
      return and(
        eq(salesGoods.state, 'onSale'),
        sql`${salesGoods.endDate} >= ${day}`,
        eq(salesGoods.soldOut, false),
      ) as SQL;
  }
}

/** The enterprise's goods item visible to the caller, optionally locked; NOT_FOUND otherwise. */
async function requireGoods(ctx: CallContext, id: string, opts?: { lock?: boolean }): Promise<SalesGoodsRow> {
  const conds = [eq(salesGoods.id, id), eq(salesGoods.entId, ctx.user.entId), isNull(salesGoods.deletedAt)];
  if (!manages(ctx)) conds.push(buyerWhere(ctx));
  const q = ctx.db
    .select()
    .from(salesGoods)
    .where(and(...conds));
  const [row] = opts?.lock ? await q.for('update') : await q;
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.goodsNotFound);
  return row;
}

/** The goods as shown, with their lines' slots and screens and their orders not cancelled. */
async function goodsViews(ctx: CallContext, rows: SalesGoodsRow[]): Promise<Goods[]> {
  if (rows.length === 0) return [];
  const zone = await callerZone(ctx);
  const ids = rows.map((r) => r.id);
  const lines = await ctx.db
    .select({ line: salesGoodsLines, slot: adSlots })
    .from(salesGoodsLines)
    .innerJoin(adSlots, eq(adSlots.id, salesGoodsLines.slotId))
    .where(inArray(salesGoodsLines.goodsId, ids));
  const orderCounts = await ctx.db
    .select({ goodsId: salesOrders.goodsId, n: count() })
    .from(salesOrders)
    .where(and(inArray(salesOrders.goodsId, ids), ne(salesOrders.state, 'cancelled')))
    .groupBy(salesOrders.goodsId);
  const screensOf = new Map<string, number>();
  const screenCount = async (line: SalesGoodsLineRow, slot: AdSlotRow) => {
    if (line.deviceIds.length > 0) return line.deviceIds.length;
    let n = screensOf.get(slot.id);
    if (n === undefined) {
      n = (await slotScreens(ctx.db, slot, ctx.now)).length;
      screensOf.set(slot.id, n);
    }
    return n;
  };
  const orders = new Map(orderCounts.map((o) => [o.goodsId, Number(o.n)]));
  const out: Goods[] = [];
  for (const row of rows) {
    const mine = [];
    for (const l of lines.filter((x) => x.line.goodsId === row.id)) {
      mine.push({ line: l.line, slot: l.slot, screens: await screenCount(l.line, l.slot) });
    }
    out.push(presentGoods(row, mine, orders.get(row.id) ?? 0, ctx.now, zone));
  }
  return out;
}

export async function goodsList(input: Req<'salesGoodsList'>, ctx: CallContext) {
  const conds: (SQL | undefined)[] = [eq(salesGoods.entId, ctx.user.entId), isNull(salesGoods.deletedAt)];
  if (!manages(ctx)) conds.push(buyerWhere(ctx));
  if (input.keyword) {
    conds.push(or(ilike(salesGoods.name, contains(input.keyword)), ilike(salesGoods.number, contains(input.keyword))));
  }
  if (input.state) conds.push(stateWhere(input.state, today(ctx)));
  if (input.kind) conds.push(eq(salesGoods.kind, input.kind));
  if (input.slotId) {
    conds.push(
      inArray(
        salesGoods.id,
        ctx.db
          .select({ id: salesGoodsLines.goodsId })
          .from(salesGoodsLines)
          .where(eq(salesGoodsLines.slotId, input.slotId)),
      ),
    );
  }
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(salesGoods)
      .where(where)
      .orderBy(desc(salesGoods.createdAt), desc(salesGoods.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(salesGoods).where(where),
  ]);
  return { total: Number(total), data: await goodsViews(ctx, rows) };
}

export async function goodsInfo(input: Req<'salesGoodsInfo'>, ctx: CallContext) {
  const [view] = await goodsViews(ctx, [await requireGoods(ctx, input.id)]);
  return view;
}

/** Checks the lines (slots of the enterprise; screens among each slot's) and prices them. */
async function prepareLines(ctx: CallContext, input: Req<'salesGoodsSave'>) {
  const slotIds = input.lines.map((l) => l.slotId);
  const slots = await ctx.db
    .select()
    .from(adSlots)
    .where(and(inArray(adSlots.id, slotIds), eq(adSlots.entId, ctx.user.entId), isNull(adSlots.deletedAt)));
  const byId = new Map(slots.map((s) => [s.id, s]));
  const out = [];
  for (const [position, line] of input.lines.entries()) {
    const slot = byId.get(line.slotId);
    if (!slot) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.slotNotFound);
    const deviceIds = [...new Set(line.deviceIds)];
    if (deviceIds.length > 0) {
      const screens = new Set((await slotScreens(ctx.db, slot, ctx.now)).map((s) => s.id));
      if (deviceIds.some((id) => !screens.has(id))) {
        throw new AppError(ErrorCode.AD_TARGET_INVALID, InventoryText.goodsDevicesInvalid);
      }
    }
    const unitPrice = line.unitPrice ?? slotUnitPrice(slot);
    if (unitPrice == null) throw new AppError(ErrorCode.INVALID_PARAMS);
    out.push({ slotId: slot.id, position: position + 1, deviceIds, unitPrice });
  }
  return out;
}

export async function goodsSave(input: Req<'salesGoodsSave'>, ctx: CallContext) {
  if (daysInclusive(input.startDate, input.endDate) > ORDER_DAYS_MAX) {
    throw new AppError(ErrorCode.INVALID_PARAMS, InventoryText.goodsPeriodTooLong);
  }
  const fields = {
    name: input.name,
    description: input.description,
    kind: input.kind,
    startDate: input.startDate,
    endDate: input.endDate,
    hoursMask: input.hours.length === 0 ? ALL_HOURS_MASK : hoursMask(input.hours),
    soldOut: false,
    updatedAt: ctx.now,
  };
  let row: SalesGoodsRow;
  if (!input.id) {
    const lines = await prepareLines(ctx, input);
    [row] = await ctx.db
      .insert(salesGoods)
      .values({
        ...fields,
        entId: ctx.user.entId,
        number: await nextNumber9(ctx.db, 'sales_goods'),
        state: 'offShelf',
        createdBy: ctx.user.accountId,
        createdAt: ctx.now,
      })
      .returning();
    await ctx.db.insert(salesGoodsLines).values(lines.map((l) => ({ ...l, goodsId: row.id })));
    await auditSales(ctx, 'add', 'salesGoods', row, { number: row.number, kind: row.kind });
  } else {
    const old = await requireGoods(ctx, input.id, { lock: true });
    if (old.state === 'onSale') throw new AppError(ErrorCode.COMMODITY_ON_SALE, InventoryText.goodsOnSale);
    const lines = await prepareLines(ctx, input);
    [row] = await ctx.db.update(salesGoods).set(fields).where(eq(salesGoods.id, old.id)).returning();
    await ctx.db.delete(salesGoodsLines).where(eq(salesGoodsLines.goodsId, old.id));
    await ctx.db.insert(salesGoodsLines).values(lines.map((l) => ({ ...l, goodsId: row.id })));
    await auditSales(ctx, 'update', 'salesGoods', row, { number: row.number, kind: row.kind });
  }
  const [view] = await goodsViews(ctx, [row]);
  return view;
}

export async function goodsShelf(input: Req<'salesGoodsShelf'>, ctx: CallContext) {
  const old = await requireGoods(ctx, input.id, { lock: true });
  if (input.onSale) {
    if (old.endDate < dayIn(ctx.now, await callerZone(ctx)))
      throw new AppError(ErrorCode.GOODS_NOT_ON_SALE, InventoryText.goodsExpired);
    const lines = await ctx.db.select().from(salesGoodsLines).where(eq(salesGoodsLines.goodsId, old.id));
    const slots = await ctx.db
      .select()
      .from(adSlots)
      .where(
        and(
          inArray(
            adSlots.id,
            lines.map((l) => l.slotId),
          ),
          isNull(adSlots.deletedAt),
        ),
      );
    const byId = new Map(slots.map((s) => [s.id, s]));
    for (const line of lines) {
      const slot = byId.get(line.slotId);
      if (!slot) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.slotNotFound);
      if (line.deviceIds.length === 0) continue;
      const screens = new Set((await slotScreens(ctx.db, slot, ctx.now)).map((s) => s.id));
      if (line.deviceIds.some((id) => !screens.has(id))) {
        throw new AppError(ErrorCode.AD_TARGET_INVALID, InventoryText.goodsDevicesInvalid);
      }
      const off = (await deviceStates(ctx.db, slot.entId, line.deviceIds, ctx.now)).find(
        (d) => d.longOfflineHours !== null,
      );
      if (off) {
        throw new AppError(
          ErrorCode.DEVICE_LONG_OFFLINE,
          InventoryText.deviceLongOffline(off.name, off.longOfflineHours ?? 0),
        );
      }
    }
  }
  const state = input.onSale ? ('onSale' as const) : ('offShelf' as const);
  const [row] = await ctx.db
    .update(salesGoods)
    .set({ state, updatedAt: ctx.now })
    .where(eq(salesGoods.id, old.id))
    .returning();
  if (state === 'onSale') {
    const lines = await ctx.db
      .select({ slotId: salesGoodsLines.slotId })
      .from(salesGoodsLines)
      .where(eq(salesGoodsLines.goodsId, row.id));
    await refreshSoldOut(
      ctx.db,
      lines.map((l) => l.slotId),
      ctx.now,
    );
  }
  await auditSales(ctx, input.onSale ? 'productOnSale' : 'productOffShelf', 'salesGoods', row, { number: row.number });
  const [fresh] = await ctx.db.select().from(salesGoods).where(eq(salesGoods.id, row.id));
  const [view] = await goodsViews(ctx, [fresh]);
  return view;
}

export async function goodsDelete(input: Req<'salesGoodsDelete'>, ctx: CallContext) {
  const old = await requireGoods(ctx, input.id, { lock: true });
  if (old.state === 'onSale') throw new AppError(ErrorCode.COMMODITY_ON_SALE, InventoryText.goodsOnSale);
  const [{ n }] = await ctx.db.select({ n: count() }).from(salesOrders).where(eq(salesOrders.goodsId, old.id));
  if (Number(n) > 0) throw new AppError(ErrorCode.CONFLICT, InventoryText.goodsHasOrders);
  await ctx.db.update(salesGoods).set({ deletedAt: ctx.now, updatedAt: ctx.now }).where(eq(salesGoods.id, old.id));
  await auditSales(ctx, 'delete', 'salesGoods', old, { number: old.number });
  return null;
}
