import { boolean, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { enterprises } from './tenancy.js';

/**
 * The extra fields an enterprise defines on its devices (issue 31, modules/devices
 * customFields.ts): a key (the name of the value in devices.custom_fields, fixed once made),
 * one label in the enterprise's own language, a type, its options (type 'option'), whether a
 * value is required, the order, and whether the device list shows it by default.
 */
export const deviceCustomFields = pgTable(
  'device_custom_fields',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    key: text('key').notNull(),
    label: text('label').notNull(),
    type: text('type').$type<'text' | 'number' | 'date' | 'option'>().notNull(),
    options: jsonb('options').$type<string[]>().notNull().default([]),
    required: boolean('required').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    showInList: boolean('show_in_list').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('device_custom_fields_ent_key').on(t.entId, t.key)],
);
