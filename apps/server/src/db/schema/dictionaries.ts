import { boolean, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';

/**
 * Dictionaries (issue 31): the lists the console's pickers offer (device types, OpenOOH venue
 * types), kept by the platform operator (Perm.dictionaryManage, provider-only). Platform-wide:
 * no enterprise column. Stored data holds an entry's `code` (devices.type, ad_slots.venue_type),
 * never its id, so a code never changes once made; labels, order and the enabled flag do.
 */
export const dictionaryEntries = pgTable(
  'dictionary_entries',
  {
    id: id(),
    kind: text('kind').notNull(),
    code: text('code').notNull(),
    labels: jsonb('labels').$type<{ 'zh-CN': string; 'en-US': string; ja: string }>().notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('dictionary_entries_kind_code_idx').on(t.kind, t.code)],
);
