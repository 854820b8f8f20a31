import { daysInclusive, hoursOfMask } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

/**
 * The availability of a slot's rotations (issue 28): THE computation behind the availability
 * chart, the order's checks (bookRotations, bookableRotations) and the goods' sold-out flag.
 *
 * A screen-hour (slot, device, day, hour) has `maxRotations` rotations; live bookings (not
 * released; holds not past expires_at) take some. The slot's live bookings overlapping the
 * period are few (hundreds); the screens many (10,000). Screens covered by the same set of
 * bookings have identical figures, so screens are grouped by that set (equivalence classes,
 * usually few) and each class gets one day x hour grid of booked and held rotations (built
 * with per-hour difference arrays over days). Totals, the series and the per-screen figures
 * are sums over classes weighted by their screen counts: no screen x hour row is ever
 * materialised.
 */

export const ALL_HOURS_MASK = 0xffffff;

/** A live booking as the computation sees it. */
export interface LiveBooking {
  id: string;
  orderId: string;
  kind: 'hold' | 'booked' | 'makeGood';
  startDate: string;
  endDate: string;
  hoursMask: number;
  rotations: number;
}

/** Screens with identical bookings: their (identical) grid of booked and held rotations, index day * 24 + hour. */
export interface ScreenClass {
  deviceIds: string[];
  /** Null when no booking covers these screens (all zero). */
  booked: Int32Array | null;
  held: Int32Array | null;
}

export interface Period {
  startDate: string;
  endDate: string;
  /** The chosen hours (24-bit mask, never 0). */
  hoursMask: number;
}

const DAY_MS = 86_400_000;
const dayMs = (d: string) => Date.parse(`${d}T00:00:00Z`);
export const dayIndex = (start: string, d: string) => Math.round((dayMs(d) - dayMs(start)) / DAY_MS);
export const dayAt = (start: string, i: number) => new Date(dayMs(start) + i * DAY_MS).toISOString().slice(0, 10);

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown): T[] => (r as Rows<T>).rows;

/** The slot's live bookings overlapping the period and its hours at `now` (optionally not those of an order). */
export async function liveBookings(
  db: Executor,
  slotId: string,
  period: Period,
  now: Date,
  excludeOrderId?: string,
): Promise<LiveBooking[]> {
  const exclude = excludeOrderId ? sql` and order_id <> ${excludeOrderId}` : sql``;
  const result = await db.execute(sql`
    select id, order_id, kind, start_date::text as start_date, end_date::text as end_date, hours_mask, rotations
      from sales_bookings
     where slot_id = ${slotId} and released_at is null
       and (kind <> 'hold' or expires_at > ${now.toISOString()}::timestamptz)
       and start_date <= ${period.endDate}::date and end_date >= ${period.startDate}::date
       and (hours_mask & ${period.hoursMask}) <> 0${exclude}
     order by id`);
  return rowsOf<{
    id: string;
    order_id: string;
    kind: LiveBooking['kind'];
    start_date: string;
    end_date: string;
    hours_mask: number;
    rotations: number;
  }>(result).map((r) => ({
    id: r.id,
    orderId: r.order_id,
    kind: r.kind,
    startDate: r.start_date,
    endDate: r.end_date,
    hoursMask: Number(r.hours_mask),
    rotations: Number(r.rotations),
  }));
}

/*
 * A booking's devices never change once inserted (sales_booking_devices is insert-only), so
 * each booking's device set is read once and kept in memory, as indexes into an intern table
 * of device ids. A booking written by a transaction that rolled back is simply never asked
 * for again. The cache is bounded: past the limits it starts afresh.
 */
const internIndex = new Map<string, number>();
/** Bumped each time the intern table starts afresh: device indexes of an older epoch mean nothing now. */
let internEpoch = 0;
const bookingDeviceCache = new Map<string, Int32Array>();
let cachedRefs = 0;
const CACHE_MAX_REFS = 20_000_000;
const INTERN_MAX = 2_000_000;

function intern(id: string): number {
  let i = internIndex.get(id);
  if (i === undefined) {
    i = internIndex.size;
    internIndex.set(id, i);
  }
  return i;
}

/** The devices of each booking (interned), read from the database only for bookings not seen before. */
async function bookingDevices(db: Executor, bookings: readonly LiveBooking[]): Promise<Int32Array[]> {
  if (cachedRefs > CACHE_MAX_REFS || internIndex.size > INTERN_MAX) {
    bookingDeviceCache.clear();
    internIndex.clear();
    cachedRefs = 0;
    internEpoch++;
  }
  const missing = bookings.filter((b) => !bookingDeviceCache.has(b.id)).map((b) => b.id);
  if (missing.length > 0) {
    const result = await db.execute(sql`
      select booking_id, string_agg(device_id, ',') as ids from sales_booking_devices
       where booking_id in (select jsonb_array_elements_text(${JSON.stringify(missing)}::jsonb))
       group by booking_id`);
    const found = new Map<string, Int32Array>();
    for (const r of rowsOf<{ booking_id: string; ids: string | null }>(result)) {
      const ids = r.ids ? r.ids.split(',') : [];
      const arr = new Int32Array(ids.length);
      for (let k = 0; k < ids.length; k++) arr[k] = intern(ids[k]);
      found.set(r.booking_id, arr);
    }
    for (const id of missing) {
      const arr = found.get(id) ?? new Int32Array(0);
      bookingDeviceCache.set(id, arr);
      cachedRefs += arr.length;
    }
  }
  return bookings.map((b) => bookingDeviceCache.get(b.id) ?? new Int32Array(0));
}

/**
 * bookingDevices, read again if the intern table started afresh (another call past the limits)
 * before this call resumed: the indexes returned are those of the table as it is now.
 */
async function currentBookingDevices(db: Executor, bookings: readonly LiveBooking[]): Promise<Int32Array[]> {
  for (;;) {
    // Usually every booking's devices are known already: no read, no turn of the event loop.
    if (cachedRefs <= CACHE_MAX_REFS && internIndex.size <= INTERN_MAX) {
      const known: Int32Array[] = [];
      for (const b of bookings) {
        const devices = bookingDeviceCache.get(b.id);
        if (!devices) break;
        known.push(devices);
      }
      if (known.length === bookings.length) return known;
    }
    const epoch = internEpoch;
    const devicesOf = await bookingDevices(db, bookings);
    if (epoch === internEpoch) return devicesOf;
  }
}

/**
 * Where each interned device stands among the screens of the call (-1: not among them). One
 * buffer for every call, all -1 between calls (each call resets what it set), grown with the
 * intern table: no array of the intern table's size (up to INTERN_MAX) filled per call.
 */
let positionScratch = new Int32Array(0);

/** Screens grouped by the set of bookings covering them (see groupScreens), as typed arrays. */
interface Grouping {
  /** Per screen (its position in the call's list): its class. */
  classOf: Int32Array;
  count: number;
  /** Per class: how many screens. */
  size: Int32Array;
  /** Per class c: the bookings covering it are members[memberStart[c] .. memberStart[c + 1]), ascending. */
  memberStart: Int32Array;
  members: Int32Array;
}

/**
 * Groups the screens `deviceIds` by the set of bookings covering them: each screen gets a
 * 64-bit set hash (two lanes of sums of per-booking random words) and its count, the classes
 * are the distinct (hash, count), numbered in order of first screen; then each booking is listed
 * in the classes it covers (a booking covers a class entirely or not at all). A screen listed
 * twice takes the class of its last listing.
 */
function groupPositions(
  bookings: readonly LiveBooking[],
  devicesOf: readonly Int32Array[],
  deviceIds: readonly string[],
): Grouping {
  const n = deviceIds.length;
  const interned = new Int32Array(n);
  for (let p = 0; p < n; p++) interned[p] = internIndex.get(deviceIds[p]) ?? -1;
  const kept = keptGrouping(bookings, interned);
  if (kept) return kept;
  const grouping = computeGrouping(bookings, devicesOf, interned);
  keepGrouping(bookings, interned, grouping);
  return grouping;
}

/*
 * The last groupings, for the next call on the same screens and the same live bookings (the
 * availability chart asked again, the order's checks after it): a grouping depends on nothing
 * else, since a booking's devices never change and its figures (kind, days, hours, rotations)
 * are not part of it. Screens are compared as their interned indexes (a screen no booking ever
 * named is -1, and is covered by none of these bookings whatever its id), bookings by id, both
 * in the intern table's epoch.
 */
const GROUPINGS_KEPT = 8;
const groupings: { epoch: number; bookingIds: string[]; interned: Int32Array; grouping: Grouping }[] = [];

function keptGrouping(bookings: readonly LiveBooking[], interned: Int32Array): Grouping | null {
  search: for (let e = 0; e < groupings.length; e++) {
    const g = groupings[e];
    if (g.epoch !== internEpoch || g.bookingIds.length !== bookings.length || g.interned.length !== interned.length) {
      continue;
    }
    for (let k = 0; k < bookings.length; k++) if (g.bookingIds[k] !== bookings[k].id) continue search;
    for (let p = 0; p < interned.length; p++) if (g.interned[p] !== interned[p]) continue search;
    if (e > 0) {
      groupings.splice(e, 1);
      groupings.unshift(g);
    }
    return g.grouping;
  }
  return null;
}

function keepGrouping(bookings: readonly LiveBooking[], interned: Int32Array, grouping: Grouping): void {
  groupings.unshift({ epoch: internEpoch, bookingIds: bookings.map((b) => b.id), interned, grouping });
  if (groupings.length > GROUPINGS_KEPT) groupings.length = GROUPINGS_KEPT;
}

/** groupPositions' work, for screens given as interned indexes (-1: not interned). */
function computeGrouping(
  bookings: readonly LiveBooking[],
  devicesOf: readonly Int32Array[],
  interned: Int32Array,
): Grouping {
  const n = interned.length;
  if (positionScratch.length < internIndex.size) {
    positionScratch = new Int32Array(Math.max(internIndex.size, positionScratch.length * 2, 1024)).fill(-1);
  }
  // Every booking's devices are interned already (bookingDevices): all below internIndex.size.
  const pos = positionScratch;
  for (let p = 0; p < n; p++) if (interned[p] >= 0) pos[interned[p]] = p;
  try {
    const h1 = new Int32Array(n);
    const h2 = new Int32Array(n);
    const cnt = new Int32Array(n);
    for (let k = 0; k < bookings.length; k++) {
      const r1 = (Math.random() * 0x100000000) | 0;
      const r2 = (Math.random() * 0x100000000) | 0;
      const list = devicesOf[k];
      for (let j = 0; j < list.length; j++) {
        const p = pos[list[j]];
        if (p < 0) continue;
        h1[p] = (h1[p] + r1) | 0;
        h2[p] = (h2[p] + r2) | 0;
        cnt[p]++;
      }
    }
    // Classes: an open-addressing table of (h1, h2, cnt) -> class, each class known by its first screen.
    let cap = 16;
    while (cap < 2 * n) cap *= 2;
    const table = new Int32Array(cap).fill(-1);
    const first: number[] = [];
    const own = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      let slot =
        (Math.imul(h1[p] ^ Math.imul(h2[p], 0x9e3779b1) ^ Math.imul(cnt[p], 0x85ebca6b), 0xc2b2ae35) >>> 0) & (cap - 1);
      let c = -1;
      for (;;) {
        const t = table[slot];
        if (t < 0) break;
        const f = first[t];
        if (h1[f] === h1[p] && h2[f] === h2[p] && cnt[f] === cnt[p]) {
          c = t;
          break;
        }
        slot = (slot + 1) & (cap - 1);
      }
      if (c < 0) {
        c = first.length;
        first.push(p);
        table[slot] = c;
      }
      own[p] = c;
    }
    const count = first.length;
    // A screen listed twice: its earlier listings take the class of its last one (which the bookings counted).
    const classOf = new Int32Array(n);
    const size = new Int32Array(count);
    for (let p = 0; p < n; p++) {
      const c = interned[p] >= 0 ? own[pos[interned[p]]] : own[p];
      classOf[p] = c;
      size[c]++;
    }
    // The bookings of each class, in booking order: (class, booking) pairs, then by class.
    let pairClass = new Int32Array(Math.max(16, bookings.length * 4));
    let pairBooking = new Int32Array(pairClass.length);
    let pairs = 0;
    const mark = new Int32Array(count).fill(-1);
    const memberCount = new Int32Array(count);
    for (let k = 0; k < bookings.length; k++) {
      const list = devicesOf[k];
      for (let j = 0; j < list.length; j++) {
        const p = pos[list[j]];
        if (p < 0) continue;
        const c = own[p];
        if (mark[c] === k) continue;
        mark[c] = k;
        if (pairs === pairClass.length) {
          const grownClass = new Int32Array(pairs * 2);
          grownClass.set(pairClass);
          pairClass = grownClass;
          const grownBooking = new Int32Array(pairs * 2);
          grownBooking.set(pairBooking);
          pairBooking = grownBooking;
        }
        pairClass[pairs] = c;
        pairBooking[pairs] = k;
        pairs++;
        memberCount[c]++;
      }
    }
    const memberStart = new Int32Array(count + 1);
    for (let c = 0; c < count; c++) memberStart[c + 1] = memberStart[c] + memberCount[c];
    const fill = memberStart.slice(0, count);
    const members = new Int32Array(pairs);
    for (let q = 0; q < pairs; q++) members[fill[pairClass[q]]++] = pairBooking[q];
    return { classOf, count, size, memberStart, members };
  } finally {
    for (let p = 0; p < n; p++) if (interned[p] >= 0) pos[interned[p]] = -1;
  }
}

/**
 * Groups `deviceIds` by the set of bookings covering them (groupPositions): each class's
 * screens (in the order given) and the bookings covering it.
 */
export function groupScreens(
  bookings: readonly LiveBooking[],
  devicesOf: readonly Int32Array[],
  deviceIds: readonly string[],
): { deviceIds: string[]; members: number[] }[] {
  const g = groupPositions(bookings, devicesOf, deviceIds);
  const out: { deviceIds: string[]; members: number[] }[] = [];
  for (let c = 0; c < g.count; c++) {
    out.push({ deviceIds: [], members: Array.from(g.members.subarray(g.memberStart[c], g.memberStart[c + 1])) });
  }
  for (let p = 0; p < deviceIds.length; p++) out[g.classOf[p]].deviceIds.push(deviceIds[p]);
  return out;
}

/** Columns of a day's row in the difference grids: hours 0..23 and the column past the last. */
const COLS = 25;

/**
 * A class's booked (booked and make-good) and held rotations over the period's days x hours,
 * from the bookings covering it, by two-dimensional difference grids: each booking adds four
 * corners per run of consecutive hours of its mask (its days x that run), and running sums over
 * hours then days give every cell. The grids and running sums serve every class of a call and
 * are left all zero after each; only the days and hours the class's bookings cover are visited.
 */
class GridBuilder {
  readonly days: number;
  readonly hours: Int32Array;
  /** Per hour 0..23: its index among the chosen hours, or -1. */
  private readonly hourIndex: Int32Array;
  private readonly firstDay: Int32Array;
  private readonly lastDay: Int32Array;
  private readonly masks: Int32Array;
  private readonly held: Uint8Array;
  private readonly rotations: Int32Array;
  private readonly dBooked: Int32Array;
  private readonly dHeld: Int32Array;
  private readonly colBooked = new Int32Array(COLS);
  private readonly colHeld = new Int32Array(COLS);
  /** The last class's covered days (dMin .. dMax) and hours (hMin .. hMax); empty when dMax < dMin. */
  private dMin = 0;
  private dMax = -1;
  private hMin = 0;
  private hMax = -1;
  /** What clampedSums() found for the last class: clamped booked and held rotations over its cells, and its fullest cell. */
  sumBooked = 0;
  sumHeld = 0;
  peak = 0;

  constructor(bookings: readonly LiveBooking[], period: Period) {
    this.days = Math.max(0, daysInclusive(period.startDate, period.endDate));
    this.hours = Int32Array.from(hoursOfMask(period.hoursMask));
    this.hourIndex = new Int32Array(24).fill(-1);
    for (let hi = 0; hi < this.hours.length; hi++) this.hourIndex[this.hours[hi]] = hi;
    const n = bookings.length;
    this.firstDay = new Int32Array(n);
    this.lastDay = new Int32Array(n);
    this.masks = new Int32Array(n);
    this.held = new Uint8Array(n);
    this.rotations = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const b = bookings[k];
      this.firstDay[k] = Math.max(0, dayIndex(period.startDate, b.startDate));
      this.lastDay[k] = Math.min(this.days - 1, dayIndex(period.startDate, b.endDate));
      this.masks[k] = b.hoursMask & period.hoursMask & ALL_HOURS_MASK;
      this.held[k] = b.kind === 'hold' ? 1 : 0;
      this.rotations[k] = b.rotations;
    }
    this.dBooked = new Int32Array((this.days + 1) * COLS);
    this.dHeld = new Int32Array((this.days + 1) * COLS);
  }

  /**
   * Adds the bookings members[from .. to) into the difference grids (`combined`: held ones into
   * the booked grid too); notes the days and hours they cover.
   */
  private add(members: Int32Array, from: number, to: number, combined = false): void {
    const { dBooked, dHeld } = this;
    let union = 0;
    let dMin = this.days;
    let dMax = -1;
    for (let q = from; q < to; q++) {
      const k = members[q];
      const s = this.firstDay[k];
      const e = this.lastDay[k];
      let m = this.masks[k];
      if (e < s || m === 0) continue;
      union |= m;
      if (s < dMin) dMin = s;
      if (e > dMax) dMax = e;
      const diff = this.held[k] === 1 && !combined ? dHeld : dBooked;
      const r = this.rotations[k];
      const top = s * COLS;
      const bottom = (e + 1) * COLS;
      while (m !== 0) {
        // The lowest run of consecutive hours: h0 .. h1.
        const low = m & -m;
        const rest = m & (m + low);
        const h0 = 31 - Math.clz32(low);
        const h1 = 31 - Math.clz32(m ^ rest);
        m = rest;
        diff[top + h0] += r;
        diff[top + h1 + 1] -= r;
        diff[bottom + h0] -= r;
        diff[bottom + h1 + 1] += r;
      }
    }
    this.dMin = dMin;
    this.dMax = dMax;
    this.hMin = union === 0 ? 0 : 31 - Math.clz32(union & -union);
    this.hMax = union === 0 ? -1 : 31 - Math.clz32(union);
  }

  /** Leaves the difference grids and running sums all zero again. */
  private clear(): void {
    if (this.dMax >= this.dMin) {
      this.dBooked.fill(0, this.dMin * COLS, (this.dMax + 2) * COLS);
      this.dHeld.fill(0, this.dMin * COLS, (this.dMax + 2) * COLS);
    }
    this.colBooked.fill(0);
    this.colHeld.fill(0);
  }

  /**
   * Writes the grids of the class covered by members[from .. to) into booked and held (days * 24
   * each, index day * 24 + hour, all zero before): the chosen hours' cells its bookings cover
   * (every other chosen cell is 0).
   */
  build(members: Int32Array, from: number, to: number, booked: Int32Array, held: Int32Array): void {
    this.add(members, from, to);
    const { dBooked, dHeld, colBooked, colHeld, hourIndex, hMin, hMax } = this;
    for (let d = this.dMin; d <= this.dMax; d++) {
      let rb = 0;
      let rh = 0;
      const row = d * COLS;
      for (let h = hMin; h <= hMax; h++) {
        rb += dBooked[row + h];
        rh += dHeld[row + h];
        colBooked[h] += rb;
        colHeld[h] += rh;
        if (hourIndex[h] < 0) continue;
        booked[d * 24 + h] = colBooked[h];
        held[d * 24 + h] = colHeld[h];
      }
    }
    this.clear();
  }

  /** Cells of the period booking k covers (its days x its chosen hours). */
  cellsOf(k: number): number {
    const days = this.lastDay[k] - this.firstDay[k] + 1;
    let m = this.masks[k];
    let hours = 0;
    while (m !== 0) {
      m &= m - 1;
      hours++;
    }
    return days > 0 ? days * hours : 0;
  }

  /** The most booked + held rotations (not clamped) in any chosen cell of the class covered by members[from .. to). */
  rawPeak(members: Int32Array, from: number, to: number): number {
    this.add(members, from, to, true);
    const { dBooked, colBooked, hourIndex, hMin, hMax } = this;
    let peak = 0;
    for (let d = this.dMin; d <= this.dMax; d++) {
      let r = 0;
      const row = d * COLS;
      for (let h = hMin; h <= hMax; h++) {
        r += dBooked[row + h];
        const c = colBooked[h] + r;
        colBooked[h] = c;
        if (c > peak && hourIndex[h] >= 0) peak = c;
      }
    }
    this.clear();
    return peak;
  }

  /**
   * The series if no cell were clamped: each booking's rotations times `weights[k]` (the screens
   * it covers) in each of its cells, by chosen hour (index day * hours + hour's index) or by day.
   */
  linearSeries(weights: Float64Array, sBooked: Float64Array, sHeld: Float64Array, byHour: boolean): void {
    const rows = this.days + 1;
    const dB = new Float64Array(rows * COLS);
    const dH = new Float64Array(rows * COLS);
    for (let k = 0; k < weights.length; k++) {
      const s = this.firstDay[k];
      const e = this.lastDay[k];
      let m = this.masks[k];
      if (e < s || m === 0 || weights[k] === 0) continue;
      const v = this.rotations[k] * weights[k];
      const diff = this.held[k] === 1 ? dH : dB;
      const top = s * COLS;
      const bottom = (e + 1) * COLS;
      while (m !== 0) {
        const low = m & -m;
        const rest = m & (m + low);
        const h0 = 31 - Math.clz32(low);
        const h1 = 31 - Math.clz32(m ^ rest);
        m = rest;
        diff[top + h0] += v;
        diff[top + h1 + 1] -= v;
        diff[bottom + h0] -= v;
        diff[bottom + h1 + 1] += v;
      }
    }
    const colB = new Float64Array(COLS);
    const colH = new Float64Array(COLS);
    const hourCount = this.hours.length;
    for (let d = 0; d < this.days; d++) {
      let rb = 0;
      let rh = 0;
      const row = d * COLS;
      for (let h = 0; h < 24; h++) {
        rb += dB[row + h];
        rh += dH[row + h];
        colB[h] += rb;
        colH[h] += rh;
        const hi = this.hourIndex[h];
        if (hi < 0) continue;
        const k = byHour ? d * hourCount + hi : d;
        sBooked[k] += colB[h];
        sHeld[k] += colH[h];
      }
    }
  }

  /**
   * The class covered by members[from .. to), `w` screens, some cell of which holds more than
   * `max`: sets sumBooked, sumHeld (each cell clamped: booked at most `max`, held at most what
   * booked leaves) and peak (its fullest clamped cell), and adds into the series, by chosen hour
   * or by day, what clamping takes off its cells (times `w`) from linearSeries' figures.
   */
  clampedSums(
    members: Int32Array,
    from: number,
    to: number,
    max: number,
    w: number,
    sBooked: Float64Array,
    sHeld: Float64Array,
    byHour: boolean,
  ): void {
    this.add(members, from, to);
    const { dBooked, dHeld, colBooked, colHeld, hourIndex, hMin, hMax } = this;
    const hourCount = this.hours.length;
    let booked = 0;
    let held = 0;
    let peak = 0;
    for (let d = this.dMin; d <= this.dMax; d++) {
      let rb = 0;
      let rh = 0;
      const row = d * COLS;
      for (let h = hMin; h <= hMax; h++) {
        rb += dBooked[row + h];
        rh += dHeld[row + h];
        const cb = colBooked[h] + rb;
        const ch = colHeld[h] + rh;
        colBooked[h] = cb;
        colHeld[h] = ch;
        const hi = hourIndex[h];
        if (hi < 0) continue;
        const b = cb < max ? cb : max;
        const hd = ch < max - b ? ch : max - b;
        if (b + hd > peak) peak = b + hd;
        booked += b;
        held += hd;
        const k = byHour ? d * hourCount + hi : d;
        sBooked[k] += (b - cb) * w;
        sHeld[k] += (hd - ch) * w;
      }
    }
    this.sumBooked = booked;
    this.sumHeld = held;
    this.peak = peak;
    this.clear();
  }
}

/**
 * Builds each class's grid of booked (booked and make-good) and held rotations over the
 * period's days x 24 hours (only the period's hours are filled).
 */
export function screenClasses(
  bookings: readonly LiveBooking[],
  groups: readonly { deviceIds: string[]; members: readonly number[] }[],
  period: Period,
): ScreenClass[] {
  const grids = new GridBuilder(bookings, period);
  const out: ScreenClass[] = [];
  for (const g of groups) {
    if (g.members.length === 0) {
      out.push({ deviceIds: g.deviceIds, booked: null, held: null });
      continue;
    }
    const booked = new Int32Array(grids.days * 24);
    const held = new Int32Array(grids.days * 24);
    grids.build(Int32Array.from(g.members), 0, g.members.length, booked, held);
    out.push({ deviceIds: g.deviceIds, booked, held });
  }
  return out;
}

/** Loads the bookings and builds the classes of `deviceIds` for the period. */
export async function loadClasses(
  db: Executor,
  slotId: string,
  deviceIds: readonly string[],
  period: Period,
  now: Date,
  excludeOrderId?: string,
): Promise<ScreenClass[]> {
  const bookings = await liveBookings(db, slotId, period, now, excludeOrderId);
  const devicesOf = await currentBookingDevices(db, bookings);
  return screenClasses(bookings, groupScreens(bookings, devicesOf, deviceIds), period);
}

/** The most booked + held rotations in any chosen screen-hour of a class (0 when unbooked). */
export function classPeak(c: ScreenClass, period: Period): number {
  if (!c.booked || !c.held) return 0;
  const days = daysInclusive(period.startDate, period.endDate);
  const hours = hoursOfMask(period.hoursMask);
  let peak = 0;
  for (let d = 0; d < days; d++) {
    for (const h of hours) {
      const v = c.booked[d * 24 + h] + c.held[d * 24 + h];
      if (v > peak) peak = v;
    }
  }
  return peak;
}

/** The fewest booked + held rotations in any chosen screen-hour of a class (0 when unbooked). */
export function classLow(c: ScreenClass, period: Period): number {
  if (!c.booked || !c.held) return 0;
  const days = daysInclusive(period.startDate, period.endDate);
  const hours = hoursOfMask(period.hoursMask);
  let low = Number.POSITIVE_INFINITY;
  for (let d = 0; d < days; d++) {
    for (const h of hours) {
      const v = c.booked[d * 24 + h] + c.held[d * 24 + h];
      if (v < low) low = v;
    }
  }
  return low === Number.POSITIVE_INFINITY ? 0 : low;
}

/** The first (earliest day, then hour) chosen screen-hour of a class where `rotations` more would exceed `max`. */
export function firstFull(
  c: ScreenClass,
  period: Period,
  rotations: number,
  max: number,
): { day: string; hour: number } | null {
  const days = daysInclusive(period.startDate, period.endDate);
  const hours = hoursOfMask(period.hoursMask);
  for (let d = 0; d < days; d++) {
    for (const h of hours) {
      const used = c.booked && c.held ? c.booked[d * 24 + h] + c.held[d * 24 + h] : 0;
      if (used + rotations > max) return { day: dayAt(period.startDate, d), hour: h };
    }
  }
  return null;
}

/** Rotations over some screen-hours. */
export interface Figures {
  capacity: number;
  booked: number;
  held: number;
  available: number;
  availPct: number;
  fillRate: number;
}

const pct1 = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

export function figures(capacity: number, booked: number, held: number): Figures {
  const available = Math.max(0, capacity - booked - held);
  return {
    capacity,
    booked,
    held,
    available,
    availPct: pct1(available, capacity),
    fillRate: pct1(Math.min(capacity, booked + held), capacity),
  };
}

export interface ScreenInfo {
  id: string;
  name: string;
  longOffline: boolean;
}

export interface AvailabilityResult {
  slotId: string;
  maxRotations: number;
  bookable: number;
  total: Figures;
  series: ({ at: string } & Figures)[];
  screens: {
    total: number;
    data: ({ deviceId: string; deviceName: string; longOffline: boolean; minAvailable: number } & Figures)[];
  };
  computedAt: string;
}

const byNameThenId = (a: ScreenInfo, b: ScreenInfo) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * The availability of a slot on `screens` (already resolved and narrowed) for the period:
 * totals, the series by hour or day (summed over screens), a page of screens fullest first,
 * and `bookable` (the most rotations every chosen screen-hour of the sellable screens still has).
 *
 * Everything is per class of screens (groupPositions), in typed arrays: one grid at a time in
 * buffers every class reuses, each class's clamped sums and peak, the series weighted by the
 * class's size; the screens are ordered by class (fullest first) then by name with a counting
 * sort (`screens` usually come by name already: slotScreens), and only the page's rows are built.
 */
export async function computeAvailability(
  db: Executor,
  slot: { id: string; maxRotations: number },
  screens: readonly ScreenInfo[],
  q: Period & { granularity: 'hour' | 'day'; page: number; size: number; excludeOrderId?: string },
  now: Date,
): Promise<AvailabilityResult> {
  const period: Period = { startDate: q.startDate, endDate: q.endDate, hoursMask: q.hoursMask };
  const max = slot.maxRotations;
  const days = daysInclusive(period.startDate, period.endDate);
  const hourList = hoursOfMask(period.hoursMask);
  const cells = days * hourList.length;
  const n = screens.length;
  const deviceIds = new Array<string>(n);
  for (let p = 0; p < n; p++) deviceIds[p] = screens[p].id;
  const bookings = await liveBookings(db, slot.id, period, now, q.excludeOrderId);
  const devicesOf = await currentBookingDevices(db, bookings);
  const g = groupPositions(bookings, devicesOf, deviceIds);

  // Per class: sums over its cells (clamped so a cell never shows more than its capacity), its
  // fullest cell, and its share of the series (per hour: each day x chosen hour; per day).
  const grids = new GridBuilder(bookings, period);
  const hourCount = grids.hours.length;
  const gridDays = grids.days;
  const byHour = q.granularity === 'hour';
  const cBooked = new Float64Array(g.count);
  const cHeld = new Float64Array(g.count);
  const cPeak = new Int32Array(g.count);
  const sBooked = new Float64Array(byHour ? gridDays * hourCount : gridDays);
  const sHeld = new Float64Array(sBooked.length);
  let tBooked = 0;
  let tHeld = 0;
  // Screens each booking covers, and each booking's rotations over its cells: with no cell
  // above `max` (the usual case: bookRotations never books past it), a class's figures are
  // sums over its bookings and the series a sum over bookings; only a class with a fuller cell
  // is summed cell by cell, clamped, and its clamping taken off the series.
  const weights = new Float64Array(bookings.length);
  for (let c = 0; c < g.count; c++) {
    for (let q = g.memberStart[c]; q < g.memberStart[c + 1]; q++) weights[g.members[q]] += g.size[c];
  }
  const bookingCells = new Float64Array(bookings.length);
  for (let k = 0; k < bookings.length; k++) bookingCells[k] = bookings[k].rotations * grids.cellsOf(k);
  grids.linearSeries(weights, sBooked, sHeld, byHour);
  for (let c = 0; c < g.count; c++) {
    const from = g.memberStart[c];
    const to = g.memberStart[c + 1];
    if (from === to) continue;
    const w = g.size[c];
    const raw = grids.rawPeak(g.members, from, to);
    if (raw <= max) {
      let booked = 0;
      let held = 0;
      for (let q = from; q < to; q++) {
        const k = g.members[q];
        if (bookings[k].kind === 'hold') held += bookingCells[k];
        else booked += bookingCells[k];
      }
      cBooked[c] = booked;
      cHeld[c] = held;
      cPeak[c] = raw;
    } else {
      grids.clampedSums(g.members, from, to, max, w, sBooked, sHeld, byHour);
      cBooked[c] = grids.sumBooked;
      cHeld[c] = grids.sumHeld;
      cPeak[c] = grids.peak;
    }
    tBooked += cBooked[c] * w;
    tHeld += cHeld[c] * w;
  }
  const total = figures(max * cells * n, tBooked, tHeld);

  const series: AvailabilityResult['series'] = [];
  const dayStartMs = Date.parse(`${period.startDate}T00:00:00Z`);
  if (byHour) {
    // '<day>T<hh>:00:00.000Z', as toISOString writes an instant on the hour.
    const hourSuffix = hourList.map((h) => `T${String(h).padStart(2, '0')}:00:00.000Z`);
    let k = 0;
    for (let d = 0; d < days; d++) {
      const day = new Date(dayStartMs + d * DAY_MS).toISOString().slice(0, 10);
      for (let hi = 0; hi < hourList.length; hi++) {
        series.push({ at: day + hourSuffix[hi], ...figures(max * n, sBooked[k], sHeld[k]) });
        k++;
      }
    }
  } else {
    for (let d = 0; d < days; d++) {
      series.push({ at: dayAt(period.startDate, d), ...figures(max * n * hourList.length, sBooked[d], sHeld[d]) });
    }
  }

  // Bookable: over the sellable screens, the most rotations left in their fullest chosen screen-hour.
  let worst = -1;
  for (let p = 0; p < n; p++) {
    if (screens[p].longOffline) continue;
    const peak = cPeak[g.classOf[p]];
    if (peak > worst) worst = peak;
  }
  const bookable = worst < 0 ? 0 : Math.max(0, max - worst);

  // Screens, fullest first (then the lowest minimum left, then name, then id): classes ranked
  // by (booked + held, peak), equal ones sharing a rank; screens by name within a rank.
  const classOrder = Array.from({ length: g.count }, (_, c) => c).sort(
    (a, b) => cBooked[b] + cHeld[b] - (cBooked[a] + cHeld[a]) || cPeak[b] - cPeak[a],
  );
  const rank = new Int32Array(g.count);
  let ranks = 0;
  for (let i = 0; i < classOrder.length; i++) {
    const c = classOrder[i];
    const prev = i > 0 ? classOrder[i - 1] : -1;
    if (prev >= 0 && cBooked[c] + cHeld[c] === cBooked[prev] + cHeld[prev] && cPeak[c] === cPeak[prev]) {
      rank[c] = rank[prev];
    } else {
      rank[c] = ranks++;
    }
  }
  let byName: ArrayLike<number> | null = null;
  for (let p = 1; p < n; p++) {
    if (byNameThenId(screens[p - 1], screens[p]) > 0) {
      byName = Array.from({ length: n }, (_, i) => i).sort((a, b) => byNameThenId(screens[a], screens[b]) || a - b);
      break;
    }
  }
  const rankStart = new Int32Array(ranks + 1);
  for (let p = 0; p < n; p++) rankStart[rank[g.classOf[p]] + 1]++;
  for (let r = 0; r < ranks; r++) rankStart[r + 1] += rankStart[r];
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = byName ? byName[i] : i;
    order[rankStart[rank[g.classOf[p]]]++] = p;
  }
  const pageFrom = Math.max(0, (q.page - 1) * q.size);
  const pageTo = Math.min(n, q.page * q.size);
  const data: AvailabilityResult['screens']['data'] = [];
  for (let i = pageFrom; i < pageTo; i++) {
    const p = order[i];
    const s = screens[p];
    const c = g.classOf[p];
    data.push({
      deviceId: s.id,
      deviceName: s.name,
      longOffline: s.longOffline,
      minAvailable: Math.max(0, max - cPeak[c]),
      ...figures(max * cells, cBooked[c], cHeld[c]),
    });
  }
  return {
    slotId: slot.id,
    maxRotations: max,
    bookable,
    total,
    series,
    screens: { total: n, data },
    computedAt: now.toISOString(),
  };
}
