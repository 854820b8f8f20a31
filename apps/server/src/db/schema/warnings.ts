import type { WarningKind, WarningLevel, WarningObjectType, WarningState } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { id } from './columns.js';
import { enterprises } from './tenancy.js';

/**
 * The warning centre (issue 30, modules/warnings; docs/ARCHITECTURE.md "The warning centre").
 * A warning is computed by the `warnings-evaluate` job from facts the system holds, never typed
 * in: one row per time a fact (kind) held for an object, open until someone acknowledges it and
 * resolved by the job when the fact stops holding. At most one unresolved warning per
 * (kind, object) (warnings_live_key), so the job's insert is idempotent.
 */
export const warnings = pgTable(
  'warnings',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    kind: text('kind').$type<WarningKind>().notNull(),
    level: text('level').$type<WarningLevel>().notNull(),
    objectType: text('object_type').$type<WarningObjectType>().notNull(),
    objectId: text('object_id').notNull(),
    /** The object's name when the warning opened (the list's keyword searches it). */
    objectName: text('object_name').notNull(),
    /** The device's department when the object is a device (null otherwise). */
    deptId: text('dept_id'),
    /** The fact's figures when it opened (e.g. expiry, failed downloads, percent used). */
    detail: jsonb('detail').$type<Record<string, string | number | null>>().notNull().default({}),
    /** Since when the fact holds (as the facts say, else when the job first saw it). */
    since: timestamp('since', { withTimezone: true }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    state: text('state').$type<WarningState>().notNull().default('open'),
    acknowledgedBy: text('acknowledged_by').references(() => accounts.id),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** When its notifications went out (null: not yet; never twice for one warning). */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [
    check('warnings_state_check', sql`${t.state} in ('open', 'acknowledged', 'resolved')`),
    check('warnings_level_check', sql`${t.level} in ('notice', 'warning', 'critical')`),
    // One live (unresolved) warning per fact and object: the job inserts with ON CONFLICT DO NOTHING.
    uniqueIndex('warnings_live_key').on(t.kind, t.objectId).where(sql`${t.state} <> 'resolved'`),
    // The list, newest first, per enterprise.
    index('warnings_ent_opened_idx').on(t.entId, t.openedAt.desc(), t.id),
    // Counts per kind of the live ones (page and home dashboard).
    index('warnings_ent_live_kind_idx').on(t.entId, t.kind).where(sql`${t.state} <> 'resolved'`),
    // Notifications still to send.
    index('warnings_unnotified_idx').on(t.openedAt).where(sql`${t.notifiedAt} is null`),
  ],
);
export type WarningRow = typeof warnings.$inferSelect;

/** Which accounts of the enterprise are notified of which kinds (the notification settings). */
export const warningRecipients = pgTable(
  'warning_recipients',
  {
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    kind: text('kind').$type<WarningKind>().notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.entId, t.kind, t.accountId] })],
);
