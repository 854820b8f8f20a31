import { STORAGE_PACK_BYTES } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import {
  balanceBlock,
  chooseTerm,
  DAY_MS,
  daysLeft,
  detailPath,
  expiringSoon,
  groupByKind,
  lowestMonthly,
  orderOpen,
  orderPath,
  orderShownState,
  payPath,
  priceRowsOf,
  pricesChanged,
  pricesOf,
  purchaseOf,
  quotaAfter,
  shortfall,
  sortedTerms,
  usedPercent,
} from '../src/features/market/marketLogic';

describe('lowest price per month', () => {
  it('takes the cheapest term per month, rounded to the nearest fen', () => {
    expect(
      lowestMonthly([
        { months: 1, price: 1_000 },
        { months: 3, price: 2_700 },
        { months: 12, price: 9_600 },
      ]),
    ).toEqual({ perMonth: 800, months: 12 });
    // ¥10.00 for 3 months is ¥3.33 a month; ¥20.00 for 3 months ¥6.67.
    expect(lowestMonthly([{ months: 3, price: 1_000 }])).toEqual({ perMonth: 333, months: 3 });
    expect(lowestMonthly([{ months: 3, price: 2_000 }])).toEqual({ perMonth: 667, months: 3 });
  });
  it('prefers the shorter term on a tie and compares exact rates, not rounded ones', () => {
    expect(
      lowestMonthly([
        { months: 6, price: 6_000 },
        { months: 1, price: 1_000 },
      ]),
    ).toEqual({ perMonth: 1_000, months: 1 });
    // 1001/3 = 333.67 and 1000/3 = 333.33 both round near; the cheaper exact one wins.
    expect(
      lowestMonthly([
        { months: 3, price: 1_001 },
        { months: 6, price: 2_000 },
      ]),
    ).toEqual({ perMonth: 333, months: 6 });
  });
  it('has none without a usable price', () => {
    expect(lowestMonthly([])).toBeNull();
    expect(lowestMonthly([{ months: 0, price: 100 }])).toBeNull();
    expect(lowestMonthly([{ months: 1, price: 1.5 }])).toBeNull();
  });
});

describe('catalogue and terms', () => {
  it('groups products by kind in the market order, leaving empty kinds out', () => {
    const products = [
      { id: 'a', kind: 'dataCard' as const },
      { id: 'b', kind: 'devicePoints' as const },
      { id: 'c', kind: 'dataCard' as const },
    ];
    expect(groupByKind(products)).toEqual([
      { kind: 'devicePoints', products: [{ id: 'b', kind: 'devicePoints' }] },
      {
        kind: 'dataCard',
        products: [
          { id: 'a', kind: 'dataCard' },
          { id: 'c', kind: 'dataCard' },
        ],
      },
    ]);
    expect(groupByKind([])).toEqual([]);
  });
  it('sorts the terms and keeps only those sold', () => {
    expect(
      sortedTerms([
        { months: 12, price: 3 },
        { months: 2, price: 9 },
        { months: 1, price: 1 },
      ]),
    ).toEqual([
      { months: 1, price: 1 },
      { months: 12, price: 3 },
    ]);
  });
  it('chooses the wanted term when offered, else the shortest', () => {
    const prices = [
      { months: 12, price: 100 },
      { months: 3, price: 40 },
    ];
    expect(chooseTerm(prices, 12)).toBe(12);
    expect(chooseTerm(prices, 6)).toBe(3);
    expect(chooseTerm(prices)).toBe(3);
    expect(chooseTerm([])).toBeNull();
  });
});

describe('expiry', () => {
  const now = Date.parse('2026-11-28T00:00:00.000Z');
  it('counts whole days up, negative once past, none without an expiry', () => {
    expect(daysLeft('2026-11-28T01:00:00.000Z', now)).toBe(1);
    expect(daysLeft(new Date(now + 15 * DAY_MS).toISOString(), now)).toBe(15);
    expect(daysLeft('2026-11-26T00:00:00.000Z', now)).toBe(-2);
    expect(daysLeft(null, now)).toBeNull();
    expect(daysLeft('soon', now)).toBeNull();
  });
  it('warns under 15 days, not once expired', () => {
    expect(expiringSoon(new Date(now + 14 * DAY_MS).toISOString(), now)).toBe(true);
    expect(expiringSoon(new Date(now + 15 * DAY_MS).toISOString(), now)).toBe(false);
    expect(expiringSoon(new Date(now - DAY_MS).toISOString(), now)).toBe(false);
    expect(expiringSoon(null, now)).toBe(false);
  });
});

describe('the purchase a detail page makes', () => {
  const devices = { id: 'p1', kind: 'devicePoints' as const };
  const cards = { id: 'p2', kind: 'dataCard' as const };
  const packs = { id: 'p3', kind: 'storagePack' as const };
  const none = { deviceIds: [], cardIds: [], quantity: 1, autoRenew: true };
  it('sends only the kind’s subjects, once each', () => {
    expect(
      purchaseOf({ ...none, product: devices, months: 12, deviceIds: ['d1', 'd2', 'd1'], cardIds: ['c1'] }),
    ).toEqual({
      ok: true,
      request: { productId: 'p1', months: 12, autoRenew: true, deviceIds: ['d1', 'd2'] },
    });
    expect(purchaseOf({ ...none, product: cards, months: 1, cardIds: ['c1'], autoRenew: false })).toEqual({
      ok: true,
      request: { productId: 'p2', months: 1, autoRenew: false, cardIds: ['c1'] },
    });
    expect(purchaseOf({ ...none, product: packs, months: 6, quantity: 3 })).toEqual({
      ok: true,
      request: { productId: 'p3', months: 6, autoRenew: true, quantity: 3 },
    });
  });
  it('says what is missing', () => {
    expect(purchaseOf({ ...none, product: devices, months: null, deviceIds: ['d1'] })).toEqual({
      ok: false,
      reason: 'term',
    });
    expect(purchaseOf({ ...none, product: devices, months: 1 })).toEqual({ ok: false, reason: 'nothing' });
    expect(purchaseOf({ ...none, product: cards, months: 1, deviceIds: ['d1'] })).toEqual({
      ok: false,
      reason: 'nothing',
    });
    const many = Array.from({ length: 501 }, (_, i) => `d${i}`);
    expect(purchaseOf({ ...none, product: devices, months: 1, deviceIds: many })).toEqual({
      ok: false,
      reason: 'tooMany',
    });
    for (const quantity of [null, 0, 101, 1.5])
      expect(purchaseOf({ ...none, product: packs, months: 1, quantity })).toEqual({ ok: false, reason: 'quantity' });
  });
});

describe('paying and the quota', () => {
  it('pays with the balance only when it covers the total', () => {
    expect(balanceBlock(10_000, 10_000)).toBeNull();
    expect(balanceBlock(9_999, 10_000)).toBe('insufficient');
    expect(balanceBlock(undefined, 10_000)).toBe('noQuote');
    expect(shortfall(9_999, 10_000)).toBe(1);
    expect(shortfall(20_000, 10_000)).toBe(0);
  });
  it('adds packs to the quota and shows the share used', () => {
    expect(quotaAfter(STORAGE_PACK_BYTES, 2, STORAGE_PACK_BYTES)).toBe(3 * STORAGE_PACK_BYTES);
    expect(quotaAfter(100, -1, 50)).toBe(100);
    expect(usedPercent(50, 200)).toBe(25);
    expect(usedPercent(199, 200)).toBe(99);
    expect(usedPercent(300, 200)).toBe(100);
    expect(usedPercent(1, 0)).toBe(100);
    expect(usedPercent(0, 0)).toBe(0);
  });
});

describe('the catalogue dialog’s prices', () => {
  it('reads yuan as fen, by months ascending', () => {
    expect(
      pricesOf([
        { months: 12, yuan: '1,200' },
        { months: 1, yuan: '99.9' },
      ]),
    ).toEqual({
      ok: true,
      prices: [
        { months: 1, price: 9_990 },
        { months: 12, price: 120_000 },
      ],
    });
  });
  it('refuses a missing term or amount, a term twice, a bad amount', () => {
    expect(pricesOf([])).toEqual({ ok: false, key: 'required', row: 0 });
    expect(pricesOf([{ months: 1, yuan: ' ' }])).toEqual({ ok: false, key: 'required', row: 0 });
    expect(
      pricesOf([
        { months: 1, yuan: '1' },
        { months: 1, yuan: '2' },
      ]),
    ).toEqual({ ok: false, key: 'duplicate', row: 1 });
    expect(pricesOf([{ months: 3, yuan: '1.234' }])).toEqual({ ok: false, key: 'twoDecimals', row: 0 });
    expect(pricesOf([{ months: 3, yuan: '0' }])).toEqual({ ok: false, key: 'amountPositive', row: 0 });
    expect(pricesOf([{ months: 3, yuan: '-1' }])).toEqual({ ok: false, key: 'amountFormat', row: 0 });
  });
  it('shows a product’s prices as rows and sees a change', () => {
    const prices = [
      { months: 12, price: 120_000 },
      { months: 1, price: 9_990 },
    ];
    expect(priceRowsOf(prices)).toEqual([
      { months: 1, yuan: '99.90' },
      { months: 12, yuan: '1200.00' },
    ]);
    const back = pricesOf(priceRowsOf(prices));
    expect(back.ok && pricesChanged(prices, back.prices)).toBe(false);
    expect(pricesChanged(prices, [{ months: 1, price: 9_990 }])).toBe(true);
    expect(
      pricesChanged(prices, [
        { months: 1, price: 9_990 },
        { months: 12, price: 120_001 },
      ]),
    ).toBe(true);
  });
});

describe('orders and paths', () => {
  it('shows an unpaid order under offline review as such, and only an open one is paid or cancelled', () => {
    expect(orderShownState({ state: 'unpaid', payState: 'review' })).toBe('review');
    expect(orderShownState({ state: 'unpaid', payState: 'unpaid' })).toBe('unpaid');
    expect(orderShownState({ state: 'paid', payState: 'paid' })).toBe('paid');
    expect(orderOpen({ state: 'unpaid', payState: 'unpaid' })).toBe(true);
    expect(orderOpen({ state: 'unpaid', payState: 'review' })).toBe(false);
    expect(orderOpen({ state: 'cancelled', payState: 'closed' })).toBe(false);
  });
  it('builds the pages’ addresses', () => {
    expect(detailPath({ id: 'p 1' })).toBe('/shop/detail?id=p+1');
    expect(detailPath({ kind: 'devicePoints' }, { expiring: '1' })).toBe('/shop/detail?kind=devicePoints&expiring=1');
    expect(orderPath('o/1')).toBe('/shop/order?id=o%2F1');
    expect(payPath('pay-1')).toBe('/pay?id=pay-1');
  });
});
