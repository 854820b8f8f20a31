import { z } from 'zod';
import { deviceNumberSchema, pairingCodeSchema } from '../device/http.js';
import { COMMAND_KINDS, commandBodySchema } from '../device/messages.js';
import { Perm } from '../permissions.js';
import { PAGE_SIZES } from '../validation.js';
import { endpoint } from './common.js';

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

const pageSize = z
  .number()
  .int()
  .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
  .default(50);

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
  lastSeenAt: z.string().nullable(),
  activatedAt: z.string().nullable(),
  createdAt: z.string(),
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

export const deviceEndpoints = {
  deviceAdd: endpoint({
    name: 'device.add',
    path: '/api/device/add.shtm',
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    request: z
      .object({
        /** The pairing code the player shows, or the device number it reported. */
        code: pairingCodeSchema.optional(),
        number: deviceNumberSchema.optional(),
        name: z.string().trim().min(1).max(64),
        /** The department the device belongs to (within the caller's scope); default the caller's. */
        deptId: z.string().min(1).max(64).optional(),
      })
      .strict()
      .refine((v) => Boolean(v.code) !== Boolean(v.number), { message: 'codeOrNumber', path: ['code'] }),
    response: z.object({ id: z.string() }),
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
        status: z.enum(DEVICE_STATUSES).optional(),
        /** Name or number contains. */
        keyword: z.string().trim().max(64).optional(),
      })
      .strict(),
    /** `totalCapped`: more than `total` (1,000: the count stops there) devices match; the console shows "1,000+". */
    response: z.object({ total: z.number(), totalCapped: z.boolean().optional(), data: z.array(deviceRowSchema) }),
  }),
  deviceSendCommand: endpoint({
    name: 'device.sendCommand',
    path: '/api/device/command/send.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    // The targets and the command's kind with its parameters (checked together).
    request: z.intersection(
      z.object({
        deviceIds: z.array(z.string().min(1).max(64)).min(1).max(MAX_COMMAND_TARGETS),
        ttlSec: z.number().int().min(10).max(MAX_COMMAND_TTL_SEC).default(DEFAULT_COMMAND_TTL_SEC),
      }),
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
} as const;
