import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { enterprises } from './tenancy.js';

/**
 * Third-party monitoring (issue 30): a plan asks a monitor account (granted by the enterprise,
 * monitor_grants) to photograph some ads on some screens over some dates; it becomes one task
 * per screen; each task's photographs carry their time, position and the checks against the
 * screen's position and schedule.
 */

export const MONITOR_TASK_STATES = ['pendingView', 'pending', 'completed', 'notCompleted', 'overdue'] as const;
export type MonitorTaskState = (typeof MONITOR_TASK_STATES)[number];

export const monitorPlans = pgTable(
  'monitor_plans',
  {
    id: id(),
    /** The enterprise of the screens. */
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deptId: text('dept_id'),
    /** Who made it: an advertiser (its ads) or the operator's staff. */
    ownerId: text('owner_id').references(() => accounts.id),
    name: text('name').notNull(),
    monitorAccountId: text('monitor_account_id')
      .notNull()
      .references(() => accounts.id),
    adIds: jsonb('ad_ids').$type<string[]>().notNull(),
    deviceIds: jsonb('device_ids').$type<string[]>().notNull(),
    /** UTC dates, both included. */
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    photosRequired: integer('photos_required').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('monitor_plans_ent_created_idx').on(t.entId, t.createdAt)],
);

export const monitorTasks = pgTable(
  'monitor_tasks',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    planId: text('plan_id')
      .notNull()
      .references(() => monitorPlans.id, { onDelete: 'cascade' }),
    /** Copied from the plan: data scope reads them. */
    deptId: text('dept_id'),
    ownerId: text('owner_id'),
    deviceId: text('device_id').notNull(),
    monitorAccountId: text('monitor_account_id')
      .notNull()
      .references(() => accounts.id),
    state: text('state').$type<MonitorTaskState>().notNull().default('pendingView'),
    closed: boolean('closed').notNull().default(false),
    /** The end of the plan's last day (UTC): not completed by then, the task is overdue. */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    viewedAt: timestamp('viewed_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'monitor_tasks_state_check',
      sql`${t.state} in ('pendingView', 'pending', 'completed', 'notCompleted', 'overdue')`,
    ),
    index('monitor_tasks_ent_plan_idx').on(t.entId, t.planId),
    index('monitor_tasks_monitor_idx').on(t.monitorAccountId, t.createdAt),
    index('monitor_tasks_due_idx').on(t.dueAt).where(sql`${t.state} in ('pendingView', 'pending') and not ${t.closed}`),
  ],
);

export const monitorPhotos = pgTable(
  'monitor_photos',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    taskId: text('task_id')
      .notNull()
      .references(() => monitorTasks.id, { onDelete: 'cascade' }),
    /** The storage key (an enterprise key of entId). */
    key: text('key').notNull(),
    /** uploading: signed, not verified; ready: stored and checked. */
    status: text('status').notNull().default('uploading'),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull().default(0),
    /** When and where it was taken: the picture's EXIF when it has it, else the browser's. */
    takenAt: timestamp('taken_at', { withTimezone: true }),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** exif, browser or none. */
    source: text('source').notNull().default('none'),
    /** The browser's values, kept until the file is checked. */
    browserTakenAt: timestamp('browser_taken_at', { withTimezone: true }),
    browserLatitude: doublePrecision('browser_latitude'),
    browserLongitude: doublePrecision('browser_longitude'),
    /** Metres from the screen's position; null when either is unknown. */
    distanceM: integer('distance_m'),
    far: boolean('far').notNull().default(false),
    /** Whether an ad of the plan was scheduled on the screen when it was taken (null: no time). */
    scheduled: boolean('scheduled'),
    uploadedBy: text('uploaded_by').references(() => accounts.id),
    createdAt: createdAt(),
  },
  (t) => [index('monitor_photos_task_idx').on(t.taskId, t.createdAt)],
);
