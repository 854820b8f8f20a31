import { ErrorCode, type ExportStatus, type OperationLogFilter } from '@marquee/protocol';
import type { Principal } from '../../auth/principal.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext, FileAnswer } from '../../protocol/handlers.js';
import { fillDays, registerStat } from '../home/stats.js';
import { EXPORT_JOB, EXPORT_MAX_ROWS, EXPORT_STALE_MS, type ExportSpec, exportKey, XLSX_TYPE } from './exportJob.js';
import { toExportStatus, toOperationLogItem } from './presenter.js';
import {
  countOperationLogs,
  enterpriseOptions,
  findOwnExport,
  insertExport,
  type LogReader,
  listOperationLogs,
  logCountsByDay,
  logOptions,
  logWhere,
  readsAllEnterprises,
  updateExport,
} from './repository.js';

// Home page figure (issue 8): the entries of the caller's log per day, over the trend's days.
registerStat({
  key: 'operations',
  async trend(db, caller, window) {
    const counts = await logCountsByDay(
      db,
      logWhere(readerOf(caller), { from: window.from.toISOString() }),
      window.utcOffset,
    );
    return fillDays(window, counts);
  },
});

function readerOf(user: Principal): LogReader {
  return {
    entId: user.entId,
    entKind: user.entKind,
    accountId: user.accountId,
    deptId: user.deptId,
    deptPath: user.deptPath,
    dataScope: user.dataScope,
  };
}

/** One page of the operation log the caller may see, newest first. */
export async function listLogs(input: OperationLogFilter & { page: number; size: number }, ctx: CallContext) {
  const { page, size, ...filter } = input;
  const { total, rows } = await listOperationLogs(ctx.db, logWhere(readerOf(ctx.user), filter), { page, size });
  return { total, data: rows.map(toOperationLogItem) };
}

/** Values for the filter selects: modules and actions in the caller's view of the log. */
export async function logFilterOptions(ctx: CallContext) {
  const reader = readerOf(ctx.user);
  const [{ modules, actions }, enterprises] = await Promise.all([
    logOptions(ctx.db, logWhere(reader, {})),
    readsAllEnterprises(reader) ? enterpriseOptions(ctx.db) : Promise.resolve([]),
  ]);
  return { modules, actions, enterprises };
}

/** `<prefix>-YYYYMMDDHHmmss.xlsx` (UTC). */
export function exportFileName(prefix: string, now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}`;
  return `${prefix}-${stamp}.xlsx`;
}

/**
 * Starts a background export of any kind with a registered source (exportJob.ts): the
 * export row, its operation-log entry and the export job are written in the call's
 * transaction; any instance that runs jobs produces the file (this one is woken at once).
 * `filters` is what the source reads back, with the export's `language`.
 */
export async function beginExport(
  ctx: CallContext,
  input: {
    kind: string;
    filters: Record<string, unknown> & { language: string };
    fileName: string;
    /** Rows the export will hold (for its progress). */
    count: () => Promise<number>;
    module: string;
    detail: Record<string, unknown>;
  },
): Promise<ExportStatus> {
  const row = await insertExport(ctx.db, {
    entId: ctx.user.entId,
    accountId: ctx.user.accountId,
    kind: input.kind,
    filters: input.filters,
    fileName: input.fileName,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.audit({
    module: input.module,
    action: 'export',
    targetType: 'export',
    targetId: row.id,
    targetName: row.fileName,
    detail: input.detail,
  });
  const total = Math.min(await input.count(), EXPORT_MAX_ROWS);
  await updateExport(ctx.db, row.id, { total });
  const jobs = ctx.services.jobs;
  await jobs.send(EXPORT_JOB, { exportId: row.id }, ctx.db);
  ctx.afterCommit(() => jobs.wake(EXPORT_JOB));
  return toExportStatus({ ...row, total });
}

/** Starts a background export of the filtered log. */
export async function startExport(filter: OperationLogFilter, ctx: CallContext): Promise<ExportStatus> {
  const spec: ExportSpec = {
    reader: readerOf(ctx.user),
    filter,
    until: ctx.now.toISOString(),
    language: ctx.language,
  };
  return beginExport(ctx, {
    kind: 'operationLog',
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName('operation-log', ctx.now),
    count: () => countOperationLogs(ctx.db, logWhere(spec.reader, filter, ctx.now)),
    module: 'operationLog',
    detail: { filter },
  });
}

/** The caller's own export of this kind (another account's, or an unknown id, is NOT_FOUND). */
async function ownExport(exportId: string, ctx: CallContext, kind: string) {
  const row = await findOwnExport(ctx.db, ctx.user, exportId, kind);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  // The queue runs a job again when its instance dies; one without progress after every
  // run it allows would never finish: fail it instead of polling forever.
  const stale =
    (row.status === 'pending' || row.status === 'running') && Date.now() - row.updatedAt.getTime() > EXPORT_STALE_MS;
  if (stale) {
    await updateExport(ctx.db, row.id, { status: 'failed', error: 'interrupted', finishedAt: new Date() });
    return { ...row, status: 'failed' as const };
  }
  return row;
}

export async function exportStatus(
  input: { exportId: string },
  ctx: CallContext,
  kind = 'operationLog',
): Promise<ExportStatus> {
  const row = await ownExport(input.exportId, ctx, kind);
  // A finished file is also reachable by a short-lived signed URL of the file storage.
  const url = row.status === 'done' ? ctx.services.files.signedUrl(exportKey(row.entId, row.id)) : undefined;
  return { ...toExportStatus(row), ...(url ? { url } : {}) };
}

/** The finished file, streamed from the file storage under its server file name. */
export async function exportDownload(
  input: { exportId: string },
  ctx: CallContext,
  kind = 'operationLog',
): Promise<FileAnswer> {
  const row = await ownExport(input.exportId, ctx, kind);
  if (row.status !== 'done') throw new AppError(ErrorCode.CONFLICT);
  const opened = await ctx.services.files.open(row.entId, exportKey(row.entId, row.id));
  if (!opened) throw new AppError(ErrorCode.NOT_FOUND);
  return { fileName: row.fileName, contentType: XLSX_TYPE, data: opened.body };
}
