import {
  ErrorCode,
  POSTER_FORMAT_TYPES,
  type PosterDocument,
  type PosterFieldValues,
  type PosterFormat,
  type PosterMade,
  type PosterTemplate,
  type PosterTemplateRow,
  posterFields,
  RefType,
  type UploadSignature,
} from '@marquee/protocol';
import { and, eq, sql } from 'drizzle-orm';
import { materials, posters, posterTemplates } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { enterpriseKey } from '../../storage/storage.js';
import { registerMaterialReferrer } from '../materials/references.js';
import { getMaterialsForRender } from '../materials/render.js';
import { visibleMaterialIds } from '../materials/repository.js';
import { SNIFF_BYTES, sniffImage } from '../screenshots/image.js';
import { registerShareable } from '../sharing/registry.js';
import {
  findPosterTemplate,
  listPostersMade,
  listPosterTemplates,
  lockPosterTemplate,
  manageablePosterTemplateIds,
  type PosterTemplateListRow,
  posterImageKeys,
  visiblePosterTemplateIds,
} from './repository.js';
import { PosterText } from './texts.js';

registerShareable({
  refType: RefType.poster,
  visibleIds: visiblePosterTemplateIds,
  manageableIds: manageablePosterTemplateIds,
});

const audit = (ctx: CallContext, action: string, id: string, name: string, detail?: Record<string, unknown>) =>
  ctx.audit({ module: 'poster', action, targetType: `ref:${RefType.poster}`, targetId: id, targetName: name, detail });

function presentRow(ctx: CallContext, row: PosterTemplateListRow): PosterTemplateRow {
  return {
    id: row.id,
    name: row.name,
    width: row.width,
    height: row.height,
    fieldCount: row.fieldCount,
    thumbUrl: row.lastImageKey ? ctx.services.files.signedUrl(row.lastImageKey) : null,
    ownerId: row.ownerId,
    ownerName: row.ownerReal?.trim() || row.ownerLogin || '',
    deptId: row.deptId,
    deptName: row.deptName ?? '',
    hasPermission: Boolean(row.hasPermission),
    madeCount: Number(row.madeCount),
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function posterTemplatePage(input: { page: number; size: number; name?: string }, ctx: CallContext) {
  const { total, rows } = await listPosterTemplates(ctx.db, ctx.user, input);
  return { total, data: rows.map((r) => presentRow(ctx, r)) };
}

export async function posterTemplateInfo(input: { id: string }, ctx: CallContext): Promise<PosterTemplate> {
  const row = await findPosterTemplate(ctx.db, ctx.user, input.id);
  if (!row?.document) throw new AppError(ErrorCode.NOT_FOUND, PosterText.notFound);
  return { ...presentRow(ctx, row), document: await withMaterialUrls(ctx, row.document) };
}

/** The library materials a poster document draws (its image nodes that name one). */
function posterMaterialIds(doc: PosterDocument): string[] {
  return [...new Set(doc.nodes.flatMap((n) => (n.type === 'image' && n.materialId ? [n.materialId] : [])))];
}

/**
 * The document as the editor draws it: an image of the library gets a fresh signed URL (the
 * stored document keeps only the material's id, never a URL that expires); a material gone
 * or not ready draws nothing.
 */
async function withMaterialUrls(ctx: CallContext, doc: PosterDocument): Promise<PosterDocument> {
  const ids = posterMaterialIds(doc);
  if (ids.length === 0) return doc;
  const found = await getMaterialsForRender(ctx.db, ctx.user.entId, ids, ctx.services.files);
  return {
    ...doc,
    nodes: doc.nodes.map((n) =>
      n.type === 'image' && n.materialId ? { ...n, src: found.get(n.materialId)?.url ?? '' } : n,
    ),
  };
}

/**
 * The document as stored: every library material it names must be one the caller sees (else
 * NOT_FOUND), and such images keep their material's id without the signed URL.
 */
async function storedDocument(ctx: CallContext, doc: PosterDocument): Promise<PosterDocument> {
  const ids = posterMaterialIds(doc);
  if (ids.length === 0) return doc;
  const visible = await visibleMaterialIds(ctx.db, ctx.user, ids);
  if (ids.some((id) => !visible.has(id))) throw new AppError(ErrorCode.NOT_FOUND, PosterText.materialNotFound);
  return { ...doc, nodes: doc.nodes.map((n) => (n.type === 'image' && n.materialId ? { ...n, src: '' } : n)) };
}

// A poster template that draws a library material keeps it from being deleted.
registerMaterialReferrer('posterTemplate', async (db, entId, materialIds) => {
  if (materialIds.length === 0) return [];
  const rows = await db
    .select({ document: posterTemplates.document })
    .from(posterTemplates)
    .where(
      and(
        eq(posterTemplates.entId, entId),
        sql`exists (select 1 from jsonb_array_elements(${posterTemplates.document}->'nodes') n where n->>'materialId' in (${sql.join(
          materialIds.map((id) => sql`${id}`),
          sql`, `,
        )}))`,
      ),
    );
  const wanted = new Set(materialIds);
  return new Set(rows.flatMap((r) => posterMaterialIds(r.document).filter((id) => wanted.has(id))));
});

interface Editable {
  name: string;
  width: number;
  height: number;
  document: PosterDocument;
}

const fieldCount = (doc: PosterDocument) => posterFields(doc).length;

/** A new template in the caller's current department, owned by the caller. */
export async function savePosterTemplate(input: Editable, ctx: CallContext): Promise<{ id: string; version: number }> {
  const document = await storedDocument(ctx, input.document);
  const [row] = await ctx.db
    .insert(posterTemplates)
    .values({
      entId: ctx.user.entId,
      deptId: ctx.user.deptId,
      ownerId: ctx.user.accountId,
      name: input.name,
      width: input.width,
      height: input.height,
      document,
      fieldCount: fieldCount(document),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: posterTemplates.id, version: posterTemplates.version });
  await audit(ctx, 'add', row.id, input.name, { width: input.width, height: input.height });
  return row;
}

/**
 * Saves the editor's document over a template the caller sees (shared ones included: sharing a
 * template is handing it to others to use and adjust), if nobody saved it since `version`.
 */
export async function updatePosterTemplate(
  input: Editable & { id: string; version: number },
  ctx: CallContext,
): Promise<{ version: number }> {
  const current = await lockPosterTemplate(ctx.db, ctx.user, input.id);
  if (!current) throw new AppError(ErrorCode.NOT_FOUND, PosterText.notFound);
  if (current.version !== input.version) throw new AppError(ErrorCode.CONFLICT, PosterText.versionConflict);
  const document = await storedDocument(ctx, input.document);
  const version = current.version + 1;
  await ctx.db
    .update(posterTemplates)
    .set({
      name: input.name,
      width: input.width,
      height: input.height,
      document,
      fieldCount: fieldCount(document),
      version,
      updatedAt: ctx.now,
    })
    .where(eq(posterTemplates.id, input.id));
  await audit(ctx, 'update', input.id, input.name, { version });
  return { version };
}

/** A copy of a template the caller sees, owned by the caller in its department. */
export async function copyPosterTemplate(input: { id: string; name?: string }, ctx: CallContext) {
  const source = await lockPosterTemplate(ctx.db, ctx.user, input.id);
  if (!source) throw new AppError(ErrorCode.NOT_FOUND, PosterText.notFound);
  const lang = ctx.language === 'en-US' || ctx.language === 'ja' ? ctx.language : 'zh-CN';
  const name = (input.name ?? PosterText.copyOf(source.name)[lang]).slice(0, 50);
  const [row] = await ctx.db
    .insert(posterTemplates)
    .values({
      entId: ctx.user.entId,
      deptId: ctx.user.deptId,
      ownerId: ctx.user.accountId,
      name,
      width: source.width,
      height: source.height,
      document: source.document,
      fieldCount: source.fieldCount,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: posterTemplates.id });
  await audit(ctx, 'copy', row.id, name, { from: source.id });
  return { id: row.id };
}

/** Deletes a template the caller may manage, its posters' records and their images. */
export async function deletePosterTemplate(input: { id: string }, ctx: CallContext): Promise<null> {
  const current = await lockPosterTemplate(ctx.db, ctx.user, input.id);
  if (!current) throw new AppError(ErrorCode.NOT_FOUND, PosterText.notFound);
  const manageable = await lockPosterTemplate(ctx.db, ctx.user, input.id, true);
  if (!manageable) throw new AppError(ErrorCode.NO_PERMISSION, PosterText.notManageable);
  const keys = await posterImageKeys(ctx.db, input.id);
  await ctx.db.delete(posterTemplates).where(eq(posterTemplates.id, input.id));
  await audit(ctx, 'delete', input.id, current.name, { posters: keys.length });
  // The files go once the rows are gone for good (a rolled-back delete keeps its images).
  ctx.afterCommit(() => {
    ctx.services.files.deleteMany(keys).catch((err) => ctx.log.warn({ err }, 'poster images not deleted'));
  });
  return null;
}

const EXT: Record<PosterFormat, string> = { png: 'png', jpeg: 'jpg' };

/**
 * Signs the direct upload of a poster's image (exactly `size` bytes of the format's type, at
 * its own key under e/<ent>/posters/) and records the poster as pending.
 */
export async function applyPosterImage(
  input: { templateId: string; format: PosterFormat; size: number },
  ctx: CallContext,
): Promise<UploadSignature & { uploadId: string }> {
  const template = await lockPosterTemplate(ctx.db, ctx.user, input.templateId);
  if (!template) throw new AppError(ErrorCode.NOT_FOUND, PosterText.notFound);
  const [row] = await ctx.db
    .insert(posters)
    .values({
      entId: ctx.user.entId,
      templateId: template.id,
      templateName: template.name,
      accountId: ctx.user.accountId,
      format: input.format,
      fileKey: '',
      size: input.size,
      width: template.width,
      height: template.height,
      createdAt: ctx.now,
    })
    .returning({ id: posters.id });
  const key = enterpriseKey(ctx.user.entId, 'posters', template.id, `${row.id}.${EXT[input.format]}`);
  await ctx.db.update(posters).set({ fileKey: key }).where(eq(posters.id, row.id));
  const signature = ctx.services.files.createUpload({
    entId: ctx.user.entId,
    key,
    minBytes: input.size,
    maxBytes: input.size,
    contentTypes: [POSTER_FORMAT_TYPES[input.format]],
  });
  await audit(ctx, 'imageApply', template.id, template.name, { posterId: row.id, format: input.format });
  return { ...signature, uploadId: row.id };
}

/** Reads the head of a stored image and what it is (PNG/JPEG and its size), or null. */
async function storedImage(ctx: CallContext, key: string) {
  const opened = await ctx.services.files.open(ctx.user.entId, key, { start: 0, end: SNIFF_BYTES - 1 });
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.body) chunks.push(Buffer.from(chunk));
  const stat = await ctx.services.files.storage.stat(key);
  const info = sniffImage(Buffer.concat(chunks));
  return info && stat ? { ...info, size: stat.size } : null;
}

/**
 * Finishes a poster: its image must be stored, a PNG or JPEG as asked, of the template's size
 * (else 'image generation failed', and the file is removed); the field values kept are those
 * of the template's fields.
 */
export async function makePoster(
  input: { uploadId: string; fields: PosterFieldValues; materialId?: string },
  ctx: CallContext,
): Promise<PosterMade> {
  const [pending] = await ctx.db
    .select()
    .from(posters)
    .where(
      and(
        eq(posters.id, input.uploadId),
        eq(posters.entId, ctx.user.entId),
        eq(posters.accountId, ctx.user.accountId),
        eq(posters.status, 'pending'),
      ),
    )
    .for('update');
  if (!pending) throw new AppError(ErrorCode.NOT_FOUND, PosterText.uploadNotFound);
  const template = await findPosterTemplate(ctx.db, ctx.user, pending.templateId);
  if (!template?.document) throw new AppError(ErrorCode.NOT_FOUND, PosterText.notFound);
  const image = await storedImage(ctx, pending.fileKey);
  if (
    !image ||
    image.contentType !== POSTER_FORMAT_TYPES[pending.format] ||
    image.width !== pending.width ||
    image.height !== pending.height
  ) {
    if (image) await ctx.services.files.storage.delete(pending.fileKey);
    throw new AppError(ErrorCode.IMAGE_GENERATION_FAILED);
  }
  // The library's copy must be a picture the caller sees (uploaded to its folder just before).
  let materialId: string | null = null;
  if (input.materialId) {
    const [material] = await ctx.db
      .select({ id: materials.id })
      .from(materials)
      .where(and(eq(materials.id, input.materialId), eq(materials.type, 'image')));
    const visible = material ? await visibleMaterialIds(ctx.db, ctx.user, [material.id]) : new Map<string, string>();
    if (!visible.has(input.materialId)) throw new AppError(ErrorCode.NOT_FOUND, PosterText.materialNotFound);
    materialId = input.materialId;
  }
  const known = new Set(posterFields(template.document).map((f) => f.field.key));
  const fields = Object.fromEntries(Object.entries(input.fields).filter(([k]) => known.has(k)));
  await ctx.db
    .update(posters)
    .set({ status: 'done', fields, size: image.size, madeAt: ctx.now, materialId })
    .where(eq(posters.id, pending.id));
  await audit(ctx, 'make', template.id, template.name, { posterId: pending.id, fields, materialId });
  return {
    id: pending.id,
    templateId: template.id,
    templateName: template.name,
    fields,
    format: pending.format,
    width: image.width,
    height: image.height,
    size: image.size,
    url: ctx.services.files.signedUrl(pending.fileKey),
    materialId,
    makerName: ctx.user.realName?.trim() || ctx.user.loginName,
    createdAt: ctx.now.toISOString(),
  };
}

export async function postersMade(
  input: { page: number; size: number; templateId?: string },
  ctx: CallContext,
): Promise<{ total: number; data: PosterMade[] }> {
  const { total, rows } = await listPostersMade(ctx.db, ctx.user, input);
  return {
    total,
    data: rows.map(({ poster: p, makerLogin, makerReal }) => ({
      id: p.id,
      templateId: p.templateId,
      templateName: p.templateName,
      fields: p.fields,
      format: p.format,
      width: p.width,
      height: p.height,
      size: p.size,
      url: ctx.services.files.signedUrl(p.fileKey),
      materialId: p.materialId,
      makerName: makerReal?.trim() || makerLogin || '',
      createdAt: (p.madeAt ?? p.createdAt).toISOString(),
    })),
  };
}
