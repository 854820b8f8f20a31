import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import {
  MATERIAL_CATEGORY_NAME_MAX,
  MATERIAL_FILE_TYPES,
  MATERIAL_MEDIA_TYPES,
  MATERIAL_NAME_MAX,
  MATERIAL_STATUSES,
  MATERIAL_TYPES,
  MATERIAL_URL_MAX,
  MATERIAL_WARNINGS,
  MAX_MATERIAL_BATCH,
} from '../materialRules.js';
import { Perm } from '../permissions.js';
import { uploadSignatureSchema } from '../upload.js';
import { listPageSize, materialFolderNameSchema } from '../validation.js';
import { empty, endpoint, ok } from './common.js';

/**
 * The material library (issue 10, /advert/material; spec sections 1, 3, 5, 7, 8, 9): a folder
 * tree, categories, materials (uploaded files probed on the server, or web-page and
 * live-stream URLs), the direct upload (apply -> POST to storage -> verify), duplicates by
 * content, and the enterprise's storage usage against its quota.
 *
 * Folders and materials are data-scoped by department and owner and shareable through the
 * permission dialog (ref-types '4' and '3'): a folder shared with someone shares the materials
 * directly in it (inherited, locked in the dialog). Categories are the enterprise's vocabulary.
 * Files are answered as short-lived signed URLs. Rules and limits: materialRules.ts.
 *
 * 'Material-order design' (spec section 7) is left out: it is the advertiser's design request
 * for an ad order's materials, which belongs with the order module (not built yet).
 */

const idSchema = z.string().min(1).max(64);
const pageSize = listPageSize();
const page = z.number().int().min(1).default(1);
/** A time filter: an ISO 8601 date-time or date (an end date alone includes that whole day). */
const timeSchema = z.iso.datetime({ offset: true }).or(z.iso.date());
const sizeSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const materialNameSchema = z.string().trim().min(1, 'validation.required').max(MATERIAL_NAME_MAX);
export const materialCategoryNameSchema = z
  .string()
  .trim()
  .min(1, 'validation.required')
  .max(MATERIAL_CATEGORY_NAME_MAX);
export const materialTypeSchema = z.enum(MATERIAL_TYPES);
export const materialFileTypeSchema = z.enum(MATERIAL_FILE_TYPES);
export const materialMediaTypeSchema = z.enum(MATERIAL_MEDIA_TYPES);
export const materialStatusSchema = z.enum(MATERIAL_STATUSES);
export const materialWarningSchema = z.enum(MATERIAL_WARNINGS);
const idsSchema = z.array(idSchema).min(1).max(MAX_MATERIAL_BATCH);

export const materialFolderSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** null for a top-level folder; a parent the caller cannot see is answered as null too. */
  parentId: z.string().nullable(),
  /** 1 for a top-level folder. */
  depth: z.number(),
  deptId: z.string().nullable(),
  ownerId: z.string(),
  ownerName: z.string(),
  /** Materials directly in the folder that the caller can see. */
  materialCount: z.number(),
  /** The caller may rename, move, delete and share it. */
  hasPermission: z.boolean(),
  createdAt: z.string(),
});
export type MaterialFolder = z.infer<typeof materialFolderSchema>;

export const materialCategorySchema = z.object({ id: z.string(), name: z.string(), materialCount: z.number() });
export type MaterialCategory = z.infer<typeof materialCategorySchema>;

/** A material as every list and detail answers it. */
export const materialSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: materialTypeSchema,
  /** The content type judged from the file's content ('' for web and stream). */
  mime: z.string(),
  /** Bytes (0 for web and stream). */
  size: z.number(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  /** Seconds (video, audio). */
  duration: z.number().nullable(),
  codec: z.string().nullable(),
  /** Pages of a PDF, when counted. */
  pages: z.number().nullable(),
  sha256: z.string().nullable(),
  /** A signed, short-lived URL of the file; the address itself for web and stream. */
  url: z.string(),
  /** A signed URL of the 320 px thumbnail (images) or of the poster frame (video), else null. */
  thumbUrl: z.string().nullable(),
  status: materialStatusSchema,
  /** Why processing failed (status invalid). */
  invalidReason: z.string().nullable(),
  folderId: z.string(),
  folderName: z.string(),
  categoryId: z.string().nullable(),
  categoryName: z.string(),
  uploaderId: z.string(),
  uploaderName: z.string(),
  deptId: z.string().nullable(),
  /** Other materials of the enterprise with the same content (sha256). */
  duplicateCount: z.number(),
  /** The caller may rename, move, delete and share it. */
  hasPermission: z.boolean(),
  createdAt: z.string(),
});
export type Material = z.infer<typeof materialSchema>;

/** Another material with the same content (or the same name and size before upload). */
export const materialDuplicateSchema = z.object({
  id: z.string(),
  name: z.string(),
  folderId: z.string(),
  folderName: z.string(),
  size: z.number(),
  /** sha256: same content; nameSize: same name and size (the check before upload). */
  match: z.enum(['sha256', 'nameSize']),
});
export type MaterialDuplicate = z.infer<typeof materialDuplicateSchema>;

export const storageUsageSchema = z.object({
  /** The enterprise's quota in bytes (raised by the market's storage packs). */
  quotaBytes: z.number(),
  /** Bytes held by the enterprise's materials (files, thumbnails and posters included) and pending uploads. */
  usedBytes: z.number(),
  materialCount: z.number(),
  byType: z.array(z.object({ type: materialTypeSchema, count: z.number(), bytes: z.number() })),
});
export type StorageUsage = z.infer<typeof storageUsageSchema>;

export const MATERIAL_SORTS = ['createdAt', 'name', 'size'] as const;

export const materialListRequestSchema = z
  .object({
    page,
    size: pageSize,
    /** Only these materials (editors and previews resolve the ids a document names). */
    ids: z.array(idSchema).min(1).max(MAX_MATERIAL_BATCH).optional(),
    /** Name contains. */
    name: z.string().trim().max(MATERIAL_NAME_MAX).optional(),
    type: materialTypeSchema.optional(),
    status: materialStatusSchema.optional(),
    folderId: idSchema.optional(),
    /** With folderId: the materials of its sub-folders too (default). */
    includeSubfolders: z.boolean().default(true),
    categoryId: idSchema.optional(),
    uploaderId: idSchema.optional(),
    /** Created at or after / before. */
    from: timeSchema.optional(),
    to: timeSchema.optional(),
    /** Bytes, inclusive. */
    minSize: sizeSchema.optional(),
    maxSize: sizeSchema.optional(),
    /** Only materials whose content another material of the enterprise also has. */
    duplicatesOnly: z.boolean().default(false),
    sort: z.enum(MATERIAL_SORTS).default('createdAt'),
    order: z.enum(['asc', 'desc']).default('desc'),
  })
  .strict();

export const materialEndpoints = {
  materialFolderTree: endpoint({
    name: 'materialFolder.tree',
    path: '/api/material/folder/tree.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    scope: { object: 'materialFolder', kind: 'list' },
    request: empty,
    /** Flat, parents before children; the console builds the tree. */
    response: z.array(materialFolderSchema),
  }),
  materialFolderCreate: endpoint({
    name: 'materialFolder.create',
    path: '/api/material/folder/create.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.MATERIAL_FOLDER_TOO_DEEP,
      ErrorCode.MATERIAL_FOLDER_NAME_TAKEN,
      ErrorCode.MATERIAL_FOLDER_NAME_INVALID,
    ],
    request: z
      .object({
        name: materialFolderNameSchema,
        /** The parent folder (visible to the caller); a top-level folder when absent. */
        parentId: idSchema.optional(),
      })
      .strict(),
    response: z.object({ id: z.string() }),
  }),
  materialFolderRename: endpoint({
    name: 'materialFolder.rename',
    path: '/api/material/folder/rename.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION, ErrorCode.MATERIAL_FOLDER_NAME_TAKEN],
    request: z.object({ id: idSchema, name: materialFolderNameSchema }).strict(),
    response: ok,
  }),
  materialFolderMove: endpoint({
    name: 'materialFolder.move',
    path: '/api/material/folder/move.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.NO_PERMISSION,
      ErrorCode.MATERIAL_FOLDER_MOVE_INVALID,
      ErrorCode.MATERIAL_FOLDER_TOO_DEEP,
      ErrorCode.MATERIAL_FOLDER_NAME_TAKEN,
    ],
    /** parentId null: to the top level. */
    request: z.object({ id: idSchema, parentId: idSchema.nullable() }).strict(),
    response: ok,
  }),
  materialFolderDelete: endpoint({
    name: 'materialFolder.delete',
    path: '/api/material/folder/delete.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION, ErrorCode.MATERIAL_FOLDER_NOT_EMPTY],
    request: z.object({ id: idSchema }).strict(),
    response: ok,
  }),

  materialCategoryList: endpoint({
    name: 'materialCategory.list',
    path: '/api/material/category/list.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    scope: { object: 'materialCategory', kind: 'list', audience: 'tenant' },
    request: empty,
    response: z.array(materialCategorySchema),
  }),
  materialCategoryCreate: endpoint({
    name: 'materialCategory.create',
    path: '/api/material/category/create.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT],
    request: z.object({ name: materialCategoryNameSchema }).strict(),
    response: z.object({ id: z.string() }),
  }),
  materialCategoryUpdate: endpoint({
    name: 'materialCategory.update',
    path: '/api/material/category/update.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    request: z.object({ id: idSchema, name: materialCategoryNameSchema }).strict(),
    response: ok,
  }),
  materialCategoryDelete: endpoint({
    name: 'materialCategory.delete',
    path: '/api/material/category/delete.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Its materials keep existing without a category. */
    request: z.object({ id: idSchema }).strict(),
    response: ok,
  }),

  materialList: endpoint({
    name: 'material.list',
    path: '/api/material/search.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    scope: { object: 'material', kind: 'list' },
    request: materialListRequestSchema,
    /** total: counted up to MATERIAL_LIST_COUNT_CAP; totalCapped: there are more. */
    response: z.object({ total: z.number(), totalCapped: z.boolean(), data: z.array(materialSchema) }),
  }),
  materialDetail: endpoint({
    name: 'material.detail',
    path: '/api/material/detail.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    errors: [ErrorCode.NOT_FOUND],
    scope: { object: 'material', kind: 'detail' },
    request: z.object({ id: idSchema }).strict(),
    response: materialSchema.extend({
      /** Visible materials with the same content. */
      duplicates: z.array(materialDuplicateSchema),
      /** Ads and layouts that use it (delete is refused while any do). */
      inUse: z.boolean(),
    }),
  }),
  materialRename: endpoint({
    name: 'material.rename',
    path: '/api/material/rename.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    request: z.object({ id: idSchema, name: materialNameSchema }).strict(),
    response: ok,
  }),
  materialMove: endpoint({
    name: 'material.move',
    path: '/api/material/move.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    /** Batch: every material must be the caller's to manage. */
    request: z.object({ ids: idsSchema, folderId: idSchema }).strict(),
    response: z.object({ moved: z.number() }),
  }),
  materialSetCategory: endpoint({
    name: 'material.setCategory',
    path: '/api/material/setCategory.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    request: z.object({ ids: idsSchema, categoryId: idSchema.nullable() }).strict(),
    response: z.object({ updated: z.number() }),
  }),
  materialDelete: endpoint({
    name: 'material.delete',
    path: '/api/material/delete.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION, ErrorCode.MATERIAL_IN_USE],
    /** Batch: refused as a whole (MATERIAL_IN_USE, nothing deleted) while any is used by an ad or layout. */
    request: z.object({ ids: idsSchema }).strict(),
    response: z.object({ deleted: z.number() }),
  }),

  materialUploadCheck: endpoint({
    name: 'material.uploadCheck',
    path: '/api/material/upload/check.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    unscoped: 'answers duplicates among the materials the caller can see, of the files it is about to upload',
    /** Before upload: materials with the same content (sha256, when the console computed it) or name and size. */
    request: z
      .object({
        files: z
          .array(
            z
              .object({
                name: z.string().trim().min(1).max(255),
                size: sizeSchema,
                sha256: z
                  .string()
                  .regex(/^[0-9a-f]{64}$/)
                  .optional(),
              })
              .strict(),
          )
          .min(1)
          .max(MAX_MATERIAL_BATCH),
      })
      .strict(),
    /** One entry per file, in order. */
    response: z.array(z.object({ duplicates: z.array(materialDuplicateSchema) })),
  }),
  materialUploadApply: endpoint({
    name: 'material.uploadApply',
    path: '/api/material/upload/apply.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.MATERIAL_FOLDER_REQUIRED,
      ErrorCode.FILE_TOO_LARGE,
      ErrorCode.FILE_FORMAT_ERROR,
      ErrorCode.STORAGE_QUOTA_EXCEEDED,
    ],
    request: z
      .object({
        /** Spec section 5: a folder must be chosen before upload (MATERIAL_FOLDER_REQUIRED without one). */
        folderId: idSchema.optional(),
        categoryId: idSchema.optional(),
        /** The file's name (the material's name without its extension unless `name` is given). */
        fileName: z.string().trim().min(1).max(255),
        name: materialNameSchema.optional(),
        size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        /** The browser's content type of the file ('' when it has none). */
        contentType: z.string().trim().max(255),
        type: materialFileTypeSchema,
      })
      .strict(),
    /** The signature the console POSTs with (upload component), the upload's id for verify, and warnings known so far. */
    response: uploadSignatureSchema.extend({
      uploadId: z.string(),
      warnings: z.array(materialWarningSchema),
    }),
  }),
  materialUploadVerify: endpoint({
    name: 'material.uploadVerify',
    path: '/api/material/upload/verify.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.MATERIAL_UPLOAD_EXPIRED,
      ErrorCode.MATERIAL_FILE_MISSING,
      ErrorCode.FILE_TOO_LARGE,
      ErrorCode.FILE_FORMAT_ERROR,
      ErrorCode.STORAGE_QUOTA_EXCEEDED,
    ],
    /**
     * After the POST to storage: the server stats the object, judges its type from its first
     * bytes (FILE_FORMAT_ERROR and the object deleted when it is not the declared type), checks
     * the size limits, hashes it, and creates the material ('processing' until probed).
     * Verifying an upload already verified answers the same material.
     */
    request: z.object({ uploadId: idSchema }).strict(),
    response: z.object({
      material: materialSchema,
      warnings: z.array(materialWarningSchema),
      duplicates: z.array(materialDuplicateSchema),
    }),
  }),
  materialMediaAdd: endpoint({
    name: 'material.mediaAdd',
    path: '/api/material/media/add.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.MATERIAL_URL_INVALID],
    request: z
      .object({
        folderId: idSchema,
        categoryId: idSchema.optional(),
        name: materialNameSchema,
        type: materialMediaTypeSchema,
        url: z.string().trim().min(1).max(MATERIAL_URL_MAX),
      })
      .strict(),
    response: z.object({ id: z.string() }),
  }),
  materialStorageUsage: endpoint({
    name: 'material.storageUsage',
    path: '/api/material/storage/usage.shtm',
    auth: 'session',
    permission: Perm.advMaterial,
    unscoped: "the caller's own enterprise's storage totals (no object of anyone's)",
    request: empty,
    response: storageUsageSchema,
  }),
} as const;
