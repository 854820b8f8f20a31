import { ErrorCode, MATERIAL_FOLDER_MAX_DEPTH, type MaterialFolder, RefType } from '@marquee/protocol';
import { and, asc, count, eq, inArray, isNull, like, max, ne, type SQL, sql } from 'drizzle-orm';
import { manageWhere, type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { accounts, materialFolders, materials } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { registerShareable } from '../sharing/registry.js';
import { deleteAllocationsOf } from '../sharing/repository.js';
import { folderScope, materialScope } from './scope.js';
import { MaterialText } from './texts.js';

/**
 * The folder tree (issue 10): names by materialFolderNameSchema, unique among siblings; at
 * most MATERIAL_FOLDER_MAX_DEPTH levels ('too many directory levels'); a move never into the
 * folder's own subtree; a delete refused while the folder holds folders or materials (any,
 * seen by the caller or not). `path` is the materialized list of ids from the top.
 */

/** The folders among `ids` the caller can see, id to name. */
export async function visibleFolderIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: materialFolders.id, name: materialFolders.name })
    .from(materialFolders)
    .where(and(scopeWhere(caller, folderScope), inArray(materialFolders.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The folders among `ids` the caller may change and share. */
export async function manageableFolderIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: materialFolders.id })
    .from(materialFolders)
    .where(and(manageWhere(caller, folderScope), inArray(materialFolders.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

registerShareable({
  refType: RefType.materialFolder,
  visibleIds: visibleFolderIds,
  manageableIds: manageableFolderIds,
});

export type FolderRow = typeof materialFolders.$inferSelect;

/** A folder the caller can see, else NOT_FOUND. */
export async function loadVisibleFolder(ctx: CallContext, id: string): Promise<FolderRow> {
  const [row] = await ctx.db
    .select()
    .from(materialFolders)
    .where(and(scopeWhere(ctx.user, folderScope), eq(materialFolders.id, id)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, MaterialText.folderNotFound);
  return row;
}

/** A visible folder the caller may change, else NOT_FOUND / NO_PERMISSION. */
async function loadManagedFolder(ctx: CallContext, id: string): Promise<FolderRow> {
  const row = await loadVisibleFolder(ctx, id);
  if (!(await manageableFolderIds(ctx.db, ctx.user, [id])).has(id)) {
    throw new AppError(ErrorCode.NO_PERMISSION, MaterialText.folderNotManaged);
  }
  return row;
}

async function checkSiblingName(ctx: CallContext, parentId: string | null, name: string, exceptId?: string) {
  const conds: SQL[] = [
    eq(materialFolders.entId, ctx.user.entId),
    parentId ? eq(materialFolders.parentId, parentId) : isNull(materialFolders.parentId),
    sql`lower(${materialFolders.name}) = lower(${name})`,
  ];
  if (exceptId) conds.push(ne(materialFolders.id, exceptId));
  const [row] = await ctx.db
    .select({ id: materialFolders.id })
    .from(materialFolders)
    .where(and(...conds))
    .limit(1);
  if (row) throw new AppError(ErrorCode.MATERIAL_FOLDER_NAME_TAKEN);
}

/** Every folder the caller can see, parents first, with its visible materials counted. */
export async function folderTree(ctx: CallContext): Promise<MaterialFolder[]> {
  const rows = await ctx.db
    .select({
      id: materialFolders.id,
      name: materialFolders.name,
      parentId: materialFolders.parentId,
      depth: materialFolders.depth,
      deptId: materialFolders.deptId,
      ownerId: materialFolders.ownerId,
      ownerLogin: accounts.loginName,
      ownerReal: accounts.realName,
      hasPermission: sql<boolean>`${manageWhere(ctx.user, folderScope)}`,
      createdAt: materialFolders.createdAt,
    })
    .from(materialFolders)
    .leftJoin(accounts, eq(accounts.id, materialFolders.ownerId))
    .where(scopeWhere(ctx.user, folderScope))
    .orderBy(asc(materialFolders.depth), asc(materialFolders.name), asc(materialFolders.id))
    .limit(10_000);
  const ids = rows.map((r) => r.id);
  const counts = new Map<string, number>();
  if (ids.length > 0) {
    const grouped = await ctx.db
      .select({ folderId: materials.folderId, n: count() })
      .from(materials)
      .where(and(scopeWhere(ctx.user, materialScope), inArray(materials.folderId, ids)))
      .groupBy(materials.folderId);
    for (const g of grouped) counts.set(g.folderId, g.n);
  }
  const visible = new Set(ids);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    parentId: r.parentId && visible.has(r.parentId) ? r.parentId : null,
    depth: r.depth,
    deptId: r.deptId,
    ownerId: r.ownerId,
    ownerName: (r.ownerReal ?? '').trim() || (r.ownerLogin ?? ''),
    materialCount: counts.get(r.id) ?? 0,
    hasPermission: Boolean(r.hasPermission),
    createdAt: r.createdAt.toISOString(),
  }));
}

/** Creates a folder at the top level or in a visible folder (depth rule, sibling names unique). */
export async function createFolder(input: { name: string; parentId?: string }, ctx: CallContext) {
  const parent = input.parentId ? await loadVisibleFolder(ctx, input.parentId) : null;
  const depth = (parent?.depth ?? 0) + 1;
  if (depth > MATERIAL_FOLDER_MAX_DEPTH) throw new AppError(ErrorCode.MATERIAL_FOLDER_TOO_DEEP);
  await checkSiblingName(ctx, parent?.id ?? null, input.name);
  const id = crypto.randomUUID();
  await ctx.db.insert(materialFolders).values({
    id,
    entId: ctx.user.entId,
    parentId: parent?.id ?? null,
    path: `${parent?.path ?? '/'}${id}/`,
    depth,
    name: input.name,
    deptId: ctx.user.deptId || null,
    ownerId: ctx.user.accountId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.audit({
    module: 'material',
    action: 'folderCreate',
    targetType: 'materialFolder',
    targetId: id,
    targetName: input.name,
    detail: { parentId: parent?.id ?? null },
  });
  return { id };
}

export async function renameFolder(input: { id: string; name: string }, ctx: CallContext) {
  const folder = await loadManagedFolder(ctx, input.id);
  await checkSiblingName(ctx, folder.parentId, input.name, folder.id);
  await ctx.db
    .update(materialFolders)
    .set({ name: input.name, updatedAt: ctx.now })
    .where(eq(materialFolders.id, folder.id));
  await ctx.audit({
    module: 'material',
    action: 'folderRename',
    targetType: 'materialFolder',
    targetId: folder.id,
    targetName: input.name,
    detail: { from: folder.name },
  });
  return null;
}

/** Moves a folder (with its subtree) under another visible folder or to the top level. */
export async function moveFolder(input: { id: string; parentId: string | null }, ctx: CallContext) {
  const folder = await loadManagedFolder(ctx, input.id);
  const parent = input.parentId ? await loadVisibleFolder(ctx, input.parentId) : null;
  if (parent?.path.startsWith(folder.path)) throw new AppError(ErrorCode.MATERIAL_FOLDER_MOVE_INVALID);
  const [{ deepest }] = await ctx.db
    .select({ deepest: max(materialFolders.depth) })
    .from(materialFolders)
    .where(and(eq(materialFolders.entId, ctx.user.entId), like(materialFolders.path, `${folder.path}%`)));
  const newDepth = (parent?.depth ?? 0) + 1;
  if (newDepth + ((deepest ?? folder.depth) - folder.depth) > MATERIAL_FOLDER_MAX_DEPTH) {
    throw new AppError(ErrorCode.MATERIAL_FOLDER_TOO_DEEP);
  }
  await checkSiblingName(ctx, parent?.id ?? null, folder.name, folder.id);
  const newPath = `${parent?.path ?? '/'}${folder.id}/`;
  const delta = newDepth - folder.depth;
  await ctx.db
    .update(materialFolders)
    .set({
      path: sql`${newPath} || substr(${materialFolders.path}, ${folder.path.length + 1})`,
      depth: sql`${materialFolders.depth} + ${delta}`,
      updatedAt: ctx.now,
    })
    .where(and(eq(materialFolders.entId, ctx.user.entId), like(materialFolders.path, `${folder.path}%`)));
  await ctx.db
    .update(materialFolders)
    .set({ parentId: parent?.id ?? null })
    .where(eq(materialFolders.id, folder.id));
  await ctx.audit({
    module: 'material',
    action: 'folderMove',
    targetType: 'materialFolder',
    targetId: folder.id,
    targetName: folder.name,
    detail: { from: folder.parentId, to: parent?.id ?? null },
  });
  return null;
}

/** Deletes an empty folder (no sub-folder and no material at all, visible or not). */
export async function deleteFolder(input: { id: string }, ctx: CallContext) {
  const folder = await loadManagedFolder(ctx, input.id);
  const [child] = await ctx.db
    .select({ id: materialFolders.id })
    .from(materialFolders)
    .where(eq(materialFolders.parentId, folder.id))
    .limit(1);
  const [material] = await ctx.db
    .select({ id: materials.id })
    .from(materials)
    .where(eq(materials.folderId, folder.id))
    .limit(1);
  if (child || material) throw new AppError(ErrorCode.MATERIAL_FOLDER_NOT_EMPTY);
  await ctx.db.delete(materialFolders).where(eq(materialFolders.id, folder.id));
  await deleteAllocationsOf(ctx.db, ctx.user.entId, RefType.materialFolder, [folder.id]);
  await ctx.audit({
    module: 'material',
    action: 'folderDelete',
    targetType: 'materialFolder',
    targetId: folder.id,
    targetName: folder.name,
  });
  return null;
}
