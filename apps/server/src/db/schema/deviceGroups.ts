import type { WatermarkSetting } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
    /** The group's watermark setting for its devices (modules/watermark); null: none. */
    watermark: jsonb('watermark').$type<WatermarkSetting>(),
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

/**
 * Which devices carry which tags (many-to-many); rows go with the device or the tag.
 * `dept_id`, `status` and `device_created_at` are the device's, copied by triggers (migration
 * 0036: filled on insert, followed when the device moves department or changes stored
 * status), so that a tag's devices of a department (and status) are read newest first from
 * an index, as the device list's merged plan reads devices (issue 9: a tag filter at
 * 1,000,000 devices).
 */
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
    /** The device's department (trigger-kept). */
    deptId: text('dept_id'),
    /** The device's stored status (trigger-kept). */
    status: text('status'),
    /** The device's created_at (trigger-kept): the list's order. */
    deviceCreatedAt: timestamp('device_created_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.tagId] }),
    index('device_tags_tag_idx').on(t.tagId, t.deviceId),
    // A tag's devices of one department newest first, and of one department and status (the
    // merged plan's tag branches).
    index('device_tags_tag_dept_created_idx').on(t.tagId, t.deptId, t.deviceCreatedAt.desc(), t.deviceId),
    index('device_tags_tag_dept_status_created_idx').on(
      t.tagId,
      t.deptId,
      t.status,
      t.deviceCreatedAt.desc(),
      t.deviceId,
    ),
    // A tag's devices of the enterprise newest first, and of a status (the enterprise
    // administrator's list with a tag; ent_id keeps another enterprise's tag id out).
    index('device_tags_ent_tag_created_idx').on(t.entId, t.tagId, t.deviceCreatedAt.desc(), t.deviceId),
    index('device_tags_ent_tag_status_created_idx').on(
      t.entId,
      t.tagId,
      t.status,
      t.deviceCreatedAt.desc(),
      t.deviceId,
    ),
  ],
);
