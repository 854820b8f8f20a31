import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { devices } from './devices.js';

/**
 * Audience figures devices report with their heartbeats (device protocol `audience`), added
 * up per device, hour, age band (spec section 9) and gender. Only what devices report.
 */
export const deviceAudienceHourly = pgTable(
  'device_audience_hourly',
  {
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    entId: text('ent_id').notNull(),
    /** The hour (UTC, truncated) the counts were received in. */
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    band: text('band').notNull(),
    gender: text('gender').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.hour, t.band, t.gender] }),
    check('device_audience_gender_check', sql`${t.gender} in ('male', 'female', 'unknown')`),
    index('device_audience_ent_hour_idx').on(t.entId, t.hour),
  ],
);
