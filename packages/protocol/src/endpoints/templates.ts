import { type LayoutRule, layoutDocumentShapeSchema } from '@marquee/layout/schema';
import { z } from 'zod';
import { ErrorCode, type ErrorCodeValue } from '../errors.js';
import { Perm } from '../permissions.js';
import { PAGE_SIZES } from '../validation.js';
import { endpoint, ok } from './common.js';

/**
 * Layouts (the spec's templates, issue 11): the editor's save with versions, info, copy and
 * delete. The document is `@marquee/layout`'s versioned schema: its shape is checked here (a
 * bad field answers INVALID_PARAMS naming it), its rules (spec section 5) by the server with
 * their own codes (`layoutRuleErrorCode`), the same rules the editor checks before saving.
 */

const idSchema = z.string().min(1).max(64);
export const templateNameSchema = z.string().trim().min(1, 'validation.required').max(100);

/** The code the server answers for a broken layout rule. */
export function layoutRuleErrorCode(rule: LayoutRule): ErrorCodeValue {
  switch (rule) {
    case 'minPages':
      return ErrorCode.LAYOUT_KEEP_ONE_PAGE;
    case 'maxLiveComponents':
      return ErrorCode.LAYOUT_TOO_MANY_LIVE;
    case 'oneAutoJump':
      return ErrorCode.LAYOUT_ONE_AUTO_JUMP;
    default:
      return ErrorCode.LAYOUT_INVALID;
  }
}

const RULE_CODES = [
  ErrorCode.LAYOUT_KEEP_ONE_PAGE,
  ErrorCode.LAYOUT_TOO_MANY_LIVE,
  ErrorCode.LAYOUT_ONE_AUTO_JUMP,
  ErrorCode.LAYOUT_INVALID,
] as const;

/** A material the document refers to, as the renderer needs it (resolved by the server). */
export const renderMaterialSchema = z.object({
  url: z.string(),
  type: z.string(),
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
  duration: z.number().nullable().optional(),
  thumbUrl: z.string().nullable().optional(),
  name: z.string().optional(),
});

export const templateInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  width: z.number(),
  height: z.number(),
  /** Bumped by every save; the editor sends it back as `expectedVersion`. */
  version: z.number(),
  /** A default layout: it cannot be edited or deleted ('layout cannot be edited or upgraded'), only copied. */
  isDefault: z.boolean(),
  /** The caller may edit, delete and share it. */
  hasPermission: z.boolean(),
  /** Used by an ad or a screen: it cannot be deleted. */
  inUse: z.boolean(),
  ownerName: z.string(),
  deptId: z.string().nullable(),
  deptName: z.string(),
  updatedAt: z.string(),
  document: layoutDocumentShapeSchema,
  /**
   * The materials of the document the server could resolve, by id (URLs to draw it). A
   * material missing here is deleted or not yet resolvable: the renderer shows it unavailable.
   */
  materials: z.record(z.string(), renderMaterialSchema),
});
export type TemplateInfo = z.infer<typeof templateInfoSchema>;

/** The template page's default page size (spec section 9). */
export const TEMPLATE_PAGE_SIZE = 20;

export const templateRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  width: z.number(),
  height: z.number(),
  ownerId: z.string(),
  ownerName: z.string(),
  deptId: z.string().nullable(),
  deptName: z.string(),
  /** The caller may share it: the owner, the administrator, or a department-and-below scope covering it. */
  hasPermission: z.boolean(),
  updatedAt: z.string(),
  /** A default layout (issue 11): copied, never edited or deleted. */
  isDefault: z.boolean(),
  version: z.number(),
  /** The layout with its first page only, to draw the row's thumbnail; null before it has a document. */
  thumb: layoutDocumentShapeSchema.nullable(),
});
export type TemplateRow = z.infer<typeof templateRowSchema>;

export const templateEndpoints = {
  templateInfo: endpoint({
    name: 'template.info',
    path: '/api/template/info.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.template,
    scope: { object: 'template', kind: 'detail' },
    request: z.object({ id: idSchema }).strict(),
    response: templateInfoSchema,
  }),
  templateSave: endpoint({
    name: 'template.save',
    path: '/api/template/save.shtm',
    errors: [...RULE_CODES],
    auth: 'session',
    permission: Perm.templateEdit,
    mutation: true,
    notForMonitor: true,
    request: z.object({ name: templateNameSchema, document: layoutDocumentShapeSchema }).strict(),
    response: z.object({ id: z.string(), version: z.number() }),
  }),
  templateUpdate: endpoint({
    name: 'template.update',
    path: '/api/template/update.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.LAYOUT_NOT_EDITABLE, ErrorCode.LAYOUT_VERSION_CONFLICT, ...RULE_CODES],
    auth: 'session',
    permission: Perm.templateEdit,
    mutation: true,
    notForMonitor: true,
    request: z
      .object({
        id: idSchema,
        name: templateNameSchema,
        document: layoutDocumentShapeSchema,
        /** The version the editor opened; another save since answers LAYOUT_VERSION_CONFLICT. */
        expectedVersion: z.number().int().min(1),
      })
      .strict(),
    response: z.object({ version: z.number() }),
  }),
  templateCopy: endpoint({
    name: 'template.copy',
    path: '/api/template/copy.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.templateEdit,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id: idSchema, name: templateNameSchema.optional() }).strict(),
    response: z.object({ id: z.string() }),
  }),
  templateDelete: endpoint({
    name: 'template.delete',
    path: '/api/template/delete.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.LAYOUT_NOT_EDITABLE, ErrorCode.LAYOUT_IN_USE],
    auth: 'session',
    permission: Perm.templateEdit,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id: idSchema }).strict(),
    response: ok,
  }),
  /** The template page's list (spec section 2 'Template page'). */
  templatePage: endpoint({
    name: 'template.page',
    path: '/api/template/page.shtm',
    auth: 'session',
    permission: Perm.template,
    scope: { object: 'template', kind: 'list' },
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: z
          .number()
          .int()
          .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
          .default(TEMPLATE_PAGE_SIZE),
        name: z.string().max(100).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(templateRowSchema) }),
  }),
} as const;
