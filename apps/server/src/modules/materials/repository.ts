import { DEFAULT_STORAGE_QUOTA_BYTES, type Material, RefType } from '@marquee/protocol';
import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { manageWhere, type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { accounts, materialCategories, materialFolders, materials, storageQuotas } from '../../db/schema/index.js';
import type { Files } from '../../storage/files.js';
import { registerShareable } from '../sharing/registry.js';
import { materialScope } from './scope.js';

/** The materials among `ids` the caller can see, id to name. */
export async function visibleMaterialIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: materials.id, name: materials.name })
    .from(materials)
    .where(and(scopeWhere(caller, materialScope), inArray(materials.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The materials among `ids` the caller may change and share (shared ones are only seen). */
export async function manageableMaterialIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: materials.id })
    .from(materials)
    .where(and(manageWhere(caller, materialScope), inArray(materials.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

// Materials ('3') are shared through the permission dialog; they inherit their folder's ('4').
registerShareable({
  refType: RefType.material,
  visibleIds: visibleMaterialIds,
  manageableIds: manageableMaterialIds,
  async containersOf(db, entId, id) {
    const [row] = await db
      .select({ folderId: materials.folderId })
      .from(materials)
      .where(and(eq(materials.entId, entId), eq(materials.id, id)));
    return row ? [{ refType: RefType.materialFolder, refId: row.folderId }] : [];
  },
});

/** The columns every material answer is made of (presenter: toMaterial). */
export function materialColumns(caller: ScopeSubject) {
  return {
    id: materials.id,
    name: materials.name,
    type: materials.type,
    mime: materials.mime,
    size: materials.size,
    width: materials.width,
    height: materials.height,
    duration: materials.duration,
    codec: materials.codec,
    pages: materials.pages,
    sha256: materials.sha256,
    fileKey: materials.fileKey,
    thumbKey: materials.thumbKey,
    posterKey: materials.posterKey,
    url: materials.url,
    status: materials.status,
    invalidReason: materials.invalidReason,
    folderId: materials.folderId,
    folderName: materialFolders.name,
    categoryId: materials.categoryId,
    categoryName: materialCategories.name,
    ownerId: materials.ownerId,
    ownerLogin: accounts.loginName,
    ownerReal: accounts.realName,
    deptId: materials.deptId,
    duplicateCount:
      sql<number>`(select count(*) from ${materials} m2 where m2.ent_id = ${materials.entId} and m2.sha256 = ${materials.sha256} and m2.id <> ${materials.id})`.mapWith(
        Number,
      ),
    hasPermission: sql<boolean>`${manageWhere(caller, materialScope)}`,
    createdAt: materials.createdAt,
  };
}

/** Selects material rows with their folder, category and uploader names. */
export function selectMaterials(db: Executor, caller: ScopeSubject, where: SQL) {
  return db
    .select(materialColumns(caller))
    .from(materials)
    .innerJoin(materialFolders, eq(materialFolders.id, materials.folderId))
    .leftJoin(materialCategories, eq(materialCategories.id, materials.categoryId))
    .leftJoin(accounts, eq(accounts.id, materials.ownerId))
    .where(where);
}

export type MaterialSelect = Awaited<ReturnType<typeof selectMaterials>>[number];

/** Presenter: a row as the protocol's material, files as short-lived signed URLs. */
export function toMaterial(files: Files, r: MaterialSelect): Material {
  const thumb = r.thumbKey ?? r.posterKey;
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    mime: r.mime,
    size: Number(r.size),
    width: r.width,
    height: r.height,
    duration: r.duration,
    codec: r.codec,
    pages: r.pages,
    sha256: r.sha256,
    url: r.fileKey ? files.signedUrl(r.fileKey) : (r.url ?? ''),
    thumbUrl: thumb ? files.signedUrl(thumb) : null,
    status: r.status,
    invalidReason: r.invalidReason,
    folderId: r.folderId,
    folderName: r.folderName,
    categoryId: r.categoryId,
    categoryName: r.categoryName ?? '',
    uploaderId: r.ownerId,
    uploaderName: (r.ownerReal ?? '').trim() || (r.ownerLogin ?? ''),
    deptId: r.deptId,
    duplicateCount: Number(r.duplicateCount ?? 0),
    hasPermission: Boolean(r.hasPermission),
    createdAt: r.createdAt.toISOString(),
  };
}

/** Visible materials with the same content as `sha256` (except `exceptId`). */
export async function duplicatesOf(db: Executor, caller: ScopeSubject, sha256: string, exceptId?: string) {
  const conds: SQL[] = [scopeWhere(caller, materialScope), eq(materials.sha256, sha256)];
  if (exceptId) conds.push(ne(materials.id, exceptId));
  const rows = await db
    .select({
      id: materials.id,
      name: materials.name,
      folderId: materials.folderId,
      folderName: materialFolders.name,
      size: materials.size,
    })
    .from(materials)
    .innerJoin(materialFolders, eq(materialFolders.id, materials.folderId))
    .where(and(...conds))
    .limit(20);
  return rows.map((r) => ({ ...r, size: Number(r.size), match: 'sha256' as const }));
}

/** Whether another material of the enterprise has this content (seen by the caller or not). */
export async function enterpriseHasContent(db: Executor, entId: string, sha256: string, exceptId?: string) {
  const conds: SQL[] = [eq(materials.entId, entId), eq(materials.sha256, sha256)];
  if (exceptId) conds.push(ne(materials.id, exceptId));
  const [row] = await db
    .select({ id: materials.id })
    .from(materials)
    .where(and(...conds))
    .limit(1);
  return Boolean(row);
}

/**
 * The enterprise's quota row, locked for the rest of the transaction (created with the
 * default quota on first use): uploads and deletes of one enterprise serialize on it.
 */
export async function lockQuota(db: Executor, entId: string) {
  await db
    .insert(storageQuotas)
    .values({ entId, quotaBytes: DEFAULT_STORAGE_QUOTA_BYTES, usedBytes: 0 })
    .onConflictDoNothing();
  const [row] = await db.select().from(storageQuotas).where(eq(storageQuotas.entId, entId)).for('update');
  return { quotaBytes: Number(row.quotaBytes), usedBytes: Number(row.usedBytes) };
}

/** Adds (or, negative, removes) bytes held by the enterprise's materials. */
export async function addUsage(db: Executor, entId: string, bytes: number) {
  if (bytes === 0) return;
  await db
    .insert(storageQuotas)
    .values({ entId, quotaBytes: DEFAULT_STORAGE_QUOTA_BYTES, usedBytes: Math.max(0, bytes) })
    .onConflictDoUpdate({
      target: storageQuotas.entId,
      set: { usedBytes: sql`greatest(0, ${storageQuotas.usedBytes} + ${bytes})`, updatedAt: sql`now()` },
    });
}
