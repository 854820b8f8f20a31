import { z } from 'zod';

/**
 * Money (issue 26). Every amount is an integer number of fen (the smallest unit of CNY) in
 * the database, the protocol and the presenters; no float ever holds an amount. The console
 * reads what a person types as text (`yuanToFen`) and shows fen as yuan (`fenToYuan`,
 * `formatFen`), in words with `toChineseAmount(fenToYuan(fen))` on a receipt or invoice.
 */

/** The currency of every amount. */
export const CURRENCY = 'CNY';

/** The largest amount any call carries: 10^13 yuan in fen, safely below 2^53. */
export const AMOUNT_MAX_FEN = 1_000_000_000_000_000;

/** Spec section 5: a recharge is greater than 0 and not above 100000 yuan. */
export const RECHARGE_MAX_FEN = 10_000_000;

/** Spec section 9: recharge presets 1000, 2000, 10000 yuan. */
export const RECHARGE_PRESETS_FEN = [100_000, 200_000, 1_000_000] as const;

/** A positive amount of fen (an integer; a float, 0 or a negative amount is refused). */
export const fenSchema = z
  .number()
  .int('validation.amountFen')
  .min(1, 'validation.amountPositive')
  .max(AMOUNT_MAX_FEN, 'validation.amountTooLarge');

/** An amount of fen that may be 0 (a threshold, a filter bound). */
export const fenOrZeroSchema = z
  .number()
  .int('validation.amountFen')
  .min(0, 'validation.amountPositive')
  .max(AMOUNT_MAX_FEN, 'validation.amountTooLarge');

/** A recharge: 1 fen to 100000 yuan (spec section 5). */
export const rechargeFenSchema = z
  .number()
  .int('validation.amountFen')
  .min(1, 'validation.rechargeAmount')
  .max(RECHARGE_MAX_FEN, 'validation.rechargeAmount');

/** What `yuanToFen` makes of a typed amount. */
export type YuanParse = { ok: true; fen: number } | { ok: false; reason: 'format' | 'decimals' | 'tooLarge' };

/**
 * Reads a typed amount of yuan ('1000', '12.5', '0.01', '1,000.00') as fen without floating
 * point: digits, at most one point and at most 2 decimals (spec section 5); a sign, an
 * exponent or a third decimal is refused.
 */
export function yuanToFen(text: string): YuanParse {
  const t = text.trim().replace(/,/g, '');
  const m = /^(\d+)(?:\.(\d*))?$/.exec(t);
  if (!m) return { ok: false, reason: 'format' };
  const decimals = m[2] ?? '';
  if (decimals.length > 2) return { ok: false, reason: 'decimals' };
  const whole = m[1].replace(/^0+(?=\d)/, '');
  if (whole.length > 13) return { ok: false, reason: 'tooLarge' };
  const fen = Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
  if (fen > AMOUNT_MAX_FEN) return { ok: false, reason: 'tooLarge' };
  return { ok: true, fen };
}

/** Fen as a yuan string with two decimals ('-1234.50'), exact for every safe integer. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen)) throw new RangeError(`not an amount of fen: ${fen}`);
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(fen);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Fen for a person: '¥1,234.50' with the locale's grouping; `signed` adds '+' to a credit. */
export function formatFen(fen: number, locale = 'zh-CN', options: { signed?: boolean; symbol?: boolean } = {}): string {
  const yuan = fenToYuan(Math.abs(fen));
  const [whole, dec] = yuan.split('.');
  const grouped = new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 0 }).format(BigInt(whole));
  const sign = fen < 0 ? '-' : options.signed && fen > 0 ? '+' : '';
  return `${sign}${options.symbol === false ? '' : '¥'}${grouped}.${dec}`;
}
