import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { accounts, type OperationResult, operationLogs } from '../db/schema/index.js';

// The write side of the operation log, beneath the modules: the pipeline's ctx.audit and the
// demo seed write through it; modules/operationLog reads the log.

export interface OperationLogRow {
  entId: string;
  accountId: string | null;
  loginName: string;
  module: string;
  action: string;
  targetType?: string;
  targetId?: string;
  targetName?: string;
  detail?: Record<string, unknown>;
  ip: string;
  traceKey: string;
  endpoint: string;
  result: OperationResult;
  createdAt: Date;
}

/**
 * Writes one log row. The actor's current department is copied from the account in the same
 * statement, so department data scopes can filter the log without a join (and the entry keeps
 * the department the actor worked in, even after they move).
 */
export async function insertOperationLog(db: Executor, row: OperationLogRow): Promise<void> {
  const deptId = row.accountId
    ? sql`(select ${accounts.currentDeptId} from ${accounts} where ${accounts.id} = ${row.accountId})`
    : null;
  await db.insert(operationLogs).values({
    ...row,
    deptId: deptId as unknown as string | null,
    targetType: row.targetType ?? null,
    targetId: row.targetId ?? null,
    targetName: row.targetName ?? null,
    detail: row.detail ?? {},
  });
}
