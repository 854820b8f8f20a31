import { createHash, timingSafeEqual } from 'node:crypto';
import { type DeviceStatusValue, MISSED_HEARTBEATS_OFFLINE, RefType } from '@marquee/protocol';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ScopedColumns } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { type DeviceStatus, deviceCommands, deviceStatusHistory, devices } from '../../db/schema/index.js';

/**
 * The scoped columns of devices (auth/scope.ts): department, owner, sharing as ref-type '1',
 * and the allocations of the device's group (ref-type '2', its container): a group shared
 * with a department or account shares the devices in it.
 */
export const deviceScope: ScopedColumns = {
  entId: devices.entId,
  deptId: devices.deptId,
  ownerId: devices.ownerId,
  share: {
    refType: RefType.device,
    id: devices.id,
    containers: [{ refType: RefType.deviceGroup, id: devices.groupId }],
  },
};

/** sha256 hex of a high-entropy secret (device passwords, poll tokens). */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Whether `value` hashes to `hash` (constant time). */
export function matchesHash(value: string, hash: string | null): boolean {
  if (!hash) return false;
  const a = Buffer.from(sha256(value), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What the console shows as a device's state: presence says `online`, but a device that
 * sent nothing for MISSED_HEARTBEATS_OFFLINE heartbeats is offline (the periodic job that
 * writes this to the row and its history comes with the job mechanism).
 */
export function effectiveStatus(
  row: { status: DeviceStatus; lastSeenAt: Date | null; statusAt: Date; heartbeatSec: number },
  now: number,
): DeviceStatusValue {
  if (row.status !== 'online') return row.status;
  const seen = Math.max(row.lastSeenAt?.getTime() ?? 0, row.statusAt.getTime());
  return now - seen > row.heartbeatSec * 1000 * MISSED_HEARTBEATS_OFFLINE ? 'offline' : 'online';
}

/** Sets a device's presence and records the change in its history (no-op when unchanged). */
export async function setPresence(
  db: Executor,
  device: { id: string; entId: string; status: DeviceStatus },
  status: DeviceStatus,
  reason: string,
  at: Date,
): Promise<boolean> {
  if (device.status === status) return false;
  await db.update(devices).set({ status, statusAt: at, updatedAt: at }).where(eq(devices.id, device.id));
  await db.insert(deviceStatusHistory).values({ entId: device.entId, deviceId: device.id, status, reason, at });
  return true;
}

/** The device's commands still to deliver (pending or sent), oldest first. */
export function openCommands(db: Executor, deviceId: string) {
  return db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), inArray(deviceCommands.state, ['pending', 'sent'])))
    .orderBy(deviceCommands.createdAt, deviceCommands.id);
}

/** Marks a command published once more. */
export async function markSent(db: Executor, id: string, at: Date): Promise<void> {
  await db
    .update(deviceCommands)
    .set({ state: 'sent', sentAt: at, attempts: sql`${deviceCommands.attempts} + 1` })
    .where(and(eq(deviceCommands.id, id), inArray(deviceCommands.state, ['pending', 'sent'])));
}

/** Marks open commands past their expiry expired; returns how many. */
export async function expireCommands(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(deviceCommands)
    .set({ state: 'expired' })
    .where(and(inArray(deviceCommands.id, ids), inArray(deviceCommands.state, ['pending', 'sent'])));
}
