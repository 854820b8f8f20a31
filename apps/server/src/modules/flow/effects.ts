import { CARD_ACTIVATABLE, type CardState } from '@marquee/protocol';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { iotCards } from '../../db/schema/index.js';

/**
 * What the flow module does for others (issue 27): the market's effect when a data package is
 * paid, the market's expiry job, and the cards an order names. Every function runs on the
 * executor it is given (the caller's transaction).
 */

/**
 * The market's effect: a paid package activates the cards (from CARD_ACTIVATABLE states) until
 * their new expiry. Sets state 'activated', the package's name and MB, the expiry, and the
 * activation time: the first one is kept unless the card had lapsed or was never activated
 * (then `now`). A card no longer in an activatable state (suspended or cancelled since the
 * order was placed) is left as it is: the market validates the cards when the order is made.
 */
export async function activateCards(
  db: Executor,
  cards: { id: string; expiresAt: Date }[],
  pkg: { name: string; mb: number },
  now: Date,
): Promise<void> {
  for (const card of cards) {
    await db
      .update(iotCards)
      .set({
        state: 'activated',
        packageName: pkg.name,
        packageMb: pkg.mb,
        expiresAt: card.expiresAt,
        activatedAt: sql`case when ${iotCards.state} = 'lapsed' or ${iotCards.activatedAt} is null then ${now.toISOString()}::timestamptz else ${iotCards.activatedAt} end`,
        updatedAt: now,
      })
      .where(and(eq(iotCards.id, card.id), inArray(iotCards.state, [...CARD_ACTIVATABLE])));
  }
}

/** The expiry job: the cards' packages ended: activated/suspended -> lapsed. */
export async function lapseCards(db: Executor, cardIds: readonly string[], now: Date): Promise<void> {
  if (cardIds.length === 0) return;
  await db
    .update(iotCards)
    .set({ state: 'lapsed', updatedAt: now })
    .where(and(inArray(iotCards.id, [...cardIds]), inArray(iotCards.state, ['activated', 'suspended'])));
}

/** Cards of the enterprise by id (for validating an order), with state, iccid, expiresAt. */
export async function cardsOf(
  db: Executor,
  entId: string,
  ids: readonly string[],
): Promise<{ id: string; iccid: string; state: CardState; expiresAt: Date | null }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: iotCards.id, iccid: iotCards.iccid, state: iotCards.state, expiresAt: iotCards.expiresAt })
    .from(iotCards)
    .where(and(eq(iotCards.entId, entId), inArray(iotCards.id, [...ids])));
}
