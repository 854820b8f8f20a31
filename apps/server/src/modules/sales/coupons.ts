import { ErrorCode } from '@marquee/protocol';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type SalesCouponRow, salesCoupons, salesCouponUses } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { InventoryText } from './texts.js';

/**
 * Coupons (issue 28, /operate/coupon): a discount for a number of uses within a validity,
 * optionally only for some goods. A use is claimed by one conditional UPDATE (`used = used +
 * 1 where used < use_limit ...`), so the limit holds under any concurrency; it is given back
 * when its order is cancelled (releaseCoupon).
 */

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** The coupon applies to these goods (its goods list empty: to all goods and to slots ordered directly). */
export function couponAppliesTo(c: Pick<SalesCouponRow, 'goodsIds'>, goodsId: string | null): boolean {
  if (c.goodsIds.length === 0) return true;
  return goodsId !== null && c.goodsIds.includes(goodsId);
}

/** The SQL condition of a coupon usable today for `goodsId` (enabled, valid, not exhausted, eligible). */
function usableWhere(goodsId: string | null, now: Date) {
  const today = dayOf(now);
  const eligible =
    goodsId === null
      ? sql`jsonb_array_length(${salesCoupons.goodsIds}) = 0`
      : sql`(jsonb_array_length(${salesCoupons.goodsIds}) = 0 or ${salesCoupons.goodsIds} @> ${JSON.stringify([goodsId])}::jsonb)`;
  return and(
    eq(salesCoupons.enabled, true),
    sql`${salesCoupons.used} < ${salesCoupons.useLimit}`,
    sql`${salesCoupons.validFrom} <= ${today}::date`,
    sql`${salesCoupons.validTo} >= ${today}::date`,
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
