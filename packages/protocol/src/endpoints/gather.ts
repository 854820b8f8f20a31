import { z } from 'zod';
import { AGE_BANDS } from '../device/messages.js';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { pageSchema } from '../validation.js';
import { endpoint } from './common.js';
import { DEVICE_STATUSES } from './devices.js';

/**
 * Data collection (/device/gather): what devices report, as they last reported it (the
 * latest heartbeat's figures), and the audience figures in the spec's age bands (section 9)
 * that devices measuring an audience add to their heartbeats, kept per device per hour.
 * Nothing here is estimated by the server: a device that reports no audience has none.
 */

/** Days of audience figures one call may span. */
export const AUDIENCE_DAYS = [1, 7, 30] as const;

export const gatherRowSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  name: z.string(),
  status: z.enum(DEVICE_STATUSES),
  deptName: z.string(),
  playerVersion: z.string().nullable(),
  storageUsed: z.number().nullable(),
  storageFree: z.number().nullable(),
  volume: z.number().nullable(),
  brightness: z.number().nullable(),
  screenWidth: z.number().nullable(),
  screenHeight: z.number().nullable(),
  screenOn: z.boolean().nullable(),
  uptimeSec: z.number().nullable(),
  lastSeenAt: z.string().nullable(),
  /** People counted over the last 24 hours (null: the device reports no audience). */
  audience24h: z.number().nullable(),
});
export type GatherRow = z.infer<typeof gatherRowSchema>;

export const audienceFiguresSchema = z.object({
  /** One entry per age band, in the spec's order. */
  bands: z.array(z.object({ band: z.enum(AGE_BANDS), male: z.number(), female: z.number(), unknown: z.number() })),
  total: z.number(),
  /** Devices that reported any audience in the window. */
  devices: z.number(),
  from: z.string(),
  to: z.string(),
});
export type AudienceFigures = z.infer<typeof audienceFiguresSchema>;

export const gatherEndpoints = {
  gatherList: endpoint({
    name: 'gather.list',
    path: '/api/device/gather/list.shtm',
    auth: 'session',
    permission: Perm.deviceGather,
    scope: { object: 'device', kind: 'list' },
    request: pageSchema
      .extend({
        keyword: z.string().trim().max(64).optional(),
        /** Only devices that reported an audience in the last 24 hours. */
        withAudience: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(gatherRowSchema) }),
  }),
  gatherAudience: endpoint({
    name: 'gather.audience',
    path: '/api/device/gather/audience.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.deviceGather,
    scope: { object: 'device', kind: 'detail', idField: 'deviceId' },
    request: z
      .object({
        /** One device; without it, every device the caller can see. */
        deviceId: z.string().min(1).max(64).optional(),
        days: z.union([z.literal(1), z.literal(7), z.literal(30)]).default(7),
      })
      .strict(),
    response: audienceFiguresSchema,
  }),
} as const;
