import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { STRATEGY_TYPES, strategyBodySchema } from '../strategyRules.js';
import { listPageSize } from '../validation.js';
import { endpoint, ok } from './common.js';
import { deviceTargetsSchema } from './deviceGroups.js';
import { COMMAND_STATES, DEFAULT_COMMAND_TTL_SEC, MAX_COMMAND_TTL_SEC } from './devices.js';

/**
 * Device strategies (/device/strategy; spec sections 3 and 5, issue 9): power, volume,
 * brightness, operation and download rules, data-scoped by department and owner; applying
 * one to devices stores which strategy each device has per type and sends each an
 * `applyStrategy` command whose state the console follows per device.
 */

const pageSize = listPageSize();
const id = z.string().min(1).max(64);

export const strategyNameSchema = z.string().trim().min(1, 'validation.required').max(30);
export const strategyRemarkSchema = z.string().trim().max(200);

/** A strategy as the console lists and edits it. */
export const strategyRowSchema = z.object({
  id: z.string(),
  type: z.enum(STRATEGY_TYPES),
  name: z.string(),
  remark: z.string(),
  rules: z.record(z.string(), z.unknown()),
  /** Raised by every update: devices with an older one have not got the last change. */
  version: z.number(),
  deptId: z.string().nullable(),
  deptName: z.string(),
  ownerName: z.string(),
  /** Devices whose current strategy of this type it is. */
  appliedCount: z.number(),
  /** Of those, the ones that got an older version. */
  staleCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StrategyRow = z.infer<typeof strategyRowSchema>;

/** The devices an application names: device ids, device groups and tags (deviceTargetsSchema). */
export const strategyTargetsSchema = deviceTargetsSchema;

/** One device of an application: its command's state (device.commands' states). */
export const strategyApplicationDeviceSchema = z.object({
  deviceId: z.string(),
  deviceName: z.string(),
  commandId: z.string(),
  state: z.enum(COMMAND_STATES),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  sentAt: z.string().nullable(),
  ackedAt: z.string().nullable(),
});
export type StrategyApplicationDevice = z.infer<typeof strategyApplicationDeviceSchema>;

/** A device's strategy of one type (for the device detail). */
export const deviceStrategySchema = z.object({
  type: z.enum(STRATEGY_TYPES),
  strategyId: z.string(),
  name: z.string(),
  /** The version the device was sent, and the strategy's current one. */
  version: z.number(),
  currentVersion: z.number(),
  appliedAt: z.string(),
  /** The state of the command that carried it. */
  state: z.enum(COMMAND_STATES).nullable(),
});
export type DeviceStrategy = z.infer<typeof deviceStrategySchema>;

const editable = { name: strategyNameSchema, remark: strategyRemarkSchema.default('') };

export const strategyEndpoints = {
  strategyList: endpoint({
    name: 'strategy.list',
    path: '/api/device/strategy/list.shtm',
    auth: 'session',
    permission: Perm.deviceStrategy,
    scope: { object: 'strategy', kind: 'list' },
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        type: z.enum(STRATEGY_TYPES).optional(),
        /** Name contains. */
        keyword: z.string().trim().max(64).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(strategyRowSchema) }),
  }),
  strategyDetail: endpoint({
    name: 'strategy.detail',
    path: '/api/device/strategy/detail.shtm',
    auth: 'session',
    permission: Perm.deviceStrategy,
    scope: { object: 'strategy', kind: 'detail' },
    request: z.object({ id }).strict(),
    response: strategyRowSchema,
  }),
  strategyAdd: endpoint({
    name: 'strategy.add',
    path: '/api/device/strategy/add.shtm',
    auth: 'session',
    permission: Perm.deviceStrategy,
    mutation: true,
    notForMonitor: true,
    request: z.intersection(z.object(editable), strategyBodySchema),
    response: z.object({ id: z.string() }),
    errors: [ErrorCode.INVALID_PARAMS],
  }),
  strategyUpdate: endpoint({
    name: 'strategy.update',
    path: '/api/device/strategy/update.shtm',
    auth: 'session',
    permission: Perm.deviceStrategy,
    mutation: true,
    notForMonitor: true,
    // The type cannot change (CONFLICT): the devices that have it keep it per type.
    request: z.intersection(z.object({ id, ...editable }), strategyBodySchema),
    response: z.object({ version: z.number() }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.INVALID_PARAMS],
  }),
  strategyDelete: endpoint({
    name: 'strategy.delete',
    path: '/api/device/strategy/delete.shtm',
    auth: 'session',
    permission: Perm.deviceStrategy,
    mutation: true,
    notForMonitor: true,
    // Refused (CONFLICT) while it is the current strategy of a device: apply another first.
    request: z.object({ id }).strict(),
    response: ok,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  }),
  strategyApply: endpoint({
    name: 'strategy.apply',
    path: '/api/device/strategy/apply.shtm',
    auth: 'session',
    permission: Perm.deviceStrategy,
    mutation: true,
    notForMonitor: true,
    request: z
      .object({
        id,
        targets: strategyTargetsSchema,
        /** How long each command waits for its device. */
        ttlSec: z.number().int().min(10).max(MAX_COMMAND_TTL_SEC).default(DEFAULT_COMMAND_TTL_SEC),
      })
      .strict(),
    response: z.object({
      applicationId: z.string(),
      commands: z.array(z.object({ id: z.string(), deviceId: z.string() })),
    }),
    errors: [ErrorCode.NOT_FOUND, ErrorCode.INVALID_PARAMS],
  }),
  strategyApplication: endpoint({
    name: 'strategy.application',
    path: '/api/device/strategy/application.shtm',
    auth: 'session',
    permission: Perm.deviceStrategy,
    scope: { object: 'strategy', kind: 'detail', idField: 'strategyId' },
    request: z
      .object({
        strategyId: id,
        /** One application of the strategy; the latest when left out. */
        applicationId: id.optional(),
      })
      .strict(),
    response: z.object({
      applicationId: z.string().nullable(),
      createdAt: z.string().nullable(),
      /** The devices of the application the caller can see, with their command's state. */
      devices: z.array(strategyApplicationDeviceSchema),
    }),
  }),
  strategyOfDevice: endpoint({
    name: 'strategy.ofDevice',
    path: '/api/device/strategy/ofDevice.shtm',
    auth: 'session',
    permission: Perm.device,
    scope: { object: 'device', kind: 'detail', idField: 'deviceId' },
    request: z.object({ deviceId: id }).strict(),
    response: z.object({ data: z.array(deviceStrategySchema) }),
  }),
} as const;
