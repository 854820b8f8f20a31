import { z } from 'zod';
import { deviceNumberSchema, pairingCodeSchema } from '../device/http.js';
import { COMMAND_KINDS, commandBodySchema } from '../device/messages.js';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { timeZoneSchema } from '../timeZone.js';
import { listPageSize, sortFields } from '../validation.js';
import { endpoint, ok } from './common.js';
import { customFieldEndpoints, customFieldFilterSchema, customFieldValuesSchema } from './customFields.js';
import { deviceTargetsSchema } from './deviceGroups.js';
import { dictionaryCodeSchema } from './dictionaries.js';
import { LICENCE_STATES, type LicenceState } from './market.js';

/**
 * Devices (issue 9, spec sections 3, 4 and 7): adding a paired player to the registry, the
 * device list, and commands. Devices are data-scoped by department and owner and can be
 * shared (ref-type '1'); what players themselves call is in device/ (docs/device-protocol.md).
 */

export const DEVICE_STATUSES = ['online', 'offline', 'invalid', 'activating', 'trial'] as const;
export type DeviceStatusValue = (typeof DEVICE_STATUSES)[number];
export const COMMAND_STATES = ['pending', 'sent', 'acknowledged', 'failed', 'expired'] as const;
export type CommandStateValue = (typeof COMMAND_STATES)[number];

/** How long a command waits for its device by default, and at most. */
export const DEFAULT_COMMAND_TTL_SEC = 600;
export const MAX_COMMAND_TTL_SEC = 7 * 86400;
/** Devices one send may target. */
export const MAX_COMMAND_TARGETS = 500;

/**
 * Device types (spec section 3 Device 'type'): the kind of screen. The list is the dictionary
 * `deviceType` (endpoints/dictionaries.ts), which the platform operator extends; these are its
 * first entries (migration 0068). A device's type is a dictionary code: the server accepts an
 * enabled one, or the one the device already holds (DICTIONARY_VALUE_INVALID otherwise).
 */
export const DEVICE_TYPES = ['lcd', 'led', 'touch', 'outdoor', 'projector', 'other'] as const;
export type DeviceTypeValue = string;
/**
 * Device scenes (spec section 3 Device 'scene'): where the screen stands. The dictionary `scene`
 * (open, like the types); these are its first entries (migration 0070), which the console names
 * until the dictionary answers. A device's scene is a code checked as its type is.
 */
export const DEVICE_SCENES = [
  'mall',
  'storefront',
  'restaurant',
  'lobby',
  'elevator',
  'office',
  'transit',
  'outdoor',
  'hospital',
  'school',
  'hotel',
  'other',
] as const;
/**
 * The common screen diagonals (inches) the device form suggests: the dictionary `screenSize`'s
 * first entries (migration 0070). Only suggestions: a device's screenSize is any number.
 */
export const SCREEN_SIZE_PRESETS = [32, 43, 49, 55, 65, 75, 86, 98, 110, 138] as const;
/** The device list's sortable columns (the table config's `sortable` props). */
export const DEVICE_SORT_KEYS = [
  'name',
  'number',
  'status',
  'playerVersion',
  'storageUsed',
  'screenSize',
  'installedAt',
  'expireAt',
  'lastSeenAt',
  'createdAt',
] as const;
/** Devices one delete, disable or enable may name. */
export const MAX_DEVICE_BATCH = 500;
/** Longest remark of a device. */
export const DEVICE_REMARK_MAX = 200;

const isoTime = z.iso.datetime({ offset: true });
const deviceId = z.string().min(1).max(64);

/** The editable fields of a device (device.update); null clears an optional one. */
export const deviceFieldsSchema = z.object({
  name: z.string().trim().min(1).max(64),
  /** The department the device belongs to (within the caller's scope). */
  deptId: deviceId.nullable().optional(),
  type: dictionaryCodeSchema.nullable().optional(),
  /** Where the screen stands: a code of the dictionary `scene` (an enabled one, or the device's own). */
  scene: dictionaryCodeSchema.nullable().optional(),
  /** Diagonal in inches, at most one decimal (e.g. 55, 65.5). */
  screenSize: z
    .number()
    .min(1)
    .max(1000)
    .refine((n) => Math.abs(Math.round(n * 10) - n * 10) < 1e-9, 'validation.invalid')
    .nullable()
    .optional(),
  /** Screens driven by this player (1 for most; more for a multi-screen unit). */
  screenCount: z.number().int().min(1).max(64).optional(),
  installedAt: isoTime.nullable().optional(),
  /** The IANA zone the screen stands in when not its enterprise's (issue 31); null: the enterprise's. */
  timeZone: timeZoneSchema.nullable().optional(),
  // No expireAt: a device's service expiry is the market's (a trial from pairing, points bought; issue 27).
  remark: z.string().trim().max(DEVICE_REMARK_MAX).optional(),
  /** Values of the enterprise's custom fields (issue 31, customFields.ts); null clears one. */
  customFields: customFieldValuesSchema.optional(),
});

const pageSize = listPageSize();

/**
 * A device's licence at `now` (issue 27; all times ms): `expired` once its service expiry has
 * passed, else `licensed` when points were bought for it (a market item exists), else `trial`.
 * A null expiry is no limit (devices made before licences): never expired.
 */
export function licenceOf(expireAt: number | null, licensed: boolean, now: number): LicenceState {
  if (expireAt !== null && expireAt <= now) return 'expired';
  return licensed ? 'licensed' : 'trial';
}

/** Whole days until `expireAt` (rounded up; 0 once passed): what the console's 'expires in N days' says. */
export function daysUntil(expireAt: number, now: number): number {
  return Math.max(0, Math.ceil((expireAt - now) / 86_400_000));
}

export const deviceRowSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  name: z.string(),
  /** Spec section 4; `online` with missed heartbeats is answered `offline`. */
  status: z.enum(DEVICE_STATUSES),
  deptId: z.string().nullable(),
  deptName: z.string(),
  playerVersion: z.string().nullable(),
  ip: z.string().nullable(),
  mac: z.string().nullable(),
  storageUsed: z.number().nullable(),
  storageFree: z.number().nullable(),
  screenWidth: z.number().nullable(),
  screenHeight: z.number().nullable(),
  volume: z.number().nullable(),
  brightness: z.number().nullable(),
  // device groups and tags (branch dev-groups)
  groupId: z.string().nullable(),
  groupName: z.string(),
  tags: z.array(z.object({ id: z.string(), name: z.string() })),
  // Where the screen stands (branch dev-geo): coordApprox when the point is a region's centre.
  address: z.string().nullable(),
  poi: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  coordApprox: z.boolean(),
  storeId: z.string().nullable(),
  storeName: z.string(),
  lastSeenAt: z.string().nullable(),
  activatedAt: z.string().nullable(),
  createdAt: z.string(),
  // Registry fields the operator keeps (device.update).
  /** A code of the dictionary `deviceType` (its label: dictionary.list). */
  type: z.string().nullable(),
  /** A code of the dictionary `scene` (its label: dictionary.list); null: not given. */
  scene: z.string().nullable(),
  screenSize: z.number().nullable(),
  screenCount: z.number(),
  installedAt: z.string().nullable(),
  /** The device's own IANA zone; null: it follows its enterprise's (issue 31). */
  timeZone: z.string().nullable(),
  /** When the device's service expires (the market writes it; null: no limit). */
  expireAt: z.string().nullable(),
  /** Its licence now (licenceOf): a trial, points bought, or expired (the player then gets no new content). */
  licence: z.enum(LICENCE_STATES),
  remark: z.string(),
  /** Values of the enterprise's custom fields by key (issue 31, customFields.ts). */
  customFields: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The caller may edit, disable and delete it (in their own data scope, not only shared with them). */
  canManage: z.boolean(),
  /** A player of the demo fleet: a headless player the server runs itself (README, DEMO_PLAYERS). */
  demo: z.boolean(),
});
export type DeviceRow = z.infer<typeof deviceRowSchema>;

export const commandRowSchema = z.object({
  id: z.string(),
  deviceId: z.string(),
  kind: z.enum(COMMAND_KINDS),
  params: z.record(z.string(), z.unknown()),
  state: z.enum(COMMAND_STATES),
  attempts: z.number(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** The ack's data (a screenshot's image...). */
  result: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  ackedAt: z.string().nullable(),
  expiresAt: z.string(),
});
export type CommandRow = z.infer<typeof commandRowSchema>;

/** One device with everything the registry knows of it (device.detail). */
export const deviceDetailSchema = deviceRowSchema.extend({
  firmware: z.string().nullable(),
  model: z.string().nullable(),
  screenOn: z.boolean().nullable(),
  heartbeatSec: z.number(),
  /** When the presence last changed. */
  statusAt: z.string(),
  ownerName: z.string(),
  updatedAt: z.string(),
});
export type DeviceDetail = z.infer<typeof deviceDetailSchema>;

export const statusHistoryRowSchema = z.object({
  id: z.string(),
  status: z.enum(DEVICE_STATUSES),
  /** 'added', 'connect', 'will', 'shutdown', 'reboot', 'heartbeat', 'disabled', 'enabled'. */
  reason: z.string(),
  at: z.string(),
});
export type StatusHistoryRow = z.infer<typeof statusHistoryRowSchema>;

const deviceIds = z.array(deviceId).min(1).max(MAX_DEVICE_BATCH);

/** A live pairing that reports a device number (device.pairingCandidates). */
export const pairingCandidateSchema = z.object({
  /** The code the player shows: add the device by the one its screen shows. */
  code: z.string(),
  /** When the player asked for it (ISO). */
  createdAt: z.string(),
  expiresAt: z.string(),
  /** The address the request came from, as the server saw it. */
  ip: z.string().nullable(),
  playerVersion: z.string().nullable(),
  model: z.string().nullable(),
});
export type PairingCandidate = z.infer<typeof pairingCandidateSchema>;

export const deviceEndpoints = {
  ...customFieldEndpoints,
  deviceAdd: endpoint({
    name: 'device.add',
    path: '/api/device/add.shtm',
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.DICTIONARY_VALUE_INVALID],
    request: z
      .object({
        /** The pairing code the player shows, or the device number it reported. */
        code: pairingCodeSchema.optional(),
        number: deviceNumberSchema.optional(),
        name: z.string().trim().min(1).max(64),
        /** The department the device belongs to (within the caller's scope); default the caller's. */
        deptId: z.string().min(1).max(64).optional(),
        /** Where the screen stands: an enabled code of the dictionary `scene` (issue 31). */
        scene: dictionaryCodeSchema.optional(),
        /**
         * Values of the enterprise's custom fields (issue 31, customFields.ts): a required field
         * needs one here unless the device was pre-registered with it (Excel import).
         */
        customFields: customFieldValuesSchema.optional(),
      })
      .strict()
      .refine((v) => Boolean(v.code) !== Boolean(v.number), { message: 'codeOrNumber', path: ['code'] }),
    response: z.object({ id: z.string() }),
  }),
  /**
   * The live, unbound pairings that report a device number (add by number answered
   * PAIRING_NUMBER_AMBIGUOUS): the operator compares their codes with the one on the screen
   * and adds it by that code. Newest first, at most 20.
   */
  devicePairingCandidates: endpoint({
    name: 'device.pairingCandidates',
    path: '/api/device/pairingCandidates.shtm',
    auth: 'session',
    permission: Perm.device,
    notForMonitor: true,
    unscoped: 'unbound pairings belong to no enterprise yet: the ones an add by the same number could bind',
    request: z.object({ number: deviceNumberSchema }).strict(),
    response: z.object({ data: z.array(pairingCandidateSchema) }),
  }),
  deviceList: endpoint({
    name: 'device.list',
    path: '/api/device/list.shtm',
    auth: 'session',
    permission: Perm.device,
    scope: { object: 'device', kind: 'list' },
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        ...sortFields(DEVICE_SORT_KEYS),
        status: z.enum(DEVICE_STATUSES).optional(),
        /** Name, number, IP or MAC contains. */
        keyword: z.string().trim().max(64).optional(),
        /** The department and those below it. */
        deptId: deviceId.optional(),
        type: dictionaryCodeSchema.optional(),
        /** A code of the dictionary `scene` (a disabled one too: devices keep it). */
        scene: dictionaryCodeSchema.optional(),
        /** Expiring before this time (the expired included). */
        expireBefore: isoTime.optional(),
        /** Devices whose licence is now this (licenceOf). */
        licence: z.enum(LICENCE_STATES).optional(),
        /** Player (APK) version, exactly. */
        playerVersion: z.string().trim().max(64).optional(),
        /** Devices in this group / carrying this tag (branch dev-groups). */
        groupId: z.string().min(1).max(64).optional(),
        tagId: z.string().min(1).max(64).optional(),
        /** Devices of this store (branch dev-geo). */
        storeId: z.string().min(1).max(64).optional(),
        /** Devices whose custom field holds this value (text: contains; others: equal). */
        customField: customFieldFilterSchema.optional(),
      })
      .strict(),
    /** `totalCapped`: more than `total` (1,000: the count stops there) devices match; the console shows "1,000+". */
    response: z.object({ total: z.number(), totalCapped: z.boolean().optional(), data: z.array(deviceRowSchema) }),
  }),
  deviceDetail: endpoint({
    name: 'device.detail',
    path: '/api/device/detail.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.device,
    scope: { object: 'device', kind: 'detail', idField: 'id' },
    request: z.object({ id: deviceId }).strict(),
    response: deviceDetailSchema,
  }),
  deviceUpdate: endpoint({
    name: 'device.update',
    path: '/api/device/update.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.DICTIONARY_VALUE_INVALID],
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    request: deviceFieldsSchema.extend({ id: deviceId }).strict(),
    response: ok,
  }),
  deviceDelete: endpoint({
    name: 'device.delete',
    path: '/api/device/delete.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    request: z.object({ ids: deviceIds }).strict(),
    response: z.object({ deleted: z.number() }),
  }),
  deviceDisable: endpoint({
    name: 'device.disable',
    path: '/api/device/disable.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    request: z.object({ ids: deviceIds }).strict(),
    response: z.object({ changed: z.number() }),
  }),
  deviceEnable: endpoint({
    name: 'device.enable',
    path: '/api/device/enable.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    request: z.object({ ids: deviceIds }).strict(),
    response: z.object({ changed: z.number() }),
  }),
  deviceStatusHistory: endpoint({
    name: 'device.statusHistory',
    path: '/api/device/statusHistory.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.device,
    scope: { object: 'device', kind: 'detail', idField: 'deviceId' },
    request: z.object({ deviceId, page: z.number().int().min(1).default(1), size: pageSize }).strict(),
    response: z.object({ total: z.number(), data: z.array(statusHistoryRowSchema) }),
  }),
  deviceSendCommand: endpoint({
    name: 'device.sendCommand',
    path: '/api/device/command/send.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    // The targets (deviceTargetsSchema: devices, groups, tags) and the command's kind with its parameters.
    request: z.intersection(
      z.intersection(
        deviceTargetsSchema,
        z.object({
          ttlSec: z.number().int().min(10).max(MAX_COMMAND_TTL_SEC).default(DEFAULT_COMMAND_TTL_SEC),
        }),
      ),
      commandBodySchema,
    ),
    response: z.object({ commands: z.array(z.object({ id: z.string(), deviceId: z.string() })) }),
  }),
  deviceCommands: endpoint({
    name: 'device.commands',
    path: '/api/device/command/list.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    scope: { object: 'device', kind: 'detail', idField: 'deviceId' },
    request: z
      .object({
        deviceId: z.string().min(1).max(64),
        /** Only these commands (the console follows the ones it sent). */
        ids: z.array(z.string().min(1).max(64)).max(MAX_COMMAND_TARGETS).optional(),
        page: z.number().int().min(1).default(1),
        size: pageSize,
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(commandRowSchema) }),
  }),
  // --- player content (branch player) ---
  /**
   * The layout the devices play (spec Device 'layout'), or null for none; each device is told
   * to fetch its new manifest (a syncContent command). Permission as device.update.
   */
  deviceAssignLayout: endpoint({
    name: 'device.assignLayout',
    path: '/api/device/assignLayout.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.LAYOUT_NOT_AVAILABLE],
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    request: z.object({ ids: deviceIds, layoutId: z.string().min(1).max(64).nullable() }).strict(),
    response: z.object({ changed: z.number() }),
  }),
  /**
   * An offline package of a device's content now (docs/device-protocol.md 2.11): its manifest
   * and every file in one tar archive, stored for a day; the answer names a signed link to it.
   * For a screen with no network; permission as device.update (the devices the caller manages).
   */
  deviceOfflinePackage: endpoint({
    name: 'device.offlinePackage',
    path: '/api/device/offlinePackage.shtm',
    errors: [ErrorCode.NOT_FOUND, ErrorCode.OFFLINE_FILE_MISSING],
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id: z.string().min(1).max(64) }).strict(),
    response: z.object({
      url: z.string(),
      fileName: z.string(),
      /** Bytes of the archive. */
      size: z.number(),
      files: z.number(),
      items: z.number(),
      manifestVersion: z.string(),
      expiresAt: z.string(),
    }),
  }),
  // --- end player content ---
} as const;
