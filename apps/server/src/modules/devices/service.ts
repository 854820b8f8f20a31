import {
  type CommandBody,
  type CommandRow,
  type DeviceRow,
  type DeviceStatusValue,
  ErrorCode,
  MISSED_HEARTBEATS_OFFLINE,
} from '@marquee/protocol';
import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
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
  if (number) {
    const [taken] = await ctx.db.select({ id: devices.id }).from(devices).where(eq(devices.number, number));
    if (taken) throw new AppError(ErrorCode.CONFLICT, DeviceText.numberTaken);
  }
  const [device] = await ctx.db
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
  await ctx.db
    .insert(deviceStatusHistory)
    .values({ entId: ctx.user.entId, deviceId: device.id, status: 'activating', reason: 'added', at: ctx.now });
  await ctx.audit({
    module: 'device',
    action: 'add',
    targetType: 'device',
    targetId: device.id,
    targetName: input.name,
    detail: { name: input.name, number, deptId: deptId ?? null, by: input.code ? 'code' : 'number' },
  });
  return { id: device.id };
}

/** The SQL of "shown as `status`" (effectiveStatus): online with missed heartbeats is offline. */
function statusFilter(status: DeviceStatusValue, now: Date): SQL {
  const stale = sql`greatest(coalesce(${devices.lastSeenAt}, ${devices.statusAt}), ${devices.statusAt}) < ${now}::timestamptz - make_interval(secs => ${devices.heartbeatSec} * ${MISSED_HEARTBEATS_OFFLINE})`;
  if (status === 'online') return and(eq(devices.status, 'online'), sql`not (${stale})`) as SQL;
  if (status === 'offline') return or(eq(devices.status, 'offline'), and(eq(devices.status, 'online'), stale)) as SQL;
  return eq(devices.status, status);
}

/**
 * The list's total is counted up to this many rows: beyond it the answer says `totalCapped`
 * and the console shows "1,000+" (20 pages of 50; filters narrow the list), as search
 * consoles do. An exact count of a scope of hundreds of thousands of devices costs tens to
 * hundreds of milliseconds on every page (bench/deviceList.ts); counting up to the cap costs
 * about as much as the page itself.
 */
export const DEVICE_LIST_COUNT_CAP = 1000;

type DeviceListInput = { page: number; size: number; status?: DeviceStatusValue; keyword?: string };

/** The two queries of a device page: its rows and its total bounded by DEVICE_LIST_COUNT_CAP (+1). */
export function devicePageQueries(ctx: Pick<CallContext, 'db' | 'user' | 'now'>, input: DeviceListInput) {
  const conds: SQL[] = [scopeWhere(ctx.user, deviceScope)];
  if (input.status) conds.push(statusFilter(input.status, ctx.now));
  if (input.keyword) {
    const pattern = `%${escapeLike(input.keyword)}%`;
    conds.push(or(ilike(devices.name, pattern), ilike(devices.number, pattern)) as SQL);
  }
  const where = and(...conds);
  const upTo = ctx.db
    .select({ one: sql`1` })
    .from(devices)
    .where(where)
    .limit(DEVICE_LIST_COUNT_CAP + 1)
    .as('up_to');
  return {
    rows: ctx.db
      .select({ device: devices, deptName: departments.name })
      .from(devices)
      .leftJoin(departments, eq(departments.id, devices.deptId))
      .where(where)
      // `desc nulls last`: the order of devices_ent_created_idx and devices_ent_status_created_idx
      // (plain desc means nulls first, which no index of the table serves: a sort of the whole scope).
      .orderBy(sql`${devices.createdAt} desc nulls last`, devices.id)
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    total: ctx.db.select({ total: count() }).from(upTo),
  };
}

/** A page of the devices the caller can see, newest first; the total is capped (DEVICE_LIST_COUNT_CAP). */
export async function listDevices(
  input: DeviceListInput,
  ctx: CallContext,
): Promise<{ total: number; totalCapped: boolean; data: DeviceRow[] }> {
  const q = devicePageQueries(ctx, input);
  const [rows, [{ total: counted }]] = await Promise.all([q.rows, q.total]);
  const totalCapped = counted > DEVICE_LIST_COUNT_CAP;
  const total = Math.min(counted, DEVICE_LIST_COUNT_CAP);
  const now = ctx.now.getTime();
  return {
    total,
    totalCapped,
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
