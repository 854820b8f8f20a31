import {
  AD_EXPIRING_DAYS,
  AD_MAX_MATERIALS,
  AD_TARGET_KINDS,
  type Ad,
  type AdInfo,
  type AdReview,
  type AdReviewState,
  type AdStatus,
  type AdTargetKind,
  adStatus,
  ErrorCode,
  type endpoints,
  monitorUrlValid,
  RefType,
} from '@marquee/protocol';
import {
  and,
  arrayOverlaps,
  asc,
  count,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  isNull,
  like,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { manageWhere, type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  type AdTargetIds,
  accounts,
  adReviews,
  adSlots,
  ads,
  departments,
  deviceGroups,
  devices,
  enterprises,
  materials,
  promotionPlans,
  salesOrderLines,
  salesOrders,
  spliceWalls,
  tags,
  templates,
} from '../../db/schema/index.js';
import { newestFirst } from '../../db/sort.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { deviceGroupScope } from '../devices/groupScope.js';
import { deviceScope } from '../devices/repository.js';
import { registerMaterialReferrer } from '../materials/references.js';
import { materialScope } from '../materials/scope.js';
import { registerShareable } from '../sharing/registry.js';
import { deleteAllocationsOf } from '../sharing/repository.js';
import { spliceScope } from '../splice/repository.js';
import { registerTemplateReferrer } from '../templates/references.js';
import { templateScope } from '../templates/repository.js';
import { ensureDefaultPlan } from './plans.js';
import { pushAdChange } from './schedule.js';
import { adScope, planVisibleWhere } from './scope.js';
import { AdText } from './texts.js';

const DAY_MS = 86_400_000;
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

// An ad that names a material or a layout keeps it from being deleted; a deleted ad does not.
registerMaterialReferrer('ad', async (db, entId, materialIds) => {
  const rows = await db
    .select({ materialIds: ads.materialIds })
    .from(ads)
    .where(and(eq(ads.entId, entId), isNull(ads.deletedAt), arrayOverlaps(ads.materialIds, [...materialIds])));
  const wanted = new Set(materialIds);
  return new Set(rows.flatMap((r) => r.materialIds.filter((id) => wanted.has(id))));
});
registerTemplateReferrer('ad', async (db, entId, templateIds) => {
  const rows = await db
    .selectDistinct({ id: ads.layoutId })
    .from(ads)
    .where(and(eq(ads.entId, entId), isNull(ads.deletedAt), inArray(ads.layoutId, [...templateIds])));
  return rows.map((r) => r.id).filter((id): id is string => id !== null);
});

async function visibleAdIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  const rows = await db
    .select({ id: ads.id, name: ads.name })
    .from(ads)
    .where(and(scopeWhere(caller, adScope), isNull(ads.deletedAt), inArray(ads.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.name]));
}
async function manageableAdIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  const rows = await db
    .select({ id: ads.id })
    .from(ads)
    .where(and(manageWhere(caller, adScope), isNull(ads.deletedAt), inArray(ads.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}
registerShareable({ refType: RefType.ad, visibleIds: visibleAdIds, manageableIds: manageableAdIds });

/** The SQL form of `adStatus` (adRules.ts) at `now`, for the list's status filter. */
function statusWhere(status: AdStatus, now: Date): SQL {
  const live = and(isNull(ads.deletedAt), gt(ads.endAt, now)) as SQL;
  const passed = and(live, eq(ads.reviewState, 'passed')) as SQL;
  switch (status) {
    case 'deleted':
      return isNotNull(ads.deletedAt);
    case 'expired':
      return and(isNull(ads.deletedAt), lte(ads.endAt, now)) as SQL;
    case 'auditFailed':
      return and(live, eq(ads.reviewState, 'failed')) as SQL;
    case 'pendingAudit':
      return and(live, inArray(ads.reviewState, ['pending', 'pendingSecond'])) as SQL;
    case 'paused':
      return and(passed, eq(ads.paused, true)) as SQL;
    case 'playing':
      return and(passed, eq(ads.paused, false), lte(ads.startAt, now), isNotNull(ads.downloadedAt)) as SQL;
    case 'pendingPlay':
      return and(passed, eq(ads.paused, false), or(gt(ads.startAt, now), isNull(ads.downloadedAt))) as SQL;
  }
}

/** The end of a time filter: a date alone includes that whole day. */
function endOf(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(Date.parse(`${value}T00:00:00Z`) + DAY_MS) : new Date(value);
}

type AdRow = typeof ads.$inferSelect & {
  ownerLogin: string | null;
  ownerReal: string | null;
  deptName: string | null;
  planName: string | null;
  planDefault: boolean | null;
  hasPermission: boolean;
};

function selectAds(db: Executor, caller: ScopeSubject, where: SQL) {
  return db
    .select({
      ad: ads,
      ownerLogin: accounts.loginName,
      ownerReal: accounts.realName,
      deptName: departments.name,
      planName: promotionPlans.name,
      planDefault: promotionPlans.isDefault,
      hasPermission: sql<boolean>`${manageWhere(caller, adScope)}`,
    })
    .from(ads)
    .leftJoin(accounts, eq(accounts.id, ads.ownerId))
    .leftJoin(departments, eq(departments.id, ads.deptId))
    .leftJoin(promotionPlans, eq(promotionPlans.id, ads.planId))
    .where(where)
    .then((rows) =>
      rows.map(
        (r): AdRow => ({
          ...r.ad,
          ownerLogin: r.ownerLogin,
          ownerReal: r.ownerReal,
          deptName: r.deptName,
          planName: r.planName,
          planDefault: r.planDefault,
          hasPermission: Boolean(r.hasPermission),
        }),
      ),
    );
}

const lang = (ctx: CallContext) => (ctx.language === 'en-US' || ctx.language === 'ja' ? ctx.language : 'zh-CN');

/** The reviews of ads (all rounds), with the auditors' names, oldest first. */
async function reviewsOf(db: Executor, adIds: readonly string[]): Promise<Map<string, AdReview[]>> {
  const out = new Map<string, AdReview[]>();
  if (adIds.length === 0) return out;
  const rows = await db
    .select({
      adId: adReviews.adId,
      round: adReviews.round,
      stage: adReviews.stage,
      decision: adReviews.decision,
      reason: adReviews.reason,
      auditorId: adReviews.auditorId,
      login: accounts.loginName,
      real: accounts.realName,
      decidedAt: adReviews.decidedAt,
    })
    .from(adReviews)
    .leftJoin(accounts, eq(accounts.id, adReviews.auditorId))
    .where(inArray(adReviews.adId, [...adIds]))
    .orderBy(asc(adReviews.decidedAt), asc(adReviews.round), asc(adReviews.stage));
  for (const r of rows) {
    const list = out.get(r.adId) ?? [];
    list.push({
      round: r.round,
      stage: r.stage,
      decision: r.decision,
      reason: r.reason,
      auditorId: r.auditorId,
      auditorName: r.real?.trim() || r.login || '',
      decidedAt: r.decidedAt.toISOString(),
    });
    out.set(r.adId, list);
  }
  return out;
}

/** An ad row's status at `now` (the protocol's adStatus over its facts). */
export function statusOf(row: typeof ads.$inferSelect, now: Date): AdStatus {
  return adStatus(
    {
      reviewState: row.reviewState,
      paused: row.paused,
      deleted: row.deletedAt !== null,
      startAt: row.startAt,
      endAt: row.endAt,
      downloaded: row.downloadedAt !== null,
    },
    now,
  );
}

function present(ctx: CallContext, row: AdRow, reviews: readonly AdReview[]): Ad {
  const status = statusOf(row, ctx.now);
  const last = reviews.filter((r) => r.round === row.reviewRound).at(-1) ?? null;
  const live = status !== 'expired' && status !== 'deleted';
  return {
    id: row.id,
    number: String(row.number).padStart(9, '0'),
    name: row.name,
    type: row.type,
    source: row.source,
    status,
    reviewState: row.reviewState,
    reviewRound: row.reviewRound,
    auditTime: last?.decidedAt ?? null,
    auditorName: last?.auditorName ?? '',
    auditReason: last?.decision === 'fail' ? last.reason : null,
    planId: row.planId,
    planName: row.planDefault ? AdText.defaultPlanName[lang(ctx)] : (row.planName ?? ''),
    startAt: row.startAt.toISOString(),
    endAt: row.endAt.toISOString(),
    expiringSoon: live && row.endAt.getTime() - ctx.now.getTime() < AD_EXPIRING_DAYS * DAY_MS,
    strategy: row.strategy,
    playsMin: row.playsMin,
    playsMax: row.playsMax,
    periods: row.periods,
    slotId: row.slotId,
    link: row.link,
    monitorUrl: row.monitorUrl,
    materialIds: row.materialIds,
    layoutId: row.layoutId,
    targets: row.targets,
    paused: row.paused,
    ownerId: row.ownerId,
    ownerName: row.ownerReal?.trim() || row.ownerLogin || '',
    deptId: row.deptId,
    deptName: row.deptName ?? '',
    hasPermission: row.hasPermission,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type AdListInput = z.infer<typeof endpoints.adList.request>;

/** A page of the ads the caller sees, newest first (deleted ones only with status 'deleted'). */
export async function listAds(input: AdListInput, ctx: CallContext) {
  const conds: SQL[] = [scopeWhere(ctx.user, adScope)];
  conds.push(input.status ? statusWhere(input.status, ctx.now) : isNull(ads.deletedAt));
  if (input.name) conds.push(ilike(ads.name, `%${escapeLike(input.name)}%`));
  if (input.number) conds.push(like(sql`lpad(${ads.number}::text, 9, '0')`, `${input.number}%`));
  if (input.type) conds.push(eq(ads.type, input.type));
  if (input.planId) conds.push(eq(ads.planId, input.planId));
  if (input.from) conds.push(gt(ads.endAt, new Date(input.from)));
  if (input.to) conds.push(lt(ads.startAt, endOf(input.to)));
  const where = and(...conds) as SQL;
  const [pageIds, [{ total }]] = await Promise.all([
    ctx.db
      .select({ id: ads.id })
      .from(ads)
      .where(where)
      .orderBy(...newestFirst(ads.createdAt, ads.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(ads).where(where),
  ]);
  const ids = pageIds.map((r) => r.id);
  if (ids.length === 0) return { total, data: [] };
  const [rows, reviews] = await Promise.all([
    selectAds(ctx.db, ctx.user, inArray(ads.id, ids)),
    reviewsOf(ctx.db, ids),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    total,
    data: ids
      .map((id) => byId.get(id))
      .filter((r) => r !== undefined)
      .map((r) => present(ctx, r, reviews.get(r.id) ?? [])),
  };
}

async function loadVisibleAd(ctx: CallContext, id: string, includeDeleted = false): Promise<AdRow> {
  const conds = [scopeWhere(ctx.user, adScope), eq(ads.id, id)];
  if (!includeDeleted) conds.push(isNull(ads.deletedAt));
  const [row] = await selectAds(ctx.db, ctx.user, and(...conds) as SQL);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, AdText.notFound);
  return row;
}

/** One visible ad (a deleted one too: its status says so), with what it uses and its reviews. */
export async function adInfo(input: { id: string }, ctx: CallContext): Promise<AdInfo> {
  const row = await loadVisibleAd(ctx, input.id, true);
  const [reviews, used, layout] = await Promise.all([
    reviewsOf(ctx.db, [row.id]),
    row.materialIds.length
      ? ctx.db
          .select({ id: materials.id, name: materials.name, type: materials.type, status: materials.status })
          .from(materials)
          .where(and(eq(materials.entId, row.entId), inArray(materials.id, row.materialIds)))
      : Promise.resolve([]),
    row.layoutId
      ? ctx.db
          .select({ name: templates.name })
          .from(templates)
          .where(and(eq(templates.entId, row.entId), eq(templates.id, row.layoutId)))
      : Promise.resolve([]),
  ]);
  const byId = new Map(used.map((m) => [m.id, m]));
  const list = reviews.get(row.id) ?? [];
  return {
    ...present(ctx, row, list),
    materials: row.materialIds.map((id) => byId.get(id)).filter((m) => m !== undefined),
    layoutName: layout[0]?.name ?? null,
    targetNames: await targetNames(ctx.db, row.entId, row.targets),
    reviews: list,
    slot: await slotOf(ctx.db, row),
  };
}

/** The ad slot an ad plays in (issue 28), with the airtime order it was made for; null: none. */
async function slotOf(
  db: Executor,
  row: { id: string; entId: string; slotId: string | null },
): Promise<AdInfo['slot']> {
  if (!row.slotId) return null;
  const [slot] = await db
    .select({ id: adSlots.id, name: adSlots.name })
    .from(adSlots)
    .where(and(eq(adSlots.entId, row.entId), eq(adSlots.id, row.slotId)));
  if (!slot) return null;
  const [order] = await db
    .select({ id: salesOrders.id, no: salesOrders.no })
    .from(salesOrderLines)
    .innerJoin(salesOrders, eq(salesOrders.id, salesOrderLines.orderId))
    .where(and(eq(salesOrderLines.adId, row.id), eq(salesOrders.entId, row.entId)))
    .limit(1);
  return { id: slot.id, name: slot.name, orderId: order?.id ?? null, orderNo: order?.no ?? null };
}

/** Where each kind of target is named: its table and the id, name and enterprise columns. */
const TARGET_TABLES = {
  deviceIds: { table: devices, id: devices.id, name: devices.name, entId: devices.entId },
  groupIds: { table: deviceGroups, id: deviceGroups.id, name: deviceGroups.name, entId: deviceGroups.entId },
  tagIds: { table: tags, id: tags.id, name: tags.name, entId: tags.entId },
  deptIds: { table: departments, id: departments.id, name: departments.name, entId: departments.entId },
  spliceIds: { table: spliceWalls, id: spliceWalls.id, name: spliceWalls.name, entId: spliceWalls.entId },
} satisfies Record<AdTargetKind, { table: PgTable; id: PgColumn; name: PgColumn; entId: PgColumn }>;

/** The names of an ad's targets of each kind, found in its enterprise (one query per kind used). */
async function targetNames(db: Executor, entId: string, targets: AdTargetIds): Promise<AdInfo['targetNames']> {
  const lists = await Promise.all(
    AD_TARGET_KINDS.map(async (kind) => {
      const ids = targets[kind];
      if (ids.length === 0) return [];
      const t = TARGET_TABLES[kind];
      const rows = (await db
        .select({ id: t.id, name: t.name })
        .from(t.table as PgTable)
        .where(and(eq(t.entId, entId), inArray(t.id, ids)))) as { id: string; name: string }[];
      const byId = new Map(rows.map((r) => [r.id, r.name]));
      return ids.flatMap((id) => {
        const name = byId.get(id);
        return name === undefined ? [] : [{ kind, id, name }];
      });
    }),
  );
  return lists.flat();
}

type AdBodyInput = z.infer<typeof endpoints.adCreate.request>;

/** All of `ids` found by `query`, else `code`. */
async function expectAll(ids: readonly string[], found: Promise<{ id: string }[]>, fail: () => never): Promise<void> {
  if (ids.length === 0) return;
  const got = new Set((await found).map((r) => r.id));
  if (ids.some((id) => !got.has(id))) fail();
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/**
 * The departments a caller may target: its data scope's (the administrator: any of the
 * enterprise). A department reaches every screen in it, so a caller who sees only its own
 * objects ('self', an advertiser) targets none: it aims at the screens it sees one by one.
 */
function deptTargetWhere(caller: ScopeSubject): SQL {
  const tenant = eq(departments.entId, caller.entId);
  if (caller.dataScope === 'all') return tenant;
  if (!caller.deptId || caller.dataScope === 'self') return sql`false`;
  if (caller.dataScope === 'dept_and_below') {
    return and(tenant, like(departments.path, `${escapeLike(caller.deptPath ?? '\u0000')}%`)) as SQL;
  }
  return and(tenant, eq(departments.id, caller.deptId)) as SQL;
}

/**
 * The tags a caller may target: a tag reaches its screens across the whole enterprise, so only
 * a caller whose data scope is the whole enterprise targets tags.
 */
function tagTargetWhere(caller: ScopeSubject): SQL {
  return caller.dataScope === 'all' ? eq(tags.entId, caller.entId) : sql`false`;
}

/**
 * Checks an ad's fields against the enterprise and the caller's scope and answers the row's
 * values: content (1 to 20 ready materials the caller sees, or a layout it sees), the plan
 * (the default plan when none), the targets, the monitoring URL.
 */
async function checkedBody(input: AdBodyInput, ctx: CallContext) {
  const db = ctx.db;
  const user = ctx.user;
  const materialIds = unique(input.materialIds);
  if (materialIds.length > AD_MAX_MATERIALS) throw new AppError(ErrorCode.AD_TOO_MANY_MATERIALS);
  const monitorUrl = input.monitorUrl?.trim() || null;
  if (monitorUrl && !monitorUrlValid(monitorUrl)) throw new AppError(ErrorCode.AD_MONITOR_URL_INVALID);
  if (materialIds.length > 0) {
    const rows = await db
      .select({ id: materials.id, status: materials.status })
      .from(materials)
      .where(and(scopeWhere(user, materialScope), inArray(materials.id, materialIds)));
    if (rows.length !== materialIds.length) throw new AppError(ErrorCode.NOT_FOUND, AdText.materialNotFound);
    if (rows.some((r) => r.status !== 'ready')) throw new AppError(ErrorCode.MATERIAL_INVALID);
  }
  const layoutId = materialIds.length > 0 ? null : (input.layoutId ?? null);
  if (layoutId) {
    const [row] = await db
      .select({ id: templates.id })
      .from(templates)
      .where(and(scopeWhere(user, templateScope), eq(templates.id, layoutId)));
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, AdText.layoutNotFound);
  }
  let planId: string;
  if (input.planId) {
    const [plan] = await db
      .select({ id: promotionPlans.id })
      .from(promotionPlans)
      .where(and(planVisibleWhere(user), eq(promotionPlans.id, input.planId)));
    if (!plan) throw new AppError(ErrorCode.NOT_FOUND, AdText.planNotFound);
    planId = plan.id;
  } else {
    planId = await ensureDefaultPlan(db, user.entId);
  }
  const targets: AdTargetIds = {
    deviceIds: unique(input.targets.deviceIds),
    groupIds: unique(input.targets.groupIds),
    tagIds: unique(input.targets.tagIds),
    deptIds: unique(input.targets.deptIds),
    spliceIds: unique(input.targets.spliceIds),
  };
  const invalid = (): never => {
    throw new AppError(ErrorCode.AD_TARGET_INVALID);
  };
  await expectAll(
    targets.deviceIds,
    db
      .select({ id: devices.id })
      .from(devices)
      .where(and(scopeWhere(user, deviceScope), inArray(devices.id, targets.deviceIds))),
    invalid,
  );
  await expectAll(
    targets.groupIds,
    db
      .select({ id: deviceGroups.id })
      .from(deviceGroups)
      .where(and(scopeWhere(user, deviceGroupScope), inArray(deviceGroups.id, targets.groupIds))),
    invalid,
  );
  await expectAll(
    targets.tagIds,
    db
      .select({ id: tags.id })
      .from(tags)
      .where(and(tagTargetWhere(user), inArray(tags.id, targets.tagIds))),
    invalid,
  );
  await expectAll(
    targets.deptIds,
    db
      .select({ id: departments.id })
      .from(departments)
      .where(and(deptTargetWhere(user), inArray(departments.id, targets.deptIds))),
    invalid,
  );
  await expectAll(
    targets.spliceIds,
    db
      .select({ id: spliceWalls.id })
      .from(spliceWalls)
      .where(and(scopeWhere(user, spliceScope), inArray(spliceWalls.id, targets.spliceIds))),
    invalid,
  );
  return {
    name: input.name,
    type: input.type,
    planId,
    startAt: new Date(input.startAt),
    endAt: new Date(input.endAt),
    strategy: input.strategy,
    playsMin: input.playsMin,
    playsMax: input.playsMax,
    periods: input.periods.map((p) => ({ start: p.start, end: p.end })),
    slotId: input.slotId ?? null,
    link: input.link,
    monitorUrl,
    materialIds,
    layoutId,
    targets,
  };
}

const auditAd = (ctx: CallContext, action: string, id: string, name: string, detail?: Record<string, unknown>) =>
  ctx.audit({ module: 'ad', action, targetType: `ref:${RefType.ad}`, targetId: id, targetName: name, detail });

/** A new ad in the caller's current department, owned by the caller, pending its first audit. */
export async function createAd(input: AdBodyInput, ctx: CallContext) {
  const values = await checkedBody(input, ctx);
  const [row] = await ctx.db
    .insert(ads)
    .values({
      ...values,
      entId: ctx.user.entId,
      deptId: ctx.user.deptId,
      ownerId: ctx.user.accountId,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: ads.id, number: ads.number });
  const number = String(row.number).padStart(9, '0');
  await auditAd(ctx, 'add', row.id, input.name, { number, type: input.type, planId: values.planId });
  return { id: row.id, number };
}

/** The ad, locked for the change, that the caller sees (else NOT_FOUND) and, with `manage`, may change. */
export async function lockAd(ctx: CallContext, id: string, manage: boolean) {
  const [row] = await ctx.db
    .select()
    .from(ads)
    .where(and(scopeWhere(ctx.user, adScope), eq(ads.id, id), isNull(ads.deletedAt)))
    .for('update');
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, AdText.notFound);
  if (manage) {
    const [may] = await ctx.db
      .select({ id: ads.id })
      .from(ads)
      .where(and(manageWhere(ctx.user, adScope), eq(ads.id, id)));
    if (!may) throw new AppError(ErrorCode.NO_PERMISSION, AdText.notManaged);
  }
  return row;
}

const NO_TARGETS = { deviceIds: [], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] };
const sameIds = (a: readonly string[], b: readonly string[]) => {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
};

/**
 * An ad made by an airtime order (source 'order', modules/sales/orderAds.ts) keeps what the
 * order bought: its period, targets, time periods, strategy, plays and slot. An edit that
 * changes any of them is refused (CONFLICT); its content and name may change (a new review).
 */
function keepOrderFrame(current: typeof ads.$inferSelect, input: z.infer<typeof endpoints.adUpdate.request>): void {
  const periods = (p: readonly { start: string; end: string }[]) => JSON.stringify(p.map((x) => [x.start, x.end]));
  const kept =
    Date.parse(input.startAt) === current.startAt.getTime() &&
    Date.parse(input.endAt) === current.endAt.getTime() &&
    input.strategy === current.strategy &&
    input.playsMin === current.playsMin &&
    input.playsMax === current.playsMax &&
    periods(input.periods) === periods(current.periods) &&
    (input.slotId ?? null) === current.slotId &&
    // No targets sent: the order's, unchanged (an order may reach more screens than an edit may list).
    (AD_TARGET_KINDS.every((kind) => input.targets[kind].length === 0) ||
      AD_TARGET_KINDS.every((kind) => sameIds(input.targets[kind], current.targets[kind] ?? [])));
  if (!kept) throw new AppError(ErrorCode.CONFLICT, AdText.orderFrameLocked);
}

/**
 * Saves an edit. Every edit opens a new review round at pending audit: a decided ad (passed,
 * serving, failed, waiting for its second audit) goes back to review, and an auditor who
 * opened the previous round cannot pass content they have not seen (CONFLICT on its round).
 */
export async function updateAd(input: z.infer<typeof endpoints.adUpdate.request>, ctx: CallContext) {
  const current = await lockAd(ctx, input.id, true);
  // An order's ad (issue 28) plays what the order bought, an RTB campaign's (issue 29) only the
  // turns it wins (no targets of its own): only its content and name change here.
  const fromOrder = current.source === 'order' || current.source === 'rtb';
  if (fromOrder) keepOrderFrame(current, input);
  const values = await checkedBody(fromOrder ? { ...input, targets: NO_TARGETS } : input, ctx);
  if (fromOrder) {
    values.targets = current.targets;
    values.slotId = current.slotId;
  }
  const reviewRound = current.reviewRound + 1;
  const [row] = await ctx.db
    .update(ads)
    .set({ ...values, reviewState: 'pending', reviewRound, updatedAt: ctx.now })
    .where(eq(ads.id, input.id))
    .returning();
  await auditAd(ctx, 'update', input.id, input.name, {
    from: current.name,
    reviewRound,
    previousReviewState: current.reviewState,
  });
  // An ad on screens goes back to review: it leaves them until it passes again.
  await pushAdChange(ctx, current, row, 'adChanged');
  return { reviewRound, status: statusOf(row, ctx.now) };
}

async function requireSecondAudit(db: Executor, entId: string): Promise<boolean> {
  const [row] = await db
    .select({ on: enterprises.requireSecondAudit })
    .from(enterprises)
    .where(eq(enterprises.id, entId));
  return Boolean(row?.on);
}

/**
 * A review decision on the ad's current round. Decisions are final: a decision on a review
 * that already has one (or on a round the ad has left, when `round` is given) answers CONFLICT.
 */
export async function decideAd(
  input: { id: string; round?: number; reason?: string },
  stage: 'first' | 'second',
  decision: 'pass' | 'fail',
  ctx: CallContext,
): Promise<{ reviewState: AdReviewState }> {
  const ad = await lockAd(ctx, input.id, false);
  if (input.round !== undefined && input.round !== ad.reviewRound) {
    throw new AppError(ErrorCode.CONFLICT, AdText.roundChanged);
  }
  const expected: AdReviewState = stage === 'first' ? 'pending' : 'pendingSecond';
  if (ad.reviewState !== expected) {
    throw new AppError(ErrorCode.CONFLICT, stage === 'first' ? AdText.alreadyDecided : AdText.notPendingSecond);
  }
  let next: AdReviewState = decision === 'fail' ? 'failed' : 'passed';
  if (stage === 'first' && decision === 'pass' && (await requireSecondAudit(ctx.db, ad.entId))) next = 'pendingSecond';
  const inserted = await ctx.db
    .insert(adReviews)
    .values({
      entId: ad.entId,
      adId: ad.id,
      round: ad.reviewRound,
      stage,
      decision,
      reason: decision === 'fail' ? (input.reason ?? null) : null,
      auditorId: ctx.user.accountId,
      decidedAt: ctx.now,
    })
    .onConflictDoNothing()
    .returning({ id: adReviews.id });
  if (inserted.length === 0) throw new AppError(ErrorCode.CONFLICT, AdText.alreadyDecided);
  const [after] = await ctx.db
    .update(ads)
    .set({ reviewState: next, updatedAt: ctx.now })
    .where(eq(ads.id, ad.id))
    .returning();
  await pushAdChange(ctx, ad, after, decision === 'pass' ? 'adApproved' : 'adChanged');
  await auditAd(
    ctx,
    `${stage === 'first' ? 'audit' : 'secondAudit'}${decision === 'pass' ? 'Pass' : 'Fail'}`,
    ad.id,
    ad.name,
    {
      round: ad.reviewRound,
      reason: decision === 'fail' ? input.reason : undefined,
      reviewState: next,
    },
  );
  return { reviewState: next };
}

/** Pauses (spec 'pausing') or enables an ad; the same state again changes nothing. */
export async function setAdPaused(input: { id: string }, paused: boolean, ctx: CallContext) {
  const ad = await lockAd(ctx, input.id, true);
  const [row] = await ctx.db.update(ads).set({ paused, updatedAt: ctx.now }).where(eq(ads.id, ad.id)).returning();
  await auditAd(ctx, paused ? 'disable' : 'enable', ad.id, ad.name);
  if (ad.paused !== paused) await pushAdChange(ctx, ad, row, paused ? 'adPaused' : 'adEnabled');
  return { status: statusOf(row, ctx.now) };
}

/** Deletes an ad (kept with the status 'deleted'; its materials and layout are free again). */
export async function deleteAd(input: { id: string }, ctx: CallContext) {
  const ad = await lockAd(ctx, input.id, true);
  await ctx.db.update(ads).set({ deletedAt: ctx.now, updatedAt: ctx.now }).where(eq(ads.id, ad.id));
  await pushAdChange(ctx, ad, null, 'adDeleted');
  await deleteAllocationsOf(ctx.db, ctx.user.entId, RefType.ad, [ad.id]);
  await auditAd(ctx, 'delete', ad.id, ad.name, { number: String(ad.number).padStart(9, '0') });
  return null;
}

/** The enterprise's review settings. */
/** The screens an ad may be aimed at by the caller (ad.targetDevices): those of its device scope, by name. */
export async function adTargetDevices(input: { page: number; size: number; keyword?: string }, ctx: CallContext) {
  const conds: SQL[] = [scopeWhere(ctx.user, deviceScope)];
  if (input.keyword) {
    const like = `%${escapeLike(input.keyword)}%`;
    conds.push(or(ilike(devices.name, like), ilike(devices.number, like)) as SQL);
  }
  const where = and(...conds);
  const [rows, [count]] = await Promise.all([
    ctx.db
      .select({ id: devices.id, name: devices.name, number: devices.number })
      .from(devices)
      .where(where)
      .orderBy(asc(devices.name), asc(devices.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(devices).where(where),
  ]);
  return { total: Number(count?.n ?? 0), data: rows };
}

export async function adSettings(ctx: CallContext) {
  return { requireSecondAudit: await requireSecondAudit(ctx.db, ctx.user.entId) };
}

/** Turns the second audit on or off for the enterprise (decisions from now on). */
export async function saveAdSettings(input: { requireSecondAudit: boolean }, ctx: CallContext) {
  const [row] = await ctx.db
    .update(enterprises)
    .set({ requireSecondAudit: input.requireSecondAudit, updatedAt: ctx.now })
    .where(eq(enterprises.id, ctx.user.entId))
    .returning({ name: enterprises.name });
  await ctx.audit({
    module: 'ad',
    action: 'settings',
    targetType: 'enterprise',
    targetId: ctx.user.entId,
    targetName: row?.name ?? ctx.user.entName,
    detail: { requireSecondAudit: input.requireSecondAudit },
  });
  return null;
}
