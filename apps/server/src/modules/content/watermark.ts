import type { Watermark, WatermarkSetting } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { deviceGroups, devices } from '../../db/schema/index.js';
import { manifestFiles } from '../templates/materials.js';

/**
 * The watermark in a device's manifest (issue 31; docs/device-protocol.md 2.7.5): a device's
 * own setting wins over its group's; content/sources.ts buildManifest adds what this answers.
 */

/** What a device shows: its own setting when it has one (enabled or not), else its group's. */
export function effectiveSetting(
  own: WatermarkSetting | null,
  group: WatermarkSetting | null,
): WatermarkSetting | null {
  return own ?? group ?? null;
}

/** The watermark a device's manifest carries, and the picture's file; none: undefined. */
export async function watermarkOfDevice(
  db: Executor,
  device: { id: string; entId: string },
): Promise<{ watermark: Watermark; files: Awaited<ReturnType<typeof manifestFiles>> } | undefined> {
  const [row] = await db
    .select({ own: devices.watermark, group: deviceGroups.watermark })
    .from(devices)
    .leftJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
    .where(eq(devices.id, device.id));
  const setting = row ? effectiveSetting(row.own, row.group) : null;
  if (!setting?.enabled) return undefined;
  const { watermark } = setting;
  if (watermark.kind === 'text') return { watermark: { ...watermark, materialId: null }, files: [] };
  const files = await manifestFiles(db, device.entId, watermark.materialId ? [watermark.materialId] : []);
  // A picture no longer ready (deleted, replaced) shows nothing rather than a broken image.
  if (files.length === 0) return undefined;
  return { watermark: { ...watermark, text: '' }, files };
}
