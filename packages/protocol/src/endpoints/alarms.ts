import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { listPageSize, phoneSchema } from '../validation.js';
import { endpoint, ok } from './common.js';
import { exportFollowUps, exportStatusSchema } from './operationLog.js';

/**
 * One-key alarms (issue 30; /alarm, /alarm/report, /alarm/setting, all behind Perm.alarm).
 * A screen raises an alarm event over the device protocol (`POST /dapi/v1/alarms`,
 * docs/device-protocol.md 2.10); the server finds the alarm regions the device is in (map
 * regions by province/city/district code, or devices drawn into a region by hand), notifies
 * their contacts through the sender at once, and the console follows the event's timeline:
 * raised, notified (to whom, delivered or failed), acknowledged, handled, closed with a note.
 * Events are data-scoped through their device; regions belong to the enterprise.
 */

/** Spec section 5: at most 10 contacts per region. */
export const MAX_ALARM_CONTACTS = 10;
export const MAX_ALARM_REGION_DEVICES = 1000;
export const MAX_ALARM_REGION_CODES = 100;
export const ALARM_EVENT_STATES = ['raised', 'acknowledged', 'handled', 'closed'] as const;
export type AlarmEventStateValue = (typeof ALARM_EVENT_STATES)[number];
export const ALARM_STEP_KINDS = ['raised', 'notified', 'acknowledged', 'handled', 'closed'] as const;
export const ALARM_ACTIONS = ['acknowledge', 'handle', 'close'] as const;
export type AlarmAction = (typeof ALARM_ACTIONS)[number];
/** The longest note an operator writes on an event. */
export const ALARM_NOTE_MAX = 500;
/** How often the console asks for the open count (the header badge and /alarm). */
export const ALARM_POLL_MS = 3000;

const pageSize = listPageSize();
const idSchema = z.string().min(1).max(64);
const dateSchema = z.iso.date();

export const alarmContactSchema = z
  .object({
    /** Spec section 5: the contact's name is required. */
    name: z.string().trim().min(1, 'validation.required').max(30, 'validation.contact'),
    /** Spec section 5: the contact's phone is required. */
    phone: z.string().trim().min(1, 'validation.required').pipe(phoneSchema),
    email: z.union([z.email('validation.email').max(254), z.literal('')]).default(''),
  })
  .strict();
export type AlarmContact = z.output<typeof alarmContactSchema>;

export const alarmRegionSaveSchema = z
  .object({
    /** Absent: a new region. */
    id: idSchema.optional(),
    name: z.string().trim().min(1, 'validation.required').max(30, 'validation.tooLong'),
    /** Province, city or district codes (modules/geo) whose devices belong to the region. */
    regionCodes: z
      .array(z.string().regex(/^\d{2,12}$/))
      .max(MAX_ALARM_REGION_CODES)
      .default([]),
    /** Devices drawn into the region by hand. */
    deviceIds: z.array(idSchema).max(MAX_ALARM_REGION_DEVICES).default([]),
    contacts: z.array(alarmContactSchema).min(1).max(MAX_ALARM_CONTACTS),
  })
  .strict();

export const alarmRegionSchema = z.object({
  id: z.string(),
  name: z.string(),
  regionCodes: z.array(z.string()),
  deviceIds: z.array(z.string()),
  devices: z.array(z.object({ id: z.string(), name: z.string() })),
  contacts: z.array(z.object({ name: z.string(), phone: z.string(), email: z.string() })),
  updatedAt: z.string(),
});
export type AlarmRegion = z.infer<typeof alarmRegionSchema>;

export const alarmStepSchema = z.object({
  kind: z.enum(ALARM_STEP_KINDS),
  at: z.string(),
  actorName: z.string().nullable(),
  note: z.string(),
  /** A notification's contact, target (phone or e-mail), channel and outcome. */
  contactName: z.string().nullable(),
  target: z.string().nullable(),
  channel: z.string().nullable(),
  outcome: z.enum(['delivered', 'failed']).nullable(),
  error: z.string().nullable(),
});
export type AlarmStep = z.infer<typeof alarmStepSchema>;

export const alarmEventSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  deviceNumber: z.string().nullable(),
  address: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  regionNames: z.array(z.string()),
  state: z.enum(ALARM_EVENT_STATES),
  raisedAt: z.string(),
  receivedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  handledAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  note: z.string(),
  /** A signed, short-lived URL of the screenshot sent with the alarm, or null. */
  screenshotUrl: z.string().nullable(),
  /** Notifications sent and delivered. */
  notified: z.number(),
  delivered: z.number(),
});
export type AlarmEvent = z.infer<typeof alarmEventSchema>;

const eventFilterSchema = z.object({
  state: z.enum(ALARM_EVENT_STATES).optional(),
  /** Only events not closed. */
  open: z.boolean().optional(),
  deviceId: idSchema.optional(),
  regionId: idSchema.optional(),
  /** Received on or after / on or before (dates, UTC+8 days). */
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  keyword: z.string().trim().max(64).optional(),
});
export type AlarmEventFilter = z.output<typeof eventFilterSchema>;

const reportFilterSchema = z
  .object({
    from: dateSchema,
    to: dateSchema,
    regionId: idSchema.optional(),
  })
  .strict();
export type AlarmReportFilter = z.output<typeof reportFilterSchema>;

const durationsSchema = z.object({
  events: z.number(),
  acknowledged: z.number(),
  closed: z.number(),
  /** Mean seconds from received to acknowledged / to closed (null: none yet). */
  meanAckSec: z.number().nullable(),
  meanCloseSec: z.number().nullable(),
});

export const alarmReportSchema = z.object({
  totals: durationsSchema,
  days: z.array(z.object({ day: z.string(), events: z.number(), closed: z.number() })),
  regions: z.array(durationsSchema.extend({ name: z.string() })),
  devices: z.array(durationsSchema.extend({ deviceId: z.string(), name: z.string() })),
});
export type AlarmReport = z.infer<typeof alarmReportSchema>;

const alarmExport = exportFollowUps({
  name: 'alarm.export',
  path: '/api/alarm/export',
  permission: Perm.alarm,
  object: 'alarmExport',
});

export const alarmEndpoints = {
  alarmRegionList: endpoint({
    name: 'alarm.regionList',
    path: '/api/alarm/region/list.shtm',
    auth: 'session',
    permission: Perm.alarm,
    scope: { object: 'alarmRegion', kind: 'list', audience: 'tenant' },
    request: z.object({ keyword: z.string().trim().max(64).optional() }).strict(),
    response: z.object({ total: z.number(), data: z.array(alarmRegionSchema) }),
  }),
  alarmRegionSave: endpoint({
    name: 'alarm.regionSave',
    path: '/api/alarm/region/save.shtm',
    auth: 'session',
    permission: Perm.alarm,
    mutation: true,
    notForMonitor: true,
    request: alarmRegionSaveSchema,
    response: z.object({ id: z.string() }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.ALARM_REGION_NAME_TAKEN],
  }),
  alarmRegionDelete: endpoint({
    name: 'alarm.regionDelete',
    path: '/api/alarm/region/delete.shtm',
    auth: 'session',
    permission: Perm.alarm,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id: idSchema }).strict(),
    response: ok,
    errors: [ErrorCode.NOT_FOUND],
  }),
  alarmEventList: endpoint({
    name: 'alarm.eventList',
    path: '/api/alarm/event/list.shtm',
    auth: 'session',
    permission: Perm.alarm,
    scope: { object: 'alarmEvent', kind: 'list' },
    request: eventFilterSchema.extend({ page: z.number().int().min(1).default(1), size: pageSize }).strict(),
    response: z.object({ total: z.number(), data: z.array(alarmEventSchema) }),
  }),
  alarmEventInfo: endpoint({
    name: 'alarm.eventInfo',
    path: '/api/alarm/event/info.shtm',
    auth: 'session',
    permission: Perm.alarm,
    scope: { object: 'alarmEvent', kind: 'detail' },
    request: z.object({ id: idSchema }).strict(),
    response: z.object({ event: alarmEventSchema, steps: z.array(alarmStepSchema) }),
    errors: [ErrorCode.NOT_FOUND],
  }),
  /** The cheap call the console polls (header badge, /alarm): open events and the newest one. */
  alarmEventCount: endpoint({
    name: 'alarm.eventCount',
    path: '/api/alarm/event/count.shtm',
    auth: 'session',
    permission: Perm.alarm,
    scope: { object: 'alarmEvent', kind: 'count', figure: 'open' },
    request: z.object({}).strict(),
    response: z.object({ open: z.number(), latestId: z.string().nullable(), latestAt: z.string().nullable() }),
  }),
  alarmEventAct: endpoint({
    name: 'alarm.eventAct',
    path: '/api/alarm/event/act.shtm',
    auth: 'session',
    permission: Perm.alarm,
    mutation: true,
    notForMonitor: true,
    request: z
      .object({
        id: idSchema,
        action: z.enum(ALARM_ACTIONS),
        note: z.string().trim().max(ALARM_NOTE_MAX, 'validation.tooLong').default(''),
      })
      .strict(),
    response: z.object({ state: z.enum(ALARM_EVENT_STATES) }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.ALARM_EVENT_STATE, ErrorCode.ALARM_NOTE_REQUIRED],
  }),
  alarmReport: endpoint({
    name: 'alarm.report',
    path: '/api/alarm/report.shtm',
    auth: 'session',
    permission: Perm.alarm,
    scope: {
      object: 'alarmEvent',
      kind: 'count',
      figure: 'totals.events',
      with: { from: '2000-01-01', to: '2100-01-01' },
    },
    request: reportFilterSchema,
    response: alarmReportSchema,
    errors: [ErrorCode.INVALID_PARAMS],
  }),
  alarmExportStart: endpoint({
    name: 'alarm.exportStart',
    path: '/api/alarm/exportStart.shtm',
    auth: 'session',
    permission: Perm.alarm,
    mutation: true,
    notForMonitor: true,
    request: reportFilterSchema,
    response: exportStatusSchema,
  }),
  alarmExportStatus: alarmExport.status,
  alarmExportDownload: alarmExport.download,
};
