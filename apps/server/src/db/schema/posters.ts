import type { PosterDocument, PosterFormat } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { departments, enterprises } from './tenancy.js';

/**
 * Poster templates (issue 11; ref-type '6'): a fixed-size canvas document (poster.ts of the
 * protocol) with fields staff fill in. Data-scoped by `dept_id` and `owner_id` like layouts,
 * and shared through allocations. `version` rises with every save: a save from an editor
 * that opened an older version is refused (two people editing one template).
 */
export const posterTemplates = pgTable(
  'poster_templates',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    document: jsonb('document').$type<PosterDocument>().notNull(),
    /** The document's fields, counted at save (the list shows it without reading documents). */
    fieldCount: integer('field_count').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('poster_templates_ent_updated_idx').on(t.entId, t.updatedAt.desc(), t.id),
    index('poster_templates_ent_dept_idx').on(t.entId, t.deptId),
  ],
);

/**
 * A poster made from a template: who filled which field values, and its image. A row is
 * written `pending` when the console asks for the upload (poster.imageApply: the exact
 * storage key), and becomes `done` once poster.make has checked the stored image; pending
 * rows of abandoned uploads are never listed. `material_id` is the library material holding
 * the image once the material library stores it (null while the image is the poster's own file).
 */
export const posters = pgTable(
  'posters',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    templateId: text('template_id')
      .notNull()
      .references(() => posterTemplates.id, { onDelete: 'cascade' }),
    /** The template's name when the poster was made. */
    templateName: text('template_name').notNull(),
    accountId: text('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    status: text('status').$type<'pending' | 'done'>().notNull().default('pending'),
    format: text('format').$type<PosterFormat>().notNull(),
    fileKey: text('file_key').notNull(),
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    fields: jsonb('fields').$type<Record<string, string>>().notNull().default({}),
    materialId: text('material_id'),
    createdAt: createdAt(),
    madeAt: timestamp('made_at', { withTimezone: true }),
  },
  (t) => [
    check('posters_status_check', sql`${t.status} in ('pending', 'done')`),
    check('posters_format_check', sql`${t.format} in ('png', 'jpeg')`),
    index('posters_template_made_idx').on(t.templateId, t.madeAt.desc(), t.id),
    index('posters_ent_made_idx').on(t.entId, t.madeAt.desc(), t.id),
  ],
);
