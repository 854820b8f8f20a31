import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { pageSchema } from '../validation.js';
import { endpoint, ok } from './common.js';

/**
 * Split screens (/device/splicDevice, spec sections 1 and 9: "splicing screen"): a video wall
 * of rows x columns of devices. Each tile is one device at one position; a device is a tile
 * of at most one wall. Screen rotation needs tile scaling (spec section 9: "screen rotation
 * only with tile scaling"). The wall is ONE target for content: when ads and layouts arrive,
 * a layout published to a wall is cut into its tiles by row and column (each tile's device
 * shows its part), so a wall is scheduled like one screen. Walls are data-scoped by
 * department and owner like devices.
 */

/** Largest grid of a wall (rows and columns each); 8 x 8 = 64 screens covers real video walls. */
export const SPLICE_MAX_ROWS = 8;
export const SPLICE_MAX_COLS = 8;
/** Screen rotations a wall may have, in degrees clockwise. */
export const SPLICE_ROTATIONS = [0, 90, 180, 270] as const;
export type SpliceRotation = (typeof SPLICE_ROTATIONS)[number];

const idSchema = z.string().min(1).max(64);

export const spliceTileSchema = z
  .object({
    /** 0-based row, from the top. */
    row: z
      .number()
      .int()
      .min(0)
      .max(SPLICE_MAX_ROWS - 1),
    /** 0-based column, from the left. */
    col: z
      .number()
      .int()
      .min(0)
      .max(SPLICE_MAX_COLS - 1),
    deviceId: idSchema,
  })
  .strict();

export const spliceNameSchema = z.string().trim().min(1, 'validation.required').max(50);

/** A wall's fields as the editor sends them (positions are checked against the grid by the server). */
export const spliceFieldsSchema = z
  .object({
    name: spliceNameSchema,
    rows: z.number().int().min(1).max(SPLICE_MAX_ROWS),
    cols: z.number().int().min(1).max(SPLICE_MAX_COLS),
    /** The wall's department (within the caller's scope); default the caller's. */
    deptId: idSchema.optional(),
    /** Tile scaling: each screen shows its part of the content scaled to its own size. */
    scaling: z.boolean().default(false),
    /** Screen rotation in degrees; other than 0 only with tile scaling. */
    rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).default(0),
    tiles: z
      .array(spliceTileSchema)
      .max(SPLICE_MAX_ROWS * SPLICE_MAX_COLS)
      .default([]),
  })
  .strict();
export type SpliceFields = z.input<typeof spliceFieldsSchema>;

export const spliceRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  rows: z.number(),
  cols: z.number(),
  deptId: z.string().nullable(),
  deptName: z.string(),
  scaling: z.boolean(),
  rotation: z.number(),
  /** Tiles with a device. */
  tileCount: z.number(),
  /** Tiles whose device is online now. */
  onlineCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SpliceRow = z.infer<typeof spliceRowSchema>;

export const spliceDetailSchema = spliceRowSchema.extend({
  tiles: z.array(
    z.object({
      row: z.number(),
      col: z.number(),
      deviceId: z.string(),
      deviceName: z.string(),
      deviceNumber: z.string().nullable(),
      status: z.enum(['online', 'offline', 'invalid', 'activating', 'trial']),
    }),
  ),
});
export type SpliceDetail = z.infer<typeof spliceDetailSchema>;

export const spliceEndpoints = {
  spliceList: endpoint({
    name: 'splice.list',
    path: '/api/device/splice/list.shtm',
    auth: 'session',
    permission: Perm.deviceSplice,
    scope: { object: 'splice', kind: 'list' },
    request: pageSchema.extend({ keyword: z.string().trim().max(50).optional() }).strict(),
    response: z.object({ total: z.number(), data: z.array(spliceRowSchema) }),
  }),
  spliceDetail: endpoint({
    name: 'splice.detail',
    path: '/api/device/splice/detail.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.deviceSplice,
    scope: { object: 'splice', kind: 'detail' },
    request: z.object({ id: idSchema }).strict(),
    response: spliceDetailSchema,
  }),
  spliceCreate: endpoint({
    name: 'splice.create',
    path: '/api/device/splice/create.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.deviceSplice,
    mutation: true,
    notForMonitor: true,
    request: spliceFieldsSchema,
    response: z.object({ id: z.string() }),
  }),
  spliceUpdate: endpoint({
    name: 'splice.update',
    path: '/api/device/splice/update.shtm',
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.deviceSplice,
    mutation: true,
    notForMonitor: true,
    request: spliceFieldsSchema.extend({ id: idSchema }).strict(),
    response: ok,
  }),
  spliceDelete: endpoint({
    name: 'splice.delete',
    path: '/api/device/splice/delete.shtm',
    errors: [ErrorCode.NOT_FOUND],
    auth: 'session',
    permission: Perm.deviceSplice,
    mutation: true,
    notForMonitor: true,
    request: z.object({ id: idSchema }).strict(),
    response: ok,
  }),
} as const;
