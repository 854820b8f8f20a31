import { createHash } from 'node:crypto';
import {
  DEFAULT_ITEM_SEC,
  DEFAULT_TIME_ZONE,
  type DeviceManifest,
  licenceOf,
  type ManifestFile,
  type ManifestItem,
  type ManifestWall,
} from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devices, spliceTiles, spliceWalls } from '../../db/schema/index.js';
import { licensedColumn } from '../devices/repository.js';
import { deviceZone } from '../timeZones/service.js';
import { withQrLinks } from './qrLinks.js';
import { watermarkOfDevice } from './watermark.js';

/** The device a manifest is built for. */
export interface ManifestDevice {
  id: string;
  entId: string;
  layoutId: string | null;
}

/** What one source adds to a device's manifest: items, and the files their materials need. */
export interface SourceContent {
  items: ManifestItem[];
  files: ManifestFile[];
}

/** A source of content for devices: the device's own layout (`layout`), its ad playlist (`ad`, modules/ads/schedule.ts). */
export type ContentSource = (db: Executor, device: ManifestDevice, now: number) => Promise<SourceContent>;

const sources = new Map<string, ContentSource>();

/** Adds a content source (its name is the items' `source`). A name registers once. */
export function registerContentSource(name: string, source: ContentSource): void {
  sources.set(name, source);
}

/** A layout as the player needs it: its document and the materials (with their files) it shows. */
export interface LoadedLayout {
  id: string;
  name: string;
  document: unknown;
  materialIds: string[];
  files: ManifestFile[];
  /** Seconds an image or page stays when the layout is played as a playlist. */
  durationSec?: number;
}

/**
 * How the layouts module (and materials behind it) hands layouts to the manifest: null when
 * the layout is not in the enterprise. Until it registers, no layout is available.
 */
export interface LayoutProvider {
  load(db: Executor, entId: string, layoutId: string): Promise<LoadedLayout | null>;
}

let layoutProvider: LayoutProvider | null = null;
export function registerLayoutProvider(provider: LayoutProvider | null): void {
  layoutProvider = provider;
}
export function currentLayoutProvider(): LayoutProvider | null {
  return layoutProvider;
}

/** Default duration of an image in a layout played as a playlist (the protocol's: the reports count loops with it). */
export { DEFAULT_ITEM_SEC };

// The device's assigned layout (spec Device 'layout'): always on, no schedule.
registerContentSource('layout', async (db, device) => {
  if (!device.layoutId || !layoutProvider) return { items: [], files: [] };
  const layout = await layoutProvider.load(db, device.entId, device.layoutId);
  if (!layout) return { items: [], files: [] };
  return {
    items: [
      {
        id: `layout:${layout.id}`,
        source: 'layout',
        name: layout.name,
        layoutId: layout.id,
        adId: null,
        document: layout.document,
        materialIds: layout.materialIds,
        durationSec: layout.durationSec ?? DEFAULT_ITEM_SEC,
        schedule: {},
      },
    ],
    files: layout.files,
  };
});

/**
 * The video wall the device is a tile of (docs/device-protocol.md 2.7.3), or undefined. The
 * timeline's anchor is the wall's last change, so an edited wall starts its loop afresh.
 */
export async function wallOfDevice(db: Executor, device: ManifestDevice): Promise<ManifestWall | undefined> {
  const [row] = await db
    .select({ wall: spliceWalls, row: spliceTiles.row, col: spliceTiles.col })
    .from(spliceTiles)
    .innerJoin(spliceWalls, eq(spliceWalls.id, spliceTiles.wallId))
    .where(and(eq(spliceTiles.deviceId, device.id), eq(spliceTiles.entId, device.entId)))
    .limit(1);
  if (!row) return undefined;
  return {
    id: row.wall.id,
    rows: row.wall.rows,
    cols: row.wall.cols,
    row: row.row,
    col: row.col,
    scaling: row.wall.scaling,
    rotation: row.wall.rotation,
    anchor: row.wall.updatedAt.getTime(),
  };
}

/** The device's licence at `now` (issue 27; docs/device-protocol.md 2.7): a device without an expiry is not gated. */
export async function licenceOfDevice(db: Executor, deviceId: string, now: number): Promise<ManifestLicence> {
  const [row] = await db
    .select({ expireAt: devices.expireAt, licensed: licensedColumn })
    .from(devices)
    .where(eq(devices.id, deviceId));
  const expiresAt = row?.expireAt?.getTime() ?? null;
  return { state: licenceOf(expiresAt, row?.licensed ?? false, now), expiresAt };
}

export type ManifestLicence = NonNullable<DeviceManifest['licence']>;

/**
 * A device's manifest: every source's items in registration order, the files deduplicated by
 * material, the wall block of a wall's tile, the device's licence, and a version that is the
 * SHA-256 of the content (the same content, the same version, on any server instance; a wall,
 * licence or time-zone change is a new version). An expired licence answers no items, no files and no
 * wall: the player stops new content and shows why (issue 27).
 */
export async function buildManifest(db: Executor, device: ManifestDevice, now: number): Promise<DeviceManifest> {
  const licence = await licenceOfDevice(db, device.id, now);
  if (licence.state === 'expired') {
    const body = { items: [], files: [], licence };
    const version = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32);
    return { version, generatedAt: now, ...body };
  }
  const items: ManifestItem[] = [];
  const files = new Map<string, ManifestFile>();
  for (const source of sources.values()) {
    const content = await source(db, device, now);
    items.push(...content.items);
    for (const file of content.files) if (!files.has(file.materialId)) files.set(file.materialId, file);
  }
  const wall = await wallOfDevice(db, device);
  const mark = await watermarkOfDevice(db, device);
  const timeZone = await deviceZone(db, device.id, DEFAULT_TIME_ZONE);
  for (const file of mark?.files ?? []) if (!files.has(file.materialId)) files.set(file.materialId, file);
  const body = {
    // A layout's QR links become the server's short links for this device (modules/qrcode).
    items: withQrLinks(items, device),
    files: [...files.values()].sort((a, b) => a.materialId.localeCompare(b.materialId)),
    // Only a tile's manifest has the key: other devices' versions stay what they were.
    ...(wall ? { wall } : {}),
    licence,
    // Likewise the watermark (docs/device-protocol.md 2.7.5).
    ...(mark ? { watermark: mark.watermark } : {}),
    // The wall clock of its schedules and strategies (issue 31; 2.7.1).
    timeZone,
  };
  const version = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32);
  return { version, generatedAt: now, ...body };
}
