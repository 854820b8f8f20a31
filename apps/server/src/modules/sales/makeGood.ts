import { AD_NAME_MAX, daysBetween, ErrorCode } from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { ads, type SalesOrderRow, salesOrderLines, salesSettlementLines } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { pushAdChange } from '../ads/schedule.js';
import { dayIn, enterpriseZone } from '../timeZones/service.js';
import { bookRotations } from './inventory.js';
import { daysFrame } from './orderAds.js';

/**
 * Make-goods (issue 28): for the under-delivered screen-days whose remedy is 'extraPlays', the
 * sub-order's slot is booked again (bookings of kind 'makeGood', H1's bookRotations under the
 * slot's row lock) on those screens, in the order's hours, one day at a time from the day
 * after today: as many days per screen as it had under-delivered days, within the next
 * MAKE_GOOD_WINDOW_DAYS days; a day whose screen-hours are full (TIME_CONFLICT) is skipped, so
 * a screen may get fewer days than it lost (the result says what was scheduled).
 *
 * The extra plays run as a make-good ad per sub-order and run of days with the same screens:
 * a copy of the sub-order's approved ad (source 'order', same slot, materials or layout,
 * strategy and plays per loop, hours), targets = those screens, period = those days (00:00 of
 * the first to 00:00 after the last, days of the enterprise's zone, as the order's). Review is carried: the copy shows exactly the
 * content that passed review (same materials, same round), so it is stored review 'passed' and
 * the chain schedules it at once (pushAdChange); its name says it is a make-good of the ad.
 */

export const MAKE_GOOD_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

export interface MakeGoodResult {
  /** Per sub-order and screen: days lost (extraPlays), days scheduled. */
  screens: { lineId: string; deviceId: string; wanted: number; days: string[] }[];
  adIds: string[];
  /** The last make-good day (null: nothing scheduled). */
  until: string | null;
}

/**
 * What skips a make-good day rather than failing the confirm: the screen-hours are full, or
 * the screen (or the slot) is no longer there to book (deleted since).
 */
const SKIPPED = new Set<number>([
  ErrorCode.TIME_CONFLICT,
  ErrorCode.DEVICE_LONG_OFFLINE,
  ErrorCode.AD_TARGET_INVALID,
  ErrorCode.NOT_FOUND,
]);

/** Runs a savepoint: on a SKIPPED error nothing of it stays and false is returned. */
async function tryBook(db: Executor, fn: (tx: Executor) => Promise<void>): Promise<boolean> {
  try {
    await db.transaction(async (tx) => fn(tx as unknown as Executor));
    return true;
  } catch (error) {
    if (error instanceof AppError && SKIPPED.has(error.code)) {
      return false;
    }
    throw error;
  }
}

/** Books and schedules the make-goods of a confirmed settlement (inside the confirm's transaction). */
export async function scheduleMakeGoods(
  ctx: CallContext,
  order: SalesOrderRow,
  settlementId: string,
): Promise<MakeGoodResult> {
  const db = ctx.db;
  const now = ctx.now;
  const wanted = await db
    .select({
      lineId: salesSettlementLines.lineId,
      deviceId: salesSettlementLines.deviceId,
      day: salesSettlementLines.day,
    })
    .from(salesSettlementLines)
    .where(
      and(
        eq(salesSettlementLines.settlementId, settlementId),
        eq(salesSettlementLines.underDelivered, true),
        eq(salesSettlementLines.remedy, 'extraPlays'),
      ),
    );
  const result: MakeGoodResult = { screens: [], adIds: [], until: null };
  if (wanted.length === 0) return result;
  const perScreen = new Map<string, { lineId: string; deviceId: string; n: number }>();
  for (const w of wanted) {
    const k = `${w.lineId}|${w.deviceId}`;
    const cur = perScreen.get(k) ?? { lineId: w.lineId, deviceId: w.deviceId, n: 0 };
    cur.n++;
    perScreen.set(k, cur);
  }
  const lineIds = [...new Set(wanted.map((w) => w.lineId))];
  const lines = await db.select().from(salesOrderLines).where(inArray(salesOrderLines.id, lineIds));
  const lineById = new Map(lines.map((l) => [l.id, l]));
  // Days of the order's enterprise's zone, from its tomorrow.
  const zone = await enterpriseZone(db, order.entId);
  const first = dayMs(dayIn(now, zone)) + DAY_MS;
  const window = daysBetween(isoDay(first), isoDay(first + (MAKE_GOOD_WINDOW_DAYS - 1) * DAY_MS));
  const keys = [...perScreen.keys()].sort();
  for (const k of keys) {
    const s = perScreen.get(k);
    const line = s ? lineById.get(s.lineId) : undefined;
    if (!s || !line) continue;
    const days: string[] = [];
    for (const day of window) {
      if (days.length >= s.n) break;
      const ok = await tryBook(db, (tx) =>
        bookRotations(
          tx,
          [
            {
              entId: order.entId,
              slotId: line.slotId,
              orderId: order.id,
              lineId: line.id,
              deviceIds: [s.deviceId],
              startDate: day,
              endDate: day,
              hoursMask: order.hoursMask,
              rotations: line.rotations,
              kind: 'makeGood',
              expiresAt: null,
            },
          ],
          now,
        ),
      );
      if (ok) days.push(day);
    }
    result.screens.push({ lineId: s.lineId, deviceId: s.deviceId, wanted: s.n, days });
  }
  // One ad per sub-order and run of consecutive days with the same screens.
  for (const line of lines) {
    if (!line.adId) continue;
    const [source] = await db.select().from(ads).where(eq(ads.id, line.adId));
    if (source?.reviewState !== 'passed') continue;
    const byDay = new Map<string, string[]>();
    for (const s of result.screens) {
      if (s.lineId !== line.id) continue;
      for (const d of s.days) byDay.set(d, [...(byDay.get(d) ?? []), s.deviceId]);
    }
    const days = [...byDay.keys()].sort();
    let i = 0;
    while (i < days.length) {
      const set = [...(byDay.get(days[i]) ?? [])].sort().join(',');
      let j = i;
      while (
        j + 1 < days.length &&
        dayMs(days[j + 1]) === dayMs(days[j]) + DAY_MS &&
        [...(byDay.get(days[j + 1]) ?? [])].sort().join(',') === set
      ) {
        j++;
      }
      const { id: _id, number: _n, createdAt: _c, updatedAt: _u, downloadedAt: _d, deletedAt: _x, ...copy } = source;
      const [row] = await db
        .insert(ads)
        .values({
          ...copy,
          name: `${source.name.slice(0, AD_NAME_MAX - 12)} (make-good)`,
          source: 'order',
          targets: { deviceIds: set.split(','), groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
          ...daysFrame(days[i], days[j], zone),
          paused: false,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await pushAdChange(ctx, null, row, 'adChanged');
      result.adIds.push(row.id);
      i = j + 1;
    }
  }
  const all = result.screens.flatMap((s) => s.days).sort();
  result.until = all.length > 0 ? all[all.length - 1] : null;
  return result;
}
