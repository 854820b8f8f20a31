import { createHash } from 'node:crypto';
import {
  contentTypeAllowed,
  ErrorCode,
  type endpoints,
  MATERIAL_CONTENT_TYPES,
  MATERIAL_FORMATS,
  MATERIAL_MAX_BYTES,
  MATERIAL_UPLOAD_TTL_SEC,
  type MaterialDuplicate,
  type MaterialFileType,
  type MaterialWarning,
  sizeWarnings,
} from '@marquee/protocol';
import { and, eq, gte, inArray, isNull, lt, or, type SQL, sql, sum } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { scopeWhere } from '../../auth/scope.js';
import { materialFolders, materials, materialUploads } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import type { AppServices } from '../../services.js';
import { enterpriseKey } from '../../storage/storage.js';
import { loadCategory } from './categories.js';
import { loadVisibleFolder } from './folders.js';
import { PROBE_JOB } from './jobs.js';
import { addUsage, duplicatesOf, enterpriseHasContent, lockQuota, selectMaterials, toMaterial } from './repository.js';
import { materialScope } from './scope.js';
import { SNIFF_BYTES, type Sniffed, sniff } from './sniff.js';
import { MaterialText } from './texts.js';

/**
 * The direct upload of a material (spec sections 3, 5, 7): apply (limits by the declared
 * type, quota, a signed policy for one exact key and size), the browser's POST to storage,
 * then verify (the stored bytes judged: type from content, size, sha256; the material
 * created 'processing' and the probe job sent). Unverified slots expire and are pruned with
 * their objects (pruneUploads), so an interrupted upload leaves no material and no file.
 */

const nameWithoutExtension = (fileName: string) => {
  const dot = fileName.lastIndexOf('.');
  return (dot > 0 ? fileName.slice(0, dot) : fileName).trim() || fileName;
};

/** Bytes reserved by the enterprise's pending (unverified, unexpired) uploads. */
async function pendingBytes(ctx: CallContext): Promise<number> {
  const [row] = await ctx.db
    .select({ bytes: sum(materialUploads.expectedSize).mapWith(Number) })
    .from(materialUploads)
    .where(
      and(
        eq(materialUploads.entId, ctx.user.entId),
        isNull(materialUploads.materialId),
        gte(materialUploads.expiresAt, ctx.now),
      ),
    );
  return row?.bytes ?? 0;
}

/** Spec section 7 'upload check': visible materials that look like each file (content, or name and size). */
export async function checkUpload(
  input: { files: { name: string; size: number; sha256?: string }[] },
  ctx: CallContext,
): Promise<{ duplicates: MaterialDuplicate[] }[]> {
  const out: { duplicates: MaterialDuplicate[] }[] = [];
  for (const file of input.files) {
    const bySha = file.sha256 ? await duplicatesOf(ctx.db, ctx.user, file.sha256) : [];
    const byName = await ctx.db
      .select({
        id: materials.id,
        name: materials.name,
        folderId: materials.folderId,
        folderName: materialFolders.name,
        size: materials.size,
      })
      .from(materials)
      .innerJoin(materialFolders, eq(materialFolders.id, materials.folderId))
      .where(
        and(
          scopeWhere(ctx.user, materialScope),
          eq(materials.size, file.size),
          or(eq(materials.name, file.name), eq(materials.name, nameWithoutExtension(file.name))),
        ) as SQL,
      )
      .limit(20);
    const seen = new Set(bySha.map((d) => d.id));
    out.push({
      duplicates: [
        ...bySha,
        ...byName
          .filter((r) => !seen.has(r.id))
          .map((r) => ({ ...r, size: Number(r.size), match: 'nameSize' as const })),
      ],
    });
  }
  return out;
}

type ApplyInput = z.infer<typeof endpoints.materialUploadApply.request>;

/** The extension of the stored object: the file's own when it is one of the type's formats. */
function keyExtension(type: MaterialFileType, fileName: string): string {
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  return MATERIAL_FORMATS[type].includes(ext) ? ext : MATERIAL_FORMATS[type][0];
}

/** Spec section 7 'upload apply': checks, reserves and signs one upload. */
export async function applyUpload(input: ApplyInput, ctx: CallContext) {
  if (!input.folderId) throw new AppError(ErrorCode.MATERIAL_FOLDER_REQUIRED);
  const folder = await loadVisibleFolder(ctx, input.folderId);
  if (input.categoryId) await loadCategory(ctx, input.categoryId);
  if (input.size > MATERIAL_MAX_BYTES[input.type]) throw new AppError(ErrorCode.FILE_TOO_LARGE);
  const contentType = input.contentType || 'application/octet-stream';
  if (!contentTypeAllowed(contentType, MATERIAL_CONTENT_TYPES[input.type])) {
    throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
  }
  const quota = await lockQuota(ctx.db, ctx.user.entId);
  if (quota.usedBytes + (await pendingBytes(ctx)) + input.size > quota.quotaBytes) {
    throw new AppError(ErrorCode.STORAGE_QUOTA_EXCEEDED);
  }
  const uploadId = crypto.randomUUID();
  const key = enterpriseKey(ctx.user.entId, 'materials', `${uploadId}.${keyExtension(input.type, input.fileName)}`);
  const name = (input.name ?? nameWithoutExtension(input.fileName)).slice(0, 100);
  await ctx.db.insert(materialUploads).values({
    id: uploadId,
    entId: ctx.user.entId,
    accountId: ctx.user.accountId,
    deptId: ctx.user.deptId || null,
    folderId: folder.id,
    categoryId: input.categoryId ?? null,
    key,
    name,
    type: input.type,
    expectedSize: input.size,
    expiresAt: new Date(ctx.now.getTime() + MATERIAL_UPLOAD_TTL_SEC * 1000),
    createdAt: ctx.now,
  });
  const signature = ctx.services.files.createUpload({
    entId: ctx.user.entId,
    key,
    minBytes: input.size,
    maxBytes: input.size,
    contentTypes: [...MATERIAL_CONTENT_TYPES[input.type]],
  });
  await ctx.audit({
    module: 'material',
    action: 'uploadApply',
    targetType: 'materialUpload',
    targetId: uploadId,
    targetName: name,
    detail: { type: input.type, size: input.size, folderId: folder.id },
  });
  return { ...signature, uploadId, warnings: sizeWarnings(input.type, input.size) };
}

/** What verify learned of the stored file before its transaction (prepare). */
export interface VerifiedFile {
  size: number;
  sha256: string;
  sniffed: Sniffed;
}

async function uploadOf(ctx: CallContext, uploadId: string) {
  const [row] = await ctx.db
    .select()
    .from(materialUploads)
    .where(
      and(
        eq(materialUploads.id, uploadId),
        eq(materialUploads.entId, ctx.user.entId),
        eq(materialUploads.accountId, ctx.user.accountId),
      ),
    );
  return row;
}

/**
 * Judges the stored file of an upload, outside the transaction (hashing 2 G must not hold
 * one): null when the upload was already verified. A file that is not of its declared type
 * or over its limit is deleted and refused.
 */
export async function inspectUpload(input: { uploadId: string }, ctx: CallContext): Promise<VerifiedFile | null> {
  const upload = await uploadOf(ctx, input.uploadId);
  if (!upload) throw new AppError(ErrorCode.MATERIAL_UPLOAD_EXPIRED);
  if (upload.materialId) return null;
  if (upload.expiresAt.getTime() < ctx.now.getTime()) throw new AppError(ErrorCode.MATERIAL_UPLOAD_EXPIRED);
  const storage = ctx.services.files.storage;
  const stat = await storage.stat(upload.key);
  if (!stat) throw new AppError(ErrorCode.MATERIAL_FILE_MISSING);
  const refuse = async (
    code: typeof ErrorCode.FILE_FORMAT_ERROR | typeof ErrorCode.FILE_TOO_LARGE,
    text?: typeof MaterialText.formatMismatch,
  ) => {
    await storage.delete(upload.key);
    throw new AppError(code, text);
  };
  if (stat.size > MATERIAL_MAX_BYTES[upload.type as MaterialFileType]) await refuse(ErrorCode.FILE_TOO_LARGE);
  const head = await storage.get(upload.key, { start: 0, end: Math.min(SNIFF_BYTES, stat.size) - 1 });
  if (!head) throw new AppError(ErrorCode.MATERIAL_FILE_MISSING);
  const chunks: Buffer[] = [];
  for await (const chunk of head.body) chunks.push(chunk as Buffer);
  const sniffed = sniff(Buffer.concat(chunks));
  if (!sniffed) return refuse(ErrorCode.FILE_FORMAT_ERROR) as never;
  if (sniffed.type !== upload.type) return refuse(ErrorCode.FILE_FORMAT_ERROR, MaterialText.formatMismatch) as never;
  const whole = await storage.get(upload.key);
  if (!whole) throw new AppError(ErrorCode.MATERIAL_FILE_MISSING);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of whole.body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex'), sniffed };
}

/** Spec section 7 'upload verify': creates the material of a judged upload (idempotent). */
export async function verifyUpload(input: { uploadId: string }, ctx: CallContext, file: VerifiedFile | null) {
  await lockQuota(ctx.db, ctx.user.entId);
  const upload = await uploadOf(ctx, input.uploadId);
  if (!upload) throw new AppError(ErrorCode.MATERIAL_UPLOAD_EXPIRED);
  const files = ctx.services.files;
  if (upload.materialId) {
    // Verified before (a retried call): the same material, no second log entry needed but one is written.
    const [row] = await selectMaterials(ctx.db, ctx.user, eq(materials.id, upload.materialId));
    if (!row) throw new AppError(ErrorCode.MATERIAL_UPLOAD_EXPIRED);
    await ctx.audit({
      module: 'material',
      action: 'uploadVerify',
      targetType: 'material',
      targetId: row.id,
      targetName: row.name,
      detail: { repeated: true },
    });
    return { material: toMaterial(files, row), warnings: [], duplicates: [] };
  }
  if (!file) throw new AppError(ErrorCode.MATERIAL_UPLOAD_EXPIRED);
  // The folder may have gone while the file travelled: then the enterprise's first visible one is not guessed; refuse.
  const [folder] = await ctx.db
    .select({ id: materialFolders.id })
    .from(materialFolders)
    .where(and(eq(materialFolders.id, upload.folderId), eq(materialFolders.entId, ctx.user.entId)));
  if (!folder) throw new AppError(ErrorCode.NOT_FOUND, MaterialText.folderNotFound);
  const duplicate = await enterpriseHasContent(ctx.db, ctx.user.entId, file.sha256);
  const [created] = await ctx.db
    .insert(materials)
    .values({
      entId: ctx.user.entId,
      folderId: upload.folderId,
      categoryId: upload.categoryId,
      deptId: upload.deptId,
      ownerId: upload.accountId,
      name: upload.name,
      type: upload.type,
      mime: file.sniffed.mime,
      size: file.size,
      bytes: file.size,
      sha256: file.sha256,
      fileKey: upload.key,
      status: 'processing',
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: materials.id });
  await ctx.db.update(materialUploads).set({ materialId: created.id }).where(eq(materialUploads.id, upload.id));
  await addUsage(ctx.db, ctx.user.entId, file.size);
  const jobs = ctx.services.jobs;
  await jobs.send(PROBE_JOB, { materialId: created.id }, ctx.db);
  ctx.afterCommit(() => jobs.wake(PROBE_JOB));
  const warnings: MaterialWarning[] = sizeWarnings(upload.type as MaterialFileType, file.size);
  if (duplicate) warnings.push('duplicate');
  const duplicates = duplicate ? await duplicatesOf(ctx.db, ctx.user, file.sha256, created.id) : [];
  const [row] = await selectMaterials(ctx.db, ctx.user, eq(materials.id, created.id));
  await ctx.audit({
    module: 'material',
    action: 'uploadVerify',
    targetType: 'material',
    targetId: created.id,
    targetName: upload.name,
    detail: { type: upload.type, size: file.size, sha256: file.sha256, duplicate },
  });
  return { material: toMaterial(files, row), warnings, duplicates };
}

/**
 * Deletes expired unverified upload slots with whatever was stored under their keys, and
 * verified slots older than a day (the material keeps the key). Answers the slots removed.
 */
export async function pruneUploads(services: AppServices, log: FastifyBaseLogger): Promise<number> {
  const now = new Date(services.clock());
  const expired = await services.db
    .select({ id: materialUploads.id, key: materialUploads.key })
    .from(materialUploads)
    .where(and(isNull(materialUploads.materialId), lt(materialUploads.expiresAt, now)))
    .limit(1000);
  for (const slot of expired) {
    try {
      await services.files.storage.delete(slot.key);
    } catch (error) {
      log.warn({ err: error, key: slot.key }, 'expired upload object not deleted');
    }
  }
  if (expired.length > 0) {
    await services.db.delete(materialUploads).where(
      inArray(
        materialUploads.id,
        expired.map((s) => s.id),
      ),
    );
  }
  await services.db
    .delete(materialUploads)
    .where(
      and(
        sql`${materialUploads.materialId} is not null`,
        lt(materialUploads.createdAt, new Date(now.getTime() - 86400_000)),
      ),
    );
  return expired.length;
}
