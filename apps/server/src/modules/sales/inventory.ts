import { ErrorCode, hoursOfMask, LONG_OFFLINE_HOURS } from '@marquee/protocol';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type AdSlotRow, adSlots, salesBookings, salesGoods, salesGoodsLines } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { devicesReached } from '../ads/schedule.js';
import { effectiveStatus } from '../devices/repository.js';
import { dayIn, enterpriseTodaySql, enterpriseZone } from '../timeZones/service.js';
import { ALL_HOURS_MASK, classLow, classPeak, firstFull, loadClasses, type Period } from './availability.js';
import { keepMembers, keptMembers, screenGeneration } from './screenCache.js';
import { InventoryText } from './texts.js';

/**
 * The inventory of the airtime market (issue 28): bookings hold (`hold`, until expires_at)
 * or book (`booked`, `makeGood`) rotations of a slot on screens for days x hours. A
 * screen-hour's live rotations never exceed the slot's maxRotations: bookRotations checks and
 * inserts under the slot's row lock (`select ... from ad_slots ... for update`, in id order),
 * so concurrent buyers of a slot serialize and the last rotation sells once.
 */

export interface BookingSpec {
  entId: string;
  slotId: string;
  orderId: string;
  lineId: string;
  deviceIds: string[];
  startDate: string;
  endDate: string;
  hoursMask: number;
  rotations: number;
  kind: 'hold' | 'booked' | 'makeGood';
  expiresAt: Date | null;
}

type Rows<T> = { rows: T[] };
const rowsOf = <T>(r: unknown): T[] => (r as Rows<T>).rows;
const jsonIds = (ids: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

/** Locks the slots (ad_slots rows, FOR NO KEY UPDATE, in id order; deleted or another enterprise's: NOT_FOUND). */
export async function lockSlots(db: Executor, entId: string, slotIds: string[]): Promise<AdSlotRow[]> {
  const ids = [...new Set(slotIds)].sort();
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(adSlots)
    .where(and(inArray(adSlots.id, ids), eq(adSlots.entId, entId), isNull(adSlots.deletedAt)))
    .orderBy(asc(adSlots.id))
    // NO KEY UPDATE, not UPDATE: a buyer's transaction already holds KEY SHARE on the slot row
    // (its order lines' foreign key); two of them upgrading to FOR UPDATE would deadlock. NO
    // KEY UPDATE still serializes the buyers of a slot and does not conflict with KEY SHARE.
    .for('no key update');
  if (rows.length !== ids.length) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.slotNotFound);
  return rows;
}

/** A device's offline hours when it counts as offline at `now` (effectiveStatus), else null. */
export function offlineHours(
  row: { status: string; lastSeenAt: Date | null; statusAt: Date; heartbeatSec: number },
  now: Date,
): number | null {
  const status = effectiveStatus(row as Parameters<typeof effectiveStatus>[0], now.getTime());
  if (status !== 'offline') return null;
  const seen = Math.max(row.lastSeenAt?.getTime() ?? 0, row.statusAt.getTime());
  return Math.floor((now.getTime() - seen) / 3600_000);
}

interface DeviceState {
  id: string;
  name: string;
  /** Hours offline when more than LONG_OFFLINE_HOURS, else null. */
  longOfflineHours: number | null;
}

/** Names and long-offline state of the enterprise's devices among `ids` (one query, any number of ids). */
export async function deviceStates(
  db: Executor,
  entId: string,
  ids: readonly string[],
  now: Date,
): Promise<DeviceState[]> {
  if (ids.length === 0) return [];
  // Instants as epoch milliseconds (numbers): no timestamp parsing for 10,000 rows.
  const result = await db.execute(sql`
    select id, name, status, heartbeat_sec,
           (extract(epoch from last_seen_at) * 1000)::float8 as seen_ms,
           (extract(epoch from status_at) * 1000)::float8 as status_ms
      from devices
     where ent_id = ${entId} and id in ${jsonIds(ids)}`);
  return rowsOf<{
    id: string;
    name: string;
    status: string;
    heartbeat_sec: number;
    seen_ms: number | string | null;
    status_ms: number | string;
  }>(result).map((r) => {
    const hours = offlineHours(
      {
        status: r.status,
        lastSeenAt: r.seen_ms === null ? null : new Date(Number(r.seen_ms)),
        statusAt: new Date(Number(r.status_ms)),
        heartbeatSec: Number(r.heartbeat_sec),
      },
      now,
    );
    return { id: r.id, name: r.name, longOfflineHours: hours !== null && hours > LONG_OFFLINE_HOURS ? hours : null };
  });
}

/**
 * The devices a slot reaches now (its targets resolved like ads': devicesReached), with name
 * and whether offline more than LONG_OFFLINE_HOURS (shown, not sellable); by name.
 *
 * Which devices and their names are kept per slot (screenCache.ts) while the enterprise's screen
 * generation stays the same; presence is read on every call. One statement reads the
 * generation, whether this transaction changed screens itself (then nothing kept is used or
 * kept), and the devices that may be offline that long (those last seen before the cut-off:
 * few, whatever the number of screens), each then judged exactly (offlineHours). When the
 * generation moved, the targets are resolved again and kept if the generation did not move
 * meanwhile.
 */
export async function slotScreens(
  db: Executor,
  slot: AdSlotRow,
  now: Date,
): Promise<{ id: string; name: string; longOffline: boolean }[]> {
  const cutoff = new Date(now.getTime() - LONG_OFFLINE_HOURS * 3600_000);
  const live = rowsOf<{
    gen: string;
    changed: boolean;
    id: string | null;
    status: string;
    heartbeat_sec: number;
    seen_ms: number | string | null;
    status_ms: number | string;
  }>(
    await db.execute(sql`
      select g.gen::text as gen, coalesce(current_setting('marquee.screen_changed', true) = 'on', false) as changed,
             d.id, d.status, d.heartbeat_sec,
             (extract(epoch from d.last_seen_at) * 1000)::float8 as seen_ms,
             (extract(epoch from d.status_at) * 1000)::float8 as status_ms
        from (select coalesce((select gen from sales_screen_generations where ent_id = ${slot.entId}), 0) as gen) g
        left join devices d
          on d.ent_id = ${slot.entId} and d.status in ('online', 'offline')
         and greatest(d.last_seen_at, d.status_at) < ${cutoff.toISOString()}::timestamptz`),
  );
  const gen = live[0].gen;
  // This transaction changed screens itself (not committed yet, so the generation has not moved):
  // nothing kept is used, nothing is kept.
  const changed = live[0].changed === true;
  const longOffline = new Set<string>();
  for (const r of live) {
    if (r.id === null) continue;
    const hours = offlineHours(
      {
        status: r.status,
        lastSeenAt: r.seen_ms === null ? null : new Date(Number(r.seen_ms)),
        statusAt: new Date(Number(r.status_ms)),
        heartbeatSec: Number(r.heartbeat_sec),
      },
      now,
    );
    if (hours !== null && hours > LONG_OFFLINE_HOURS) longOffline.add(r.id);
  }
  let members = changed ? null : keptMembers(slot, gen);
  if (!members) {
    const ids = await devicesReached(db, slot.entId, [{ ...slot.targets, deptIds: [] }]);
    const named =
      ids.length === 0
        ? []
        : rowsOf<{ id: string; name: string }>(
            await db.execute(sql`select id, name from devices where ent_id = ${slot.entId} and id in ${jsonIds(ids)}`),
          ).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    members = { ids: named.map((r) => r.id), names: named.map((r) => r.name) };
    if (!changed && (await screenGeneration(db, slot.entId)) === gen) keepMembers(slot, gen, members);
  }
  const { ids, names } = members;
  const out = new Array<{ id: string; name: string; longOffline: boolean }>(ids.length);
  for (let i = 0; i < ids.length; i++) out[i] = { id: ids[i], name: names[i], longOffline: longOffline.has(ids[i]) };
  return out;
}

const periodOf = (s: { startDate: string; endDate: string; hoursMask: number }): Period => ({
  startDate: s.startDate,
  endDate: s.endDate,
  hoursMask: (s.hoursMask & ALL_HOURS_MASK) === 0 ? ALL_HOURS_MASK : s.hoursMask & ALL_HOURS_MASK,
});

const invalidSpec = () => new AppError(ErrorCode.INVALID_PARAMS);

/**
 * Locks the specs' slots, checks every screen-hour (live bookings + rotations <= maxRotations)
 * and throws TIME_CONFLICT naming the first full device/day/hour, else inserts the bookings
 * and their devices (one INSERT ... SELECT per booking, whatever its number of devices).
 * Screens offline more than 72 hours are refused (DEVICE_LONG_OFFLINE) except for make-goods;
 * devices not of the enterprise: AD_TARGET_INVALID. Specs are checked and inserted in order,
 * so two specs of one call on the same screen-hours count each other. Refreshes the goods'
 * sold-out flag of the slots.
 */
export async function bookRotations(db: Executor, specs: BookingSpec[], now: Date): Promise<void> {
  if (specs.length === 0) return;
  const byEnt = new Map<string, string[]>();
  for (const s of specs) byEnt.set(s.entId, [...(byEnt.get(s.entId) ?? []), s.slotId]);
  const slots = new Map<string, AdSlotRow>();
  for (const [entId, slotIds] of [...byEnt.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const slot of await lockSlots(db, entId, slotIds)) slots.set(slot.id, slot);
  }
  for (const spec of specs) {
    const slot = slots.get(spec.slotId);
    if (!slot) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.slotNotFound);
    const deviceIds = [...new Set(spec.deviceIds)];
    if (
      deviceIds.length === 0 ||
      !Number.isInteger(spec.rotations) ||
      spec.rotations < 1 ||
      spec.endDate < spec.startDate ||
      (spec.hoursMask & ALL_HOURS_MASK) === 0
    ) {
      throw invalidSpec();
    }
    const period = periodOf(spec);
    const states = await deviceStates(db, spec.entId, deviceIds, now);
    if (states.length !== deviceIds.length) {
      throw new AppError(ErrorCode.AD_TARGET_INVALID, InventoryText.goodsDevicesInvalid);
    }
    const names = new Map(states.map((s) => [s.id, s.name]));
    if (spec.kind !== 'makeGood') {
      const off = states.find((s) => s.longOfflineHours !== null);
      if (off) {
        throw new AppError(
          ErrorCode.DEVICE_LONG_OFFLINE,
          InventoryText.deviceLongOffline(off.name, off.longOfflineHours ?? 0),
        );
      }
    }
    if (spec.rotations > slot.maxRotations) {
      const first = [...deviceIds].sort()[0];
      throw new AppError(
        ErrorCode.TIME_CONFLICT,
        InventoryText.timeConflict(names.get(first) ?? first, period.startDate, hoursOfMask(period.hoursMask)[0]),
      );
    }
    const classes = await loadClasses(db, slot.id, deviceIds, period, now);
    let worst: { day: string; hour: number; deviceId: string } | null = null;
    for (const c of classes) {
      const full = firstFull(c, period, spec.rotations, slot.maxRotations);
      if (!full) continue;
      const deviceId = [...c.deviceIds].sort()[0];
      if (!worst || full.day < worst.day || (full.day === worst.day && full.hour < worst.hour)) {
        worst = { ...full, deviceId };
      }
    }
    if (worst) {
      throw new AppError(
        ErrorCode.TIME_CONFLICT,
        InventoryText.timeConflict(names.get(worst.deviceId) ?? worst.deviceId, worst.day, worst.hour),
      );
    }
    const [booking] = await db
      .insert(salesBookings)
      .values({
        entId: spec.entId,
        slotId: spec.slotId,
        orderId: spec.orderId,
        lineId: spec.lineId,
        kind: spec.kind,
        startDate: spec.startDate,
        endDate: spec.endDate,
        hoursMask: period.hoursMask,
        rotations: spec.rotations,
        expiresAt: spec.kind === 'hold' ? spec.expiresAt : null,
        createdAt: now,
      })
      .returning({ id: salesBookings.id });
    await db.execute(sql`
      insert into sales_booking_devices (booking_id, device_id)
      select ${booking.id}, d from ${jsonIds(deviceIds)} as t(d)`);
  }
  await refreshSoldOut(db, [...slots.keys()], now);
}

/**
 * The most rotations every given screen-hour still has (maxRotations - live), not counting
 * excludeOrderId's own bookings; 0 when there is no screen.
 */
export async function bookableRotations(
  db: Executor,
  q: {
    slotId: string;
    deviceIds: string[];
    startDate: string;
    endDate: string;
    hoursMask: number;
    excludeOrderId?: string;
  },
  now: Date,
): Promise<number> {
  const [slot] = await db
    .select({ id: adSlots.id, maxRotations: adSlots.maxRotations })
    .from(adSlots)
    .where(and(eq(adSlots.id, q.slotId), isNull(adSlots.deletedAt)));
  if (!slot) throw new AppError(ErrorCode.NOT_FOUND, InventoryText.slotNotFound);
  const deviceIds = [...new Set(q.deviceIds)];
  if (deviceIds.length === 0 || q.endDate < q.startDate) return 0;
  const period = periodOf(q);
  const classes = await loadClasses(db, slot.id, deviceIds, period, now, q.excludeOrderId);
  let peak = 0;
  for (const c of classes) peak = Math.max(peak, classPeak(c, period));
  return Math.max(0, slot.maxRotations - peak);
}

/** The order's live holds become bookings (paid): kind booked, no expiry. */
export async function confirmHolds(db: Executor, orderId: string): Promise<void> {
  await db
    .update(salesBookings)
    .set({ kind: 'booked', expiresAt: null })
    .where(and(eq(salesBookings.orderId, orderId), eq(salesBookings.kind, 'hold'), isNull(salesBookings.releasedAt)));
}

/** Releases every booking of the order still unreleased (released_at = now); refreshes sold-out; returns how many. */
export async function releaseBookings(db: Executor, orderId: string, now: Date): Promise<number> {
  const rows = await db
    .update(salesBookings)
    .set({ releasedAt: now })
    .where(and(eq(salesBookings.orderId, orderId), isNull(salesBookings.releasedAt)))
    .returning({ slotId: salesBookings.slotId });
  if (rows.length > 0) await refreshSoldOut(db, [...new Set(rows.map((r) => r.slotId))], now);
  return rows.length;
}

/**
 * Recomputes sales_goods.sold_out for the goods on sale (not expired) using these slots: a
 * goods item is sold out when one of its lines has no rotation left in any screen-hour of its
 * sellable screens from today to its end (an order needs every line of a programme).
 */
export async function refreshSoldOut(db: Executor, slotIds: string[], now: Date): Promise<void> {
  const ids = [...new Set(slotIds)];
  if (ids.length === 0) return;
  const goods = await db
    .select()
    .from(salesGoods)
    .where(
      and(
        eq(salesGoods.state, 'onSale'),
        isNull(salesGoods.deletedAt),
        sql`${salesGoods.endDate} >= ${enterpriseTodaySql(salesGoods.entId, now)}`,
        inArray(
          salesGoods.id,
          db.select({ id: salesGoodsLines.goodsId }).from(salesGoodsLines).where(inArray(salesGoodsLines.slotId, ids)),
        ),
      ),
    );
  if (goods.length === 0) return;
  const lines = await db
    .select()
    .from(salesGoodsLines)
    .where(
      inArray(
        salesGoodsLines.goodsId,
        goods.map((g) => g.id),
      ),
    );
  const slotRows = await db
    .select()
    .from(adSlots)
    .where(inArray(adSlots.id, [...new Set(lines.map((l) => l.slotId))]));
  const slotById = new Map(slotRows.map((s) => [s.id, s]));
  const screensOf = new Map<string, Promise<{ id: string; longOffline: boolean }[]>>();
  const screens = (slot: AdSlotRow) => {
    let p = screensOf.get(slot.id);
    if (!p) {
      p = slotScreens(db, slot, now);
      screensOf.set(slot.id, p);
    }
    return p;
  };
  // Goods' dates are days of their enterprise's zone.
  const zones = new Map<string, string>();
  for (const g of goods) {
    let zone = zones.get(g.entId);
    if (zone === undefined) {
      zone = await enterpriseZone(db, g.entId, 'UTC');
      zones.set(g.entId, zone);
    }
    const today = dayIn(now, zone);
    const period = periodOf({
      startDate: g.startDate > today ? g.startDate : today,
      endDate: g.endDate,
      hoursMask: g.hoursMask,
    });
    let soldOut = false;
    for (const line of lines.filter((l) => l.goodsId === g.id)) {
      const slot = slotById.get(line.slotId);
      if (!slot || slot.deletedAt) {
        soldOut = true;
        break;
      }
      const all = await screens(slot);
      const chosen = line.deviceIds.length > 0 ? new Set(line.deviceIds) : null;
      const sellable = all.filter((s) => !s.longOffline && (!chosen || chosen.has(s.id))).map((s) => s.id);
      if (sellable.length === 0) {
        soldOut = true;
        break;
      }
      const classes = await loadClasses(db, slot.id, sellable, period, now);
      if (!classes.some((c) => classLow(c, period) < slot.maxRotations)) {
        soldOut = true;
        break;
      }
    }
    if (soldOut !== g.soldOut) {
      await db
        .update(salesGoods)
        .set({ soldOut })
        .where(and(eq(salesGoods.id, g.id), sql`${salesGoods.soldOut} is distinct from ${soldOut}`));
    }
  }
}
