import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { departments, enterprises } from './tenancy.js';

/**
 * The material library (issue 10). Folders and materials are data-scoped by `dept_id` and
 * `owner_id` and shareable (ref-types '4' and '3'; a material inherits its folder's shares,
 * auth/scope.ts). Files live in the storage under `e/<entId>/materials/...`.
 */

/**
 * Material folders: a tree by `parent_id`, with a materialized `path` of ids (`/a/b/`) for
 * subtree queries and `depth` (1 = top level) for the depth rule. Sibling names are unique
 * (case-insensitive; top-level siblings by enterprise).
 */
export const materialFolders = pgTable(
  'material_folders',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    parentId: text('parent_id'),
    /** `/<id of top>/.../<own id>/`. */
    path: text('path').notNull(),
    depth: integer('depth').notNull(),
    name: text('name').notNull(),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('material_folders_sibling_name_key').on(
      t.entId,
      sql`coalesce(${t.parentId}, '')`,
      sql`lower(${t.name})`,
    ),
    index('material_folders_ent_path_idx').on(t.entId, t.path.op('text_pattern_ops')),
    index('material_folders_parent_idx').on(t.parentId),
  ],
);

/** Material categories: the enterprise's vocabulary (unique names). */
export const materialCategories = pgTable(
  'material_categories',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('material_categories_ent_name_key').on(t.entId, sql`lower(${t.name})`)],
);

export type MaterialTypeValue = 'image' | 'video' | 'audio' | 'document' | 'archive' | 'web' | 'stream';
export type MaterialStatusValue = 'processing' | 'ready' | 'invalid';

/**
 * Materials: an uploaded file (`file_key`, sha256, probed facts) or a web page / live-stream
 * URL (`url`). `status` is 'processing' until the probe job finished: 'ready', or 'invalid'
 * with `invalid_reason` (spec 'invalid material'). `bytes` counts everything stored for it
 * (file, thumbnail, poster) against the enterprise's quota.
 */
export const materials = pgTable(
  'materials',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    folderId: text('folder_id')
      .notNull()
      .references(() => materialFolders.id),
    categoryId: text('category_id').references(() => materialCategories.id, { onDelete: 'set null' }),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    type: text('type').$type<MaterialTypeValue>().notNull(),
    mime: text('mime').notNull().default(''),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    sha256: text('sha256'),
    width: integer('width'),
    height: integer('height'),
    duration: doublePrecision('duration'),
    codec: text('codec'),
    pages: integer('pages'),
    fileKey: text('file_key'),
    thumbKey: text('thumb_key'),
    posterKey: text('poster_key'),
    /** The address of a web page or live stream. */
    url: text('url'),
    status: text('status').$type<MaterialStatusValue>().notNull().default('processing'),
    invalidReason: text('invalid_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'materials_type_check',
      sql`${t.type} in ('image', 'video', 'audio', 'document', 'archive', 'web', 'stream')`,
    ),
    check('materials_status_check', sql`${t.status} in ('processing', 'ready', 'invalid')`),
    index('materials_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id.desc()),
    // A folder's materials in the list's order (the merged plan of a folder filter); the
    // tenant and type trailing, so the enterprise's check and a type filter read only the index.
    index('materials_folder_created_idx').on(t.folderId, t.createdAt.desc(), t.id.desc(), t.entId, t.type),
    index('materials_ent_type_created_idx').on(t.entId, t.type, t.createdAt.desc(), t.id.desc()),
    // The merged plan of a department scope's list (material.list, db/mergedPage.ts): each
    // covered department's materials in the list's order, ties by id as the list breaks them;
    // the folder and type trailing, so those filters (and the count) read only the index.
    index('materials_ent_dept_created_idx').on(t.entId, t.deptId, t.createdAt.desc(), t.id.desc(), t.folderId, t.type),
    index('materials_ent_owner_created_idx').on(t.entId, t.ownerId, t.createdAt.desc(), t.id.desc()),
    // The caller's own materials outside its covered departments (scopeOutsideBranches).
    index('materials_ent_owner_dept_idx').on(t.entId, t.ownerId, t.deptId),
    index('materials_ent_sha_idx').on(t.entId, t.sha256),
    index('materials_category_idx').on(t.categoryId),
  ],
);

/**
 * Upload slots (material.uploadApply): the key a signed policy allows, what was declared, and
 * until when. Verify turns one into a material (`material_id`); the prune job deletes expired
 * unverified slots with any object stored under their key. Pending slots count against the
 * quota, so parallel applies cannot overrun it.
 */
export const materialUploads = pgTable(
  'material_uploads',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    deptId: text('dept_id'),
    folderId: text('folder_id').notNull(),
    categoryId: text('category_id'),
    key: text('key').notNull(),
    name: text('name').notNull(),
    type: text('type').$type<MaterialTypeValue>().notNull(),
    expectedSize: bigint('expected_size', { mode: 'number' }).notNull(),
    materialId: text('material_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('material_uploads_key_key').on(t.key),
    index('material_uploads_ent_pending_idx').on(t.entId).where(sql`${t.materialId} is null`),
    index('material_uploads_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Per-enterprise storage: the quota (DEFAULT_STORAGE_QUOTA_BYTES without a row; the market's
 * storage packs raise it) and the bytes held by its materials, kept in the transactions that
 * add and delete materials (no sum over a million rows per upload).
 */
export const storageQuotas = pgTable('storage_quotas', {
  entId: text('ent_id')
    .primaryKey()
    .references(() => enterprises.id),
  quotaBytes: bigint('quota_bytes', { mode: 'number' }).notNull(),
  usedBytes: bigint('used_bytes', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});
