import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { uploadSignatureSchema } from '../upload.js';
import { listPageSize } from '../validation.js';
import { endpoint } from './common.js';

/**
 * Help documents (issue 31, /help/helpFile; spec section 7 'help documents'). Platform-wide
 * content: the platform operator (Perm.helpManage, provider-only; docs/ARCHITECTURE.md "Help
 * documents and downloads") keeps ordered categories and documents, each document with one
 * version per language (zh-CN required, en-US and ja optional) of a title and a rich-text body
 * (sanitised HTML; pictures uploaded straight to storage and named in the body by id). Every
 * holder of Perm.helpFile reads the published documents in its language, else in zh-CN, and is
 * told which language it reads; search looks in titles and text of every language.
 */

export const HELP_LANGUAGES = ['zh-CN', 'en-US', 'ja'] as const;
export type HelpLanguage = (typeof HELP_LANGUAGES)[number];
export const HELP_DOC_STATES = ['draft', 'published'] as const;
export type HelpDocState = (typeof HELP_DOC_STATES)[number];
export const HELP_TITLE_MAX_CHARS = 100;
export const HELP_CATEGORY_NAME_MAX_CHARS = 30;
/** The longest body (its HTML, after sanitising). */
export const HELP_BODY_MAX_CHARS = 200_000;
export const HELP_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const HELP_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
/** The attribute naming a help picture in a body: `<img data-help-image="id">` (src signed on read). */
export const HELP_IMAGE_ATTR = 'data-help-image';

const id = z.string().min(1).max(64);
const pageSize = listPageSize();

export const helpCategoryNamesSchema = z
  .object({
    'zh-CN': z.string().trim().min(1, 'validation.required').max(HELP_CATEGORY_NAME_MAX_CHARS),
    'en-US': z.string().trim().max(HELP_CATEGORY_NAME_MAX_CHARS).default(''),
    ja: z.string().trim().max(HELP_CATEGORY_NAME_MAX_CHARS).default(''),
  })
  .strict();

export const helpCategorySchema = z.object({
  id: z.string(),
  /** The name in the reader's language (zh-CN where none). */
  name: z.string(),
  names: z.object({ 'zh-CN': z.string(), 'en-US': z.string(), ja: z.string() }),
  sort: z.number(),
  /** Documents of the category the caller sees (published ones for a reader). */
  docCount: z.number(),
});
export type HelpCategory = z.infer<typeof helpCategorySchema>;

export const helpDocItemSchema = z.object({
  id: z.string(),
  categoryId: z.string(),
  state: z.enum(HELP_DOC_STATES),
  sort: z.number(),
  /** The title in `language`: the reader's where it exists, else zh-CN. */
  title: z.string(),
  language: z.enum(HELP_LANGUAGES),
  languages: z.array(z.enum(HELP_LANGUAGES)),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
});
export type HelpDocItem = z.infer<typeof helpDocItemSchema>;

export const helpDocVersionSchema = z.object({
  language: z.enum(HELP_LANGUAGES),
  title: z.string(),
  /** Sanitised HTML; its pictures carry a fresh signed src. */
  body: z.string(),
});
export type HelpDocVersion = z.infer<typeof helpDocVersionSchema>;

const versionInput = z
  .object({
    language: z.enum(HELP_LANGUAGES),
    title: z.string().trim().min(1, 'validation.required').max(HELP_TITLE_MAX_CHARS),
    body: z.string().max(HELP_BODY_MAX_CHARS * 2),
  })
  .strict();

export const helpEndpoints = {
  helpCategories: endpoint({
    name: 'help.categories',
    path: '/api/help/categories.shtm',
    auth: 'session',
    permission: Perm.helpFile,
    unscoped: 'help documents are platform-wide content: every reader sees the same categories',
    request: z.object({}).strict(),
    response: z.array(helpCategorySchema),
  }),
  helpList: endpoint({
    name: 'help.list',
    path: '/api/help/list.shtm',
    auth: 'session',
    permission: Perm.helpFile,
    unscoped: 'help documents are platform-wide content: readers see the published ones, the operator drafts too',
    /** `state` filters only for holders of Perm.helpManage; a reader sees published documents. */
    request: z
      .object({
        categoryId: id.optional(),
        keyword: z.string().trim().max(64).optional(),
        state: z.enum(HELP_DOC_STATES).optional(),
        page: z.number().int().min(1).default(1),
        size: pageSize,
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(helpDocItemSchema) }),
  }),
  helpInfo: endpoint({
    name: 'help.info',
    path: '/api/help/info.shtm',
    auth: 'session',
    permission: Perm.helpFile,
    unscoped: 'help documents are platform-wide content: a published document is everyone’s to read',
    errors: [ErrorCode.NOT_FOUND],
    /** One version: `language` if it exists, else the reader's language, else zh-CN. */
    request: z.object({ id, language: z.enum(HELP_LANGUAGES).optional() }).strict(),
    response: z.object({ doc: helpDocItemSchema, version: helpDocVersionSchema }),
  }),
  helpManageInfo: endpoint({
    name: 'help.manageInfo',
    path: '/api/help/manage/info.shtm',
    auth: 'session',
    permission: Perm.helpManage,
    scope: { object: 'helpDoc', kind: 'detail', audience: 'platform' },
    errors: [ErrorCode.NOT_FOUND],
    /** Every version of a document, draft or published, for the editor. */
    request: z.object({ id }).strict(),
    response: z.object({ doc: helpDocItemSchema, versions: z.array(helpDocVersionSchema) }),
  }),
  helpCategorySave: endpoint({
    name: 'help.categorySave',
    path: '/api/help/manage/category/save.shtm',
    auth: 'session',
    permission: Perm.helpManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.HELP_CATEGORY_NAME_TAKEN],
    /** Creates (no id) or renames and reorders a category. */
    request: z
      .object({ id: id.optional(), names: helpCategoryNamesSchema, sort: z.number().int().min(0).max(9999).default(0) })
      .strict(),
    response: z.object({ id: z.string() }),
  }),
  helpCategoryDelete: endpoint({
    name: 'help.categoryDelete',
    path: '/api/help/manage/category/delete.shtm',
    auth: 'session',
    permission: Perm.helpManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.HELP_CATEGORY_NOT_EMPTY],
    request: z.object({ id }).strict(),
    response: z.null(),
  }),
  helpImageApply: endpoint({
    name: 'help.imageApply',
    path: '/api/help/manage/image/apply.shtm',
    auth: 'session',
    permission: Perm.helpManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.FILE_FORMAT_ERROR, ErrorCode.FILE_TOO_LARGE],
    /** Signs the direct upload of one picture; the body names it by `imageId` (HELP_IMAGE_ATTR), `src` shows it once uploaded. */
    request: z
      .object({
        size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        contentType: z.string().trim().max(255),
      })
      .strict(),
    response: uploadSignatureSchema.extend({ imageId: z.string(), src: z.string() }),
  }),
  helpSave: endpoint({
    name: 'help.save',
    path: '/api/help/manage/save.shtm',
    auth: 'session',
    permission: Perm.helpManage,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.HELP_ZH_CN_REQUIRED,
      ErrorCode.HELP_BODY_TOO_LONG,
      ErrorCode.HELP_IMAGE_INVALID,
    ],
    /**
     * Creates (no id; a draft) or edits a document: its category, order and versions (the
     * versions given replace the stored ones; zh-CN is required). Bodies are sanitised.
     */
    request: z
      .object({
        id: id.optional(),
        categoryId: id,
        sort: z.number().int().min(0).max(9999).default(0),
        versions: z.array(versionInput).min(1).max(HELP_LANGUAGES.length),
      })
      .strict(),
    response: z.object({ id: z.string() }),
  }),
  helpPublish: endpoint({
    name: 'help.publish',
    path: '/api/help/manage/publish.shtm',
    auth: 'session',
    permission: Perm.helpManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Publishes (readers see it) or takes back to draft. */
    request: z.object({ id, published: z.boolean() }).strict(),
    response: z.object({ state: z.enum(HELP_DOC_STATES) }),
  }),
  helpDelete: endpoint({
    name: 'help.delete',
    path: '/api/help/manage/delete.shtm',
    auth: 'session',
    permission: Perm.helpManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: z.null(),
  }),
} as const;
