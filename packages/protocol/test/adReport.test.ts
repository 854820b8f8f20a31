import { describe, expect, it } from 'vitest';
import {
  dayLoops,
  type ExpectedAd,
  expectedOnDay,
  expectedPlays,
  fullRate,
  liveSeconds,
  rangeDays,
  reconcile,
  reportRange,
  round2,
  UNDER_DELIVERY_PCT,
} from '../src/index.js';

const DAY = '2026-06-15';
const T0 = Date.parse(`${DAY}T00:00:00Z`);
const H = 3_600_000;
let seq = 0;
function ad(id: string, extra: Partial<ExpectedAd> = {}): ExpectedAd {
  return {
    id,
    type: 'common',
    strategy: 'perLoop',
    playsMin: 1,
    periods: [],
    liveFrom: T0 - 24 * H,
    liveUntil: T0 + 48 * H,
    materialsPerPlay: 1,
    createdAt: ++seq,
    ...extra,
  };
}

describe('fullRate (spec section 9)', () => {
  it.each([
    { counts: [], full: 8, rate: null, why: 'no day' },
    { counts: [0, 0], full: 8, rate: null, why: 'no valid day' },
    { counts: [8, 8, 8], full: 8, rate: 100, why: 'full every day' },
    { counts: [4, 8], full: 8, rate: 75, why: '(4 + 8) / (2 x 8)' },
    { counts: [4, 0, 8], full: 8, rate: 75, why: 'a day without plays is not a valid day' },
    { counts: [12, 4], full: 8, rate: 75, why: 'a day above the standard counts as full' },
    { counts: [1], full: 3, rate: 33.33, why: 'two decimals' },
    { counts: [2], full: 3, rate: 66.67, why: 'rounded half up' },
    { counts: [1.005], full: 1, rate: 100, why: 'capped' },
    { counts: [5], full: 10, rate: 50, why: 'another full count' },
    { counts: [3], full: 0, rate: null, why: 'no full count' },
    { counts: [Number.NaN, 4], full: 8, rate: 50, why: 'a non-number is not a valid day' },
  ])('$why: $counts / $full -> $rate', ({ counts, full, rate }) => {
    expect(fullRate(counts, full)).toBe(rate);
  });
  it('defaults to 8 ads per day', () => {
    expect(fullRate([2, 6])).toBe(50);
  });
});

describe('reconcile', () => {
  it.each([
    { expected: 0, reported: 0, pct: null, under: false },
    { expected: 0, reported: 5, pct: null, under: false },
    { expected: 100, reported: 100, pct: 100, under: false },
    { expected: 100, reported: 95, pct: 95, under: false },
    { expected: 100, reported: 94, pct: 94, under: true },
    { expected: 3, reported: 1, pct: 33.33, under: true },
    { expected: 3, reported: 2, pct: 66.67, under: true },
    { expected: 100, reported: 130, pct: 130, under: false },
    { expected: 210_000, reported: 209_244, pct: 99.64, under: false },
  ])('$reported of $expected -> $pct %', ({ expected, reported, pct, under }) => {
    expect(reconcile(expected, reported)).toEqual({ expected, reported, deliveryPct: pct, underDelivered: under });
  });
  it('takes another threshold', () => {
    expect(UNDER_DELIVERY_PCT).toBe(95);
    expect(reconcile(100, 98, 99).underDelivered).toBe(true);
  });
  it('rounds on the decimal value', () => {
    expect(round2(1.005)).toBe(1.01);
    expect(round2(-1.005)).toBe(-1.01);
    expect(round2(0)).toBe(0);
  });
});

describe('expectedPlays', () => {
  it.each([
    { why: 'per day, live all day', a: { strategy: 'perDay', playsMin: 5 }, loop: 60, want: 5 },
    {
      why: 'per day, live one minute: one loop, one turn',
      a: { strategy: 'perDay', playsMin: 5, liveFrom: T0 + 24 * H - 60_000 },
      loop: 60,
      want: 1,
    },
    {
      why: 'per day, approved at 23:00, 10 min loops: 6 turns left',
      a: { strategy: 'perDay', playsMin: 50, liveFrom: T0 + 23 * H },
      loop: 600,
      want: 6,
    },
    {
      why: 'per day, its period ending at 00:30',
      a: { strategy: 'perDay', playsMin: 50, periods: [{ start: '00:00', end: '00:30' }] },
      loop: 600,
      want: 3,
    },
    {
      why: 'per loop, approved at 17:00: the loops from then, not from midnight',
      a: { playsMin: 1, liveFrom: T0 + 17 * H },
      loop: 60,
      want: 420,
    },
    {
      why: 'per day, not live that day',
      a: { strategy: 'perDay', playsMin: 5, liveFrom: T0 + 24 * H },
      loop: 60,
      want: 0,
    },
    { why: 'per day, ended at midnight', a: { strategy: 'perDay', liveUntil: T0 }, loop: 60, want: 0 },
    { why: 'per loop all day, 60 s loop', a: { playsMin: 1 }, loop: 60, want: 1440 },
    { why: 'per loop x2', a: { playsMin: 2 }, loop: 60, want: 2880 },
    { why: 'per loop, 70 s loop: whole loops only', a: { playsMin: 1 }, loop: 70, want: 1234 },
    { why: 'per loop, one period of 2 h', a: { periods: [{ start: '08:00', end: '10:00' }] }, loop: 60, want: 120 },
    {
      why: 'per loop, two periods',
      a: {
        periods: [
          { start: '08:00', end: '09:00' },
          { start: '20:00', end: '24:00' },
        ],
      },
      loop: 600,
      want: 30,
    },
    { why: 'per loop, starts at noon', a: { liveFrom: T0 + 12 * H }, loop: 60, want: 720 },
    { why: 'per loop, paused at 06:00', a: { liveUntil: T0 + 6 * H }, loop: 60, want: 360 },
    {
      why: 'period cut by the start',
      a: { liveFrom: T0 + 9 * H, periods: [{ start: '08:00', end: '10:00' }] },
      loop: 60,
      want: 60,
    },
    { why: 'three materials a turn', a: { materialsPerPlay: 3 }, loop: 180, want: 1440 },
    {
      why: 'per day with three materials',
      a: { strategy: 'perDay', playsMin: 2, materialsPerPlay: 3 },
      loop: 0,
      want: 6,
    },
    { why: 'per loop capped at 100 a loop', a: { playsMin: 500 }, loop: 86_400, want: 100 },
    { why: 'empty loop', a: {}, loop: 0, want: 0 },
    { why: 'opening: none expected', a: { type: 'opening', strategy: 'perDay' }, loop: 60, want: 0 },
    { why: 'fallback: none expected', a: { type: 'fallback' }, loop: 60, want: 0 },
    { why: 'emergency per loop', a: { type: 'emergency' }, loop: 10, want: 8640 },
    { why: 'interstitial per day', a: { type: 'interstitial', strategy: 'perDay', playsMin: 3 }, loop: 60, want: 3 },
  ] as { why: string; a: Partial<ExpectedAd>; loop: number; want: number }[])('$why -> $want', ({ a, loop, want }) => {
    expect(expectedPlays(ad('x', a), DAY, loop)).toBe(want);
  });

  it('counts live seconds of periods in the UTC day', () => {
    expect(liveSeconds(ad('x'), DAY)).toBe(86_400);
    expect(liveSeconds(ad('x', { periods: [{ start: '23:30', end: '24:00' }] }), DAY)).toBe(1800);
  });

  it('measures the loop from the playlist of the ads live that day', () => {
    const a = ad('a', { playsMin: 2 });
    const b = ad('b', { materialsPerPlay: 3 });
    const brk = ad('i', { type: 'interstitial' });
    const urgent = ad('e', { type: 'emergency' });
    const gone = ad('g', { liveUntil: T0 });
    const fallback = ad('f', { type: 'fallback' });
    // Loop: a twice (10 s each), b once (3 materials: 30 s), the interstitial (10 s).
    expect(dayLoops([a, b, brk, urgent, gone, fallback], DAY)).toEqual({ loopSec: 60, emergencySec: 10 });
    expect(dayLoops([a, b], DAY, 5)).toEqual({ loopSec: 25, emergencySec: 0 });
    const expected = expectedOnDay([a, b, brk, urgent, gone, fallback], DAY);
    expect(Object.fromEntries(expected)).toEqual({ a: 2880, b: 4320, i: 1440, e: 8640, g: 0, f: 0 });
  });

  it('is deterministic', () => {
    const list = [ad('a'), ad('b', { strategy: 'perDay', playsMin: 7 })];
    expect(Object.fromEntries(expectedOnDay(list, DAY))).toEqual(
      Object.fromEntries(expectedOnDay([...list].reverse(), DAY)),
    );
  });
});

describe('report ranges', () => {
  const now = Date.parse('2026-06-15T10:00:00Z');
  it.each([
    { from: undefined, to: undefined, want: { from: '2026-06-09', to: '2026-06-15' } },
    { from: '2026-06-01', to: undefined, want: { from: '2026-06-01', to: '2026-06-07' } },
    { from: undefined, to: '2026-05-31', want: { from: '2026-05-25', to: '2026-05-31' } },
    { from: '2026-01-01', to: '2026-01-01', want: { from: '2026-01-01', to: '2026-01-01' } },
  ])('$from..$to', ({ from, to, want }) => {
    expect(reportRange(now, from, to)).toEqual(want);
  });
  it('ends by default on today of the report’s zone', () => {
    // 17:00 UTC on 14 June is 01:00 on the 15th in Shanghai and 13:00 on the 14th in New York.
    const evening = Date.parse('2026-06-14T17:00:00Z');
    expect(reportRange(evening, undefined, undefined, 'Asia/Shanghai')).toEqual({
      from: '2026-06-09',
      to: '2026-06-15',
    });
    expect(reportRange(evening, undefined, undefined, 'America/New_York')).toEqual({
      from: '2026-06-08',
      to: '2026-06-14',
    });
    expect(reportRange(evening)).toEqual({ from: '2026-06-08', to: '2026-06-14' });
  });
  it('counts days', () => {
    expect(rangeDays('2024-01-01', '2024-12-31')).toBe(366);
    expect(rangeDays('2026-06-02', '2026-06-01')).toBe(0);
  });
});
