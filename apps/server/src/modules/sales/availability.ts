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
 * Groups `deviceIds` by the set of bookings covering them: each device gets a 64-bit set hash
 * (two lanes of sums of per-booking random words) and its count, the classes are the distinct
 * hashes; then each booking is listed in the classes it covers (a booking covers a class
 * entirely or not at all).
 */
export function groupScreens(
  bookings: readonly LiveBooking[],
  devicesOf: readonly Int32Array[],
  deviceIds: readonly string[],
): { deviceIds: string[]; members: number[] }[] {
  const n = deviceIds.length;
  const pos = new Int32Array(internIndex.size + n).fill(-1);
  for (let p = 0; p < n; p++) {
    const i = internIndex.get(deviceIds[p]);
    if (i !== undefined) pos[i] = p;
  }
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
  const classIndex = new Map<string, number>();
  const classOf = new Int32Array(n);
  const out: { deviceIds: string[]; members: number[] }[] = [];
  for (let p = 0; p < n; p++) {
    const key = cnt[p] === 0 ? '' : `${h1[p]}:${h2[p]}:${cnt[p]}`;
    let c = classIndex.get(key);
    if (c === undefined) {
      c = out.length;
      classIndex.set(key, c);
      out.push({ deviceIds: [], members: [] });
    }
    classOf[p] = c;
    out[c].deviceIds.push(deviceIds[p]);
  }
  const mark = new Int32Array(out.length).fill(-1);
  for (let k = 0; k < bookings.length; k++) {
    const list = devicesOf[k];
    for (let j = 0; j < list.length; j++) {
      const p = pos[list[j]];
      if (p < 0) continue;
      const c = classOf[p];
      if (mark[c] !== k) {
        mark[c] = k;
        out[c].members.push(k);
      }
    }
  }
  return out;
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
  const days = daysInclusive(period.startDate, period.endDate);
  const hours = hoursOfMask(period.hoursMask);
  // Each booking's days within the period, once (not per class).
  const firstDay = new Int32Array(bookings.length);
  const lastDay = new Int32Array(bookings.length);
  for (let k = 0; k < bookings.length; k++) {
    firstDay[k] = Math.max(0, dayIndex(period.startDate, bookings[k].startDate));
    lastDay[k] = Math.min(days - 1, dayIndex(period.startDate, bookings[k].endDate));
  }
  const out: ScreenClass[] = [];
  for (const g of groups) {
    if (g.members.length === 0) {
      out.push({ deviceIds: g.deviceIds, booked: null, held: null });
      continue;
    }
    // Difference arrays per hour over days (days + 1 slots each), then prefix sums.
    const stride = days + 1;
    const dBooked = new Int32Array(24 * stride);
    const dHeld = new Int32Array(24 * stride);
    for (const i of g.members) {
      const b = bookings[i];
      const s = firstDay[i];
      const e = lastDay[i];
      if (e < s) continue;
      const diff = b.kind === 'hold' ? dHeld : dBooked;
      const mask = b.hoursMask & period.hoursMask;
      for (const h of hours) {
        if ((mask & (1 << h)) === 0) continue;
        diff[h * stride + s] += b.rotations;
        diff[h * stride + e + 1] -= b.rotations;
      }
    }
    const booked = new Int32Array(days * 24);
    const held = new Int32Array(days * 24);
    for (const h of hours) {
      let rb = 0;
      let rh = 0;
      for (let d = 0; d < days; d++) {
        rb += dBooked[h * stride + d];
        rh += dHeld[h * stride + d];
        booked[d * 24 + h] = rb;
        held[d * 24 + h] = rh;
      }
    }
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
  const devicesOf = await bookingDevices(db, bookings);
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

/**
 * The availability of a slot on `screens` (already resolved and narrowed) for the period:
 * totals, the series by hour or day (summed over screens), a page of screens fullest first,
 * and `bookable` (the most rotations every chosen screen-hour of the sellable screens still has).
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
  const hours = hoursOfMask(period.hoursMask);
  const cells = days * hours.length;
  const classes = await loadClasses(
    db,
    slot.id,
    screens.map((s) => s.id),
    period,
    now,
    q.excludeOrderId,
  );

  // Per class: sums over its cells (clamped so a cell never shows more than its capacity).
  const perClass = classes.map((c) => {
    let booked = 0;
    let held = 0;
    let peak = 0;
    if (c.booked && c.held) {
      for (let d = 0; d < days; d++) {
        for (const h of hours) {
          const b = Math.min(max, c.booked[d * 24 + h]);
          const hd = Math.min(max - b, c.held[d * 24 + h]);
          booked += b;
          held += hd;
          if (b + hd > peak) peak = b + hd;
        }
      }
    }
    return { c, booked, held, peak };
  });
  const classOf = new Map<string, (typeof perClass)[number]>();
  for (const pc of perClass) for (const id of pc.c.deviceIds) classOf.set(id, pc);

  let tBooked = 0;
  let tHeld = 0;
  for (const pc of perClass) {
    tBooked += pc.booked * pc.c.deviceIds.length;
    tHeld += pc.held * pc.c.deviceIds.length;
  }
  const total = figures(max * cells * screens.length, tBooked, tHeld);

  // Series: per hour (each day x chosen hour) or per day.
  const n = screens.length;
  const bucketCount = q.granularity === 'hour' ? cells : days;
  const sBooked = new Float64Array(bucketCount);
  const sHeld = new Float64Array(bucketCount);
  for (const pc of perClass) {
    if (!pc.c.booked || !pc.c.held) continue;
    const w = pc.c.deviceIds.length;
    let k = 0;
    for (let d = 0; d < days; d++) {
      for (const h of hours) {
        const b = Math.min(max, pc.c.booked[d * 24 + h]);
        const hd = Math.min(max - b, pc.c.held[d * 24 + h]);
        const bucket = q.granularity === 'hour' ? k : d;
        sBooked[bucket] += b * w;
        sHeld[bucket] += hd * w;
        k++;
      }
    }
  }
  const series: AvailabilityResult['series'] = [];
  const dayStartMs = Date.parse(`${period.startDate}T00:00:00Z`);
  if (q.granularity === 'hour') {
    let k = 0;
    for (let d = 0; d < days; d++) {
      for (const h of hours) {
        const at = new Date(dayStartMs + d * DAY_MS + h * 3600_000).toISOString();
        series.push({ at, ...figures(max * n, sBooked[k], sHeld[k]) });
        k++;
      }
    }
  } else {
    for (let d = 0; d < days; d++) {
      series.push({ at: dayAt(period.startDate, d), ...figures(max * n * hours.length, sBooked[d], sHeld[d]) });
    }
  }

  // Bookable: over the sellable screens, the most rotations left in their fullest chosen screen-hour.
  let worst = -1;
  for (const s of screens) {
    if (s.longOffline) continue;
    const pc = classOf.get(s.id);
    const peak = pc ? pc.peak : 0;
    if (peak > worst) worst = peak;
  }
  const bookable = worst < 0 ? 0 : Math.max(0, max - worst);

  // Screens, fullest first (then the lowest minimum left, then name).
  const rows = screens.map((s) => {
    const pc = classOf.get(s.id);
    return { s, booked: pc?.booked ?? 0, held: pc?.held ?? 0, peak: pc?.peak ?? 0 };
  });
  rows.sort(
    (a, b) =>
      b.booked + b.held - (a.booked + a.held) ||
      b.peak - a.peak ||
      (a.s.name < b.s.name ? -1 : a.s.name > b.s.name ? 1 : 0) ||
      (a.s.id < b.s.id ? -1 : a.s.id > b.s.id ? 1 : 0),
  );
  const pageRows = rows.slice((q.page - 1) * q.size, q.page * q.size);
  return {
    slotId: slot.id,
    maxRotations: max,
    bookable,
    total,
    series,
    screens: {
      total: rows.length,
      data: pageRows.map((r) => ({
        deviceId: r.s.id,
        deviceName: r.s.name,
        longOffline: r.s.longOffline,
        minAvailable: Math.max(0, max - r.peak),
        ...figures(max * cells, r.booked, r.held),
      })),
    },
    computedAt: now.toISOString(),
  };
}
