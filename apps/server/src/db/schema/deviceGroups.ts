import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { devices } from './devices.js';
import { departments, enterprises } from './tenancy.js';

/**
 * Device groups (spec section 3 'device group'; ref-type '2'). Data-scoped like devices, by
 * `dept_id` and `owner_id`, and shareable: a group shared with a department or an account
 * shares the devices in it (devices.group_id; the container of ref-type '1', auth/scope.ts).
 * A device is in at most one group. Names are unique within the enterprise (case-insensitive).
 */
export const deviceGroups = pgTable(
  'device_groups',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id').references(() => accounts.id),
    name: text('name').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('device_groups_ent_name_key').on(t.entId, sql`lower(${t.name})`),
    index('device_groups_ent_dept_idx').on(t.entId, t.deptId),
    index('device_groups_ent_updated_idx').on(t.entId, t.updatedAt.desc(), t.id),
  ],
);

/**
 * Tag categories (spec section 3 'tag and tag category'): the enterprise's vocabulary of
 * tags, seen by everyone of the enterprise who holds the tags permission. Names unique
 * within the enterprise.
 */
export const tagCategories = pgTable(
  'tag_categories',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('tag_categories_ent_name_key').on(t.entId, sql`lower(${t.name})`)],
);

/** Tags, each in one category; names unique within the enterprise. Devices carry many (device_tags). */
export const tags = pgTable(
  'tags',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    categoryId: text('category_id')
      .notNull()
      .references(() => tagCategories.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('tags_ent_name_key').on(t.entId, sql`lower(${t.name})`),
    index('tags_category_idx').on(t.categoryId),
  ],
);

/** Which devices carry which tags (many-to-many); rows go with the device or the tag. */
export const deviceTags = pgTable(
  'device_tags',
  {
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    tagId: text('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    entId: text('ent_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.tagId] }), index('device_tags_tag_idx').on(t.tagId, t.deviceId)],
);
