import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * Proof-of-play rollups (issue 13): what the reports read, never the raw `plays` (hand DDL in
 * 0026, partitioned by day). The play-rollups job (modules/content/rollups.ts) folds new plays
 * in by recomputing each (day, device) they touch, so a run is idempotent. `ad_id` and
 * `material_id` are '' where a play had none (a key column cannot be null). Days and hours
 * are UTC, as the partitions are.
 */
const counts = () => ({
  plays: integer('plays').notNull(),
  completed: integer('completed').notNull(),
  durationMs: bigint('duration_ms', { mode: 'number' }).notNull(),
});

export const playRollupsHourly = pgTable(
  'play_rollups_hourly',
  {
    day: date('day', { mode: 'string' }).notNull(),
    hour: smallint('hour').notNull(),
    entId: text('ent_id').notNull(),
    deviceId: text('device_id').notNull(),
    adId: text('ad_id').notNull(),
    materialId: text('material_id').notNull(),
    ...counts(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.deviceId, t.hour, t.adId, t.materialId] }),
    // Covering (INCLUDE hour, plays) by hand DDL in 0029: the reports' hourly profile reads it index-only.
    index('play_rollups_hourly_ent_ad_day_idx').on(t.entId, t.adId, t.day),
    check('play_rollups_hourly_hour_check', sql`${t.hour} between 0 and 23`),
  ],
);

export const playRollupsDaily = pgTable(
  'play_rollups_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    entId: text('ent_id').notNull(),
    deviceId: text('device_id').notNull(),
    adId: text('ad_id').notNull(),
    materialId: text('material_id').notNull(),
    ...counts(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.deviceId, t.adId, t.materialId] }),
    // Covering (INCLUDE device_id, material_id and the counts) by hand DDL in 0029: the ad reports read it index-only.
    index('play_rollups_daily_ent_ad_day_idx').on(t.entId, t.adId, t.day),
    index('play_rollups_daily_ent_day_idx').on(t.entId, t.day),
  ],
);

/**
 * Per ad and day (issue 13): the sums of its play_rollups_daily rows and `devices`, the distinct
 * devices that played it that day. The ad reports' headline figures, days and trend read it
 * instead of a campaign's per-device rows; the play-rollups job recomputes the (ad, day) rows
 * its (day, device) pairs touch, in the same transaction.
 */
export const playRollupsAdDaily = pgTable(
  'play_rollups_ad_daily',
  {
    entId: text('ent_id').notNull(),
    adId: text('ad_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    ...counts(),
    devices: integer('devices').notNull(),
    /** Plays per UTC hour 0..23 of the day (the sums of its hourly rows): the reports' hourly profile. */
    hourPlays: integer('hour_plays').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.entId, t.adId, t.day] })],
);

/** How far each incremental job has read (by `plays.received_at`): one row per job. */
export const rollupWatermarks = pgTable('rollup_watermarks', {
  name: text('name').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The reconciliation of proof of play per screen and UTC day (issue 30): what the schedule
 * expected of the ads reaching the screen (the reports' ExpectedModel) beside the completed
 * plays of those ads (play_rollups_daily). Written by the `delivery-reconcile` job for the day
 * before (and recomputed each hour while late plays arrive); the warning centre's
 * `underDelivering` rule reads it by (ent_id, day).
 */
export const deliveryDays = pgTable(
  'delivery_days',
  {
    deviceId: text('device_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    entId: text('ent_id').notNull(),
    expected: integer('expected').notNull(),
    delivered: integer('delivered').notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.day] }), index('delivery_days_ent_day_idx').on(t.entId, t.day)],
);
