import { z } from 'zod';
import { REPORT_MAX_DAYS } from '../adReport.js';
import { Perm } from '../permissions.js';
import { dateRangeIssues, listPageSize, reportDaySchema } from '../validation.js';
import { endpoint } from './common.js';
import { exportFollowUps, exportStatusSchema } from './operationLog.js';

/**
 * QR code events (issue 31, /report/qrcodeEvent and its alias /qrcode_event): the scans of
 * layouts' QR components. A player shows a short link of the server (`/q/<token>`, public, no
 * session: QR_LINK_PATH) instead of the component's target; the server counts the scan (device,
 * ad, layout, component, time, the scanner's user agent and language; no IP) and redirects to the
 * target. The report counts the scans on the devices in the caller's scope per ad, layout, device
 * or day (UTC days, as the other reports), with a series a day for the chart and an Excel export.
 */

/** Where a QR component's short link points: `<public origin>/q/<token>`. */
export const QR_LINK_PATH = '/q/';

export const QRCODE_GROUPS = ['day', 'ad', 'layout', 'device'] as const;
export type QrcodeGroup = (typeof QRCODE_GROUPS)[number];

const id = z.string().min(1).max(64);

const filterFields = {
  /** Default: the 7 days up to today (UTC). */
  from: reportDaySchema.optional(),
  to: reportDaySchema.optional(),
  /** One row per day (default), ad, layout or device. */
  groupBy: z.enum(QRCODE_GROUPS).default('day'),
  /** Only the scans of this ad ('' : of devices' own layouts, no ad). */
  adId: z.string().max(64).optional(),
  layoutId: id.optional(),
  deviceId: id.optional(),
};

export const qrcodeReportFilterSchema = z
  .object(filterFields)
  .strict()
  .superRefine((r, ctx) => dateRangeIssues(r, REPORT_MAX_DAYS, ctx));
export type QrcodeReportFilter = z.input<typeof qrcodeReportFilterSchema>;

export const qrcodeReportRowSchema = z.object({
  /** The day (YYYY-MM-DD), ad, layout or device id of the row ('' : no ad). */
  key: z.string(),
  /** The ad's, layout's or device's name; the day itself; '' when the object is gone. */
  name: z.string(),
  scans: z.number(),
  /** Distinct devices scanned. */
  devices: z.number(),
  /** The row's latest scan (ms since the epoch). */
  lastAt: z.number(),
});
export type QrcodeReportRow = z.infer<typeof qrcodeReportRowSchema>;

const qrcodeExport = exportFollowUps({
  name: 'qrcode.export',
  path: '/api/report/qrcodeEvent/export',
  permission: Perm.reportQrcodeEvent,
  object: 'qrcodeExport',
});

export const qrcodeEndpoints = {
  qrcodeReport: endpoint({
    name: 'qrcode.report',
    path: '/api/report/qrcodeEvent/list.shtm',
    auth: 'session',
    permission: Perm.reportQrcodeEvent,
    scope: { object: 'qrcodeScan', kind: 'list' },
    request: z
      .object({ ...filterFields, page: z.number().int().min(1).default(1), size: listPageSize() })
      .strict()
      .superRefine((r, ctx) => dateRangeIssues(r, REPORT_MAX_DAYS, ctx)),
    response: z.object({
      from: z.string(),
      to: z.string(),
      totals: z.object({ scans: z.number(), devices: z.number() }),
      /** Scans a day over the whole range (days without scans are 0), for the chart. */
      series: z.array(z.object({ day: z.string(), scans: z.number() })),
      /** Rows of the grouping, most scans first (days: newest first). */
      total: z.number(),
      data: z.array(qrcodeReportRowSchema),
    }),
  }),
  qrcodeExportStart: endpoint({
    name: 'qrcode.exportStart',
    path: '/api/report/qrcodeEvent/exportStart.shtm',
    auth: 'session',
    permission: Perm.reportQrcodeEvent,
    mutation: true,
    notForMonitor: true,
    request: qrcodeReportFilterSchema,
    response: exportStatusSchema,
  }),
  qrcodeExportStatus: qrcodeExport.status,
  qrcodeExportDownload: qrcodeExport.download,
} as const;
