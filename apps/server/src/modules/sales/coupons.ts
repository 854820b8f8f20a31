import { type Coupon, type CouponState, discountToPct, ErrorCode, type salesEndpoints } from '@marquee/protocol';
import { and, count, desc, eq, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  type SalesCouponRow,
  salesCoupons,
  salesCouponUses,
  salesGoods,
  salesOrders,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { callerZone, enterpriseTodaySql } from '../timeZones/service.js';
import { presentCoupon } from './presenter.js';
import { auditSales, contains } from './slots.js';
import { InventoryText } from './texts.js';

/**
 * Coupons (issue 28, /operate/coupon): a discount for a number of uses within a validity,
 * optionally only for some goods. A use is claimed by one conditional UPDATE (`used = used +
 * 1 where used < use_limit ...`), so the limit holds under any concurrency; it is given back
 * when its order is cancelled (releaseCoupon).
 */

/** Today in the coupon's enterprise's zone (its validity dates are that enterprise's days), as SQL. */
const todaySql = (now: Date) => enterpriseTodaySql(salesCoupons.entId, now);

/** The coupon applies to these goods (its goods list empty: to all goods and to slots ordered directly). */
export function couponAppliesTo(c: Pick<SalesCouponRow, 'goodsIds'>, goodsId: string | null): boolean {
  if (c.goodsIds.length === 0) return true;
  return goodsId !== null && c.goodsIds.includes(goodsId);
}

/** The SQL condition of a coupon usable today for `goodsId` (enabled, valid, not exhausted, eligible). */
function usableWhere(goodsId: string | null, now: Date) {
  const today = todaySql(now);
  const eligible =
    goodsId === null
      ? sql`jsonb_array_length(${salesCoupons.goodsIds}) = 0`
      : sql`(jsonb_array_length(${salesCoupons.goodsIds}) = 0 or ${salesCoupons.goodsIds} @> ${JSON.stringify([goodsId])}::jsonb)`;
  return and(
    eq(salesCoupons.enabled, true),
    sql`${salesCoupons.used} < ${salesCoupons.useLimit}`,
    sql`${salesCoupons.validFrom} <= ${today}`,
    sql`${salesCoupons.validTo} >= ${today}`,
    eligible,
  );
}

/**
 * Claims one use of the coupon for an order: the conditional UPDATE takes it only while uses
 * remain and the coupon is enabled, valid today and eligible for the goods; else
 * COUPON_UNAVAILABLE and nothing is written. Records the use (sales_coupon_uses).
 */
export async function claimCoupon(
  db: Executor,
  c: {
    entId: string;
    couponId: string;
    goodsId: string | null;
    orderId: string;
    advertiserId: string;
    saved: number;
    now: Date;
  },
): Promise<SalesCouponRow> {
  const [row] = await db
    .update(salesCoupons)
    .set({ used: sql`${salesCoupons.used} + 1`, updatedAt: c.now })
    .where(and(eq(salesCoupons.id, c.couponId), eq(salesCoupons.entId, c.entId), usableWhere(c.goodsId, c.now)))
    .returning();
  if (!row) throw new AppError(ErrorCode.COUPON_UNAVAILABLE, InventoryText.couponUnavailable);
  await db.insert(salesCouponUses).values({
    couponId: row.id,
    orderId: c.orderId,
    advertiserId: c.advertiserId,
    saved: c.saved,
    usedAt: c.now,
  });
  return row;
}

/** The coupon if it could be used now for the goods (for the quote; claims nothing); COUPON_UNAVAILABLE otherwise. */
export async function usableCoupon(
  db: Executor,
  entId: string,
  couponId: string,
  goodsId: string | null,
  now: Date,
): Promise<SalesCouponRow> {
  const [row] = await db
    .select()
    .from(salesCoupons)
    .where(and(eq(salesCoupons.id, couponId), eq(salesCoupons.entId, entId), usableWhere(goodsId, now)));
  if (!row) throw new AppError(ErrorCode.COUPON_UNAVAILABLE, InventoryText.couponUnavailable);
  return row;
}

/** Gives back the order's coupon use, if any and not given back yet (used - 1, the use's released_at). */
export async function releaseCoupon(db: Executor, orderId: string, now: Date): Promise<void> {
  const [use] = await db
    .update(salesCouponUses)
    .set({ releasedAt: now })
    .where(and(eq(salesCouponUses.orderId, orderId), isNull(salesCouponUses.releasedAt)))
    .returning({ couponId: salesCouponUses.couponId });
  if (!use) return;
  await db
    .update(salesCoupons)
    .set({ used: sql`greatest(${salesCoupons.used} - 1, 0)`, updatedAt: now })
    .where(eq(salesCoupons.id, use.couponId));
}

type Req<K extends keyof typeof salesEndpoints> = z.infer<(typeof salesEndpoints)[K]['request']>;

function couponStateWhere(state: CouponState, day: SQL): SQL {
  const started = sql`${salesCoupons.validFrom} <= ${day}`;
  const notOver = sql`${salesCoupons.validTo} >= ${day}`;
  const on = eq(salesCoupons.enabled, true);
  switch (state) {
    case 'disabled':
      return eq(salesCoupons.enabled, false);
    case 'notStarted':
      return and(on, sql`${salesCoupons.validFrom} > ${day}`) as SQL;
    case 'expired':
      return and(on, started, sql`${salesCoupons.validTo} < ${day}`) as SQL;
    case 'exhausted':
      return and(on, started, notOver, sql`${salesCoupons.used} >= ${salesCoupons.useLimit}`) as SQL;
    default:
      return and(on, started, notOver, sql`${salesCoupons.used} < ${salesCoupons.useLimit}`) as SQL;
  }
}

async function couponViews(ctx: CallContext, rows: SalesCouponRow[]): Promise<Coupon[]> {
  const goodsIds = [...new Set(rows.flatMap((r) => r.goodsIds))];
  const names =
    goodsIds.length === 0
      ? []
      : await ctx.db
          .select({ id: salesGoods.id, name: salesGoods.name })
          .from(salesGoods)
          .where(inArray(salesGoods.id, goodsIds));
  const byId = new Map(names.map((n) => [n.id, n.name]));
  const zone = await callerZone(ctx);
  return rows.map((r) => presentCoupon(r, byId, ctx.now, zone));
}

async function requireCoupon(ctx: CallContext, id: string, opts?: { lock?: boolean }) {
  const q = ctx.db
    .select()
    .from(salesCoupons)
    .where(and(eq(salesCoupons.id, id), eq(salesCoupons.entId, ctx.user.entId)));
  const [row] = opts?.lock ? await q.for('update') : await q;
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.couponNotFound);
  return row;
}

export async function couponList(input: Req<'salesCouponList'>, ctx: CallContext) {
  const conds: (SQL | undefined)[] = [eq(salesCoupons.entId, ctx.user.entId)];
  if (input.keyword) conds.push(ilike(salesCoupons.name, contains(input.keyword)));
  if (input.state) conds.push(couponStateWhere(input.state, todaySql(ctx.now)));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(salesCoupons)
      .where(where)
      .orderBy(desc(salesCoupons.createdAt), desc(salesCoupons.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(salesCoupons).where(where),
  ]);
  return { total: Number(total), data: await couponViews(ctx, rows) };
}

export async function couponSave(input: Req<'salesCouponSave'>, ctx: CallContext) {
  const discountPct = discountToPct(input.discount);
  if (discountPct === null) throw new AppError(ErrorCode.INVALID_PARAMS);
  const goodsIds = [...new Set(input.goodsIds)];
  if (goodsIds.length > 0) {
    const found = await ctx.db
      .select({ id: salesGoods.id })
      .from(salesGoods)
      .where(and(inArray(salesGoods.id, goodsIds), eq(salesGoods.entId, ctx.user.entId), isNull(salesGoods.deletedAt)));
    if (found.length !== goodsIds.length) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.couponGoodsInvalid);
  }
  const fields = {
    name: input.name,
    discountPct,
    useLimit: input.limit,
    validFrom: input.validFrom,
    validTo: input.validTo,
    goodsIds,
    updatedAt: ctx.now,
  };
  let row: SalesCouponRow;
  if (!input.id) {
    [row] = await ctx.db
      .insert(salesCoupons)
      .values({ ...fields, entId: ctx.user.entId, createdBy: ctx.user.accountId, createdAt: ctx.now })
      .returning();
  } else {
    const old = await requireCoupon(ctx, input.id, { lock: true });
    if (old.used > 0 && old.discountPct !== discountPct) {
      throw new AppError(ErrorCode.CONFLICT, InventoryText.couponDiscountLocked);
    }
    if (input.limit < old.used) throw new AppError(ErrorCode.CONFLICT, InventoryText.couponLimitBelowUsed);
    [row] = await ctx.db.update(salesCoupons).set(fields).where(eq(salesCoupons.id, old.id)).returning();
  }
  await auditSales(ctx, input.id ? 'update' : 'add', 'coupon', row, {
    discountPct,
    limit: row.useLimit,
    validFrom: row.validFrom,
    validTo: row.validTo,
  });
  const [view] = await couponViews(ctx, [row]);
  return view;
}

export async function couponEnable(input: Req<'salesCouponEnable'>, ctx: CallContext) {
  const old = await requireCoupon(ctx, input.id, { lock: true });
  const [row] = await ctx.db
    .update(salesCoupons)
    .set({ enabled: input.enabled, updatedAt: ctx.now })
    .where(eq(salesCoupons.id, old.id))
    .returning();
  await auditSales(ctx, input.enabled ? 'enable' : 'disable', 'coupon', row);
  const [view] = await couponViews(ctx, [row]);
  return view;
}

export async function couponUses(input: Req<'salesCouponUses'>, ctx: CallContext) {
  const coupon = await requireCoupon(ctx, input.couponId);
  const where = eq(salesCouponUses.couponId, coupon.id);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        use: salesCouponUses,
        orderNo: salesOrders.no,
        realName: accounts.realName,
        loginName: accounts.loginName,
      })
      .from(salesCouponUses)
      .innerJoin(salesOrders, eq(salesOrders.id, salesCouponUses.orderId))
      .innerJoin(accounts, eq(accounts.id, salesCouponUses.advertiserId))
      .where(where)
      .orderBy(desc(salesCouponUses.usedAt), desc(salesCouponUses.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(salesCouponUses).where(where),
  ]);
  return {
    total: Number(total),
    data: rows.map((r) => ({
      id: r.use.id,
      couponId: r.use.couponId,
      orderId: r.use.orderId,
      orderNo: r.orderNo,
      advertiserName: r.realName || r.loginName,
      saved: r.use.saved,
      usedAt: r.use.usedAt.toISOString(),
      releasedAt: r.use.releasedAt?.toISOString() ?? null,
    })),
  };
}

export async function couponOptions(input: Req<'salesCouponOptions'>, ctx: CallContext) {
  const rows = await ctx.db
    .select()
    .from(salesCoupons)
    .where(and(eq(salesCoupons.entId, ctx.user.entId), usableWhere(input.goodsId ?? null, ctx.now)))
    .orderBy(desc(salesCoupons.discountPct), desc(salesCoupons.createdAt))
    .limit(200);
  return { data: await couponViews(ctx, rows) };
}
