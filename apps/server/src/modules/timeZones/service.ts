import { timeZoneList, wallClock } from '@marquee/protocol';
import { eq, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devices, enterprises } from '../../db/schema/index.js';
import type { CallContext } from '../../protocol/handlers.js';

/**
 * Time zones (issue 31, docs/ARCHITECTURE.md "Time zones"): an enterprise's IANA zone, which a
 * device may override. A device's effective zone is the wall clock its schedules and strategies
 * run on (the manifest's `timeZone`), and the one the server reads the same schedules in
 * (the reports' expected plays, monitoring's checks).
 */

/** The effective zone of a devices row in SQL: its own, else its enterprise's. */
export const deviceZoneSql = sql<string>`coalesce(${devices.timeZone}, (select ${enterprises.timeZone} from ${enterprises} where ${enterprises.id} = ${devices.entId}))`;

/** The effective zone of each of these devices (absent ids: unknown devices). */
export async function deviceZones(db: Executor, deviceIds: readonly string[]): Promise<Map<string, string>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db
    .select({ id: devices.id, zone: deviceZoneSql })
    .from(devices)
    .where(inArray(devices.id, [...new Set(deviceIds)]));
  return new Map(rows.map((r) => [r.id, r.zone]));
}

/** One device's effective zone (the enterprise default's when the device is unknown). */
export async function deviceZone(db: Executor, deviceId: string, fallback: string): Promise<string> {
  return (await deviceZones(db, [deviceId])).get(deviceId) ?? fallback;
}

/**
 * The calendar day of `now` in the zone of the enterprise `entId` names (an id column or value),
 * as SQL (a date): "today" of what that enterprise sells, its campaigns', goods', orders' and
 * coupons' dates being days of its zone.
 */
export function enterpriseTodaySql(entId: SQLWrapper | string, now: Date): SQL {
  return sql`(${now.toISOString()}::timestamptz at time zone coalesce((select ${enterprises.timeZone} from ${enterprises} where ${enterprises.id} = ${entId}), 'UTC'))::date`;
}

/** The calendar day (YYYY-MM-DD) of `now` in `zone`. */
export const dayIn = (now: Date, zone: string): string => wallClock(now.getTime(), zone).day;

/** The calendar day (YYYY-MM-DD) of `now` in the enterprise's zone. */
export async function enterpriseToday(db: Executor, entId: string, now: Date, fallback: string): Promise<string> {
  return dayIn(now, await enterpriseZone(db, entId, fallback));
}

/** An enterprise's zone. */
export async function enterpriseZone(db: Executor, entId: string, fallback = 'UTC'): Promise<string> {
  const [row] = await db.select({ zone: enterprises.timeZone }).from(enterprises).where(eq(enterprises.id, entId));
  return row?.zone ?? fallback;
}

/** The zone of the caller's enterprise (the one it acts in). */
export const callerZone = (ctx: CallContext): Promise<string> =>
  enterpriseZone(ctx.db, ctx.user.entId, ctx.services.config.defaultTimeZone);

/** timeZone.list: the zones with their offsets now, the caller's enterprise's and the default. */
export async function listTimeZones(ctx: CallContext) {
  const fallback = ctx.services.config.defaultTimeZone;
  return {
    zones: timeZoneList(ctx.now.getTime()),
    enterprise: await enterpriseZone(ctx.db, ctx.user.entId, fallback),
    default: fallback,
  };
}

/**
 * The zone an enterprise's reports count days and hours in (issue 31): the one its screens'
 * plays are rolled up in (enterprises.rollup_zone, its time_zone once rebuilt after a change),
 * and the first day counted in it when older days were counted in an earlier zone.
 */
export async function reportZone(db: Executor, entId: string): Promise<{ timeZone: string; zoneSince: string | null }> {
  const [row] = await db
    .select({ zone: enterprises.rollupZone, since: enterprises.rollupZoneSince })
    .from(enterprises)
    .where(eq(enterprises.id, entId));
  return { timeZone: row?.zone ?? 'UTC', zoneSince: row?.since ?? null };
}
