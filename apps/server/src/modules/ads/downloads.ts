import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { ads } from '../../db/schema/index.js';

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
