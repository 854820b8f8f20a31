import {
  DEFAULT_STORAGE_QUOTA_BYTES,
  ErrorCode,
  MATERIAL_LIST_COUNT_CAP,
  type MaterialMediaType,
  type MaterialStatus,
  type MaterialType,
  mediaUrlValid,
  RefType,
  type StorageUsage,
} from '@marquee/protocol';
import { and, count, eq, gte, ilike, inArray, lt, lte, type SQL, sql, sum } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { scopeWhere } from '../../auth/scope.js';
import { materialFolders, materials, materialUploads, storageQuotas } from '../../db/schema/index.js';
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

export interface MaterialListInput {
  page: number;
  size: number;
  ids?: string[];
  name?: string;
  type?: MaterialType;
  status?: MaterialStatus;
  folderId?: string;
  includeSubfolders: boolean;
  categoryId?: string;
  uploaderId?: string;
  from?: string;
  to?: string;
  minSize?: number;
  maxSize?: number;
  duplicatesOnly: boolean;
  sort: 'createdAt' | 'name' | 'size';
  order: 'asc' | 'desc';
}

/** A page of the visible materials matching the filters (guide convention 7). */
export async function listMaterials(input: MaterialListInput, ctx: CallContext) {
  const conds: SQL[] = [scopeWhere(ctx.user, materialScope)];
  if (input.ids) conds.push(inArray(materials.id, input.ids));
  if (input.name) conds.push(ilike(materials.name, `%${escapeLike(input.name)}%`));
  if (input.type) conds.push(eq(materials.type, input.type));
  if (input.status) conds.push(eq(materials.status, input.status));
  if (input.folderId) {
    const folder = await loadVisibleFolder(ctx, input.folderId);
    conds.push(
      input.includeSubfolders
        ? sql`${materials.folderId} = any(array(select ${materialFolders.id} from ${materialFolders} where ${materialFolders.entId} = ${ctx.user.entId} and ${materialFolders.path} like ${`${escapeLike(folder.path)}%`}))`
        : eq(materials.folderId, folder.id),
    );
  }
  if (input.categoryId) conds.push(eq(materials.categoryId, input.categoryId));
  if (input.uploaderId) conds.push(eq(materials.ownerId, input.uploaderId));
  if (input.from) conds.push(gte(materials.createdAt, new Date(input.from)));
  if (input.to) conds.push(lt(materials.createdAt, endOf(input.to)));
  if (input.minSize !== undefined) conds.push(gte(materials.size, input.minSize));
  if (input.maxSize !== undefined) conds.push(lte(materials.size, input.maxSize));
  if (input.duplicatesOnly) {
    conds.push(
      sql`${materials.sha256} is not null and exists (select 1 from ${materials} m2 where m2.ent_id = ${materials.entId} and m2.sha256 = ${materials.sha256} and m2.id <> ${materials.id})`,
    );
  }
  const where = and(...conds) as SQL;
  const column = input.sort === 'name' ? materials.name : input.sort === 'size' ? materials.size : materials.createdAt;
  // In the order the list's indexes hold (`desc nulls last`, read backwards `asc nulls first`):
  // a plain `desc` means nulls first, which no index serves, and sorts the whole scope.
  const dir = (col: AnyPgColumn) => (input.order === 'asc' ? sql`${col} asc nulls first` : sql`${col} desc nulls last`);
  // The page's ids from materials alone (an index walk in the list's order), then their joins:
  // joined in one query the planner may hash-join and sort the whole enterprise for 50 rows.
  const pageIds = async () =>
    (
      await ctx.db
        .select({ id: materials.id })
        .from(materials)
        .where(where)
        .orderBy(dir(column), dir(materials.id))
        .limit(input.size)
        .offset((input.page - 1) * input.size)
    ).map((r) => r.id);
  const pageRows = async () => {
    const ids = await pageIds();
    if (ids.length === 0) return [];
    const found = await selectMaterials(ctx.db, ctx.user, inArray(materials.id, ids));
    const byId = new Map(found.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
  };
  const [rows, [{ total }]] = await Promise.all([
    pageRows(),
    ctx.db.select({ total: count() }).from(
      ctx.db
        .select({ one: sql`1` })
        .from(materials)
        .where(where)
        .limit(MATERIAL_LIST_COUNT_CAP + 1)
        .as('up_to'),
    ),
  ]);
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
