import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { uploadSignatureSchema } from '../upload.js';
import { listPageSize } from '../validation.js';
import { endpoint } from './common.js';
import { salesDateSchema } from './sales.js';

/**
 * Third-party monitoring (issue 30; /operate/adMonitor, /operate/monitorTask, /operate/taskDetail;
 * spec sections 4 and 6). A monitor account (role type monitor, the third-party-monitor flag)
 * applies to an enterprise (monitoring.apply: a system notice; the enterprise's
 * notice.monitorApply agrees or refuses and writes a grant). The enterprise's staff or one of its
 * advertisers makes a monitoring plan (ads, screens, dates, photographs per task, a granted
 * monitor); the plan becomes one task per screen over the plan's dates. The monitor sees only
 * its own tasks of enterprises that granted it (a revoked grant hides them), photographs the
 * screen (uploaded to storage: apply -> POST -> verify; time and position from the picture's
 * EXIF, else the browser's) and completes the task; each photograph is checked against the
 * screen's position (MONITOR_FAR_METRES) and the schedule. The plan's owner closes and reopens
 * tasks; a job marks tasks not completed by the end of the plan's last day overdue.
 */

export const MONITOR_TASK_STATES = ['pendingView', 'pending', 'completed', 'notCompleted', 'overdue'] as const;
export type MonitorTaskStateName = (typeof MONITOR_TASK_STATES)[number];
/** A photograph taken farther than this from the screen's position is flagged. */
export const MONITOR_FAR_METRES = 500;
export const MONITOR_PHOTOS_MAX = 20;
export const MONITOR_PHOTO_MAX_BYTES = 20 * 1024 * 1024;
export const MONITOR_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

const id = z.string().min(1).max(64);
const page = z.number().int().min(1).default(1);
const pageSize = listPageSize();

export const monitorPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  monitorAccountId: z.string(),
  monitorName: z.string(),
  adIds: z.array(z.string()),
  adNames: z.array(z.string()),
  deviceIds: z.array(z.string()),
  startDate: z.string(),
  endDate: z.string(),
  photosRequired: z.number().int(),
  /** Tasks per state (closed ones counted in their state too). */
  tasks: z.record(z.string(), z.number().int()),
  createdAt: z.string(),
});
export type MonitorPlan = z.infer<typeof monitorPlanSchema>;

export const monitorPhotoSchema = z.object({
  id: z.string(),
  url: z.string().nullable(),
  takenAt: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** Where time and position came from: the picture's EXIF, the browser, or nowhere. */
  source: z.enum(['exif', 'browser', 'none']),
  /** Metres from the screen; null when a position is unknown. */
  distanceM: z.number().int().nullable(),
  /** Farther than MONITOR_FAR_METRES. */
  far: z.boolean(),
  /** An ad of the plan was scheduled on the screen at that time (null: no time known). */
  scheduled: z.boolean().nullable(),
  createdAt: z.string(),
});
export type MonitorPhoto = z.infer<typeof monitorPhotoSchema>;

export const monitorTaskSchema = z.object({
  id: z.string(),
  planId: z.string(),
  planName: z.string(),
  entName: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  deviceAddress: z.string().nullable(),
  monitorName: z.string(),
  state: z.enum(MONITOR_TASK_STATES),
  closed: z.boolean(),
  startDate: z.string(),
  endDate: z.string(),
  dueAt: z.string(),
  photosRequired: z.number().int(),
  photos: z.number().int(),
  /** Photographs flagged (far, or taken when none of the ads was scheduled). */
  flagged: z.number().int(),
  completedAt: z.string().nullable(),
});
export type MonitorTask = z.infer<typeof monitorTaskSchema>;

const taskId = z.object({ id }).strict();

export const monitoringEndpoints = {
  monitoringApply: endpoint({
    name: 'monitoring.apply',
    path: '/api/monitoring/apply.shtm',
    auth: 'session',
    permission: Perm.operateMonitorTask,
    mutation: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION, ErrorCode.MONITOR_APPLICATION_PENDING],
    /** A monitor account asks the enterprise with this social credit code to let it monitor its screens. */
    request: z
      .object({
        socialCreditCode: z.string().trim().min(1, 'validation.required').max(32),
        message: z.string().trim().max(500).default(''),
      })
      .strict(),
    response: z.object({ noticeId: z.string() }),
  }),
  monitoringApplications: endpoint({
    name: 'monitoring.applications',
    path: '/api/monitoring/applications.shtm',
    auth: 'session',
    permission: Perm.operateMonitorTask,
    unscoped: "the caller's own applications",
    request: z.object({}).strict(),
    response: z.array(
      z.object({
        id: z.string(),
        entName: z.string(),
        status: z.enum(['pending', 'agreed', 'refused']),
        /** The grant is in force (agreed and not revoked). */
        granted: z.boolean(),
        createdAt: z.string(),
        decidedAt: z.string().nullable(),
      }),
    ),
  }),
  monitoringMonitors: endpoint({
    name: 'monitoring.monitors',
    path: '/api/monitoring/monitors.shtm',
    auth: 'session',
    permission: Perm.operateAdMonitor,
    notForMonitor: true,
    scope: { object: 'monitorGrant', kind: 'list', audience: 'tenant' },
    /** The monitor accounts the enterprise agreed to, for a plan's choice. */
    request: z.object({}).strict(),
    response: z.array(z.object({ id: z.string(), accountId: z.string(), name: z.string(), entName: z.string() })),
  }),
  monitoringPlanList: endpoint({
    name: 'monitoring.planList',
    path: '/api/monitoring/plan/list.shtm',
    auth: 'session',
    permission: Perm.operateAdMonitor,
    notForMonitor: true,
    scope: { object: 'monitorPlan', kind: 'list' },
    request: z.object({ page, size: pageSize, name: z.string().trim().max(100).optional() }).strict(),
    response: z.object({ total: z.number(), data: z.array(monitorPlanSchema) }),
  }),
  monitoringPlanCreate: endpoint({
    name: 'monitoring.planCreate',
    path: '/api/monitoring/plan/create.shtm',
    auth: 'session',
    permission: Perm.operateAdMonitor,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.MONITOR_NOT_GRANTED],
    request: z
      .object({
        name: z.string().trim().min(1, 'validation.required').max(100),
        monitorAccountId: id,
        adIds: z.array(id).min(1, 'validation.required').max(50),
        deviceIds: z.array(id).min(1, 'validation.required').max(500),
        startDate: salesDateSchema,
        endDate: salesDateSchema,
        photosRequired: z.number().int().min(1).max(MONITOR_PHOTOS_MAX).default(1),
      })
      .strict()
      .superRefine((p, ctx) => {
        if (p.endDate < p.startDate) {
          ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'validation.periodEndBeforeStart' });
        }
      }),
    response: z.object({ id: z.string(), tasks: z.number().int() }),
  }),
  monitoringTaskList: endpoint({
    name: 'monitoring.taskList',
    path: '/api/monitoring/task/list.shtm',
    auth: 'session',
    permission: Perm.operateMonitorTask,
    scope: { object: 'monitorTask', kind: 'list' },
    request: z
      .object({
        page,
        size: pageSize,
        state: z.enum(MONITOR_TASK_STATES).optional(),
        planId: id.optional(),
      })
      .strict(),
    /** `counts`: tasks per state (the tabs), over the plan when given, whatever `state` is. */
    response: z.object({
      total: z.number(),
      counts: z.record(z.enum(MONITOR_TASK_STATES), z.number().int()),
      data: z.array(monitorTaskSchema),
    }),
  }),
  monitoringTaskInfo: endpoint({
    name: 'monitoring.taskInfo',
    path: '/api/monitoring/task/info.shtm',
    auth: 'session',
    permission: Perm.operateMonitorTask,
    errors: [ErrorCode.NOT_FOUND],
    scope: { object: 'monitorTask', kind: 'detail' },
    request: taskId,
    response: z.object({
      task: monitorTaskSchema,
      ads: z.array(z.object({ id: z.string(), name: z.string() })),
      device: z.object({ latitude: z.number().nullable(), longitude: z.number().nullable() }),
      photos: z.array(monitorPhotoSchema),
      /** The caller is the task's monitor (may upload and complete). */
      isMonitor: z.boolean(),
      /** The caller may close and reopen it. */
      canManage: z.boolean(),
    }),
  }),
  monitoringTaskView: endpoint({
    name: 'monitoring.taskView',
    path: '/api/monitoring/task/view.shtm',
    auth: 'session',
    permission: Perm.operateMonitorTask,
    mutation: true,
    errors: [ErrorCode.NOT_FOUND],
    /** The monitor opened the task: pending view -> pending (other states: unchanged). */
    request: taskId,
    response: z.object({ state: z.enum(MONITOR_TASK_STATES) }),
  }),
  monitoringPhotoApply: endpoint({
    name: 'monitoring.photoApply',
    path: '/api/monitoring/photo/apply.shtm',
    auth: 'session',
    permission: Perm.operateMonitorTask,
    mutation: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.MONITOR_TASK_STATE, ErrorCode.FILE_FORMAT_ERROR, ErrorCode.FILE_TOO_LARGE],
    /** The browser's time and geolocation, used when the picture has no EXIF. */
    request: z
      .object({
        taskId: id,
        size: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
        contentType: z.string().trim().max(255),
        takenAt: z.iso.datetime({ offset: true }).optional(),
        latitude: z.number().min(-90).max(90).optional(),
        longitude: z.number().min(-180).max(180).optional(),
      })
      .strict(),
    response: uploadSignatureSchema.extend({ photoId: z.string() }),
  }),
  monitoringPhotoVerify: endpoint({
    name: 'monitoring.photoVerify',
    path: '/api/monitoring/photo/verify.shtm',
    auth: 'session',
    permission: Perm.operateMonitorTask,
    mutation: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.MONITOR_PHOTO_INVALID],
    /** After the POST to storage: reads the picture's EXIF, checks position and schedule. */
    request: z.object({ photoId: id }).strict(),
    response: monitorPhotoSchema,
  }),
  monitoringTaskComplete: endpoint({
    name: 'monitoring.taskComplete',
    path: '/api/monitoring/task/complete.shtm',
    auth: 'session',
    permission: Perm.operateMonitorTask,
    mutation: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.MONITOR_TASK_STATE, ErrorCode.MONITOR_PHOTOS_MISSING],
    request: taskId,
    response: z.object({ state: z.enum(MONITOR_TASK_STATES) }),
  }),
  monitoringTaskClose: endpoint({
    name: 'monitoring.taskClose',
    path: '/api/monitoring/task/close.shtm',
    auth: 'session',
    permission: Perm.operateAdMonitor,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.MONITOR_TASK_STATE],
    /** Closes the task: one not completed becomes not completed. */
    request: taskId,
    response: z.object({ state: z.enum(MONITOR_TASK_STATES) }),
  }),
  monitoringTaskReopen: endpoint({
    name: 'monitoring.taskReopen',
    path: '/api/monitoring/task/reopen.shtm',
    auth: 'session',
    permission: Perm.operateAdMonitor,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.MONITOR_TASK_STATE],
    /** Reopens a closed task: completed stays completed; else pending (view), or overdue after its due time. */
    request: taskId,
    response: z.object({ state: z.enum(MONITOR_TASK_STATES) }),
  }),
  monitoringAdEvidence: endpoint({
    name: 'monitoring.adEvidence',
    path: '/api/monitoring/adEvidence.shtm',
    auth: 'session',
    /** As the ad report itself: the reports' ad report or the advertiser's. */
    permission: `${Perm.reportAd},${Perm.advReport}`,
    errors: [ErrorCode.NOT_FOUND],
    scope: { object: 'ad', kind: 'detail', idField: 'adId' },
    /** The monitors' photographs of the ad's plans, for the ad report beside the proof of play. */
    request: z.object({ adId: id }).strict(),
    response: z.array(
      z.object({
        taskId: z.string(),
        deviceName: z.string(),
        monitorName: z.string(),
        state: z.enum(MONITOR_TASK_STATES),
        photos: z.array(monitorPhotoSchema),
      }),
    ),
  }),
} as const;
