import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  ALARM_MAX_AGE_DAYS,
  type AlarmAnswer,
  type alarmRaiseSchema,
  ErrorCode,
  MAX_SCREENSHOT_BYTES,
} from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { alarmEvents, alarmRegions, alarmSteps, devices } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { AppServices } from '../../services.js';
import { enterpriseKey, extensionOf } from '../../storage/storage.js';
import { sniffImage } from '../screenshots/image.js';

type Raise = z.output<typeof alarmRaiseSchema>;

/** The regions a device is in: drawn into by hand, or its province/city/district among the codes. */
export async function regionsOfDevice(
  db: AppServices['db'],
  entId: string,
  device: { id: string; provinceCode: string | null; cityCode: string | null; districtCode: string | null },
): Promise<{ id: string; name: string }[]> {
  const regions = await db
    .select({
      id: alarmRegions.id,
      name: alarmRegions.name,
      codes: alarmRegions.regionCodes,
      deviceIds: alarmRegions.deviceIds,
    })
    .from(alarmRegions)
    .where(eq(alarmRegions.entId, entId));
  const codes = [device.provinceCode, device.cityCode, device.districtCode].filter((c): c is string => !!c);
  return regions
    .filter((r) => r.deviceIds.includes(device.id) || r.codes.some((c) => codes.includes(c)))
    .map((r) => ({ id: r.id, name: r.name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Stores an alarm a device raised (docs/device-protocol.md 2.10), once per (device, id): its
 * screenshot (decoded, its type and size read from the content) to storage, the event with the
 * regions the device is in now, and the `raised` step, in one transaction. `accepted` only for
 * the send that stored it: the caller then notifies the contacts.
 */
export async function ingestAlarm(
  services: Pick<AppServices, 'db' | 'files'>,
  device: { id: string; entId: string },
  raise: Raise,
  nowMs: number,
): Promise<AlarmAnswer & { eventId: string | null }> {
  const [existing] = await services.db
    .select({ id: alarmEvents.id })
    .from(alarmEvents)
    .where(and(eq(alarmEvents.deviceId, device.id), eq(alarmEvents.clientId, raise.id)));
  if (existing) return { id: raise.id, result: 'duplicate', eventId: existing.id };
  if (raise.at < nowMs - ALARM_MAX_AGE_DAYS * 86_400_000 || raise.at > nowMs + 86_400_000) {
    return { id: raise.id, result: 'rejected', eventId: null };
  }

  let shot: { key: string; type: string; width: number; height: number } | null = null;
  if (raise.screenshot) {
    const bytes = Buffer.from(raise.screenshot.data, 'base64');
    if (bytes.length > MAX_SCREENSHOT_BYTES) throw new AppError(ErrorCode.FILE_TOO_LARGE);
    const image = sniffImage(bytes);
    if (!image || image.contentType !== raise.screenshot.contentType) throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
    const key = enterpriseKey(device.entId, 'alarms', device.id, `${randomUUID()}.${extensionOf(image.contentType)}`);
    await services.files.storage.put(key, Readable.from([bytes]), {
      contentType: image.contentType,
      maxBytes: MAX_SCREENSHOT_BYTES,
    });
    shot = { key, type: image.contentType, width: image.width, height: image.height };
  }

  const [row] = await services.db
    .select({
      id: devices.id,
      provinceCode: devices.provinceCode,
      cityCode: devices.cityCode,
      districtCode: devices.districtCode,
    })
    .from(devices)
    .where(eq(devices.id, device.id));
  const regions = await regionsOfDevice(services.db, device.entId, row);
  const now = new Date(nowMs);
  const inserted = await services.db.transaction(async (tx) => {
    const [event] = await tx
      .insert(alarmEvents)
      .values({
        entId: device.entId,
        deviceId: device.id,
        clientId: raise.id,
        raisedAt: new Date(raise.at),
        receivedAt: now,
        regionIds: regions.map((r) => r.id),
        regionNames: regions.map((r) => r.name),
        screenshotKey: shot?.key ?? null,
        screenshotType: shot?.type ?? null,
        screenshotWidth: shot?.width ?? null,
        screenshotHeight: shot?.height ?? null,
      })
      .onConflictDoNothing({ target: [alarmEvents.deviceId, alarmEvents.clientId] })
      .returning({ id: alarmEvents.id });
    if (!event) return null;
    await tx.insert(alarmSteps).values({ eventId: event.id, kind: 'raised', at: now });
    return event;
  });
  if (inserted) return { id: raise.id, result: 'accepted', eventId: inserted.id };
  // The same event sent twice at once: the first one stands, this file goes.
  if (shot) await services.files.storage.delete(shot.key);
  const [first] = await services.db
    .select({ id: alarmEvents.id })
    .from(alarmEvents)
    .where(and(eq(alarmEvents.deviceId, device.id), eq(alarmEvents.clientId, raise.id)));
  return { id: raise.id, result: 'duplicate', eventId: first?.id ?? null };
}
