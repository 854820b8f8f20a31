import type { ManifestSchedule } from '@marquee/protocol';
import type { Executor } from '../../db/client.js';
import { adContent } from '../ads/schedule.js';

/**
 * The checks of a monitor's photograph (issue 30): how far it was taken from the screen, and
 * whether an ad of the plan was scheduled on the screen at that moment. The schedule is read
 * as the scheduling module reads it (adContent: the ads reaching the device at that instant,
 * with their periods), on the server's UTC clock like device.plan.
 */

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres (haversine). */
export function distanceMetres(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/** Whether a manifest item's schedule lets it play at `at` (UTC wall clock). */
export function scheduleAllowsUtc(schedule: ManifestSchedule, at: Date): boolean {
  const t = at.getTime();
  if (schedule.from != null && t < schedule.from) return false;
  if (schedule.until != null && t >= schedule.until) return false;
  const weekday = at.getUTCDay() === 0 ? 7 : at.getUTCDay();
  if (schedule.weekdays?.length && !schedule.weekdays.includes(weekday)) return false;
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes();
  if (schedule.start && minute < minutesOf(schedule.start)) return false;
  if (schedule.end && minute >= minutesOf(schedule.end)) return false;
  if (schedule.periods?.length) {
    return schedule.periods.some((p) => minute >= minutesOf(p.start) && minute < minutesOf(p.end));
  }
  return true;
}

/** Whether one of `adIds` was scheduled on the device at `at`. */
export async function scheduledAt(
  db: Executor,
  device: { id: string; entId: string },
  adIds: readonly string[],
  at: Date,
): Promise<boolean> {
  const { items } = await adContent(db, device, at.getTime());
  const wanted = new Set(adIds);
  return items.some((item) => item.adId != null && wanted.has(item.adId) && scheduleAllowsUtc(item.schedule, at));
}
