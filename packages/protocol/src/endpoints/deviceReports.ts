import { z } from 'zod';
import { REPORT_MAX_DAYS } from '../adReport.js';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { dateRangeIssues, listPageSize, reportDaySchema } from '../validation.js';
import { endpoint } from './common.js';
import { exportFollowUps, exportStatusSchema } from './operationLog.js';
import { reportZoneFields } from './reports.js';

/**
 * Device reports (issue 13, /report/device and /report/deviceDetail): per device in the
 * caller's scope over a date range (days of the enterprise's report zone, issue 31), its online time (from its presence history,
 * clipped to the range), its plays and play time and distinct ads a day (from the play rollups,
 * never the raw plays), its downloads (the device's reported download states: materials
 * downloaded and failed, mean time to download a manifest) and its full rate (spec section 9). Excel export through
 * the export jobs.
 */

const id = z.string().min(1).max(64);

const rangeFields = {
  /** Default: the 7 days up to today. */
  from: reportDaySchema.optional(),
  to: reportDaySchema.optional(),
};

const filterFields = {
  ...rangeFields,
  /** Device name or number contains. */
  keyword: z.string().trim().max(64).optional(),
  /** The department and those below it. */
  deptId: id.optional(),
  groupId: id.optional(),
  /** Ads a day that make a day full (spec section 9, default 8). */
  fullCount: z.number().int().min(1).max(1000).optional(),
};

export const deviceReportFilterSchema = z
  .object(filterFields)
  .strict()
  .superRefine((r, ctx) => dateRangeIssues(r, REPORT_MAX_DAYS, ctx));

export const deviceReportRowSchema = z.object({
  deviceId: z.string(),
  number: z.string().nullable(),
  name: z.string(),
  deptName: z.string(),
  /** Seconds online within the range. */
  onlineSec: z.number(),
  plays: z.number(),
  completed: z.number(),
  playMs: z.number(),
  /** Distinct ads played over the range. */
  ads: z.number(),
  /**
   * Materials the device reported downloaded in the range, and those whose download failed (its
   * own download states, on the day of their latest change: docs/device-protocol.md 2.7.1).
   */
  downloads: z.number(),
  downloadsFailed: z.number(),
  /** Mean seconds the device took to download a manifest it completed in the range; null: none. */
  downloadSec: z.number().nullable(),
  /** Percent, 2 decimals (spec section 9), over the days the device was online or played. */
  fullRate: z.number(),
});
export type DeviceReportRow = z.infer<typeof deviceReportRowSchema>;

export const deviceReportDaySchema = z.object({
  day: z.string(),
  onlineSec: z.number(),
  plays: z.number(),
  playMs: z.number(),
  ads: z.number(),
  downloads: z.number(),
  downloadsFailed: z.number(),
});

export const deviceReportAdSchema = z.object({
  adId: z.string(),
  adNumber: z.string().nullable(),
  adName: z.string(),
  plays: z.number(),
  completed: z.number(),
  playMs: z.number(),
  days: z.number(),
});

const reportDeviceExport = exportFollowUps({
  name: 'report.deviceExport',
  path: '/api/report/device/export',
  permission: Perm.reportDevice,
  object: 'deviceReportExport',
});

export const deviceReportEndpoints = {
  reportDeviceList: endpoint({
    name: 'report.deviceList',
    path: '/api/report/device/list.shtm',
    auth: 'session',
    permission: Perm.reportDevice,
    scope: { object: 'device', kind: 'list' },
    request: z
      .object({ ...filterFields, page: z.number().int().min(1).default(1), size: listPageSize() })
      .strict()
      .superRefine((r, ctx) => dateRangeIssues(r, REPORT_MAX_DAYS, ctx)),
    response: z.object({
      from: z.string(),
      to: z.string(),
      ...reportZoneFields,
      total: z.number(),
      data: z.array(deviceReportRowSchema),
    }),
  }),
  reportDeviceDetail: endpoint({
    name: 'report.deviceDetail',
    path: '/api/report/device/detail.shtm',
    auth: 'session',
    permission: Perm.reportDevice,
    scope: { object: 'device', kind: 'detail' },
    errors: [ErrorCode.NOT_FOUND],
    request: z
      .object({ id, ...rangeFields, fullCount: filterFields.fullCount })
      .strict()
      .superRefine((r, ctx) => dateRangeIssues(r, REPORT_MAX_DAYS, ctx)),
    response: z.object({
      from: z.string(),
      to: z.string(),
      ...reportZoneFields,
      device: deviceReportRowSchema,
      days: z.array(deviceReportDaySchema),
      ads: z.array(deviceReportAdSchema),
    }),
  }),
  reportDeviceExportStart: endpoint({
    name: 'report.deviceExportStart',
    path: '/api/report/device/exportStart.shtm',
    auth: 'session',
    permission: Perm.reportDevice,
    mutation: true,
    notForMonitor: true,
    request: deviceReportFilterSchema,
    response: exportStatusSchema,
  }),
  reportDeviceExportStatus: reportDeviceExport.status,
  reportDeviceExportDownload: reportDeviceExport.download,
} as const;
