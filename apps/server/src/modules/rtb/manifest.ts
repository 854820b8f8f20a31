import { type ManifestFile, type ManifestItem, RTB_HORIZON_SEC, RTB_LEAD_SEC, rtbCadence } from '@marquee/protocol';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { ads } from '../../db/schema/index.js';
import { adsMedia } from '../ads/schedule.js';
import { registerContentSource } from '../content/sources.js';
import { slotScreens } from '../sales/inventory.js';
import { regionOf, rtbSlotsOf, slotFallsOn } from './slots.js';

/**
 * The RTB slots' part of a device's manifest (issue 29; docs/device-protocol.md 2.7.2), the
 * content source 'rtb': the turns decided for this screen that have not ended (each the
 * winner's ad, from its turn's start to its end, role `rtb`), and each of its RTB slots'
 * fallback ad with the slot's cadence (played in the turns nobody won). The player picks with
 * pickRtbItem; a decided turn pre-empts the loop, so the winner plays even if the screen goes
 * offline after it fetched the manifest. A region slot's items (`rtb.region`, only on screens
 * whose own layout is the slot's) fill that component while the layout is on screen
 * (pickRtbRegionItem); an ad that is itself a layout cannot fill a region and is left out.
 */

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export async function rtbContent(
  db: Executor,
  device: { id: string; entId: string; layoutId: string | null },
  now: number,
): Promise<{ items: ManifestItem[]; files: ManifestFile[] }> {
  const slots = await rtbSlotsOf(db, device.entId);
  if (slots.length === 0) return { items: [], files: [] };
  const mine = [];
  for (const slot of slots) {
    if (!slotFallsOn(slot, device.layoutId)) continue;
    const screens = await slotScreens(db, slot, new Date(now));
    if (screens.some((s) => s.id === device.id)) mine.push(slot);
  }
  if (mine.length === 0) return { items: [], files: [] };
  const bySlot = new Map(mine.map((s) => [s.id, s]));
  const longest = Math.max(...mine.map((s) => s.durationSec));
  const decided = rowsOf<{ id: string; slot_id: string; ad_id: string; at: number | string; duration_sec: number }>(
    await db.execute(sql`
      select id, slot_id, ad_id, (extract(epoch from turn_at) * 1000)::float8 as at, duration_sec
        from rtb_auctions
       where device_id = ${device.id}
         and turn_at >= ${new Date(now - longest * 1000).toISOString()}::timestamptz
         and turn_at < ${new Date(now + (RTB_HORIZON_SEC + RTB_LEAD_SEC) * 1000).toISOString()}::timestamptz
         and state in ('won', 'billed') and ad_id is not null
       order by turn_at, slot_id`),
  ).filter((d) => bySlot.has(d.slot_id) && Number(d.at) + d.duration_sec * 1000 > now);
  const adIds = [
    ...new Set([
      ...decided.map((d) => d.ad_id),
      ...mine.flatMap((s) => (s.rtbFallbackAdId ? [s.rtbFallbackAdId] : [])),
    ]),
  ];
  if (adIds.length === 0) return { items: [], files: [] };
  const rows = await db
    .select()
    .from(ads)
    .where(
      and(
        inArray(ads.id, adIds),
        eq(ads.entId, device.entId),
        isNull(ads.deletedAt),
        eq(ads.reviewState, 'passed'),
        eq(ads.paused, false),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const media = await adsMedia(db, device.entId, rows);
  const items: ManifestItem[] = [];
  for (const d of decided) {
    const ad = byId.get(d.ad_id);
    const content = ad ? media.contentOf(ad) : null;
    const slot = bySlot.get(d.slot_id);
    const region = slot ? regionOf(slot) : undefined;
    // A region shows pictures and videos: a layout ad cannot fill it.
    if (!ad || !content || (region && content.document)) continue;
    const at = Math.round(Number(d.at));
    items.push({
      id: `rtb:${d.id}`,
      source: 'rtb',
      name: ad.name,
      layoutId: ad.layoutId,
      adId: ad.id,
      ...content,
      // A plain playlist's images share the turn; a layout keeps its own page durations.
      durationSec: content.document
        ? content.durationSec
        : Math.max(1, Math.floor(d.duration_sec / content.materialIds.length)),
      schedule: { from: at, until: at + d.duration_sec * 1000 },
      role: 'rtb',
      rtb: { slotId: d.slot_id, auctionId: d.id, ...(region ? { region } : {}) },
    });
  }
  for (const slot of mine) {
    const ad = slot.rtbFallbackAdId ? byId.get(slot.rtbFallbackAdId) : undefined;
    const content = ad ? media.contentOf(ad) : null;
    const region = regionOf(slot);
    if (!ad || !content || (region && content.document)) continue;
    items.push({
      id: `rtb-fallback:${slot.id}`,
      source: 'rtb',
      name: ad.name,
      layoutId: ad.layoutId,
      adId: ad.id,
      ...content,
      schedule: { from: ad.startAt.getTime(), until: ad.endAt.getTime() },
      role: 'rtb',
      rtb: { slotId: slot.id, cadence: rtbCadence(slot), ...(region ? { region } : {}) },
    });
  }
  const used = new Set(items.flatMap((i) => i.materialIds));
  return { items, files: [...media.files.values()].filter((f) => used.has(f.materialId)) };
}

registerContentSource('rtb', (db, device, now) => rtbContent(db, device, now));
