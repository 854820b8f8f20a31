import { describe, expect, it } from 'vitest';
import {
  activeMs,
  calendarAllows,
  evenTarget,
  type PacingState,
  pacingAllows,
  pickRtbItem,
  pickRtbRegionItem,
  playPrice,
  rtbCadence,
  rtbDay,
  rtbRegionsOf,
  rtbTurnAt,
  rtbTurnsBetween,
  runAuction,
} from '../src/rtbRules.js';

const bid = (key: string, cpm: number) => ({ key, cpm });

describe('the second-price auction', () => {
  it.each([
    // floor, bids, winner, clearing
    ['alone pays the floor', 1_000, [bid('a', 5_000)], 'a', 1_000],
    ['pays the second bid plus 1 fen', 1_000, [bid('a', 5_000), bid('b', 3_000)], 'a', 3_001],
    ['never more than its own bid', 1_000, [bid('a', 3_000), bid('b', 3_000)], 'a', 3_000],
    ['a tie goes to the smaller key', 1_000, [bid('b', 4_000), bid('a', 4_000)], 'a', 4_000],
    ['bids below the floor do not set the price', 2_000, [bid('a', 5_000), bid('b', 1_999)], 'a', 2_000],
    ['a bid at the floor wins at the floor', 2_000, [bid('a', 2_000)], 'a', 2_000],
    ['three bids: the second sets the price', 100, [bid('c', 900), bid('a', 700), bid('b', 800)], 'c', 801],
  ] as const)('%s', (_name, floor, bids, winner, clearing) => {
    const r = runAuction(floor, bids);
    expect(r.winner?.key).toBe(winner);
    expect(r.clearingCpm).toBe(clearing);
  });

  it('has no winner when every bid is below the floor (the fallback plays)', () => {
    const r = runAuction(5_000, [bid('a', 4_999), bid('b', 100)]);
    expect(r.winner).toBeNull();
    expect(r.clearingCpm).toBe(0);
    expect(r.belowFloor.map((b) => b.key).sort()).toEqual(['a', 'b']);
  });

  it('is deterministic whatever the order of the bids', () => {
    const bids = [bid('x', 10), bid('y', 30), bid('z', 30), bid('w', 20)];
    const one = runAuction(5, bids);
    const two = runAuction(5, [...bids].reverse());
    expect([one.winner?.key, one.clearingCpm]).toEqual([two.winner?.key, two.clearingCpm]);
    expect(one.winner?.key).toBe('y');
  });
});

describe('the price of a play', () => {
  it.each([
    [1_000, 1_000, 1], // 10 yuan CPM, 1 impression: 1 fen
    [5_000, 2_500, 13], // 50 yuan CPM, 2.5 impressions: 12.5 fen, half up
    [100, 1_000, 1], // under 1 fen still costs 1 fen
    [1_000_000, 10_000, 10_000], // 10000 yuan CPM, 10 impressions: 100 yuan
    [0, 1_000, 0],
  ])('cpm %i fen x %i thousandths = %i fen', (cpm, qty, fen) => {
    expect(playPrice(cpm, qty)).toBe(fen);
  });
});

describe('turn cadence', () => {
  const slot = { id: 'slot-1', durationSec: 15, maxRotations: 4 };
  const c = rtbCadence(slot);

  it('spreads maxRotations turns over the cycle, never closer than a turn', () => {
    expect(c.everySec).toBe(75);
    expect(rtbCadence({ id: 's', durationSec: 30, maxRotations: 60 }).everySec).toBe(30);
  });

  it('lists the turns in a window and finds the one playing now', () => {
    const turns = rtbTurnsBetween(c, 0, 300_000);
    expect(turns).toHaveLength(4);
    for (const t of turns) {
      expect(rtbTurnAt(c, t)).toBe(t);
      expect(rtbTurnAt(c, t + 14_999)).toBe(t);
      expect(rtbTurnAt(c, t + 15_000)).toBeNull();
    }
  });
});

describe('calendar and pacing', () => {
  const day = Date.UTC(2026, 10, 30); // a Monday
  const base: PacingState = {
    startAt: day,
    endAt: day + 86_400_000,
    hoursMask: 0,
    weekdaysMask: 0,
    pacing: 'even',
    totalBudget: 24_000,
    dailyBudget: null,
    committed: 0,
    committedToday: 0,
  };

  it('runs only in its hours and weekdays', () => {
    const nineToFive = { ...base, hoursMask: 0xff << 9 };
    expect(calendarAllows(nineToFive, day + 8 * 3_600_000)).toBe(false);
    expect(calendarAllows(nineToFive, day + 9 * 3_600_000)).toBe(true);
    expect(activeMs(nineToFive, day, day + 86_400_000)).toBe(8 * 3_600_000);
    expect(calendarAllows({ ...base, weekdaysMask: 0b0000010 }, day)).toBe(false); // Tuesdays only
  });

  it('counts running time by arithmetic exactly as hour by hour', () => {
    const slow = (c: typeof base, from: number, to: number) => {
      let total = 0;
      for (let t = from; t < to; t += 60_000) if (calendarAllows(c, t)) total += 60_000;
      return total;
    };
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let i = 0; i < 40; i++) {
      const c = {
        ...base,
        startAt: day + rand(3) * 86_400_000 + rand(1440) * 60_000,
        endAt: day + (4 + rand(6)) * 86_400_000 + rand(1440) * 60_000,
        hoursMask: rand(0x1000000),
        weekdaysMask: rand(0x80),
      };
      const from = day + rand(5 * 1440) * 60_000;
      const to = from + rand(6 * 1440) * 60_000;
      expect(activeMs(c, from, to)).toBe(slow(c, from, to));
    }
  });

  it('never goes past the total or the daily budget', () => {
    expect(pacingAllows({ ...base, pacing: 'asap', committed: 23_990 }, day, 10)).toBe(true);
    expect(pacingAllows({ ...base, pacing: 'asap', committed: 23_991 }, day, 10)).toBe(false);
    expect(pacingAllows({ ...base, pacing: 'asap', dailyBudget: 100, committedToday: 95 }, day, 10)).toBe(false);
  });

  it('spreads a day evenly: by the end of hour h, (h+1)/24 of the day', () => {
    expect(evenTarget(base, day + 30 * 60_000)).toBeCloseTo(1_000);
    expect(evenTarget(base, day + 11.5 * 3_600_000)).toBeCloseTo(12_000);
    expect(pacingAllows({ ...base, committedToday: 990, committed: 990 }, day + 60_000, 10)).toBe(true);
    expect(pacingAllows({ ...base, committedToday: 1_010, committed: 1_010 }, day + 60_000, 10)).toBe(false);
  });

  it("reads its hours, weekdays and days on its enterprise's wall clock", () => {
    // 09:00-17:00 in Shanghai is 01:00-09:00 UTC; Monday 30 November starts at 16:00 UTC on the 29th.
    const shanghai = {
      ...base,
      zone: 'Asia/Shanghai',
      startAt: day - 8 * 3_600_000,
      endAt: day + 16 * 3_600_000,
      hoursMask: 0xff << 9,
    };
    expect(calendarAllows(shanghai, day + 0.5 * 3_600_000)).toBe(false);
    expect(calendarAllows(shanghai, day + 1 * 3_600_000)).toBe(true);
    expect(calendarAllows(shanghai, day + 8.9 * 3_600_000)).toBe(true);
    expect(calendarAllows(shanghai, day + 9 * 3_600_000)).toBe(false);
    expect(activeMs(shanghai, shanghai.startAt, shanghai.endAt)).toBe(8 * 3_600_000);
    // Mondays only: Monday in Shanghai begins on Sunday 16:00 UTC.
    const mondays = { ...shanghai, hoursMask: 0, weekdaysMask: 0b0000001, startAt: 0, endAt: day + 7 * 86_400_000 };
    expect(calendarAllows(mondays, day - 8 * 3_600_000 - 1)).toBe(false);
    expect(calendarAllows(mondays, day - 8 * 3_600_000)).toBe(true);
    expect(calendarAllows(mondays, day + 16 * 3_600_000 - 1)).toBe(true);
    expect(calendarAllows(mondays, day + 16 * 3_600_000)).toBe(false);
    // Its daily budget's day and the even target follow the local day: at 00:30 Shanghai
    // (16:30 UTC) a new day began and 1/24 of what is left for it may be spent.
    expect(rtbDay(day + 16.5 * 3_600_000, 'Asia/Shanghai')).toBe('2026-12-01');
    expect(rtbDay(day + 16.5 * 3_600_000)).toBe('2026-11-30');
    const allDays = { ...shanghai, hoursMask: 0, startAt: day - 8 * 3_600_000, endAt: day + 40 * 3_600_000 };
    expect(evenTarget({ ...allDays, totalBudget: 48_000, committed: 24_000 }, day + 16.5 * 3_600_000)).toBeCloseTo(
      1_000,
    );
    // A 45-minute offset: Kathmandu's 09:00 is 03:15 UTC.
    const kathmandu = { ...base, zone: 'Asia/Kathmandu', startAt: 0, endAt: day + 86_400_000, hoursMask: 1 << 9 };
    expect(calendarAllows(kathmandu, day + 3.24 * 3_600_000)).toBe(false);
    expect(calendarAllows(kathmandu, day + 3.25 * 3_600_000)).toBe(true);
    expect(calendarAllows(kathmandu, day + 4.25 * 3_600_000)).toBe(false);
  });

  it('counts local running time by arithmetic exactly as minute by minute in fixed-offset zones', () => {
    for (const zone of ['Asia/Shanghai', 'Asia/Kathmandu', 'America/St_Johns']) {
      const c = {
        ...base,
        zone,
        startAt: day - 86_400_000,
        endAt: day + 3 * 86_400_000,
        hoursMask: 0x0f0f0f,
        weekdaysMask: 0b1010101,
      };
      let slow = 0;
      for (let t = day; t < day + 2 * 86_400_000; t += 60_000) if (calendarAllows(c, t)) slow += 60_000;
      expect(activeMs(c, day, day + 2 * 86_400_000)).toBe(slow);
    }
  });

  it('a simulated day of abundant turns spends within 10 % of even every hour', () => {
    const s: PacingState = { ...base, endAt: day + 3 * 86_400_000, totalBudget: 72_000 };
    const perHour = new Array(24).fill(0);
    for (let t = day; t < day + 86_400_000; t += 5_000) {
      if (pacingAllows(s, t, 7)) {
        s.committed += 7;
        s.committedToday += 7;
        perHour[Math.floor((t - day) / 3_600_000)] += 7;
      }
    }
    const even = 24_000 / 24;
    for (const spent of perHour) expect(Math.abs(spent - even) / even).toBeLessThanOrEqual(0.1);
  });
});

describe('what an RTB slot plays', () => {
  const cadence = { everySec: 60, offsetSec: 0, durationSec: 15 };
  const fallback = { id: 'f', role: 'rtb', schedule: { from: 0, until: 10_000_000 }, rtb: { slotId: 's', cadence } };
  const decided = {
    id: 'd',
    role: 'rtb',
    schedule: { from: 120_000, until: 135_000 },
    rtb: { slotId: 's', auctionId: 'a' },
  };

  it('plays a decided turn, else the fallback inside a turn, else nothing', () => {
    expect(pickRtbItem([fallback, decided], 125_000)?.id).toBe('d');
    expect(pickRtbItem([fallback, decided], 60_000)?.id).toBe('f');
    expect(pickRtbItem([fallback, decided], 80_000)).toBeNull();
    expect(pickRtbItem([decided], 60_000)).toBeNull();
  });

  it('keeps a layout region’s items to that region: they never pre-empt the loop', () => {
    const region = { layoutId: 'L', componentId: 'c1' };
    const inRegion = { ...decided, id: 'r', rtb: { slotId: 'rs', auctionId: 'b', region } };
    const regionFallback = { ...fallback, id: 'rf', rtb: { slotId: 'rs', cadence, region } };
    expect(pickRtbItem([inRegion, regionFallback], 125_000)).toBeNull();
    expect(pickRtbRegionItem([fallback, inRegion, regionFallback], region, 125_000)?.id).toBe('r');
    expect(pickRtbRegionItem([fallback, inRegion, regionFallback], region, 60_000)?.id).toBe('rf');
    expect(pickRtbRegionItem([inRegion], { ...region, componentId: 'c2' }, 125_000)).toBeNull();
    expect(pickRtbRegionItem([inRegion], { ...region, layoutId: 'M' }, 125_000)).toBeNull();
    expect(rtbRegionsOf([fallback, inRegion, regionFallback], 'L')).toEqual([region]);
    expect(rtbRegionsOf([inRegion], 'M')).toEqual([]);
    expect(rtbRegionsOf([inRegion], null)).toEqual([]);
  });
});
