import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { ads } from '../../db/schema/index.js';
import type { DeviceChannelListener } from '../devices/channel.js';

/**
 * A device reported these ads of its manifest downloaded (the heartbeat's `content.readyAds`):
 * the first report of each ad sets its `downloaded_at` (an ad 'playing' needs it, adStatus).
 * Ads of another enterprise are ignored. Returns the ads of the enterprise among them (all
 * downloaded now) and those newly marked.
 */
export async function markAdsDownloaded(db: Executor, entId: string, adIds: readonly string[], at: Date) {
  const ids = [...new Set(adIds)];
  if (ids.length === 0) return { known: [], marked: [] };
  const known = await db
    .select({ id: ads.id })
    .from(ads)
    .where(and(eq(ads.entId, entId), inArray(ads.id, ids)));
  const rows = await db
    .update(ads)
    .set({ downloadedAt: at })
    .where(and(eq(ads.entId, entId), inArray(ads.id, ids), isNull(ads.downloadedAt)))
    .returning({ id: ads.id });
  return { known: known.map((r) => r.id), marked: rows.map((r) => r.id) };
}

/** At most this many ads are remembered downloaded per gateway (then forgotten at once). */
const SEEN_MAX = 100_000;

/**
 * The device channel's listener (one per gateway, registered by app.ts): the first report of
 * an ad the device holds (`content.readyAds`) sets its download time. Ads seen downloaded are
 * not written again (another instance may write one once more: harmless).
 */
export function adDownloadsListener(): DeviceChannelListener {
  const seen = new Set<string>();
  return {
    async heartbeat({ db, heartbeat, at, device }) {
      const ready = (heartbeat.content?.readyAds ?? []).filter((id) => !seen.has(id));
      if (ready.length === 0) return;
      const known = await device();
      if (!known) return;
      const marked = await markAdsDownloaded(db, known.entId, ready, at);
      if (seen.size > SEEN_MAX) seen.clear();
      for (const id of marked.known) seen.add(id);
    },
  };
}
