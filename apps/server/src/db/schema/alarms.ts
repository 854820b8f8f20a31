import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { devices } from './devices.js';
import { enterprises } from './tenancy.js';

/**
 * One-key alarms (issue 30, modules/alarms; docs/ARCHITECTURE.md "One-key alarms"): regions
 * (map regions by province/city/district code, and/or drawn groupings of devices) with their
 * contacts, the events devices raise (docs/device-protocol.md 2.10) and each event's timeline.
 */

export type AlarmEventState = 'raised' | 'acknowledged' | 'handled' | 'closed';
export type AlarmStepKind = 'raised' | 'notified' | 'acknowledged' | 'handled' | 'closed';

export const alarmRegions = pgTable(
  'alarm_regions',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    name: text('name').notNull(),
    /** Province, city or district codes of the device map (modules/geo): their devices belong. */
    regionCodes: jsonb('region_codes').$type<string[]>().notNull().default([]),
    /** Devices drawn into the region by hand, besides those of its codes. */
    deviceIds: jsonb('device_ids').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('alarm_regions_ent_name_key').on(t.entId, t.name)],
);

export const alarmContacts = pgTable(
  'alarm_contacts',
  {
    id: id(),
    regionId: text('region_id')
      .notNull()
      .references(() => alarmRegions.id, { onDelete: 'cascade' }),
    entId: text('ent_id').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('alarm_contacts_region_idx').on(t.regionId, t.sort)],
);

export const alarmEvents = pgTable(
  'alarm_events',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** The id the device chose (a UUID): the same event sent again is stored once. */
    clientId: text('client_id').notNull(),
    /** When the device raised it (its clock). */
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
    /** When the server stored it. */
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    state: text('state').$type<AlarmEventState>().notNull().default('raised'),
    /** The regions the device was in when the event arrived (names kept for the report). */
    regionIds: jsonb('region_ids').$type<string[]>().notNull().default([]),
    regionNames: jsonb('region_names').$type<string[]>().notNull().default([]),
    screenshotKey: text('screenshot_key'),
    screenshotType: text('screenshot_type'),
    screenshotWidth: integer('screenshot_width'),
    screenshotHeight: integer('screenshot_height'),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    note: text('note').notNull().default(''),
    /**
     * Who sends the contacts' notifications claims them first (the device's call at once, the
     * sweep job when that call did not finish): a claim older than ALARM_NOTIFY_LEASE_MS is taken over.
     */
    notifyClaimedAt: timestamp('notify_claimed_at', { withTimezone: true }),
    /** When the notifications were sent and recorded on the timeline (or nobody was to be told). */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('alarm_events_state_check', sql`${t.state} in ('raised', 'acknowledged', 'handled', 'closed')`),
    uniqueIndex('alarm_events_device_client_key').on(t.deviceId, t.clientId),
    index('alarm_events_ent_received_idx').on(t.entId, t.receivedAt.desc(), t.id),
    index('alarm_events_ent_open_idx').on(t.entId, t.receivedAt).where(sql`${t.state} <> 'closed'`),
    index('alarm_events_unnotified_idx').on(t.receivedAt).where(sql`${t.notifiedAt} is null`),
  ],
);

export const alarmSteps = pgTable(
  'alarm_steps',
  {
    id: id(),
    eventId: text('event_id')
      .notNull()
      .references(() => alarmEvents.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AlarmStepKind>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** The account who acted (acknowledged, handled, closed). */
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    note: text('note').notNull().default(''),
    /** A notification: to whom, by which channel, delivered or failed (and why). */
    contactName: text('contact_name'),
    target: text('target'),
    channel: text('channel'),
    outcome: text('outcome').$type<'delivered' | 'failed'>(),
    error: text('error'),
  },
  (t) => [
    check('alarm_steps_kind_check', sql`${t.kind} in ('raised', 'notified', 'acknowledged', 'handled', 'closed')`),
    index('alarm_steps_event_idx').on(t.eventId, t.at),
  ],
);
