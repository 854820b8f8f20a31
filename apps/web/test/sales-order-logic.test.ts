import { describe, expect, it } from 'vitest';
import {
  type ComposerState,
  canCancel,
  cancelRefund,
  canDrawContract,
  canPay,
  chartGranularity,
  clampDate,
  composerRequest,
  conflictLines,
  countdownText,
  deliveredPct,
  HOUR_PRESETS,
  holdLeft,
  needsMaterials,
  playsPerDay,
  presetOf,
  presetWithin,
  quoteDiscounts,
  settlementMoves,
  toggleHour,
} from '../src/features/sales/orderLogic';

const base: ComposerState = {
  advertiserId: 'adv-1',
  goodsId: 'g-1',
  slotId: null,
  startDate: '2026-12-01',
  endDate: '2026-12-07',
  hours: [...HOUR_PRESETS.allDay],
  lines: [{ slotId: 's-1', salesMethod: 'cpt', deviceIds: [], rotations: 2, impressionsK: null }],
  couponId: null,
};

describe('hours', () => {
  it('toggles an hour and keeps them sorted', () => {
    expect(toggleHour([9, 3], 5)).toEqual([3, 5, 9]);
    expect(toggleHour([3, 5, 9], 5)).toEqual([3, 9]);
  });
  it('names the presets and keeps a preset within the hours the goods offers', () => {
    expect(HOUR_PRESETS.daytime).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(HOUR_PRESETS.evening).toEqual([18, 19, 20, 21, 22, 23]);
    expect(presetOf([23, 22, 21, 20, 19, 18])).toBe('evening');
    expect(presetOf([8, 9])).toBeNull();
    expect(presetWithin('daytime', [6, 7, 8, 9])).toEqual([8, 9]);
    expect(presetWithin('allDay', [])).toHaveLength(24);
  });
  it('charts per hour up to 3 days, per day beyond', () => {
    expect(chartGranularity('2026-12-01', '2026-12-03')).toBe('hour');
    expect(chartGranularity('2026-12-01', '2026-12-04')).toBe('day');
  });
});

describe('order actions by state', () => {
  const o = (state: string, extra = {}) =>
    ({
      state,
      hasPermission: true,
      settlementState: null,
      contractState: null,
      frozenAmount: 5_000,
      ...extra,
    }) as never;
  it('pays only an unpaid order the caller may act on', () => {
    expect(canPay(o('unpaid'))).toBe(true);
    expect(canPay(o('paid'))).toBe(false);
    expect(canPay(o('unpaid', { hasPermission: false }))).toBe(false);
  });
  it('cancels what the state machine lets go to cancelled, not once settled', () => {
    for (const s of ['unpaid', 'toUpload', 'paid', 'inProgress']) expect(canCancel(o(s))).toBe(true);
    for (const s of ['settled', 'cancelled']) expect(canCancel(o(s))).toBe(false);
    expect(canCancel(o('inProgress', { settlementState: 'paid' }))).toBe(false);
  });
  it('says what cancelling gives back', () => {
    expect(cancelRefund(o('unpaid'))).toEqual({ kind: 'release' });
    expect(cancelRefund(o('paid'))).toEqual({ kind: 'all', amount: 5_000 });
    expect(cancelRefund(o('inProgress'))).toEqual({ kind: 'undelivered', frozen: 5_000 });
  });
  it('draws up a contract for an order paid or later without one', () => {
    expect(canDrawContract(o('paid'))).toBe(true);
    expect(canDrawContract(o('unpaid'))).toBe(false);
    expect(canDrawContract(o('paid', { contractState: 'signing' }))).toBe(false);
  });
  it('asks for materials of a line without an ad or whose ad failed review', () => {
    expect(needsMaterials(o('toUpload'), { adId: null, adReviewState: null })).toBe(true);
    expect(needsMaterials(o('paid'), { adId: 'a', adReviewState: 'failed' })).toBe(true);
    expect(needsMaterials(o('paid'), { adId: 'a', adReviewState: 'passed' })).toBe(false);
    expect(needsMaterials(o('unpaid'), { adId: null, adReviewState: null })).toBe(false);
  });
  it('counts the hold down', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    expect(holdLeft('2026-12-01T01:02:03Z', now)).toBe(3_723_000);
    expect(holdLeft('2026-11-30T00:00:00Z', now)).toBe(0);
    expect(holdLeft(null, now)).toBe(0);
    expect(countdownText(3_723_000)).toBe('1:02:03');
    expect(countdownText(90_000_000)).toBe('25:00:00');
  });
});

describe('the composer request', () => {
  it('builds the order request: all 24 hours sent as none, staff name the advertiser', () => {
    const r = composerRequest(base, true);
    expect(r).toEqual({
      ok: true,
      request: {
        advertiserId: 'adv-1',
        goodsId: 'g-1',
        startDate: '2026-12-01',
        endDate: '2026-12-07',
        hours: [],
        lines: [{ slotId: 's-1', deviceIds: [], rotations: 2 }],
        couponId: null,
      },
    });
    const self = composerRequest({ ...base, hours: [20, 8] }, false);
    expect(self.ok && 'advertiserId' in self.request).toBe(false);
    expect(self.ok && self.request.hours).toEqual([8, 20]);
  });
  it('says what is missing', () => {
    expect(composerRequest({ ...base, advertiserId: null }, true)).toEqual({ ok: false, missing: 'advertiser' });
    expect(composerRequest({ ...base, goodsId: null }, true)).toEqual({ ok: false, missing: 'goods' });
    expect(composerRequest({ ...base, endDate: '2026-11-30' }, true)).toEqual({ ok: false, missing: 'period' });
    expect(composerRequest({ ...base, hours: [] }, true)).toEqual({ ok: false, missing: 'hours' });
    const cpm = { ...base, lines: [{ ...base.lines[0], salesMethod: 'cpm' as const, impressionsK: null }] };
    expect(composerRequest(cpm, true)).toEqual({ ok: false, missing: 'impressions' });
    const cpmOk = composerRequest({ ...cpm, lines: [{ ...cpm.lines[0], impressionsK: 12 }] }, true);
    expect(cpmOk.ok && cpmOk.request.lines[0].impressionsK).toBe(12);
  });
  it('orders a slot directly', () => {
    const r = composerRequest({ ...base, goodsId: null, slotId: 's-1' }, false);
    expect(r.ok && r.request.slotId).toBe('s-1');
    expect(r.ok && 'goodsId' in r.request).toBe(false);
  });
  it('clamps a day into the goods period', () => {
    expect(clampDate('2026-11-01', '2026-12-01', '2026-12-31')).toBe('2026-12-01');
    expect(clampDate('2027-01-05', '2026-12-01', '2026-12-31')).toBe('2026-12-31');
    expect(clampDate('2026-12-05', '2026-12-01', '2026-12-31')).toBe('2026-12-05');
  });
});

describe('the quote', () => {
  const line = (bookable: number, rotations: number, method: 'cpt' | 'cpm' = 'cpt') =>
    ({ slotName: 'Lobby', salesMethod: method, bookable, rotations }) as never;
  it('finds the lines that cannot book their rotations', () => {
    expect(conflictLines({ lines: [line(3, 2), line(1, 2), line(0, 1, 'cpm')] })).toHaveLength(1);
  });
  it('splits the discounts as orderAmounts applies them (contract first, then coupon)', () => {
    expect(
      quoteDiscounts({
        listAmount: 10_000,
        amount: 7_650,
        priceContract: { id: 'p', name: 'P', discount: 0.9 },
        coupon: { id: 'c', name: 'C', discount: 0.85 },
      }),
    ).toEqual({ contract: 1_000, coupon: 1_350 });
    expect(
      quoteDiscounts({
        listAmount: 10_000,
        amount: 8_500,
        priceContract: null,
        coupon: { id: 'c', name: 'C', discount: 0.85 },
      }),
    ).toEqual({ contract: 0, coupon: 1_500 });
    expect(quoteDiscounts({ listAmount: 10_000, amount: 10_000, priceContract: null, coupon: null })).toEqual({
      contract: 0,
      coupon: 0,
    });
  });
});

describe('the settlement', () => {
  it('states billed, credited and released', () => {
    expect(settlementMoves({ frozenAmount: 10_000, billedAmount: 7_000, creditAmount: 500 })).toEqual({
      billed: 7_000,
      credited: 500,
      released: 3_000,
    });
  });
  it('sums plays per day and the delivery share', () => {
    expect(
      playsPerDay([
        { day: '2026-12-02', expectedPlays: 10, deliveredPlays: 8 },
        { day: '2026-12-01', expectedPlays: 5, deliveredPlays: 5 },
        { day: '2026-12-02', expectedPlays: 10, deliveredPlays: 10 },
      ]),
    ).toEqual([
      { day: '2026-12-01', expected: 5, delivered: 5 },
      { day: '2026-12-02', expected: 20, delivered: 18 },
    ]);
    expect(deliveredPct(3, 2)).toBe(66.7);
    expect(deliveredPct(0, 0)).toBe(100);
  });
});

describe('the sales looks', () => {
  it('writes hours as ranges and discounts as each language says them', async () => {
    const { initI18n } = await import('../src/i18n');
    const { discountText, formatHours } = await import('../src/features/sales/salesLook');
    await initI18n('en-US');
    expect(formatHours([8, 9, 10, 11, 18, 19, 20, 21])).toBe('08:00–12:00, 18:00–22:00');
    expect(formatHours([23])).toBe('23:00–24:00');
    expect(formatHours([])).toBe('All day');
    expect(discountText(0.85)).toBe('15% off');
    expect(discountText(1)).toBe('No discount');
    expect(discountText(0.85, 'zh-CN')).toBe('8.5折');
    expect(discountText(0.8, 'zh-CN')).toBe('8折');
  });
});
