import { createHash } from 'node:crypto';
import { DEFAULT_ITEM_SEC, type DeviceManifest, type ManifestFile, type ManifestItem } from '@marquee/protocol';
import type { Executor } from '../../db/client.js';

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
 * A device's manifest: every source's items in registration order, the files deduplicated by
 * material, and a version that is the SHA-256 of the content (the same content, the same
 * version, on any server instance).
 */
export async function buildManifest(db: Executor, device: ManifestDevice, now: number): Promise<DeviceManifest> {
  const items: ManifestItem[] = [];
  const files = new Map<string, ManifestFile>();
  for (const source of sources.values()) {
    const content = await source(db, device, now);
    items.push(...content.items);
    for (const file of content.files) if (!files.has(file.materialId)) files.set(file.materialId, file);
  }
  const body = { items, files: [...files.values()].sort((a, b) => a.materialId.localeCompare(b.materialId)) };
  const version = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32);
  return { version, generatedAt: now, ...body };
}
