import {
  ErrorCode,
  HELP_BODY_MAX_CHARS,
  HELP_IMAGE_MAX_BYTES,
  HELP_IMAGE_TYPES,
  HELP_LANGUAGES,
  type HelpCategory,
  type HelpDocItem,
  type HelpDocState,
  type HelpLanguage,
  hasPermission,
  isLocale,
  Perm,
} from '@marquee/protocol';
import { and, asc, count, desc, eq, exists, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { helpCategories, helpDocs, helpDocVersions, helpImages } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { enterpriseKey, extensionOf } from '../../storage/storage.js';
import { registerStat } from '../home/stats.js';
import { cleanBody, withImageUrls } from './body.js';

/**
 * Help documents (issue 31; packages/protocol/src/endpoints/help.ts). Platform-wide content:
 * no enterprise column, every holder of Perm.helpFile reads the published documents; the
 * platform operator (Perm.helpManage, provider-only: the enterprise kind is checked too) also
 * sees drafts and writes. A reader gets the version of its language, else zh-CN.
 */

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Whether the caller writes help documents (and so sees drafts). */
export function isHelpManager(ctx: CallContext): boolean {
  return ctx.user.entKind === 'provider' && hasPermission(ctx.user.permissions, Perm.helpManage);
}

function requireManager(ctx: CallContext): void {
  if (!isHelpManager(ctx)) throw new AppError(ErrorCode.NOT_FOUND);
}

function readerLanguage(ctx: CallContext): HelpLanguage {
  return isLocale(ctx.language) ? ctx.language : 'zh-CN';
}

/** The version to show: `wanted` where it exists, else zh-CN (always there), else any. */
function pick<T extends { language: string }>(versions: T[], wanted: HelpLanguage): T | undefined {
  return versions.find((v) => v.language === wanted) ?? versions.find((v) => v.language === 'zh-CN') ?? versions[0];
}

function sortLanguages(languages: string[]): HelpLanguage[] {
  return HELP_LANGUAGES.filter((l) => languages.includes(l));
}

type CategoryNames = { 'zh-CN': string; 'en-US'?: string; ja?: string };

function categoryName(names: CategoryNames, language: HelpLanguage): string {
  return names[language]?.trim() || names['zh-CN'];
}

const visibleState = (ctx: CallContext): SQL | undefined =>
  isHelpManager(ctx) ? undefined : eq(helpDocs.state, 'published');

export async function categories(ctx: CallContext): Promise<HelpCategory[]> {
  const language = readerLanguage(ctx);
  const rows = await ctx.db
    .select()
    .from(helpCategories)
    .orderBy(asc(helpCategories.sort), asc(helpCategories.createdAt));
  const counts = await ctx.db
    .select({ categoryId: helpDocs.categoryId, n: count() })
    .from(helpDocs)
    .where(visibleState(ctx))
    .groupBy(helpDocs.categoryId);
  const byCategory = new Map(counts.map((c) => [c.categoryId, Number(c.n)]));
  return rows.map((r) => ({
    id: r.id,
    name: categoryName(r.names, language),
    names: { 'zh-CN': r.names['zh-CN'], 'en-US': r.names['en-US'] ?? '', ja: r.names.ja ?? '' },
    sort: r.sort,
    docCount: byCategory.get(r.id) ?? 0,
  }));
}

type DocRow = typeof helpDocs.$inferSelect;

async function items(db: Executor, rows: DocRow[], language: HelpLanguage): Promise<HelpDocItem[]> {
  if (rows.length === 0) return [];
  const versions = await db
    .select({ docId: helpDocVersions.docId, language: helpDocVersions.language, title: helpDocVersions.title })
    .from(helpDocVersions)
    .where(
      inArray(
        helpDocVersions.docId,
        rows.map((r) => r.id),
      ),
    );
  return rows.map((row) => {
    const own = versions.filter((v) => v.docId === row.id);
    const shown = pick(own, language);
    return {
      id: row.id,
      categoryId: row.categoryId,
      state: row.state,
      sort: row.sort,
      title: shown?.title ?? '',
      language: (shown?.language ?? 'zh-CN') as HelpLanguage,
      languages: sortLanguages(own.map((v) => v.language)),
      updatedAt: row.updatedAt.toISOString(),
      publishedAt: row.publishedAt?.toISOString() ?? null,
    };
  });
}

export async function list(
  input: { categoryId?: string; keyword?: string; state?: HelpDocState; page: number; size: number },
  ctx: CallContext,
) {
  const manager = isHelpManager(ctx);
  const pattern = input.keyword ? `%${escapeLike(input.keyword)}%` : undefined;
  const where = and(
    manager ? (input.state ? eq(helpDocs.state, input.state) : undefined) : eq(helpDocs.state, 'published'),
    input.categoryId ? eq(helpDocs.categoryId, input.categoryId) : undefined,
    pattern
      ? exists(
          ctx.db
            .select({ one: sql`1` })
            .from(helpDocVersions)
            .where(
              and(
                eq(helpDocVersions.docId, helpDocs.id),
                or(ilike(helpDocVersions.title, pattern), ilike(helpDocVersions.text, pattern)),
              ),
            ),
        )
      : undefined,
  );
  const [totalRow] = await ctx.db.select({ n: count() }).from(helpDocs).where(where);
  const rows = await ctx.db
    .select()
    .from(helpDocs)
    .where(where)
    .orderBy(asc(helpDocs.sort), desc(helpDocs.updatedAt), asc(helpDocs.id))
    .limit(input.size)
    .offset((input.page - 1) * input.size);
  return { total: Number(totalRow?.n ?? 0), data: await items(ctx.db, rows, readerLanguage(ctx)) };
}

async function findDoc(ctx: CallContext, id: string, publishedOnly: boolean): Promise<DocRow> {
  const [row] = await ctx.db
    .select()
    .from(helpDocs)
    .where(and(eq(helpDocs.id, id), publishedOnly ? eq(helpDocs.state, 'published') : undefined));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  return row;
}

async function imageUrl(ctx: CallContext, id: string): Promise<string | null> {
  const [image] = await ctx.db.select({ key: helpImages.key }).from(helpImages).where(eq(helpImages.id, id));
  return image?.key ? ctx.services.files.directUrl(image.key) : null;
}

export async function info(input: { id: string; language?: HelpLanguage }, ctx: CallContext) {
  const row = await findDoc(ctx, input.id, !isHelpManager(ctx));
  const versions = await ctx.db.select().from(helpDocVersions).where(eq(helpDocVersions.docId, row.id));
  const shown = pick(versions, input.language ?? readerLanguage(ctx));
  if (!shown) throw new AppError(ErrorCode.NOT_FOUND);
  const [doc] = await items(ctx.db, [row], shown.language as HelpLanguage);
  return {
    doc,
    version: {
      language: shown.language as HelpLanguage,
      title: shown.title,
      body: await withImageUrls(shown.body, (id) => imageUrl(ctx, id)),
    },
  };
}

export async function manageInfo(input: { id: string }, ctx: CallContext) {
  requireManager(ctx);
  const row = await findDoc(ctx, input.id, false);
  const versions = await ctx.db.select().from(helpDocVersions).where(eq(helpDocVersions.docId, row.id));
  const [doc] = await items(ctx.db, [row], 'zh-CN');
  const ordered = HELP_LANGUAGES.flatMap((l) => versions.filter((v) => v.language === l));
  return {
    doc,
    versions: await Promise.all(
      ordered.map(async (v) => ({
        language: v.language as HelpLanguage,
        title: v.title,
        body: await withImageUrls(v.body, (id) => imageUrl(ctx, id)),
      })),
    ),
  };
}

export async function categorySave(
  input: { id?: string; names: { 'zh-CN': string; 'en-US': string; ja: string }; sort: number },
  ctx: CallContext,
) {
  requireManager(ctx);
  const names = input.names;
  const [taken] = await ctx.db
    .select({ id: helpCategories.id })
    .from(helpCategories)
    .where(sql`${helpCategories.names}->>'zh-CN' = ${names['zh-CN']}`);
  if (taken && taken.id !== input.id) throw new AppError(ErrorCode.HELP_CATEGORY_NAME_TAKEN);
  let id = input.id;
  if (id) {
    const updated = await ctx.db
      .update(helpCategories)
      .set({ names, sort: input.sort, updatedAt: ctx.now })
      .where(eq(helpCategories.id, id))
      .returning({ id: helpCategories.id });
    if (updated.length === 0) throw new AppError(ErrorCode.NOT_FOUND);
  } else {
    const [row] = await ctx.db
      .insert(helpCategories)
      .values({ names, sort: input.sort, createdAt: ctx.now, updatedAt: ctx.now })
      .returning({ id: helpCategories.id });
    id = row.id;
  }
  await ctx.audit({
    module: 'help',
    action: input.id ? 'helpCategoryUpdate' : 'helpCategoryCreate',
    targetType: 'help_category',
    targetId: id,
    targetName: names['zh-CN'],
  });
  return { id };
}

export async function categoryDelete(input: { id: string }, ctx: CallContext) {
  requireManager(ctx);
  const [row] = await ctx.db.select().from(helpCategories).where(eq(helpCategories.id, input.id));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  const [docs] = await ctx.db.select({ n: count() }).from(helpDocs).where(eq(helpDocs.categoryId, row.id));
  if (Number(docs?.n ?? 0) > 0) throw new AppError(ErrorCode.HELP_CATEGORY_NOT_EMPTY);
  await ctx.db.delete(helpCategories).where(eq(helpCategories.id, row.id));
  await ctx.audit({
    module: 'help',
    action: 'helpCategoryDelete',
    targetType: 'help_category',
    targetId: row.id,
    targetName: row.names['zh-CN'],
  });
  return null;
}

export async function imageApply(input: { size: number; contentType: string }, ctx: CallContext) {
  requireManager(ctx);
  const type = input.contentType.split(';')[0].trim().toLowerCase();
  if (!(HELP_IMAGE_TYPES as readonly string[]).includes(type)) throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
  if (input.size > HELP_IMAGE_MAX_BYTES) throw new AppError(ErrorCode.FILE_TOO_LARGE);
  const entId = ctx.user.entId;
  const [image] = await ctx.db
    .insert(helpImages)
    .values({ entId, authorId: ctx.user.accountId, key: '', contentType: type, createdAt: ctx.now })
    .returning({ id: helpImages.id });
  const key = enterpriseKey(entId, 'help', `${image.id}.${extensionOf(type)}`);
  await ctx.db.update(helpImages).set({ key }).where(eq(helpImages.id, image.id));
  const signature = ctx.services.files.createUpload({
    entId,
    key,
    minBytes: 1,
    maxBytes: HELP_IMAGE_MAX_BYTES,
    contentTypes: [...HELP_IMAGE_TYPES],
    contentType: type,
  });
  await ctx.audit({
    module: 'help',
    action: 'helpImageUpload',
    targetType: 'help_image',
    targetId: image.id,
    targetName: `picture.${extensionOf(type)}`,
  });
  return { ...signature, imageId: image.id, src: await ctx.services.files.directUrl(key) };
}

export async function save(
  input: {
    id?: string;
    categoryId: string;
    sort: number;
    versions: { language: HelpLanguage; title: string; body: string }[];
  },
  ctx: CallContext,
) {
  requireManager(ctx);
  const byLanguage = new Map(input.versions.map((v) => [v.language, v]));
  const zh = byLanguage.get('zh-CN');
  if (!zh) throw new AppError(ErrorCode.HELP_ZH_CN_REQUIRED);
  const [category] = await ctx.db
    .select({ id: helpCategories.id })
    .from(helpCategories)
    .where(eq(helpCategories.id, input.categoryId));
  if (!category) throw new AppError(ErrorCode.NOT_FOUND);
  const cleaned = await Promise.all(
    [...byLanguage.values()].map(async (v) => ({ ...v, clean: await cleanBody(v.body) })),
  );
  if (cleaned.some((v) => v.clean.html.length > HELP_BODY_MAX_CHARS)) throw new AppError(ErrorCode.HELP_BODY_TOO_LONG);
  const imageIds = [...new Set(cleaned.flatMap((v) => v.clean.imageIds))];
  if (imageIds.length > 0) {
    const found = await ctx.db.select().from(helpImages).where(inArray(helpImages.id, imageIds));
    if (found.length !== imageIds.length) throw new AppError(ErrorCode.HELP_IMAGE_INVALID);
    for (const image of found) {
      if (!image.key || !(await ctx.services.files.storage.stat(image.key)))
        throw new AppError(ErrorCode.HELP_IMAGE_INVALID);
    }
  }
  let id = input.id;
  if (id) {
    const updated = await ctx.db
      .update(helpDocs)
      .set({ categoryId: input.categoryId, sort: input.sort, updatedBy: ctx.user.accountId, updatedAt: ctx.now })
      .where(eq(helpDocs.id, id))
      .returning({ id: helpDocs.id });
    if (updated.length === 0) throw new AppError(ErrorCode.NOT_FOUND);
    await ctx.db.delete(helpDocVersions).where(eq(helpDocVersions.docId, id));
  } else {
    const [row] = await ctx.db
      .insert(helpDocs)
      .values({
        categoryId: input.categoryId,
        sort: input.sort,
        createdBy: ctx.user.accountId,
        updatedBy: ctx.user.accountId,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning({ id: helpDocs.id });
    id = row.id;
  }
  await ctx.db.insert(helpDocVersions).values(
    cleaned.map((v) => ({
      docId: id as string,
      language: v.language,
      title: v.title,
      body: v.clean.html,
      text: v.clean.text,
      updatedAt: ctx.now,
    })),
  );
  await ctx.audit({
    module: 'help',
    action: input.id ? 'helpDocUpdate' : 'helpDocCreate',
    targetType: 'help_doc',
    targetId: id,
    targetName: zh.title,
  });
  return { id };
}

async function zhTitle(db: Executor, docId: string): Promise<string> {
  const [v] = await db
    .select({ title: helpDocVersions.title })
    .from(helpDocVersions)
    .where(and(eq(helpDocVersions.docId, docId), eq(helpDocVersions.language, 'zh-CN')));
  return v?.title ?? docId;
}

export async function publish(input: { id: string; published: boolean }, ctx: CallContext) {
  requireManager(ctx);
  const row = await findDoc(ctx, input.id, false);
  const state: HelpDocState = input.published ? 'published' : 'draft';
  await ctx.db
    .update(helpDocs)
    .set({
      state,
      publishedAt: input.published ? (row.state === 'published' ? row.publishedAt : ctx.now) : null,
      updatedBy: ctx.user.accountId,
      updatedAt: ctx.now,
    })
    .where(eq(helpDocs.id, row.id));
  await ctx.audit({
    module: 'help',
    action: input.published ? 'helpDocPublish' : 'helpDocUnpublish',
    targetType: 'help_doc',
    targetId: row.id,
    targetName: await zhTitle(ctx.db, row.id),
  });
  return { state };
}

export async function remove(input: { id: string }, ctx: CallContext) {
  requireManager(ctx);
  const row = await findDoc(ctx, input.id, false);
  const title = await zhTitle(ctx.db, row.id);
  await ctx.db.delete(helpDocs).where(eq(helpDocs.id, row.id));
  await ctx.audit({
    module: 'help',
    action: 'helpDocDelete',
    targetType: 'help_doc',
    targetId: row.id,
    targetName: title,
  });
  return null;
}

/** Published help documents (the /help section's figure: platform-wide, the same for every reader). */
export async function countPublished(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(helpDocs).where(eq(helpDocs.state, 'published'));
  return Number(row?.n ?? 0);
}

registerStat({ key: 'helpDocs', count: (db) => countPublished(db) });
