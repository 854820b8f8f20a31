import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
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
