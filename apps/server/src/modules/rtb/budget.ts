import type { Executor } from '../../db/client.js';
import type { RtbCampaignRow } from '../../db/schema/index.js';
import { ensureAdvertiserWallet, ensureEnterpriseWallet } from '../ledger/accounts.js';
import { findTransfer, postPending, transfer, voidPending } from '../ledger/ledger.js';

/**
 * A campaign's money (issue 29; docs/ARCHITECTURE.md "Programmatic airtime"). The budget not
 * spent is frozen in the advertiser's wallet as one pending ledger transfer to the operator's
 * wallet (`rtb:<campaign>:hold:<seq>`). A hold is posted or voided once (TigerBeetle's rule),
 * so every change of what must stay frozen settles the current hold and opens the next:
 * - billing proven plays posts their sum from the hold (`rtb:<id>:post:<seq>`; the rest is
 *   released in the same transfer) and freezes the rest again;
 * - any other change (a budget edited, the campaign ended, won turns lapsed unproven) voids it
 *   (`rtb:<id>:void:<seq>`) and freezes what is needed now.
 * What must stay frozen: the total budget less what is spent; once ended, only what is
 * reserved for won turns awaiting proof. All in the caller's transaction, with the campaign
 * row locked and already updated.
 */

export const RTB_CAUSE = 'rtbCampaign';

/** What must be frozen for the campaign as it now stands (fen). */
export function neededHold(c: Pick<RtbCampaignRow, 'state' | 'totalBudget' | 'spent' | 'reserved'>): number {
  return c.state === 'ended' ? c.reserved : c.totalBudget - c.spent;
}

/**
 * Settles the current hold (posting `bill` fen of it when above 0) and freezes what is needed
 * now; answers the campaign's new hold id and sequence (write them on the row). Moves nothing
 * when there is nothing to bill and the hold already has the needed amount.
 * INSUFFICIENT_BALANCE when the wallet cannot cover a larger hold (the caller's transaction
 * rolls back).
 */
export async function settleBudget(
  db: Executor,
  c: RtbCampaignRow,
  now: Date,
  opts: { bill?: number; actorId?: string | null } = {},
): Promise<{ holdTransferId: string | null; holdSeq: number }> {
  const bill = opts.bill ?? 0;
  const needed = neededHold(c);
  const current = c.holdTransferId ? await findTransfer(db, c.holdTransferId) : null;
  const open = current && current.state === 'pending' ? current : null;
  if (bill === 0 && (open?.amount ?? 0) === needed) return { holdTransferId: open?.id ?? null, holdSeq: c.holdSeq };
  if (bill > 0 && !open) throw new Error(`RTB campaign ${c.id} bills ${bill} fen without an open hold`);
  const base = { pendingId: open?.id ?? '', now, actorId: opts.actorId ?? null };
  if (open && bill > 0) await postPending(db, { ...base, id: `rtb:${c.id}:post:${c.holdSeq}`, amount: bill });
  else if (open) await voidPending(db, { ...base, id: `rtb:${c.id}:void:${c.holdSeq}` });
  if (needed <= 0) return { holdTransferId: null, holdSeq: c.holdSeq };
  const seq = c.holdSeq + 1;
  const holdId = `rtb:${c.id}:hold:${seq}`;
  await transfer(db, {
    id: holdId,
    debitAccountId: await ensureAdvertiserWallet(db, c.entId, c.advertiserId),
    creditAccountId: await ensureEnterpriseWallet(db, c.entId),
    amount: needed,
    code: 'hold',
    cause: { type: RTB_CAUSE, id: c.id },
    actorId: opts.actorId ?? null,
    note: c.name,
    now,
    pending: { timeoutAt: null },
  });
  return { holdTransferId: holdId, holdSeq: seq };
}
