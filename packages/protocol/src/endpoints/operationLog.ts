import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { pageSchema } from '../validation.js';
import { endpoint } from './common.js';

/**
 * Operation log (/report/operationLog) and its Excel export. Served by the server's
 * operationLog module.
 */

/** ISO date-time of a filter bound. */
const isoTime = z.iso.datetime({ offset: true });

/** Filters of the operation-log list and of its export. */
export const operationLogFilterSchema = z
  .object({
    /** Login account contains (case-insensitive). */
    account: z.string().max(64).optional(),
    module: z.string().max(64).optional(),
    action: z.string().max(64).optional(),
    /** Inclusive start and exclusive end of the time range. */
    from: isoTime.optional(),
    to: isoTime.optional(),
    /** Only the platform operator may name another enterprise; others get their own. */
    entId: z.string().max(64).optional(),
  })
  .strict();
export type OperationLogFilter = z.infer<typeof operationLogFilterSchema>;

export const operationLogSchema = z.object({
  id: z.string(),
  time: z.string(),
  accountId: z.string().nullable(),
  loginName: z.string(),
  entId: z.string(),
  entName: z.string(),
  module: z.string(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** The target's current name when it is an account or a department (null when unknown or gone). */
  targetName: z.string().nullable(),
  ip: z.string().nullable(),
  result: z.enum(['success', 'failure']),
});
export type OperationLogItem = z.infer<typeof operationLogSchema>;

export const exportStatusSchema = z.object({
  exportId: z.string(),
  status: z.enum(['pending', 'running', 'done', 'failed']),
  processed: z.number(),
  total: z.number(),
  fileName: z.string(),
  /** When done: a short-lived signed URL of the file in the file storage (the download call streams the same file). */
  url: z.string().optional(),
});
export type ExportStatus = z.infer<typeof exportStatusSchema>;

const exportIdRequest = z.object({ exportId: z.string().min(1).max(64) }).strict();

/**
 * The two follow-up calls of an export a module starts (the operation log's export mechanism,
 * of that export kind): its progress and the finished workbook, named `<name>Status` /
 * `<name>Download` at `<path>Status.shtm` / `<path>Download.shtm` (`name` 'sales.orderExport',
 * `path` '/api/sales/order/export'), visible to the export's owner (`object`: its isolation kind).
 */
export function exportFollowUps(o: { name: string; path: string; permission: string; object: string }) {
  const scope = { object: o.object, kind: 'detail', idField: 'exportId', audience: 'owner' } as const;
  return {
    status: endpoint({
      name: `${o.name}Status`,
      path: `${o.path}Status.shtm`,
      auth: 'session',
      permission: o.permission,
      scope,
      errors: [ErrorCode.NOT_FOUND],
      /** The export's progress (the operation log's exportStatus, of this export kind). */
      request: exportIdRequest,
      response: exportStatusSchema,
    }),
    download: endpoint({
      name: `${o.name}Download`,
      path: `${o.path}Download.shtm`,
      auth: 'session',
      permission: o.permission,
      scope,
      errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
      download: true,
      notForMonitor: true,
      /** The finished workbook (the operation log's exportDownload, of this export kind). */
      request: exportIdRequest,
      response: z.unknown(),
    }),
  };
}

const operationLogExport = exportFollowUps({
  name: 'operationLog.export',
  path: '/api/operationLog/export',
  permission: Perm.reportOperationLog,
  object: 'logExport',
});

export const operationLogEndpoints = {
  operationLogList: endpoint({
    name: 'operationLog.list',
    path: '/api/operationLog/list.shtm',
    auth: 'session',
    scope: { object: 'operationLog', kind: 'list' },
    permission: Perm.reportOperationLog,
    request: pageSchema.extend(operationLogFilterSchema.shape).strict(),
    response: z.object({ total: z.number(), data: z.array(operationLogSchema) }),
  }),
  operationLogOptions: endpoint({
    name: 'operationLog.options',
    path: '/api/operationLog/options.shtm',
    auth: 'session',
    scope: { object: 'operationLog', kind: 'list' },
    permission: Perm.reportOperationLog,
    request: z.object({}).strict(),
    response: z.object({
      modules: z.array(z.string()),
      actions: z.array(z.string()),
      /** Enterprises the caller may filter by (only the platform operator gets any). */
      enterprises: z.array(z.object({ value: z.string(), label: z.string() })),
    }),
  }),
  operationLogExportStart: endpoint({
    name: 'operationLog.exportStart',
    path: '/api/operationLog/exportStart.shtm',
    auth: 'session',
    permission: Perm.reportOperationLog,
    mutation: true,
    notForMonitor: true,
    request: operationLogFilterSchema,
    response: exportStatusSchema,
  }),
  operationLogExportStatus: operationLogExport.status,
  operationLogExportDownload: operationLogExport.download,
} as const;
