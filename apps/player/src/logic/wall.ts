import type { ManifestFile, ManifestItem, ManifestWall } from '@marquee/protocol';

/**
 * A video wall's playing (docs/device-protocol.md 2.7.3). Every tile plays the same timeline
 * from the shared clock: the items' pages and materials one after another, looping, position
 * `(clock - anchor) mod loop length`; so tiles that started or reloaded at any time show the
 * same entry at the same instant, and each switches at the entry's end computed from the clock.
 */

/** One step of the timeline: a page of a layout item, or one material of a playlist item. */
export interface WallEntry {
  item: ManifestItem;
  /** The page of a layout item, else null. */
  page: number | null;
  /** The material of a playlist item, else null. */
  materialId: string | null;
  ms: number;
}

/** The shortest step (a page of 0 s would spin). */
const MIN_ENTRY_MS = 1000;

interface PagedDocument {
  pages?: { duration?: number }[];
}

/**
 * The timeline of the items in playing order: a layout item's pages (each its duration), a
 * playlist item's materials with a file (an image the item's duration, a video or audio its own).
 */
export function wallEntries(items: readonly ManifestItem[], files: ReadonlyMap<string, ManifestFile>): WallEntry[] {
  const out: WallEntry[] = [];
  for (const item of items) {
    const doc = item.document as PagedDocument | null;
    if (doc && typeof doc === 'object' && Array.isArray(doc.pages) && doc.pages.length > 0) {
      doc.pages.forEach((p, page) => {
        const sec = Math.max(1, p.duration ?? item.durationSec);
        out.push({ item, page, materialId: null, ms: Math.max(MIN_ENTRY_MS, sec * 1000) });
      });
      continue;
    }
    for (const materialId of item.materialIds) {
      const file = files.get(materialId);
      if (!file) continue;
      const timed = file.type === 'video' || file.type === 'audio';
      const sec = timed && file.duration ? file.duration : item.durationSec;
      out.push({ item, page: null, materialId, ms: Math.max(MIN_ENTRY_MS, Math.round(sec * 1000)) });
    }
  }
  return out;
}

/** Where the timeline is at an instant. */
export interface WallSlot {
  /** The entry's index in the timeline. */
  index: number;
  /** Which time round the loop is (with `index`, a step's identity: the same on every tile). */
  loop: number;
  /** The instants (shared clock) the entry started and ends: the next switch is at `endsAt`. */
  startsAt: number;
  endsAt: number;
}

/** The entry playing at `now` (shared clock) on a timeline counted from `anchor`; null for an empty timeline. */
export function wallSlotAt(entries: readonly { ms: number }[], now: number, anchor: number): WallSlot | null {
  const total = entries.reduce((sum, e) => sum + e.ms, 0);
  if (entries.length === 0 || total <= 0) return null;
  const elapsed = now - anchor;
  const loop = Math.floor(elapsed / total);
  let position = elapsed - loop * total;
  let startsAt = anchor + loop * total;
  for (let index = 0; index < entries.length; index++) {
    const ms = entries[index].ms;
    if (position < ms) return { index, loop, startsAt, endsAt: startsAt + ms };
    position -= ms;
    startsAt += ms;
  }
  // Rounding at the very end of a loop: the next loop's first entry.
  return { index: 0, loop: loop + 1, startsAt, endsAt: startsAt + entries[0].ms };
}

/** How one tile draws its part of the wall, in the tile's CSS pixels. */
export interface WallGeometry {
  /** The whole wall (cols x tile width, rows x tile height). */
  wallWidth: number;
  wallHeight: number;
  /** Where the wall's top left lies from the tile's (the tile sees the wall through itself). */
  offsetX: number;
  offsetY: number;
  /**
   * The content frame before rotation, centred on the wall then turned `rotation` degrees
   * about its centre: for 90 and 270 it is the wall's size swapped, so it covers the wall once turned.
   */
  frame: { left: number; top: number; width: number; height: number; rotation: number };
  /** The content's scale inside the frame: stretched (scaling) or fitted with its aspect kept, centred. */
  content: { left: number; top: number; scaleX: number; scaleY: number };
}

/**
 * A tile's view of the wall: the content (contentWidth x contentHeight, e.g. a layout's size;
 * omit it for a picture or video that fits itself) is drawn over the whole wall, stretched when
 * the wall has tile scaling, else fitted with its aspect kept (bars at the wall's edges), turned
 * by the wall's rotation (which the server allows only with scaling); the tile shows the part at
 * its row and column. All tiles are assumed to be the same size as this one.
 */
export function wallGeometry(
  wall: Pick<ManifestWall, 'rows' | 'cols' | 'row' | 'col' | 'scaling' | 'rotation'>,
  tileWidth: number,
  tileHeight: number,
  contentWidth?: number,
  contentHeight?: number,
): WallGeometry {
  const wallWidth = wall.cols * tileWidth;
  const wallHeight = wall.rows * tileHeight;
  const rotation = (((wall.rotation % 360) + 360) % 360) as number;
  const turned = rotation === 90 || rotation === 270;
  const width = turned ? wallHeight : wallWidth;
  const height = turned ? wallWidth : wallHeight;
  const frame = { left: (wallWidth - width) / 2, top: (wallHeight - height) / 2, width, height, rotation };
  let content = { left: 0, top: 0, scaleX: 1, scaleY: 1 };
  if (contentWidth && contentHeight && contentWidth > 0 && contentHeight > 0) {
    if (wall.scaling) {
      content = { left: 0, top: 0, scaleX: width / contentWidth, scaleY: height / contentHeight };
    } else {
      const s = Math.min(width / contentWidth, height / contentHeight);
      content = { left: (width - contentWidth * s) / 2, top: (height - contentHeight * s) / 2, scaleX: s, scaleY: s };
    }
  }
  return {
    wallWidth,
    wallHeight,
    offsetX: -wall.col * tileWidth,
    offsetY: -wall.row * tileHeight,
    frame,
    content,
  };
}
