import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { devices } from './devices.js';
import { enterprises } from './tenancy.js';

/**
 * IoT data cards and the data they carry (issue 27, modules/flow). A card belongs to an
 * enterprise, is bound to at most one device (and a device holds at most one card), moves
 * through the states of spec section 4 (CARD_TRANSITIONS), and gets its package from the
 * market (package_mb, expires_at, activated_at are written by the market's effect).
 */
export const iotCards = pgTable(
  'iot_cards',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    /** Upper case; unique across the platform (a SIM exists once). */
    iccid: text('iccid').notNull(),
    operator: text('operator').$type<'chinaMobile' | 'chinaUnicom' | 'chinaTelecom' | 'other'>().notNull(),
    state: text('state')
      .$type<'toActivate' | 'activated' | 'suspended' | 'cancelled' | 'stock' | 'testable' | 'lapsed'>()
      .notNull()
      .default('stock'),
    deviceId: text('device_id').references(() => devices.id),
    packageName: text('package_name'),
    packageMb: integer('package_mb'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    remark: text('remark').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'iot_cards_state_check',
      sql`${t.state} in ('toActivate', 'activated', 'suspended', 'cancelled', 'stock', 'testable', 'lapsed')`,
    ),
    uniqueIndex('iot_cards_iccid_key').on(t.iccid),
    uniqueIndex('iot_cards_device_key').on(t.deviceId).where(sql`${t.deviceId} is not null`),
    index('iot_cards_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id),
    index('iot_cards_ent_state_idx').on(t.entId, t.state),
  ],
);
export type IotCardRow = typeof iotCards.$inferSelect;

/**
 * The usage samples a device uploaded (POST /dapi/v1/usage), kept to count each once by
 * (UTC day of start, id) like plays; pruned after PLAYS_MAX_AGE_DAYS (a replay older than that
 * is rejected anyway).
 */
export const flowSamples = pgTable(
  'flow_samples',
  {
    day: date('day', { mode: 'string' }).notNull(),
    id: text('id').notNull(),
    deviceId: text('device_id').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.day, t.id] }), index('flow_samples_received_idx').on(t.receivedAt)],
);

/**
 * Bytes per enterprise, UTC+8 day, device and card (the card bound to the device, or named by
 * the sample's ICCID, when the sample arrived; '' for none), summed as samples arrive. The
 * consumption report reads it; flow_ent_days has the enterprise's total per day for the chart.
 */
export const flowDays = pgTable(
  'flow_days',
  {
    entId: text('ent_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    deviceId: text('device_id').notNull(),
    /** '' when the device had no card. */
    cardId: text('card_id').notNull().default(''),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.entId, t.day, t.deviceId, t.cardId] }),
    // The consumption report's order: newest day, heaviest use first (flow/repository.ts usagePage).
    index('flow_days_ent_day_bytes_idx').on(t.entId, t.day.desc(), t.bytes.desc(), t.deviceId, t.cardId),
    index('flow_days_card_day_idx').on(t.cardId, t.day),
    index('flow_days_device_day_idx').on(t.deviceId, t.day),
  ],
);

export const flowEntDays = pgTable(
  'flow_ent_days',
  {
    entId: text('ent_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.entId, t.day] })],
);
