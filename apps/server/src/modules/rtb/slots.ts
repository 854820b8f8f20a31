import { and, asc, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type AdSlotRow, adSlots } from '../../db/schema/index.js';

/**
 * An enterprise's RTB slots whose turns are auctioned: RTB on with a floor, not deleted; turns
 * of the loop, or a layout's region (a component marked as the RTB slot), whose turns are
 * auctioned on the slot's screens showing that layout as their own (regionScreen).
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
        or(isNull(adSlots.layoutId), isNotNull(adSlots.regionId)),
        isNotNull(adSlots.rtbFloor),
      ),
    )
    .orderBy(asc(adSlots.id));
}

/**
 * Whether a slot's turns fall on a screen: a loop slot's on each of its screens; a region
 * slot's only where the screen's own layout (the device's layout) is the slot's layout, the
 * content the players fill the region of.
 */
export function slotFallsOn(slot: Pick<AdSlotRow, 'layoutId'>, screenLayoutId: string | null | undefined): boolean {
  return slot.layoutId === null || slot.layoutId === screenLayoutId;
}

/** A region slot's region as the manifest names it; undefined for a loop slot. */
export function regionOf(
  slot: Pick<AdSlotRow, 'layoutId' | 'regionId'>,
): { layoutId: string; componentId: string } | undefined {
  return slot.layoutId && slot.regionId ? { layoutId: slot.layoutId, componentId: slot.regionId } : undefined;
}
