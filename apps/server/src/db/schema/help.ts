import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { enterprises } from './tenancy.js';

/**
 * Help documents (issue 31, /help/helpFile): platform-wide content the platform operator
 * writes (Perm.helpManage, provider-only) and every user reads. No enterprise column: a help
 * document belongs to the platform, not to a tenant. A document has one version per language
 * (zh-CN required; en-US and ja optional); a reader gets its language, else zh-CN.
 */

export const HELP_DOC_STATE_VALUES = ['draft', 'published'] as const;

/** An ordered category, named in each language (zh-CN required, the others fall back to it). */
export const helpCategories = pgTable('help_categories', {
  id: id(),
  names: jsonb('names').$type<{ 'zh-CN': string; 'en-US'?: string; ja?: string }>().notNull(),
  sort: integer('sort').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const helpDocs = pgTable(
  'help_docs',
  {
    id: id(),
    categoryId: text('category_id')
      .notNull()
      .references(() => helpCategories.id),
    state: text('state').$type<(typeof HELP_DOC_STATE_VALUES)[number]>().notNull().default('draft'),
    sort: integer('sort').notNull().default(0),
    createdBy: text('created_by').references(() => accounts.id),
    updatedBy: text('updated_by').references(() => accounts.id),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('help_docs_category_idx').on(t.categoryId, t.sort)],
);

/** One language of a document: its title, its sanitised HTML body and the body's plain text (search). */
export const helpDocVersions = pgTable(
  'help_doc_versions',
  {
    docId: text('doc_id')
      .notNull()
      .references(() => helpDocs.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    text: text('text').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.docId, t.language] })],
);

/**
 * A picture of a help document, uploaded straight to storage (signed policy, as feedback's
 * screenshots). The body names it by id (`<img data-help-image="id">`); every read signs a
 * fresh URL for it.
 */
export const helpImages = pgTable(
  'help_images',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    authorId: text('author_id')
      .notNull()
      .references(() => accounts.id),
    key: text('key').notNull(),
    contentType: text('content_type').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('help_images_author_idx').on(t.authorId)],
);
