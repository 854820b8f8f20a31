import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { ads } from './ads.js';
import { createdAt, id, updatedAt } from './columns.js';
import { devices } from './devices.js';
import { adSlots } from './sales.js';
import { enterprises } from './tenancy.js';

/**
 * Programmatic airtime (issue 29, modules/rtb; docs/ARCHITECTURE.md "Programmatic airtime"):
 * advertisers' RTB campaigns, the operator's external DSPs, the creatives DSPs sent (reviewed
 * as ads), and every decided turn (an auction with its bids). Amounts are fen; a CPM is fen per
 * thousand impressions; impressions per play are thousandths.
 */

type CampaignTargets = { deviceIds: string[]; groupIds: string[]; tagIds: string[]; regionCodes: string[] };

/** One bid (or missing bid) of an auction, as the log shows it. */
export interface AuctionBidLog {
  kind: 'campaign' | 'dsp';
  bidderId: string;
  bidder: string;
  cpm: number | null;
  outcome: string;
  ms: number | null;
  note: string | null;
}

export const rtbCampaigns = pgTable(
  'rtb_campaigns',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    advertiserId: text('advertiser_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    state: text('state').$type<'active' | 'paused' | 'ended'>().notNull().default('active'),
    bidCpm: bigint('bid_cpm', { mode: 'number' }).notNull(),
    dailyBudget: bigint('daily_budget', { mode: 'number' }),
    totalBudget: bigint('total_budget', { mode: 'number' }).notNull(),
    /** Billed from proven plays. */
    spent: bigint('spent', { mode: 'number' }).notNull().default(0),
    /** Won turns awaiting proof. */
    reserved: bigint('reserved', { mode: 'number' }).notNull().default(0),
    /** The UTC day dayCommitted counts (daily budget). */
    dayKey: text('day_key').notNull().default(''),
    dayCommitted: bigint('day_committed', { mode: 'number' }).notNull().default(0),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    hoursMask: integer('hours_mask').notNull(),
    weekdaysMask: integer('weekdays_mask').notNull(),
    targets: jsonb('targets').$type<CampaignTargets>().notNull(),
    pacing: text('pacing').$type<'even' | 'asap'>().notNull().default('even'),
    adId: text('ad_id').references(() => ads.id),
    /** The ledger's pending transfer that holds the budget not spent ('rtb:<id>:hold:<seq>'); null once released. */
    holdTransferId: text('hold_transfer_id'),
    holdSeq: integer('hold_seq').notNull().default(0),
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    check('rtb_campaigns_state_check', sql`${t.state} in ('active', 'paused', 'ended')`),
    check('rtb_campaigns_pacing_check', sql`${t.pacing} in ('even', 'asap')`),
    check(
      'rtb_campaigns_budget_check',
      sql`${t.spent} >= 0 and ${t.reserved} >= 0 and ${t.spent} + ${t.reserved} <= ${t.totalBudget}`,
    ),
    index('rtb_campaigns_ent_idx').on(t.entId, t.createdAt.desc(), t.id),
    index('rtb_campaigns_adv_idx').on(t.advertiserId, t.createdAt.desc()),
    index('rtb_campaigns_live_idx').on(t.entId, t.endDate).where(sql`${t.state} = 'active'`),
  ],
);
export type RtbCampaignRow = typeof rtbCampaigns.$inferSelect;

export const rtbDsps = pgTable(
  'rtb_dsps',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    name: text('name').notNull(),
    endpoint: text('endpoint').notNull(),
    seat: text('seat').notNull().default(''),
    timeoutMs: integer('timeout_ms').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('rtb_dsps_ent_idx').on(t.entId, t.createdAt)],
);
export type RtbDspRow = typeof rtbDsps.$inferSelect;

/** A DSP's figures per hour: requests, bids, timeouts, malformed answers, wins. */
export const rtbDspHours = pgTable(
  'rtb_dsp_hours',
  {
    dspId: text('dsp_id')
      .notNull()
      .references(() => rtbDsps.id),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    requests: integer('requests').notNull().default(0),
    bids: integer('bids').notNull().default(0),
    timeouts: integer('timeouts').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    wins: integer('wins').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dspId, t.hour] })],
);

/** A creative a DSP bid with: fetched into the operator's library and reviewed as an ad before it may win. */
export const rtbCreatives = pgTable(
  'rtb_creatives',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    dspId: text('dsp_id')
      .notNull()
      .references(() => rtbDsps.id),
    crid: text('crid').notNull(),
    url: text('url').notNull(),
    /** fetching -> review (an ad pending review) | error; the ad's review decides after. */
    state: text('state').$type<'fetching' | 'review' | 'error'>().notNull().default('fetching'),
    adId: text('ad_id').references(() => ads.id),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('rtb_creatives_key').on(t.dspId, t.crid)],
);
export type RtbCreativeRow = typeof rtbCreatives.$inferSelect;

/** A decided turn: the auction of one turn of an RTB slot on one screen, with every bid. */
export const rtbAuctions = pgTable(
  'rtb_auctions',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    slotId: text('slot_id')
      .notNull()
      .references(() => adSlots.id),
    /** Cascade: a deleted screen takes its auction log with it (the ledger keeps the money's trail). */
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    turnAt: timestamp('turn_at', { withTimezone: true }).notNull(),
    durationSec: integer('duration_sec').notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
    floorCpm: bigint('floor_cpm', { mode: 'number' }).notNull(),
    qtyMilli: integer('qty_milli').notNull(),
    qtySource: text('qty_source').$type<'audience' | 'multiplier'>().notNull(),
    bidders: integer('bidders').notNull(),
    bids: integer('bids').notNull(),
    timeouts: integer('timeouts').notNull(),
    state: text('state').$type<'noBid' | 'won' | 'billed' | 'unproven'>().notNull(),
    winnerKind: text('winner_kind').$type<'campaign' | 'dsp'>(),
    campaignId: text('campaign_id').references(() => rtbCampaigns.id),
    dspId: text('dsp_id').references(() => rtbDsps.id),
    adId: text('ad_id').references(() => ads.id),
    clearingCpm: bigint('clearing_cpm', { mode: 'number' }),
    /** What the play costs, fen (billed only when proven). */
    price: bigint('price', { mode: 'number' }),
    /** The DSP winner's billing notice (burl), called when the play is proven. */
    billingUrl: text('billing_url'),
    billedAt: timestamp('billed_at', { withTimezone: true }),
    /** The play that proved the turn (one play proves one turn at most). */
    proofEventId: text('proof_event_id'),
    bidLog: jsonb('bid_log').$type<AuctionBidLog[]>().notNull(),
  },
  (t) => [
    check('rtb_auctions_state_check', sql`${t.state} in ('noBid', 'won', 'billed', 'unproven')`),
    uniqueIndex('rtb_auctions_turn_key').on(t.slotId, t.deviceId, t.turnAt),
    index('rtb_auctions_device_idx').on(t.deviceId, t.turnAt),
    index('rtb_auctions_ent_idx').on(t.entId, t.turnAt.desc(), t.id),
    index('rtb_auctions_won_idx').on(t.turnAt).where(sql`${t.state} = 'won'`),
    uniqueIndex('rtb_auctions_proof_key').on(t.proofEventId),
    index('rtb_auctions_campaign_idx').on(t.campaignId, t.turnAt).where(sql`${t.campaignId} is not null`),
  ],
);
export type RtbAuctionRow = typeof rtbAuctions.$inferSelect;
