import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { enterprises } from './tenancy.js';

export type OperationResult = 'success' | 'failure';

/**
 * The operation log: one row per mutation, written in the mutation's own transaction.
 * Account, login name and the target's name are copied, not only referenced, so the log
 * outlives what it names.
 */
export const operationLogs = pgTable(
  'operation_logs',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    accountId: text('account_id'),
    /** The actor's current department when acting: the department data scopes filter on. */
    deptId: text('dept_id'),
    loginName: text('login_name').notNull().default(''),
    module: text('module').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** The target as a person reads it, copied when the entry is written (survives renames and deletes). */
    targetName: text('target_name'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    traceKey: text('trace_key'),
    endpoint: text('endpoint'),
    result: text('result').$type<OperationResult>().notNull().default('success'),
    createdAt: createdAt(),
  },
  (t) => [
    check('operation_logs_result_check', sql`${t.result} in ('success', 'failure')`),
    index('operation_logs_ent_created_idx').on(t.entId, t.createdAt),
    index('operation_logs_ent_account_created_idx').on(t.entId, t.accountId, t.createdAt),
    index('operation_logs_ent_module_created_idx').on(t.entId, t.module, t.createdAt),
    index('operation_logs_ent_dept_created_idx').on(t.entId, t.deptId, t.createdAt),
    index('operation_logs_created_idx').on(t.createdAt),
  ],
);

export type ExportStatus = 'pending' | 'running' | 'done' | 'failed';

/**
 * Background Excel exports (the operation log's, the device list's...). Only the account that started one may
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
    /** What is exported (an export source of modules/operationLog/exportJob.ts): 'operationLog', 'device'. */
    kind: text('kind').notNull().default('operationLog'),
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
