import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { deviceCommands, devices } from './devices.js';
import { enterprises } from './tenancy.js';

/** Why a screenshot was taken: an operator asked (manual) or the hourly job (timed). */
export type ScreenshotTriggerValue = 'manual' | 'timed';

/**
 * Screenshots a player uploaded (issue 9; docs/device-protocol.md 2.5), one per screenshot
 * command at most. Data-scoped through their device; the image is a file of the storage
 * (`file_key`, `e/<entId>/screenshots/...`). Kept 7 days (spec section 9): the cleanup job
 * deletes the rows with their files.
 */
export const deviceScreenshots = pgTable(
  'device_screenshots',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    commandId: text('command_id').references(() => deviceCommands.id, { onDelete: 'set null' }),
    fileKey: text('file_key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    trigger: text('trigger').$type<ScreenshotTriggerValue>().notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('device_screenshots_trigger_check', sql`${t.trigger} in ('manual', 'timed')`),
    uniqueIndex('device_screenshots_command_key').on(t.commandId),
    index('device_screenshots_device_taken_idx').on(t.deviceId, t.takenAt.desc(), t.id),
    index('device_screenshots_ent_taken_idx').on(t.entId, t.takenAt.desc(), t.id),
    index('device_screenshots_taken_idx').on(t.takenAt),
  ],
);

/** An enterprise's timed-screenshot setting (no row: on, every hour, spec section 9). */
export const screenshotSettings = pgTable('screenshot_settings', {
  entId: text('ent_id')
    .primaryKey()
    .references(() => enterprises.id, { onDelete: 'cascade' }),
  timedEnabled: boolean('timed_enabled').notNull().default(true),
  intervalHours: integer('interval_hours').notNull().default(1),
  updatedAt: updatedAt(),
});
