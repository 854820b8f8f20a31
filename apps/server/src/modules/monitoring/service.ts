import {
  ErrorCode,
  MONITOR_FAR_METRES,
  MONITOR_PHOTO_MAX_BYTES,
  MONITOR_PHOTO_TYPES,
  MONITOR_TASK_STATES,
  type MonitorPhoto,
  type MonitorTask,
} from '@marquee/protocol';
import { and, count, desc, eq, exists, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { type ScopedColumns, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  ads,
  devices,
  enterprises,
  type MonitorTaskState,
  monitorApplications,
  monitorGrants,
  monitorPhotos,
  monitorPlans,
  monitorTasks,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { enterpriseKey, extensionOf } from '../../storage/storage.js';
import { adScope } from '../ads/scope.js';
import { deviceScope } from '../devices/repository.js';
import { createMonitorApplication } from '../notice/service.js';
import { distanceMetres, scheduledAt } from './checks.js';
import { readExif } from './exif.js';

/**
 * Third-party monitoring (issue 30; packages/protocol/src/endpoints/monitoring.ts). Who sees a
 * task: a third-party monitor (the account flag) only the tasks assigned to it in enterprises
 * whose grant (monitor_grants, written by notice.monitorApply's agree) is in force; everyone
 * else by data scope over the plan's department and owner (an advertiser: its own plans).
 */

const DAY = 86_400_000;
const dayStart = (date: string, plus = 0) => new Date(Date.parse(`${date}T00:00:00Z`) + plus * DAY);

const planScope: ScopedColumns = {
  entId: monitorPlans.entId,
  deptId: monitorPlans.deptId,
  ownerId: monitorPlans.ownerId,
};
const taskScope: ScopedColumns = {
  entId: monitorTasks.entId,
  deptId: monitorTasks.deptId,
  ownerId: monitorTasks.ownerId,
};

/** An enterprise's grant to a monitor account in force, as a condition on `entId`. */
function grantInForce(entId: SQL | typeof monitorTasks.entId, monitorAccountId: string): SQL {
  return exists(
    sql`(select 1 from ${monitorGrants} where ${monitorGrants.entId} = ${entId}
      and ${monitorGrants.monitorAccountId} = ${monitorAccountId} and ${monitorGrants.revokedAt} is null)`,
  );
}

/** The tasks the caller sees. */
export function taskVisible(ctx: CallContext): SQL {
  if (ctx.user.thirdMonitor) {
    return and(
      eq(monitorTasks.monitorAccountId, ctx.user.accountId),
      grantInForce(monitorTasks.entId, ctx.user.accountId),
    ) as SQL;
  }
  return scopeWhere(ctx.user, taskScope);
}

// ---- Applications -------------------------------------------------------------------------

export async function apply(input: { socialCreditCode: string; message: string }, ctx: CallContext) {
  if (!ctx.user.thirdMonitor) throw new AppError(ErrorCode.NO_PERMISSION);
  const [ent] = await ctx.db
    .select({ id: enterprises.id, name: enterprises.name })
    .from(enterprises)
    .where(eq(enterprises.socialCreditCode, input.socialCreditCode));
  if (!ent || ent.id === ctx.user.entId) throw new AppError(ErrorCode.NOT_FOUND);
  const [pending] = await ctx.db
    .select({ id: monitorApplications.id })
    .from(monitorApplications)
    .where(
      and(
        eq(monitorApplications.entId, ent.id),
        eq(monitorApplications.applicantAccountId, ctx.user.accountId),
        eq(monitorApplications.status, 'pending'),
      ),
    );
  if (pending) throw new AppError(ErrorCode.MONITOR_APPLICATION_PENDING);
  const [me] = await ctx.db
    .select({ realName: accounts.realName, entName: enterprises.name })
    .from(accounts)
    .innerJoin(enterprises, eq(enterprises.id, accounts.entId))
    .where(eq(accounts.id, ctx.user.accountId));
  const applicant = me?.entName ?? me?.realName ?? '';
  const html = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const { noticeId, applicationId } = await createMonitorApplication(ctx.db, {
    entId: ent.id,
    applicantAccountId: ctx.user.accountId,
    title: `${applicant} asks to monitor your screens`,
    content:
      `<p><strong>${html(applicant)}</strong> (${html(me?.realName ?? '')}) asks to verify proof of play on your screens.</p>` +
      (input.message ? `<p>${html(input.message)}</p>` : ''),
    createdAt: ctx.now,
  });
  await ctx.audit({
    module: 'monitoring',
    action: 'monitorApplySend',
    targetType: 'monitor_application',
    targetId: applicationId,
    targetName: ent.name,
  });
  ctx.afterCommit(() => ctx.services.notices.invalidateEnterprise(ent.id));
  return { noticeId };
}

export async function applications(ctx: CallContext) {
  const rows = await ctx.db
    .select({
      id: monitorApplications.id,
      entName: enterprises.name,
      status: monitorApplications.status,
      createdAt: monitorApplications.createdAt,
      decidedAt: monitorApplications.decidedAt,
      grantApplication: monitorGrants.applicationId,
      revokedAt: monitorGrants.revokedAt,
    })
    .from(monitorApplications)
    .innerJoin(enterprises, eq(enterprises.id, monitorApplications.entId))
    .leftJoin(
      monitorGrants,
      and(
        eq(monitorGrants.entId, monitorApplications.entId),
        eq(monitorGrants.monitorAccountId, monitorApplications.applicantAccountId),
      ),
    )
    .where(eq(monitorApplications.applicantAccountId, ctx.user.accountId))
    .orderBy(desc(monitorApplications.createdAt))
    .limit(200);
  return rows.map((r) => ({
    id: r.id,
    entName: r.entName,
    status: r.status,
    granted: r.status === 'agreed' && r.grantApplication === r.id && r.revokedAt === null,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
  }));
}

export async function monitors(ctx: CallContext) {
  const rows = await ctx.db
    .select({
      id: monitorGrants.id,
      accountId: accounts.id,
      name: accounts.realName,
      login: accounts.loginName,
      entName: enterprises.name,
    })
    .from(monitorGrants)
    .innerJoin(accounts, eq(accounts.id, monitorGrants.monitorAccountId))
    .innerJoin(enterprises, eq(enterprises.id, accounts.entId))
    .where(and(eq(monitorGrants.entId, ctx.user.entId), isNull(monitorGrants.revokedAt)))
    .orderBy(accounts.realName, accounts.id);
  return rows.map((r) => ({ id: r.id, accountId: r.accountId, name: r.name || r.login, entName: r.entName }));
}

// ---- Plans --------------------------------------------------------------------------------

async function namesOf(db: Executor, accountIds: string[]) {
  if (accountIds.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: accounts.id, name: accounts.realName, login: accounts.loginName })
    .from(accounts)
    .where(inArray(accounts.id, [...new Set(accountIds)]));
  return new Map(rows.map((r) => [r.id, r.name || r.login]));
}

export async function planList(input: { page: number; size: number; name?: string }, ctx: CallContext) {
  const where = and(
    scopeWhere(ctx.user, planScope),
    input.name ? ilike(monitorPlans.name, `%${input.name}%`) : undefined,
  );
  const [[{ total }], rows] = await Promise.all([
    ctx.db.select({ total: count() }).from(monitorPlans).where(where),
    ctx.db
      .select()
      .from(monitorPlans)
      .where(where)
      .orderBy(desc(monitorPlans.createdAt), desc(monitorPlans.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
  ]);
  const ids = rows.map((r) => r.id);
  const counts = ids.length
    ? await ctx.db
        .select({ planId: monitorTasks.planId, state: monitorTasks.state, n: count() })
        .from(monitorTasks)
        .where(inArray(monitorTasks.planId, ids))
        .groupBy(monitorTasks.planId, monitorTasks.state)
    : [];
  const adIds = [...new Set(rows.flatMap((r) => r.adIds))];
  const adNames = adIds.length
    ? new Map(
        (await ctx.db.select({ id: ads.id, name: ads.name }).from(ads).where(inArray(ads.id, adIds))).map((a) => [
          a.id,
          a.name,
        ]),
      )
    : new Map<string, string>();
  const names = await namesOf(
    ctx.db,
    rows.map((r) => r.monitorAccountId),
  );
  return {
    total,
    data: rows.map((r) => ({
      id: r.id,
      name: r.name,
      monitorAccountId: r.monitorAccountId,
      monitorName: names.get(r.monitorAccountId) ?? '',
      adIds: r.adIds,
      adNames: r.adIds.map((id) => adNames.get(id) ?? ''),
      deviceIds: r.deviceIds,
      startDate: r.startDate,
      endDate: r.endDate,
      photosRequired: r.photosRequired,
      tasks: Object.fromEntries(counts.filter((c) => c.planId === r.id).map((c) => [c.state, c.n])),
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

export async function planCreate(
  input: {
    name: string;
    monitorAccountId: string;
    adIds: string[];
    deviceIds: string[];
    startDate: string;
    endDate: string;
    photosRequired: number;
  },
  ctx: CallContext,
) {
  const entId = ctx.user.entId;
  const [grant] = await ctx.db
    .select({ id: monitorGrants.id })
    .from(monitorGrants)
    .where(
      and(
        eq(monitorGrants.entId, entId),
        eq(monitorGrants.monitorAccountId, input.monitorAccountId),
        isNull(monitorGrants.revokedAt),
      ),
    );
  if (!grant) throw new AppError(ErrorCode.MONITOR_NOT_GRANTED);
  const adIds = [...new Set(input.adIds)];
  const deviceIds = [...new Set(input.deviceIds)];
  const seenAds = await ctx.db
    .select({ id: ads.id })
    .from(ads)
    .where(and(scopeWhere(ctx.user, adScope), inArray(ads.id, adIds), isNull(ads.deletedAt)));
  const seenDevices = await ctx.db
    .select({ id: devices.id })
    .from(devices)
    .where(and(scopeWhere(ctx.user, deviceScope), inArray(devices.id, deviceIds)));
  if (seenAds.length !== adIds.length || seenDevices.length !== deviceIds.length) {
    throw new AppError(ErrorCode.NOT_FOUND);
  }
  const [plan] = await ctx.db
    .insert(monitorPlans)
    .values({
      entId,
      deptId: ctx.user.deptId,
      ownerId: ctx.user.accountId,
      name: input.name,
      monitorAccountId: input.monitorAccountId,
      adIds,
      deviceIds,
      startDate: input.startDate,
      endDate: input.endDate,
      photosRequired: input.photosRequired,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: monitorPlans.id });
  // One task per screen over the plan's dates, due at the end of its last day (UTC).
  const dueAt = dayStart(input.endDate, 1);
  await ctx.db.insert(monitorTasks).values(
    deviceIds.map((deviceId) => ({
      entId,
      planId: plan.id,
      deptId: ctx.user.deptId,
      ownerId: ctx.user.accountId,
      deviceId,
      monitorAccountId: input.monitorAccountId,
      state: (dueAt.getTime() <= ctx.now.getTime() ? 'overdue' : 'pendingView') as MonitorTaskState,
      dueAt,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })),
  );
  await ctx.audit({
    module: 'monitoring',
    action: 'monitorPlanCreate',
    targetType: 'monitor_plan',
    targetId: plan.id,
    targetName: input.name,
    detail: { tasks: deviceIds.length },
  });
  return { id: plan.id, tasks: deviceIds.length };
}

// ---- Tasks --------------------------------------------------------------------------------

const taskColumns = {
  id: monitorTasks.id,
  entId: monitorTasks.entId,
  planId: monitorTasks.planId,
  planName: monitorPlans.name,
  entName: enterprises.name,
  deviceId: monitorTasks.deviceId,
  deviceName: devices.name,
  deviceAddress: devices.address,
  latitude: devices.latitude,
  longitude: devices.longitude,
  monitorAccountId: monitorTasks.monitorAccountId,
  ownerId: monitorTasks.ownerId,
  state: monitorTasks.state,
  closed: monitorTasks.closed,
  startDate: monitorPlans.startDate,
  endDate: monitorPlans.endDate,
  dueAt: monitorTasks.dueAt,
  photosRequired: monitorPlans.photosRequired,
  adIds: monitorPlans.adIds,
  completedAt: monitorTasks.completedAt,
  viewedAt: monitorTasks.viewedAt,
  photos: sql<number>`(select count(*)::int from ${monitorPhotos} where ${monitorPhotos.taskId} = ${monitorTasks.id} and ${monitorPhotos.status} = 'ready')`,
  flagged: sql<number>`(select count(*)::int from ${monitorPhotos} where ${monitorPhotos.taskId} = ${monitorTasks.id} and ${monitorPhotos.status} = 'ready' and (${monitorPhotos.far} or ${monitorPhotos.scheduled} = false))`,
};

function taskQuery(db: Executor) {
  return db
    .select(taskColumns)
    .from(monitorTasks)
    .innerJoin(monitorPlans, eq(monitorPlans.id, monitorTasks.planId))
    .innerJoin(enterprises, eq(enterprises.id, monitorTasks.entId))
    .innerJoin(devices, eq(devices.id, monitorTasks.deviceId));
}

type TaskRow = Awaited<ReturnType<ReturnType<typeof taskQuery>['where']>>[number];

function toTask(r: TaskRow, names: Map<string, string>): MonitorTask {
  return {
    id: r.id,
    planId: r.planId,
    planName: r.planName,
    entName: r.entName,
    deviceId: r.deviceId,
    deviceName: r.deviceName,
    deviceAddress: r.deviceAddress,
    monitorName: names.get(r.monitorAccountId) ?? '',
    state: r.state,
    closed: r.closed,
    startDate: r.startDate,
    endDate: r.endDate,
    dueAt: r.dueAt.toISOString(),
    photosRequired: r.photosRequired,
    photos: r.photos,
    flagged: r.flagged,
    completedAt: r.completedAt?.toISOString() ?? null,
  };
}

export async function taskList(
  input: { page: number; size: number; state?: MonitorTaskState; planId?: string },
  ctx: CallContext,
) {
  // The tabs' counts: every state over what the caller sees (and the plan), whatever tab is open.
  const seen = and(taskVisible(ctx), input.planId ? eq(monitorTasks.planId, input.planId) : undefined);
  const where = and(seen, input.state ? eq(monitorTasks.state, input.state) : undefined);
  const [[{ total }], rows, perState] = await Promise.all([
    ctx.db.select({ total: count() }).from(monitorTasks).where(where),
    taskQuery(ctx.db)
      .where(where)
      .orderBy(desc(monitorTasks.createdAt), monitorTasks.id)
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ state: monitorTasks.state, n: count() }).from(monitorTasks).where(seen).groupBy(monitorTasks.state),
  ]);
  const names = await namesOf(
    ctx.db,
    rows.map((r) => r.monitorAccountId),
  );
  const counts = Object.fromEntries(MONITOR_TASK_STATES.map((s) => [s, 0])) as Record<MonitorTaskState, number>;
  for (const r of perState) counts[r.state] = Number(r.n);
  return { total, counts, data: rows.map((r) => toTask(r, names)) };
}

/** The visible task (else NOT_FOUND), locked when `lock`. */
async function visibleTask(ctx: CallContext, id: string, lock = false) {
  const q = taskQuery(ctx.db).where(and(eq(monitorTasks.id, id), taskVisible(ctx)));
  const [row] = lock ? await q.for('update', { of: monitorTasks }) : await q;
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  return row;
}

async function photosOf(ctx: CallContext, taskIds: string[]): Promise<Map<string, MonitorPhoto[]>> {
  const out = new Map<string, MonitorPhoto[]>();
  if (taskIds.length === 0) return out;
  const rows = await ctx.db
    .select()
    .from(monitorPhotos)
    .where(and(inArray(monitorPhotos.taskId, taskIds), eq(monitorPhotos.status, 'ready')))
    .orderBy(monitorPhotos.createdAt, monitorPhotos.id);
  for (const p of rows) {
    const list = out.get(p.taskId) ?? [];
    list.push(await toPhoto(ctx, p));
    out.set(p.taskId, list);
  }
  return out;
}

async function toPhoto(ctx: CallContext, p: typeof monitorPhotos.$inferSelect): Promise<MonitorPhoto> {
  return {
    id: p.id,
    url: p.status === 'ready' ? await ctx.services.files.directUrl(p.key) : null,
    takenAt: p.takenAt?.toISOString() ?? null,
    latitude: p.latitude,
    longitude: p.longitude,
    source: p.source as MonitorPhoto['source'],
    distanceM: p.distanceM,
    far: p.far,
    scheduled: p.scheduled,
    createdAt: p.createdAt.toISOString(),
  };
}

export async function taskInfo(input: { id: string }, ctx: CallContext) {
  const row = await visibleTask(ctx, input.id);
  const [names, photos, adRows] = await Promise.all([
    namesOf(ctx.db, [row.monitorAccountId]),
    photosOf(ctx, [row.id]),
    row.adIds.length
      ? ctx.db.select({ id: ads.id, name: ads.name }).from(ads).where(inArray(ads.id, row.adIds))
      : Promise.resolve([]),
  ]);
  const isMonitor = row.monitorAccountId === ctx.user.accountId && ctx.user.thirdMonitor;
  return {
    task: toTask(row, names),
    ads: adRows,
    device: { latitude: row.latitude, longitude: row.longitude },
    photos: photos.get(row.id) ?? [],
    isMonitor,
    canManage: !ctx.user.thirdMonitor,
  };
}

/** The task as its monitor may act on it (else NOT_FOUND), locked. */
async function monitorsTask(ctx: CallContext, id: string) {
  const row = await visibleTask(ctx, id, true);
  if (!ctx.user.thirdMonitor || row.monitorAccountId !== ctx.user.accountId) throw new AppError(ErrorCode.NOT_FOUND);
  return row;
}

async function setState(ctx: CallContext, id: string, values: Partial<typeof monitorTasks.$inferInsert>) {
  await ctx.db
    .update(monitorTasks)
    .set({ ...values, updatedAt: ctx.now })
    .where(eq(monitorTasks.id, id));
}

export async function taskView(input: { id: string }, ctx: CallContext) {
  const row = await monitorsTask(ctx, input.id);
  const state: MonitorTaskState = row.state === 'pendingView' && !row.closed ? 'pending' : row.state;
  if (state !== row.state) await setState(ctx, row.id, { state, viewedAt: ctx.now });
  await ctx.audit({
    module: 'monitoring',
    action: 'monitorTaskView',
    targetType: 'monitor_task',
    targetId: row.id,
    targetName: `${row.planName} / ${row.deviceName}`,
  });
  return { state };
}

const open = (row: { state: MonitorTaskState; closed: boolean }) =>
  !row.closed && (row.state === 'pendingView' || row.state === 'pending');

export async function photoApply(
  input: { taskId: string; size: number; contentType: string; takenAt?: string; latitude?: number; longitude?: number },
  ctx: CallContext,
) {
  const row = await monitorsTask(ctx, input.taskId);
  if (!open(row)) throw new AppError(ErrorCode.MONITOR_TASK_STATE);
  const type = input.contentType.split(';')[0].trim().toLowerCase();
  if (!(MONITOR_PHOTO_TYPES as readonly string[]).includes(type)) throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
  if (input.size > MONITOR_PHOTO_MAX_BYTES) throw new AppError(ErrorCode.FILE_TOO_LARGE);
  const [photo] = await ctx.db
    .insert(monitorPhotos)
    .values({
      entId: row.entId,
      taskId: row.id,
      key: '',
      contentType: type,
      browserTakenAt: input.takenAt ? new Date(input.takenAt) : null,
      browserLatitude: input.latitude ?? null,
      browserLongitude: input.longitude ?? null,
      uploadedBy: ctx.user.accountId,
      createdAt: ctx.now,
    })
    .returning({ id: monitorPhotos.id });
  const key = enterpriseKey(row.entId, 'monitoring', row.id, `${photo.id}.${extensionOf(type)}`);
  await ctx.db.update(monitorPhotos).set({ key }).where(eq(monitorPhotos.id, photo.id));
  const signature = ctx.services.files.createUpload({
    entId: row.entId,
    key,
    minBytes: 1,
    maxBytes: MONITOR_PHOTO_MAX_BYTES,
    contentTypes: [...MONITOR_PHOTO_TYPES],
    contentType: type,
  });
  await ctx.audit({
    module: 'monitoring',
    action: 'monitorPhotoUpload',
    targetType: 'monitor_task',
    targetId: row.id,
    targetName: `${row.planName} / ${row.deviceName}`,
  });
  return { ...signature, photoId: photo.id };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

export async function photoVerify(input: { photoId: string }, ctx: CallContext) {
  const [photo] = await ctx.db.select().from(monitorPhotos).where(eq(monitorPhotos.id, input.photoId));
  if (!photo) throw new AppError(ErrorCode.NOT_FOUND);
  const row = await monitorsTask(ctx, photo.taskId);
  if (photo.status === 'ready') {
    await ctx.audit({
      module: 'monitoring',
      action: 'monitorPhotoVerify',
      targetType: 'monitor_task',
      targetId: row.id,
      targetName: `${row.planName} / ${row.deviceName}`,
    });
    return toPhoto(ctx, photo);
  }
  if (!open(row)) throw new AppError(ErrorCode.MONITOR_TASK_STATE);
  const stored = await ctx.services.files.open(row.entId, photo.key);
  if (!stored) throw new AppError(ErrorCode.MONITOR_PHOTO_INVALID);
  const bytes = await readAll(stored.body);
  let exif: ReturnType<typeof readExif>;
  try {
    const meta = await sharp(bytes).metadata();
    if (!meta.format || !['jpeg', 'png', 'webp'].includes(meta.format)) throw new Error('not a picture');
    exif = readExif(meta.exif);
  } catch {
    await ctx.services.files.storage.delete(photo.key);
    throw new AppError(ErrorCode.MONITOR_PHOTO_INVALID);
  }
  const fromExif = exif.takenAt !== null || exif.latitude !== null;
  const takenAt = exif.takenAt ?? photo.browserTakenAt;
  const latitude = exif.latitude ?? photo.browserLatitude;
  const longitude = exif.longitude ?? photo.browserLongitude;
  const source = fromExif ? 'exif' : takenAt || latitude !== null ? 'browser' : 'none';
  const distanceM =
    latitude !== null && longitude !== null && row.latitude !== null && row.longitude !== null
      ? Math.round(distanceMetres({ lat: latitude, lng: longitude }, { lat: row.latitude, lng: row.longitude }))
      : null;
  const scheduled = takenAt
    ? await scheduledAt(ctx.db, { id: row.deviceId, entId: row.entId }, row.adIds, takenAt)
    : null;
  const [updated] = await ctx.db
    .update(monitorPhotos)
    .set({
      status: 'ready',
      size: bytes.length,
      takenAt,
      latitude,
      longitude,
      source,
      distanceM,
      far: distanceM !== null && distanceM > MONITOR_FAR_METRES,
      scheduled,
    })
    .where(eq(monitorPhotos.id, photo.id))
    .returning();
  if (row.state === 'pendingView') await setState(ctx, row.id, { state: 'pending', viewedAt: ctx.now });
  await ctx.audit({
    module: 'monitoring',
    action: 'monitorPhotoVerify',
    targetType: 'monitor_task',
    targetId: row.id,
    targetName: `${row.planName} / ${row.deviceName}`,
  });
  return toPhoto(ctx, updated);
}

export async function taskComplete(input: { id: string }, ctx: CallContext) {
  const row = await monitorsTask(ctx, input.id);
  if (!open(row)) throw new AppError(ErrorCode.MONITOR_TASK_STATE);
  if (row.photos < row.photosRequired) throw new AppError(ErrorCode.MONITOR_PHOTOS_MISSING);
  await setState(ctx, row.id, { state: 'completed', completedAt: ctx.now });
  await ctx.audit({
    module: 'monitoring',
    action: 'monitorTaskComplete',
    targetType: 'monitor_task',
    targetId: row.id,
    targetName: `${row.planName} / ${row.deviceName}`,
  });
  return { state: 'completed' as const };
}

/** The task as the plan's side may manage it: visible by data scope, not to a monitor. */
async function managedTask(ctx: CallContext, id: string) {
  if (ctx.user.thirdMonitor) throw new AppError(ErrorCode.NOT_FOUND);
  return visibleTask(ctx, id, true);
}

export async function taskClose(input: { id: string }, ctx: CallContext) {
  const row = await managedTask(ctx, input.id);
  if (row.closed) throw new AppError(ErrorCode.MONITOR_TASK_STATE);
  const state: MonitorTaskState = row.state === 'completed' ? 'completed' : 'notCompleted';
  await setState(ctx, row.id, { closed: true, closedAt: ctx.now, state });
  await ctx.audit({
    module: 'monitoring',
    action: 'monitorTaskClose',
    targetType: 'monitor_task',
    targetId: row.id,
    targetName: `${row.planName} / ${row.deviceName}`,
  });
  return { state };
}

export async function taskReopen(input: { id: string }, ctx: CallContext) {
  const row = await managedTask(ctx, input.id);
  if (!row.closed) throw new AppError(ErrorCode.MONITOR_TASK_STATE);
  const state: MonitorTaskState =
    row.state === 'completed'
      ? 'completed'
      : row.dueAt.getTime() <= ctx.now.getTime()
        ? 'overdue'
        : row.viewedAt
          ? 'pending'
          : 'pendingView';
  await setState(ctx, row.id, { closed: false, closedAt: null, state });
  await ctx.audit({
    module: 'monitoring',
    action: 'monitorTaskReopen',
    targetType: 'monitor_task',
    targetId: row.id,
    targetName: `${row.planName} / ${row.deviceName}`,
  });
  return { state };
}

/** The monitors' evidence of one ad the caller sees: tasks of plans naming it, with their photographs. */
export async function adEvidence(input: { adId: string }, ctx: CallContext) {
  const [ad] = await ctx.db
    .select({ id: ads.id, entId: ads.entId })
    .from(ads)
    .where(and(eq(ads.id, input.adId), scopeWhere(ctx.user, adScope)));
  if (!ad) throw new AppError(ErrorCode.NOT_FOUND);
  const rows = await taskQuery(ctx.db)
    .where(and(eq(monitorTasks.entId, ad.entId), sql`${monitorPlans.adIds} @> ${JSON.stringify([ad.id])}::jsonb`))
    .orderBy(desc(monitorTasks.createdAt))
    .limit(200);
  const [names, photos] = await Promise.all([
    namesOf(
      ctx.db,
      rows.map((r) => r.monitorAccountId),
    ),
    photosOf(
      ctx,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((r) => ({
    taskId: r.id,
    deviceName: r.deviceName,
    monitorName: names.get(r.monitorAccountId) ?? '',
    state: r.state,
    photos: photos.get(r.id) ?? [],
  }));
}

/** The overdue job: open tasks past their due time. Indexed (monitor_tasks_due_idx). */
export async function markOverdue(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .update(monitorTasks)
    .set({ state: 'overdue', updatedAt: now })
    .where(
      and(
        inArray(monitorTasks.state, ['pendingView', 'pending']),
        eq(monitorTasks.closed, false),
        sql`${monitorTasks.dueAt} <= ${now}`,
      ),
    )
    .returning({ id: monitorTasks.id });
  return rows.length;
}
