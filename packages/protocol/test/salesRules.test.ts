import { describe, expect, it } from 'vitest';
import {
  availabilityRequestSchema,
  couponSaveSchema,
  discountSchema,
  goodsSaveSchema,
  hoursSchema,
  orderRequestSchema,
  priceContractSaveSchema,
  slotPriceSchema,
  slotSaveSchema,
} from '../src/endpoints/sales.js';
import {
  ALL_HOURS,
  applyPercent,
  CONTRACT_STATES,
  CONTRACT_TRANSITIONS,
  COUPON_STATES,
  COUPON_TRANSITIONS,
  canMove,
  couponState,
  daysInclusive,
  discountToPct,
  GOODS_STATES,
  GOODS_TRANSITIONS,
  goodsState,
  hoursMask,
  hoursOfMask,
  hoursToPeriods,
  linePrice,
  orderAmounts,
  SALES_ORDER_STATES,
  SALES_ORDER_TRANSITIONS,
  SETTLEMENT_STATES,
  SETTLEMENT_TRANSITIONS,
  SLOT_PRICE_MAX_FEN,
  SYNC_STATES,
  SYNC_TRANSITIONS,
} from '../src/index.js';

/**
 * The state machines as literal tables: one row per `from` state, one column per `to` state
 * in the order of the *_STATES constant, 1 = the move is allowed. A change of a rule shows
 * here in review.
 */
function checkTable<S extends string>(
  states: readonly S[],
  table: Readonly<Record<S, readonly S[]>>,
  expected: Record<S, readonly (0 | 1)[]>,
) {
  // The table names every state as a `from`, and nothing else.
  expect(Object.keys(table).sort()).toEqual([...states].sort());
  expect(Object.keys(expected).sort()).toEqual([...states].sort());
  for (const from of states) {
    // Every target is a known state.
    for (const to of table[from]) expect(states).toContain(to);
    expect(expected[from]).toHaveLength(states.length);
    states.forEach((to, i) => {
      expect({ from, to, allowed: canMove(table, from, to) }).toEqual({ from, to, allowed: expected[from][i] === 1 });
    });
  }
}

describe('state machines (spec section 4) as tables', () => {
  it('sales orders', () => {
    expect(SALES_ORDER_STATES).toEqual(['unpaid', 'paid', 'cancelled', 'settled', 'toUpload', 'inProgress']);
    checkTable(SALES_ORDER_STATES, SALES_ORDER_TRANSITIONS, {
      //          unpaid paid cancelled settled toUpload inProgress
      unpaid: /*   */ [0, 1, 1, 0, 1, 0],
      paid: /*     */ [0, 0, 1, 0, 0, 1],
      cancelled: /**/ [0, 0, 0, 0, 0, 0],
      settled: /*  */ [0, 0, 0, 0, 0, 0],
      toUpload: /* */ [0, 1, 1, 0, 0, 0],
      inProgress: /**/ [0, 0, 1, 1, 0, 0],
    });
  });

  it('settlements', () => {
    expect(SETTLEMENT_STATES).toEqual(['toBePaid', 'paid', 'completed']);
    checkTable(SETTLEMENT_STATES, SETTLEMENT_TRANSITIONS, {
      //         toBePaid paid completed
      toBePaid: [0, 1, 0],
      paid: /**/ [0, 0, 1],
      completed: [0, 0, 0],
    });
  });

  it('goods', () => {
    expect(GOODS_STATES).toEqual(['onSale', 'soldOut', 'expired', 'offShelf']);
    checkTable(GOODS_STATES, GOODS_TRANSITIONS, {
      //        onSale soldOut expired offShelf
      onSale: /* */ [0, 1, 1, 1],
      soldOut: /**/ [1, 0, 1, 1],
      expired: /**/ [0, 0, 0, 1],
      offShelf: /**/ [1, 0, 0, 0],
    });
  });

  it('contracts', () => {
    expect(CONTRACT_STATES).toEqual(['signing', 'signed']);
    checkTable(CONTRACT_STATES, CONTRACT_TRANSITIONS, {
      //       signing signed
      signing: [0, 1],
      signed: [0, 0],
    });
  });

  it('e-signature sync', () => {
    expect(SYNC_STATES).toEqual(['unsynchronized', 'synchronizing', 'synchronized', 'failed']);
    checkTable(SYNC_STATES, SYNC_TRANSITIONS, {
      //               unsynchronized synchronizing synchronized failed
      unsynchronized: [0, 1, 0, 0],
      synchronizing: [0, 0, 1, 1],
      synchronized: [0, 0, 0, 0],
      failed: /*    */ [0, 1, 0, 0],
    });
  });

  it('coupons', () => {
    expect(COUPON_STATES).toEqual(['available', 'notStarted', 'exhausted', 'expired', 'disabled']);
    checkTable(COUPON_STATES, COUPON_TRANSITIONS, {
      //          available notStarted exhausted expired disabled
      available: [0, 0, 1, 1, 1],
      notStarted: [1, 0, 0, 0, 1],
      exhausted: [1, 0, 0, 1, 1],
      expired: /**/ [0, 0, 0, 0, 1],
      disabled: /**/ [1, 1, 1, 1, 0],
    });
  });

  it('an unknown state moves nowhere', () => {
    expect(canMove(SALES_ORDER_TRANSITIONS, 'nope' as never, 'paid')).toBe(false);
    expect(canMove(SALES_ORDER_TRANSITIONS, 'unpaid', 'nope' as never)).toBe(false);
  });
});

describe('couponState', () => {
  const c = { enabled: true, validFrom: '2026-06-01', validTo: '2026-06-30', used: 0, limit: 5 };
  const at = (iso: string) => new Date(iso);

  it('follows the validity dates, inclusive, in UTC', () => {
    expect(couponState(c, at('2026-05-31T23:59:59.999Z'))).toBe('notStarted');
    expect(couponState(c, at('2026-06-01T00:00:00Z'))).toBe('available');
    expect(couponState(c, at('2026-06-30T23:59:59.999Z'))).toBe('available');
    expect(couponState(c, at('2026-07-01T00:00:00Z'))).toBe('expired');
  });

  it("reads its dates as days of its enterprise's zone", () => {
    // Shanghai's 1 June begins at 16:00 UTC on 31 May, its 30 June ends at 16:00 UTC that day.
    expect(couponState(c, at('2026-05-31T15:59:59Z'), 'Asia/Shanghai')).toBe('notStarted');
    expect(couponState(c, at('2026-05-31T16:00:00Z'), 'Asia/Shanghai')).toBe('available');
    expect(couponState(c, at('2026-06-30T16:00:00Z'), 'Asia/Shanghai')).toBe('expired');
    // New York's 30 June lasts until 04:00 UTC on 1 July.
    expect(couponState(c, at('2026-07-01T03:59:59Z'), 'America/New_York')).toBe('available');
  });

  it('is exhausted when its uses reach the limit', () => {
    const now = at('2026-06-15T12:00:00Z');
    expect(couponState({ ...c, used: 4 }, now)).toBe('available');
    expect(couponState({ ...c, used: 5 }, now)).toBe('exhausted');
    expect(couponState({ ...c, used: 6 }, now)).toBe('exhausted');
  });

  it('disabled wins over everything; dates win over the limit', () => {
    expect(couponState({ ...c, enabled: false }, at('2026-06-15T00:00:00Z'))).toBe('disabled');
    expect(couponState({ ...c, enabled: false, used: 5 }, at('2027-01-01T00:00:00Z'))).toBe('disabled');
    expect(couponState({ ...c, used: 5 }, at('2026-07-01T00:00:00Z'))).toBe('expired');
    expect(couponState({ ...c, used: 5 }, at('2026-05-01T00:00:00Z'))).toBe('notStarted');
  });
});

describe('goodsState', () => {
  const g = { state: 'onSale' as const, endDate: '2026-06-30', soldOut: false };
  it('shows expired after its end date, soldOut when true, offShelf as stored', () => {
    expect(goodsState(g, new Date('2026-06-30T23:59:59Z'))).toBe('onSale');
    expect(goodsState(g, new Date('2026-07-01T00:00:00Z'))).toBe('expired');
    expect(goodsState({ ...g, soldOut: true }, new Date('2026-06-15T00:00:00Z'))).toBe('soldOut');
    expect(goodsState({ ...g, soldOut: true }, new Date('2026-07-01T00:00:00Z'))).toBe('expired');
    expect(goodsState({ ...g, state: 'offShelf' }, new Date('2026-06-15T00:00:00Z'))).toBe('offShelf');
    expect(goodsState({ ...g, state: 'offShelf', soldOut: true }, new Date('2027-01-01T00:00:00Z'))).toBe('offShelf');
  });
  it("ends with its last day in its enterprise's zone", () => {
    expect(goodsState(g, new Date('2026-06-30T15:59:59Z'), 'Asia/Shanghai')).toBe('onSale');
    expect(goodsState(g, new Date('2026-06-30T16:00:00Z'), 'Asia/Shanghai')).toBe('expired');
  });
});

describe('pricing', () => {
  it('applyPercent rounds half up', () => {
    expect(applyPercent(1, 50)).toBe(1); // 0.5
    expect(applyPercent(3, 50)).toBe(2); // 1.5
    expect(applyPercent(101, 50)).toBe(51); // 50.5
    expect(applyPercent(3, 15)).toBe(0); // 0.45
    expect(applyPercent(7, 15)).toBe(1); // 1.05
    expect(applyPercent(1001, 85)).toBe(851); // 850.85
    expect(applyPercent(1000, 100)).toBe(1000);
    expect(applyPercent(1000, 0)).toBe(0);
    expect(applyPercent(0, 85)).toBe(0);
  });

  it('applyPercent is exact for huge amounts (no float on the way)', () => {
    const max = Number.MAX_SAFE_INTEGER; // 9007199254740991
    expect(applyPercent(max, 85)).toBe(7_656_119_366_529_842); // 7656119366529842.35
    expect(applyPercent(max, 15)).toBe(1_351_079_888_211_149); // 1351079888211148.65
    expect(applyPercent(max, 50)).toBe(4_503_599_627_370_496); // 4503599627370495.5, half up
    expect(applyPercent(max - 1, 50)).toBe(4_503_599_627_370_495);
    expect(applyPercent(max, 100)).toBe(max);
  });

  it('linePrice: CPT by rotations x screens x days x hours, CPM by thousands of impressions', () => {
    expect(
      linePrice({
        method: 'cpt',
        unitPrice: 1500,
        rotations: 2,
        screens: 3,
        days: 7,
        hoursPerDay: 4,
        impressionsK: null,
      }),
    ).toBe(1500 * 2 * 3 * 7 * 4);
    expect(linePrice({ method: 'cpt', unitPrice: 1, rotations: 1, screens: 1, days: 1, hoursPerDay: 24 })).toBe(24);
    // CPM ignores the screen-hours: the price is per thousand impressions bought.
    expect(
      linePrice({
        method: 'cpm',
        unitPrice: 2500,
        rotations: 5,
        screens: 100,
        days: 30,
        hoursPerDay: 24,
        impressionsK: 12,
      }),
    ).toBe(30_000);
    expect(linePrice({ method: 'cpm', unitPrice: 2500, rotations: 1, screens: 1, days: 1, hoursPerDay: 1 })).toBe(0);
    expect(
      linePrice({ method: 'cpt', unitPrice: SLOT_PRICE_MAX_FEN, rotations: 1, screens: 1, days: 1, hoursPerDay: 1 }),
    ).toBe(9_999_900);
  });

  it('orderAmounts: the list price, then the price contract, then the coupon (each rounded half up)', () => {
    const one = { method: 'cpt' as const, unitPrice: 3, rotations: 1, screens: 1, days: 1, hoursPerDay: 1 };
    // 3 x 70% = 2.1 -> 2; 2 x 75% = 1.5 -> 2. The other order would give 3 x 75% = 2.25 -> 2, x 70% = 1.4 -> 1.
    expect(orderAmounts([one], 70, 75)).toEqual({ listAmount: 3, afterContract: 2, amount: 2, lines: [3] });
    // Two roundings, not one: 1 x 50% = 0.5 -> 1, x 50% -> 1 (one pass at 25% would be 0).
    expect(orderAmounts([{ ...one, unitPrice: 1 }], 50, 50).amount).toBe(1);
    // No coupon: the contract's amount; no contract: pct 100.
    expect(orderAmounts([one], 70, null)).toEqual({ listAmount: 3, afterContract: 2, amount: 2, lines: [3] });
    const lines = [
      { method: 'cpt' as const, unitPrice: 1001, rotations: 1, screens: 1, days: 1, hoursPerDay: 1 },
      {
        method: 'cpm' as const,
        unitPrice: 2000,
        rotations: 1,
        screens: 50,
        days: 10,
        hoursPerDay: 24,
        impressionsK: 3,
      },
    ];
    expect(orderAmounts(lines, 100, null)).toEqual({
      listAmount: 7001,
      afterContract: 7001,
      amount: 7001,
      lines: [1001, 6000],
    });
    // 7001 x 85% = 5950.85 -> 5951; x 90% = 5355.9 -> 5356.
    expect(orderAmounts(lines, 85, 90)).toEqual({
      listAmount: 7001,
      afterContract: 5951,
      amount: 5356,
      lines: [1001, 6000],
    });
    // A coupon at 0 makes the order free; an empty order costs nothing.
    expect(orderAmounts(lines, 85, 0).amount).toBe(0);
    expect(orderAmounts([], 85, 90)).toEqual({ listAmount: 0, afterContract: 0, amount: 0, lines: [] });
  });

  it('discountToPct: two decimals at most, 0..1', () => {
    expect(discountToPct(0.85)).toBe(85);
    expect(discountToPct(0.855)).toBeNull();
    expect(discountToPct(1.2)).toBeNull();
    expect(discountToPct(0)).toBe(0);
    expect(discountToPct(1)).toBe(100);
    expect(discountToPct(0.07)).toBe(7); // 7.000000000000001 in floats
    expect(discountToPct(0.29)).toBe(29); // 28.999999999999996 in floats
    expect(discountToPct(0.5)).toBe(50);
    expect(discountToPct(-0.01)).toBeNull();
    expect(discountToPct(Number.NaN)).toBeNull();
    expect(discountToPct(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('days and hours', () => {
  it('daysInclusive counts both ends (UTC calendar days)', () => {
    expect(daysInclusive('2026-06-01', '2026-06-01')).toBe(1);
    expect(daysInclusive('2026-06-01', '2026-06-30')).toBe(30);
    expect(daysInclusive('2026-02-27', '2026-03-01')).toBe(3);
    expect(daysInclusive('2028-02-27', '2028-03-01')).toBe(4); // leap year
    expect(daysInclusive('2026-01-01', '2026-12-31')).toBe(365);
    expect(daysInclusive('2026-03-28', '2026-03-30')).toBe(3); // a DST weekend elsewhere changes nothing
  });

  it('hoursToPeriods: contiguous hours as periods, all day as none', () => {
    expect(hoursToPeriods(ALL_HOURS)).toEqual([]);
    expect(hoursToPeriods([8, 9, 10, 18])).toEqual([
      { start: '08:00', end: '11:00' },
      { start: '18:00', end: '19:00' },
    ]);
    expect(hoursToPeriods([23])).toEqual([{ start: '23:00', end: '23:59' }]);
    expect(hoursToPeriods([0])).toEqual([{ start: '00:00', end: '01:00' }]);
    expect(hoursToPeriods([18, 10, 9, 8, 9])).toEqual([
      { start: '08:00', end: '11:00' },
      { start: '18:00', end: '19:00' },
    ]);
    expect(hoursToPeriods([0, 1, 22, 23])).toEqual([
      { start: '00:00', end: '02:00' },
      { start: '22:00', end: '23:59' },
    ]);
    expect(hoursToPeriods(ALL_HOURS.filter((h) => h !== 12))).toEqual([
      { start: '00:00', end: '12:00' },
      { start: '13:00', end: '23:59' },
    ]);
  });

  it('hoursMask and hoursOfMask round trip', () => {
    expect(hoursMask([])).toBe(0);
    expect(hoursMask([0])).toBe(1);
    expect(hoursMask([23])).toBe(1 << 23);
    expect(hoursMask(ALL_HOURS)).toBe(0xffffff);
    expect(hoursMask([8, 9, 10, 18])).toBe(0x40700);
    expect(hoursOfMask(0)).toEqual([]);
    expect(hoursOfMask(0xffffff)).toEqual([...ALL_HOURS]);
    for (const hours of [[], [0], [23], [8, 9, 10, 18], [0, 5, 11, 17, 23], [...ALL_HOURS]]) {
      expect(hoursOfMask(hoursMask(hours))).toEqual(hours);
    }
    // Every single hour, and the mask of every second hour.
    for (const h of ALL_HOURS) expect(hoursOfMask(hoursMask([h]))).toEqual([h]);
    const even = ALL_HOURS.filter((h) => h % 2 === 0);
    expect(hoursOfMask(hoursMask(even))).toEqual(even);
  });
});

describe('the schemas refuse', () => {
  const messages = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
    r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

  it('a discount with 3 decimals, or outside 0..1', () => {
    expect(discountSchema.safeParse(0.85).success).toBe(true);
    expect(discountSchema.safeParse(0).success).toBe(true);
    expect(discountSchema.safeParse(1).success).toBe(true);
    expect(messages(discountSchema.safeParse(0.855))).toEqual([':validation.discount']);
    expect(discountSchema.safeParse(1.2).success).toBe(false);
    expect(discountSchema.safeParse(-0.1).success).toBe(false);
    const coupon = {
      name: 'Spring',
      discount: 0.855,
      limit: 10,
      validFrom: '2026-06-01',
      validTo: '2026-06-30',
    };
    expect(messages(couponSaveSchema.safeParse(coupon))).toEqual(['discount:validation.discount']);
    expect(couponSaveSchema.safeParse({ ...coupon, discount: 0.85 }).success).toBe(true);
  });

  it('a CPT price of 0 or 99999.01 yuan', () => {
    expect(slotPriceSchema.safeParse(1).success).toBe(true);
    expect(slotPriceSchema.safeParse(9_999_900).success).toBe(true);
    expect(messages(slotPriceSchema.safeParse(0))).toEqual([':validation.cptPrice']);
    expect(messages(slotPriceSchema.safeParse(9_999_901))).toEqual([':validation.cptPrice']);
    expect(slotPriceSchema.safeParse(1.5).success).toBe(false);
    const slot = {
      name: 'Lobby',
      width: 1920,
      height: 1080,
      durationSec: 15,
      salesMethod: 'cpt',
      cptPrice: 1000,
      maxRotations: 10,
      targets: { deviceIds: ['d1'] },
    };
    expect(slotSaveSchema.safeParse(slot).success).toBe(true);
    expect(messages(slotSaveSchema.safeParse({ ...slot, cptPrice: 0 }))).toEqual(['cptPrice:validation.cptPrice']);
    expect(messages(slotSaveSchema.safeParse({ ...slot, cptPrice: 9_999_901 }))).toEqual([
      'cptPrice:validation.cptPrice',
    ]);
    expect(messages(slotSaveSchema.safeParse({ ...slot, cptPrice: null }))).toEqual(['cptPrice:validation.required']);
  });

  it('an end before the start', () => {
    const period = { startDate: '2026-06-10', endDate: '2026-06-09' };
    expect(messages(availabilityRequestSchema.safeParse({ slotId: 's1', ...period }))).toEqual([
      'endDate:validation.periodEndBeforeStart',
    ]);
    expect(availabilityRequestSchema.safeParse({ slotId: 's1', ...period, endDate: '2026-06-10' }).success).toBe(true);
    expect(messages(orderRequestSchema.safeParse({ slotId: 's1', ...period, lines: [{ slotId: 's1' }] }))).toEqual([
      'endDate:validation.periodEndBeforeStart',
    ]);
    expect(
      messages(goodsSaveSchema.safeParse({ name: 'G', kind: 'single', ...period, lines: [{ slotId: 's1' }] })),
    ).toEqual(['endDate:validation.periodEndBeforeStart']);
    const validity = { validFrom: '2026-06-10', validTo: '2026-06-09' };
    expect(messages(couponSaveSchema.safeParse({ name: 'C', discount: 0.9, limit: 1, ...validity }))).toEqual([
      'validTo:validation.periodEndBeforeStart',
    ]);
    expect(
      messages(priceContractSaveSchema.safeParse({ name: 'P', advertiserId: 'a1', discount: 0.9, ...validity })),
    ).toEqual(['validTo:validation.periodEndBeforeStart']);
  });

  it('a programme with one line (and a single with two, and a slot twice)', () => {
    const base = { name: 'G', startDate: '2026-06-01', endDate: '2026-06-30' };
    expect(messages(goodsSaveSchema.safeParse({ ...base, kind: 'programme', lines: [{ slotId: 's1' }] }))).toEqual([
      'lines:validation.goodsProgramme',
    ]);
    expect(
      goodsSaveSchema.safeParse({ ...base, kind: 'programme', lines: [{ slotId: 's1' }, { slotId: 's2' }] }).success,
    ).toBe(true);
    expect(
      messages(goodsSaveSchema.safeParse({ ...base, kind: 'single', lines: [{ slotId: 's1' }, { slotId: 's2' }] })),
    ).toEqual(['lines:validation.goodsSingle']);
    expect(
      messages(goodsSaveSchema.safeParse({ ...base, kind: 'programme', lines: [{ slotId: 's1' }, { slotId: 's1' }] })),
    ).toEqual(['lines:validation.duplicate']);
  });

  it('duplicate hours', () => {
    expect(hoursSchema.safeParse([8, 9, 18]).success).toBe(true);
    expect(hoursSchema.safeParse([]).success).toBe(true);
    expect(messages(hoursSchema.safeParse([8, 8]))).toEqual([':validation.duplicate']);
    expect(hoursSchema.safeParse([24]).success).toBe(false);
    expect(hoursSchema.safeParse([-1]).success).toBe(false);
    expect(hoursSchema.safeParse([1.5]).success).toBe(false);
    const order = { slotId: 's1', startDate: '2026-06-01', endDate: '2026-06-01', lines: [{ slotId: 's1' }] };
    expect(messages(orderRequestSchema.safeParse({ ...order, hours: [9, 10, 9] }))).toEqual([
      'hours:validation.duplicate',
    ]);
    expect(
      messages(
        goodsSaveSchema.safeParse({
          name: 'G',
          kind: 'single',
          startDate: order.startDate,
          endDate: order.endDate,
          lines: order.lines,
          hours: [3, 3],
        }),
      ),
    ).toEqual(['hours:validation.duplicate']);
  });
});
