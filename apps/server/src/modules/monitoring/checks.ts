import { DEFAULT_TIME_ZONE, scheduleAllows } from '@marquee/protocol';
import type { Executor } from '../../db/client.js';
import { adContent } from '../ads/schedule.js';
import { deviceZone } from '../timeZones/service.js';

/**
 * The checks of a monitor's photograph (issue 30): how far it was taken from the screen, and
 * whether an ad of the plan was scheduled on the screen at that moment. The schedule is read
 * as the scheduling module reads it (adContent: the ads reaching the device at that instant,
 * with their periods), on the wall clock of the device's zone, as the player reads it.
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

/** Whether one of `adIds` was scheduled on the device at `at`. */
export async function scheduledAt(
  db: Executor,
  device: { id: string; entId: string },
  adIds: readonly string[],
  at: Date,
): Promise<boolean> {
  const { items } = await adContent(db, device, at.getTime());
  const zone = await deviceZone(db, device.id, DEFAULT_TIME_ZONE);
  const wanted = new Set(adIds);
  return items.some((item) => item.adId != null && wanted.has(item.adId) && scheduleAllows(item.schedule, at, zone));
}
