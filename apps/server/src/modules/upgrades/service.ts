import { createHash } from 'node:crypto';
import {
  type CommandAck,
  ErrorCode,
  UPGRADE_COMMAND_TTL_SEC,
  UPGRADE_DEVICE_STATES,
  UPGRADE_MAX_BYTES,
  type UpgradeCounts,
  type UpgradeDeviceState,
  type UpgradeKind,
  type UpgradePackageRow,
  type UpgradePackageState,
  type UpgradeRollbackDevices,
  type UpgradeRolloutDeviceRow,
  type UpgradeRolloutRow,
  type UpgradeRolloutState,
} from '@marquee/protocol';
import { and, asc, count, desc, eq, inArray, isNull, lt, lte, ne, or, type SQL } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  deviceCommands,
  devices,
  upgradePackages,
  upgradeRolloutDevices,
  upgradeRollouts,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import type { Files } from '../../storage/files.js';
import { enterpriseKey } from '../../storage/storage.js';
import type { DeviceChannelListener } from '../devices/channel.js';
import { deviceScope } from '../devices/repository.js';
import { type DeviceTargets, NoTargetsText, resolveDeviceTargets } from '../devices/targets.js';
import { EXPIRED_REASON, THRESHOLD_HALT, UpgradeText } from './texts.js';

type PackageDb = typeof upgradePackages.$inferSelect;
type RolloutDb = typeof upgradeRollouts.$inferSelect;

function presentPackage(row: PackageDb): UpgradePackageRow {
  return {
    id: row.id,
    kind: row.kind,
    version: row.version,
    deviceType: row.deviceType,
    fileName: row.fileName,
    size: row.size,
    sha256: row.sha256,
    notes: row.notes,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
  };
}

async function findPackage(db: Executor, entId: string, id: string): Promise<PackageDb> {
  const [row] = await db
    .select()
    .from(upgradePackages)
    .where(and(eq(upgradePackages.id, id), eq(upgradePackages.entId, entId)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, UpgradeText.packageNotFound);
  return row;
}

export async function packageApply(
  input: { kind: UpgradeKind; version: string; deviceType: string; notes: string; fileName: string; size: number },
  ctx: CallContext,
) {
  if (input.size > UPGRADE_MAX_BYTES) throw new AppError(ErrorCode.FILE_TOO_LARGE);
  const entId = ctx.user.entId;
  const [row] = await ctx.db
    .insert(upgradePackages)
    .values({
      entId,
      kind: input.kind,
      version: input.version,
      deviceType: input.deviceType,
      notes: input.notes,
      fileName: input.fileName,
      fileKey: '',
      createdBy: ctx.user.accountId,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: upgradePackages.id });
  const key = enterpriseKey(entId, 'upgrades', `${row.id}.bin`);
  await ctx.db.update(upgradePackages).set({ fileKey: key }).where(eq(upgradePackages.id, row.id));
  const signature = ctx.services.files.createUpload({
    entId,
    key,
    minBytes: 1,
    maxBytes: UPGRADE_MAX_BYTES,
    contentTypes: ['application/'],
    contentType: 'application/octet-stream',
  });
  await ctx.audit({
    module: 'device',
    action: 'upgradePackageUpload',
    targetType: 'upgrade_package',
    targetId: row.id,
    targetName: `${input.kind} ${input.version}`,
  });
  return { ...signature, packageId: row.id };
}

/** SHA-256 (hex) and size of a stored file, or null when it is not in storage. */
export async function fileDigest(files: Files, key: string): Promise<{ sha256: string; size: number } | null> {
  const got = await files.storage.get(key);
  if (!got) return null;
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of got.body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

export async function packageVerify(input: { id: string }, ctx: CallContext): Promise<UpgradePackageRow> {
  const row = await findPackage(ctx.db, ctx.user.entId, input.id);
  const digest = row.fileKey ? await fileDigest(ctx.services.files, row.fileKey) : null;
  if (!digest) throw new AppError(ErrorCode.UPGRADE_FILE_MISSING);
  const [updated] = await ctx.db
    .update(upgradePackages)
    .set({ sha256: digest.sha256, size: digest.size, state: 'ready', updatedAt: ctx.now })
    .where(eq(upgradePackages.id, row.id))
    .returning();
  await ctx.audit({
    module: 'device',
    action: 'upgradePackageVerify',
    targetType: 'upgrade_package',
    targetId: row.id,
    targetName: `${row.kind} ${row.version}`,
    detail: { sha256: digest.sha256, size: digest.size },
  });
  return presentPackage(updated);
}

export async function packageList(
  input: { kind?: UpgradeKind; state?: UpgradePackageState; olderThan?: string; page: number; size: number },
  ctx: CallContext,
) {
  // The packages a rollout of `olderThan` can roll back to: its kind and device type, uploaded before it.
  const newer = input.olderThan ? await findPackage(ctx.db, ctx.user.entId, input.olderThan) : null;
  const where = and(
    eq(upgradePackages.entId, ctx.user.entId),
    input.kind ? eq(upgradePackages.kind, input.kind) : undefined,
    input.state ? eq(upgradePackages.state, input.state) : undefined,
    newer
      ? and(
          eq(upgradePackages.kind, newer.kind),
          eq(upgradePackages.deviceType, newer.deviceType),
          ne(upgradePackages.id, newer.id),
          lt(upgradePackages.createdAt, newer.createdAt),
        )
      : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(upgradePackages)
      .where(where)
      .orderBy(desc(upgradePackages.createdAt), desc(upgradePackages.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(upgradePackages).where(where),
  ]);
  return { total, data: rows.map(presentPackage) };
}

export async function packageDelete(input: { id: string }, ctx: CallContext): Promise<null> {
  const row = await findPackage(ctx.db, ctx.user.entId, input.id);
  const [used] = await ctx.db
    .select({ id: upgradeRollouts.id })
    .from(upgradeRollouts)
    .where(eq(upgradeRollouts.packageId, row.id))
    .limit(1);
  if (used) throw new AppError(ErrorCode.UPGRADE_PACKAGE_IN_USE);
  await ctx.db.delete(upgradePackages).where(eq(upgradePackages.id, row.id));
  await ctx.audit({
    module: 'device',
    action: 'upgradePackageDelete',
    targetType: 'upgrade_package',
    targetId: row.id,
    targetName: `${row.kind} ${row.version}`,
  });
  const files = ctx.services.files;
  if (row.fileKey) {
    ctx.afterCommit(() => {
      files.deleteMany([row.fileKey]).catch((error) => ctx.log.warn({ err: error }, 'upgrade package file'));
    });
  }
  return null;
}

// ---- Rollouts ----

const emptyCounts = (): UpgradeCounts => ({
  total: 0,
  queued: 0,
  sent: 0,
  downloading: 0,
  installing: 0,
  done: 0,
  failed: 0,
});

async function rolloutCounts(db: Executor, ids: string[]): Promise<Map<string, UpgradeCounts>> {
  const result = new Map<string, UpgradeCounts>();
  if (ids.length === 0) return result;
  const rows = await db
    .select({ rolloutId: upgradeRolloutDevices.rolloutId, state: upgradeRolloutDevices.state, n: count() })
    .from(upgradeRolloutDevices)
    .where(inArray(upgradeRolloutDevices.rolloutId, ids))
    .groupBy(upgradeRolloutDevices.rolloutId, upgradeRolloutDevices.state);
  for (const r of rows) {
    const c = result.get(r.rolloutId) ?? emptyCounts();
    c[r.state] += Number(r.n);
    c.total += Number(r.n);
    result.set(r.rolloutId, c);
  }
  return result;
}

async function presentRollouts(db: Executor, rows: RolloutDb[]): Promise<UpgradeRolloutRow[]> {
  const ids = rows.map((r) => r.id);
  const counts = await rolloutCounts(db, ids);
  const pkgIds = [...new Set(rows.map((r) => r.packageId))];
  const pkgs =
    pkgIds.length === 0 ? [] : await db.select().from(upgradePackages).where(inArray(upgradePackages.id, pkgIds));
  const byId = new Map(pkgs.map((p) => [p.id, p]));
  return rows.map((r) => {
    const pkg = byId.get(r.packageId);
    return {
      id: r.id,
      packageId: r.packageId,
      packageVersion: pkg?.version ?? '',
      kind: pkg?.kind ?? 'apk',
      rollbackOf: r.rollbackOf,
      canaryPercent: r.canaryPercent,
      failureThreshold: r.failureThreshold,
      autoContinue: r.autoContinue === 1,
      state: r.state,
      stage: r.stage,
      haltReason: r.haltReason,
      counts: counts.get(r.id) ?? emptyCounts(),
      createdAt: r.createdAt.toISOString(),
    };
  });
}

async function findRollout(db: Executor, entId: string, id: string): Promise<RolloutDb> {
  const [row] = await db
    .select()
    .from(upgradeRollouts)
    .where(and(eq(upgradeRollouts.id, id), eq(upgradeRollouts.entId, entId)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, UpgradeText.rolloutNotFound);
  return row;
}

/** The rollout row locked for this transaction (acks and operator actions do not interleave). */
async function lockRollout(db: Executor, id: string): Promise<RolloutDb> {
  const [row] = await db.select().from(upgradeRollouts).where(eq(upgradeRollouts.id, id)).for('update');
  return row;
}

/**
 * Stores an `upgrade` command for each queued device of the stage and marks them sent;
 * returns the command ids (the caller dispatches them after commit).
 */
async function sendStage(db: Executor, files: Files, rollout: RolloutDb, stage: number, now: Date): Promise<string[]> {
  const [pkg] = await db.select().from(upgradePackages).where(eq(upgradePackages.id, rollout.packageId));
  const rows = await db
    .select({ id: upgradeRolloutDevices.id, deviceId: upgradeRolloutDevices.deviceId })
    .from(upgradeRolloutDevices)
    .where(
      and(
        eq(upgradeRolloutDevices.rolloutId, rollout.id),
        eq(upgradeRolloutDevices.stage, stage),
        eq(upgradeRolloutDevices.state, 'queued'),
      ),
    );
  if (rows.length === 0) return [];
  const url = await files.directUrl(pkg.fileKey, UPGRADE_COMMAND_TTL_SEC);
  const params = {
    target: pkg.kind,
    version: pkg.version,
    url,
    sha256: pkg.sha256,
    size: pkg.size,
    ...(pkg.deviceType ? { deviceType: pkg.deviceType } : {}),
  };
  const expiresAt = new Date(now.getTime() + UPGRADE_COMMAND_TTL_SEC * 1000);
  const ids: string[] = [];
  for (const r of rows) {
    const [command] = await db
      .insert(deviceCommands)
      .values({
        entId: rollout.entId,
        deviceId: r.deviceId,
        kind: 'upgrade',
        params,
        accountId: rollout.createdBy,
        createdAt: now,
        expiresAt,
      })
      .returning({ id: deviceCommands.id });
    await db
      .update(upgradeRolloutDevices)
      .set({ state: 'sent', commandId: command.id, updatedAt: now })
      .where(eq(upgradeRolloutDevices.id, r.id));
    ids.push(command.id);
  }
  return ids;
}

function dispatchAfterCommit(ctx: CallContext, ids: string[]) {
  if (ids.length === 0) return;
  const gateway = ctx.services.devices;
  ctx.afterCommit(() => {
    gateway.dispatch(ids).catch((error) => ctx.log.error({ err: error }, 'upgrade dispatch failed'));
  });
}

export async function rolloutCreate(
  input: DeviceTargets & { packageId: string; canaryPercent: number; failureThreshold: number; autoContinue: boolean },
  ctx: CallContext,
) {
  const pkg = await findPackage(ctx.db, ctx.user.entId, input.packageId);
  if (pkg.state !== 'ready') throw new AppError(ErrorCode.UPGRADE_PACKAGE_NOT_READY);
  // Groups and tags expand here to the caller's visible devices (de-duplicated); the list is frozen in the rollout.
  const targets = await resolveDeviceTargets(ctx, input);
  if (targets.length === 0) throw new AppError(ErrorCode.NOT_FOUND, NoTargetsText);
  const { id, commandIds } = await startRollout(ctx, pkg, targets, {
    canaryPercent: input.canaryPercent,
    failureThreshold: input.failureThreshold,
    autoContinue: input.autoContinue,
    rollbackOf: null,
  });
  await ctx.audit({
    module: 'device',
    action: 'upgradeRolloutCreate',
    targetType: 'upgrade_rollout',
    targetId: id,
    targetName: joinTargetNames(targets.map((d) => d.name)),
    detail: {
      package: `${pkg.kind} ${pkg.version}`,
      devices: targets.length,
      canaryPercent: input.canaryPercent,
      failureThreshold: input.failureThreshold,
    },
  });
  dispatchAfterCommit(ctx, commandIds);
  return { id };
}

async function startRollout(
  ctx: CallContext,
  pkg: PackageDb,
  targets: { id: string }[],
  opts: { canaryPercent: number; failureThreshold: number; autoContinue: boolean; rollbackOf: string | null },
) {
  const current = await ctx.db
    .select({ id: devices.id, playerVersion: devices.playerVersion, firmware: devices.firmware })
    .from(devices)
    .where(
      inArray(
        devices.id,
        targets.map((d) => d.id),
      ),
    );
  const previous = new Map(current.map((d) => [d.id, pkg.kind === 'apk' ? d.playerVersion : d.firmware]));
  const canary = Math.min(targets.length, Math.max(1, Math.ceil((targets.length * opts.canaryPercent) / 100)));
  const [rollout] = await ctx.db
    .insert(upgradeRollouts)
    .values({
      entId: ctx.user.entId,
      packageId: pkg.id,
      rollbackOf: opts.rollbackOf,
      canaryPercent: opts.canaryPercent,
      failureThreshold: opts.failureThreshold,
      autoContinue: opts.autoContinue ? 1 : 0,
      state: canary === targets.length ? 'rolling' : 'canary',
      stage: canary === targets.length ? 2 : 1,
      createdBy: ctx.user.accountId,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning();
  const firstStage = rollout.stage;
  for (let i = 0; i < targets.length; i += 1000) {
    await ctx.db.insert(upgradeRolloutDevices).values(
      targets.slice(i, i + 1000).map((d, j) => ({
        rolloutId: rollout.id,
        deviceId: d.id,
        stage: i + j < canary ? firstStage : 2,
        previousVersion: previous.get(d.id) ?? null,
        updatedAt: ctx.now,
      })),
    );
  }
  const commandIds = await sendStage(ctx.db, ctx.services.files, rollout, firstStage, ctx.now);
  return { id: rollout.id, commandIds };
}

export async function rolloutList(
  input: { state?: UpgradeRolloutState; page: number; size: number },
  ctx: CallContext,
) {
  const where = and(
    eq(upgradeRollouts.entId, ctx.user.entId),
    input.state ? eq(upgradeRollouts.state, input.state) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(upgradeRollouts)
      .where(where)
      .orderBy(desc(upgradeRollouts.createdAt), desc(upgradeRollouts.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(upgradeRollouts).where(where),
  ]);
  return { total, data: await presentRollouts(ctx.db, rows) };
}

export async function rolloutInfo(input: { id: string }, ctx: CallContext) {
  const row = await findRollout(ctx.db, ctx.user.entId, input.id);
  const [rollout] = await presentRollouts(ctx.db, [row]);
  const rows = await ctx.db
    .select({ d: upgradeRolloutDevices, deviceName: devices.name })
    .from(upgradeRolloutDevices)
    .innerJoin(devices, eq(devices.id, upgradeRolloutDevices.deviceId))
    .where(and(eq(upgradeRolloutDevices.rolloutId, row.id), scopeWhere(ctx.user, deviceScope)))
    .orderBy(asc(upgradeRolloutDevices.stage), asc(devices.name), asc(devices.id));
  const list: UpgradeRolloutDeviceRow[] = rows.map(({ d, deviceName }) => ({
    deviceId: d.deviceId,
    deviceName,
    stage: d.stage,
    state: d.state,
    previousVersion: d.previousVersion,
    reason: d.reason,
    updatedAt: d.updatedAt.toISOString(),
  }));
  return { rollout, devices: list };
}

async function transition(
  ctx: CallContext,
  id: string,
  allowed: readonly UpgradeRolloutState[],
  action: string,
  apply: (row: RolloutDb) => Promise<Partial<RolloutDb>>,
): Promise<UpgradeRolloutRow> {
  await findRollout(ctx.db, ctx.user.entId, id);
  const row = await lockRollout(ctx.db, id);
  if (!allowed.includes(row.state)) throw new AppError(ErrorCode.UPGRADE_ROLLOUT_STATE);
  const set = await apply(row);
  const [updated] = await ctx.db
    .update(upgradeRollouts)
    .set({ ...set, updatedAt: ctx.now })
    .where(eq(upgradeRollouts.id, id))
    .returning();
  const [pkg] = await ctx.db.select().from(upgradePackages).where(eq(upgradePackages.id, row.packageId));
  await ctx.audit({
    module: 'device',
    action,
    targetType: 'upgrade_rollout',
    targetId: id,
    targetName: `${pkg.kind} ${pkg.version}`,
    detail: { from: row.state, to: updated.state },
  });
  const [present] = await presentRollouts(ctx.db, [updated]);
  return present;
}

export function rolloutHalt(input: { id: string }, ctx: CallContext) {
  return transition(ctx, input.id, ['canary', 'waiting', 'rolling'], 'upgradeRolloutHalt', async () => ({
    state: 'halted',
    haltReason: null,
  }));
}

export async function rolloutResume(input: { id: string }, ctx: CallContext) {
  await transition(ctx, input.id, ['halted'], 'upgradeRolloutResume', async (row) => ({
    state: row.stage === 1 ? 'canary' : 'rolling',
    haltReason: null,
  }));
  // The stage may have finished while halted: it moves on now (no threshold check: the
  // operator chose to go on).
  dispatchAfterCommit(ctx, await settle(ctx.db, ctx.services.files, input.id, ctx.now, false));
  return (await presentRollouts(ctx.db, [await findRollout(ctx.db, ctx.user.entId, input.id)]))[0];
}

export async function rolloutContinue(input: { id: string }, ctx: CallContext) {
  let commandIds: string[] = [];
  await transition(ctx, input.id, ['canary', 'waiting'], 'upgradeRolloutContinue', async (row) => {
    commandIds = await sendStage(ctx.db, ctx.services.files, { ...row, stage: 2 }, 2, ctx.now);
    return { state: 'rolling', stage: 2 };
  });
  await settle(ctx.db, ctx.services.files, input.id, ctx.now, false);
  dispatchAfterCommit(ctx, commandIds);
  return (await presentRollouts(ctx.db, [await findRollout(ctx.db, ctx.user.entId, input.id)]))[0];
}

/** The rollout device states each choice of a rollback's devices takes. */
const ROLLBACK_STATES: Record<UpgradeRollbackDevices, UpgradeDeviceState[]> = {
  upgraded: ['done'],
  failed: ['failed'],
  all: ['done', 'failed'],
};

export async function rolloutRollback(
  input: { id: string; packageId?: string; devices?: UpgradeRollbackDevices },
  ctx: CallContext,
) {
  const row = await findRollout(ctx.db, ctx.user.entId, input.id);
  const locked = await lockRollout(ctx.db, row.id);
  if (!['waiting', 'done', 'halted', 'canary', 'rolling'].includes(locked.state)) {
    throw new AppError(ErrorCode.UPGRADE_ROLLOUT_STATE);
  }
  const [current] = await ctx.db.select().from(upgradePackages).where(eq(upgradePackages.id, row.packageId));
  const upgraded = await ctx.db
    .select({ deviceId: upgradeRolloutDevices.deviceId, previous: upgradeRolloutDevices.previousVersion })
    .from(upgradeRolloutDevices)
    .where(
      and(
        eq(upgradeRolloutDevices.rolloutId, row.id),
        inArray(upgradeRolloutDevices.state, ROLLBACK_STATES[input.devices ?? 'upgraded']),
      ),
    );
  if (upgraded.length === 0) throw new AppError(ErrorCode.UPGRADE_ROLLOUT_STATE);
  // The package each device goes back to: the one named (the enterprise's, ready, suiting the
  // rollout's devices: its kind and device type, and not the rollout's own), or the ready
  // package of the same kind (and device type) whose version the device ran before.
  const groups = new Map<string, { pkg: PackageDb; deviceIds: string[] }>();
  if (input.packageId) {
    const pkg = await findPackage(ctx.db, ctx.user.entId, input.packageId);
    if (pkg.id === current.id) throw new AppError(ErrorCode.UPGRADE_ROLLBACK_SAME_PACKAGE);
    if (pkg.kind !== current.kind || pkg.deviceType !== current.deviceType) {
      throw new AppError(ErrorCode.UPGRADE_ROLLBACK_PACKAGE_MISMATCH);
    }
    if (pkg.state !== 'ready') throw new AppError(ErrorCode.UPGRADE_PACKAGE_NOT_READY);
    groups.set(pkg.id, { pkg, deviceIds: upgraded.map((u) => u.deviceId) });
  } else {
    const candidates = await ctx.db
      .select()
      .from(upgradePackages)
      .where(
        and(
          eq(upgradePackages.entId, ctx.user.entId),
          eq(upgradePackages.kind, current.kind),
          eq(upgradePackages.deviceType, current.deviceType),
          eq(upgradePackages.state, 'ready'),
        ),
      )
      .orderBy(desc(upgradePackages.createdAt), desc(upgradePackages.id));
    for (const u of upgraded) {
      const pkg = candidates.find((p) => p.version === u.previous && p.id !== current.id);
      if (!pkg) continue;
      const group = groups.get(pkg.id) ?? { pkg, deviceIds: [] };
      group.deviceIds.push(u.deviceId);
      groups.set(pkg.id, group);
    }
  }
  if (groups.size === 0) throw new AppError(ErrorCode.UPGRADE_NO_PREVIOUS);
  const rolloutIds: string[] = [];
  const commandIds: string[] = [];
  for (const { pkg, deviceIds } of groups.values()) {
    const started = await startRollout(
      ctx,
      pkg,
      deviceIds.map((id) => ({ id })),
      { canaryPercent: 100, failureThreshold: 100, autoContinue: true, rollbackOf: row.id },
    );
    rolloutIds.push(started.id);
    commandIds.push(...started.commandIds);
  }
  await ctx.db
    .update(upgradeRollouts)
    .set({ state: 'rolledBack', updatedAt: ctx.now })
    .where(eq(upgradeRollouts.id, row.id));
  await ctx.audit({
    module: 'device',
    action: 'upgradeRolloutRollback',
    targetType: 'upgrade_rollout',
    targetId: row.id,
    targetName: `${current.kind} ${current.version}`,
    detail: {
      to: [...groups.values()].map((g) => g.pkg.version),
      which: input.devices ?? 'upgraded',
      devices: upgraded.length,
      rolloutIds,
    },
  });
  dispatchAfterCommit(ctx, commandIds);
  return { rolloutIds };
}

/**
 * After a device's progress changed (or the operator resumed): halts the rollout when the
 * current stage's failures pass the threshold (`checkThreshold`), else moves on when the
 * stage is finished (canary: waiting, or the rest at once with autoContinue; the rest: done).
 * Returns the ids of commands stored for the next stage (to dispatch after commit).
 */
async function settle(db: Executor, files: Files, rolloutId: string, now: Date, checkThreshold: boolean) {
  const rollout = await lockRollout(db, rolloutId);
  if (!rollout || !['canary', 'rolling'].includes(rollout.state)) return [];
  const rows = await db
    .select({ state: upgradeRolloutDevices.state, n: count() })
    .from(upgradeRolloutDevices)
    .where(and(eq(upgradeRolloutDevices.rolloutId, rolloutId), eq(upgradeRolloutDevices.stage, rollout.stage)))
    .groupBy(upgradeRolloutDevices.state);
  const n = (state: UpgradeDeviceState) => Number(rows.find((r) => r.state === state)?.n ?? 0);
  const total = rows.reduce((sum, r) => sum + Number(r.n), 0);
  const failed = n('failed');
  const finished = failed + n('done');
  if (checkThreshold && finished > 0 && failed * 100 > rollout.failureThreshold * finished) {
    await db
      .update(upgradeRollouts)
      .set({ state: 'halted', haltReason: THRESHOLD_HALT, updatedAt: now })
      .where(eq(upgradeRollouts.id, rolloutId));
    return [];
  }
  if (finished < total) return [];
  if (rollout.stage === 2) {
    await db.update(upgradeRollouts).set({ state: 'done', updatedAt: now }).where(eq(upgradeRollouts.id, rolloutId));
    return [];
  }
  if (rollout.autoContinue !== 1) {
    await db.update(upgradeRollouts).set({ state: 'waiting', updatedAt: now }).where(eq(upgradeRollouts.id, rolloutId));
    return [];
  }
  const ids = await sendStage(db, files, { ...rollout, stage: 2 }, 2, now);
  await db
    .update(upgradeRollouts)
    .set({ state: ids.length > 0 ? 'rolling' : 'done', stage: 2, updatedAt: now })
    .where(eq(upgradeRollouts.id, rolloutId));
  return ids;
}

const ORDER: Record<UpgradeDeviceState, number> = Object.fromEntries(
  UPGRADE_DEVICE_STATES.map((s, i) => [s, i]),
) as Record<UpgradeDeviceState, number>;

/** The progress an ack reports: a stage of data.stage, or failed with the error's message. */
function progressOf(ack: CommandAck): { state: UpgradeDeviceState; reason: string | null } | null {
  if (ack.result === 'error') {
    return { state: 'failed', reason: `${ack.error?.code ?? 'FAILED'}: ${ack.error?.message ?? ''}`.slice(0, 500) };
  }
  const stage = ack.data?.stage;
  if (stage === 'downloading' || stage === 'installing' || stage === 'done') return { state: stage, reason: null };
  // An 'ok' without a stage: a player that reports only the end.
  return stage === undefined ? { state: 'done', reason: null } : null;
}

/**
 * One device's progress, in one transaction: its rollout device row (`match`, locked),
 * moving forward only; a finished device (done, failed) settles the rollout, a failure with
 * the threshold check. Acks and the job failing devices that never answered both go here.
 */
async function applyProgress(
  db: Executor,
  files: Files,
  match: SQL | undefined,
  progress: { state: UpgradeDeviceState; reason: string | null },
  now: Date,
): Promise<{ commandIds: string[]; applied: boolean }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(upgradeRolloutDevices).where(match).for('update');
    if (!row) return { commandIds: [], applied: false };
    if (row.state === 'done' || row.state === 'failed' || ORDER[progress.state] <= ORDER[row.state]) {
      return { commandIds: [], applied: false };
    }
    await tx
      .update(upgradeRolloutDevices)
      .set({ state: progress.state, reason: progress.reason, updatedAt: now })
      .where(eq(upgradeRolloutDevices.id, row.id));
    if (progress.state !== 'done' && progress.state !== 'failed') return { commandIds: [], applied: true };
    const commandIds = await settle(tx, files, row.rolloutId, now, progress.state === 'failed');
    return { commandIds, applied: true };
  });
}

/**
 * One device's ack of an upgrade command, in one transaction: the progress row of the
 * rollout device that the command was sent to (this device only: another device's ack of
 * the same id changes nothing), moving forward only; then the rollout settles.
 */
export async function applyUpgradeAck(
  db: Executor,
  files: Files,
  deviceId: string,
  ack: CommandAck,
  now: Date,
): Promise<{ commandIds: string[]; applied: boolean }> {
  const progress = progressOf(ack);
  if (!progress) return { commandIds: [], applied: false };
  return applyProgress(
    db,
    files,
    and(eq(upgradeRolloutDevices.commandId, ack.id), eq(upgradeRolloutDevices.deviceId, deviceId)),
    progress,
    now,
  );
}

/** The `upgrades-unanswered` job (every minute, jobs/index.ts). */
export const UPGRADE_UNANSWERED_JOB = 'upgrades-unanswered';
export const UPGRADE_UNANSWERED_CRON = '* * * * *';
/** Devices failed per run at most (the next run takes the rest). */
const UNANSWERED_BATCH = 500;

/**
 * Rollout devices still waiting (sent, downloading, installing) whose upgrade command expired
 * (its own expiry; a row without a command: UPGRADE_COMMAND_TTL_SEC after its last change)
 * fail with EXPIRED_REASON, one transaction each, exactly as a failed ack: the failure counts
 * towards the stage's threshold and may halt the rollout, a finished stage moves on. Returns
 * how many failed and the commands the settles stored (the caller dispatches them).
 */
export async function failUnansweredUpgrades(
  db: Executor,
  files: Files,
  now: Date,
): Promise<{ failed: number; commandIds: string[] }> {
  const stale = await db
    .select({ id: upgradeRolloutDevices.id })
    .from(upgradeRolloutDevices)
    .leftJoin(deviceCommands, eq(deviceCommands.id, upgradeRolloutDevices.commandId))
    .where(
      and(
        inArray(upgradeRolloutDevices.state, ['sent', 'downloading', 'installing']),
        or(
          lte(deviceCommands.expiresAt, now),
          and(
            isNull(deviceCommands.id),
            lte(upgradeRolloutDevices.updatedAt, new Date(now.getTime() - UPGRADE_COMMAND_TTL_SEC * 1000)),
          ),
        ),
      ),
    )
    .orderBy(asc(upgradeRolloutDevices.updatedAt))
    .limit(UNANSWERED_BATCH);
  let failed = 0;
  const commandIds: string[] = [];
  for (const { id } of stale) {
    const result = await applyProgress(
      db,
      files,
      eq(upgradeRolloutDevices.id, id),
      { state: 'failed', reason: EXPIRED_REASON },
      now,
    );
    if (result.applied) failed += 1;
    commandIds.push(...result.commandIds);
  }
  return { failed, commandIds };
}

/** The device channel's listener: every upgrade ack moves its device's progress (registered by app.ts). */
export function upgradeAckListener(files: () => Files, clock: () => number): DeviceChannelListener {
  return {
    async ack(db, deviceId, ack) {
      const result = await applyUpgradeAck(db, files(), deviceId, ack, new Date(clock()));
      return result.commandIds;
    },
  };
}
