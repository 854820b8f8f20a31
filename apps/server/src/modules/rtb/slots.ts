import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type AdSlotRow, adSlots } from '../../db/schema/index.js';

/**
 * An enterprise's RTB slots whose turns are auctioned: RTB on with a floor, not deleted, turns
 * of the loop (a layout region marked as the RTB slot is not auctioned yet: the players do not
 * fill regions).
 */
export function rtbSlotsOf(db: Executor, entId: string): Promise<AdSlotRow[]> {
  return db
    .select()
    .from(adSlots)
    .where(
      and(
        eq(adSlots.entId, entId),
        eq(adSlots.rtbEnabled, true),
        isNull(adSlots.deletedAt),
        isNull(adSlots.layoutId),
        isNotNull(adSlots.rtbFloor),
      ),
    )
    .orderBy(asc(adSlots.id));
}
