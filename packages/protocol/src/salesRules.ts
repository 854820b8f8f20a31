import { wallClock } from './timeZone.js';

/**
 * Selling airtime (issue 28; /operate/slot, goods, order, orderDetail, coupon, signContract;
 * docs/ARCHITECTURE.md "Selling airtime"). The rules both sides apply: spec section 5's
 * ranges, section 4's state machines as transition tables (the only rule: the server refuses
 * any other move, the console offers only these), and the arithmetic of a price. Amounts are
 * integer fen; a discount is an integer percentage (0.85 in the spec's terms is 85), so no
 * float ever holds an amount.
 *
 * Inventory. A slot is a share of the loop on a set of screens: each loop of a screen plays
 * `maxRotations` turns of the slot, each turn `durationSec` long, and each turn can be sold to
 * one buyer. The unit sold is a rotation of a screen-hour: (slot, device, day, hour). An order
 * line books `rotations` of every screen-hour of its screens x days x hours; a screen-hour's
 * booked plus held rotations never exceed the slot's maxRotations.
 *
 * Days and hours are UTC until the time-zone issue (31) gives them the enterprise's zone, as
 * the ads' periods are today: an order's ad plays in the hours the order booked.
 */

/** Spec section 3: an ad slot's sales method. CPT: by time (screen-hours); CPM: per thousand impressions. */
export const SALES_METHODS = ['cpt', 'cpm'] as const;
export type SalesMethod = (typeof SALES_METHODS)[number];

/** Spec section 5: a CPT price is 0.01 to 99999 yuan (per rotation per screen-hour); a CPM price the same (per thousand impressions). */
export const SLOT_PRICE_MIN_FEN = 1;
export const SLOT_PRICE_MAX_FEN = 9_999_900;
/** Spec section 5: an RTB price is 0 to 10000 yuan (issue 29 runs the auction). */
export const RTB_PRICE_MAX_FEN = 1_000_000;
/** A turn's length in seconds. */
export const SLOT_DURATION_MIN_SEC = 5;
export const SLOT_DURATION_MAX_SEC = 300;
/** Turns of the slot per loop of a screen (each sellable to one buyer). */
export const SLOT_ROTATIONS_MAX = 60;
/** A slot's resolution: the layout range of spec section 5. */
export const SLOT_PIXELS_MIN = 48;
export const SLOT_PIXELS_MAX = 11_520;
export const SLOT_NAME_MAX = 40;
export const GOODS_NAME_MAX = 40;
export const COUPON_NAME_MAX = 40;
/** A programme packages 2 to this many slots. */
export const PROGRAMME_LINES_MAX = 10;
/** Screens one order line may book. */
export const ORDER_SCREENS_MAX = 10_000;
/** Days one order may span. */
export const ORDER_DAYS_MAX = 366;
/** Spec section 5: play count 1 to 99999; a CPM line buys this many thousands of impressions. */
export const IMPRESSIONS_K_MIN = 1;
export const IMPRESSIONS_K_MAX = 99_999;
/** Spec section 5: at most 99999 uses of a coupon. */
export const COUPON_LIMIT_MAX = 99_999;
/** How long an unpaid order holds its inventory unless the operator sets otherwise (sales settings). */
export const DEFAULT_HOLD_MINUTES = 24 * 60;
export const HOLD_MINUTES_MIN = 5;
/** 30 days. */
export const HOLD_MINUTES_MAX = 43_200;
/** Impressions per play where gather has no audience for the screen-hour, in hundredths (100 = 1 impression per play). */
export const DEFAULT_IMPRESSIONS_PER_PLAY_PCT = 100;
export const IMPRESSIONS_PER_PLAY_PCT_MAX = 100_000;
/** A screen-day delivered below this share of its expected plays is under-delivered (reports' UNDER_DELIVERY_PCT). */
export const MAKE_GOOD_REMEDIES = ['credit', 'extraPlays'] as const;
export type MakeGoodRemedy = (typeof MAKE_GOOD_REMEDIES)[number];

/** Hours of the day, 0..23. */
export const ALL_HOURS: readonly number[] = Array.from({ length: 24 }, (_, h) => h);

/** Goods: a single slot, or a programme of several. */
export const GOODS_KINDS = ['single', 'programme'] as const;
export type GoodsKind = (typeof GOODS_KINDS)[number];

/**
 * Spec section 4 goods states. `onSale` and `offShelf` are stored (the operator moves them);
 * `soldOut` (no rotation left in any screen-hour of its period) and `expired` (its period is
 * over) are what an on-sale goods item shows when they are true.
 */
export const GOODS_STATES = ['onSale', 'soldOut', 'expired', 'offShelf'] as const;
export type GoodsState = (typeof GOODS_STATES)[number];
export const GOODS_TRANSITIONS: Readonly<Record<GoodsState, readonly GoodsState[]>> = {
  offShelf: ['onSale'],
  onSale: ['offShelf', 'soldOut', 'expired'],
  soldOut: ['onSale', 'offShelf', 'expired'],
  expired: ['offShelf'],
};

/**
 * Spec section 4 order states. `unpaid` holds its inventory until `holdUntil` (a proposal);
 * paying freezes the amount in the advertiser's wallet (a pending transfer) and moves it to
 * `toUpload` (no materials yet) or `paid`; attaching materials makes its ads (through review)
 * and moves `toUpload` to `paid`; the period beginning with its ads approved moves it to
 * `inProgress`; settlement completed moves it to `settled`. Cancelling refunds what was not
 * delivered (a void of the hold, or a partial post for an order in progress).
 */
export const SALES_ORDER_STATES = ['unpaid', 'paid', 'cancelled', 'settled', 'toUpload', 'inProgress'] as const;
export type SalesOrderState = (typeof SALES_ORDER_STATES)[number];
export const SALES_ORDER_TRANSITIONS: Readonly<Record<SalesOrderState, readonly SalesOrderState[]>> = {
  unpaid: ['paid', 'toUpload', 'cancelled'],
  toUpload: ['paid', 'cancelled'],
  paid: ['inProgress', 'cancelled'],
  inProgress: ['settled', 'cancelled'],
  settled: [],
  cancelled: [],
};
/**
 * Why an order was cancelled: by its buyer, by the operator, its hold lapsed unpaid, or its
 * period ended before it could start (no approved ad in time: refunded in full by the job).
 */
export const CANCEL_REASONS = ['buyer', 'operator', 'holdExpired', 'notStarted'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/**
 * Spec section 4 settlement states. `toBePaid`: computed from proof of play when the order's
 * period ended, make-goods to choose; `paid`: the amount was posted from the advertiser's
 * hold to the operator (the rest released); `completed`: no make-good is outstanding (the
 * order is `settled`).
 */
export const SETTLEMENT_STATES = ['toBePaid', 'paid', 'completed'] as const;
export type SettlementState = (typeof SETTLEMENT_STATES)[number];
export const SETTLEMENT_TRANSITIONS: Readonly<Record<SettlementState, readonly SettlementState[]>> = {
  toBePaid: ['paid'],
  paid: ['completed'],
  completed: [],
};

/** Spec section 4 contract states: a signed contract is immutable. */
export const CONTRACT_STATES = ['signing', 'signed'] as const;
export type ContractState = (typeof CONTRACT_STATES)[number];
export const CONTRACT_TRANSITIONS: Readonly<Record<ContractState, readonly ContractState[]>> = {
  signing: ['signed'],
  signed: [],
};
/** What a contract is for. */
export const CONTRACT_KINDS = ['order', 'priceContract'] as const;
export type ContractKind = (typeof CONTRACT_KINDS)[number];
/** Signed inside the product, or through the configured e-signature provider. */
export const CONTRACT_CHANNELS = ['internal', 'esign'] as const;
export type ContractChannel = (typeof CONTRACT_CHANNELS)[number];

/** Spec section 4 sync states of a contract sent to the e-signature provider. */
export const SYNC_STATES = ['unsynchronized', 'synchronizing', 'synchronized', 'failed'] as const;
export type SyncState = (typeof SYNC_STATES)[number];
export const SYNC_TRANSITIONS: Readonly<Record<SyncState, readonly SyncState[]>> = {
  unsynchronized: ['synchronizing'],
  synchronizing: ['synchronized', 'failed'],
  failed: ['synchronizing'],
  synchronized: [],
};
/** Tries of a contract's sync before it stays `failed` until someone retries it. */
export const ESIGN_MAX_ATTEMPTS = 5;

/**
 * A coupon's use status (spec section 3), derived: `disabled` by the operator, `notStarted`
 * before its validity, `expired` after it, `exhausted` when its uses reached the limit, else
 * `available`. Enabling and disabling are the only moves a person makes.
 */
export const COUPON_STATES = ['available', 'notStarted', 'exhausted', 'expired', 'disabled'] as const;
export type CouponState = (typeof COUPON_STATES)[number];
export const COUPON_TRANSITIONS: Readonly<Record<CouponState, readonly CouponState[]>> = {
  notStarted: ['available', 'disabled'],
  available: ['exhausted', 'expired', 'disabled'],
  exhausted: ['available', 'expired', 'disabled'],
  expired: ['disabled'],
  disabled: ['available', 'notStarted', 'exhausted', 'expired'],
};

/** True when the table allows the move. */
export function canMove<S extends string>(table: Readonly<Record<S, readonly S[]>>, from: S, to: S): boolean {
  return table[from]?.includes(to) ?? false;
}

/**
 * The coupon's use status at `now`: its dates (YYYY-MM-DD, inclusive) are days of `zone`, its
 * enterprise's (issue 31).
 */
export function couponState(
  c: { enabled: boolean; validFrom: string; validTo: string; used: number; limit: number },
  now: Date,
  zone = 'UTC',
): CouponState {
  if (!c.enabled) return 'disabled';
  const today = wallClock(now, zone).day;
  if (today < c.validFrom) return 'notStarted';
  if (today > c.validTo) return 'expired';
  if (c.used >= c.limit) return 'exhausted';
  return 'available';
}

/**
 * The goods state shown: stored onSale/offShelf, with expired (past its end date, a day of
 * `zone`, its enterprise's) and soldOut when true.
 */
export function goodsState(
  g: { state: 'onSale' | 'offShelf'; endDate: string; soldOut: boolean },
  now: Date,
  zone = 'UTC',
): GoodsState {
  if (g.state === 'offShelf') return 'offShelf';
  if (wallClock(now, zone).day > g.endDate) return 'expired';
  return g.soldOut ? 'soldOut' : 'onSale';
}

/** Days from `start` to `end` inclusive (YYYY-MM-DD). */
export function daysInclusive(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Hours of the day as a 24-bit mask (bit h = hour h), the way bookings store them. */
export function hoursMask(hours: readonly number[]): number {
  let m = 0;
  for (const h of hours) m |= 1 << h;
  return m;
}
export function hoursOfMask(mask: number): number[] {
  return ALL_HOURS.filter((h) => (mask & (1 << h)) !== 0);
}
/** Contiguous hours as the ads' time periods ('HH:mm' to 'HH:mm', the last ends at 23:59). */
export function hoursToPeriods(hours: readonly number[]): { start: string; end: string }[] {
  const sorted = [...new Set(hours)].sort((a, b) => a - b);
  if (sorted.length === 24) return [];
  const out: { start: string; end: string }[] = [];
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    const end = sorted[j] + 1;
    out.push({ start: hh(sorted[i]), end: end === 24 ? '23:59' : hh(end) });
    i = j + 1;
  }
  return out;
}

/** `fen` x `pct` / 100, rounded half up, exact for any amount (BigInt). */
export function applyPercent(fen: number, pct: number): number {
  const n = BigInt(fen) * BigInt(pct);
  return Number((n * 2n + 100n) / 200n);
}

/** A line as priced: CPT by screen-hours, CPM by thousands of impressions. */
export interface LinePriceInput {
  method: SalesMethod;
  /** CPT: fen per rotation per screen-hour; CPM: fen per thousand impressions. */
  unitPrice: number;
  rotations: number;
  screens: number;
  days: number;
  hoursPerDay: number;
  /** CPM only: thousands of impressions bought. */
  impressionsK?: number | null;
}

/** The list price of one line, before any discount. */
export function linePrice(l: LinePriceInput): number {
  if (l.method === 'cpm') return l.unitPrice * (l.impressionsK ?? 0);
  return l.unitPrice * l.rotations * l.screens * l.days * l.hoursPerDay;
}

/** An order's amounts: the list price, the price contract's discount, then at most one coupon's. */
export function orderAmounts(
  lines: readonly LinePriceInput[],
  contractPct: number,
  couponPct: number | null,
): { listAmount: number; afterContract: number; amount: number; lines: number[] } {
  const each = lines.map(linePrice);
  const listAmount = each.reduce((a, b) => a + b, 0);
  const afterContract = applyPercent(listAmount, contractPct);
  const amount = couponPct == null ? afterContract : applyPercent(afterContract, couponPct);
  return { listAmount, afterContract, amount, lines: each };
}

/** Spec section 5: a discount 0 to 1 with at most 2 decimals, as the integer percentage stored. */
export function discountToPct(discount: number): number | null {
  if (!Number.isFinite(discount) || discount < 0 || discount > 1) return null;
  const pct = Math.round(discount * 100);
  return Math.abs(pct - discount * 100) < 1e-6 ? pct : null;
}
