/**
 * Scheduling of ads on a screen (issue 13 'Scheduling'): the pure function that turns the ads
 * reaching a device into its playlist, and the one that picks what plays at an instant. The
 * server builds the playlist into the manifest (time periods stay in it, in the device's wall
 * clock); the player picks from it every second, so emergency pre-emption, fallback and time
 * periods take effect on the device on time without a new manifest.
 */
import type { AdPlayStrategy, AdReviewState, AdType } from './adRules.js';
import { scheduleAllows } from './device/schedule.js';

/** Where an ad stands in a playlist. */
export const AD_ROLES = ['opening', 'emergency', 'loop', 'fallback'] as const;
export type AdRole = (typeof AD_ROLES)[number];

/** A time period of the day, `HH:mm` (start inclusive, end exclusive, `24:00` the day's end). */
export interface AdDayPeriod {
  start: string;
  end: string;
}

/** The facts of an ad the schedule follows from. */
export interface SchedulableAd {
  id: string;
  type: AdType;
  reviewState: AdReviewState;
  paused: boolean;
  deleted: boolean;
  /** The ad's period (ms). */
  startAt: number;
  endAt: number;
  strategy: AdPlayStrategy;
  playsMin: number;
  playsMax: number;
  /** Empty: all day. */
  periods: readonly AdDayPeriod[];
  /** Ties in the loop are broken by this (earlier first), then by id. */
  createdAt: number;
}

/** One entry of a device's ad playlist, in playing order. */
export interface AdPlaylistEntry {
  /** Unique in the playlist: `<adId>` or `<adId>#<n>` for the n-th (from 2) play in a loop. */
  key: string;
  adId: string;
  role: AdRole;
  /** The ad's period (ms): the entry plays only inside it. */
  from: number;
  until: number;
  /** Empty: all day. */
  periods: AdDayPeriod[];
  /** Plays a day at most (a per-day ad's maximum); null: no daily cap. */
  maxPerDay: number | null;
}

/** Most plays of one ad in one loop (a larger per-loop count is capped: a loop stays playable). */
export const AD_MAX_PLAYS_PER_LOOP = 100;

/**
 * Whether an ad is scheduled at all at `now`: its review passed, it is neither paused nor
 * deleted, and its period has not ended (an ad whose period has not begun is scheduled with
 * its start, so the device downloads it ahead and starts it on time).
 */
export function adSchedulable(ad: SchedulableAd, now: number): boolean {
  return ad.reviewState === 'passed' && !ad.paused && !ad.deleted && ad.endAt > now && ad.endAt > ad.startAt;
}

const byAge = (a: SchedulableAd, b: SchedulableAd) =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function entry(ad: SchedulableAd, role: AdRole, n = 1): AdPlaylistEntry {
  return {
    key: n === 1 ? ad.id : `${ad.id}#${n}`,
    adId: ad.id,
    role,
    from: ad.startAt,
    until: ad.endAt,
    periods: ad.periods.map((p) => ({ start: p.start, end: p.end })),
    maxPerDay: ad.strategy === 'perDay' ? ad.playsMax : null,
  };
}

/** Plays of an ad in one loop: a per-loop ad's minimum (capped), a per-day ad once. */
function playsPerLoop(ad: SchedulableAd): number {
  return ad.strategy === 'perLoop' ? Math.min(Math.max(1, ad.playsMin), AD_MAX_PLAYS_PER_LOOP) : 1;
}

/**
 * Spreads each ad's plays evenly over the loop (the k plays of an ad at (i + 1/2) / k), so an ad
 * with 3 plays per loop is not played three times in a row; ties keep the ads' order.
 */
function spread(list: readonly SchedulableAd[], role: AdRole): AdPlaylistEntry[] {
  const slots: { at: number; rank: number; n: number; ad: SchedulableAd }[] = [];
  list.forEach((ad, rank) => {
    const k = playsPerLoop(ad);
    for (let i = 0; i < k; i++) slots.push({ at: (i + 0.5) / k, rank, n: i + 1, ad });
  });
  slots.sort((a, b) => a.at - b.at || a.rank - b.rank);
  return slots.map((s) => entry(s.ad, role, s.n));
}

/**
 * A device's playlist sort (spec 'playlist sort'): the operator's order of the loop's common
 * ads on one device. The ads named in `order` come first, in that order; the others follow in
 * their own order (oldest first), so an ad added after the sort joins at the end, and an id of
 * an ad that no longer reaches the device is ignored. The order is applied before each ad's
 * plays are spread over the loop.
 */
export function orderAds<A extends { id: string }>(ads: readonly A[], order: readonly string[]): A[] {
  if (order.length === 0) return [...ads];
  const rank = new Map<string, number>();
  for (const id of order) if (!rank.has(id)) rank.set(id, rank.size);
  const ranked = ads.filter((ad) => rank.has(ad.id)).sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
  return [...ranked, ...ads.filter((ad) => !rank.has(ad.id))];
}

/**
 * A device's ad playlist from the ads that reach it, at `now`: the opening ads first (played
 * once when the player starts), then the emergency ads, then the loop (common ads with the
 * interstitials placed evenly between them, each ad's plays per loop spread over it), then the
 * fallbacks. Ads not schedulable (adSchedulable) are left out. Deterministic: the same ads give
 * the same playlist, so the manifest's version only changes when the schedule does.
 * `commonOrder`: the device's playlist sort (orderAds) of its common ads.
 */
export function buildAdPlaylist(
  ads: readonly SchedulableAd[],
  now: number,
  options: { commonOrder?: readonly string[] } = {},
): AdPlaylistEntry[] {
  const live = ads.filter((ad) => adSchedulable(ad, now)).sort(byAge);
  const of = (type: AdType) => live.filter((ad) => ad.type === type);
  const common = spread(orderAds(of('common'), options.commonOrder ?? []), 'loop');
  const breaks = spread(of('interstitial'), 'loop');
  // The interstitials go into the gaps after common entries, evenly: with c common entries and
  // b breaks, break j follows common entry ceil((j + 1) * c / b).
  const loop: AdPlaylistEntry[] = [];
  if (common.length === 0) loop.push(...breaks);
  else {
    let next = 0;
    common.forEach((c, i) => {
      loop.push(c);
      while (next < breaks.length && Math.ceil(((next + 1) * common.length) / breaks.length) === i + 1) {
        loop.push(breaks[next++]);
      }
    });
    loop.push(...breaks.slice(next));
  }
  return [
    ...of('opening').map((ad) => entry(ad, 'opening')),
    ...of('emergency').map((ad) => entry(ad, 'emergency')),
    ...loop,
    ...of('fallback').map((ad) => entry(ad, 'fallback')),
  ];
}

/**
 * Whether an entry may play at `now`: its period, and its time periods in the wall clock of
 * `zone` (the device's zone; absent, the runtime's local clock).
 */
export function adEntryLive(
  e: Pick<AdPlaylistEntry, 'from' | 'until' | 'periods'>,
  now: Date,
  zone?: string | null,
): boolean {
  return scheduleAllows({ from: e.from, until: e.until, periods: e.periods }, now, zone);
}

/**
 * What plays at `now` from a playlist (the player's pick, every second): the emergency entries
 * live now pre-empt everything; else the live loop entries (an ad that reached its plays per
 * day, `playedToday`, sits out until tomorrow); else the live fallbacks; else nothing. Opening
 * entries are not part of it: the player plays them once at start (openingEntries).
 */
export function pickAdEntries<
  E extends Pick<AdPlaylistEntry, 'adId' | 'role' | 'from' | 'until' | 'periods' | 'maxPerDay'>,
>(
  entries: readonly E[],
  now: Date,
  playedToday: ReadonlyMap<string, number> = new Map(),
  zone?: string | null,
): { role: 'emergency' | 'loop' | 'fallback' | 'none'; entries: E[] } {
  const live = entries.filter((e) => adEntryLive(e, now, zone));
  const emergency = live.filter((e) => e.role === 'emergency');
  if (emergency.length > 0) return { role: 'emergency', entries: emergency };
  const loop = live.filter(
    (e) => e.role === 'loop' && (e.maxPerDay === null || (playedToday.get(e.adId) ?? 0) < e.maxPerDay),
  );
  if (loop.length > 0) return { role: 'loop', entries: loop };
  const fallback = live.filter((e) => e.role === 'fallback');
  if (fallback.length > 0) return { role: 'fallback', entries: fallback };
  return { role: 'none', entries: [] };
}

/** The opening entries live at `now`: what the player shows once when it starts. */
export function openingEntries<E extends Pick<AdPlaylistEntry, 'role' | 'from' | 'until' | 'periods'>>(
  entries: readonly E[],
  now: Date,
  zone?: string | null,
): E[] {
  return entries.filter((e) => e.role === 'opening' && adEntryLive(e, now, zone));
}
