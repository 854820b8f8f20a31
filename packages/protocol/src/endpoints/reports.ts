import { z } from 'zod';
import { REPORT_MAX_DAYS } from '../adReport.js';
import { AD_NAME_MAX } from '../adRules.js';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { dateRangeIssues, listPageSize, reportDaySchema, sortFields } from '../validation.js';
import { adPlayStrategySchema, adStatusSchema, adTypeSchema } from './ads.js';
import { endpoint } from './common.js';
import { exportFollowUps, exportStatusSchema } from './operationLog.js';

/**
 * Ad reports with reconciliation (issue 13 'Proof of play and reports': /report/ad,
 * /report/adDetail, /advert/report, /advert/reportDetail, /adReport, /report/deviceSchedule).
 *
 * Every figure is read from the play rollups, never from the raw plays: the ad reports' headline
 * figures, days and trend from the ad-daily rollups (play_rollups_ad_daily), the per-device
 * table (report.adDevices, its own paged call) and materials from play_rollups_daily, the
 * hourly profile from the hourly table. Days are UTC days, as the rollups are: the
 * range `from`..`to` names UTC days, both included (the last 7 days by default, at most 366).
 * A play is one material shown (proof of play's unit); the expected plays, delivery % and
 * full rate follow the protocol's rules (adReport.ts: expectedPlays, reconcile, fullRate).
 *
 * The ad reports answer to the report permission (/report/ad) or the advertiser's
 * (/advert/report): one endpoint takes either code. The ads are the caller's by the ads' data
 * scope, so an advertiser (self scope) sees only its own ads' reports; an ad outside it is
 * NOT_FOUND. The device schedule report is scoped by the devices' data scope.
 */

const id = z.string().min(1).max(64);
const page = z.number().int().min(1).default(1);

const rangeFields = { from: reportDaySchema.optional(), to: reportDaySchema.optional() };

/** The range rules: `to` not before `from`, at most REPORT_MAX_DAYS. */
function refineRange(v: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  dateRangeIssues(v, REPORT_MAX_DAYS, ctx);
}

/** The reconciliation figures of any row (protocol's reconcile). */
const reconciliation = {
  expected: z.number(),
  deliveryPct: z.number().nullable(),
  underDelivered: z.boolean(),
};
const playFigures = {
  plays: z.number(),
  completed: z.number(),
  durationMs: z.number(),
};

export const AD_REPORT_SORT_KEYS = ['plays', 'durationMs', 'devices', 'createdAt'] as const;

/** The ad list report's filters (without its page: also what its export takes). */
const adReportFilterFields = {
  /** Name contains, or number starts with (digits). */
  keyword: z.string().trim().max(AD_NAME_MAX).optional(),
  planId: id.optional(),
  type: adTypeSchema.optional(),
  ...rangeFields,
  ...sortFields(AD_REPORT_SORT_KEYS),
};
export const adReportFilterSchema = z.object(adReportFilterFields).strict().superRefine(refineRange);
export type AdReportFilter = z.input<typeof adReportFilterSchema>;

export const adReportListRequestSchema = z
  .object({ page, size: listPageSize(), ...adReportFilterFields })
  .strict()
  .superRefine(refineRange);

export const adReportRowSchema = z.object({
  adId: z.string(),
  number: z.string(),
  name: z.string(),
  type: adTypeSchema,
  status: adStatusSchema,
  planName: z.string(),
  ...playFigures,
  /**
   * Most devices that played the ad on one day of the range (the ad-daily rollups keep each
   * day's distinct devices; the range's distinct devices would read every device's rows).
   */
  devices: z.number(),
  ...reconciliation,
  /** Spec section 9 (fullRate): null when no day had a play. */
  fullRate: z.number().nullable(),
});
export type AdReportRow = z.infer<typeof adReportRowSchema>;

/**
 * The zone of a report's days and hours (issue 31): the reader's enterprise's, in which its
 * screens' plays are rolled up; `zoneSince`, when set, is the first day counted in it (days
 * before it were counted in the enterprise's earlier zone, before a change of zone).
 */
export const reportZoneFields = { timeZone: z.string(), zoneSince: z.string().nullable() };

const dayPoint = z.object({ day: z.string(), plays: z.number(), durationMs: z.number(), expected: z.number() });

export const adReportListSchema = z.object({
  from: z.string(),
  to: z.string(),
  ...reportZoneFields,
  total: z.number(),
  data: z.array(adReportRowSchema),
  /** Plays and expected plays per day of every ad the filters select (the trend chart). */
  trend: z.array(dayPoint),
});
export type AdReportList = z.infer<typeof adReportListSchema>;

export const AD_REPORT_DEVICE_SORT_KEYS = ['plays', 'durationMs', 'expected', 'deliveryPct'] as const;

const adDetailFields = {
  id,
  ...rangeFields,
};
export const adReportDetailExportSchema = z.object(adDetailFields).strict().superRefine(refineRange);

export const adReportDetailRequestSchema = adReportDetailExportSchema;

/** report.adDevices: the detail's per-device table, its own paged call (a campaign has 10,000 screens). */
export const adReportDevicesRequestSchema = z
  .object({
    ...adDetailFields,
    page,
    size: listPageSize(20),
    ...sortFields(AD_REPORT_DEVICE_SORT_KEYS),
    /** Only the devices below the delivery threshold. */
    underOnly: z.boolean().optional(),
  })
  .strict()
  .superRefine(refineRange);

export const adReportDeviceRowSchema = z.object({
  deviceId: z.string(),
  number: z.string(),
  name: z.string(),
  plays: z.number(),
  durationMs: z.number(),
  ...reconciliation,
});
export type AdReportDeviceRow = z.infer<typeof adReportDeviceRowSchema>;

export const adReportDetailSchema = z.object({
  ad: z.object({
    id: z.string(),
    number: z.string(),
    name: z.string(),
    type: adTypeSchema,
    status: adStatusSchema,
    planName: z.string(),
    startAt: z.string(),
    endAt: z.string(),
    strategy: adPlayStrategySchema,
    playsMin: z.number(),
    playsMax: z.number(),
  }),
  from: z.string(),
  to: z.string(),
  ...reportZoneFields,
  totals: z.object({
    ...playFigures,
    /** Most devices that played it on one day of the range (as the list's). */
    devices: z.number(),
    ...reconciliation,
    fullRate: z.number().nullable(),
  }),
  /** Every day of the range. */
  days: z.array(dayPoint.extend({ devices: z.number() })),
  materials: z.array(z.object({ materialId: z.string(), name: z.string(), plays: z.number(), durationMs: z.number() })),
  /** Plays per hour 0..23 (of `timeZone`) over the range's last REPORT_HOURLY_DAYS days (`hoursFrom`..`to`). */
  hours: z.array(z.object({ hour: z.number(), plays: z.number() })),
  hoursFrom: z.string(),
});
export type AdReportDetail = z.infer<typeof adReportDetailSchema>;

export const adReportDevicesSchema = z.object({
  from: z.string(),
  to: z.string(),
  ...reportZoneFields,
  /** The devices that played the ad in the range or that the schedule expected it on (after `underOnly`). */
  total: z.number(),
  data: z.array(adReportDeviceRowSchema),
});
export type AdReportDevices = z.infer<typeof adReportDevicesSchema>;

const deviceScheduleFilterFields = {
  /** Device number or name contains. */
  keyword: z.string().trim().max(64).optional(),
  deptId: id.optional(),
  ...rangeFields,
  /** The under-delivered device-days first. */
  underFirst: z.boolean().optional(),
};
export const deviceScheduleFilterSchema = z.object(deviceScheduleFilterFields).strict().superRefine(refineRange);
export type DeviceScheduleFilter = z.input<typeof deviceScheduleFilterSchema>;

export const deviceScheduleRowSchema = z.object({
  deviceId: z.string(),
  number: z.string(),
  name: z.string(),
  deptName: z.string(),
  day: z.string(),
  /** Total over the ads below. */
  reported: z.number(),
  ...reconciliation,
  /** The ads scheduled on the device that day, and any other that reported plays. */
  ads: z.array(
    z.object({ adId: z.string(), number: z.string(), name: z.string(), expected: z.number(), reported: z.number() }),
  ),
});
export type DeviceScheduleRow = z.infer<typeof deviceScheduleRowSchema>;

const AD_REPORT_PERMS = `${Perm.reportAd},${Perm.advReport}`;

const reportExport = exportFollowUps({
  name: 'report.export',
  path: '/api/report/export',
  permission: `${AD_REPORT_PERMS},${Perm.reportDeviceSchedule}`,
  object: 'reportExport',
});

export const reportEndpoints = {
  reportAdList: endpoint({
    name: 'report.adList',
    path: '/api/report/ad/list.shtm',
    auth: 'session',
    permission: AD_REPORT_PERMS,
    scope: { object: 'ad', kind: 'list' },
    request: adReportListRequestSchema,
    response: adReportListSchema,
  }),
  reportAdDetail: endpoint({
    name: 'report.adDetail',
    path: '/api/report/ad/detail.shtm',
    auth: 'session',
    permission: AD_REPORT_PERMS,
    scope: { object: 'ad', kind: 'detail' },
    request: adReportDetailRequestSchema,
    response: adReportDetailSchema,
    errors: [ErrorCode.NOT_FOUND],
  }),
  reportAdDevices: endpoint({
    name: 'report.adDevices',
    path: '/api/report/ad/devices.shtm',
    auth: 'session',
    permission: AD_REPORT_PERMS,
    scope: { object: 'ad', kind: 'detail' },
    request: adReportDevicesRequestSchema,
    response: adReportDevicesSchema,
    errors: [ErrorCode.NOT_FOUND],
  }),
  reportDeviceSchedule: endpoint({
    name: 'report.deviceSchedule',
    path: '/api/report/deviceSchedule.shtm',
    auth: 'session',
    permission: Perm.reportDeviceSchedule,
    scope: { object: 'device', kind: 'list' },
    request: z
      .object({ page, size: listPageSize(), ...deviceScheduleFilterFields })
      .strict()
      .superRefine(refineRange),
    response: z.object({
      from: z.string(),
      to: z.string(),
      ...reportZoneFields,
      total: z.number(),
      data: z.array(deviceScheduleRowSchema),
    }),
  }),
  reportAdListExportStart: endpoint({
    name: 'report.adListExportStart',
    path: '/api/report/ad/exportList.shtm',
    auth: 'session',
    permission: AD_REPORT_PERMS,
    mutation: true,
    notForMonitor: true,
    request: adReportFilterSchema,
    response: exportStatusSchema,
  }),
  reportAdDetailExportStart: endpoint({
    name: 'report.adDetailExportStart',
    path: '/api/report/ad/exportDetail.shtm',
    auth: 'session',
    permission: AD_REPORT_PERMS,
    mutation: true,
    notForMonitor: true,
    request: adReportDetailExportSchema,
    response: exportStatusSchema,
    errors: [ErrorCode.NOT_FOUND],
  }),
  reportDeviceScheduleExportStart: endpoint({
    name: 'report.deviceScheduleExportStart',
    path: '/api/report/deviceSchedule/export.shtm',
    auth: 'session',
    permission: Perm.reportDeviceSchedule,
    mutation: true,
    notForMonitor: true,
    request: deviceScheduleFilterSchema,
    response: exportStatusSchema,
  }),
  reportExportStatus: reportExport.status,
  reportExportDownload: reportExport.download,
};
