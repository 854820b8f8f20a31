import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { AMOUNT_MAX_FEN } from '../money.js';
import { Perm } from '../permissions.js';
import {
  DSP_TIMEOUT_DEFAULT_MS,
  DSP_TIMEOUT_MAX_MS,
  DSP_TIMEOUT_MIN_MS,
  RTB_AUCTION_STATES,
  RTB_BID_OUTCOMES,
  RTB_CAMPAIGN_SHOWN_STATES,
  RTB_CAMPAIGN_STATES,
  RTB_CPM_MAX_FEN,
  RTB_NAME_MAX,
  RTB_PACINGS,
  RTB_TARGETS_MAX,
  RTB_WINNER_KINDS,
} from '../rtbRules.js';
import { listPageSize } from '../validation.js';
import { endpoint } from './common.js';
import { hoursSchema, salesDateSchema } from './sales.js';

/**
 * Programmatic airtime (issue 29; /operate/slot's RTB tabs, /operate/order's campaigns tab).
 * An advertiser's RTB campaign bids per thousand impressions for the turns of the operator's
 * RTB slots, within a budget frozen in its wallet; external DSPs configured by the operator bid
 * through OpenRTB 2.6. The server decides each screen's upcoming turns ahead and pushes the
 * winners in the manifest; only a proven play is billed. Served by the server's rtb module;
 * the rules are rtbRules.ts's; amounts are fen.
 *
 * Who sees what: campaigns are about one advertiser (as orders: the advertiser its own, staff
 * those of the advertisers they see, the enterprise administrator all; yxf_new_operate_order).
 * DSPs, the auction log and the fill-rate report are the operator enterprise's (tenant, the
 * slot permission; managing DSPs needs yxf_new_operate_sales_manage).
 */

const id = z.string().min(1).max(64);
const pageSize = listPageSize();
const page = z.number().int().min(1).default(1);
const ids = z.array(id).max(RTB_TARGETS_MAX);
const manage = Perm.salesManage;

/** A CPM bid or floor: 0.01 to 10000 yuan per thousand impressions (spec section 5), in fen. */
export const rtbCpmSchema = z
  .number()
  .int('validation.amountFen')
  .min(1, 'validation.rtbPrice')
  .max(RTB_CPM_MAX_FEN, 'validation.rtbPrice');
const budgetSchema = z.number().int('validation.amountFen').min(1, 'validation.amountFen').max(AMOUNT_MAX_FEN);
/** ISO weekdays, Monday 1 to Sunday 7, no repeats; empty: every day. */
const weekdaysSchema = z
  .array(z.number().int().min(1).max(7))
  .max(7)
  .refine((d) => new Set(d).size === d.length, 'validation.duplicate');

/** Which screens a campaign bids for: some of the RTB slots' screens, by device, group, tag or region code. */
export const campaignTargetsSchema = z
  .object({
    deviceIds: ids.default([]),
    groupIds: ids.default([]),
    tagIds: ids.default([]),
    /** Province, city or district codes of the devices' locations. */
    regionCodes: z
      .array(z.string().regex(/^\d{2,12}$/))
      .max(RTB_TARGETS_MAX)
      .default([]),
  })
  .strict();

export const campaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  advertiserId: z.string(),
  advertiserName: z.string(),
  /** Stored: active, paused, ended. */
  state: z.enum(RTB_CAMPAIGN_STATES),
  /** What the list shows (scheduled, exhausted, noAd added). */
  shownState: z.enum(RTB_CAMPAIGN_SHOWN_STATES),
  bidCpm: z.number().int(),
  dailyBudget: z.number().int().nullable(),
  totalBudget: z.number().int(),
  /** Billed from proven plays, fen. */
  spent: z.number().int(),
  /** Won turns awaiting proof, fen. */
  reserved: z.number().int(),
  /** Frozen in the wallet now (the budget not spent), fen. */
  frozen: z.number().int(),
  startDate: z.string(),
  endDate: z.string(),
  hours: z.array(z.number()),
  weekdays: z.array(z.number()),
  targets: z.object({
    deviceIds: z.array(z.string()),
    groupIds: z.array(z.string()),
    tagIds: z.array(z.string()),
    regionCodes: z.array(z.string()),
  }),
  pacing: z.enum(RTB_PACINGS),
  /** The campaign's ad (reviewed like any ad) and its review state. */
  adId: z.string().nullable(),
  adName: z.string().nullable(),
  adReviewState: z.string().nullable(),
  materialIds: z.array(z.string()),
  layoutId: z.string().nullable(),
  /** Turns won and plays billed so far. */
  wins: z.number().int(),
  plays: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RtbCampaign = z.infer<typeof campaignSchema>;

export const campaignSaveSchema = z
  .object({
    id: id.optional(),
    /** The advertiser it is for: the caller when an advertiser; staff name one they see. */
    advertiserId: id.optional(),
    name: z.string().trim().min(1, 'validation.required').max(RTB_NAME_MAX),
    bidCpm: rtbCpmSchema,
    dailyBudget: budgetSchema.nullable().default(null),
    totalBudget: budgetSchema,
    startDate: salesDateSchema,
    endDate: salesDateSchema,
    hours: hoursSchema.default([]),
    weekdays: weekdaysSchema.default([]),
    targets: campaignTargetsSchema.default({ deviceIds: [], groupIds: [], tagIds: [], regionCodes: [] }),
    pacing: z.enum(RTB_PACINGS).default('even'),
    /** The ad's content: 1 to 20 of the advertiser's materials, or one of its layouts. */
    materialIds: z.array(id).max(20).default([]),
    layoutId: id.nullable().optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.endDate < c.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'validation.periodEndBeforeStart' });
    }
    if (c.dailyBudget !== null && c.dailyBudget > c.totalBudget) {
      ctx.addIssue({ code: 'custom', path: ['dailyBudget'], message: 'validation.dailyBudgetAboveTotal' });
    }
    if (c.materialIds.length === 0 && !c.layoutId) {
      ctx.addIssue({ code: 'custom', path: ['materialIds'], message: 'validation.required' });
    }
  });

const campaignFilter = {
  keyword: z.string().trim().max(64).optional(),
  shownState: z.enum(RTB_CAMPAIGN_SHOWN_STATES).optional(),
  page,
  pageSize,
};

export const deliveryPointSchema = z.object({
  /** The bucket's start, ISO. */
  at: z.string(),
  wins: z.number().int(),
  plays: z.number().int(),
  /** Fen billed in the bucket. */
  spend: z.number().int(),
});

export const dspSchema = z.object({
  id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  seat: z.string(),
  timeoutMs: z.number().int(),
  enabled: z.boolean(),
  /** Over the last 24 hours: requests sent, bids, timeouts, malformed answers, wins. */
  requests24h: z.number().int(),
  bids24h: z.number().int(),
  timeouts24h: z.number().int(),
  invalid24h: z.number().int(),
  wins24h: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RtbDsp = z.infer<typeof dspSchema>;

/** An http(s) URL without credentials, at most 500 characters. */
const endpointUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s]*)?$/, 'validation.url');

export const dspSaveSchema = z
  .object({
    id: id.optional(),
    name: z.string().trim().min(1, 'validation.required').max(RTB_NAME_MAX),
    endpoint: endpointUrl,
    seat: z.string().trim().max(64).default(''),
    timeoutMs: z.number().int().min(DSP_TIMEOUT_MIN_MS).max(DSP_TIMEOUT_MAX_MS).default(DSP_TIMEOUT_DEFAULT_MS),
    enabled: z.boolean().default(true),
  })
  .strict();

export const auctionBidSchema = z.object({
  kind: z.enum(RTB_WINNER_KINDS),
  /** The campaign's or the DSP's name. */
  bidder: z.string(),
  bidderId: z.string(),
  /** Fen per thousand impressions (null: no bid). */
  cpm: z.number().int().nullable(),
  outcome: z.enum(RTB_BID_OUTCOMES),
  /** How long the DSP took, ms (null for campaigns). */
  ms: z.number().int().nullable(),
  /** What was wrong with an invalid answer. */
  note: z.string().nullable(),
});

export const auctionSchema = z.object({
  id: z.string(),
  slotId: z.string(),
  slotName: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  /** When the turn plays (OpenRTB imp.dt), ISO. */
  turnAt: z.string(),
  durationSec: z.number().int(),
  decidedAt: z.string(),
  floorCpm: z.number().int(),
  /** Impressions per play (imp.qty.multiplier) and where it came from. */
  qty: z.number(),
  qtySource: z.enum(['audience', 'multiplier']),
  bidders: z.number().int(),
  bids: z.number().int(),
  timeouts: z.number().int(),
  state: z.enum(RTB_AUCTION_STATES),
  winnerKind: z.enum(RTB_WINNER_KINDS).nullable(),
  winnerName: z.string().nullable(),
  adId: z.string().nullable(),
  clearingCpm: z.number().int().nullable(),
  /** What the play costs (fen), billed only when proven. */
  price: z.number().int().nullable(),
  billedAt: z.string().nullable(),
});
export type RtbAuction = z.infer<typeof auctionSchema>;

const isoTime = z.iso.datetime({ offset: true });

export const fillRowSchema = z.object({
  key: z.string(),
  name: z.string(),
  auctions: z.number().int(),
  bids: z.number().int(),
  wins: z.number().int(),
  billed: z.number().int(),
  /** wins / auctions, 0..1 (0 without auctions). */
  fillRate: z.number(),
  /** Average clearing CPM of the wins, fen (null without wins). */
  avgClearingCpm: z.number().int().nullable(),
  /** Fen billed. */
  revenue: z.number().int(),
});

export const rtbEndpoints = {
  rtbCampaignList: endpoint({
    name: 'rtb.campaignList',
    path: '/api/rtb/campaign/list.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    scope: { object: 'rtbCampaign', kind: 'list' },
    request: z.object(campaignFilter).strict(),
    response: z.object({
      total: z.number(),
      data: z.array(campaignSchema),
      /** Campaigns per shown state over the filter (without its state). */
      counts: z.record(z.string(), z.number()),
    }),
  }),
  rtbCampaignInfo: endpoint({
    name: 'rtb.campaignInfo',
    path: '/api/rtb/campaign/info.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    scope: { object: 'rtbCampaign', kind: 'detail' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: z.object({
      campaign: campaignSchema,
      /** The ledger's movements of the campaign (holds, posts, releases), to reconcile. */
      transfers: z.array(z.object({ id: z.string(), code: z.string(), amount: z.number().int(), at: z.string() })),
    }),
  }),
  rtbCampaignSave: endpoint({
    name: 'rtb.campaignSave',
    path: '/api/rtb/campaign/save.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.INSUFFICIENT_BALANCE,
      ErrorCode.RTB_CAMPAIGN_STATE,
      ErrorCode.RTB_BUDGET_BELOW_COMMITTED,
      ErrorCode.AD_TARGET_INVALID,
      ErrorCode.MATERIAL_INVALID,
    ],
    /**
     * Creates a campaign (active) or edits one not ended. Creating freezes its total budget in
     * the advertiser's wallet (a pending transfer to the operator; INSUFFICIENT_BALANCE writes
     * nothing) and makes its ad from the content (pending review: it bids once approved).
     * Editing re-freezes the budget not spent (a budget below what is spent or reserved:
     * RTB_BUDGET_BELOW_COMMITTED); new content is a new review round.
     */
    request: campaignSaveSchema,
    response: campaignSchema,
  }),
  rtbCampaignPause: endpoint({
    name: 'rtb.campaignPause',
    path: '/api/rtb/campaign/pause.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.RTB_CAMPAIGN_STATE],
    /** Pauses (no new bids; turns already won still play and are billed when proven) or resumes. */
    request: z.object({ id, paused: z.boolean() }).strict(),
    response: campaignSchema,
  }),
  rtbCampaignEnd: endpoint({
    name: 'rtb.campaignEnd',
    path: '/api/rtb/campaign/end.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.RTB_CAMPAIGN_STATE],
    /**
     * Ends a campaign for good: no new bids; the budget neither spent nor reserved for won
     * turns is released at once, the rest when those turns are proven or lapse.
     */
    request: z.object({ id }).strict(),
    response: campaignSchema,
  }),
  rtbCampaignDelivery: endpoint({
    name: 'rtb.campaignDelivery',
    path: '/api/rtb/campaign/delivery.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    scope: { object: 'rtbCampaign', kind: 'detail' },
    errors: [ErrorCode.NOT_FOUND],
    /**
     * Wins, proven plays and spend per hour or day of the enterprise's time zone (`timeZone`;
     * each point's `at` is its local start with that moment's offset, issue 31).
     */
    request: z.object({ id, by: z.enum(['hour', 'day']).default('day') }).strict(),
    response: z.object({
      timeZone: z.string(),
      series: z.array(deliveryPointSchema),
      totals: z.object({ wins: z.number().int(), plays: z.number().int(), spend: z.number().int() }),
    }),
  }),
  rtbTargetOptions: endpoint({
    name: 'rtb.targetOptions',
    path: '/api/rtb/campaign/targetOptions.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    unscoped: "the screens of the caller's enterprise that RTB slots offer, with their groups, tags and regions",
    request: z.object({}).strict(),
    response: z.object({
      devices: z.array(z.object({ id: z.string(), name: z.string(), regionCodes: z.array(z.string()) })),
      groups: z.array(z.object({ id: z.string(), name: z.string() })),
      tags: z.array(z.object({ id: z.string(), name: z.string() })),
      regions: z.array(z.object({ code: z.string(), name: z.string() })),
      /** Floors of the RTB slots (fen per thousand impressions): a bid below all of them never wins. */
      minFloorCpm: z.number().int().nullable(),
      maxFloorCpm: z.number().int().nullable(),
    }),
  }),
  rtbDspList: endpoint({
    name: 'rtb.dspList',
    path: '/api/rtb/dsp/list.shtm',
    auth: 'session',
    permission: Perm.operateSlot,
    scope: { object: 'rtbDsp', kind: 'list', audience: 'tenant' },
    request: z.object({}).strict(),
    response: z.object({ data: z.array(dspSchema) }),
  }),
  rtbDspSave: endpoint({
    name: 'rtb.dspSave',
    path: '/api/rtb/dsp/save.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Adds or edits an external DSP: where bid requests go (OpenRTB 2.6 over HTTP POST), its seat and tmax. */
    request: dspSaveSchema,
    response: dspSchema,
  }),
  rtbDspDelete: endpoint({
    name: 'rtb.dspDelete',
    path: '/api/rtb/dsp/delete.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Removes a DSP: no more requests; its past auctions stay in the log. */
    request: z.object({ id }).strict(),
    response: z.null(),
  }),
  rtbAuctionList: endpoint({
    name: 'rtb.auctionList',
    path: '/api/rtb/auction/list.shtm',
    auth: 'session',
    permission: Perm.operateSlot,
    scope: { object: 'rtbAuction', kind: 'list', audience: 'tenant' },
    request: z
      .object({
        slotId: id.optional(),
        deviceId: id.optional(),
        state: z.enum(RTB_AUCTION_STATES).optional(),
        winnerKind: z.enum(RTB_WINNER_KINDS).optional(),
        from: isoTime.optional(),
        to: isoTime.optional(),
        page,
        pageSize,
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(auctionSchema) }),
  }),
  rtbAuctionInfo: endpoint({
    name: 'rtb.auctionInfo',
    path: '/api/rtb/auction/info.shtm',
    auth: 'session',
    permission: Perm.operateSlot,
    scope: { object: 'rtbAuction', kind: 'detail', audience: 'tenant' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: z.object({ auction: auctionSchema, bids: z.array(auctionBidSchema) }),
  }),
  rtbFillReport: endpoint({
    name: 'rtb.fillReport',
    path: '/api/rtb/report/fill.shtm',
    auth: 'session',
    permission: Perm.operateSlot,
    scope: { object: 'rtbAuction', kind: 'count', figure: 'totals.auctions', audience: 'tenant' },
    /** Auctions, bids, wins, fill rate, average clearing CPM and revenue per slot, screen or hour of day (of the enterprise's `timeZone`). */
    request: z
      .object({
        by: z.enum(['slot', 'device', 'hour']).default('slot'),
        from: isoTime.optional(),
        to: isoTime.optional(),
      })
      .strict(),
    response: z.object({ timeZone: z.string(), rows: z.array(fillRowSchema), totals: fillRowSchema }),
  }),
  rtbFallbackOptions: endpoint({
    name: 'rtb.fallbackOptions',
    path: '/api/rtb/slot/fallbackOptions.shtm',
    auth: 'session',
    permission: Perm.operateSlot,
    unscoped: "the caller's enterprise's approved fallback ads, for the RTB dialog's picker",
    request: z.object({}).strict(),
    /** `layout`: the ad is a layout (it cannot be a layout region's fallback: a region shows pictures and videos). */
    response: z.object({ data: z.array(z.object({ id: z.string(), name: z.string(), layout: z.boolean() })) }),
  }),
} as const;
