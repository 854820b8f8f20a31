import {
  type CommandBody,
  type CommandRow,
  DEVICE_TRIAL_DAYS,
  type DeviceDetail,
  type DeviceRow,
  type DeviceTypeValue,
  ErrorCode,
  RefType,
  type StatusHistoryRow,
} from '@marquee/protocol';
import { and, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import {
  accounts,
  allocations,
  deviceCommands,
  devicePairings,
  deviceScreenshots,
  deviceStatusHistory,
  devices,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { loadVisibleDept } from '../dept/manage.js';
import { checkDictionaryValue, findCode } from '../dictionaries/service.js';
import { registerStat } from '../home/stats.js';
import { customFieldDefs, mergeCustomValues } from './customFields.js';
import { findOpenPairing, pairingBound } from './pairing.js';
import { presentRow, presentRows } from './presenter.js';
import {
  DEVICE_LIST_COUNT_CAP,
  type DeviceListInput,
  deviceColumn,
  deviceListQueries,
  deviceListWhere,
  deviceManageScope,
  deviceScope,
  deviceScopeCounts,
  listRows,
  mergedPageValues,
  plannedMergedPage,
  scopeKey,
  seenCounts,
  setPresence,
  totalPassesCap,
} from './repository.js';
import { type DeviceTargets, NoTargetsText, queueCommands, resolveDeviceTargets } from './targets.js';
import { DeviceText } from './texts.js';

// The list's filters, as other modules take them (the export, reports, screenshots): they live
// with the list's queries in repository.ts.
export { type DeviceListFilter, type DeviceListInput, deviceListWhere, statusFilter } from './repository.js';

// Home page figures: the devices the caller sees shown online and shown offline, counted as the
// device list's status filter counts them (an online device past its missed heartbeats is offline).
for (const [key, status] of [
  ['devicesOnline', 'online'],
  ['devicesOffline', 'offline'],
] as const) {
  registerStat({
    key,
    async count(db, caller, now) {
      const where = await deviceListWhere(db, caller, { status }, now);
      const [row] = await db.select({ n: count() }).from(devices).where(where);
      return Number(row?.n ?? 0);
    },
  });
}

/**
 * Adds a paired player to the registry (console add-device): the live pairing with the code
 * (or the device number the player reported) is bound to a new device in the caller's
 * enterprise and a department of the caller's scope; the player then collects its
 * credentials (pairing.ts). The device is `activating` until it connects.
 */
export async function addDevice(
  input: {
    code?: string;
    number?: string;
    name: string;
    deptId?: string;
    scene?: string;
    customFields?: Record<string, string | number | null>;
  },
  ctx: CallContext,
): Promise<{ id: string }> {
  // The caller's own current department needs no check; another must be within the caller's scope.
  const deptId = input.deptId ?? ctx.user.deptId;
  if (deptId && deptId !== ctx.user.deptId) await loadVisibleDept(ctx, deptId);
  // The scene, when given, is an enabled entry of the dictionary `scene` (issue 31).
  if (input.scene) await checkDictionaryValue(ctx.db, 'scene', 'scene', input.scene);
  const pairing = await findOpenPairing(ctx.db, input, ctx.now.getTime());
  if (!pairing) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
  const number = pairing.number ?? input.number ?? null;
  let preRegistered: { id: string } | undefined;
  let preRegisteredValues: Record<string, string | number> = {};
  if (number) {
    const [taken] = await ctx.db
      .select({
        id: devices.id,
        entId: devices.entId,
        status: devices.status,
        secretHash: devices.secretHash,
        customFields: devices.customFields,
      })
      .from(devices)
      .where(eq(devices.number, number));
    // A device pre-registered by an Excel import (deviceIo) waits for its player: an
    // activating row of the caller's enterprise and scope, without credentials and without
    // a pairing bound to it, is bound to this pairing instead of refusing the number.
    if (taken) {
      preRegistered = await preRegisteredRow(ctx, taken);
      if (!preRegistered) throw new AppError(ErrorCode.CONFLICT, DeviceText.numberTaken);
      preRegisteredValues = taken.customFields;
    }
  }
  // The enterprise's custom fields: a required one needs a value, from the call or from the
  // pre-registered row (its import set it), as the edit dialog and the import demand.
  const customFields = mergeCustomValues(
    await customFieldDefs(ctx.db, ctx.user.entId),
    preRegisteredValues,
    input.customFields,
  );
  // A newly paired device serves a trial until the market sells it points (issue 27): the
  // market alone writes the expiry afterwards; one already set (a pre-registered row's) stays.
  const trialEnd = new Date(ctx.now.getTime() + DEVICE_TRIAL_DAYS * 86_400_000);
  const [device] = preRegistered
    ? await ctx.db
        .update(devices)
        .set({
          name: input.name,
          ...(input.deptId ? { deptId: input.deptId } : {}),
          ...(input.scene ? { scene: input.scene } : {}),
          playerVersion: pairing.playerVersion,
          model: pairing.model,
          ip: pairing.ip,
          customFields,
          expireAt: sql`coalesce(${devices.expireAt}, ${trialEnd.toISOString()}::timestamptz)`,
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
          scene: input.scene ?? null,
          status: 'activating',
          playerVersion: pairing.playerVersion,
          model: pairing.model,
          // The address the pairing came from, until the player's heartbeats report its own.
          ip: pairing.ip,
          customFields,
          expireAt: trialEnd,
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
  // The player's held poll answers `bound` once this commits (pairing.ts, long poll).
  ctx.afterCommit(() => pairingBound(ctx.services, pairing.id));
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
      ...(input.scene ? { scene: input.scene } : {}),
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

/** A statement's result, run now; a rejection nobody awaits (a guess not kept) is not unhandled. */
function started<T>(run: Promise<T>): Promise<T> {
  run.catch(() => {});
  return run;
}

/** A page of the devices the caller can see, newest first unless a sort is asked; the total is capped. */
export async function listDevices(
  input: DeviceListInput,
  ctx: CallContext,
): Promise<{ total: number; totalCapped: boolean; data: DeviceRow[] }> {
  // A type filter names a code of the dictionary (issue 31; a disabled one too: devices keep it).
  if (input.type) await findCode(ctx.db, 'deviceType', 'type', input.type);
  if (input.scene) await findCode(ctx.db, 'scene', 'scene', input.scene);
  // The counts and the merged plan's page and total are planned once per shape (db/planned.ts):
  // a region's page is a union of about 50 index scans whose planning cost more than its run.
  // Outside a transaction only (the planned pool's connections see what is committed).
  const planned = ctx.services && ctx.db === ctx.services.db ? ctx.services.database.planned : undefined;
  const values = mergedPageValues(ctx.now, input);
  // The statement the scope's counts chose last time runs beside this call's read of them
  // (one round trip, 1.7 ms, no longer before the page): kept when the counts choose the same
  // statement, which is the same object of mergedStatements; otherwise dropped and the
  // counts' own statement runs.
  const guess = planned ? seenCounts(planned).peek(scopeKey(ctx.user)) : undefined;
  const early = planned && guess ? plannedMergedPage(planned, ctx.user, input, guess) : undefined;
  const earlyRows = early && started(early.rows.execute(values));
  const earlyTotal = early && guess && !totalPassesCap(input, guess) ? started(early.total.execute(values)) : undefined;
  // One read of a few counter rows: how wide the scope is (the plan) and whether the total passes the cap.
  const counts = await deviceScopeCounts(planned ?? ctx.db, ctx.user, planned !== undefined);
  if (planned) seenCounts(planned).set(scopeKey(ctx.user), counts);
  const merged = planned ? plannedMergedPage(planned, ctx.user, input, counts) : undefined;
  const kept = merged !== undefined && merged === early;
  const q = merged
    ? {
        rows: (kept && earlyRows) || merged.rows.execute(values),
        total: () => (kept && earlyTotal) || merged.total.execute(values),
      }
    : await deviceListQueries(ctx, input, counts).then((o) => ({ rows: o.rows, total: () => o.total }));
  // The total is counted only when the counts do not already tell it passes the cap.
  const knownCapped = totalPassesCap(input, counts);
  const [rows, counted] = await Promise.all([
    q.rows,
    knownCapped ? DEVICE_LIST_COUNT_CAP + 1 : q.total().then(([r]) => r.total),
  ]);
  const totalCapped = counted > DEVICE_LIST_COUNT_CAP;
  const total = Math.min(counted, DEVICE_LIST_COUNT_CAP);
  const now = ctx.now.getTime();
  return {
    total,
    totalCapped,
    data: presentRows(rows, now),
  };
}

/** One visible device with everything the registry knows of it, or NOT_FOUND. */
export async function deviceDetail(input: { id: string }, ctx: CallContext): Promise<DeviceDetail> {
  const [row] = await listRows(ctx, and(scopeWhere(ctx.user, deviceScope), eq(devices.id, input.id)), {
    ownerName: sql<
      string | null
    >`(select coalesce(nullif(${accounts.realName}, ''), ${accounts.loginName}) from ${accounts} where ${accounts}.${sql.identifier(accounts.id.name)} = ${deviceColumn(devices.ownerId)})`,
  });
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, DeviceText.notFound);
  const d = row.device;
  return {
    ...presentRow(
      d,
      row.deptName,
      row.canManage,
      ctx.now.getTime(),
      {
        name: row.groupName,
        storeName: row.storeName,
        tags: row.tags,
      },
      row.licensed,
    ),
    firmware: d.firmware,
    model: d.model,
    screenOn: d.screenOn === null ? null : d.screenOn === 1,
    heartbeatSec: d.heartbeatSec,
    statusAt: d.statusAt.toISOString(),
    ownerName: row.ownerName ?? '',
    updatedAt: d.updatedAt.toISOString(),
  };
}

/** The devices of `ids` the caller may manage (own data scope), all of them or NOT_FOUND. */
export async function loadManaged(ctx: CallContext, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .select({
      id: devices.id,
      entId: devices.entId,
      name: devices.name,
      status: devices.status,
      activatedAt: devices.activatedAt,
      customFields: devices.customFields,
      type: devices.type,
      scene: devices.scene,
    })
    .from(devices)
    .where(and(scopeWhere(ctx.user, deviceManageScope), inArray(devices.id, unique)));
  if (rows.length !== unique.length) throw new AppError(ErrorCode.NOT_FOUND, DeviceText.notFound);
  return rows;
}

const timeOrNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

/** Edits a device's registry fields (a department must be within the caller's scope). */
export async function updateDevice(
  input: {
    id: string;
    name: string;
    deptId?: string | null;
    type?: DeviceTypeValue | null;
    scene?: string | null;
    screenSize?: number | null;
    screenCount?: number;
    installedAt?: string | null;
    timeZone?: string | null;
    remark?: string;
    customFields?: Record<string, string | number | null>;
  },
  ctx: CallContext,
): Promise<null> {
  const [device] = await loadManaged(ctx, [input.id]);
  if (input.deptId) await loadVisibleDept(ctx, input.deptId);
  // The type is a code of the dictionary (issue 31): an enabled one, or the one it already has.
  if (input.type) await checkDictionaryValue(ctx.db, 'deviceType', 'type', input.type, device.type);
  // The scene likewise (issue 31): an enabled entry of `scene`, or the device's own.
  if (input.scene) await checkDictionaryValue(ctx.db, 'scene', 'scene', input.scene, device.scene);
  // Custom fields (issue 31): the values given merged into the device's, checked by the
  // enterprise's definitions (a required one must hold a value once the form sends them).
  const customFields =
    input.customFields === undefined
      ? undefined
      : mergeCustomValues(await customFieldDefs(ctx.db, device.entId), device.customFields, input.customFields);
  const changes = {
    name: input.name,
    deptId: input.deptId,
    type: input.type,
    scene: input.scene,
    screenSize: input.screenSize,
    screenCount: input.screenCount,
    installedAt: timeOrNull(input.installedAt),
    // A new zone reaches the screen with its next manifest (players poll every minute).
    timeZone: input.timeZone,
    remark: input.remark,
    customFields,
  };
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  await ctx.db
    .update(devices)
    .set({ ...set, updatedAt: ctx.now })
    .where(eq(devices.id, device.id));
  await ctx.audit({
    module: 'device',
    action: 'update',
    targetType: 'device',
    targetId: device.id,
    targetName: input.name,
    detail: { ...set, previousName: device.name },
  });
  return null;
}

/**
 * Deletes devices with their history, commands, pairings and shares. Their broker access
 * ends at once: Mosquitto's dynsec client is removed in this transaction, the embedded
 * broker closes their connections once committed, EMQX is refused at the next check.
 */
export async function deleteDevices(input: { ids: string[] }, ctx: CallContext): Promise<{ deleted: number }> {
  const rows = await loadManaged(ctx, input.ids);
  const ids = rows.map((r) => r.id);
  for (const id of ids) await ctx.services.devices.accounts.revoke(id);
  await ctx.db
    .delete(allocations)
    .where(
      and(
        eq(allocations.entId, ctx.user.entId),
        eq(allocations.refType, RefType.device),
        inArray(allocations.refId, ids),
      ),
    );
  // Their screenshots' rows go with them (cascade); their files once the delete is committed.
  const shots = await ctx.db
    .select({ fileKey: deviceScreenshots.fileKey })
    .from(deviceScreenshots)
    .where(inArray(deviceScreenshots.deviceId, ids));
  await ctx.db.delete(devices).where(inArray(devices.id, ids));
  await ctx.audit({
    module: 'device',
    action: 'delete',
    targetType: 'device',
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames(rows.map((r) => r.name)),
    detail: { ids },
  });
  ctx.afterCommit(() => {
    ctx.services.devices.cutOff(ids);
    if (shots.length === 0) return;
    ctx.services.files.deleteMany(shots.map((s) => s.fileKey)).catch((error: unknown) => {
      ctx.log.warn({ err: error, devices: ids.length }, 'screenshot files of deleted devices not removed');
    });
  });
  return { deleted: ids.length };
}

/** The operation-log entry of a batch: the devices named, and those actually changed. */
function auditBatch(
  ctx: CallContext,
  action: string,
  named: readonly { id: string; name: string }[],
  changed: readonly { id: string }[],
) {
  return ctx.audit({
    module: 'device',
    action,
    targetType: 'device',
    targetId: named.length === 1 ? named[0].id : undefined,
    targetName: joinTargetNames(named.map((r) => r.name)),
    detail: { ids: named.map((r) => r.id), changed: changed.map((r) => r.id) },
  });
}

/**
 * Disables devices (`invalid`, with a history row): the broker refuses them and their live
 * connections close, as for a delete, but they keep their credentials for `enableDevices`.
 */
export async function disableDevices(input: { ids: string[] }, ctx: CallContext): Promise<{ changed: number }> {
  const named = await loadManaged(ctx, input.ids);
  const rows = named.filter((r) => r.status !== 'invalid');
  for (const row of rows) {
    await ctx.services.devices.accounts.disable(row.id);
    await setPresence(ctx.db, row, 'invalid', 'disabled', ctx.now);
  }
  await auditBatch(ctx, 'disable', named, rows);
  if (rows.length > 0) ctx.afterCommit(() => ctx.services.devices.cutOff(rows.map((r) => r.id)));
  return { changed: rows.length };
}

/**
 * Enables disabled devices: offline until they connect again (activating when the player
 * never collected its credentials).
 */
export async function enableDevices(input: { ids: string[] }, ctx: CallContext): Promise<{ changed: number }> {
  const named = await loadManaged(ctx, input.ids);
  const rows = named.filter((r) => r.status === 'invalid');
  for (const row of rows) {
    await ctx.services.devices.accounts.enable(row.id);
    // The state timestamp of the connection cut at the disable stays: a heartbeat or state of
    // that connection still on its way (a batch handled late) is not a new connection and
    // changes nothing; the device's next connection has a later timestamp and is seen online.
    await setPresence(ctx.db, row, row.activatedAt ? 'offline' : 'activating', 'enabled', ctx.now);
  }
  await auditBatch(ctx, 'enable', named, rows);
  return { changed: rows.length };
}

/** A visible device's presence changes, newest first. */
export async function statusHistory(
  input: { deviceId: string; page: number; size: number },
  ctx: CallContext,
): Promise<{ total: number; data: StatusHistoryRow[] }> {
  await resolveDeviceTargets(ctx, { deviceIds: [input.deviceId] });
  const where = eq(deviceStatusHistory.deviceId, input.deviceId);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(deviceStatusHistory)
      .where(where)
      .orderBy(desc(deviceStatusHistory.at), desc(deviceStatusHistory.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(deviceStatusHistory).where(where),
  ]);
  return {
    total,
    data: rows.map((r) => ({ id: r.id, status: r.status, reason: r.reason, at: r.at.toISOString() })),
  };
}

/** Sends a command to the devices the call names (ids, groups, tags; stored, then published once committed). */
export async function sendCommand(
  input: DeviceTargets & { ttlSec: number } & CommandBody,
  ctx: CallContext,
): Promise<{ commands: { id: string; deviceId: string }[] }> {
  const targets = await resolveDeviceTargets(ctx, input);
  if (targets.length === 0) throw new AppError(ErrorCode.NOT_FOUND, NoTargetsText);
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
