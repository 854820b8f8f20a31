import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { formatTime, type OperationLogFilter } from '@marquee/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { REPO_ROOT } from '../../config.js';
import type { AppServices } from '../../services.js';
import { deleteExportsBefore, type LogReader, logWhere, nextLogBatch, updateExport } from './repository.js';

/** Rows read and written per batch; progress is stored after each. */
export const EXPORT_BATCH = 1000;
/** An Excel sheet holds 1,048,576 rows; an export stops at one million. */
export const EXPORT_MAX_ROWS = 1_000_000;
/** A pending or running export whose process is gone is failed after this long without progress. */
export const EXPORT_STALE_MS = 2 * 60_000;
/** Exports (rows and files) are kept this long, then removed when a later export starts. */
export const EXPORT_KEEP_MS = 7 * 86_400_000;

/** What the job needs to run again the query the export was started with. */
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
const RESULTS: Record<string, Record<string, string>> = {
  'zh-CN': { success: '成功', failure: '失败' },
  'en-US': { success: 'Success', failure: 'Failure' },
  ja: { success: '成功', failure: '失敗' },
};

const labelCache = new Map<string, Record<string, string>>();

/**
 * The console's `operationLog` translations of one locale (module, action, target and result
 * labels), so the workbook reads like the page. One source of truth: the web's locale file;
 * when it is not there (a server deployed alone) the codes are written as they are.
 */
export function logLabels(language: string): Record<string, string> {
  const locale = ['zh-CN', 'en-US', 'ja'].includes(language) ? language : 'zh-CN';
  let labels = labelCache.get(locale);
  if (!labels) {
    try {
      labels = JSON.parse(
        readFileSync(join(REPO_ROOT, 'apps/web/src/i18n/locales', locale, 'operationLog.json'), 'utf8'),
      ) as Record<string, string>;
    } catch {
      labels = {};
    }
    labelCache.set(locale, labels);
  }
  return labels;
}

export function exportDir(services: AppServices): string {
  return join(services.config.dataDir, 'exports');
}

export function exportPath(services: AppServices, exportId: string): string {
  return join(exportDir(services), `${exportId}.xlsx`);
}

// Exports running in this process, per app (tests build several apps in one process).
const running = new WeakMap<AppServices, Set<string>>();

export function isRunningHere(services: AppServices, exportId: string): boolean {
  return running.get(services)?.has(exportId) ?? false;
}

/**
 * Writes the export's .xlsx with exceljs's streaming writer: rows are read in keyset batches
 * and committed to the file as they come, so memory stays flat for 100k rows and more.
 * Progress goes to the export row after each batch; failures mark it failed.
 */
export async function runExport(
  services: AppServices,
  exportId: string,
  spec: ExportSpec,
  log: FastifyBaseLogger,
): Promise<void> {
  let set = running.get(services);
  if (!set) {
    set = new Set();
    running.set(services, set);
  }
  set.add(exportId);
  const file = exportPath(services, exportId);
  try {
    await mkdir(exportDir(services), { recursive: true });
    await updateExport(services.db, exportId, { status: 'running' });
    const where = logWhere(spec.reader, spec.filter, new Date(spec.until));
    const headers = HEADERS[spec.language] ?? HEADERS['zh-CN'];
    const results = RESULTS[spec.language] ?? RESULTS['zh-CN'];
    const labels = logLabels(spec.language);
    const label = (kind: string, code: string | null) => (code ? (labels[`${kind}.${code}`] ?? code) : '');
    // exceljs is the largest package of the server (~0.3 s to load): only an export loads it.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: file,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet('Operation log');
    sheet.columns = [20, 20, 28, 16, 16, 16, 38, 18, 10].map((width, i) => ({ header: headers[i], width }));
    sheet.getRow(1).font = { bold: true };
    let after: { createdAt: Date; id: string } | null = null;
    let processed = 0;
    while (processed < EXPORT_MAX_ROWS) {
      const batch = await nextLogBatch(services.db, where, after, Math.min(EXPORT_BATCH, EXPORT_MAX_ROWS - processed));
      if (batch.length === 0) break;
      for (const row of batch) {
        sheet
          .addRow([
            formatTime(row.createdAt),
            row.loginName,
            row.entName,
            label('module', row.module),
            label('action', row.action),
            label('target', row.targetType),
            row.targetName ?? row.targetId ?? '',
            row.ip ?? '',
            results[row.result] ?? row.result,
          ])
          .commit();
      }
      processed += batch.length;
      const last = batch[batch.length - 1];
      after = { createdAt: last.createdAt, id: last.id };
      await updateExport(services.db, exportId, { processed });
    }
    sheet.commit();
    await workbook.commit();
    await updateExport(services.db, exportId, { status: 'done', processed, finishedAt: new Date() });
  } catch (error) {
    log.error({ err: error, exportId }, 'operation-log export failed');
    await rm(file, { force: true }).catch(() => {});
    await updateExport(services.db, exportId, {
      status: 'failed',
      error: String((error as Error)?.message ?? error).slice(0, 500),
      finishedAt: new Date(),
    }).catch(() => {});
  } finally {
    set.delete(exportId);
    await pruneExports(services, log);
  }
}

/** Removes exports older than EXPORT_KEEP_MS with their files; failures are only logged. */
export async function pruneExports(services: AppServices, log: FastifyBaseLogger): Promise<void> {
  try {
    const ids = await deleteExportsBefore(services.db, new Date(Date.now() - EXPORT_KEEP_MS));
    await Promise.all(ids.map((id) => rm(exportPath(services, id), { force: true })));
  } catch (error) {
    log.warn({ err: error }, 'pruning old operation-log exports failed');
  }
}
