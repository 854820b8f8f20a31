import { type DeviceManifest, type ManifestItem, pickRtbItem, wallClock } from '@marquee/protocol';

/** The turn an RTB item plays (one rule for both players: packages/protocol rtbRules.ts). */
export { type RtbTurn, rtbTurnOf } from '@marquee/protocol';

import { playableItems, scheduleAllows } from './schedule';

/** What plays, and why: an ad role, an RTB slot's turn, or the device's own content. */
export type PlayRole = 'opening' | 'emergency' | 'rtb' | 'loop' | 'own' | 'fallback' | 'none';

/** How long an item takes once through: a layout its pages' durations, else each material's (a video its own). */
export function itemMs(item: ManifestItem, files: ReadonlyMap<string, { duration?: number | null }>): number {
  const doc = item.document as { pages?: { duration?: number }[] } | null;
  if (doc && Array.isArray(doc.pages) && doc.pages.length > 0) {
    return doc.pages.reduce((sum, p) => sum + Math.max(1, p.duration ?? item.durationSec), 0) * 1000;
  }
  const each = item.materialIds.map((id) => (files.get(id)?.duration ?? item.durationSec) * 1000);
  return each.reduce((a, b) => a + b, 0) || item.durationSec * 1000;
}

/**
 * What the screen plays at `now` (docs/device-protocol.md 2.7, the ad roles of adSchedule.ts),
 * among the items whose schedule allows them: the opening ads while the player has just
 * started (for as long as they take once through); else the emergency ads, which pre-empt
 * everything; else an RTB slot's item whose turn is live (pickRtbItem: a decided turn, else a
 * slot's fallback in one of its turns; 2.7.2); else the loop ads (a per-day ad that played its
 * `maxPerDay` today sits out); else the device's own content (its layout); else the fallback
 * ads; else nothing. RTB turns are instants of the server's clock: `ctx.serverNow` (the shared
 * clock, default `now`) decides them; their other schedule fields (an ad's days and hours) the
 * local clock, as for every item.
 */
export function itemsToPlay(
  manifest: DeviceManifest,
  now: Date,
  ctx: { startedAt: number; playedToday: ReadonlyMap<string, number>; serverNow?: number },
): { role: PlayRole; items: ManifestItem[] } {
  const zone = manifest.timeZone;
  const playable = playableItems(manifest.items, now, zone);
  const files = new Map(manifest.files.map((f) => [f.materialId, f]));
  const openings = playable.filter((i) => i.role === 'opening');
  if (openings.length > 0) {
    const window = openings.reduce((sum, i) => sum + itemMs(i, files), 0);
    if (now.getTime() - ctx.startedAt < window) return { role: 'opening', items: openings };
  }
  const emergency = playable.filter((i) => i.role === 'emergency');
  if (emergency.length > 0) return { role: 'emergency', items: emergency };
  // The window (`from`/`until`) of an RTB item is on the server's clock: pickRtbItem reads it.
  const rtbItems = manifest.items.filter(
    (i) => i.role === 'rtb' && scheduleAllows({ ...i.schedule, from: null, until: null }, now, zone),
  );
  const rtb = pickRtbItem(rtbItems, ctx.serverNow ?? now.getTime());
  if (rtb) return { role: 'rtb', items: [rtb] };
  const loop = playable.filter(
    (i) => i.role === 'loop' && (i.maxPerDay == null || !i.adId || (ctx.playedToday.get(i.adId) ?? 0) < i.maxPerDay),
  );
  if (loop.length > 0) return { role: 'loop', items: loop };
  const own = playable.filter((i) => !i.role);
  if (own.length > 0) return { role: 'own', items: own };
  const fallback = playable.filter((i) => i.role === 'fallback');
  if (fallback.length > 0) return { role: 'fallback', items: fallback };
  return { role: 'none', items: [] };
}

/** `YYYY-MM-DD` of the device's day in `zone` (the per-day counts of ads reset at its midnight). */
export function localDay(now: Date, zone?: string | null): string {
  return wallClock(now, zone).day;
}

/** Plays of each ad on the device's day (per-day caps); a new day starts from zero. */
export class AdPlayCounter {
  private day = '';
  private counts = new Map<string, number>();
  /** The device's zone (the manifest's `timeZone`), whose midnight starts a new day. */
  zone: string | null | undefined;

  add(adId: string, now: Date): void {
    this.roll(now);
    this.counts.set(adId, (this.counts.get(adId) ?? 0) + 1);
  }

  today(now: Date): ReadonlyMap<string, number> {
    this.roll(now);
    return this.counts;
  }

  private roll(now: Date) {
    const day = localDay(now, this.zone);
    if (day !== this.day) {
      this.day = day;
      this.counts = new Map();
    }
  }
}
