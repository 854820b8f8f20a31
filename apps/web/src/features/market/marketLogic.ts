import {
  type Endpoints,
  EXPIRING_DEVICE_DAYS,
  fenToYuan,
  MARKET_KINDS,
  MARKET_ORDER_MAX_SUBJECTS,
  type MarketKind,
  type MarketOrder,
  type Product,
  type Req,
  STORAGE_PACK_MAX_QUANTITY,
  TERM_MONTHS,
} from '@marquee/protocol';
import { type AmountRefusal, checkYuan } from '../../components/money';

/**
 * The market pages' arithmetic and choices, pure so they are tested without a browser: the
 * cheapest price per month of a product, the catalogue grouped by kind, days left before an
 * expiry, the purchase a page's choices make, whether the balance pays it, the price rows of
 * the catalogue dialog read as fen, the order state people see.
 */

export const DAY_MS = 86_400_000;

export interface TermPrice {
  months: number;
  price: number;
}

/**
 * The cheapest of a product's terms per month: fen per month rounded to the nearest fen (a
 * price of ¥10.00 for 3 months is ¥3.33 a month), with the term it comes from; the shorter
 * term on a tie. Null without a price.
 */
export function lowestMonthly(prices: readonly TermPrice[]): { perMonth: number; months: number } | null {
  let best: { perMonth: number; months: number; exact: number } | null = null;
  for (const p of prices) {
    if (!(p.months > 0) || !Number.isSafeInteger(p.price) || p.price < 0) continue;
    const exact = p.price / p.months;
    if (!best || exact < best.exact || (exact === best.exact && p.months < best.months))
      best = { perMonth: Math.round(exact), months: p.months, exact };
  }
  return best ? { perMonth: best.perMonth, months: best.months } : null;
}

/** The products of each kind in the market's order of kinds (device points, storage packs, data cards); empty kinds left out. */
export function groupByKind<P extends Pick<Product, 'kind'>>(
  products: readonly P[],
): { kind: MarketKind; products: P[] }[] {
  return MARKET_KINDS.map((kind) => ({ kind, products: products.filter((p) => p.kind === kind) })).filter(
    (g) => g.products.length > 0,
  );
}

/** A product's prices, by months ascending, only the terms the market sells. */
export function sortedTerms(prices: readonly TermPrice[]): TermPrice[] {
  return prices
    .filter((p) => (TERM_MONTHS as readonly number[]).includes(p.months))
    .sort((a, b) => a.months - b.months);
}

/** The term chosen: the one asked for (the URL's) when the product offers it, else its shortest. */
export function chooseTerm(prices: readonly TermPrice[], wanted?: number | null): number | null {
  const terms = sortedTerms(prices);
  if (wanted && terms.some((p) => p.months === wanted)) return wanted;
  return terms[0]?.months ?? null;
}

/**
 * Whole days from `now` until an expiry, counted up (one hour left is 1 day; just past is 0 or
 * less); null without an expiry or with an unreadable one.
 */
export function daysLeft(expiry: string | null | undefined, now: number): number | null {
  if (!expiry) return null;
  const at = Date.parse(expiry);
  if (Number.isNaN(at)) return null;
  return Math.ceil((at - now) / DAY_MS);
}

/** Expires within `within` days (default EXPIRING_DEVICE_DAYS: 15) and not yet expired: the warning shows. */
export function expiringSoon(expiry: string | null | undefined, now: number, within = EXPIRING_DEVICE_DAYS): boolean {
  const days = daysLeft(expiry, now);
  return days !== null && days > 0 && days < within;
}

/** What a detail page's choices are. */
export interface PurchaseChoice {
  product: Pick<Product, 'id' | 'kind'>;
  months: number | null;
  deviceIds: readonly string[];
  cardIds: readonly string[];
  quantity: number | null;
  autoRenew: boolean;
}

export type PurchaseRequest = Req<Endpoints['marketQuote']>;

/**
 * The purchase (the quote's and the order's request) the choices make, or why there is none
 * yet: no term, nothing chosen (devices or cards), or a quantity out of range. Only the kind's
 * own subjects are sent.
 */
export function purchaseOf(
  choice: PurchaseChoice,
): { ok: true; request: PurchaseRequest } | { ok: false; reason: 'term' | 'nothing' | 'tooMany' | 'quantity' } {
  const { product, months, autoRenew } = choice;
  if (!months) return { ok: false, reason: 'term' };
  const base = { productId: product.id, months, autoRenew };
  if (product.kind === 'devicePoints' || product.kind === 'dataCard') {
    const ids = [...new Set(product.kind === 'devicePoints' ? choice.deviceIds : choice.cardIds)];
    if (ids.length === 0) return { ok: false, reason: 'nothing' };
    if (ids.length > MARKET_ORDER_MAX_SUBJECTS) return { ok: false, reason: 'tooMany' };
    return {
      ok: true,
      request: product.kind === 'devicePoints' ? { ...base, deviceIds: ids } : { ...base, cardIds: ids },
    };
  }
  const q = choice.quantity;
  if (!q || !Number.isInteger(q) || q < 1 || q > STORAGE_PACK_MAX_QUANTITY) return { ok: false, reason: 'quantity' };
  return { ok: true, request: { ...base, quantity: q } };
}

/** A stable text of a request (the debounced quote waits until it stops changing). */
export function requestKey(request: PurchaseRequest | null): string {
  return request ? JSON.stringify(request) : '';
}

/** Whether the wallet's available balance pays a total now, and why not. */
export function balanceBlock(available: number | null | undefined, total: number | null | undefined) {
  if (available === null || available === undefined || total === null || total === undefined) return 'noQuote';
  if (available < total) return 'insufficient';
  return null;
}

/** What the balance lacks for a total (0 when it pays it). */
export function shortfall(available: number, total: number): number {
  return Math.max(0, total - available);
}

/** The storage quota after buying `quantity` packs of `packBytes`. */
export function quotaAfter(quotaBytes: number, quantity: number, packBytes: number): number {
  return quotaBytes + Math.max(0, Math.trunc(quantity)) * packBytes;
}

/** The share of the quota used, whole percent 0 to 100 (a quota of 0 with anything used is full). */
export function usedPercent(usedBytes: number, quotaBytes: number): number {
  if (quotaBytes <= 0) return usedBytes > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.floor((usedBytes * 100) / quotaBytes)));
}

/** One row of the catalogue dialog's prices: a term and an amount typed in yuan. */
export interface PriceRow {
  months?: number | null;
  yuan?: string | null;
}

/** A product's prices as the dialog's rows (yuan with 2 decimals). */
export function priceRowsOf(prices: readonly TermPrice[]): PriceRow[] {
  return sortedTerms(prices).map((p) => ({ months: p.months, yuan: fenToYuan(p.price) }));
}

/**
 * The dialog's price rows as the save request takes them (fen, by months ascending), or the
 * first refusal: a row without its term or amount ('required'), a term twice ('duplicate'), an
 * amount refused by checkYuan (its key of the validation namespace).
 */
export function pricesOf(
  rows: readonly PriceRow[],
): { ok: true; prices: TermPrice[] } | { ok: false; key: 'required' | 'duplicate' | AmountRefusal; row: number } {
  if (rows.length === 0) return { ok: false, key: 'required', row: 0 };
  const out: TermPrice[] = [];
  const seen = new Set<number>();
  for (const [i, row] of rows.entries()) {
    if (!row.months || row.yuan === undefined || row.yuan === null || String(row.yuan).trim() === '')
      return { ok: false, key: 'required', row: i };
    if (seen.has(row.months)) return { ok: false, key: 'duplicate', row: i };
    seen.add(row.months);
    const parsed = checkYuan(String(row.yuan));
    if (!parsed.ok) return { ok: false, key: parsed.key, row: i };
    out.push({ months: row.months, price: parsed.fen });
  }
  return { ok: true, prices: out.sort((a, b) => a.months - b.months) };
}

/** Whether the rows change a product's prices (a product on sale refuses that: take it off shelf first). */
export function pricesChanged(before: readonly TermPrice[], after: readonly TermPrice[]): boolean {
  const a = sortedTerms(before);
  const b = [...after].sort((x, y) => x.months - y.months);
  return a.length !== b.length || a.some((p, i) => p.months !== b[i].months || p.price !== b[i].price);
}

/** The state people see of an order: an unpaid one whose offline transfer is being reviewed is 'review'. */
export type OrderShownState = MarketOrder['state'] | 'review';
export function orderShownState(order: Pick<MarketOrder, 'state' | 'payState'>): OrderShownState {
  return order.state === 'unpaid' && order.payState === 'review' ? 'review' : order.state;
}

/** An unpaid order the buyer can still pay (or cancel): not one under offline review. */
export function orderOpen(order: Pick<MarketOrder, 'state' | 'payState'>): boolean {
  return order.state === 'unpaid' && order.payState === 'unpaid';
}

/** The URL values of a detail page: the product's id, or a kind whose first product on sale opens. */
export function detailPath(target: { id: string } | { kind: MarketKind }, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams('id' in target ? { id: target.id, ...extra } : { kind: target.kind, ...extra });
  return `/shop/detail?${params.toString()}`;
}

export const orderPath = (id: string) => `/shop/order?id=${encodeURIComponent(id)}`;
export const payPath = (payOrderId: string) => `/pay?id=${encodeURIComponent(payOrderId)}`;
