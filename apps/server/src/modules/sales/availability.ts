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

/** Which of `deviceIds` each booking covers: device id -> indexes (into `bookings`), ascending. */
export async function bookingMembership(
  db: Executor,
  bookings: readonly LiveBooking[],
  deviceIds: readonly string[],
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (bookings.length === 0 || deviceIds.length === 0) return out;
  const index = new Map(bookings.map((b, i) => [b.id, i]));
  const asked = new Set(deviceIds);
  const result = await db.execute(sql`
    select booking_id, device_id from sales_booking_devices
     where booking_id in (select jsonb_array_elements_text(${JSON.stringify(bookings.map((b) => b.id))}::jsonb))`);
  for (const r of rowsOf<{ booking_id: string; device_id: string }>(result)) {
    if (!asked.has(r.device_id)) continue;
    const i = index.get(r.booking_id);
    if (i === undefined) continue;
    const list = out.get(r.device_id);
    if (list) list.push(i);
    else out.set(r.device_id, [i]);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

/**
 * Groups the screens by the set of bookings covering them and builds each class's grid of
 * booked (booked and make-good) and held rotations over the period's days x 24 hours (only
 * the period's hours are filled).
 */
export function screenClasses(
  bookings: readonly LiveBooking[],
  membership: ReadonlyMap<string, readonly number[]>,
  deviceIds: readonly string[],
  period: Period,
): ScreenClass[] {
  const days = daysInclusive(period.startDate, period.endDate);
  const groups = new Map<string, { deviceIds: string[]; members: readonly number[] }>();
  for (const id of deviceIds) {
    const members = membership.get(id) ?? [];
    const key = members.join(',');
    const g = groups.get(key);
    if (g) g.deviceIds.push(id);
    else groups.set(key, { deviceIds: [id], members });
  }
  const hours = hoursOfMask(period.hoursMask);
  const out: ScreenClass[] = [];
  for (const g of groups.values()) {
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
      const s = Math.max(0, dayIndex(period.startDate, b.startDate));
      const e = Math.min(days - 1, dayIndex(period.startDate, b.endDate));
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
  const membership = await bookingMembership(db, bookings, deviceIds);
  return screenClasses(bookings, membership, deviceIds, period);
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
