import type { AppServices } from '../../services.js';
import { registerExportSource } from '../operationLog/exportJob.js';
import {
  type AdReportDetailInput,
  type AdReportListInput,
  adReportDevices,
  adReportList,
  type DeviceScheduleInput,
  deviceScheduleReport,
  type ReportCaller,
} from './service.js';
import { localeOf, REPORT_HEADERS, REPORT_SHEETS, type ReportKind, YES_NO } from './texts.js';

/** What a report export reads back: which report, the caller as it was, the filters, the call's time. */
export type ReportExportSpec = {
  language: string;
  caller: Omit<ReportCaller, 'db' | 'now' | 'language'>;
  now: string;
} & (
  | { report: 'adList'; input: AdReportListInput }
  | { report: 'adDetail'; input: AdReportDetailInput }
  | { report: 'deviceSchedule'; input: DeviceScheduleInput }
);

export const REPORT_EXPORT_KIND = 'report';
const PAGE = 500;
const pct = (v: number | null) => (v === null ? '' : v);
const sec = (ms: number) => Math.round(ms / 1000);

const reportOf = (filters: Record<string, unknown>): ReportKind =>
  (filters as unknown as ReportExportSpec).report ?? 'adList';

async function* pages<T>(read: (page: number) => Promise<{ total: number; data: T[] }>): AsyncIterable<T[]> {
  for (let page = 1; ; page++) {
    const { data } = await read(page);
    if (data.length === 0) return;
    yield data;
    if (data.length < PAGE) return;
  }
}

/** The three reports' Excel exports: one kind, the report named in its filters. */
registerExportSource(REPORT_EXPORT_KIND, {
  sheetName: (language, filters) => REPORT_SHEETS[reportOf(filters)][localeOf(language)],
  columns(language, filters) {
    return REPORT_HEADERS[reportOf(filters)][localeOf(language)].map((header, i) => ({
      header,
      width: i === 1 ? 28 : 16,
    }));
  },
  async *batches(services: AppServices, filters, _limit) {
    const spec = filters as unknown as ReportExportSpec;
    const locale = localeOf(spec.language);
    const [yes, no] = YES_NO[locale];
    const caller: ReportCaller = {
      db: services.db,
      user: spec.caller.user,
      now: new Date(spec.now),
      language: spec.language,
    };
    if (spec.report === 'adList') {
      for await (const batch of pages((page) => adReportList(caller, { ...spec.input, page, size: PAGE }))) {
        yield batch.map((r) => [
          r.number,
          r.name,
          r.planName,
          r.plays,
          r.completed,
          sec(r.durationMs),
          r.devices,
          r.expected,
          pct(r.deliveryPct),
          pct(r.fullRate),
          r.underDelivered ? yes : no,
        ]);
      }
    } else if (spec.report === 'adDetail') {
      for await (const batch of pages((page) => adReportDevices(caller, { ...spec.input, page, size: PAGE }))) {
        yield batch.map((r) => [
          r.number,
          r.name,
          r.plays,
          sec(r.durationMs),
          r.expected,
          pct(r.deliveryPct),
          r.underDelivered ? yes : no,
        ]);
      }
    } else {
      for await (const batch of pages((page) => deviceScheduleReport(caller, { ...spec.input, page, size: PAGE }))) {
        yield batch.map((r) => [
          r.number,
          r.name,
          r.deptName,
          r.day,
          r.ads.map((a) => a.name).join(', '),
          r.expected,
          r.reported,
          pct(r.deliveryPct),
          r.underDelivered ? yes : no,
        ]);
      }
    }
  },
});

export type { ReportKind };
