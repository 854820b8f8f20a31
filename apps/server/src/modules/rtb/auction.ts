import {
  type AuctionBid,
  calendarAllows,
  type PacingState,
  pacingAllows,
  playPrice,
  type RtbPacing,
  rtbDay,
  runAuction,
} from '@marquee/protocol';
import type { AuctionBidLog } from '../../db/schema/index.js';

/**
 * The in-memory half of deciding turns (issue 29): for each turn, the internal campaigns that
 * may bid (targeting, calendar, floor, budget and pacing) and the DSPs' checked bids compete in
 * a second-price auction (rtbRules.ts runAuction); a campaign's win reserves its price at once,
 * so the next turn sees what is left. No I/O: decide.ts loads the facts, calls this under the
 * campaigns' row locks and writes the result, so budgets hold under any concurrency.
 */

/** A screen as targeting sees it. */
export interface ScreenFacts {
  id: string;
  name: string;
  groupId: string | null;
  tagIds: ReadonlySet<string>;
  /** Province, city and district codes. */
  regionCodes: readonly string[];
  lat: number | null;
  lng: number | null;
}

/** A campaign that may bid, with its mutable pacing state (committed grows with each win). */
export interface LiveCampaign extends PacingState {
  id: string;
  name: string;
  adId: string;
  /** Its ad is a layout: it plays full screen, so it cannot fill a layout's region. */
  layoutAd: boolean;
  bidCpm: number;
  pacing: RtbPacing;
  /** The day (in the campaign's zone) committedToday counts. */
  dayKey: string;
  targets: {
    deviceIds: ReadonlySet<string>;
    groupIds: ReadonlySet<string>;
    tagIds: ReadonlySet<string>;
    regionCodes: ReadonlySet<string>;
  };
  /** Fen reserved by this run's wins (written back to the row). */
  wonNow: number;
}

/** A DSP bid ready to compete: its creative's ad passed review, or why it cannot win. */
export interface ExternalBid {
  dspId: string;
  dspName: string;
  bidId: string;
  cpm: number;
  /** The approved creative's ad; null when the creative is pending or refused (outcome says which). */
  adId: string | null;
  outcome: 'eligible' | 'creativePending' | 'creativeRefused';
  ms: number;
  seat: string;
  nurl: string | null;
  burl: string | null;
  lurl: string | null;
}

/** What a DSP answered for a turn besides bids (logged). */
export interface DspNonBid {
  dspId: string;
  dspName: string;
  outcome: 'noBid' | 'timeout' | 'invalid' | 'error';
  ms: number;
  note: string | null;
}

export interface Turn {
  slotId: string;
  deviceId: string;
  screen: ScreenFacts;
  turnAt: number;
  durationSec: number;
  floorCpm: number;
  qtyMilli: number;
  /** A layout region's turn: only ads of pictures and videos can fill it. */
  region?: boolean;
}

export interface Decision {
  turn: Turn;
  winnerKind: 'campaign' | 'dsp' | null;
  campaignId: string | null;
  dspId: string | null;
  adId: string | null;
  clearingCpm: number | null;
  price: number | null;
  bidders: number;
  bids: number;
  timeouts: number;
  log: AuctionBidLog[];
  /** The DSP winner's notices, and the losers' (for after the commit). */
  win: ExternalBid | null;
  losses: { bid: ExternalBid; loss: number }[];
}

/** Whether a campaign's targets reach a screen (no targets: every RTB screen). */
export function campaignReaches(c: LiveCampaign['targets'], s: ScreenFacts): boolean {
  if (c.deviceIds.size + c.groupIds.size + c.tagIds.size + c.regionCodes.size === 0) return true;
  if (c.deviceIds.has(s.id)) return true;
  if (s.groupId !== null && c.groupIds.has(s.groupId)) return true;
  for (const t of s.tagIds) if (c.tagIds.has(t)) return true;
  for (const r of s.regionCodes) if (c.regionCodes.has(r)) return true;
  return false;
}

/** The campaign's pacing state at the turn (its committed-today rolls over at its zone's midnight). */
function rollDay(c: LiveCampaign, at: number) {
  const day = rtbDay(at, c.zone);
  if (day !== c.dayKey) {
    c.dayKey = day;
    c.committedToday = 0;
  }
}

const MAX_LOGGED_CAMPAIGNS = 10;

/** Decides one turn: every eligible campaign's bid and the DSPs' bids, second price. */
export function decideTurn(
  turn: Turn,
  campaigns: readonly LiveCampaign[],
  external: readonly ExternalBid[],
  nonBids: readonly DspNonBid[],
): Decision {
  type Candidate = AuctionBid & { campaign?: LiveCampaign; external?: ExternalBid };
  const candidates: Candidate[] = [];
  let consideredCampaigns = 0;
  for (const c of campaigns) {
    if (turn.region && c.layoutAd) continue;
    if (!calendarAllows(c, turn.turnAt) || !campaignReaches(c.targets, turn.screen)) continue;
    consideredCampaigns++;
    rollDay(c, turn.turnAt);
    // The least the play can cost is the floor: a campaign that cannot afford even that sits out.
    if (c.bidCpm < turn.floorCpm || !pacingAllows(c, turn.turnAt, playPrice(turn.floorCpm, turn.qtyMilli))) continue;
    candidates.push({ key: `c:${c.id}`, cpm: c.bidCpm, campaign: c });
  }
  for (const b of external) {
    if (b.outcome === 'eligible') candidates.push({ key: `d:${b.dspId}:${b.bidId}`, cpm: b.cpm, external: b });
  }
  // A campaign that wins but cannot afford the clearing price leaves and the auction runs again
  // without it (at most once per candidate), so a budget is used to its last fen and never past it.
  let result = runAuction(turn.floorCpm, candidates);
  let price: number | null = result.winner ? playPrice(result.clearingCpm, turn.qtyMilli) : null;
  while (result.winner?.campaign && price !== null && !pacingAllows(result.winner.campaign, turn.turnAt, price)) {
    const out = result.winner;
    candidates.splice(candidates.indexOf(out), 1);
    result = runAuction(turn.floorCpm, candidates);
    price = result.winner ? playPrice(result.clearingCpm, turn.qtyMilli) : null;
  }
  const winner = result.winner;
  if (winner && price !== null) {
    if (winner.campaign) {
      winner.campaign.committed += price;
      winner.campaign.committedToday += price;
      winner.campaign.wonNow += price;
    }
  }
  const log: AuctionBidLog[] = [];
  for (const c of result.ranked.filter((x) => x.campaign).slice(0, MAX_LOGGED_CAMPAIGNS)) {
    const camp = c.campaign as LiveCampaign;
    log.push({
      kind: 'campaign',
      bidderId: camp.id,
      bidder: camp.name,
      cpm: c.cpm,
      outcome: c === winner ? 'won' : 'lost',
      ms: null,
      note: null,
    });
  }
  const losses: { bid: ExternalBid; loss: number }[] = [];
  for (const b of external) {
    const won = winner?.external === b;
    const belowFloor = b.cpm < turn.floorCpm;
    const outcome = won ? 'won' : b.outcome !== 'eligible' ? b.outcome : belowFloor ? 'belowFloor' : 'lost';
    log.push({ kind: 'dsp', bidderId: b.dspId, bidder: b.dspName, cpm: b.cpm, outcome, ms: b.ms, note: null });
    if (!won) {
      const loss =
        outcome === 'creativePending'
          ? 201
          : outcome === 'creativeRefused'
            ? 202
            : outcome === 'belowFloor'
              ? 100
              : 101;
      losses.push({ bid: b, loss });
    }
  }
  for (const n of nonBids) {
    log.push({
      kind: 'dsp',
      bidderId: n.dspId,
      bidder: n.dspName,
      cpm: null,
      outcome: n.outcome,
      ms: n.ms,
      note: n.note,
    });
  }
  const dspAsked = new Set([...external.map((b) => b.dspId), ...nonBids.map((n) => n.dspId)]).size;
  return {
    turn,
    winnerKind: winner ? (winner.campaign ? 'campaign' : 'dsp') : null,
    campaignId: winner?.campaign?.id ?? null,
    dspId: winner?.external?.dspId ?? null,
    adId: winner ? (winner.campaign ? winner.campaign.adId : (winner.external?.adId ?? null)) : null,
    clearingCpm: winner ? result.clearingCpm : null,
    price,
    bidders: consideredCampaigns + dspAsked,
    bids: candidates.length + external.filter((b) => b.outcome !== 'eligible').length,
    timeouts: nonBids.filter((n) => n.outcome === 'timeout').length,
    log,
    win: winner?.external ?? null,
    losses,
  };
}
