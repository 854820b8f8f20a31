import {
  ALL_HOURS,
  daysInclusive,
  type Goods,
  type SalesOrder,
  type SalesOrderState,
  type SalesQuote,
  type Settlement,
  type SubOrder,
} from '@marquee/protocol';

/**
 * The order pages' rules without React (issue 28): what an order's state lets a person do,
 * what cancelling gives back, the hours strip's presets, the composer's request and what a
 * quote says about conflicts, the settlement's confirmation figures. Unit-tested in
 * apps/web/test/sales-order-logic.test.ts.
 */

/** The hours strip's presets: all day, daytime (08:00–18:00), evening (18:00–24:00). */
export const HOUR_PRESETS = {
  allDay: ALL_HOURS,
  daytime: ALL_HOURS.filter((h) => h >= 8 && h < 18),
  evening: ALL_HOURS.filter((h) => h >= 18),
} as const;
export type HourPreset = keyof typeof HOUR_PRESETS;

/** The hours with `h` switched on or off, sorted. */
export function toggleHour(hours: readonly number[], h: number): number[] {
  const set = new Set(hours);
  if (set.has(h)) set.delete(h);
  else set.add(h);
  return [...set].sort((a, b) => a - b);
}

/** The preset `hours` are exactly, or null. */
export function presetOf(hours: readonly number[]): HourPreset | null {
  const text = [...hours].sort((a, b) => a - b).join(',');
  for (const [name, preset] of Object.entries(HOUR_PRESETS)) if (preset.join(',') === text) return name as HourPreset;
  return null;
}

/** The preset's hours that the goods offers (its hours; all 24 when it has none). */
export function presetWithin(preset: HourPreset, offered: readonly number[]): number[] {
  const allowed = new Set(offered.length > 0 ? offered : ALL_HOURS);
  return HOUR_PRESETS[preset].filter((h) => allowed.has(h));
}

/** The availability chart's buckets: per hour for a period of at most 3 days, per day otherwise. */
export function chartGranularity(startDate: string, endDate: string): 'hour' | 'day' {
  return daysInclusive(startDate, endDate) <= 3 ? 'hour' : 'day';
}

/** States an order can still be cancelled in (SALES_ORDER_TRANSITIONS to 'cancelled'). */
const CANCELLABLE: readonly SalesOrderState[] = ['unpaid', 'toUpload', 'paid', 'inProgress'];

export function canPay(order: Pick<SalesOrder, 'state' | 'hasPermission'>): boolean {
  return order.hasPermission && order.state === 'unpaid';
}
export function canCancel(order: Pick<SalesOrder, 'state' | 'hasPermission' | 'settlementState'>): boolean {
  return (
    order.hasPermission &&
    CANCELLABLE.includes(order.state) &&
    (order.settlementState == null || order.settlementState === 'toBePaid')
  );
}

/**
 * What cancelling gives back, for the confirmation: `release` (unpaid: nothing was taken,
 * the held inventory goes back), `all` (paid, nothing delivered: the whole frozen amount),
 * `undelivered` (in progress: what proof of play says was delivered is paid, the rest back).
 */
export type CancelRefund =
  | { kind: 'release' }
  | { kind: 'all'; amount: number }
  | { kind: 'undelivered'; frozen: number };
export function cancelRefund(order: Pick<SalesOrder, 'state' | 'frozenAmount'>): CancelRefund {
  if (order.state === 'unpaid') return { kind: 'release' };
  if (order.state === 'inProgress') return { kind: 'undelivered', frozen: order.frozenAmount };
  return { kind: 'all', amount: order.frozenAmount };
}

/** Contract can be drawn up for an order paid or later (not cancelled). */
export function canDrawContract(order: Pick<SalesOrder, 'state' | 'contractState'>): boolean {
  return order.contractState == null && ['toUpload', 'paid', 'inProgress', 'settled'].includes(order.state);
}

/** A sub-order needs its materials: a paid order's line without an ad, or whose ad failed review. */
export function needsMaterials(
  order: Pick<SalesOrder, 'state' | 'hasPermission'>,
  sub: Pick<SubOrder, 'adId' | 'adReviewState'>,
): boolean {
  if (!order.hasPermission || !['toUpload', 'paid', 'inProgress'].includes(order.state)) return false;
  return sub.adId == null || sub.adReviewState === 'failed';
}

/** Milliseconds left of a hold (0 when over or none). */
export function holdLeft(holdUntil: string | null, now: number): number {
  if (!holdUntil) return 0;
  return Math.max(0, Date.parse(holdUntil) - now);
}

/** A countdown as H:MM:SS (hours unbounded). */
export function countdownText(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** One line of the composer: its slot and choices. */
export interface ComposerLine {
  slotId: string;
  salesMethod: 'cpt' | 'cpm';
  /** Empty: every screen the goods line (or slot) offers. */
  deviceIds: string[];
  rotations: number;
  impressionsK: number | null;
}

/** What the composer has chosen. */
export interface ComposerState {
  advertiserId: string | null;
  goodsId: string | null;
  slotId: string | null;
  startDate: string | null;
  endDate: string | null;
  hours: number[];
  lines: ComposerLine[];
  couponId: string | null;
}

/** Why the composer cannot ask for a quote yet (an i18n key of `composer.missing.*`), or null. */
export type ComposerMissing = 'advertiser' | 'goods' | 'period' | 'hours' | 'impressions';

export interface OrderRequest {
  advertiserId?: string;
  goodsId?: string;
  slotId?: string;
  startDate: string;
  endDate: string;
  hours: number[];
  lines: { slotId: string; deviceIds: string[]; rotations: number; impressionsK?: number }[];
  couponId?: string | null;
}

/**
 * The request of a quote and of the order (the same), or what is missing. `needAdvertiser`:
 * staff name the advertiser; an advertiser orders for itself.
 */
export function composerRequest(
  s: ComposerState,
  needAdvertiser: boolean,
): { ok: true; request: OrderRequest } | { ok: false; missing: ComposerMissing } {
  if (needAdvertiser && !s.advertiserId) return { ok: false, missing: 'advertiser' };
  if (!s.goodsId && !s.slotId) return { ok: false, missing: 'goods' };
  if (s.lines.length === 0) return { ok: false, missing: 'goods' };
  if (!s.startDate || !s.endDate || s.endDate < s.startDate) return { ok: false, missing: 'period' };
  if (s.hours.length === 0) return { ok: false, missing: 'hours' };
  if (s.lines.some((l) => l.salesMethod === 'cpm' && !(l.impressionsK && l.impressionsK > 0)))
    return { ok: false, missing: 'impressions' };
  const request: OrderRequest = {
    ...(s.advertiserId && needAdvertiser ? { advertiserId: s.advertiserId } : {}),
    ...(s.goodsId ? { goodsId: s.goodsId } : { slotId: s.slotId as string }),
    startDate: s.startDate,
    endDate: s.endDate,
    hours: s.hours.length === 24 ? [] : [...s.hours].sort((a, b) => a - b),
    lines: s.lines.map((l) => ({
      slotId: l.slotId,
      deviceIds: l.deviceIds,
      rotations: l.rotations,
      ...(l.salesMethod === 'cpm' && l.impressionsK ? { impressionsK: l.impressionsK } : {}),
    })),
    couponId: s.couponId,
  };
  return { ok: true, request };
}

/** The lines of a goods item as the composer starts them (all screens, 1 rotation). */
export function linesOfGoods(goods: Pick<Goods, 'lines'>): ComposerLine[] {
  return goods.lines.map((l) => ({
    slotId: l.slotId,
    salesMethod: l.salesMethod,
    deviceIds: [],
    rotations: 1,
    impressionsK: l.salesMethod === 'cpm' ? 1 : null,
  }));
}

/** A date clamped into [min, max] (YYYY-MM-DD compare as text). */
export function clampDate(day: string, min: string, max: string): string {
  if (day < min) return min;
  if (day > max) return max;
  return day;
}

/** The quote's lines that cannot book their rotations (bookable below what the line asks). */
export function conflictLines(quote: Pick<SalesQuote, 'lines'>): SalesQuote['lines'] {
  return quote.lines.filter((l) => l.salesMethod === 'cpt' && l.bookable < l.rotations);
}

/** The discount figures of a quote: what the price contract and the coupon take off, fen. */
export function quoteDiscounts(q: Pick<SalesQuote, 'listAmount' | 'amount' | 'priceContract' | 'coupon'>): {
  contract: number;
  coupon: number;
} {
  if (!q.coupon) return { contract: q.listAmount - q.amount, coupon: 0 };
  if (!q.priceContract) return { contract: 0, coupon: q.listAmount - q.amount };
  // orderAmounts: the contract's percent first, then the coupon's on what is left.
  const pct = Math.round(q.priceContract.discount * 100);
  const afterContract = Number((BigInt(q.listAmount) * BigInt(pct) * 2n + 100n) / 200n);
  return { contract: q.listAmount - afterContract, coupon: afterContract - q.amount };
}

/** Whether the wallet's available balance covers the amount. */
export function balanceCovers(available: number, amount: number): boolean {
  return available >= amount;
}

/** What confirming a settlement moves: billed to the operator, credited back, released (the rest of the hold). */
export function settlementMoves(s: Pick<Settlement, 'frozenAmount' | 'billedAmount' | 'creditAmount'>): {
  billed: number;
  credited: number;
  released: number;
} {
  return { billed: s.billedAmount, credited: s.creditAmount, released: Math.max(0, s.frozenAmount - s.billedAmount) };
}

/** A settlement line's delivery, percent with one decimal (100 when nothing was expected). */
export function deliveredPct(expected: number, delivered: number): number {
  if (expected <= 0) return 100;
  return Math.round((delivered / expected) * 1000) / 10;
}

/** The settlement's expected and delivered plays per day, for the chart. */
export function playsPerDay(
  lines: readonly { day: string; expectedPlays: number; deliveredPlays: number }[],
): { day: string; expected: number; delivered: number }[] {
  const byDay = new Map<string, { expected: number; delivered: number }>();
  for (const l of lines) {
    const d = byDay.get(l.day) ?? { expected: 0, delivered: 0 };
    d.expected += l.expectedPlays;
    d.delivered += l.deliveredPlays;
    byDay.set(l.day, d);
  }
  return [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, v]) => ({ day, ...v }));
}

/** The detail page's path of an order. */
export function orderDetailPath(id: string): string {
  return `/operate/orderDetail?id=${encodeURIComponent(id)}`;
}
