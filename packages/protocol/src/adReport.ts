/**
 * Ad reports and reconciliation (issue 13 'Proof of play and reports'; spec section 9 'full
 * rate'): the pure rules the server's reports (modules/reports) and the console share.
 *
 * Days are calendar days (`YYYY-MM-DD`) of the **report's zone** (`dayZone`: the enterprise
 * whose screens played, as the play rollups key them; issue 31), from its midnight to the next
 * (23 or 25 hours on a daylight-saving change). An ad's time periods (`HH:mm`) are the wall
 * clock of the device's own zone (`zone`), which may differ from the report's. Every function
 * defaults both to UTC.
 *
 * A play, as proof of play records it, is one material shown (a material ad of three
 * materials writes three plays per turn). Expected plays are counted the same way: an ad's
 * turns times the materials one turn shows (`materialsPerPlay`).
 */
import type { AdPlayStrategy, AdType } from './adRules.js';
import { type AdDayPeriod, buildAdPlaylist, type SchedulableAd } from './adSchedule.js';
import { nextDay, wallClock, zonedDayStart, zonedInstant } from './timeZone.js';

/** Seconds an image (or a page of a layout without its own duration) stays on screen in a playlist. */
export const DEFAULT_ITEM_SEC = 10;

/** Spec section 9: the full-ad standard, ads per day. */
export const FULL_AD_COUNT = 8;

/** A screen-day (or a device) delivering below this share of its expected plays is under-delivered. */
export const UNDER_DELIVERY_PCT = 95;

/** Longest date range of a report, in days (a leap year). */
export const REPORT_MAX_DAYS = 366;
/** The default range: the last 7 days, today included. */
export const REPORT_DEFAULT_DAYS = 7;
/** The hourly profile reads the hourly rollups of at most this many days (the range's last). */
export const REPORT_HOURLY_DAYS = 7;

const DAY_MS = 86_400_000;

/** Rounds to 2 decimals (half away from zero, on the decimal value, not its binary neighbour). */
export function round2(value: number): number {
  return (Math.sign(value) * Math.round(Number(`${Math.abs(value)}e2`))) / 100 || 0;
}

/**
 * Spec section 9 full rate: the sum of the actual daily ad counts over the valid days, divided
 * by (valid days x full count), times 100, rounded to 2 decimals.
 * - a valid day is a day with a count above 0 (a day nothing played, a screen off, does not
 *   count for or against);
 * - a day's count is capped at the full count (a day above the standard is full, not more), so
 *   the rate is 0..100;
 * - no valid day: null (no rate, rather than 0 %).
 * In the ad reports a day's count is the ad's plays that day per device it played on.
 */
export function fullRate(dailyCounts: readonly number[], fullCount = FULL_AD_COUNT): number | null {
  if (!(fullCount > 0)) return null;
  const valid = dailyCounts.filter((c) => Number.isFinite(c) && c > 0);
  if (valid.length === 0) return null;
  const sum = valid.reduce((s, c) => s + Math.min(c, fullCount), 0);
  return round2((sum / (valid.length * fullCount)) * 100);
}

/** Reported against expected plays: the reconciliation of one ad, device, day or any sum of them. */
export interface Reconciliation {
  expected: number;
  reported: number;
  /** reported / expected x 100, 2 decimals; null when nothing was expected. */
  deliveryPct: number | null;
  /** Something was expected and the delivery is below UNDER_DELIVERY_PCT. */
  underDelivered: boolean;
}

export function reconcile(expected: number, reported: number, thresholdPct = UNDER_DELIVERY_PCT): Reconciliation {
  const deliveryPct = expected > 0 ? round2((reported / expected) * 100) : null;
  return { expected, reported, deliveryPct, underDelivered: deliveryPct !== null && deliveryPct < thresholdPct };
}

/** What of an ad the expected plays follow from. */
export interface ExpectedAd {
  id: string;
  type: AdType;
  strategy: AdPlayStrategy;
  playsMin: number;
  /** Empty: all day. */
  periods: readonly AdDayPeriod[];
  /**
   * When the ad could play (ms): from the latest of its start, its approval and its first
   * download (an ad approved at 17:00 plays from 17:00, not from that day's midnight) to its
   * end, cut at its deletion or its pause. An ad whose review has not passed, or that no
   * screen has downloaded, has no live window (the caller leaves it out).
   */
  liveFrom: number;
  liveUntil: number;
  /** Plays one turn of the ad writes: its materials (at least 1; a layout ad counts 1). */
  materialsPerPlay: number;
  createdAt: number;
}

/** `YYYY-MM-DD` -> the UTC midnight starting it (ms). */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** The instants [start, end) of local `day` in `dayZone` (UTC: a 24-hour UTC day). */
export function dayBounds(day: string, dayZone = 'UTC'): [number, number] {
  if (dayZone === 'UTC') return [dayStart(day), dayStart(day) + DAY_MS];
  return [zonedDayStart(day, dayZone), zonedDayStart(nextDay(day), dayZone)];
}

/** The calendar days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = dayStart(from); t <= dayStart(to); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

const minuteOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/**
 * The windows of `periods` (`HH:mm` of the wall clock in `zone`) inside [from, to): each local
 * day touching the range gives its periods' instants (zonedInstant: a DST day's 02:30 is read
 * as the zone reads it), cut to the range.
 */
export function periodWindows(
  periods: readonly { start: string; end: string }[],
  from: number,
  to: number,
  zone: string,
): [number, number][] {
  const out: [number, number][] = [];
  if (to <= from) return out;
  const last = wallClock(to, zone).day;
  for (let day = nextDay(wallClock(from, zone).day, -1); day <= last; day = nextDay(day)) {
    for (const p of periods) {
      const a = Math.max(zonedInstant(day, minuteOf(p.start), zone), from);
      const b = Math.min(zonedInstant(day, minuteOf(p.end), zone), to);
      if (b > a) out.push([a, b]);
    }
  }
  return out;
}

/**
 * Seconds of a day (of `dayZone`) the ad is live: its time periods (all day when none; `HH:mm`
 * of the device's wall clock in `zone`, issue 31) intersected with its live window and the day.
 */
export function liveSeconds(
  ad: Pick<ExpectedAd, 'periods' | 'liveFrom' | 'liveUntil'>,
  day: string,
  zone = 'UTC',
  dayZone = 'UTC',
): number {
  const [start, end] = dayBounds(day, dayZone);
  const from = Math.max(start, ad.liveFrom);
  const to = Math.min(end, ad.liveUntil);
  if (to <= from) return 0;
  if (ad.periods.length === 0) return Math.floor((to - from) / 1000);
  const ms = periodWindows(ad.periods, from, to, zone).reduce((sum, [a, b]) => sum + (b - a), 0);
  return Math.floor(ms / 1000);
}

/**
 * The plays the schedule expected of an ad on one device on one day (of `dayZone`) (material plays, as
 * reported), given the length of the loop it plays in on that device that day (`loopSec`,
 * from dayLoops):
 * - common, interstitial and emergency ads:
 *   - per day: its minimum plays, on a day it is live at all, but no more than the whole loops
 *     of its live seconds (a per-day ad plays once a loop: approved late, or its period ending
 *     mid-day, it has fewer turns);
 *   - per loop: its minimum plays per loop (capped as the playlist caps them, 100) times the
 *     whole loops that fit in its live seconds of the day;
 * - opening ads: 0 (they play once when a player starts, which no schedule foresees);
 * - fallback ads: 0 (they play only when nothing else does).
 * Times the materials one turn shows. 0 when the ad is not live that day or the loop is empty.
 */
export function expectedPlays(ad: ExpectedAd, day: string, loopSec: number, zone = 'UTC', dayZone = 'UTC'): number {
  if (ad.type === 'opening' || ad.type === 'fallback') return 0;
  const live = liveSeconds(ad, day, zone, dayZone);
  if (live <= 0) return 0;
  const perTurn = Math.max(1, ad.materialsPerPlay);
  if (ad.strategy === 'perDay') {
    const turns = loopSec > 0 ? Math.min(ad.playsMin, Math.floor(live / loopSec)) : ad.playsMin;
    return turns * perTurn;
  }
  if (!(loopSec > 0)) return 0;
  return Math.min(ad.playsMin, 100) * Math.floor(live / loopSec) * perTurn;
}

/**
 * The loops of a device's playlist on a day (of `dayZone`), in seconds: the loop of common and
 * interstitial ads, and the emergency rotation (emergency ads pre-empt the loop and turn among
 * themselves). The playlist is buildAdPlaylist's over the ads reaching the device that are
 * live at some moment of the day; each entry lasts its ad's materials x `itemSec`.
 */
export function dayLoops(
  adsOnDevice: readonly ExpectedAd[],
  day: string,
  itemSec = DEFAULT_ITEM_SEC,
  dayZone = 'UTC',
): { loopSec: number; emergencySec: number } {
  const [start, end] = dayBounds(day, dayZone);
  const live = adsOnDevice.filter((a) => a.liveFrom < end && a.liveUntil > start && a.liveUntil > a.liveFrom);
  const byId = new Map(live.map((a) => [a.id, a]));
  const schedulable: SchedulableAd[] = live.map((a) => ({
    id: a.id,
    type: a.type,
    reviewState: 'passed',
    paused: false,
    deleted: false,
    startAt: a.liveFrom,
    endAt: a.liveUntil,
    strategy: a.strategy,
    playsMin: a.playsMin,
    playsMax: a.playsMin,
    periods: a.periods,
    createdAt: a.createdAt,
  }));
  let loopSec = 0;
  let emergencySec = 0;
  for (const entry of buildAdPlaylist(schedulable, start)) {
    const sec = Math.max(1, byId.get(entry.adId)?.materialsPerPlay ?? 1) * itemSec;
    if (entry.role === 'loop') loopSec += sec;
    else if (entry.role === 'emergency') emergencySec += sec;
  }
  return { loopSec, emergencySec };
}

/**
 * Every ad's expected plays on one device on one day (of `dayZone`): the ads reaching the device, each
 * with expectedPlays in its loop (the emergency rotation for emergency ads). One deterministic
 * function: the same ads give the same figures.
 */
export function expectedOnDay(
  adsOnDevice: readonly ExpectedAd[],
  day: string,
  itemSec = DEFAULT_ITEM_SEC,
  zone = 'UTC',
  dayZone = 'UTC',
): Map<string, number> {
  const { loopSec, emergencySec } = dayLoops(adsOnDevice, day, itemSec, dayZone);
  const out = new Map<string, number>();
  for (const ad of adsOnDevice) {
    out.set(ad.id, expectedPlays(ad, day, ad.type === 'emergency' ? emergencySec : loopSec, zone, dayZone));
  }
  return out;
}

/**
 * The report's date range (days of `zone`, the report's): both given as they are; only
 * `from`: the REPORT_DEFAULT_DAYS from it; only `to`, or neither: the REPORT_DEFAULT_DAYS
 * ending then (today in `zone` by default).
 */
export function reportRange(now: number, from?: string, to?: string, zone = 'UTC'): { from: string; to: string } {
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const span = (REPORT_DEFAULT_DAYS - 1) * DAY_MS;
  if (from && to) return { from, to };
  if (from) return { from, to: iso(dayStart(from) + span) };
  const last = to ?? wallClock(now, zone).day;
  return { from: iso(dayStart(last) - span), to: last };
}

/** Days in a range, both ends included (0 when `to` is before `from`). */
export function rangeDays(from: string, to: string): number {
  return Math.max(0, Math.round((dayStart(to) - dayStart(from)) / DAY_MS) + 1);
}
