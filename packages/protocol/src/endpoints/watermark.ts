import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { endpoint } from './common.js';

/**
 * Screen watermarks (issue 31; docs/device-protocol.md 2.7.5): a text or a picture of the
 * library drawn over everything a screen plays, at a corner or the centre, with an opacity and
 * a size (its height, % of the screen's). Set per device group and per device: a device's own
 * setting wins over its group's (`enabled: false` on a device: none, whatever its group has);
 * clearing a device's setting (null) falls back to its group's. The effective watermark travels
 * in the device's manifest (`watermark`), so a screen keeps it offline.
 */

export const WATERMARK_POSITIONS = ['topLeft', 'topRight', 'bottomLeft', 'bottomRight', 'center'] as const;
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];
export const WATERMARK_TEXT_MAX = 40;

/** What a screen draws. */
export const watermarkSchema = z
  .object({
    kind: z.enum(['text', 'image']),
    /** The text (kind text): 1 to 40 characters. */
    text: z.string().trim().max(WATERMARK_TEXT_MAX).default(''),
    /** A picture of the library (kind image). */
    materialId: z.string().min(1).max(64).nullable().default(null),
    position: z.enum(WATERMARK_POSITIONS).default('bottomRight'),
    /** Opacity in %: 5 to 100. */
    opacity: z.number().int().min(5).max(100).default(40),
    /** Height in % of the screen's: 2 to 30. */
    sizePct: z.number().int().min(2).max(30).default(6),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (w.kind === 'text' && w.text.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'validation.required' });
    }
    if (w.kind === 'image' && !w.materialId) {
      ctx.addIssue({ code: 'custom', path: ['materialId'], message: 'validation.required' });
    }
  });
export type Watermark = z.infer<typeof watermarkSchema>;

/** A device's or a group's setting: a watermark, or explicitly none (`enabled: false`). */
export const watermarkSettingSchema = z.union([
  z.object({ enabled: z.literal(false) }).strict(),
  z.object({ enabled: z.literal(true), watermark: watermarkSchema }).strict(),
]);
export type WatermarkSetting = z.infer<typeof watermarkSettingSchema>;

const settingView = z
  .object({
    enabled: z.boolean(),
    watermark: watermarkSchema.nullable(),
    /** The picture's name and URL (kind image), for the form's preview. */
    materialName: z.string().nullable(),
    materialUrl: z.string().nullable(),
  })
  .nullable();

const id = z.string().min(1).max(64);

export const watermarkEndpoints = {
  deviceWatermarkInfo: endpoint({
    name: 'device.watermarkInfo',
    path: '/api/device/watermark/info.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    errors: [ErrorCode.NOT_FOUND],
    scope: { object: 'device', kind: 'detail', idField: 'deviceId' },
    request: z.object({ deviceId: id }).strict(),
    /** `own`: the device's setting (null: none, it follows its group); `group`: its group's; `effective`: what it shows. */
    response: z.object({
      own: settingView,
      group: settingView,
      groupName: z.string().nullable(),
      effective: settingView,
    }),
  }),
  deviceWatermarkSave: endpoint({
    name: 'device.watermarkSave',
    path: '/api/device/watermark/save.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.WATERMARK_IMAGE_INVALID],
    /** `setting` null: the devices follow their groups again. Each activated device fetches its manifest now. */
    request: z.object({ ids: z.array(id).min(1).max(500), setting: watermarkSettingSchema.nullable() }).strict(),
    response: z.object({ changed: z.number() }),
  }),
  deviceGroupWatermarkInfo: endpoint({
    name: 'deviceGroup.watermarkInfo',
    path: '/api/device/group/watermark/info.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    errors: [ErrorCode.NOT_FOUND],
    scope: { object: 'deviceGroup', kind: 'detail', idField: 'groupId' },
    request: z.object({ groupId: id }).strict(),
    response: z.object({ own: settingView }),
  }),
  deviceGroupWatermarkSave: endpoint({
    name: 'deviceGroup.watermarkSave',
    path: '/api/device/group/watermark/save.shtm',
    auth: 'session',
    permission: Perm.deviceRemote,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION, ErrorCode.WATERMARK_IMAGE_INVALID],
    request: z.object({ groupId: id, setting: watermarkSettingSchema.nullable() }).strict(),
    response: z.object({ changed: z.number() }),
  }),
} as const;
