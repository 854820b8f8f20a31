import {
  type CommandBody,
  type CommandRow,
  type DeviceRow,
  type DeviceStatusValue,
  ErrorCode,
  MISSED_HEARTBEATS_OFFLINE,
} from '@marquee/protocol';
import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import { departments, deviceCommands, devicePairings, deviceStatusHistory, devices } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { loadVisibleDept } from '../dept/manage.js';
import { findOpenPairing } from './pairing.js';
import { deviceScope, effectiveStatus } from './repository.js';
import { queueCommands, resolveDeviceTargets } from './targets.js';
import { DeviceText } from './texts.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Adds a paired player to the registry (console add-device): the live pairing with the code
 * (or the device number the player reported) is bound to a new device in the caller's
 * enterprise and a department of the caller's scope; the player then collects its
 * credentials (pairing.ts). The device is `activating` until it connects.
 */
export async function addDevice(
  input: { code?: string; number?: string; name: string; deptId?: string },
  ctx: CallContext,
): Promise<{ id: string }> {
  // The caller's own current department needs no check; another must be within the caller's scope.
  const deptId = input.deptId ?? ctx.user.deptId;
  if (deptId && deptId !== ctx.user.deptId) await loadVisibleDept(ctx, deptId);
  const pairing = await findOpenPairing(ctx.db, input, ctx.now.getTime());
  if (!pairing) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
  const number = pairing.number ?? input.number ?? null;
  let preRegistered: { id: string } | undefined;
  if (number) {
    const [taken] = await ctx.db
      .select({ id: devices.id, entId: devices.entId, status: devices.status, secretHash: devices.secretHash })
      .from(devices)
      .where(eq(devices.number, number));
    // A device pre-registered by an Excel import (deviceIo) waits for its player: an
    // activating row of the caller's enterprise and scope, without credentials and without
    // a pairing bound to it, is bound to this pairing instead of refusing the number.
    if (taken) {
      preRegistered = await preRegisteredRow(ctx, taken);
      if (!preRegistered) throw new AppError(ErrorCode.CONFLICT, DeviceText.numberTaken);
    }
  }
  const [device] = preRegistered
    ? await ctx.db
        .update(devices)
        .set({
          name: input.name,
          ...(input.deptId ? { deptId: input.deptId } : {}),
          playerVersion: pairing.playerVersion,
          model: pairing.model,
          updatedAt: ctx.now,
        })
        .where(eq(devices.id, preRegistered.id))
        .returning({ id: devices.id })
    : await ctx.db
        .insert(devices)
        .values({
          entId: ctx.user.entId,
          deptId: deptId ?? null,
          ownerId: ctx.user.accountId,
          number,
          name: input.name,
          status: 'activating',
          playerVersion: pairing.playerVersion,
          model: pairing.model,
          statusAt: ctx.now,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning({ id: devices.id });
  const bound = await ctx.db
    .update(devicePairings)
    .set({ deviceId: device.id, boundAt: ctx.now })
    .where(and(eq(devicePairings.id, pairing.id), isNull(devicePairings.deviceId)))
    .returning({ id: devicePairings.id });
  // Two operators entered the same code at once: the second finds it bound.
  if (bound.length === 0) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
  if (!preRegistered) {
    await ctx.db
      .insert(deviceStatusHistory)
      .values({ entId: ctx.user.entId, deviceId: device.id, status: 'activating', reason: 'added', at: ctx.now });
  }
  await ctx.audit({
    module: 'device',
    action: 'add',
    targetType: 'device',
    targetId: device.id,
    targetName: input.name,
    detail: {
      name: input.name,
      number,
      deptId: deptId ?? null,
      by: input.code ? 'code' : 'number',
      preRegistered: Boolean(preRegistered),
    },
  });
  return { id: device.id };
}

/** The pre-registered device `taken` is, when the caller may bind a player to it (see addDevice). */
async function preRegisteredRow(
  ctx: CallContext,
  taken: { id: string; entId: string; status: string; secretHash: string | null },
): Promise<{ id: string } | undefined> {
  if (taken.entId !== ctx.user.entId || taken.status !== 'activating' || taken.secretHash) return undefined;
  const [visible] = await ctx.db
    .select({ id: devices.id })
    .from(devices)
    .where(and(scopeWhere(ctx.user, deviceScope), eq(devices.id, taken.id)));
  if (!visible) return undefined;
  const [bound] = await ctx.db
    .select({ id: devicePairings.id })
    .from(devicePairings)
    .where(eq(devicePairings.deviceId, taken.id))
    .limit(1);
  return bound ? undefined : visible;
}

/** The SQL of "shown as `status`" (effectiveStatus): online with missed heartbeats is offline. */
function statusFilter(status: DeviceStatusValue, now: Date): SQL {
  const stale = sql`greatest(coalesce(${devices.lastSeenAt}, ${devices.statusAt}), ${devices.statusAt}) < ${now}::timestamptz - make_interval(secs => ${devices.heartbeatSec} * ${MISSED_HEARTBEATS_OFFLINE})`;
  if (status === 'online') return and(eq(devices.status, 'online'), sql`not (${stale})`) as SQL;
  if (status === 'offline') return or(eq(devices.status, 'offline'), and(eq(devices.status, 'online'), stale)) as SQL;
  return eq(devices.status, status);
}

/** The devices a subject sees that pass the list's filters (device.list, its export). */
export function deviceListWhere(
  subject: ScopeSubject,
  filter: { status?: DeviceStatusValue; keyword?: string },
  now: Date,
): SQL {
  const conds: SQL[] = [scopeWhere(subject, deviceScope)];
  if (filter.status) conds.push(statusFilter(filter.status, now));
  if (filter.keyword) {
    const pattern = `%${escapeLike(filter.keyword)}%`;
    conds.push(or(ilike(devices.name, pattern), ilike(devices.number, pattern)) as SQL);
  }
  return and(...conds) as SQL;
}

/** A page of the devices the caller can see, newest first. */
export async function listDevices(
  input: { page: number; size: number; status?: DeviceStatusValue; keyword?: string },
  ctx: CallContext,
): Promise<{ total: number; data: DeviceRow[] }> {
  const where = deviceListWhere(ctx.user, input, ctx.now);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ device: devices, deptName: departments.name })
      .from(devices)
      .leftJoin(departments, eq(departments.id, devices.deptId))
      .where(where)
      .orderBy(desc(devices.createdAt), devices.id)
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(devices).where(where),
  ]);
  const now = ctx.now.getTime();
  return {
    total,
    data: rows.map(({ device: d, deptName }) => ({
      id: d.id,
      number: d.number,
      name: d.name,
      status: effectiveStatus(d, now),
      deptId: d.deptId,
      deptName: deptName ?? '',
      playerVersion: d.playerVersion,
      ip: d.ip,
      mac: d.mac,
      storageUsed: d.storageUsed,
      storageFree: d.storageFree,
      screenWidth: d.screenWidth,
      screenHeight: d.screenHeight,
      volume: d.volume,
      brightness: d.brightness,
      lastSeenAt: d.lastSeenAt?.toISOString() ?? null,
      activatedAt: d.activatedAt?.toISOString() ?? null,
      createdAt: d.createdAt.toISOString(),
    })),
  };
}

/** Sends a command to the devices the call names (stored, then published once committed). */
export async function sendCommand(
  input: { deviceIds: string[]; ttlSec: number } & CommandBody,
  ctx: CallContext,
): Promise<{ commands: { id: string; deviceId: string }[] }> {
  const targets = await resolveDeviceTargets(ctx, { deviceIds: input.deviceIds });
  const body = { kind: input.kind, params: input.params } as CommandBody;
  return { commands: await queueCommands(ctx, targets, body, input.ttlSec) };
}

/** A device's commands, newest first, with their states (an open command past expiry reads expired). */
export async function listCommands(
  input: { deviceId: string; ids?: string[]; page: number; size: number },
  ctx: CallContext,
): Promise<{ total: number; data: CommandRow[] }> {
  await resolveDeviceTargets(ctx, { deviceIds: [input.deviceId] });
  const conds: SQL[] = [eq(deviceCommands.deviceId, input.deviceId), eq(deviceCommands.entId, ctx.user.entId)];
  if (input.ids) conds.push(inArray(deviceCommands.id, input.ids.length > 0 ? input.ids : ['']));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(deviceCommands)
      .where(where)
      .orderBy(desc(deviceCommands.createdAt), deviceCommands.id)
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(deviceCommands).where(where),
  ]);
  const now = ctx.now.getTime();
  return {
    total,
    data: rows.map((c) => ({
      id: c.id,
      deviceId: c.deviceId,
      kind: c.kind as CommandRow['kind'],
      params: c.params,
      state: (c.state === 'pending' || c.state === 'sent') && c.expiresAt.getTime() <= now ? 'expired' : c.state,
      attempts: c.attempts,
      errorCode: c.errorCode,
      errorMessage: c.errorMessage,
      result: c.result,
      createdAt: c.createdAt.toISOString(),
      sentAt: c.sentAt?.toISOString() ?? null,
      ackedAt: c.ackedAt?.toISOString() ?? null,
      expiresAt: c.expiresAt.toISOString(),
    })),
  };
}
