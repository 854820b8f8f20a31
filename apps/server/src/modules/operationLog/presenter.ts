import type { ExportStatus, OperationLogItem } from '@marquee/protocol';
import type { ExportRow, OperationLogListRow } from './repository.js';

export function toOperationLogItem(row: OperationLogListRow): OperationLogItem {
  return {
    id: row.id,
    time: row.createdAt.toISOString(),
    accountId: row.accountId,
    loginName: row.loginName,
    entId: row.entId,
    entName: row.entName,
    module: row.module,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    targetName: row.targetName ?? null,
    ip: row.ip,
    result: row.result,
  };
}

export function toExportStatus(row: ExportRow): ExportStatus {
  return {
    exportId: row.id,
    status: row.status,
    processed: row.processed,
    total: row.total,
    fileName: row.fileName,
  };
}
