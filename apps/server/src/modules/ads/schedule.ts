import {
  buildAdPlaylist,
  type ManifestFile,
  type ManifestItem,
  type PushReason,
  type SchedulableAd,
} from '@marquee/protocol';
import { and, eq, gt, inArray, isNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  type AdTargetIds,
  ads,
  departments,
  devicePlaylistOrders,
  devices,
  deviceTags,
  spliceTiles,
} from '../../db/schema/index.js';
import type { CallContext } from '../../protocol/handlers.js';
import { requestContentSync } from '../content/service.js';
import { currentLayoutProvider, DEFAULT_ITEM_SEC, registerContentSource } from '../content/sources.js';
import { manifestFiles } from '../templates/materials.js';

/**
 * Ads on screens (issue 13 'Scheduling'): the 'ad' content source that puts a device's ad
 * playlist (buildAdPlaylist) into its manifest, and the push of a new manifest to the devices
 * an ad reaches when the ad changes.
 */

type AdRow = typeof ads.$inferSelect;

/** The schedule's view of an ad row. */
export function schedulableOf(row: AdRow): SchedulableAd {
  return {
    id: row.id,
    type: row.type,
    reviewState: row.reviewState,
    paused: row.paused,
    deleted: row.deletedAt !== null,
    startAt: row.startAt.getTime(),
    endAt: row.endAt.getTime(),
    strategy: row.strategy,
    playsMin: row.playsMin,
    playsMax: row.playsMax,
    periods: row.periods,
    createdAt: row.createdAt.getTime(),
  };
}

/** What of a device decides which ads reach it. */
interface DeviceReach {
  id: string;
  groupId: string | null;
  tagIds: Set<string>;
  /** The device's department and every department above it. */
  deptIds: Set<string>;
  spliceIds: Set<string>;
}

async function reachOf(db: Executor, entId: string, deviceId: string): Promise<DeviceReach | null> {
  const [device] = await db
    .select({ id: devices.id, groupId: devices.groupId, path: departments.path })
    .from(devices)
    .leftJoin(departments, eq(departments.id, devices.deptId))
    .where(and(eq(devices.id, deviceId), eq(devices.entId, entId)));
  if (!device) return null;
  const [tagRows, tileRows] = await Promise.all([
    db.select({ id: deviceTags.tagId }).from(deviceTags).where(eq(deviceTags.deviceId, deviceId)),
    db.select({ id: spliceTiles.wallId }).from(spliceTiles).where(eq(spliceTiles.deviceId, deviceId)),
  ]);
  return {
    id: device.id,
    groupId: device.groupId,
    tagIds: new Set(tagRows.map((r) => r.id)),
    deptIds: new Set((device.path ?? '').split('/').filter(Boolean)),
    spliceIds: new Set(tileRows.map((r) => r.id)),
  };
}

/** Whether an ad's targets reach a device: itself, its group, a tag, its department (or one above), its splice wall. */
export function targetsReach(targets: AdTargetIds, device: DeviceReach): boolean {
  return (
    targets.deviceIds.includes(device.id) ||
    (device.groupId !== null && targets.groupIds.includes(device.groupId)) ||
    targets.tagIds.some((id) => device.tagIds.has(id)) ||
    targets.deptIds.some((id) => device.deptIds.has(id)) ||
    targets.spliceIds.some((id) => device.spliceIds.has(id))
  );
}

/** The ads that may be scheduled in an enterprise at `now` (passed, not paused, not deleted, not over). */
function liveAds(db: Executor, entId: string, now: Date) {
  return db
    .select()
    .from(ads)
    .where(
      and(
        eq(ads.entId, entId),
        isNull(ads.deletedAt),
        eq(ads.reviewState, 'passed'),
        eq(ads.paused, false),
        gt(ads.endAt, now),
      ),
    );
}

/** A device's playlist sort (the order of its common ads), empty when none. */
export async function playlistOrderOf(db: Executor, deviceId: string): Promise<string[]> {
  const [row] = await db
    .select({ adIds: devicePlaylistOrders.adIds })
    .from(devicePlaylistOrders)
    .where(eq(devicePlaylistOrders.deviceId, deviceId));
  return row?.adIds ?? [];
}

/**
 * What ads show on a screen: their layouts (with the layouts' files) and their materials'
 * files (a material without a verified hash is not played unchecked, as in a layout), and per
 * ad the item's content, or null when nothing of it is playable (a layout gone, no material
 * left). The ad playlist and the RTB slots' items (modules/rtb) build on it.
 */
export async function adsMedia(db: Executor, entId: string, rows: readonly AdRow[]) {
  const files = new Map<string, ManifestFile>();
  const provider = currentLayoutProvider();
  const layouts = new Map<string, Awaited<ReturnType<NonNullable<typeof provider>['load']>>>();
  for (const row of rows) {
    if (!row.layoutId || layouts.has(row.layoutId)) continue;
    const layout = provider ? await provider.load(db, entId, row.layoutId) : null;
    layouts.set(row.layoutId, layout);
    for (const file of layout?.files ?? []) files.set(file.materialId, file);
  }
  const materialIds = [...new Set(rows.filter((r) => !r.layoutId).flatMap((r) => r.materialIds))];
  for (const file of await manifestFiles(db, entId, materialIds)) files.set(file.materialId, file);
  const contentOf = (row: AdRow): Pick<ManifestItem, 'document' | 'materialIds' | 'durationSec'> | null => {
    const layout = row.layoutId ? layouts.get(row.layoutId) : null;
    if (row.layoutId && !layout) return null;
    const ids = layout ? layout.materialIds : row.materialIds.filter((id) => files.has(id));
    if (!layout && ids.length === 0) return null;
    return {
      document: layout ? layout.document : null,
      materialIds: ids,
      durationSec: layout?.durationSec ?? DEFAULT_ITEM_SEC,
    };
  };
  return { files, contentOf };
}

/** The manifest items and files of a device's ad playlist at `now`. */
export async function adContent(
  db: Executor,
  device: { id: string; entId: string },
  now: number,
): Promise<{ items: ManifestItem[]; files: ManifestFile[] }> {
  const reach = await reachOf(db, device.entId, device.id);
  if (!reach) return { items: [], files: [] };
  const rows = (await liveAds(db, device.entId, new Date(now))).filter((row) => targetsReach(row.targets, reach));
  if (rows.length === 0) return { items: [], files: [] };
  const byId = new Map(rows.map((r) => [r.id, r]));
  const playlist = buildAdPlaylist(rows.map(schedulableOf), now, {
    commonOrder: await playlistOrderOf(db, device.id),
  });

  const media = await adsMedia(db, device.entId, rows);
  const items: ManifestItem[] = [];
  for (const entry of playlist) {
    const row = byId.get(entry.adId);
    if (!row) continue;
    const content = media.contentOf(row);
    if (!content) continue;
    items.push({
      id: `ad:${entry.key}`,
      source: 'ad',
      name: row.name,
      layoutId: row.layoutId,
      adId: row.id,
      ...content,
      schedule: {
        from: entry.from,
        until: entry.until,
        ...(entry.periods.length > 0 ? { periods: entry.periods } : {}),
      },
      role: entry.role,
      maxPerDay: entry.maxPerDay,
    });
  }
  const used = new Set(items.flatMap((i) => i.materialIds));
  return { items, files: [...media.files.values()].filter((f) => used.has(f.materialId)) };
}

registerContentSource('ad', (db, device, now) => adContent(db, device, now));

/** The activated devices of an enterprise that ads' targets reach. */
export async function devicesReached(db: Executor, entId: string, targets: readonly AdTargetIds[]): Promise<string[]> {
  const pick = (k: keyof AdTargetIds) => [...new Set(targets.flatMap((t) => t[k]))];
  const deviceIds = pick('deviceIds');
  const groupIds = pick('groupIds');
  const tagIds = pick('tagIds');
  const deptIds = pick('deptIds');
  const spliceIds = pick('spliceIds');
  const reach: SQL[] = [];
  if (deviceIds.length > 0) reach.push(inArray(devices.id, deviceIds));
  if (groupIds.length > 0) reach.push(inArray(devices.groupId, groupIds));
  if (tagIds.length > 0) {
    reach.push(
      inArray(
        devices.id,
        db.select({ id: deviceTags.deviceId }).from(deviceTags).where(inArray(deviceTags.tagId, tagIds)),
      ),
    );
  }
  if (spliceIds.length > 0) {
    reach.push(
      inArray(
        devices.id,
        db.select({ id: spliceTiles.deviceId }).from(spliceTiles).where(inArray(spliceTiles.wallId, spliceIds)),
      ),
    );
  }
  if (deptIds.length > 0) {
    // A department and every one below it (the materialized path holds each ancestor's id).
    const paths = await db
      .select({ path: departments.path })
      .from(departments)
      .where(and(eq(departments.entId, entId), inArray(departments.id, deptIds)));
    if (paths.length > 0) {
      reach.push(
        inArray(
          devices.deptId,
          db
            .select({ id: departments.id })
            .from(departments)
            .where(and(eq(departments.entId, entId), or(...paths.map((p) => like(departments.path, `${p.path}%`))))),
        ),
      );
    }
  }
  if (reach.length === 0) return [];
  const rows = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.entId, entId), sql`${devices.activatedAt} is not null`, or(...reach)));
  return rows.map((r) => r.id);
}

/**
 * After a change of an ad (`before` and `after` its change; null: did not exist / is gone),
 * the devices it reached or reaches get their new manifest at once, when the ad was or is
 * scheduled (a change of an ad that plays nowhere changes no manifest): one push of `reason`.
 */
export async function pushAdChange(
  ctx: CallContext,
  before: AdRow | null,
  after: AdRow | null,
  reason: PushReason,
): Promise<{ pushId: string | null; devices: number }> {
  const now = ctx.now.getTime();
  const scheduled = (row: AdRow | null): row is AdRow =>
    row !== null && row.deletedAt === null && row.reviewState === 'passed' && !row.paused && row.endAt.getTime() > now;
  const rows = [before, after].filter(scheduled);
  if (rows.length === 0) return { pushId: null, devices: 0 };
  const ids = await devicesReached(
    ctx.db,
    rows[0].entId,
    rows.map((r) => r.targets),
  );
  return requestContentSync(ctx, ids, { reason, adId: rows[0].id });
}
