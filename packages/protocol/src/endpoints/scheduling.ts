import { z } from 'zod';
import { REPORT_MAX_DAYS } from '../adReport.js';
import { AD_TYPES } from '../adRules.js';
import { AD_ROLES } from '../adSchedule.js';
import { DOWNLOAD_STATES } from '../device/http.js';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { dateRangeIssues, listPageSize, reportDaySchema } from '../validation.js';
import { endpoint } from './common.js';

/**
 * Scheduling on screens (issue 13 'Scheduling', spec section 7 'schedule, playlist sort,
 * broadcast, repush'): the pushes of new manifests to devices and their per-device results
 * (/report/issuedRecords), broadcast and repush of an ad, a device's playlist and its sort
 * (/device/playlist) and its plan over time (/device/devicePlan).
 *
 * A push is recorded each time the product tells devices to fetch their manifest (an ad's
 * approval, edit, pause, enable or delete, a layout assignment, a broadcast, a repush, a
 * playlist sort): one syncContent command per device, whose state is that device's result.
 * Pushes are read by whoever sees at least one of their devices, and only those devices count.
 */

const id = z.string().min(1).max(64);
const page = z.number().int().min(1).default(1);
const pageSize = listPageSize();

/** Why a push was made. */
export const PUSH_REASONS = [
  'adApproved',
  'adChanged',
  'adPaused',
  'adEnabled',
  'adDeleted',
  'broadcast',
  'repush',
  'layout',
  'playlistSort',
  'splice',
  'watermark',
] as const;
export type PushReason = (typeof PUSH_REASONS)[number];

/** A device's result of a push: its command's state (an open command past expiry reads expired). */
export const PUSH_DEVICE_STATES = ['pending', 'sent', 'acknowledged', 'failed', 'expired'] as const;
export type PushDeviceState = (typeof PUSH_DEVICE_STATES)[number];

/** Most devices one repush names. */
export const REPUSH_MAX_DEVICES = 500;
/** Most days a plan spans (a report: REPORT_MAX_DAYS). */
export const PLAN_MAX_DAYS = 31;

export const pushSchema = z.object({
  id: z.string(),
  reason: z.enum(PUSH_REASONS),
  adId: z.string().nullable(),
  adNumber: z.string().nullable(),
  adName: z.string().nullable(),
  accountName: z.string(),
  createdAt: z.string(),
  /** The push's devices the caller sees, and their results. */
  devices: z.number(),
  acknowledged: z.number(),
  failed: z.number(),
  pending: z.number(),
});
export type Push = z.infer<typeof pushSchema>;

export const pushDeviceSchema = z.object({
  deviceId: z.string(),
  number: z.string().nullable(),
  name: z.string(),
  state: z.enum(PUSH_DEVICE_STATES),
  attempts: z.number(),
  sentAt: z.string().nullable(),
  ackedAt: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /**
   * The push's download time on the device: when it first had a complete manifest after the
   * push (docs/device-protocol.md 2.7.1); null while it has none (or the push changed nothing
   * the device had to fetch).
   */
  downloadedAt: z.string().nullable(),
});
export type PushDevice = z.infer<typeof pushDeviceSchema>;

/** One entry of a device's playlist as /device/playlist shows it. */
export const playlistEntrySchema = z.object({
  key: z.string(),
  adId: z.string(),
  adNumber: z.string(),
  adName: z.string(),
  type: z.enum(AD_TYPES),
  role: z.enum(AD_ROLES),
  startAt: z.string(),
  endAt: z.string(),
  /** Time periods of the day (empty: all day). */
  periods: z.array(z.object({ start: z.string(), end: z.string() })),
  strategy: z.enum(['perDay', 'perLoop']),
  playsMin: z.number(),
  playsMax: z.number(),
  /**
   * The ad's download on this device (spec section 4 'Download'), from the device's reported
   * state of each of the ad's materials: `failed` if any failed, `successful` once all are,
   * `downloading` while any is under way or some are done, else `not_downloaded`.
   */
  download: z.enum(DOWNLOAD_STATES),
  /** Bytes done of the ad's materials, percent (0-100, floored), while `downloading`; else null. */
  downloadPercent: z.number().nullable(),
  /** The device's reason for a `failed` download. */
  downloadError: z.string().nullable(),
  /** When the last of the ad's materials finished downloading on the device (`successful`). */
  downloadedAt: z.string().nullable(),
});
export type PlaylistEntry = z.infer<typeof playlistEntrySchema>;

/** One bar of a device's plan: an ad (or the device's layout) on a day, in a time period. */
export const planBarSchema = z.object({
  day: z.string(),
  /** HH:mm, the end exclusive (24:00 the day's end). */
  start: z.string(),
  end: z.string(),
  source: z.enum(['ad', 'layout']),
  /** The ad's id, or the layout's. */
  id: z.string(),
  name: z.string(),
  adNumber: z.string().nullable(),
  role: z.enum(AD_ROLES).nullable(),
});
export type PlanBar = z.infer<typeof planBarSchema>;

const deviceRequest = z.object({ deviceId: id }).strict();

export const schedulingEndpoints = {
  adBroadcast: endpoint({
    name: 'ad.broadcast',
    path: '/api/ad/broadcast.shtm',
    auth: 'session',
    permission: Perm.advEdit,
    mutation: true,
    notForMonitor: true,
    // Sends the ad's targets their current manifest now (the ad must be scheduled: passed, not paused, not over).
    request: z.object({ id }).strict(),
    response: z.object({ pushId: z.string().nullable(), devices: z.number() }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION, ErrorCode.AD_NOT_SCHEDULED],
  }),
  adRepush: endpoint({
    name: 'ad.repush',
    path: '/api/ad/repush.shtm',
    auth: 'session',
    permission: Perm.advEdit,
    mutation: true,
    notForMonitor: true,
    // Re-sends the manifest to the devices whose last push of this ad failed or expired, or to the named ones (among the ad's targets).
    request: z.object({ id, deviceIds: z.array(id).min(1).max(REPUSH_MAX_DEVICES).optional() }).strict(),
    response: z.object({ pushId: z.string().nullable(), devices: z.number() }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION, ErrorCode.AD_NOT_SCHEDULED],
  }),
  pushList: endpoint({
    name: 'push.list',
    path: '/api/push/list.shtm',
    auth: 'session',
    permission: Perm.reportIssuedRecords,
    scope: { object: 'push', kind: 'list' },
    request: z
      .object({
        page,
        size: pageSize,
        reason: z.enum(PUSH_REASONS).optional(),
        /** Pushes of this ad. */
        adId: id.optional(),
        /** Ad name or number contains. */
        keyword: z.string().trim().max(64).optional(),
        from: reportDaySchema.optional(),
        to: reportDaySchema.optional(),
      })
      .strict()
      .superRefine((r, ctx) => dateRangeIssues(r, REPORT_MAX_DAYS, ctx)),
    response: z.object({ total: z.number(), data: z.array(pushSchema) }),
  }),
  pushDevices: endpoint({
    name: 'push.devices',
    path: '/api/push/devices.shtm',
    auth: 'session',
    permission: Perm.reportIssuedRecords,
    scope: { object: 'push', kind: 'detail' },
    errors: [ErrorCode.NOT_FOUND],
    request: z
      .object({
        id,
        page,
        size: pageSize,
        state: z.enum(PUSH_DEVICE_STATES).optional(),
        /** Device name or number contains. */
        keyword: z.string().trim().max(64).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(pushDeviceSchema) }),
  }),
  devicePlaylist: endpoint({
    name: 'device.playlist',
    path: '/api/device/playlist.shtm',
    auth: 'session',
    permission: Perm.devicePlaylist,
    scope: { object: 'device', kind: 'detail', idField: 'deviceId' },
    errors: [ErrorCode.NOT_FOUND],
    request: deviceRequest,
    response: z.object({
      entries: z.array(playlistEntrySchema),
      /** The device's playlist sort (ad ids of its common ads), empty when none. */
      order: z.array(z.string()),
      /** The caller may sort it (manages the device). */
      canSort: z.boolean(),
    }),
  }),
  devicePlaylistSort: endpoint({
    name: 'device.playlistSort',
    path: '/api/device/playlistSort.shtm',
    auth: 'session',
    permission: Perm.devicePlaylist,
    mutation: true,
    notForMonitor: true,
    // The order of the device's common ads (an empty list drops the sort); the device gets its new manifest now.
    request: z.object({ deviceId: id, adIds: z.array(id).max(500) }).strict(),
    response: z.object({ pushId: z.string().nullable() }),
    errors: [ErrorCode.NOT_FOUND],
  }),
  devicePlan: endpoint({
    name: 'device.plan',
    path: '/api/device/plan.shtm',
    auth: 'session',
    permission: Perm.devicePlan,
    scope: { object: 'device', kind: 'detail', idField: 'deviceId' },
    errors: [ErrorCode.NOT_FOUND],
    // Default: today and the 6 days after it. Dates and times are the device's wall clock in
    // `timeZone` (its own zone, else its enterprise's; issue 31), as its player reads them.
    request: z
      .object({ deviceId: id, from: reportDaySchema.optional(), to: reportDaySchema.optional() })
      .strict()
      .superRefine((r, ctx) => dateRangeIssues(r, PLAN_MAX_DAYS, ctx)),
    response: z.object({ from: z.string(), to: z.string(), timeZone: z.string(), bars: z.array(planBarSchema) }),
  }),
} as const;
