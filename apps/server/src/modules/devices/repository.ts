import { createHash, timingSafeEqual } from 'node:crypto';
import { type DeviceStatusValue, MISSED_HEARTBEATS_OFFLINE, RefType } from '@marquee/protocol';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ScopedColumns } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  type DeviceStatus,
  deviceCommands,
  devicePresence,
  deviceStatusHistory,
  devices,
} from '../../db/schema/index.js';

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

/** The devices a caller may edit, disable and delete: its own data scope (being shared one lets one see and command it). */
export const deviceManageScope: ScopedColumns = {
  entId: devices.entId,
  deptId: devices.deptId,
  ownerId: devices.ownerId,
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
 * sent nothing for MISSED_HEARTBEATS_OFFLINE heartbeats is offline. The `device-offline`
 * job writes the same rule to the row and its history each minute (markMissedOffline);
 * between its runs this keeps reads right.
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

/**
 * Counts one more publication of a command, and marks it sent while it is still open. The
 * player's ack can be written before this (the publish resolves after the player received it),
 * so a closed command keeps its state and send time but still counts the attempt.
 */
export async function markSent(db: Executor, id: string, at: Date): Promise<void> {
  const open = sql`${deviceCommands.state} in ('pending', 'sent')`;
  await db
    .update(deviceCommands)
    .set({
      state: sql`case when ${open} then 'sent' else ${deviceCommands.state} end`,
      sentAt: sql`case when ${open} then ${at.toISOString()}::timestamptz else coalesce(${deviceCommands.sentAt}, ${at.toISOString()}::timestamptz) end`,
      attempts: sql`${deviceCommands.attempts} + 1`,
    })
    .where(eq(deviceCommands.id, id));
}

/** Marks open commands past their expiry expired; returns how many. */
export async function expireCommands(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(deviceCommands)
    .set({ state: 'expired' })
    .where(and(inArray(deviceCommands.id, ids), inArray(deviceCommands.state, ['pending', 'sent'])));
}

/**
 * The offline job's work: every `online` device that sent nothing for
 * MISSED_HEARTBEATS_OFFLINE heartbeats (effectiveStatus's rule) is written `offline` with a
 * history row (reason 'heartbeat'), in one statement: those past their deadline in
 * device_presence (its index finds the few), each tested on its row. Returns how many.
 */
export async function markMissedOffline(db: Executor, now: Date): Promise<number> {
  const result = await db.execute(sql`
    with stale as (
      update ${devices} set status = 'offline', status_at = ${now}, updated_at = ${now}
      where ${devices.id} = any(array(select ${devicePresence.deviceId} from ${devicePresence} where ${devicePresence.deadline} < ${now}::timestamptz))
        and ${devices.status} = 'online'
        and greatest(coalesce(${devices.lastSeenAt}, ${devices.statusAt}), ${devices.statusAt})
          < ${now}::timestamptz - make_interval(secs => ${devices.heartbeatSec} * ${MISSED_HEARTBEATS_OFFLINE})
      returning ${devices.id} as id, ${devices.entId} as ent_id
    )
    insert into ${deviceStatusHistory} (id, ent_id, device_id, status, reason, at)
    select gen_random_uuid()::text, ent_id, id, 'offline', 'heartbeat', ${now} from stale
    returning 1`);
  const rows = (result as unknown as { rows?: unknown[] }).rows ?? (Array.isArray(result) ? result : []);
  return rows.length;
}

/**
 * Marks a device of `entId` as a player of the demo fleet (src/demo/fleet.ts), once the
 * fleet's supervisor added it through device.add: the list shows it as such.
 */
export async function markDemoDevice(db: Executor, entId: string, deviceId: string): Promise<boolean> {
  const rows = await db
    .update(devices)
    .set({ demo: true })
    .where(and(eq(devices.entId, entId), eq(devices.id, deviceId)))
    .returning({ id: devices.id });
  return rows.length > 0;
}
