import type { Executor } from '../../db/client.js';
import { type OperationResult, operationLogs } from '../../db/schema/index.js';

export interface OperationLogRow {
  entId: string;
  accountId: string | null;
  loginName: string;
  module: string;
  action: string;
  targetType?: string;
  targetId?: string;
  detail?: Record<string, unknown>;
  ip: string;
  traceKey: string;
  endpoint: string;
  result: OperationResult;
  createdAt: Date;
}

export async function insertOperationLog(db: Executor, row: OperationLogRow): Promise<void> {
  await db.insert(operationLogs).values({
    ...row,
    targetType: row.targetType ?? null,
    targetId: row.targetId ?? null,
    detail: row.detail ?? {},
  });
}
