import { RECHARGE_PRESETS_FEN } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { checkRecharge, checkYuan, yuanBound } from '../src/components/money';
import { rechargeFenOf } from '../src/features/finance/RechargeDialog';

describe('the recharge amount (spec section 5: > 0, at most 2 decimals, not above 100000)', () => {
  it('reads typed yuan as integer fen, never through a float', () => {
    expect(checkRecharge('1000')).toEqual({ ok: true, fen: 100_000 });
    expect(checkRecharge('0.01')).toEqual({ ok: true, fen: 1 });
    expect(checkRecharge('12.5')).toEqual({ ok: true, fen: 1250 });
    expect(checkRecharge(' 19.99 ')).toEqual({ ok: true, fen: 1999 });
    // 0.1 + 0.2 and 1.005 * 100 are the classic float traps
    expect(checkRecharge('0.3')).toEqual({ ok: true, fen: 30 });
    expect(checkRecharge('1.15')).toEqual({ ok: true, fen: 115 });
    expect(checkRecharge('100000')).toEqual({ ok: true, fen: 10_000_000 });
    expect(checkRecharge('100000.00')).toEqual({ ok: true, fen: 10_000_000 });
    expect(checkRecharge('1,000.00')).toEqual({ ok: true, fen: 100_000 });
  });

  it('refuses 0, a negative amount and more than 100000 with the rechargeAmount message', () => {
    for (const text of ['0', '0.00', '-5', '-0.01', ' - 1', '100000.01', '100001', '99999999999999999'])
      expect(checkRecharge(text), text).toEqual({ ok: false, key: 'rechargeAmount' });
  });

  it('refuses a third decimal with twoDecimals and what is not a number with amountFormat', () => {
    expect(checkRecharge('12.345')).toEqual({ ok: false, key: 'twoDecimals' });
    expect(checkRecharge('0.001')).toEqual({ ok: false, key: 'twoDecimals' });
    for (const text of ['', 'abc', '1e3', '12.3.4', '¥10', '10元', '+5', 'NaN', 'Infinity', '0x10'])
      expect(checkRecharge(text), text).toEqual({ ok: false, key: 'amountFormat' });
  });

  it('the dialog asks for a preset or the free amount', () => {
    expect(RECHARGE_PRESETS_FEN.map((fen) => rechargeFenOf({ preset: String(fen) }))).toEqual([
      100_000, 200_000, 1_000_000,
    ]);
    expect(rechargeFenOf({ preset: 'custom', amount: '88.88' })).toBe(8888);
    expect(rechargeFenOf({ preset: 'custom', amount: '0' })).toBeNull();
    expect(rechargeFenOf({ preset: 'custom', amount: '1.001' })).toBeNull();
    expect(rechargeFenOf({ preset: 'custom' })).toBeNull();
    expect(rechargeFenOf({})).toBeNull();
  });
});

describe('other amounts typed in yuan', () => {
  it('an invoice amount is positive, 2 decimals, and at most what may be invoiced', () => {
    expect(checkYuan('50.10', { maxFen: 5010 })).toEqual({ ok: true, fen: 5010 });
    expect(checkYuan('50.11', { maxFen: 5010 })).toEqual({ ok: false, key: 'amountTooLarge' });
    expect(checkYuan('0')).toEqual({ ok: false, key: 'amountPositive' });
    expect(checkYuan('1.234')).toEqual({ ok: false, key: 'twoDecimals' });
    expect(checkYuan('-1')).toEqual({ ok: false, key: 'amountFormat' });
  });

  it('a low-balance threshold may be 0', () => {
    expect(checkYuan('0', { zero: true })).toEqual({ ok: true, fen: 0 });
    expect(checkYuan('100', { zero: true })).toEqual({ ok: true, fen: 10_000 });
  });

  it('a filter bound from the URL is fen, or no bound when unreadable', () => {
    expect(yuanBound('12.34')).toBe(1234);
    expect(yuanBound(5)).toBe(500);
    expect(yuanBound('')).toBeUndefined();
    expect(yuanBound(undefined)).toBeUndefined();
    expect(yuanBound('1e-7')).toBeUndefined();
    expect(yuanBound('1.005')).toBeUndefined();
  });
});

describe("an amount typed in yuan (a bill's, an invoice's): checkYuan", () => {
  it('reads fen exactly', () => {
    expect(checkYuan('150')).toEqual({ ok: true, fen: 15_000 });
    expect(checkYuan('0.1')).toEqual({ ok: true, fen: 10 });
    expect(checkYuan('0.29')).toEqual({ ok: true, fen: 29 });
    expect(checkYuan('1,000.05')).toEqual({ ok: true, fen: 100_005 });
    expect(checkYuan(' 19.99 ')).toEqual({ ok: true, fen: 1999 });
  });
  it('refuses 0, a sign, letters, a third decimal and too much, with the validation key', () => {
    expect(checkYuan('0')).toEqual({ ok: false, key: 'amountPositive' });
    expect(checkYuan('0.00')).toEqual({ ok: false, key: 'amountPositive' });
    expect(checkYuan('-1')).toEqual({ ok: false, key: 'amountFormat' });
    expect(checkYuan('1e3')).toEqual({ ok: false, key: 'amountFormat' });
    expect(checkYuan('')).toEqual({ ok: false, key: 'amountFormat' });
    expect(checkYuan('1.005')).toEqual({ ok: false, key: 'twoDecimals' });
    expect(checkYuan('99999999999999')).toEqual({ ok: false, key: 'amountTooLarge' });
  });
});
