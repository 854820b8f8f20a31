import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { listPageSize } from '../validation.js';
import { endpoint, ok } from './common.js';
import { DEVICE_STATUSES, MAX_COMMAND_TARGETS } from './devices.js';

/**
 * Screenshots (issue 9, /device/screenshot and /device/screenshotHistory): taken on demand
 * (a `screenshot` command per device) or on a timer (spec section 9: hourly on the hour by
 * default, per-enterprise setting), uploaded by the player over HTTP, kept 7 days with their
 * files. Data-scoped through their device; images are answered as short-lived signed URLs.
 */

export const SCREENSHOT_TRIGGERS = ['manual', 'timed'] as const;
export type ScreenshotTrigger = (typeof SCREENSHOT_TRIGGERS)[number];
/** Spec section 9: history is kept this many days, then deleted with its files. */
export const SCREENSHOT_KEEP_DAYS = 7;
/** The timed screenshot's interval choices, in hours (a divisor of 24: on the hour, every N hours). */
export const SCREENSHOT_INTERVALS = [1, 2, 3, 4, 6, 8, 12, 24] as const;
/** How long a timed or on-demand screenshot command waits for its device. */
export const SCREENSHOT_COMMAND_TTL_SEC = 600;
/** Screenshots one delete may name. */
export const MAX_SCREENSHOT_DELETE = 500;

const pageSize = listPageSize();
const idSchema = z.string().min(1).max(64);
/** A time filter: an ISO 8601 date-time or date. */
const timeSchema = z.iso.datetime({ offset: true }).or(z.iso.date());

export const screenshotSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  /** A signed, short-lived URL of the image (served by the server's file route). */
  url: z.string(),
  contentType: z.string(),
  size: z.number(),
  width: z.number(),
  height: z.number(),
  trigger: z.enum(SCREENSHOT_TRIGGERS),
  commandId: z.string().nullable(),
  takenAt: z.string(),
});
export type ScreenshotRow = z.infer<typeof screenshotSchema>;

export const latestScreenshotRowSchema = z.object({
  deviceId: z.string(),
  deviceName: z.string(),
  number: z.string().nullable(),
  status: z.enum(DEVICE_STATUSES),
  deptName: z.string(),
  /** The device's newest screenshot, or null when it has none (kept 7 days). */
  screenshot: screenshotSchema.nullable(),
});
export type LatestScreenshotRow = z.infer<typeof latestScreenshotRowSchema>;

export const screenshotSettingsSchema = z.object({
  /** Timed screenshots on (default) or off for the enterprise's online devices. */
  timedEnabled: z.boolean(),
  /** Every N hours on the hour (default 1). */
  intervalHours: z.union(SCREENSHOT_INTERVALS.map((n) => z.literal(n))),
});
export type ScreenshotSettings = z.infer<typeof screenshotSettingsSchema>;

export const screenshotEndpoints = {
  screenshotTake: endpoint({
    name: 'screenshot.take',
    path: '/api/device/screenshot/take.shtm',
    auth: 'session',
    permission: Perm.deviceScreenshot,
    mutation: true,
    notForMonitor: true,
    request: z.object({ deviceIds: z.array(idSchema).min(1).max(MAX_COMMAND_TARGETS) }).strict(),
    response: z.object({ commands: z.array(z.object({ id: z.string(), deviceId: z.string() })) }),
    errors: [ErrorCode.NOT_FOUND],
  }),
  screenshotLatest: endpoint({
    name: 'screenshot.latest',
    path: '/api/device/screenshot/latest.shtm',
    auth: 'session',
    permission: Perm.deviceScreenshot,
    scope: { object: 'device', kind: 'list' },
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        status: z.enum(DEVICE_STATUSES).optional(),
        /** Device name or number contains. */
        keyword: z.string().trim().max(64).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(latestScreenshotRowSchema) }),
  }),
  screenshotHistory: endpoint({
    name: 'screenshot.history',
    path: '/api/device/screenshot/history.shtm',
    auth: 'session',
    permission: Perm.deviceScreenshot,
    scope: { object: 'screenshot', kind: 'list' },
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        /** One device's history; all visible devices when absent. */
        deviceId: idSchema.optional(),
        trigger: z.enum(SCREENSHOT_TRIGGERS).optional(),
        /** Taken at or after / before (an end date alone includes that whole day). */
        from: timeSchema.optional(),
        to: timeSchema.optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(screenshotSchema) }),
  }),
  screenshotDelete: endpoint({
    name: 'screenshot.delete',
    path: '/api/device/screenshot/delete.shtm',
    auth: 'session',
    permission: Perm.deviceScreenshot,
    mutation: true,
    notForMonitor: true,
    request: z.object({ ids: z.array(idSchema).min(1).max(MAX_SCREENSHOT_DELETE) }).strict(),
    response: ok,
    errors: [ErrorCode.NOT_FOUND],
  }),
  screenshotSettings: endpoint({
    name: 'screenshot.settings',
    path: '/api/device/screenshot/settings.shtm',
    auth: 'session',
    permission: Perm.deviceScreenshot,
    unscoped: "the caller's own enterprise's timed-screenshot setting",
    request: z.object({}).strict(),
    response: screenshotSettingsSchema,
  }),
  screenshotSaveSettings: endpoint({
    name: 'screenshot.saveSettings',
    path: '/api/device/screenshot/settings/save.shtm',
    auth: 'session',
    permission: Perm.deviceScreenshot,
    mutation: true,
    notForMonitor: true,
    request: screenshotSettingsSchema.strict(),
    response: screenshotSettingsSchema,
  }),
} as const;
