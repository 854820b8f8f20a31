import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { enterprises } from './tenancy.js';

export type ExportStatus = 'pending' | 'running' | 'done' | 'failed';

/**
 * Background Excel exports of the operation log. Only the account that started one may
 * read its status or download its file; the file lives under `<dataDir>/exports/`.
 */
export const operationLogExports = pgTable(
  'operation_log_exports',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The list filters the export was started with, resolved against the caller's scope. */
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').$type<ExportStatus>().notNull().default('pending'),
    processed: integer('processed').notNull().default(0),
    total: integer('total').notNull().default(0),
    /** The name the browser saves the file under. */
    fileName: text('file_name').notNull(),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('operation_log_exports_status_check', sql`${t.status} in ('pending', 'running', 'done', 'failed')`),
    index('operation_log_exports_account_idx').on(t.accountId, t.createdAt),
  ],
);

/**
 * Accounts of an operator enterprise that are advertisers (/user/adv). The account row keeps
 * login, name, phone and status; this row marks it as an advertiser of the enterprise.
 */
export const advertisers = pgTable(
  'advertisers',
  {
    accountId: text('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [index('advertisers_ent_created_idx').on(t.entId, t.createdAt)],
);

/** Which operators and staff of the enterprise look after which advertisers (/user/allot). */
export const advertiserAssignments = pgTable(
  'advertiser_assignments',
  {
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    advertiserAccountId: text('advertiser_account_id')
      .notNull()
      .references(() => advertisers.accountId, { onDelete: 'cascade' }),
    staffAccountId: text('staff_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.entId, t.advertiserAccountId, t.staffAccountId] }),
    index('advertiser_assignments_ent_staff_idx').on(t.entId, t.staffAccountId),
  ],
);
