import {
  DEFAULT_STORAGE_QUOTA_BYTES,
  ErrorCode,
  type endpoints,
  MATERIAL_LIST_COUNT_CAP,
  type MaterialMediaType,
  mediaUrlValid,
  RefType,
  type StorageUsage,
} from '@marquee/protocol';
import { and, count, eq, gte, ilike, inArray, like, lt, lte, type SQL, sql, sum } from 'drizzle-orm';
import type { z } from 'zod';
import { type ScopedColumns, scopeOutsideBranches, scopeWhere } from '../../auth/scope.js';
import { type MergeBranch, type MergeKey, mergedPageIds, mergedUpTo, pageWindow } from '../../db/mergedPage.js';
import { departments, materialFolders, materials, materialUploads, storageQuotas } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { deleteAllocationsOf } from '../sharing/repository.js';
import { loadCategory } from './categories.js';
import { loadVisibleFolder } from './folders.js';
import { materialsInUse } from './references.js';
import {
  addUsage,
  duplicatesOf,
  lockQuota,
  manageableMaterialIds,
  selectMaterials,
  toMaterial,
  visibleMaterialIds,
} from './repository.js';
import { materialScope } from './scope.js';
import { MaterialText } from './texts.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The end of a time filter: a date alone includes that whole day. */
function endOf(value: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(Date.parse(`${value}T00:00:00Z`) + 86400_000) : new Date(value);
}

export type MaterialListInput = z.infer<typeof endpoints.materialList.request>;

/**
 * The most branches the merged plan reads (a folder of the filter, or a department of the
 * caller's scope); past it the list reads the scope's rows and sorts them.
 */
export const MATERIAL_MERGE_BRANCHES = 96;

/** The folder a filter names and, with sub-folders, every folder below it, in the database's order of their ids. */
async function filterFolderIds(ctx: CallContext, folderId: string, withSubfolders: boolean): Promise<string[]> {
  const folder = await loadVisibleFolder(ctx, folderId);
  if (!withSubfolders) return [folder.id];
  const rows = await ctx.db
    .select({ id: materialFolders.id })
    .from(materialFolders)
    .where(and(eq(materialFolders.entId, ctx.user.entId), like(materialFolders.path, `${escapeLike(folder.path)}%`)))
    .orderBy(materialFolders.id);
  return rows.map((r) => r.id);
}

/** The departments a department scope covers whole, in the database's order of their ids; undefined for other scopes. */
async function coveredDepartments(ctx: CallContext): Promise<string[] | undefined> {
  const { dataScope, deptId, deptPath, entId } = ctx.user;
  if (!deptId || (dataScope !== 'dept_only' && dataScope !== 'dept_and_below')) return undefined;
  if (dataScope === 'dept_only') return [deptId];
  const rows = await ctx.db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.entId, entId), like(departments.path, `${escapeLike(deptPath ?? '\u0000')}%`)))
    .orderBy(departments.id)
    .limit(MATERIAL_MERGE_BRANCHES + 1);
  return rows.map((r) => r.id);
}

/**
 * The merged plan's branches (db/mergedPage.ts) of a list in upload order: for a department
 * scope, one per covered department (materials_ent_dept_created_idx, whose trailing folder
 * and type columns test those filters without reading the table) and the caller's own and
 * shared materials outside them (scopeOutsideBranches); for the other scopes with a folder
 * filter, one per folder (materials_folder_created_idx). Undefined when neither applies or
 * there would be more than MATERIAL_MERGE_BRANCHES.
 */
async function mergedBranches(
  ctx: CallContext,
  folderIds: string[] | undefined,
  folderCond: SQL | undefined,
  filters: SQL[],
): Promise<MergeBranch[] | undefined> {
  const depts = await coveredDepartments(ctx);
  if (depts && depts.length <= MATERIAL_MERGE_BRANCHES) {
    const outside = scopeOutsideBranches(
      ctx.user,
      materialScope as Required<Pick<ScopedColumns, 'entId' | 'deptId' | 'ownerId' | 'share'>>,
      depts,
    );
    return [
      ...depts.map((d) => ({
        where: and(eq(materials.entId, ctx.user.entId), eq(materials.deptId, d), folderCond, ...filters) as SQL,
      })),
      { where: outside.own.map((where) => and(where, folderCond, ...filters) as SQL), few: true },
      { where: and(outside.shared, folderCond, ...filters) as SQL, few: true },
    ];
  }
  if (!folderIds || folderIds.length > MATERIAL_MERGE_BRANCHES) return undefined;
  const scope = scopeWhere(ctx.user, materialScope);
  return folderIds.map((id) => ({ where: and(scope, eq(materials.folderId, id), ...filters) as SQL }));
}

/**
 * A page of the visible materials matching the filters (guide convention 7). `plan`: 'plain'
 * leaves out the merged plan (for tests that compare the two).
 */
export async function listMaterials(input: MaterialListInput, ctx: CallContext, plan: 'auto' | 'plain' = 'auto') {
  // The filters but the scope and the folder, which decide the plan.
  const filters: SQL[] = [];
  if (input.ids) filters.push(inArray(materials.id, input.ids));
  if (input.name) filters.push(ilike(materials.name, `%${escapeLike(input.name)}%`));
  if (input.type) filters.push(eq(materials.type, input.type));
  if (input.status) filters.push(eq(materials.status, input.status));
  if (input.categoryId) filters.push(eq(materials.categoryId, input.categoryId));
  if (input.uploaderId) filters.push(eq(materials.ownerId, input.uploaderId));
  if (input.from) filters.push(gte(materials.createdAt, new Date(input.from)));
  if (input.to) filters.push(lt(materials.createdAt, endOf(input.to)));
  if (input.minSize !== undefined) filters.push(gte(materials.size, input.minSize));
  if (input.maxSize !== undefined) filters.push(lte(materials.size, input.maxSize));
  if (input.duplicatesOnly) {
    filters.push(
      sql`${materials.sha256} is not null and exists (select 1 from ${materials} m2 where m2.ent_id = ${materials.entId} and m2.sha256 = ${materials.sha256} and m2.id <> ${materials.id})`,
    );
  }
  const folderIds = input.folderId ? await filterFolderIds(ctx, input.folderId, input.includeSubfolders) : undefined;
  const folderCond = folderIds
    ? folderIds.length === 1
      ? eq(materials.folderId, folderIds[0])
      : sql`${materials.folderId} = any(${`{${folderIds.join(',')}}`}::text[])`
    : undefined;
  const where = and(scopeWhere(ctx.user, materialScope), folderCond, ...filters) as SQL;
  // In the order the list's indexes hold (`desc nulls last`, read backwards `asc nulls first`):
  // a plain `desc` means nulls first, which no index serves, and sorts the whole scope.
  const desc = input.order !== 'asc';
  const keys: MergeKey[] = [
    {
      column: input.sort === 'name' ? materials.name : input.sort === 'size' ? materials.size : materials.createdAt,
      desc,
      nullsFirst: !desc,
    },
    { column: materials.id, desc, nullsFirst: !desc },
  ];
  // Upload order with a folder filter or a department scope: the merged plan, which reads
  // about a page's rows instead of every visible one and a sort (a region's 50,000: 0.7 s).
  const branches =
    plan === 'auto' && input.sort === 'createdAt' && !input.ids
      ? await mergedBranches(ctx, folderIds, folderCond, filters)
      : undefined;
  const order = keys.map((k) => sql`${k.column} ${sql.raw(desc ? 'desc nulls last' : 'asc nulls first')}`);
  // The page's ids from materials alone (an index walk in the list's order, or the merged
  // branches) as a subquery PostgreSQL runs first (it has a LIMIT), then their joins in the
  // same statement: joined in one flat query the planner may hash-join and sort the whole
  // enterprise for 50 rows.
  const pageIds = branches
    ? mergedPageIds(materials, materials.id, keys, branches, pageWindow(input.page, input.size))
    : ctx.db
        .select({ id: materials.id })
        .from(materials)
        .where(where)
        .orderBy(...order)
        .limit(input.size)
        .offset((input.page - 1) * input.size);
  const pageRows = selectMaterials(ctx.db, ctx.user, sql`${materials.id} in (${pageIds})`).orderBy(...order);
  const upTo = branches
    ? mergedUpTo(materials, materials.id, branches, MATERIAL_LIST_COUNT_CAP)
    : ctx.db
        .select({ one: sql`1` })
        .from(materials)
        .where(where)
        .limit(MATERIAL_LIST_COUNT_CAP + 1)
        .as('up_to');
  const [rows, [{ total }]] = await Promise.all([pageRows, ctx.db.select({ total: count() }).from(upTo)]);
  const files = ctx.services.files;
  return {
    total: Math.min(total, MATERIAL_LIST_COUNT_CAP),
    totalCapped: total > MATERIAL_LIST_COUNT_CAP,
    data: rows.map((r) => toMaterial(files, r)),
  };
}

async function loadVisibleMaterial(ctx: CallContext, id: string) {
  const [row] = await selectMaterials(
    ctx.db,
    ctx.user,
    and(scopeWhere(ctx.user, materialScope), eq(materials.id, id)) as SQL,
  );
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, MaterialText.materialNotFound);
  return row;
}

/** One visible material, with its visible duplicates and whether something uses it. */
export async function materialDetail(input: { id: string }, ctx: CallContext) {
  const row = await loadVisibleMaterial(ctx, input.id);
  const [duplicates, inUse] = await Promise.all([
    row.sha256 ? duplicatesOf(ctx.db, ctx.user, row.sha256, row.id) : Promise.resolve([]),
    materialsInUse(ctx.db, ctx.user.entId, [row.id]),
  ]);
  return { ...toMaterial(ctx.services.files, row), duplicates, inUse: inUse.has(row.id) };
}

/** Materials the caller can see (else NOT_FOUND) and may change (else NO_PERMISSION), id to name. */
async function checkManaged(ctx: CallContext, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const visible = await visibleMaterialIds(ctx.db, ctx.user, unique);
  if (unique.some((id) => !visible.has(id))) throw new AppError(ErrorCode.NOT_FOUND, MaterialText.materialNotFound);
  const managed = await manageableMaterialIds(ctx.db, ctx.user, unique);
  if (unique.some((id) => !managed.has(id))) {
    throw new AppError(ErrorCode.NO_PERMISSION, MaterialText.materialNotManaged);
  }
  return visible;
}

export async function renameMaterial(input: { id: string; name: string }, ctx: CallContext) {
  const names = await checkManaged(ctx, [input.id]);
  await ctx.db.update(materials).set({ name: input.name, updatedAt: ctx.now }).where(eq(materials.id, input.id));
  await ctx.audit({
    module: 'material',
    action: 'rename',
    targetType: 'material',
    targetId: input.id,
    targetName: input.name,
    detail: { from: names.get(input.id) },
  });
  return null;
}

export async function moveMaterials(input: { ids: string[]; folderId: string }, ctx: CallContext) {
  const names = await checkManaged(ctx, input.ids);
  const folder = await loadVisibleFolder(ctx, input.folderId);
  const ids = [...names.keys()];
  await ctx.db
    .update(materials)
    .set({ folderId: folder.id, updatedAt: ctx.now })
    .where(and(eq(materials.entId, ctx.user.entId), inArray(materials.id, ids)));
  await ctx.audit({
    module: 'material',
    action: 'move',
    targetType: 'material',
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames([...names.values()]),
    detail: { ids, folderId: folder.id, folderName: folder.name },
  });
  return { moved: ids.length };
}

export async function setMaterialCategory(input: { ids: string[]; categoryId: string | null }, ctx: CallContext) {
  const names = await checkManaged(ctx, input.ids);
  const category = input.categoryId ? await loadCategory(ctx, input.categoryId) : null;
  const ids = [...names.keys()];
  await ctx.db
    .update(materials)
    .set({ categoryId: category?.id ?? null, updatedAt: ctx.now })
    .where(and(eq(materials.entId, ctx.user.entId), inArray(materials.id, ids)));
  await ctx.audit({
    module: 'material',
    action: 'setCategory',
    targetType: 'material',
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames([...names.values()]),
    detail: { ids, categoryId: category?.id ?? null, categoryName: category?.name ?? null },
  });
  return { updated: ids.length };
}

/**
 * Deletes materials with their files; refused as a whole (MATERIAL_IN_USE) while a registered
 * referrer (layouts, ads) uses any. The files go after the commit: a rollback keeps them.
 */
export async function deleteMaterials(input: { ids: string[] }, ctx: CallContext) {
  const names = await checkManaged(ctx, input.ids);
  const ids = [...names.keys()];
  const used = await materialsInUse(ctx.db, ctx.user.entId, ids);
  if (used.size > 0) {
    throw new AppError(ErrorCode.MATERIAL_IN_USE);
  }
  await lockQuota(ctx.db, ctx.user.entId);
  const rows = await ctx.db
    .delete(materials)
    .where(and(eq(materials.entId, ctx.user.entId), inArray(materials.id, ids)))
    .returning({
      fileKey: materials.fileKey,
      thumbKey: materials.thumbKey,
      posterKey: materials.posterKey,
      bytes: materials.bytes,
    });
  await ctx.db.delete(materialUploads).where(inArray(materialUploads.materialId, ids));
  await deleteAllocationsOf(ctx.db, ctx.user.entId, RefType.material, ids);
  await addUsage(ctx.db, ctx.user.entId, -rows.reduce((n, r) => n + Number(r.bytes), 0));
  const keys = rows.flatMap((r) => [r.fileKey, r.thumbKey, r.posterKey]).filter((k): k is string => Boolean(k));
  const files = ctx.services.files;
  const log = ctx.log;
  ctx.afterCommit(() => {
    files.deleteMany(keys).catch((error) => log.warn({ err: error }, 'material files not deleted'));
  });
  await ctx.audit({
    module: 'material',
    action: 'delete',
    targetType: 'material',
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames([...names.values()]),
    detail: { ids },
  });
  return { deleted: rows.length };
}

/** Spec section 7 'media add': a web page or live-stream URL as a material (ready at once). */
export async function addMedia(
  input: { folderId: string; categoryId?: string; name: string; type: MaterialMediaType; url: string },
  ctx: CallContext,
) {
  const folder = await loadVisibleFolder(ctx, input.folderId);
  const category = input.categoryId ? await loadCategory(ctx, input.categoryId) : null;
  if (!mediaUrlValid(input.type, input.url)) throw new AppError(ErrorCode.MATERIAL_URL_INVALID);
  const [row] = await ctx.db
    .insert(materials)
    .values({
      entId: ctx.user.entId,
      folderId: folder.id,
      categoryId: category?.id ?? null,
      deptId: ctx.user.deptId || null,
      ownerId: ctx.user.accountId,
      name: input.name,
      type: input.type,
      url: input.url,
      status: 'ready',
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: materials.id });
  await ctx.audit({
    module: 'material',
    action: 'mediaAdd',
    targetType: 'material',
    targetId: row.id,
    targetName: input.name,
    detail: { type: input.type, url: input.url, folderId: folder.id },
  });
  return { id: row.id };
}

/** The enterprise's storage: quota, bytes held, materials by type. */
export async function storageUsage(ctx: CallContext): Promise<StorageUsage> {
  const entId = ctx.user.entId;
  const [[quota], byType, [pending]] = await Promise.all([
    ctx.db.select().from(storageQuotas).where(eq(storageQuotas.entId, entId)),
    ctx.db
      .select({ type: materials.type, count: count(), bytes: sum(materials.bytes).mapWith(Number) })
      .from(materials)
      .where(eq(materials.entId, entId))
      .groupBy(materials.type),
    ctx.db
      .select({ bytes: sum(materialUploads.expectedSize).mapWith(Number) })
      .from(materialUploads)
      .where(
        and(
          eq(materialUploads.entId, entId),
          sql`${materialUploads.materialId} is null`,
          gte(materialUploads.expiresAt, ctx.now),
        ),
      ),
  ]);
  return {
    quotaBytes: quota ? Number(quota.quotaBytes) : DEFAULT_STORAGE_QUOTA_BYTES,
    usedBytes: (quota ? Number(quota.usedBytes) : 0) + (pending?.bytes ?? 0),
    materialCount: byType.reduce((n, t) => n + t.count, 0),
    byType: byType.map((t) => ({ type: t.type, count: t.count, bytes: t.bytes ?? 0 })),
  };
}
