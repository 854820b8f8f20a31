import { RTB_PROOF_SKEW_SEC, RTB_PROOF_WINDOW_HOURS } from '@marquee/protocol';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type RtbCampaignRow, rtbCampaigns } from '../../db/schema/index.js';
import { ensureEnterpriseWallet, ensurePlatformAccount } from '../ledger/accounts.js';
import { transfer } from '../ledger/ledger.js';
import { settleBudget } from './budget.js';
import { endLocked } from './campaigns.js';
import { queueNotices } from './dspClient.js';

/**
 * Billing by proof of play (issue 29; docs/ARCHITECTURE.md "Programmatic airtime"). The
 * `rtb-bill` job (every minute; time is its input):
 * 1. A won turn is proven by a completed play of its ad on its screen that started between its
 *    start - RTB_PROOF_SKEW_SEC and its end (the device's clock): a region slot's in that
 *    component of that layout, a loop slot's as the ad itself; one play proves one turn
 *    (rtb_auctions.proof_event_id is unique). A campaign's proven turns are billed together:
 *    in one transaction with the campaign's row locked, the turns move won -> billed, the
 *    campaign's spent grows and its reserved shrinks by their prices, and the ledger posts that
 *    sum from the campaign's hold (budget.ts). A DSP's proven turn is income from the DSP: a
 *    transfer from the platform's RTB clearing account (what DSPs owe) to the operator's wallet,
 *    then the DSP's billing notice (burl).
 * 2. A won turn without proof RTB_PROOF_WINDOW_HOURS after it is unproven: never billed; a
 *    campaign's reservation is released.
 * 3. Campaigns whose period ended are ended (the budget not needed is released).
 * 4. Unsold turns' auctions older than RTB_NO_BID_KEEP_DAYS are deleted.
 * Never from a win: money moves only for a play the screen reported.
 */

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const BATCH = 1000;

export interface BillSummary {
  billed: number;
  billedFen: number;
  unproven: number;
  ended: number;
  /** Unsold turns' auctions older than RTB_NO_BID_KEEP_DAYS, deleted. */
  pruned: number;
}

/**
 * How long the log keeps an auction nobody won (the fill report's unsold turns). Won turns
 * (billed or unproven) stay: they are the trail of money.
 */
export const RTB_NO_BID_KEEP_DAYS = 31;

export async function billTurns(db: Executor, now: Date): Promise<BillSummary> {
  const summary: BillSummary = { billed: 0, billedFen: 0, unproven: 0, ended: 0, pruned: 0 };
  for (;;) {
    const proven = await provenTurns(db, now);
    if (proven.length === 0) break;
    const byCampaign = new Map<string, ProvenTurn[]>();
    const external: ProvenTurn[] = [];
    for (const p of proven) {
      if (p.campaign_id) byCampaign.set(p.campaign_id, [...(byCampaign.get(p.campaign_id) ?? []), p]);
      else external.push(p);
    }
    for (const [campaignId, turns] of byCampaign) {
      const fen = await db.transaction((tx) => billCampaign(tx as unknown as Executor, campaignId, turns, now));
      summary.billedFen += fen.fen;
      summary.billed += fen.count;
    }
    for (const turn of external) {
      const url = await db.transaction((tx) => billExternal(tx as unknown as Executor, turn, now));
      if (url !== null) {
        summary.billed++;
        summary.billedFen += Number(turn.price);
        if (url) queueNotices([url]);
      }
    }
    if (proven.length < BATCH) break;
  }
  summary.unproven = await lapseUnproven(db, now);
  summary.ended = await endOverCampaigns(db, now);
  summary.pruned = await pruneNoBids(db, now);
  return summary;
}

/** Deletes unsold turns' auctions past RTB_NO_BID_KEEP_DAYS, a batch per run. */
async function pruneNoBids(db: Executor, now: Date): Promise<number> {
  const cut = new Date(now.getTime() - RTB_NO_BID_KEEP_DAYS * 86_400_000).toISOString();
  const gone = rowsOf<{ id: string }>(
    await db.execute(sql`
      delete from rtb_auctions where id in (
        select id from rtb_auctions where state = 'noBid' and turn_at < ${cut}::timestamptz limit 5000)
      returning id`),
  );
  return gone.length;
}

interface ProvenTurn {
  id: string;
  ent_id: string;
  campaign_id: string | null;
  dsp_id: string | null;
  price: string | number;
  event_id: string;
}

/**
 * Won turns with a proving play, oldest first; each play assigned to one turn only (the
 * earliest turn it can prove that has none yet).
 */
async function provenTurns(db: Executor, now: Date): Promise<ProvenTurn[]> {
  const skew = `${RTB_PROOF_SKEW_SEC} seconds`;
  const candidates = rowsOf<ProvenTurn>(
    await db.execute(sql`
      with due as (
        select a.id, a.ent_id, a.slot_id, a.campaign_id, a.dsp_id, a.price, a.device_id, a.ad_id, a.turn_at, a.duration_sec
          from rtb_auctions a
         where a.state = 'won'
           and a.turn_at + make_interval(secs => a.duration_sec) < ${now.toISOString()}::timestamptz
         order by a.turn_at, a.id
         limit ${BATCH})
      select d.id, d.ent_id, d.campaign_id, d.dsp_id, d.price, p.event_id::text as event_id
        from due d
        join ad_slots s on s.id = d.slot_id
        join ads w on w.id = d.ad_id
        join plays p
          on p.device_id = d.device_id
         and p.day between ((d.turn_at - interval '1 minute') at time zone 'UTC')::date
                       and ((d.turn_at + make_interval(secs => d.duration_sec)) at time zone 'UTC')::date
         and p.ad_id = d.ad_id
         and p.outcome = 'completed'
         and p.started_at >= d.turn_at - ${skew}::interval
         and p.started_at < d.turn_at + make_interval(secs => d.duration_sec)
         -- A region's turn is proven in that region of that layout; a loop turn by the ad played
         -- as itself (its own layout or none), not inside another layout's region.
         and case when s.region_id is not null
                  then p.layout_id = s.layout_id and p.component_id = s.region_id
                  else p.layout_id is not distinct from w.layout_id end
       where not exists (select 1 from rtb_auctions u where u.proof_event_id = p.event_id::text)
       order by d.turn_at, d.id, p.started_at`),
  );
  const usedPlays = new Set<string>();
  const usedTurns = new Set<string>();
  const out: ProvenTurn[] = [];
  for (const c of candidates) {
    if (usedTurns.has(c.id) || usedPlays.has(c.event_id)) continue;
    usedTurns.add(c.id);
    usedPlays.add(c.event_id);
    out.push(c);
  }
  return out;
}

/** Bills a campaign's proven turns in one transaction (see the module comment); answers the fen billed. */
async function billCampaign(
  db: Executor,
  campaignId: string,
  turns: readonly ProvenTurn[],
  now: Date,
): Promise<{ fen: number; count: number }> {
  const [locked] = await db.select().from(rtbCampaigns).where(eq(rtbCampaigns.id, campaignId)).for('update');
  if (!locked) return { fen: 0, count: 0 };
  const rows = JSON.stringify(turns.map((t) => ({ id: t.id, event_id: t.event_id })));
  const moved = rowsOf<{ price: string | number }>(
    await db.execute(sql`
      update rtb_auctions a set state = 'billed', billed_at = ${now.toISOString()}::timestamptz, proof_event_id = r.event_id
        from jsonb_to_recordset(${rows}::jsonb) as r(id text, event_id text)
       where a.id = r.id and a.state = 'won' and a.campaign_id = ${campaignId}
      returning a.price`),
  );
  const fen = moved.reduce((sum, r) => sum + Number(r.price), 0);
  if (fen === 0) return { fen: 0, count: moved.length };
  const [row] = await db
    .update(rtbCampaigns)
    .set({
      spent: sql`${rtbCampaigns.spent} + ${fen}`,
      reserved: sql`${rtbCampaigns.reserved} - ${fen}`,
      updatedAt: now,
    })
    .where(eq(rtbCampaigns.id, campaignId))
    .returning();
  await rehold(db, row, now, fen);
  return { fen, count: moved.length };
}

async function rehold(db: Executor, row: RtbCampaignRow, now: Date, bill: number) {
  const hold = await settleBudget(db, row, now, { bill });
  if (hold.holdTransferId !== row.holdTransferId || hold.holdSeq !== row.holdSeq) {
    await db.update(rtbCampaigns).set(hold).where(eq(rtbCampaigns.id, row.id));
  }
}

/** A DSP's proven turn: billed, the DSP's income moved; answers its billing URL ('' without), null when already billed. */
async function billExternal(db: Executor, turn: ProvenTurn, now: Date): Promise<string | null> {
  const [moved] = rowsOf<{ billing_url: string | null; price: string | number; dsp_id: string }>(
    await db.execute(sql`
      update rtb_auctions set state = 'billed', billed_at = ${now.toISOString()}::timestamptz, proof_event_id = ${turn.event_id}
       where id = ${turn.id} and state = 'won'
      returning billing_url, price, dsp_id`),
  );
  if (!moved) return null;
  const price = Number(moved.price);
  if (price > 0) {
    await transfer(db, {
      id: `rtb:${turn.id}:dsp`,
      debitAccountId: await ensurePlatformAccount(db, 'clearingRtb'),
      creditAccountId: await ensureEnterpriseWallet(db, turn.ent_id),
      amount: price,
      code: 'payment',
      cause: { type: 'rtbDsp', id: moved.dsp_id },
      note: turn.id,
      now,
    });
  }
  return moved.billing_url ?? '';
}

/** Won turns past the proof window without proof become unproven; campaigns' reservations are released. */
async function lapseUnproven(db: Executor, now: Date): Promise<number> {
  const cut = new Date(now.getTime() - RTB_PROOF_WINDOW_HOURS * 3_600_000).toISOString();
  let total = 0;
  for (;;) {
    const rows = rowsOf<{ id: string; campaign_id: string | null }>(
      await db.execute(sql`
        select id, campaign_id from rtb_auctions
         where state = 'won' and turn_at < ${cut}::timestamptz
         order by turn_at limit ${BATCH}`),
    );
    if (rows.length === 0) return total;
    const groups = new Map<string | null, string[]>();
    for (const r of rows) groups.set(r.campaign_id, [...(groups.get(r.campaign_id) ?? []), r.id]);
    const due = [...groups].map(([campaign_id, ids]) => ({ campaign_id, ids }));
    for (const group of due) {
      total += await db.transaction(async (tx) => {
        const t = tx as unknown as Executor;
        const [locked] = group.campaign_id
          ? await t.select().from(rtbCampaigns).where(eq(rtbCampaigns.id, group.campaign_id)).for('update')
          : [];
        const lapsed = rowsOf<{ price: string | number }>(
          await t.execute(sql`
            update rtb_auctions set state = 'unproven'
             where id in (select jsonb_array_elements_text(${JSON.stringify(group.ids)}::jsonb)) and state = 'won'
            returning coalesce(price, 0) as price`),
        );
        const fen = lapsed.reduce((sum, r) => sum + Number(r.price), 0);
        if (locked && fen > 0) {
          const [row] = await t
            .update(rtbCampaigns)
            .set({ reserved: sql`${rtbCampaigns.reserved} - ${fen}`, updatedAt: now })
            .where(eq(rtbCampaigns.id, locked.id))
            .returning();
          await rehold(t, row, now, 0);
        }
        return lapsed.length;
      });
    }
  }
}

/**
 * Campaigns whose last day is over (in their enterprise's zone) are ended (what is neither
 * spent nor reserved is released).
 */
async function endOverCampaigns(db: Executor, now: Date): Promise<number> {
  const due = rowsOf<{ id: string }>(
    await db.execute(sql`
      select c.id from rtb_campaigns c join enterprises e on e.id = c.ent_id
       where c.state <> 'ended' and c.end_date < (${now.toISOString()}::timestamptz at time zone e.time_zone)::date
       order by c.id limit ${BATCH}`),
  );
  let ended = 0;
  for (const { id } of due) {
    const done = await db.transaction(async (tx) => {
      const t = tx as unknown as Executor;
      const [row] = await t.select().from(rtbCampaigns).where(eq(rtbCampaigns.id, id)).for('update');
      if (!row || row.state === 'ended') return false;
      await endLocked(t, row, now, null);
      return true;
    });
    if (done) ended++;
  }
  return ended;
}
