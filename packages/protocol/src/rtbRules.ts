/**
 * Programmatic airtime (issue 29; docs/ARCHITECTURE.md "Programmatic airtime"). The rules both
 * sides apply: when an RTB slot's turns fall on a screen, the auction (second price, floors,
 * deterministic ties), a play's price from a CPM, the pacing of a campaign's spend, and the
 * campaign's states. Pure functions: the server's auctions, the table tests and the bench call
 * the same code. Amounts are integer fen; a CPM is fen per thousand impressions; impressions
 * per play are kept in thousandths (`qtyMilli`), so no float holds money.
 */

import { zoneOffsetMinutes } from './timeZone.js';

/** Spec section 5: an RTB price (a floor, a bid) is 0 to 10000 yuan, here per thousand impressions. */
export const RTB_CPM_MAX_FEN = 1_000_000;

/**
 * An RTB slot's turns on a screen are fixed instants: `maxRotations` turns every RTB cycle,
 * evenly spaced (never closer than the turn itself), at an offset that depends on the slot,
 * so two slots on one screen rarely meet. Every player computes the same instants.
 */
export const RTB_CYCLE_SEC = 300;
/** How far ahead the server decides turns (OpenRTB's DOOH `imp.dt`): a turn is decided at most this early. */
export const RTB_HORIZON_SEC = 300;
/** A decision is made at least this long before its turn (the player's manifest poll and a margin). */
export const RTB_LEAD_SEC = 10;
/**
 * A won turn is proven by a completed play of the winning ad on that screen between its start
 * minus this skew and its end plus it (the player's clock, the upload's rounding).
 */
export const RTB_PROOF_SKEW_SEC = 30;
/** A won turn without proof this long after it ended is unproven: never billed, its reservation released. */
export const RTB_PROOF_WINDOW_HOURS = 48;

/** A slot's turn cadence. */
export interface RtbCadence {
  /** Seconds between the starts of two turns. */
  everySec: number;
  /** Seconds after each multiple of everySec (from the epoch) at which a turn starts. */
  offsetSec: number;
  durationSec: number;
}

/** A small stable hash of a string (FNV-1a, 32 bits). */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The cadence of a slot's turns (see RTB_CYCLE_SEC). */
export function rtbCadence(slot: { id: string; durationSec: number; maxRotations: number }): RtbCadence {
  const everySec = Math.max(slot.durationSec, Math.floor(RTB_CYCLE_SEC / Math.max(1, slot.maxRotations)));
  return { everySec, offsetSec: stableHash(slot.id) % everySec, durationSec: slot.durationSec };
}

/** The starts (ms) of a cadence's turns with `from <= start < to`. */
export function rtbTurnsBetween(c: RtbCadence, from: number, to: number): number[] {
  const every = c.everySec * 1000;
  const offset = c.offsetSec * 1000;
  const out: number[] = [];
  let at = Math.ceil((from - offset) / every) * every + offset;
  for (; at < to; at += every) out.push(at);
  return out;
}

/** The start (ms) of the turn playing at `now`, or null between turns. */
export function rtbTurnAt(c: RtbCadence, now: number): number | null {
  const every = c.everySec * 1000;
  const start = Math.floor((now - c.offsetSec * 1000) / every) * every + c.offsetSec * 1000;
  return now < start + c.durationSec * 1000 ? start : null;
}

/** Why a bid took part in an auction or did not (the auction log shows it per bidder). */
export const RTB_BID_OUTCOMES = [
  'won',
  'lost',
  'belowFloor',
  'timeout',
  'invalid',
  'noBid',
  'error',
  'creativePending',
  'creativeRefused',
] as const;
export type RtbBidOutcome = (typeof RTB_BID_OUTCOMES)[number];

export interface AuctionBid {
  /** Unique among the auction's bids: `c:<campaignId>` or `d:<dspId>:<bidId>`. Ties go to the smaller key. */
  key: string;
  /** Fen per thousand impressions. */
  cpm: number;
}

export interface AuctionResult<B extends AuctionBid> {
  winner: B | null;
  /** What the winner pays, fen per thousand impressions (0 without a winner). */
  clearingCpm: number;
  /** The bids at or above the floor, best first (bid, then key). */
  ranked: B[];
  /** The bids below the floor. */
  belowFloor: B[];
}

/**
 * A second-price auction: the bids at or above the floor compete, the highest wins (equal
 * bids: the smaller key), and the winner pays the second bid plus 1 fen (0.01 yuan), at least
 * the floor and never more than its own bid; alone, it pays the floor.
 */
export function runAuction<B extends AuctionBid>(floorCpm: number, bids: readonly B[]): AuctionResult<B> {
  const eligible = bids.filter((b) => b.cpm >= floorCpm && b.cpm > 0);
  const belowFloor = bids.filter((b) => !(b.cpm >= floorCpm && b.cpm > 0));
  const ranked = [...eligible].sort((a, b) => b.cpm - a.cpm || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const winner = ranked[0] ?? null;
  if (!winner) return { winner: null, clearingCpm: 0, ranked, belowFloor };
  const second = ranked[1];
  const clearingCpm = Math.min(winner.cpm, Math.max(floorCpm, second ? second.cpm + 1 : floorCpm));
  return { winner, clearingCpm, ranked, belowFloor };
}

/** Impressions per play in thousandths: 1 impression = 1000. At least 1 (a play is seen at least once... or counted as such). */
export const QTY_MILLI_PER_IMPRESSION = 1000;

/**
 * What one play costs at a CPM: cpm x impressions / 1000, in fen, rounded half up (exact in
 * BigInt). A play always costs at least 1 fen when the CPM is above 0.
 */
export function playPrice(cpmFen: number, qtyMilli: number): number {
  if (cpmFen <= 0) return 0;
  const n = BigInt(Math.round(cpmFen)) * BigInt(Math.max(0, Math.round(qtyMilli)));
  const fen = Number((n + 500_000n) / 1_000_000n);
  return Math.max(1, fen);
}

/** Spec-less but necessary: campaign names and DSP names. */
export const RTB_NAME_MAX = 40;
/** Most screens, groups, tags and regions a campaign may name. */
export const RTB_TARGETS_MAX = 500;
/** A DSP answers within 10 to 1000 ms (OpenRTB `tmax`), default 200. */
export const DSP_TIMEOUT_MIN_MS = 10;
export const DSP_TIMEOUT_MAX_MS = 1000;
export const DSP_TIMEOUT_DEFAULT_MS = 200;

/** How a campaign spends: spread evenly over its hours, or as fast as the auctions allow. */
export const RTB_PACINGS = ['even', 'asap'] as const;
export type RtbPacing = (typeof RTB_PACINGS)[number];

/**
 * A campaign's states: `active` and `paused` are the advertiser's; `ended` (stopped, or its
 * period over: the rest of its budget released) is final. What the list shows adds
 * `scheduled` (before its period), `exhausted` (no budget left) and `noAd` (no approved ad).
 */
export const RTB_CAMPAIGN_STATES = ['active', 'paused', 'ended'] as const;
export type RtbCampaignState = (typeof RTB_CAMPAIGN_STATES)[number];
export const RTB_CAMPAIGN_SHOWN_STATES = ['scheduled', 'active', 'paused', 'exhausted', 'noAd', 'ended'] as const;
export type RtbCampaignShownState = (typeof RTB_CAMPAIGN_SHOWN_STATES)[number];

/** Who won a turn: an internal campaign, an external DSP, or nobody (the slot's fallback plays). */
export const RTB_WINNER_KINDS = ['campaign', 'dsp'] as const;
export type RtbWinnerKind = (typeof RTB_WINNER_KINDS)[number];

/**
 * A decided turn's states: `noBid` (nobody won: the fallback), `won` (waiting for proof),
 * `billed` (a completed play proved it; the price moved in the ledger), `unproven` (no proof
 * within RTB_PROOF_WINDOW_HOURS: nothing billed).
 */
export const RTB_AUCTION_STATES = ['noBid', 'won', 'billed', 'unproven'] as const;
export type RtbAuctionState = (typeof RTB_AUCTION_STATES)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * A campaign's calendar: its period and the hours and ISO weekdays it runs (masks; 0 = all),
 * on the wall clock of `zone` (the selling enterprise's time zone; UTC when absent).
 */
export interface CampaignCalendar {
  /** The first instant: its first day's midnight in `zone`. */
  startAt: number;
  /** The instant after its last day (the next midnight in `zone`). */
  endAt: number;
  /** The IANA zone its days, hours and weekdays are read in. */
  zone?: string;
  /** 24-bit mask of local hours (bit h = hour h); 0 or 0xFFFFFF: all. */
  hoursMask: number;
  /** 7-bit mask of ISO weekdays (bit 0 = Monday ... bit 6 = Sunday); 0 or 0x7F: all. */
  weekdaysMask: number;
}

const hoursOf = (c: CampaignCalendar) => c.hoursMask & 0xffffff || 0xffffff;
const daysOf = (c: CampaignCalendar) => c.weekdaysMask & 0x7f || 0x7f;
/**
 * The offset of `zone` from UTC at `t`, ms. Cached per zone and quarter hour: `Intl` is too slow
 * for every campaign on every turn, and no zone changes its offset but on a quarter hour.
 */
const offsets = new Map<string, number>();
const QUARTER_MS = 900_000;
/** The last answer: a run asks for one zone and quarter hour for every campaign of a turn. */
const last = { zone: '', quarter: Number.NaN, offset: 0 };
export function zoneOffsetMsAt(zone: string | undefined, t: number): number {
  if (!zone || zone === 'UTC') return 0;
  const quarter = Math.floor(t / QUARTER_MS);
  if (zone === last.zone && quarter === last.quarter) return last.offset;
  const key = `${zone}|${quarter}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    if (offsets.size > 100_000) offsets.clear();
    offset = zoneOffsetMinutes(t, zone) * 60_000;
    offsets.set(key, offset);
  }
  last.zone = zone;
  last.quarter = quarter;
  last.offset = offset;
  return offset;
}

/** ISO weekday index (Monday 0 ... Sunday 6) of a day number (days since 1970-01-01, a Thursday). */
const weekdayOfDay = (day: number) => (((day + 3) % 7) + 7) % 7;

function popcount(n: number): number {
  let x = n;
  let count = 0;
  while (x) {
    x &= x - 1;
    count++;
  }
  return count;
}

/** Whether the campaign runs at `t`: inside its period, and its local hour and weekday. */
export function calendarAllows(c: CampaignCalendar, t: number): boolean {
  if (t < c.startAt || t >= c.endAt) return false;
  const local = t + zoneOffsetMsAt(c.zone, t);
  const day = Math.floor(local / DAY_MS);
  const hour = Math.floor((local - day * DAY_MS) / HOUR_MS);
  return ((hoursOf(c) >> hour) & 1) === 1 && ((daysOf(c) >> weekdayOfDay(day)) & 1) === 1;
}

/**
 * Milliseconds the campaign runs in [from, to): hour by hour within the first and the last
 * local day, whole days in between by their count of running hours (plain arithmetic: the
 * pacing check calls it for every campaign on every turn). The range is read with the zone's
 * offset at its start: across a daylight-saving change the figure is off by that hour at most.
 */
export function activeMs(c: CampaignCalendar, from: number, to: number): number {
  const start = Math.max(from, c.startAt);
  const offset = zoneOffsetMsAt(c.zone, start);
  const a = start + offset;
  const b = Math.min(to, c.endAt) + offset;
  if (b <= a) return 0;
  const hours = hoursOf(c);
  const days = daysOf(c);
  const perDay = popcount(hours) * HOUR_MS;
  const partial = (x: number, y: number) => {
    let total = 0;
    for (let t = x; t < y; ) {
      const next = Math.min(y, Math.floor(t / HOUR_MS) * HOUR_MS + HOUR_MS);
      const day = Math.floor(t / DAY_MS);
      const hour = Math.floor((t - day * DAY_MS) / HOUR_MS);
      if (((hours >> hour) & 1) === 1 && ((days >> weekdayOfDay(day)) & 1) === 1) total += next - t;
      t = next;
    }
    return total;
  };
  const firstDayEnd = Math.floor(a / DAY_MS) * DAY_MS + DAY_MS;
  if (b <= firstDayEnd) return partial(a, b);
  const lastDayStart = Math.floor(b / DAY_MS) * DAY_MS;
  let total = partial(a, firstDayEnd) + partial(lastDayStart, b);
  for (let d = firstDayEnd / DAY_MS; d < lastDayStart / DAY_MS; d++) {
    if (((days >> weekdayOfDay(d)) & 1) === 1) total += perDay;
  }
  return total;
}

/** The day (`YYYY-MM-DD`) of an instant in `zone` (UTC when absent): daily budgets count by it. */
export function rtbDay(t: number, zone?: string): string {
  return new Date(t + zoneOffsetMsAt(zone, t)).toISOString().slice(0, 10);
}

export interface PacingState extends CampaignCalendar {
  pacing: RtbPacing;
  totalBudget: number;
  dailyBudget: number | null;
  /** Spent (billed) plus reserved (won, awaiting proof), fen. */
  committed: number;
  /** Committed on the day of `at` (wins of that day), fen. */
  committedToday: number;
}

/**
 * How much the campaign may have committed by `at` (fen), and whether a play costing `price`
 * fits. Always: committed + price <= total budget, and committed today + price <= daily
 * budget. Even pacing adds: by `at`, a day may have committed at most its share of the day's
 * budget in proportion to the campaign's running time elapsed that day (the day's budget is
 * the daily budget, else what is left spread over the running time left), so a day's spend
 * follows a straight line over its hours instead of running out in the first one.
 */
export function pacingAllows(s: PacingState, at: number, price: number): boolean {
  if (price <= 0) return false;
  if (s.committed + price > s.totalBudget) return false;
  if (s.dailyBudget !== null && s.committedToday + price > s.dailyBudget) return false;
  if (s.pacing === 'asap') return true;
  return s.committedToday + price <= evenTarget(s, at) + price * 0.5;
}

/** Even pacing's target: what the day of `at` may have committed by `at`, fen. */
export function evenTarget(s: PacingState, at: number): number {
  // The local day of `at`, as instants.
  const offset = zoneOffsetMsAt(s.zone, at);
  const local = at + offset;
  const dayStart = Math.floor(local / DAY_MS) * DAY_MS - offset;
  const dayEnd = dayStart + DAY_MS;
  const dayRun = activeMs(s, dayStart, dayEnd);
  if (dayRun <= 0) return 0;
  const committedBefore = s.committed - s.committedToday;
  const leftTotal = Math.max(0, s.totalBudget - committedBefore);
  const runLeft = activeMs(s, dayStart, s.endAt);
  const share = runLeft > 0 ? (leftTotal * dayRun) / runLeft : leftTotal;
  const dayBudget = s.dailyBudget === null ? share : Math.min(s.dailyBudget, share);
  // The current hour counts in full once it began: a turn early in an hour may spend that hour's share.
  const hourEnd = Math.min(dayEnd, Math.floor(local / HOUR_MS) * HOUR_MS + HOUR_MS - offset);
  return (dayBudget * activeMs(s, dayStart, hourEnd)) / dayRun;
}

/**
 * OpenOOH venue types (venue taxonomy 1.1, the names DSPs target) offered for a slot; the
 * request's `dooh.venuetypetax` says which taxonomy (AdCOM: 4 = OpenOOH 1.1).
 */
export const OPENOOH_VENUE_TYPES = [
  'transit.airports',
  'transit.buses',
  'transit.bus_shelters',
  'transit.subway',
  'transit.train_stations',
  'transit.taxi_and_rideshare_tv',
  'retail.malls',
  'retail.grocery',
  'retail.convenience_stores',
  'retail.gas_stations',
  'outdoor.billboards',
  'outdoor.urban_panels',
  'office_buildings.office_buildings',
  'entertainment.movie_theaters',
  'health_and_beauty.gyms',
  'point_of_care.doctor_offices',
] as const;
export type OpenoohVenueType = (typeof OPENOOH_VENUE_TYPES)[number];
export const OPENOOH_VENUE_TAXONOMY = 4;
export const DEFAULT_VENUE_TYPE: OpenoohVenueType = 'retail.malls';

/** What a manifest item of an RTB slot carries (docs/device-protocol.md 2.7.2). */
export interface RtbPickable {
  role?: string;
  schedule: { from?: number | null; until?: number | null };
  rtb?: { slotId: string; auctionId?: string; cadence?: RtbCadence; region?: RtbRegion };
}

/** A layout's component sold as an RTB slot (docs/device-protocol.md 2.7.2). */
export interface RtbRegion {
  layoutId: string;
  componentId: string;
}

/**
 * What an RTB slot of the loop plays at `now` on the device, if anything: a decided turn live
 * now (the earliest first), else a slot's fallback in one of its turns; null between turns.
 * Both players call it every second: a decided turn pre-empts the loop (not an emergency ad).
 * Region slots' items (`rtb.region`) never pre-empt: pickRtbRegionItem reads them.
 */
export function pickRtbItem<I extends RtbPickable>(items: readonly I[], now: number): I | null {
  return pickAmong(
    items.filter((i) => !i.rtb?.region),
    now,
  );
}

/**
 * What a layout's component sold as an RTB slot shows at `now` while that layout is on screen:
 * the same choice as pickRtbItem among the items of that region only; null between its turns
 * (the component's own content shows then).
 */
export function pickRtbRegionItem<I extends RtbPickable>(
  items: readonly I[],
  region: RtbRegion,
  now: number,
): I | null {
  return pickAmong(
    items.filter((i) => i.rtb?.region?.layoutId === region.layoutId && i.rtb.region.componentId === region.componentId),
    now,
  );
}

/** The components of a layout that are RTB regions on this device (their items' regions), in order. */
export function rtbRegionsOf(items: readonly RtbPickable[], layoutId: string | null | undefined): RtbRegion[] {
  if (!layoutId) return [];
  const seen = new Map<string, RtbRegion>();
  for (const i of items) {
    const r = i.role === 'rtb' ? i.rtb?.region : undefined;
    if (r && r.layoutId === layoutId && !seen.has(r.componentId)) seen.set(r.componentId, r);
  }
  return [...seen.values()];
}

function pickAmong<I extends RtbPickable>(items: readonly I[], now: number): I | null {
  const within = (i: I) => (i.schedule.from ?? -Infinity) <= now && now < (i.schedule.until ?? Infinity);
  const decided = items
    .filter((i) => i.role === 'rtb' && i.rtb?.auctionId && within(i))
    .sort((a, b) => (a.schedule.from ?? 0) - (b.schedule.from ?? 0));
  if (decided.length > 0) return decided[0];
  for (const i of items) {
    const cadence = i.role === 'rtb' ? i.rtb?.cadence : undefined;
    if (cadence && within(i) && rtbTurnAt(cadence, now) !== null) return i;
  }
  return null;
}

/** One turn of an RTB slot as a player plays it: its key (`a:<auctionId>`, or `f:<item id>:<start>` for a fallback), start and end (ms). */
export interface RtbTurn {
  key: string;
  start: number;
  end: number;
}

/**
 * The turn an RTB item plays at `now` (docs/device-protocol.md 2.7.2), for both players: a
 * decided turn is its schedule's `from` to `until`, a fallback the slot's turn of its cadence
 * live now (ending with its ad's `until` if sooner); null outside them.
 */
export function rtbTurnOf(item: RtbPickable & { id: string }, now: number): RtbTurn | null {
  const rtb = item.rtb;
  if (item.role !== 'rtb' || !rtb) return null;
  const from = item.schedule.from ?? Number.NEGATIVE_INFINITY;
  const until = item.schedule.until ?? Number.POSITIVE_INFINITY;
  if (now < from || now >= until) return null;
  if (rtb.auctionId) return { key: `a:${rtb.auctionId}`, start: from, end: until };
  if (!rtb.cadence) return null;
  const start = rtbTurnAt(rtb.cadence, now);
  if (start === null) return null;
  return { key: `f:${item.id}:${start}`, start, end: Math.min(until, start + rtb.cadence.durationSec * 1000) };
}
