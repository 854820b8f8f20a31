import type { ExportStatus } from '@marquee/protocol';
import type { CallContext } from '../../protocol/handlers.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';
import { REPORT_EXPORT_KIND, type ReportExportSpec } from './exportSource.js';
import {
  type AdReportDetailInput,
  type AdReportListInput,
  adReportDevices,
  adReportList,
  type DeviceScheduleInput,
  deviceScheduleReport,
  type ReportCaller,
} from './service.js';
import { REPORT_FILE_PREFIX } from './texts.js';

/** The report's caller from a call. */
export const callerOf = (ctx: CallContext): ReportCaller => ({
  db: ctx.db,
  user: ctx.user,
  now: ctx.now,
  language: ctx.language,
});

type Started =
  | { report: 'adList'; input: AdReportListInput }
  | { report: 'adDetail'; input: AdReportDetailInput }
  | { report: 'deviceSchedule'; input: DeviceScheduleInput };

/**
 * Starts a report's Excel export through the one export mechanism (operationLog/exportJob.ts):
 * the caller (scope as it is now), the filters and the call's time are saved, so the job writes
 * what the page showed. Rows are counted by running the report's first page (its total).
 */
export async function startReportExport(started: Started, ctx: CallContext): Promise<ExportStatus> {
  const u = ctx.user;
  const spec = {
    ...started,
    language: ctx.language,
    now: ctx.now.toISOString(),
    caller: {
      user: { entId: u.entId, accountId: u.accountId, deptId: u.deptId, deptPath: u.deptPath, dataScope: u.dataScope },
    },
  } as ReportExportSpec;
  const caller = callerOf(ctx);
  return beginExport(ctx, {
    kind: REPORT_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName(REPORT_FILE_PREFIX[started.report], ctx.now),
    count: async () => {
      if (started.report === 'adList') return (await adReportList(caller, { ...started.input, size: 10 })).total;
      if (started.report === 'adDetail') {
        return (await adReportDevices(caller, { ...started.input, size: 10 })).total;
      }
      return (await deviceScheduleReport(caller, { ...started.input, size: 10 })).total;
    },
    module: 'report',
    detail: { report: started.report, filter: started.input },
  });
}

export const reportExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, REPORT_EXPORT_KIND);
export const reportExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, REPORT_EXPORT_KIND);
