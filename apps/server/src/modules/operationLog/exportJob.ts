import { PassThrough } from 'node:stream';
import { formatTime, type OperationLogFilter, operationLogWord } from '@marquee/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../../services.js';
import { enterpriseKey } from '../../storage/storage.js';
import { deleteExportsBefore, findExport, type LogReader, logWhere, nextLogBatch, updateExport } from './repository.js';

/** Rows read and written per batch; progress is stored after each. */
export const EXPORT_BATCH = 1000;
/** An Excel sheet holds 1,048,576 rows; an export stops at one million. */
export const EXPORT_MAX_ROWS = 1_000_000;
/** The queue's id of the export job (src/jobs). */
export const EXPORT_JOB = 'operation-log-export';
/** A run of the export job taking longer than this counts as lost (its instance died) and runs again. */
export const EXPORT_EXPIRE_SECONDS = 10 * 60;
/** Runs after the first that a failure or a dead instance allows. */
export const EXPORT_RETRY_LIMIT = 2;
/**
 * A pending or running export without progress for this long is failed when asked about:
 * every run the queue allows has expired by then (or no instance runs jobs).
 */
export const EXPORT_STALE_MS = (EXPORT_RETRY_LIMIT + 1) * EXPORT_EXPIRE_SECONDS * 1000 + 5 * 60_000;
/** Exports (rows and files) are kept this long, then removed by the `prune-exports` job. */
export const EXPORT_KEEP_MS = 7 * 86_400_000;

/** What the operation log's export needs to run again the query it was started with. */
export interface ExportSpec {
  reader: LogReader;
  filter: OperationLogFilter;
  /** Entries after the start are not exported (a stable snapshot however long it runs). */
  until: string;
  language: string;
}

const HEADERS: Record<string, string[]> = {
  'zh-CN': ['时间', '账号', '企业', '模块', '操作', '对象类型', '对象', '地址', '结果'],
  'en-US': ['Time', 'Account', 'Enterprise', 'Module', 'Action', 'Target type', 'Target', 'Address', 'Result'],
  ja: ['日時', 'アカウント', '企業', 'モジュール', '操作', '対象の種類', '対象', 'アドレス', '結果'],
};
const SHEET_NAMES: Record<string, string> = { 'zh-CN': '操作日志', 'en-US': 'Operation log', ja: '操作ログ' };
const RESULTS: Record<string, Record<string, string>> = {
  'zh-CN': { success: '成功', failure: '失败' },
  'en-US': { success: 'Success', failure: 'Failure' },
  ja: { success: '成功', failure: '失敗' },
};

/** The storage key of an export's workbook (the file storage, local disk or S3: src/storage). */
export function exportKey(entId: string, exportId: string): string {
  return enterpriseKey(entId, 'exports', `${exportId}.xlsx`);
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * What one kind of export writes (the operation log's, the device list's...): the sheet's
 * name and columns in the export's language (`filters.language`), and its rows in batches. A module registers its
 * source once (`registerExportSource`); the export row's `kind` names it, and the one job
 * below writes any kind the same way.
 */
export interface ExportSource {
  /** The sheet's name in the export's language (`filters`: a source writing several sheets of one kind picks by them). */
  sheetName(language: string, filters: Record<string, unknown>): string;
  /** Column headers and widths in the export's language. */
  columns(language: string, filters: Record<string, unknown>): { header: string; width: number }[];
  /**
   * The rows, batch after batch (at most `limit` each), from the filters the export was
   * started with (`filters` of the export row).
   */
  batches(services: AppServices, filters: Record<string, unknown>, limit: number): AsyncIterable<unknown[][]>;
  /** Further sheets after the first, in order (the settlement export's screen-days), each like the first. */
  moreSheets?(language: string, filters: Record<string, unknown>): Omit<ExportSource, 'moreSheets'>[];
}

const sources = new Map<string, ExportSource>();

/** Registers the source of an export kind (once, at module load). */
export function registerExportSource(kind: string, source: ExportSource): void {
  sources.set(kind, source);
}

// The operation log's own export.
registerExportSource('operationLog', {
  sheetName: (language) => SHEET_NAMES[language] ?? SHEET_NAMES['zh-CN'],
  columns(language) {
    const headers = HEADERS[language] ?? HEADERS['zh-CN'];
    return [20, 20, 28, 16, 16, 16, 38, 18, 10].map((width, i) => ({ header: headers[i], width }));
  },
  async *batches(services, filters, limit) {
    const spec = filters as unknown as ExportSpec;
    const where = logWhere(spec.reader, spec.filter, new Date(spec.until));
    const results = RESULTS[spec.language] ?? RESULTS['zh-CN'];
    // The page's words (the protocol's OPERATION_LOG_WORDS), in the language of the caller who started it.
    const label = (kind: 'module' | 'action' | 'target', code: string | null) =>
      code ? operationLogWord(kind, code, spec.language) : '';
    let after: { createdAt: Date; id: string } | null = null;
    for (;;) {
      const batch = await nextLogBatch(services.db, where, after, limit);
      if (batch.length === 0) return;
      yield batch.map((row) => [
        formatTime(row.createdAt),
        row.loginName,
        row.entName,
        label('module', row.module),
        label('action', row.action),
        label('target', row.targetType),
        row.targetName ?? row.targetId ?? '',
        row.ip ?? '',
        results[row.result] ?? row.result,
      ]);
      const last = batch[batch.length - 1];
      after = { createdAt: last.createdAt, id: last.id };
    }
  },
});

/**
 * The export job: writes the export's .xlsx with exceljs's streaming writer: rows are read
 * in batches from the export's source and committed to the file as they come, so memory
 * stays flat for 100k rows and more. Progress goes to the export row after each batch. Any
 * instance with jobs on may run it; a run that was cut off (its instance died) starts again
 * from the top. A failure is thrown for the queue to retry, and marks the export failed on
 * the last run.
 */
export async function runExport(
  services: AppServices,
  exportId: string,
  log: FastifyBaseLogger,
  lastRun: boolean,
): Promise<void> {
  const row = await findExport(services.db, exportId);
  if (!row || row.status === 'done' || row.status === 'failed') return;
  const key = exportKey(row.entId, exportId);
  // The workbook streams into the storage as it is written; a failure leaves no object.
  const out = new PassThrough();
  let stored: Promise<unknown> | null = null;
  try {
    const source = sources.get(row.kind);
    if (!source) throw new Error(`no export source of kind ${row.kind}`);
    const filters = row.filters;
    const language = typeof filters.language === 'string' ? filters.language : 'zh-CN';
    await updateExport(services.db, exportId, { status: 'running', processed: 0 });
    // exceljs is the largest package of the server (~0.3 s to load): only an export loads it.
    const { default: ExcelJS } = await import('exceljs');
    stored = services.files.storage.put(key, out, { contentType: XLSX_TYPE });
    // A failed put (storage down) ends the writing too, rather than filling a pipe nobody reads.
    stored.catch((error) => out.destroy(error));
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet(source.sheetName(language, filters));
    sheet.columns = source.columns(language, filters);
    sheet.getRow(1).font = { bold: true };
    let processed = 0;
    for await (const batch of source.batches(services, filters, EXPORT_BATCH)) {
      const take = batch.slice(0, EXPORT_MAX_ROWS - processed);
      for (const values of take) sheet.addRow(values).commit();
      processed += take.length;
      await updateExport(services.db, exportId, { processed });
      if (processed >= EXPORT_MAX_ROWS) break;
    }
    sheet.commit();
    for (const more of source.moreSheets?.(language, filters) ?? []) {
      const extra = workbook.addWorksheet(more.sheetName(language, filters));
      extra.columns = more.columns(language, filters);
      extra.getRow(1).font = { bold: true };
      for await (const batch of more.batches(services, filters, EXPORT_BATCH)) {
        const take = batch.slice(0, EXPORT_MAX_ROWS - processed);
        for (const values of take) extra.addRow(values).commit();
        processed += take.length;
        await updateExport(services.db, exportId, { processed });
        if (processed >= EXPORT_MAX_ROWS) break;
      }
      extra.commit();
    }
    await workbook.commit();
    await stored;
    await updateExport(services.db, exportId, { status: 'done', processed, finishedAt: new Date() });
  } catch (error) {
    log.error({ err: error, exportId, lastRun }, 'export failed');
    out.destroy(error as Error);
    await stored?.catch(() => {});
    await services.files.storage.delete(key).catch(() => {});
    if (lastRun) {
      await updateExport(services.db, exportId, {
        status: 'failed',
        error: String((error as Error)?.message ?? error).slice(0, 500),
        finishedAt: new Date(),
      }).catch(() => {});
    }
    throw error;
  }
}

/** Removes exports older than EXPORT_KEEP_MS with their files (the `prune-exports` job). */
export async function pruneExports(services: AppServices, log: FastifyBaseLogger): Promise<void> {
  const rows = await deleteExportsBefore(services.db, new Date(services.clock() - EXPORT_KEEP_MS));
  await services.files.deleteMany(rows.map((r) => exportKey(r.entId, r.id)));
  log.debug({ deleted: rows.length }, 'old operation-log exports pruned');
}
