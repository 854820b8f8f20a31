import { RECHARGE_MAX_FEN, yuanToFen } from '@marquee/protocol';
import type { TFunction } from 'i18next';

/**
 * Amounts typed in yuan, for every form and filter that takes money (the finance centre, the
 * bill dialog, and the selling pages after them): one reading, one set of messages.
 *
 * What a person types as an amount of yuan, read as fen (never a float: yuanToFen) with the
 * reason of a refusal as a key of the `validation` namespace (the messages the server answers
 * with, in three languages).
 */
export type AmountCheck = { ok: true; fen: number } | { ok: false; key: AmountRefusal };
export type AmountRefusal = 'amountFormat' | 'twoDecimals' | 'rechargeAmount' | 'amountPositive' | 'amountTooLarge';

/** A typed amount of yuan: digits with at most 2 decimals, greater than 0 unless `zero`. */
export function checkYuan(text: string, options: { zero?: boolean; maxFen?: number } = {}): AmountCheck {
  const parsed = yuanToFen(text);
  if (!parsed.ok) {
    if (parsed.reason === 'decimals') return { ok: false, key: 'twoDecimals' };
    if (parsed.reason === 'tooLarge') return { ok: false, key: 'amountTooLarge' };
    return { ok: false, key: 'amountFormat' };
  }
  if (parsed.fen === 0 && !options.zero) return { ok: false, key: 'amountPositive' };
  if (options.maxFen !== undefined && parsed.fen > options.maxFen) return { ok: false, key: 'amountTooLarge' };
  return parsed;
}

/**
 * A recharge of a typed amount (spec section 5): a number, greater than 0, at most 2 decimals,
 * not above 100000 yuan. '0', '-5', '1e3', '12.345', '100000.01' are refused.
 */
export function checkRecharge(text: string): AmountCheck {
  // A negative amount is a number, just not one a recharge takes.
  if (/^\s*-\s*\d/.test(text)) return { ok: false, key: 'rechargeAmount' };
  const parsed = yuanToFen(text);
  if (!parsed.ok) {
    if (parsed.reason === 'decimals') return { ok: false, key: 'twoDecimals' };
    if (parsed.reason === 'tooLarge') return { ok: false, key: 'rechargeAmount' };
    return { ok: false, key: 'amountFormat' };
  }
  if (parsed.fen <= 0 || parsed.fen > RECHARGE_MAX_FEN) return { ok: false, key: 'rechargeAmount' };
  return parsed;
}

/** An antd Form rule from an amount check (an empty field is the `required` rule's business). */
export function amountRule(check: (text: string) => AmountCheck, t: TFunction, params?: Record<string, unknown>) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (value === undefined || value === null || String(value).trim() === '') return;
      const result = check(String(value));
      if (!result.ok) throw new Error(t(result.key, { ns: 'validation', ...params }));
    },
  };
}

/** A filter bound typed in yuan (the URL's text) as fen; anything unreadable is no bound. */
export function yuanBound(text: unknown): number | undefined {
  if (text === undefined || text === null || text === '') return undefined;
  const parsed = yuanToFen(String(text));
  return parsed.ok ? parsed.fen : undefined;
}
