import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id } from './columns.js';
import { enterprises } from './tenancy.js';

/** Notice type 'system' carries platform workflows such as monitor applications. */
export const NOTICE_TYPE_SYSTEM = 'system';

/**
 * Notices shown in the header. `ent_id` null means platform-wide (every enterprise sees it).
 * `content` is HTML sanitised on write.
 */
export const notices = pgTable(
  'notices',
  {
    id: id(),
    entId: text('ent_id').references(() => enterprises.id),
    type: text('type').notNull().default('general'),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    /** 1 = the web console; other platforms (apps) come later. */
    pushPlatform: integer('push_platform').notNull().default(1),
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
  },
  (t) => [index('notices_ent_platform_created_idx').on(t.entId, t.pushPlatform, t.createdAt)],
);

export type MonitorApplicationStatus = 'pending' | 'agreed' | 'refused';

/** A third-party monitor's request to monitor an enterprise, answered from a system notice. */
export const monitorApplications = pgTable(
  'monitor_applications',
  {
    id: id(),
    /** The enterprise asked to agree. */
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    noticeId: text('notice_id')
      .notNull()
      .references(() => notices.id),
    applicantAccountId: text('applicant_account_id')
      .notNull()
      .references(() => accounts.id),
    status: text('status').$type<MonitorApplicationStatus>().notNull().default('pending'),
    decidedBy: text('decided_by').references(() => accounts.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('monitor_applications_status_check', sql`${t.status} in ('pending', 'agreed', 'refused')`),
    index('monitor_applications_ent_notice_idx').on(t.entId, t.noticeId),
    index('monitor_applications_ent_status_idx').on(t.entId, t.status),
  ],
);

/** Monitor accounts an enterprise agreed to let in; later modules read it for access. */
export const monitorGrants = pgTable(
  'monitor_grants',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    monitorAccountId: text('monitor_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    applicationId: text('application_id')
      .notNull()
      .references(() => monitorApplications.id),
    grantedBy: text('granted_by').references(() => accounts.id),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('monitor_grants_ent_account_key').on(t.entId, t.monitorAccountId)],
);

/**
 * Station letters: short messages in the header banner, for an enterprise or one account.
 * A letter is a kind and its parameters (facts); the text is rendered in the reader's
 * language by the kind's rule (modules/stationLetter/rules.ts) when it is read.
 */
export const stationLetters = pgTable(
  'station_letters',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    accountId: text('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, string | number>>().notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('station_letters_ent_account_idx').on(t.entId, t.accountId, t.createdAt)],
);
