import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { listPageSize } from '../validation.js';
import { endpoint } from './common.js';
import { exportFollowUps, exportStatusSchema } from './operationLog.js';

/**
 * The warning centre (issue 30; /operate/warning). Warnings are computed by the server's
 * `warnings-evaluate` job from facts the system holds (presence, expiries, play rollups,
 * download states, storage quotas, renewal attempts, IoT cards), never typed in. A warning is
 * open, then acknowledged (by whom, when) or resolved by the job when its fact stops holding.
 * Served by the server's warnings module.
 */

const id = z.string().min(1).max(64);

/** What a warning is about (docs/ARCHITECTURE.md "The warning centre" defines each rule). */
export const WARNING_KINDS = [
  'deviceOffline',
  'deviceLongOffline',
  'adExpiring',
  'deviceExpiring',
  'underDelivering',
  'downloadFailing',
  'storageNearlyFull',
  'renewalFailing',
  'iotCardExpiring',
] as const;
export type WarningKind = (typeof WARNING_KINDS)[number];

export const WARNING_LEVELS = ['notice', 'warning', 'critical'] as const;
export type WarningLevel = (typeof WARNING_LEVELS)[number];

export const WARNING_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type WarningState = (typeof WARNING_STATES)[number];

export const WARNING_OBJECT_TYPES = ['device', 'ad', 'marketItem', 'iotCard', 'enterprise'] as const;
export type WarningObjectType = (typeof WARNING_OBJECT_TYPES)[number];

/** Each kind's level and the type of object it is about. */
export const WARNING_RULES: Record<WarningKind, { level: WarningLevel; object: WarningObjectType }> = {
  deviceOffline: { level: 'warning', object: 'device' },
  deviceLongOffline: { level: 'critical', object: 'device' },
  adExpiring: { level: 'notice', object: 'ad' },
  deviceExpiring: { level: 'warning', object: 'device' },
  underDelivering: { level: 'warning', object: 'device' },
  downloadFailing: { level: 'warning', object: 'device' },
  storageNearlyFull: { level: 'critical', object: 'enterprise' },
  renewalFailing: { level: 'critical', object: 'marketItem' },
  iotCardExpiring: { level: 'notice', object: 'iotCard' },
};

/** Spec section 9: offline for more than 15 days is 'long-term offline'. */
export const LONG_TERM_OFFLINE_DAYS = 15;
/** Spec section 9: an ad ending in under 7 days is 'expiring'. */
export const EXPIRING_AD_DAYS = 7;
/** An IoT card whose package ends in under this many days is near its package's end. */
export const IOT_CARD_EXPIRING_DAYS = 7;
/**
 * Under-delivering: a screen of which the schedule expected at least this many plays on the
 * previous UTC day, and that reported less than the reports' UNDER_DELIVERY_PCT of them.
 */
export const UNDER_DELIVERING_MIN_EXPECTED = 20;
/** The most warnings acknowledged in one call. */
export const WARNING_ACK_MAX = 500;

export const warningSchema = z.object({
  id: z.string(),
  kind: z.enum(WARNING_KINDS),
  level: z.enum(WARNING_LEVELS),
  objectType: z.enum(WARNING_OBJECT_TYPES),
  objectId: z.string(),
  objectName: z.string(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  since: z.string(),
  openedAt: z.string(),
  state: z.enum(WARNING_STATES),
  acknowledgedBy: z.string().nullable(),
  acknowledgedByName: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
});
export type Warning = z.infer<typeof warningSchema>;

export const warningFilterSchema = z
  .object({
    kind: z.enum(WARNING_KINDS).optional(),
    level: z.enum(WARNING_LEVELS).optional(),
    /** `live`: open or acknowledged (not resolved). */
    state: z.enum([...WARNING_STATES, 'live']).optional(),
    /** The object's name contains. */
    keyword: z.string().trim().max(64).optional(),
    /** Opened at or after / before (ISO instants). */
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();
export type WarningFilter = z.infer<typeof warningFilterSchema>;

export const warningCountsSchema = z.array(
  z.object({ kind: z.enum(WARNING_KINDS), open: z.number(), acknowledged: z.number() }),
);

const warningsExport = exportFollowUps({
  name: 'warnings.export',
  path: '/api/warnings/export',
  permission: Perm.operateWarning,
  object: 'warningExport',
});

export const warningsEndpoints = {
  warningsList: endpoint({
    name: 'warnings.list',
    path: '/api/warnings/list.shtm',
    auth: 'session',
    permission: Perm.operateWarning,
    // Scoped: the warnings about the devices and ads the caller's data scope shows (all with 'all').
    scope: { object: 'warning', kind: 'list' },
    errors: [ErrorCode.INVALID_PARAMS],
    /** The warnings the caller sees, newest first, and the live ones counted per kind. */
    request: warningFilterSchema.extend({ page: z.number().int().min(1).default(1), size: listPageSize() }).strict(),
    response: z.object({ total: z.number(), data: z.array(warningSchema), counts: warningCountsSchema }),
  }),
  warningsAcknowledge: endpoint({
    name: 'warnings.acknowledge',
    path: '/api/warnings/acknowledge.shtm',
    auth: 'session',
    permission: Perm.operateWarning,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Acknowledges open warnings of the enterprise (acknowledged or resolved ones are left as they are; NOT_FOUND: none is the enterprise's). */
    request: z.object({ ids: z.array(id).min(1).max(WARNING_ACK_MAX) }).strict(),
    response: z.object({ updated: z.number() }),
  }),
  warningsExportStart: endpoint({
    name: 'warnings.exportStart',
    path: '/api/warnings/exportStart.shtm',
    auth: 'session',
    permission: Perm.operateWarning,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.INVALID_PARAMS],
    request: warningFilterSchema,
    response: exportStatusSchema,
  }),
  warningsExportStatus: warningsExport.status,
  warningsExportDownload: warningsExport.download,
  warningsSettings: endpoint({
    name: 'warnings.settings',
    path: '/api/warnings/settings.shtm',
    auth: 'session',
    permission: Perm.operateWarning,
    unscoped: "the caller's enterprise's notification settings and its accounts' names",
    /** Per kind, the accounts notified when a warning of that kind opens; and the accounts one may choose. */
    request: z.object({}).strict(),
    response: z.object({
      recipients: z.array(z.object({ kind: z.enum(WARNING_KINDS), accountIds: z.array(z.string()) })),
      accounts: z.array(z.object({ id: z.string(), name: z.string(), phone: z.boolean(), email: z.boolean() })),
    }),
  }),
  warningsSettingsSave: endpoint({
    name: 'warnings.settingsSave',
    path: '/api/warnings/settingsSave.shtm',
    auth: 'session',
    permission: Perm.operateWarning,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Replaces the accounts notified of one kind (NOT_FOUND: an account is not the enterprise's). */
    request: z.object({ kind: z.enum(WARNING_KINDS), accountIds: z.array(id).max(50) }).strict(),
    response: z.object({ kind: z.enum(WARNING_KINDS), accountIds: z.array(z.string()) }),
  }),
};
