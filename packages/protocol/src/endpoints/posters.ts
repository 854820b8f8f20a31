import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import {
  POSTER_FORMATS,
  POSTER_IMAGE_MAX_BYTES,
  posterDocumentSchema,
  posterFieldValuesSchema,
  posterNameSchema,
  posterSizeSchema,
} from '../poster.js';
import { uploadSignatureSchema } from '../upload.js';
import { listPageSize } from '../validation.js';
import { endpoint, ok } from './common.js';

/**
 * Poster templates (issue 11; /poster, /poster/editor, /poster/tplHistory): fixed-size canvas
 * compositions with fields staff fill in (poster.ts), data-scoped by department and owner and
 * shared as ref-type '6'; and the posters made from them. Making a poster: the console draws
 * it at full size, asks `poster.imageApply` for a signed direct upload of the PNG or JPEG,
 * POSTs it to the storage, then `poster.make` checks the stored file (size, sniffed type,
 * dimensions) and records the poster (template, field values, image) for /poster/tplHistory.
 */

const pageSize = listPageSize(20);
const id = z.string().min(1).max(64);

/** A template as the /poster list shows it (no document). */
export const posterTemplateRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  width: z.number(),
  height: z.number(),
  /** Number of fields staff fill in. */
  fieldCount: z.number(),
  /** A preview of the last made poster, a signed URL, or null. */
  thumbUrl: z.string().nullable(),
  ownerId: z.string(),
  ownerName: z.string(),
  deptId: z.string().nullable(),
  deptName: z.string(),
  /** The caller may share (and delete) it: manage rights, not only sight of it. */
  hasPermission: z.boolean(),
  /** Posters made from it. */
  madeCount: z.number(),
  version: z.number(),
  updatedAt: z.string(),
});
export type PosterTemplateRow = z.infer<typeof posterTemplateRowSchema>;

export const posterTemplateSchema = posterTemplateRowSchema.extend({ document: posterDocumentSchema });
export type PosterTemplate = z.infer<typeof posterTemplateSchema>;

/** A poster made from a template (/poster/tplHistory). */
export const posterMadeSchema = z.object({
  id: z.string(),
  templateId: z.string(),
  templateName: z.string(),
  fields: z.record(z.string(), z.string()),
  format: z.enum(POSTER_FORMATS),
  width: z.number(),
  height: z.number(),
  size: z.number(),
  /** The image, a short-lived signed URL. */
  url: z.string(),
  /** The material of the library holding a copy of the image, when it was saved there. */
  materialId: z.string().nullable(),
  makerName: z.string(),
  createdAt: z.string(),
});
export type PosterMade = z.infer<typeof posterMadeSchema>;

const editable = {
  name: posterNameSchema,
  width: posterSizeSchema,
  height: posterSizeSchema,
  document: posterDocumentSchema,
};

export const posterEndpoints = {
  posterTemplatePage: endpoint({
    name: 'poster.page',
    path: '/api/poster/template/page.shtm',
    auth: 'session',
    permission: Perm.poster,
    scope: { object: 'posterTemplate', kind: 'list' },
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        /** Name contains. */
        name: z.string().trim().max(50).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(posterTemplateRowSchema) }),
  }),
  posterTemplateInfo: endpoint({
    name: 'poster.info',
    path: '/api/poster/template/info.shtm',
    auth: 'session',
    permission: Perm.poster,
    scope: { object: 'posterTemplate', kind: 'detail' },
    request: z.object({ id }).strict(),
    response: posterTemplateSchema,
  }),
  posterTemplateSave: endpoint({
    name: 'poster.save',
    path: '/api/poster/template/save.shtm',
    auth: 'session',
    permission: Perm.poster,
    mutation: true,
    notForMonitor: true,
    request: z.object(editable).strict(),
    response: z.object({ id: z.string(), version: z.number() }),
  }),
  posterTemplateUpdate: endpoint({
    name: 'poster.update',
    path: '/api/poster/template/update.shtm',
    auth: 'session',
    permission: Perm.poster,
    mutation: true,
    notForMonitor: true,
    // `version`: the one the editor opened; another save since answers CONFLICT (two editors).
    request: z.object({ id, version: z.number().int().min(1), ...editable }).strict(),
    response: z.object({ version: z.number() }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  }),
  posterTemplateCopy: endpoint({
    name: 'poster.copy',
    path: '/api/poster/template/copy.shtm',
    auth: 'session',
    permission: Perm.poster,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id, name: posterNameSchema.optional() }).strict(),
    response: z.object({ id: z.string() }),
    errors: [ErrorCode.NOT_FOUND],
  }),
  posterTemplateDelete: endpoint({
    name: 'poster.delete',
    path: '/api/poster/template/delete.shtm',
    auth: 'session',
    permission: Perm.poster,
    mutation: true,
    notForMonitor: true,
    // Only who may manage it (owner, scope over its department): shared with someone is not enough.
    request: z.object({ id }).strict(),
    response: ok,
    errors: [ErrorCode.NOT_FOUND],
  }),
  posterImageApply: endpoint({
    name: 'poster.imageApply',
    path: '/api/poster/image/apply.shtm',
    auth: 'session',
    permission: Perm.poster,
    mutation: true,
    notForMonitor: true,
    request: z
      .object({
        templateId: id,
        format: z.enum(POSTER_FORMATS),
        /** The image's byte size (the policy admits exactly this size). */
        size: z.number().int().min(1).max(POSTER_IMAGE_MAX_BYTES),
      })
      .strict(),
    response: uploadSignatureSchema.extend({ uploadId: z.string() }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.FILE_TOO_LARGE],
  }),
  posterMake: endpoint({
    name: 'poster.make',
    path: '/api/poster/make.shtm',
    auth: 'session',
    permission: Perm.poster,
    mutation: true,
    notForMonitor: true,
    // The uploaded image is checked (present, its sniffed type, the template's size); a
    // missing or wrong one answers IMAGE_GENERATION_FAILED and is removed.
    request: z
      .object({
        uploadId: id,
        fields: posterFieldValuesSchema,
        /** The library's copy of the image (uploaded to a folder as a material first), if saved there. */
        materialId: id.optional(),
      })
      .strict(),
    response: posterMadeSchema,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.IMAGE_GENERATION_FAILED],
  }),
  posterHistory: endpoint({
    name: 'poster.history',
    path: '/api/poster/history.shtm',
    auth: 'session',
    permission: Perm.poster,
    // The posters a caller sees are those of templates it sees (sharing included).
    scope: { object: 'posterTemplate', kind: 'list' },
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        templateId: id.optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(posterMadeSchema) }),
  }),
} as const;
