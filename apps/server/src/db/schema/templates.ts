import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { departments, enterprises } from './tenancy.js';

/**
 * Templates (the spec's layouts; ref-type '9'). Data-scoped: `dept_id` and `owner_id` are
 * what auth/scope.ts filters on. `document` is the layout (@marquee/layout, versioned by its
 * own `v`); `version` counts saves for the editor's conflict check (issue 11).
 */
export const templates = pgTable(
  'templates',
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
    /**
     * `lower(name)`, kept by PostgreSQL, for the list's name filter: `name_lower LIKE
     * lower(pattern)` is what `name ILIKE pattern` computes in a UTF-8 database, without
     * lowering every candidate row again. A pg_trgm GIN index on it (migration
     * template_name_search, only where pg_trgm can be created, so not declared here) serves
     * `%term%`.
     */
    nameLower: text('name_lower').notNull().generatedAlwaysAs(sql`lower("name")`),
    width: integer('width').notNull().default(1920),
    height: integer('height').notNull().default(1080),
    /** The layout document (pages, components); null for a row made before layouts had one: read as empty. */
    document: jsonb('document'),
    /** 1 at creation, +1 per save: an update naming an older version is a conflict. */
    version: integer('version').notNull().default(1),
    /** A default layout: copied, never edited or deleted (spec section 6). */
    isDefault: boolean('is_default').notNull().default(false),
    /** The material ids the document refers to (kept at each save): the material library's in-use check. */
    materialIds: text('material_ids').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Every scoped query starts from ent_id; the page is ordered by updated_at desc, id.
    index('templates_ent_updated_idx').on(t.entId, t.updatedAt.desc(), t.id),
    index('templates_ent_dept_updated_idx').on(t.entId, t.deptId, t.updatedAt.desc(), t.id),
    index('templates_ent_owner_updated_idx').on(t.entId, t.ownerId, t.updatedAt.desc(), t.id),
    index('templates_material_ids_idx').using('gin', t.materialIds),
  ],
);

/**
 * Templates per department (dept_id '' for none), kept by a trigger on templates (migration
 * template_counts), so a page's total over whole departments is a sum of a few rows instead
 * of a count over every visible template. Never written by application code.
 */
export const templateDeptCounts = pgTable(
  'template_dept_counts',
  {
    entId: text('ent_id').notNull(),
    deptId: text('dept_id').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.entId, t.deptId] })],
);
