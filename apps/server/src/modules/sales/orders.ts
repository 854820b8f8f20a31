import {
  AMOUNT_MAX_FEN,
  type CancelReason,
  daysInclusive,
  ErrorCode,
  type endpoints,
  goodsState,
  hasPermission,
  hoursMask,
  hoursOfMask,
  type LinePriceInput,
  ORDER_DAYS_MAX,
  orderAmounts,
  Perm,
  type SalesMethod,
  type SalesOrder,
  type SalesOrderState,
  type SalesQuote,
} from '@marquee/protocol';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import type { Executor } from '../../db/client.js';
import {
  type AdSlotRow,
  accounts,
  adSlots,
  advertisers,
  type SalesCouponRow,
  type SalesGoodsRow,
  type SalesOrderRow,
  type SalesPriceContractRow,
  salesGoods,
  salesGoodsLines,
  salesOrderLines,
  salesOrders,
  salesSettlements,
} from '../../db/schema/index.js';
import { AppError, type LocalizedText } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { advertiserScopeWhere } from '../advertisers/scope.js';
import {
  accountBalances,
  advertiserWalletId,
  ensureAdvertiserWallet,
  ensureEnterpriseWallet,
} from '../ledger/accounts.js';
import { postPending, transfer, voidPending } from '../ledger/ledger.js';
import { dayIn, enterpriseZone } from '../timeZones/service.js';
import { claimCoupon, releaseCoupon, usableCoupon } from './coupons.js';
import {
  type BookingSpec,
  bookableRotations,
  bookRotations,
  confirmHolds,
  releaseBookings,
  slotScreens,
} from './inventory.js';
import { nextDocNo } from './numbers.js';
import { retireOrderAds } from './orderAds.js';
import { orderView } from './orderQueries.js';
import { moveOrder, recordEvent, requireOrder } from './orderScope.js';
import { activePriceContract } from './priceContracts.js';
import { salesSettingsOf } from './settings.js';
import { deliveredAmount } from './settlement.js';

/**
 * Orders of airtime (issue 28; docs/ARCHITECTURE.md "Selling airtime"): what an order would
 * cost (quote), placing it (its lines hold their rotations until the hold lapses), paying it
 * (the amount frozen in the advertiser's wallet: a pending transfer to the operator's wallet)
 * and cancelling it (exactly what was not delivered goes back). Every money move runs in the
 * call's transaction with the order's state move and the operation log, the payment last.
 */

type Req<K extends keyof typeof endpoints> = z.infer<(typeof endpoints)[K]['request']>;
type OrderRequest = Req<'salesOrderCreate'>;

export const OrderText = {
  advertiserRequired: {
    'zh-CN': '请选择下单的广告主',
    'en-US': 'Choose the advertiser the order is for',
    ja: '注文する広告主を選択してください',
  },
  advertiserNotFound: {
    'zh-CN': '广告主不存在或无权为其下单',
    'en-US': 'The advertiser does not exist or you may not order for it',
    ja: '広告主が存在しないか、この広告主の注文はできません',
  },
  goodsNotFound: {
    'zh-CN': '商品不存在',
    'en-US': 'The goods item does not exist',
    ja: '商品が存在しません',
  },
  slotNotFound: {
    'zh-CN': '广告位不存在',
    'en-US': 'The ad slot does not exist',
    ja: '広告枠が存在しません',
  },
  goodsNotOnSale: {
    'zh-CN': '商品未在售',
    'en-US': 'The goods item is not on sale',
    ja: '商品は販売されていません',
  },
  outsideGoodsPeriod: {
    'zh-CN': '投放日期须在商品的售卖期内',
    'en-US': "The days must be within the goods item's period",
    ja: '掲載日は商品の販売期間内である必要があります',
  },
  outsideGoodsHours: {
    'zh-CN': '投放时段须在商品提供的时段内',
    'en-US': 'The hours must be among the hours the goods item offers',
    ja: '時間帯は商品が提供する時間帯から選択してください',
  },
  startInPast: {
    'zh-CN': '开始日期不能早于今天',
    'en-US': 'The first day cannot be before today',
    ja: '開始日を今日より前にすることはできません',
  },
  tooManyDays: {
    'zh-CN': '投放天数超出上限',
    'en-US': 'The order spans too many days',
    ja: '掲載日数が上限を超えています',
  },
  linesMismatch: {
    'zh-CN': '子订单须与商品的广告位一一对应',
    'en-US': "The sub-orders must be the goods item's slots, one each",
    ja: 'サブ注文は商品の広告枠と一対一で対応する必要があります',
  },
  rotationsRange: {
    'zh-CN': '轮播次数超出广告位的最大轮播数',
    'en-US': "The rotations exceed the slot's maximum rotations",
    ja: 'ローテーション数が広告枠の上限を超えています',
  },
  impressionsRequired: {
    'zh-CN': 'CPM 子订单须填写千次曝光数',
    'en-US': 'A CPM sub-order needs the thousands of impressions bought',
    ja: 'CPM のサブ注文には購入するインプレッション数（千回単位）が必要です',
  },
  screenNotOffered: {
    'zh-CN': '所选屏幕不在售卖范围内',
    'en-US': 'A chosen screen is not offered by this slot or goods item',
    ja: '選択したデバイスはこの広告枠または商品の販売対象ではありません',
  },
  noScreens: {
    'zh-CN': '没有可售卖的屏幕（离线超过 72 小时的屏幕不可售）',
    'en-US': 'No screen can be sold (screens offline for more than 72 hours cannot)',
    ja: '販売できるデバイスがありません（72 時間を超えてオフラインのデバイスは販売できません）',
  },
  screenLongOffline: {
    'zh-CN': '所选屏幕离线超过 72 小时，不可售卖',
    'en-US': 'A chosen screen has been offline for more than 72 hours and cannot be sold',
    ja: '選択したデバイスは 72 時間を超えてオフラインのため販売できません',
  },
  amountTooLarge: {
    'zh-CN': '订单金额超出上限',
    'en-US': 'The order amount is too large',
    ja: '注文金額が上限を超えています',
  },
  holdLapsed: {
    'zh-CN': '订单的保留时间已过，请重新下单',
    'en-US': 'The order is no longer held; place it again',
    ja: '注文の確保期限が過ぎました。もう一度注文してください',
  },
  notUnpaid: {
    'zh-CN': '只有待支付的订单可以支付',
    'en-US': 'Only an unpaid order can be paid',
    ja: '支払えるのは未払いの注文だけです',
  },
  notCancellable: {
    'zh-CN': '已结算或已取消的订单不能取消',
    'en-US': 'A settled or cancelled order cannot be cancelled',
    ja: '精算済みまたはキャンセル済みの注文はキャンセルできません',
  },
  settlementOpen: {
    'zh-CN': '订单已生成结算单，请完成结算',
    'en-US': 'The order has a settlement; settle it instead',
    ja: '注文には精算書があります。精算を完了してください',
  },
} satisfies Record<string, LocalizedText>;

/** Every hour of the day. */
const ALL_HOURS_MASK = 0xffffff;
const isManager = (user: Principal) => hasPermission(user.permissions, Perm.salesManage);

/** Whether the account is one of the enterprise's advertisers. */
export async function isAdvertiser(db: Executor, entId: string, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: advertisers.accountId })
    .from(advertisers)
    .where(and(eq(advertisers.entId, entId), eq(advertisers.accountId, accountId)));
  return Boolean(row);
}

/**
 * The advertiser an order is for: the caller itself when it is an advertiser (another id:
 * NOT_FOUND); for staff an advertiser account they see on /user/adv (the administrator: any
 * of the enterprise).
 */
export async function orderAdvertiser(
  ctx: CallContext,
  advertiserId: string | undefined,
): Promise<{ id: string; name: string }> {
  const user = ctx.user;
  if (await isAdvertiser(ctx.db, user.entId, user.accountId)) {
    if (advertiserId && advertiserId !== user.accountId) {
      throw new AppError(ErrorCode.NOT_FOUND, OrderText.advertiserNotFound);
    }
    return { id: user.accountId, name: user.realName || user.loginName };
  }
  if (!advertiserId) throw new AppError(ErrorCode.NOT_FOUND, OrderText.advertiserRequired);
  const [row] = await ctx.db
    .select({ id: accounts.id, realName: accounts.realName, loginName: accounts.loginName })
    .from(advertisers)
    .innerJoin(accounts, and(eq(accounts.id, advertisers.accountId), eq(accounts.entId, advertisers.entId)))
    .where(and(eq(advertisers.entId, user.entId), eq(advertisers.accountId, advertiserId), advertiserScopeWhere(user)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, OrderText.advertiserNotFound);
  return { id: row.id, name: row.realName || row.loginName };
}

/** One line of an order as priced and booked. */
export interface PlannedLine {
  slot: AdSlotRow;
  method: SalesMethod;
  unitPrice: number;
  rotations: number;
  impressionsK: number | null;
  deviceIds: string[];
  listAmount: number;
}

/** What an order asks for, checked and priced: the same for the quote and the order. */
export interface OrderPlan {
  advertiser: { id: string; name: string };
  goods: SalesGoodsRow | null;
  startDate: string;
  endDate: string;
  hoursMask: number;
  days: number;
  hoursPerDay: number;
  lines: PlannedLine[];
  contract: SalesPriceContractRow | null;
  coupon: SalesCouponRow | null;
  listAmount: number;
  afterContract: number;
  amount: number;
}

async function loadSlot(db: Executor, entId: string, slotId: string): Promise<AdSlotRow> {
  const [slot] = await db
    .select()
    .from(adSlots)
    .where(and(eq(adSlots.entId, entId), eq(adSlots.id, slotId), isNull(adSlots.deletedAt)));
  if (!slot) throw new AppError(ErrorCode.NOT_FOUND, OrderText.slotNotFound);
  return slot;
}

/**
 * The screens of a line: those asked (each offered by the goods line or the slot, and not
 * offline for more than LONG_OFFLINE_HOURS: DEVICE_LONG_OFFLINE), or, asked none, every
 * offered screen that can be sold.
 */
async function lineScreens(
  db: Executor,
  slot: AdSlotRow,
  offered: readonly string[],
  asked: readonly string[],
  now: Date,
): Promise<string[]> {
  const screens = await slotScreens(db, slot, now);
  const narrowed = offered.length > 0 ? new Set(offered) : null;
  const offer = new Map(screens.filter((s) => !narrowed || narrowed.has(s.id)).map((s) => [s.id, s]));
  if (asked.length === 0) {
    const sellable = [...offer.values()].filter((s) => !s.longOffline).map((s) => s.id);
    if (sellable.length === 0) throw new AppError(ErrorCode.DEVICE_LONG_OFFLINE, OrderText.noScreens);
    return sellable;
  }
  const chosen = [...new Set(asked)];
  for (const id of chosen) {
    const s = offer.get(id);
    if (!s) throw new AppError(ErrorCode.AD_TARGET_INVALID, OrderText.screenNotOffered);
    if (s.longOffline) throw new AppError(ErrorCode.DEVICE_LONG_OFFLINE, OrderText.screenLongOffline);
  }
  return chosen;
}

const slotPrice = (slot: AdSlotRow) => (slot.salesMethod === 'cpm' ? slot.cpmPrice : slot.cptPrice) ?? 0;

/**
 * Checks and prices an order request (no writes): the advertiser, the goods (on sale, the
 * days and hours within its own) or the slot (managers only), each line's screens and
 * rotations, the unit prices (the price contract's slot price, else the goods line's, else
 * the slot's), the price contract's discount and the coupon's.
 */
export async function planOrder(input: OrderRequest, ctx: CallContext): Promise<OrderPlan> {
  const db = ctx.db;
  const entId = ctx.user.entId;
  const now = ctx.now;
  const advertiser = await orderAdvertiser(ctx, input.advertiserId);
  // Orders are dated in days of the selling enterprise's zone.
  const zone = await enterpriseZone(db, entId);
  if (input.startDate < dayIn(now, zone)) {
    throw new AppError(ErrorCode.INVALID_PARAMS, OrderText.startInPast);
  }
  const days = daysInclusive(input.startDate, input.endDate);
  if (days > ORDER_DAYS_MAX) throw new AppError(ErrorCode.INVALID_PARAMS, OrderText.tooManyDays);

  let goods: SalesGoodsRow | null = null;
  let mask: number;
  const offers = new Map<string, { slotId: string; deviceIds: string[]; unitPrice: number | null }>();
  if (input.goodsId) {
    const [row] = await db
      .select()
      .from(salesGoods)
      .where(and(eq(salesGoods.entId, entId), eq(salesGoods.id, input.goodsId), isNull(salesGoods.deletedAt)));
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, OrderText.goodsNotFound);
    if (goodsState(row, now, zone) !== 'onSale')
      throw new AppError(ErrorCode.GOODS_NOT_ON_SALE, OrderText.goodsNotOnSale);
    if (input.startDate < row.startDate || input.endDate > row.endDate) {
      throw new AppError(ErrorCode.GOODS_NOT_ON_SALE, OrderText.outsideGoodsPeriod);
    }
    const asked = input.hours.length > 0 ? hoursMask(input.hours) : row.hoursMask;
    if ((asked & ~row.hoursMask) !== 0) throw new AppError(ErrorCode.GOODS_NOT_ON_SALE, OrderText.outsideGoodsHours);
    mask = asked;
    goods = row;
    const goodsLines = await db.select().from(salesGoodsLines).where(eq(salesGoodsLines.goodsId, row.id));
    for (const l of goodsLines)
      offers.set(l.slotId, { slotId: l.slotId, deviceIds: l.deviceIds, unitPrice: l.unitPrice });
  } else {
    if (!isManager(ctx.user)) throw new AppError(ErrorCode.NO_PERMISSION);
    const slotId = input.slotId as string;
    offers.set(slotId, { slotId, deviceIds: [], unitPrice: null });
    mask = input.hours.length > 0 ? hoursMask(input.hours) : ALL_HOURS_MASK;
  }
  const askedSlots = input.lines.map((l) => l.slotId);
  if (new Set(askedSlots).size !== askedSlots.length || askedSlots.length !== offers.size) {
    throw new AppError(ErrorCode.INVALID_PARAMS, OrderText.linesMismatch);
  }
  if (askedSlots.some((s) => !offers.has(s))) throw new AppError(ErrorCode.INVALID_PARAMS, OrderText.linesMismatch);
  const hoursPerDay = hoursOfMask(mask).length;

  const contract = await activePriceContract(db, entId, advertiser.id, input.startDate);
  const lines: PlannedLine[] = [];
  for (const asked of input.lines) {
    const offer = offers.get(asked.slotId);
    if (!offer) throw new AppError(ErrorCode.INVALID_PARAMS, OrderText.linesMismatch);
    const slot = await loadSlot(db, entId, asked.slotId);
    if (asked.rotations > slot.maxRotations) throw new AppError(ErrorCode.INVALID_PARAMS, OrderText.rotationsRange);
    if (slot.salesMethod === 'cpm' && !asked.impressionsK) {
      throw new AppError(ErrorCode.INVALID_PARAMS, OrderText.impressionsRequired);
    }
    const deviceIds = await lineScreens(db, slot, offer.deviceIds, asked.deviceIds, now);
    const negotiated = contract?.slotPrices.find((p) => p.slotId === slot.id)?.unitPrice;
    const unitPrice = negotiated ?? offer.unitPrice ?? slotPrice(slot);
    lines.push({
      slot,
      method: slot.salesMethod,
      unitPrice,
      rotations: asked.rotations,
      impressionsK: slot.salesMethod === 'cpm' ? (asked.impressionsK ?? null) : null,
      deviceIds,
      listAmount: 0,
    });
  }
  const coupon = input.couponId ? await usableCoupon(db, entId, input.couponId, goods?.id ?? null, now) : null;
  const priced: LinePriceInput[] = lines.map((l) => ({
    method: l.method,
    unitPrice: l.unitPrice,
    rotations: l.rotations,
    screens: l.deviceIds.length,
    days,
    hoursPerDay,
    impressionsK: l.impressionsK,
  }));
  // Exact below 2^53 only: refuse before the arithmetic could round.
  const bound = priced.reduce(
    (sum, l) =>
      sum +
      (l.method === 'cpm'
        ? l.unitPrice * (l.impressionsK ?? 0)
        : l.unitPrice * l.rotations * l.screens * days * hoursPerDay),
    0,
  );
  if (!(bound <= AMOUNT_MAX_FEN)) throw new AppError(ErrorCode.INVALID_PARAMS, OrderText.amountTooLarge);
  const amounts = orderAmounts(priced, contract?.discountPct ?? 100, coupon ? coupon.discountPct : null);
  amounts.lines.forEach((a, i) => {
    lines[i].listAmount = a;
  });
  return {
    advertiser,
    goods,
    startDate: input.startDate,
    endDate: input.endDate,
    hoursMask: mask,
    days,
    hoursPerDay,
    lines,
    contract,
    coupon,
    listAmount: amounts.listAmount,
    afterContract: amounts.afterContract,
    amount: amounts.amount,
  };
}

/** What an order would cost and how much of it can be booked, with the advertiser's available balance. */
export async function quote(input: OrderRequest, ctx: CallContext): Promise<SalesQuote> {
  const plan = await planOrder(input, ctx);
  const bookable = await Promise.all(
    plan.lines.map((l) =>
      bookableRotations(
        ctx.db,
        {
          slotId: l.slot.id,
          deviceIds: l.deviceIds,
          startDate: plan.startDate,
          endDate: plan.endDate,
          hoursMask: plan.hoursMask,
        },
        ctx.now,
      ),
    ),
  );
  const walletId = advertiserWalletId(plan.advertiser.id);
  const balance = (await accountBalances(ctx.db, [walletId])).get(walletId);
  return {
    lines: plan.lines.map((l, i) => ({
      slotId: l.slot.id,
      slotName: l.slot.name,
      salesMethod: l.method,
      unitPrice: l.unitPrice,
      screens: l.deviceIds.length,
      rotations: l.rotations,
      days: plan.days,
      hoursPerDay: plan.hoursPerDay,
      impressionsK: l.impressionsK,
      listAmount: l.listAmount,
      bookable: bookable[i],
    })),
    listAmount: plan.listAmount,
    priceContract: plan.contract
      ? { id: plan.contract.id, name: plan.contract.name, discount: plan.contract.discountPct / 100 }
      : null,
    coupon: plan.coupon
      ? { id: plan.coupon.id, name: plan.coupon.name, discount: plan.coupon.discountPct / 100 }
      : null,
    amount: plan.amount,
    walletId,
    available: balance?.available ?? 0,
  };
}

/** Inserts a line's screens in one statement per 5,000 (10,000 screens stay two statements). */
async function insertLineDevices(db: Executor, lineId: string, deviceIds: readonly string[]): Promise<void> {
  for (let i = 0; i < deviceIds.length; i += 5000) {
    const chunk = deviceIds.slice(i, i + 5000);
    await db.execute(sql`
      insert into sales_order_line_devices (line_id, device_id)
      select ${lineId}, d from unnest(${`{${chunk.map((id) => `"${id.replace(/["\\]/g, '')}"`).join(',')}}`}::text[]) as d
      on conflict do nothing`);
  }
}

const auditOrder = (ctx: CallContext, action: string, order: SalesOrderRow, detail?: Record<string, unknown>) =>
  ctx.audit({ module: 'sales', action, targetType: 'salesOrder', targetId: order.id, targetName: order.no, detail });

/**
 * Places an order, unpaid, in the call's transaction: the order and its lines, the hold of
 * every line's rotations until `holdUntil` (TIME_CONFLICT refuses the whole order), the
 * coupon's use, the first event and the operation log.
 */
export async function createOrder(input: OrderRequest, ctx: CallContext): Promise<SalesOrder> {
  const db = ctx.db;
  const now = ctx.now;
  const plan = await planOrder(input, ctx);
  const settings = await salesSettingsOf(db, ctx.user.entId);
  const holdUntil = new Date(now.getTime() + settings.holdMinutes * 60_000);
  const no = await nextDocNo(db, 'S', now);
  const [order] = await db
    .insert(salesOrders)
    .values({
      entId: ctx.user.entId,
      no,
      advertiserId: plan.advertiser.id,
      goodsId: plan.goods?.id ?? null,
      goodsName: plan.goods?.name ?? null,
      state: 'unpaid',
      startDate: plan.startDate,
      endDate: plan.endDate,
      hoursMask: plan.hoursMask,
      listAmount: plan.listAmount,
      amount: plan.amount,
      priceContractId: plan.contract?.id ?? null,
      contractDiscountPct: plan.contract?.discountPct ?? 100,
      couponId: plan.coupon?.id ?? null,
      couponDiscountPct: plan.coupon?.discountPct ?? null,
      holdUntil,
      createdBy: ctx.user.accountId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const specs: BookingSpec[] = [];
  for (const [i, l] of plan.lines.entries()) {
    const [line] = await db
      .insert(salesOrderLines)
      .values({
        orderId: order.id,
        position: i + 1,
        slotId: l.slot.id,
        slotName: l.slot.name,
        salesMethod: l.method,
        durationSec: l.slot.durationSec,
        unitPrice: l.unitPrice,
        rotations: l.rotations,
        impressionsK: l.impressionsK,
        screens: l.deviceIds.length,
        listAmount: l.listAmount,
      })
      .returning({ id: salesOrderLines.id });
    await insertLineDevices(db, line.id, l.deviceIds);
    specs.push({
      entId: ctx.user.entId,
      slotId: l.slot.id,
      orderId: order.id,
      lineId: line.id,
      deviceIds: l.deviceIds,
      startDate: plan.startDate,
      endDate: plan.endDate,
      hoursMask: plan.hoursMask,
      rotations: l.rotations,
      kind: 'hold',
      expiresAt: holdUntil,
    });
  }
  await bookRotations(db, specs, now);
  if (plan.coupon) {
    await claimCoupon(db, {
      entId: ctx.user.entId,
      couponId: plan.coupon.id,
      goodsId: plan.goods?.id ?? null,
      orderId: order.id,
      advertiserId: plan.advertiser.id,
      saved: plan.afterContract - plan.amount,
      now,
    });
  }
  await recordEvent(db, { orderId: order.id, from: null, to: 'unpaid', actorId: ctx.user.accountId, at: now });
  await auditOrder(ctx, 'orderCreate', order, {
    advertiserId: plan.advertiser.id,
    goodsId: plan.goods?.id ?? null,
    amount: plan.amount,
    startDate: plan.startDate,
    endDate: plan.endDate,
  });
  return orderView(ctx, order.id);
}

/** Whether every line of the order has its ad. */
async function everyLineHasAd(db: Executor, orderId: string): Promise<boolean> {
  const [row] = await db
    .select({ missing: sql<number>`count(*) filter (where ${salesOrderLines.adId} is null)::int` })
    .from(salesOrderLines)
    .where(eq(salesOrderLines.orderId, orderId));
  return Number(row?.missing ?? 0) === 0;
}

export const holdTransferIdOf = (orderId: string) => `sales:${orderId}:hold`;

/**
 * Pays an unpaid order whose hold has not lapsed: its holds become bookings, the order
 * `toUpload` (a line without its ad) or `paid`, and, last, its amount is frozen in the
 * advertiser's wallet by a pending transfer to the operator's wallet (INSUFFICIENT_BALANCE
 * rolls everything back). An amount of 0 (a 100% coupon) moves no money.
 */
export async function payOrder(input: { id: string }, ctx: CallContext): Promise<SalesOrder> {
  const db = ctx.db;
  const now = ctx.now;
  const order = await requireOrder(ctx, input.id, { lock: true });
  if (order.state !== 'unpaid') throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderText.notUnpaid);
  if (!order.holdUntil || order.holdUntil.getTime() <= now.getTime()) {
    throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderText.holdLapsed);
  }
  await confirmHolds(db, order.id);
  const to: SalesOrderState = (await everyLineHasAd(db, order.id)) ? 'paid' : 'toUpload';
  const holdId = order.amount > 0 ? holdTransferIdOf(order.id) : null;
  const moved = await moveOrder(db, order.id, 'unpaid', to, ctx.user.accountId, now, {
    paidAt: now,
    holdUntil: null,
    holdTransferId: holdId,
  });
  await auditOrder(ctx, 'payBalance', moved, { amount: order.amount, state: to });
  if (holdId) {
    const from = await ensureAdvertiserWallet(db, order.entId, order.advertiserId);
    const payee = await ensureEnterpriseWallet(db, order.entId);
    await transfer(db, {
      id: holdId,
      debitAccountId: from,
      creditAccountId: payee,
      amount: order.amount,
      code: 'hold',
      cause: { type: 'salesOrder', id: order.id },
      actorId: ctx.user.accountId,
      note: order.no,
      now,
      pending: { timeoutAt: null },
    });
  }
  return orderView(ctx, order.id);
}

/**
 * Cancels an order not settled, in the call's transaction (the order row locked, the move
 * conditional, so a retry refunds nothing more):
 * - unpaid: its holds and coupon use are released; nothing was taken;
 * - toUpload / paid: the frozen amount is released (a void of the hold), its ads retired,
 *   its bookings and coupon use released;
 * - inProgress: what proof of play says was delivered is posted to the operator, the rest
 *   released; its ads retired, its remaining bookings released.
 * Who cancels: the advertiser ('buyer') or staff ('operator').
 */
export async function cancelOrder(input: { id: string; note: string }, ctx: CallContext): Promise<SalesOrder> {
  const db = ctx.db;
  const now = ctx.now;
  const order = await requireOrder(ctx, input.id, { lock: true });
  if (order.state === 'settled' || order.state === 'cancelled') {
    throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderText.notCancellable);
  }
  const [settlement] = await db
    .select({ id: salesSettlements.id })
    .from(salesSettlements)
    .where(eq(salesSettlements.orderId, order.id));
  if (settlement) throw new AppError(ErrorCode.SALES_ORDER_STATE, OrderText.settlementOpen);
  const reason = ctx.user.accountId === order.advertiserId ? 'buyer' : 'operator';
  const result = await cancelLocked(db, order, {
    actorId: ctx.user.accountId,
    reason,
    note: input.note,
    now,
    retireAds: (orderId) => retireOrderAds(ctx, orderId),
  });
  await auditOrder(ctx, 'orderCancel', result.order, {
    from: order.state,
    reason,
    posted: result.posted,
    released: result.released,
    note: input.note || undefined,
  });
  await result.pay();
  return orderView(ctx, order.id);
}

/**
 * The cancellation of an order already locked (the caller's transaction): the state move
 * and the releases now; the money through `pay()`, which the caller runs last.
 */
export async function cancelLocked(
  db: Executor,
  order: SalesOrderRow,
  opts: {
    actorId: string | null;
    reason: CancelReason;
    note?: string;
    now: Date;
    retireAds?: (orderId: string) => Promise<void>;
  },
): Promise<{ order: SalesOrderRow; posted: number; released: number; pay: () => Promise<void> }> {
  const { now } = opts;
  let posted = 0;
  let released = 0;
  const held = order.holdTransferId !== null && order.state !== 'unpaid';
  if (held) {
    const open = order.amount - order.paidAmount - order.refundedAmount;
    if (order.state === 'inProgress') {
      posted = Math.max(0, Math.min(await deliveredAmount(db, order.id, now), open));
    }
    released = open - posted;
  }
  const moved = await moveOrder(
    db,
    order.id,
    order.state,
    'cancelled',
    opts.actorId,
    now,
    {
      cancelReason: opts.reason,
      cancelledAt: now,
      holdUntil: null,
      paidAmount: order.paidAmount + posted,
      refundedAmount: order.refundedAmount + released,
    },
    opts.note,
  );
  if (order.state !== 'unpaid' && opts.retireAds) await opts.retireAds(order.id);
  await releaseBookings(db, order.id, now);
  if (order.state !== 'inProgress') await releaseCoupon(db, order.id, now);
  const pay = async () => {
    if (!held || !order.holdTransferId) return;
    const base = { pendingId: order.holdTransferId, now, actorId: opts.actorId, note: order.no };
    if (posted > 0) await postPending(db, { ...base, id: `sales:${order.id}:post`, amount: posted });
    else await voidPending(db, { ...base, id: `sales:${order.id}:void` });
  };
  return { order: moved, posted, released, pay };
}
