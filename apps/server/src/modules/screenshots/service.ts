import {
  type DeviceStatusValue,
  ErrorCode,
  type LatestScreenshotRow,
  SCREENSHOT_COMMAND_TTL_SEC,
  SCREENSHOT_KEEP_DAYS,
  type ScreenshotRow,
  type ScreenshotSettings,
  type ScreenshotTrigger,
} from '@marquee/protocol';
import { and, count, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  departments,
  deviceCommands,
  deviceScreenshots,
  devices,
  enterprises,
  screenshotSettings,
} from '../../db/schema/index.js';
import { newestFirst } from '../../db/sort.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import type { Files } from '../../storage/files.js';
import { deviceScope, effectiveStatus } from '../devices/repository.js';
import { statusFilter } from '../devices/service.js';
import { queueCommands, resolveDeviceTargets } from '../devices/targets.js';
import { ScreenshotText } from './texts.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

type ScreenshotDb = typeof deviceScreenshots.$inferSelect;

/** A screenshot as the console gets it: its image as a signed, short-lived URL. */
export function presentScreenshot(files: Files, row: ScreenshotDb, deviceName: string): ScreenshotRow {
  return {
    id: row.id,
    deviceId: row.deviceId,
    deviceName,
    url: files.signedUrl(row.fileKey),
    contentType: row.contentType,
    size: row.size,
    width: row.width,
    height: row.height,
    trigger: row.trigger as ScreenshotTrigger,
    commandId: row.commandId,
    takenAt: row.takenAt.toISOString(),
  };
}

/** Queues a `screenshot` command to each named device (operation log: the devices' names). */
export async function takeScreenshots(input: { deviceIds: string[] }, ctx: CallContext) {
  const targets = await resolveDeviceTargets(ctx, { deviceIds: input.deviceIds });
  const commands = await queueCommands(ctx, targets, { kind: 'screenshot', params: {} }, SCREENSHOT_COMMAND_TTL_SEC, {
    module: 'device',
    action: 'screenshot',
  });
  return { commands };
}

/** A page of the visible devices, each with its newest screenshot (or none). */
export async function latestScreenshots(
  input: { page: number; size: number; status?: DeviceStatusValue; keyword?: string },
  ctx: CallContext,
): Promise<{ total: number; data: LatestScreenshotRow[] }> {
  const conds: SQL[] = [scopeWhere(ctx.user, deviceScope)];
  if (input.status) conds.push(statusFilter(input.status, ctx.now));
  if (input.keyword) {
    const pattern = `%${escapeLike(input.keyword)}%`;
    conds.push(or(ilike(devices.name, pattern), ilike(devices.number, pattern)) as SQL);
  }
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ device: devices, deptName: departments.name })
      .from(devices)
      .leftJoin(departments, eq(departments.id, devices.deptId))
      .where(where)
      .orderBy(...newestFirst(devices.createdAt, devices.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(devices).where(where),
  ]);
  const ids = rows.map((r) => r.device.id);
  const shots =
    ids.length === 0
      ? []
      : await ctx.db
          .selectDistinctOn([deviceScreenshots.deviceId])
          .from(deviceScreenshots)
          .where(inArray(deviceScreenshots.deviceId, ids))
          .orderBy(deviceScreenshots.deviceId, desc(deviceScreenshots.takenAt), desc(deviceScreenshots.id));
  const byDevice = new Map(shots.map((s) => [s.deviceId, s]));
  const now = ctx.now.getTime();
  const files = ctx.services.files;
  return {
    total,
    data: rows.map(({ device: d, deptName }) => {
      const shot = byDevice.get(d.id);
      return {
        deviceId: d.id,
        deviceName: d.name,
        number: d.number,
        status: effectiveStatus(d, now),
        deptName: deptName ?? '',
        screenshot: shot ? presentScreenshot(files, shot, d.name) : null,
      };
    }),
  };
}

/** The start of the day after a date-only bound (an end date includes its whole day). */
function bound(value: string, end: boolean): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = new Date(`${value}T00:00:00.000Z`);
    return end ? new Date(day.getTime() + 86_400_000) : day;
  }
  return new Date(value);
}

/** Screenshots of the visible devices (or one), newest first, within a time range. */
export async function screenshotHistory(
  input: { page: number; size: number; deviceId?: string; trigger?: ScreenshotTrigger; from?: string; to?: string },
  ctx: CallContext,
): Promise<{ total: number; data: ScreenshotRow[] }> {
  if (input.deviceId) await resolveDeviceTargets(ctx, { deviceIds: [input.deviceId] });
  const conds: SQL[] = [scopeWhere(ctx.user, deviceScope), eq(deviceScreenshots.entId, ctx.user.entId)];
  if (input.deviceId) conds.push(eq(deviceScreenshots.deviceId, input.deviceId));
  if (input.trigger) conds.push(eq(deviceScreenshots.trigger, input.trigger));
  if (input.from) conds.push(gte(deviceScreenshots.takenAt, bound(input.from, false)));
  if (input.to) conds.push(lt(deviceScreenshots.takenAt, bound(input.to, true)));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ shot: deviceScreenshots, deviceName: devices.name })
      .from(deviceScreenshots)
      .innerJoin(devices, eq(devices.id, deviceScreenshots.deviceId))
      .where(where)
      .orderBy(...newestFirst(deviceScreenshots.takenAt, deviceScreenshots.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db
      .select({ total: count() })
      .from(deviceScreenshots)
      .innerJoin(devices, eq(devices.id, deviceScreenshots.deviceId))
      .where(where),
  ]);
  return { total, data: rows.map((r) => presentScreenshot(ctx.services.files, r.shot, r.deviceName)) };
}

/** Deletes screenshots of visible devices with their files (all named, or nothing: NOT_FOUND). */
export async function deleteScreenshots(input: { ids: string[] }, ctx: CallContext): Promise<null> {
  const ids = [...new Set(input.ids)];
  const rows = await ctx.db
    .select({ id: deviceScreenshots.id, fileKey: deviceScreenshots.fileKey, deviceName: devices.name })
    .from(deviceScreenshots)
    .innerJoin(devices, eq(devices.id, deviceScreenshots.deviceId))
    .where(
      and(
        scopeWhere(ctx.user, deviceScope),
        eq(deviceScreenshots.entId, ctx.user.entId),
        inArray(deviceScreenshots.id, ids),
      ),
    );
  if (rows.length !== ids.length) throw new AppError(ErrorCode.NOT_FOUND, ScreenshotText.notFound);
  await ctx.db.delete(deviceScreenshots).where(inArray(deviceScreenshots.id, ids));
  await ctx.audit({
    module: 'device',
    action: 'deleteScreenshot',
    targetType: 'screenshot',
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames([...new Set(rows.map((r) => r.deviceName))]),
    detail: { screenshots: ids.length },
  });
  // The rows are gone once committed; then their files (a failure leaves a file no row names).
  const files = ctx.services.files;
  ctx.afterCommit(() => {
    files.deleteMany(rows.map((r) => r.fileKey)).catch((error) => ctx.log.warn({ err: error }, 'screenshot files'));
  });
  return null;
}

export const DEFAULT_SCREENSHOT_SETTINGS: ScreenshotSettings = { timedEnabled: true, intervalHours: 1 };

export async function readSettings(db: Executor, entId: string): Promise<ScreenshotSettings> {
  const [row] = await db.select().from(screenshotSettings).where(eq(screenshotSettings.entId, entId));
  return row
    ? { timedEnabled: row.timedEnabled, intervalHours: row.intervalHours as ScreenshotSettings['intervalHours'] }
    : DEFAULT_SCREENSHOT_SETTINGS;
}

export function getSettings(ctx: CallContext): Promise<ScreenshotSettings> {
  return readSettings(ctx.db, ctx.user.entId);
}

export async function saveSettings(input: ScreenshotSettings, ctx: CallContext): Promise<ScreenshotSettings> {
  const values = { timedEnabled: input.timedEnabled, intervalHours: input.intervalHours, updatedAt: ctx.now };
  await ctx.db
    .insert(screenshotSettings)
    .values({ entId: ctx.user.entId, ...values })
    .onConflictDoUpdate({ target: screenshotSettings.entId, set: values });
  const [ent] = await ctx.db
    .select({ name: enterprises.name })
    .from(enterprises)
    .where(eq(enterprises.id, ctx.user.entId));
  await ctx.audit({
    module: 'device',
    action: 'screenshotSettings',
    targetType: 'enterprise',
    targetId: ctx.user.entId,
    targetName: ent?.name ?? ctx.user.entId,
    detail: { ...input },
  });
  return { timedEnabled: input.timedEnabled, intervalHours: input.intervalHours };
}

/** How long screenshots are kept (spec section 9). */
export const SCREENSHOT_KEEP_MS = SCREENSHOT_KEEP_DAYS * 86_400_000;
const PRUNE_BATCH = 500;

/** Deletes screenshots taken before `now` - 7 days, files first, then their rows; returns how many. */
export async function pruneScreenshots(db: Executor, files: Files, now: Date): Promise<number> {
  const before = new Date(now.getTime() - SCREENSHOT_KEEP_MS);
  let deleted = 0;
  for (;;) {
    const rows = await db
      .select({ id: deviceScreenshots.id, fileKey: deviceScreenshots.fileKey })
      .from(deviceScreenshots)
      .where(lt(deviceScreenshots.takenAt, before))
      .orderBy(deviceScreenshots.takenAt)
      .limit(PRUNE_BATCH);
    if (rows.length === 0) return deleted;
    await files.deleteMany(rows.map((r) => r.fileKey));
    await db.delete(deviceScreenshots).where(
      inArray(
        deviceScreenshots.id,
        rows.map((r) => r.id),
      ),
    );
    deleted += rows.length;
    if (rows.length < PRUNE_BATCH) return deleted;
  }
}

/**
 * The timed screenshot (spec section 9, hourly on the hour): one `screenshot` command (sent
 * by the server: no account) to every online device of the enterprises whose setting is on
 * and whose interval divides this hour (UTC), unless one is still open for the device.
 * Returns the ids of the commands stored; the caller dispatches them.
 */
export async function queueTimedScreenshots(db: Executor, now: Date): Promise<string[]> {
  const hour = now.getUTCHours();
  const expiresAt = new Date(now.getTime() + SCREENSHOT_COMMAND_TTL_SEC * 1000);
  const targets = await db
    .select({ id: devices.id, entId: devices.entId })
    .from(devices)
    .leftJoin(screenshotSettings, eq(screenshotSettings.entId, devices.entId))
    .where(
      and(
        statusFilter('online', now),
        sql`coalesce(${screenshotSettings.timedEnabled}, true)`,
        sql`${hour} % coalesce(${screenshotSettings.intervalHours}, 1) = 0`,
        sql`not exists (select 1 from ${deviceCommands} where ${deviceCommands.deviceId} = ${devices.id}
          and ${deviceCommands.kind} = 'screenshot' and ${deviceCommands.state} in ('pending', 'sent')
          and ${deviceCommands.expiresAt} > ${now})`,
      ),
    );
  const ids: string[] = [];
  for (let i = 0; i < targets.length; i += 1000) {
    const rows = await db
      .insert(deviceCommands)
      .values(
        targets.slice(i, i + 1000).map((d) => ({
          entId: d.entId,
          deviceId: d.id,
          kind: 'screenshot',
          params: {},
          accountId: null,
          createdAt: now,
          expiresAt,
        })),
      )
      .returning({ id: deviceCommands.id });
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}
