import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { OPENOOH_VENUE_TYPES } from '../rtbRules.js';
import {
  CANCEL_REASONS,
  CONTRACT_CHANNELS,
  CONTRACT_KINDS,
  CONTRACT_STATES,
  COUPON_LIMIT_MAX,
  COUPON_NAME_MAX,
  COUPON_STATES,
  GOODS_KINDS,
  GOODS_NAME_MAX,
  GOODS_STATES,
  HOLD_MINUTES_MAX,
  HOLD_MINUTES_MIN,
  IMPRESSIONS_K_MAX,
  IMPRESSIONS_K_MIN,
  IMPRESSIONS_PER_PLAY_PCT_MAX,
  MAKE_GOOD_REMEDIES,
  ORDER_SCREENS_MAX,
  PROGRAMME_LINES_MAX,
  RTB_PRICE_MAX_FEN,
  SALES_METHODS,
  SALES_ORDER_STATES,
  SETTLEMENT_STATES,
  SLOT_DURATION_MAX_SEC,
  SLOT_DURATION_MIN_SEC,
  SLOT_NAME_MAX,
  SLOT_PIXELS_MAX,
  SLOT_PIXELS_MIN,
  SLOT_PRICE_MAX_FEN,
  SLOT_PRICE_MIN_FEN,
  SLOT_ROTATIONS_MAX,
  SYNC_STATES,
} from '../salesRules.js';
import { listPageSize } from '../validation.js';
import { endpoint } from './common.js';
import { exportFollowUps, exportStatusSchema } from './operationLog.js';

/**
 * Selling airtime (issue 28; /operate/slot (/slot_mag), /operate/goods (/goods_mag),
 * /operate/order (/slot_order_mag), /operate/orderDetail, /operate/coupon,
 * /operate/signContract). The media operator's enterprise turns its screens into inventory
 * (slots), packages it (goods and programmes), negotiates prices with advertisers (price
 * contracts) and gives coupons; an advertiser (or the sales staff for their assigned
 * advertisers) checks availability and orders; the order holds its inventory until paid,
 * freezes its amount in the advertiser's wallet, makes its ads from the advertiser's
 * materials (through review), plays, and is settled from proof of play. Served by the
 * server's sales module; the rules are salesRules.ts's; amounts are fen.
 *
 * Who sees what: slots, goods, coupons and settings are the enterprise's (audience tenant);
 * managing them needs yxf_new_operate_sales_manage. Orders, their settlements and contracts,
 * and price contracts, are about one advertiser: the advertiser sees its own; staff see those
 * of the advertisers they see on /user/adv (their data scope, widened by /user/allot
 * assignments); the enterprise administrator sees all (audience scoped, object's owner the
 * advertiser).
 */

const id = z.string().min(1).max(64);
const pageSize = listPageSize();
const page = z.number().int().min(1).default(1);
const isoTime = z.iso.datetime({ offset: true });
const inRange = (d: string) => {
  const ms = Date.parse(`${d}T00:00:00Z`);
  return ms >= Date.UTC(2000, 0, 1) && ms < Date.UTC(10000, 0, 1);
};
/** A calendar day, YYYY-MM-DD (UTC until issue 31). */
export const salesDateSchema = z.iso.date().refine(inRange, 'validation.dateTimeFormat');
const hourSchema = z.number().int().min(0).max(23);
/** Hours of the day, 0..23, no repeats; empty or absent: all 24. */
export const hoursSchema = z
  .array(hourSchema)
  .max(24)
  .refine((h) => new Set(h).size === h.length, 'validation.duplicate');
const ids = (max: number) => z.array(id).max(max);
/** Spec section 5: CPT (and CPM) price 0.01 to 99999 yuan, in fen. */
export const slotPriceSchema = z
  .number()
  .int('validation.amountFen')
  .min(SLOT_PRICE_MIN_FEN, 'validation.cptPrice')
  .max(SLOT_PRICE_MAX_FEN, 'validation.cptPrice');
/** Spec section 5: RTB price 0 to 10000 yuan, in fen. */
export const rtbPriceSchema = z
  .number()
  .int('validation.amountFen')
  .min(0, 'validation.rtbPrice')
  .max(RTB_PRICE_MAX_FEN, 'validation.rtbPrice');
/** Spec section 5: a discount 0 to 1 with at most 2 decimals (stored as an integer percentage). */
export const discountSchema = z
  .number()
  .min(0, 'validation.discount')
  .max(1, 'validation.discount')
  .refine((d) => Math.abs(Math.round(d * 100) - d * 100) < 1e-6, 'validation.discount');

/** The screens a slot covers: like an ad's targets (devices, groups, tags, split screens). */
export const slotTargetsSchema = z
  .object({
    deviceIds: ids(ORDER_SCREENS_MAX).default([]),
    groupIds: ids(200).default([]),
    tagIds: ids(200).default([]),
    spliceIds: ids(200).default([]),
  })
  .strict();

export const slotSchema = z.object({
  id: z.string(),
  /** 9 digits, the number people quote. */
  number: z.string(),
  name: z.string(),
  /** The screens' size as people say it ('55"'), free text. */
  screenSize: z.string(),
  width: z.number(),
  height: z.number(),
  durationSec: z.number(),
  salesMethod: z.enum(SALES_METHODS),
  /** Fen per rotation per screen-hour. */
  cptPrice: z.number().int().nullable(),
  /** Fen per thousand impressions. */
  cpmPrice: z.number().int().nullable(),
  maxRotations: z.number(),
  rtbEnabled: z.boolean(),
  /** Fen per thousand impressions, the auction's floor (issue 29). */
  rtbFloor: z.number().int().nullable(),
  /** What plays in a turn nobody won: an approved fallback ad of the enterprise (null: the screen's loop goes on). */
  rtbFallbackAdId: z.string().nullable(),
  rtbFallbackAdName: z.string().nullable(),
  /** The OpenOOH venue type sent to DSPs (dooh.venuetype). */
  venueType: z.enum(OPENOOH_VENUE_TYPES),
  targets: z.object({
    deviceIds: z.array(z.string()),
    groupIds: z.array(z.string()),
    tagIds: z.array(z.string()),
    spliceIds: z.array(z.string()),
  }),
  /** A region of a layout the slot is (its RTB-slot component), or null for a turn of the loop. */
  layoutId: z.string().nullable(),
  layoutName: z.string().nullable(),
  regionId: z.string().nullable(),
  /** Screens the targets reach now, and of them those offline more than 72 hours (not sellable). */
  screens: z.number(),
  longOfflineScreens: z.number(),
  /** Goods on sale or orders not over use it: its method and screens cannot change, it cannot be deleted. */
  inUse: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Slot = z.infer<typeof slotSchema>;

export const slotSaveSchema = z
  .object({
    id: id.optional(),
    name: z.string().trim().min(1, 'validation.required').max(SLOT_NAME_MAX),
    screenSize: z.string().trim().max(20).default(''),
    width: z.number().int().min(SLOT_PIXELS_MIN, 'validation.layoutSide').max(SLOT_PIXELS_MAX, 'validation.layoutSide'),
    height: z
      .number()
      .int()
      .min(SLOT_PIXELS_MIN, 'validation.layoutSide')
      .max(SLOT_PIXELS_MAX, 'validation.layoutSide'),
    durationSec: z.number().int().min(SLOT_DURATION_MIN_SEC).max(SLOT_DURATION_MAX_SEC),
    salesMethod: z.enum(SALES_METHODS),
    /** Required for CPT. */
    cptPrice: slotPriceSchema.nullable().optional(),
    /** Required for CPM. */
    cpmPrice: slotPriceSchema.nullable().optional(),
    maxRotations: z.number().int().min(1).max(SLOT_ROTATIONS_MAX),
    targets: slotTargetsSchema,
    layoutId: id.nullable().optional(),
    regionId: z.string().max(64).nullable().optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.salesMethod === 'cpt' && s.cptPrice == null) {
      ctx.addIssue({ code: 'custom', path: ['cptPrice'], message: 'validation.required' });
    }
    if (s.salesMethod === 'cpm' && s.cpmPrice == null) {
      ctx.addIssue({ code: 'custom', path: ['cpmPrice'], message: 'validation.required' });
    }
    if (Boolean(s.layoutId) !== Boolean(s.regionId)) {
      ctx.addIssue({ code: 'custom', path: ['regionId'], message: 'validation.required' });
    }
  });

/** One slot of a goods item: a slot, optionally narrowed to some of its screens, at a unit price. */
export const goodsLineSchema = z.object({
  id: z.string(),
  slotId: z.string(),
  slotName: z.string(),
  salesMethod: z.enum(SALES_METHODS),
  durationSec: z.number(),
  maxRotations: z.number(),
  /** The screens offered: the slot's (empty deviceIds) or these. */
  deviceIds: z.array(z.string()),
  screens: z.number(),
  /** CPT: fen per rotation per screen-hour; CPM: fen per thousand impressions. */
  unitPrice: z.number().int(),
});

export const goodsSchema = z.object({
  id: z.string(),
  number: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(GOODS_KINDS),
  /** Stored onSale / offShelf; shown soldOut or expired when true (goodsState). */
  state: z.enum(GOODS_STATES),
  startDate: z.string(),
  endDate: z.string(),
  /** The hours offered (all 24 when the goods has no daypart). */
  hours: z.array(z.number()),
  lines: z.array(goodsLineSchema),
  /** Orders not cancelled. */
  orders: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Goods = z.infer<typeof goodsSchema>;

export const goodsSaveSchema = z
  .object({
    id: id.optional(),
    name: z.string().trim().min(1, 'validation.required').max(GOODS_NAME_MAX),
    description: z.string().trim().max(500).default(''),
    kind: z.enum(GOODS_KINDS),
    startDate: salesDateSchema,
    endDate: salesDateSchema,
    hours: hoursSchema.default([]),
    lines: z
      .array(
        z
          .object({
            slotId: id,
            deviceIds: ids(ORDER_SCREENS_MAX).default([]),
            /** Absent: the slot's price for its method. */
            unitPrice: slotPriceSchema.optional(),
          })
          .strict(),
      )
      .min(1, 'validation.required')
      .max(PROGRAMME_LINES_MAX),
  })
  .strict()
  .superRefine((g, ctx) => {
    if (g.endDate < g.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'validation.periodEndBeforeStart' });
    }
    if (g.kind === 'single' && g.lines.length !== 1) {
      ctx.addIssue({ code: 'custom', path: ['lines'], message: 'validation.goodsSingle' });
    }
    if (g.kind === 'programme' && g.lines.length < 2) {
      ctx.addIssue({ code: 'custom', path: ['lines'], message: 'validation.goodsProgramme' });
    }
    if (new Set(g.lines.map((l) => l.slotId)).size !== g.lines.length) {
      ctx.addIssue({ code: 'custom', path: ['lines'], message: 'validation.duplicate' });
    }
  });

/** What availability is asked about: a slot or a goods line's slot, screens, days and hours. */
export const availabilityRequestSchema = z
  .object({
    slotId: id,
    /** Narrow to these screens (of the slot); empty: all its screens. */
    deviceIds: ids(ORDER_SCREENS_MAX).default([]),
    startDate: salesDateSchema,
    endDate: salesDateSchema,
    hours: hoursSchema.default([]),
    /** The chart's buckets: one per hour, or one per day. */
    granularity: z.enum(['hour', 'day']).default('day'),
    /** The per-screen table's page. */
    page,
    size: pageSize,
    /** Leave out this order's own holds (an order being edited or paid sees its own as available). */
    excludeOrderId: id.optional(),
  })
  .strict()
  .refine((r) => r.endDate >= r.startDate, { path: ['endDate'], message: 'validation.periodEndBeforeStart' });

/** Rotations over some screen-hours: capacity = booked + held + available. */
const availFigures = {
  capacity: z.number(),
  booked: z.number(),
  held: z.number(),
  available: z.number(),
  /** available / capacity, percent with one decimal. */
  availPct: z.number(),
  /** (booked + held) / capacity, percent with one decimal. */
  fillRate: z.number(),
};
export const availabilitySchema = z.object({
  slotId: z.string(),
  maxRotations: z.number(),
  /** The most rotations every chosen screen-hour still has: what one order line can book at most. */
  bookable: z.number(),
  total: z.object(availFigures),
  /** One bucket per hour (ISO instant of its start) or per day (its date). */
  series: z.array(z.object({ at: z.string(), ...availFigures })),
  /** Per screen over the whole period (a page of them, fullest first). */
  screens: z.object({
    total: z.number(),
    data: z.array(
      z.object({
        deviceId: z.string(),
        deviceName: z.string(),
        /** Offline more than 72 hours: not sellable (spec section 9). */
        longOffline: z.boolean(),
        /** The fewest rotations left in any of its chosen screen-hours. */
        minAvailable: z.number(),
        ...availFigures,
      }),
    ),
  }),
  /** Where the figures were computed at (the query's moment: exact, not a daily refresh). */
  computedAt: z.string(),
});
export type Availability = z.infer<typeof availabilitySchema>;

export const priceContractSchema = z.object({
  id: z.string(),
  number: z.string(),
  name: z.string(),
  advertiserId: z.string(),
  advertiserName: z.string(),
  /** 0..1, the spec's discount (1: none). */
  discount: z.number(),
  /** Negotiated unit prices of some slots (before the discount). */
  slotPrices: z.array(z.object({ slotId: z.string(), slotName: z.string(), unitPrice: z.number().int() })),
  validFrom: z.string(),
  validTo: z.string(),
  enabled: z.boolean(),
  /** In force now: enabled and today within its validity. */
  active: z.boolean(),
  /** Its contract document, if one was drawn up. */
  contractId: z.string().nullable(),
  contractState: z.enum(CONTRACT_STATES).nullable(),
  createdAt: z.string(),
});
export type PriceContract = z.infer<typeof priceContractSchema>;

export const priceContractSaveSchema = z
  .object({
    id: id.optional(),
    name: z.string().trim().min(1, 'validation.required').max(40),
    advertiserId: id,
    discount: discountSchema,
    slotPrices: z
      .array(z.object({ slotId: id, unitPrice: slotPriceSchema }).strict())
      .max(100)
      .refine((p) => new Set(p.map((x) => x.slotId)).size === p.length, 'validation.duplicate')
      .default([]),
    validFrom: salesDateSchema,
    validTo: salesDateSchema,
    enabled: z.boolean().default(true),
  })
  .strict()
  .refine((c) => c.validTo >= c.validFrom, { path: ['validTo'], message: 'validation.periodEndBeforeStart' });

export const couponSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** 0..1 (0.85: 15% off). */
  discount: z.number(),
  limit: z.number(),
  used: z.number(),
  validFrom: z.string(),
  validTo: z.string(),
  /** Goods it applies to; empty: all goods and slots. */
  goodsIds: z.array(z.string()),
  goodsNames: z.array(z.string()),
  enabled: z.boolean(),
  state: z.enum(COUPON_STATES),
  createdAt: z.string(),
});
export type Coupon = z.infer<typeof couponSchema>;

export const couponSaveSchema = z
  .object({
    id: id.optional(),
    name: z.string().trim().min(1, 'validation.required').max(COUPON_NAME_MAX),
    discount: discountSchema,
    limit: z.number().int().min(1).max(COUPON_LIMIT_MAX),
    validFrom: salesDateSchema,
    validTo: salesDateSchema,
    goodsIds: ids(100).default([]),
  })
  .strict()
  .refine((c) => c.validTo >= c.validFrom, { path: ['validTo'], message: 'validation.periodEndBeforeStart' });

export const couponUseSchema = z.object({
  id: z.string(),
  couponId: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  advertiserName: z.string(),
  /** Fen taken off the order. */
  saved: z.number().int(),
  usedAt: z.string(),
  /** Given back when the order was cancelled (the use no longer counts). */
  releasedAt: z.string().nullable(),
});

/** What an order (or a quote) asks for: goods or one slot, the period, hours, screens per line. */
export const orderRequestSchema = z
  .object({
    /** The advertiser the order is for: the caller itself when it is an advertiser; staff name one they see. */
    advertiserId: id.optional(),
    /** Order goods (its lines) ... */
    goodsId: id.optional(),
    /** ... or one slot directly (staff with yxf_new_operate_sales_manage only). */
    slotId: id.optional(),
    startDate: salesDateSchema,
    endDate: salesDateSchema,
    /** Within the goods' hours; empty: all of them. */
    hours: hoursSchema.default([]),
    /** One per goods line (by slot), or one for the slot. */
    lines: z
      .array(
        z
          .object({
            slotId: id,
            /** Screens of the line (empty: all the goods line offers, or all the slot's). */
            deviceIds: ids(ORDER_SCREENS_MAX).default([]),
            rotations: z.number().int().min(1).max(SLOT_ROTATIONS_MAX).default(1),
            /** CPM lines: thousands of impressions bought (spec section 5: 1 to 99999). */
            impressionsK: z
              .number()
              .int()
              .min(IMPRESSIONS_K_MIN, 'validation.playCount')
              .max(IMPRESSIONS_K_MAX, 'validation.playCount')
              .optional(),
          })
          .strict(),
      )
      .min(1, 'validation.required')
      .max(PROGRAMME_LINES_MAX),
    couponId: id.nullable().optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (Boolean(o.goodsId) === Boolean(o.slotId)) {
      ctx.addIssue({ code: 'custom', path: ['goodsId'], message: 'validation.required' });
    }
    if (o.endDate < o.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'validation.periodEndBeforeStart' });
    }
  });

export const quoteSchema = z.object({
  lines: z.array(
    z.object({
      slotId: z.string(),
      slotName: z.string(),
      salesMethod: z.enum(SALES_METHODS),
      /** After the price contract's slot price, before discounts. */
      unitPrice: z.number().int(),
      screens: z.number(),
      rotations: z.number(),
      days: z.number(),
      hoursPerDay: z.number(),
      impressionsK: z.number().nullable(),
      listAmount: z.number().int(),
      /** The most rotations every chosen screen-hour still has (0: TIME_CONFLICT if ordered). */
      bookable: z.number(),
    }),
  ),
  listAmount: z.number().int(),
  priceContract: z.object({ id: z.string(), name: z.string(), discount: z.number() }).nullable(),
  coupon: z.object({ id: z.string(), name: z.string(), discount: z.number() }).nullable(),
  amount: z.number().int(),
  /** The advertiser's wallet: available balance (what paying needs). */
  walletId: z.string(),
  available: z.number().int(),
});
export type SalesQuote = z.infer<typeof quoteSchema>;

/** A sub-order: one slot of the order with its screens. */
export const subOrderSchema = z.object({
  id: z.string(),
  /** The order's number + '-' + the line's position ('S202611280001-1'). */
  subNo: z.string(),
  slotId: z.string(),
  slotName: z.string(),
  salesMethod: z.enum(SALES_METHODS),
  durationSec: z.number(),
  unitPrice: z.number().int(),
  rotations: z.number(),
  impressionsK: z.number().nullable(),
  screens: z.number(),
  deviceIds: z.array(z.string()),
  amount: z.number().int(),
  /** The ad made from the advertiser's materials for this line, with its review state. */
  adId: z.string().nullable(),
  adName: z.string().nullable(),
  adReviewState: z.string().nullable(),
  adStatus: z.string().nullable(),
});
export type SubOrder = z.infer<typeof subOrderSchema>;

export const salesOrderSchema = z.object({
  id: z.string(),
  /** 'S' + UTC+8 date + a sequence number. */
  no: z.string(),
  advertiserId: z.string(),
  advertiserName: z.string(),
  goodsId: z.string().nullable(),
  goodsName: z.string().nullable(),
  state: z.enum(SALES_ORDER_STATES),
  startDate: z.string(),
  endDate: z.string(),
  hours: z.array(z.number()),
  /** Before discounts, after the price contract, and what the advertiser pays at most. */
  listAmount: z.number().int(),
  amount: z.number().int(),
  /** Posted to the operator so far (settled or delivered). */
  paidAmount: z.number().int(),
  /** Still held in the advertiser's wallet. */
  frozenAmount: z.number().int(),
  /** Given back to the advertiser (released holds, credits). */
  refundedAmount: z.number().int(),
  couponId: z.string().nullable(),
  couponName: z.string().nullable(),
  priceContractId: z.string().nullable(),
  /** While unpaid: the inventory is held until then, then released and the order cancelled. */
  holdUntil: z.string().nullable(),
  cancelReason: z.enum(CANCEL_REASONS).nullable(),
  subOrders: z.number(),
  screens: z.number(),
  settlementState: z.enum(SETTLEMENT_STATES).nullable(),
  contractState: z.enum(CONTRACT_STATES).nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /** The caller may pay, cancel or attach materials (its own, or managed). */
  hasPermission: z.boolean(),
});
export type SalesOrder = z.infer<typeof salesOrderSchema>;

/** A step of an order's life: the state it moved to, who moved it, when. */
export const orderEventSchema = z.object({
  from: z.enum(SALES_ORDER_STATES).nullable(),
  to: z.enum(SALES_ORDER_STATES),
  /** The person, or '' for the system (a job: hold expiry, the period starting, settlement). */
  actorName: z.string(),
  at: z.string(),
  note: z.string(),
});

export const settlementLineSchema = z.object({
  subOrderId: z.string(),
  deviceId: z.string(),
  deviceName: z.string(),
  day: z.string(),
  /** What the schedule expected on that screen-day, what proof of play says played. */
  expectedPlays: z.number(),
  deliveredPlays: z.number(),
  /** Plays x audience (gather) or x the multiplier. */
  impressions: z.number(),
  /** Where impressions came from for this screen-day. */
  impressionsSource: z.enum(['audience', 'multiplier']),
  /** Under-delivered (below the reconciliation threshold), with the make-good chosen. */
  underDelivered: z.boolean(),
  remedy: z.enum(MAKE_GOOD_REMEDIES).nullable(),
  /** CPT: what the screen-day's sold time costs; CPM: what its impressions cost. Fen. */
  amount: z.number().int(),
  /** Credited back for this screen-day (remedy credit), fen. */
  credit: z.number().int(),
});

export const settlementSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  advertiserName: z.string(),
  state: z.enum(SETTLEMENT_STATES),
  salesMethod: z.enum(SALES_METHODS),
  /** How CPM impressions were counted (the page says which). */
  impressionsBasis: z.object({
    multiplierPct: z.number(),
    audienceScreenDays: z.number(),
    multiplierScreenDays: z.number(),
  }),
  expectedPlays: z.number(),
  deliveredPlays: z.number(),
  impressions: z.number(),
  /** What the order froze; what is billed (posted); what goes back (released or credited). */
  frozenAmount: z.number().int(),
  billedAmount: z.number().int(),
  creditAmount: z.number().int(),
  underDeliveredScreenDays: z.number(),
  /** Make-good extra plays still to run (the settlement completes after them). */
  makeGoodUntil: z.string().nullable(),
  computedAt: z.string(),
  confirmedBy: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** The ledger transfers the settlement made (post and release), to reconcile to the fen. */
  transfers: z.array(z.object({ id: z.string(), code: z.string(), amount: z.number().int(), at: z.string() })),
});
export type Settlement = z.infer<typeof settlementSchema>;

export const contractSchema = z.object({
  id: z.string(),
  /** 'C' + UTC+8 date + a sequence number. */
  no: z.string(),
  kind: z.enum(CONTRACT_KINDS),
  /** The order or price contract it is for. */
  subjectId: z.string(),
  subjectNo: z.string(),
  advertiserId: z.string(),
  advertiserName: z.string(),
  title: z.string(),
  state: z.enum(CONTRACT_STATES),
  channel: z.enum(CONTRACT_CHANNELS),
  /** The e-signature provider's sync (null for a contract signed inside the product). */
  syncState: z.enum(SYNC_STATES).nullable(),
  syncAttempts: z.number(),
  syncError: z.string().nullable(),
  /** SHA-256 of the PDF, hex: what was signed. */
  sha256: z.string(),
  bytes: z.number(),
  signedBy: z.string().nullable(),
  signedAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** The caller may sign it (the advertiser it is for, or staff managing it on their behalf when allowed). */
  canSign: z.boolean(),
});
export type Contract = z.infer<typeof contractSchema>;

export const salesSettingsSchema = z.object({
  /** How long an unpaid order holds its inventory. */
  holdMinutes: z.number(),
  /** Impressions per play where gather has no audience, in hundredths (100: one per play). */
  impressionsPerPlayPct: z.number(),
  /** The make-good proposed for an under-delivered screen-day. */
  defaultRemedy: z.enum(MAKE_GOOD_REMEDIES),
  /** Whether an e-signature provider is configured (ESIGN_URL), and which setting enables it. */
  esignConfigured: z.boolean(),
});

const orderFilter = {
  page,
  size: pageSize,
  state: z.enum(SALES_ORDER_STATES).optional(),
  advertiserId: id.optional(),
  goodsId: id.optional(),
  slotId: id.optional(),
  /** Order number, sub-order number, advertiser or goods name contains. */
  keyword: z.string().trim().max(64).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
};

const manage = Perm.salesManage;

const orderExport = exportFollowUps({
  name: 'sales.orderExport',
  path: '/api/sales/order/export',
  permission: Perm.operateOrder,
  object: 'salesOrderExport',
});
const settlementExport = exportFollowUps({
  name: 'sales.settlementExport',
  path: '/api/sales/settlement/export',
  permission: Perm.operateOrder,
  object: 'salesSettlementExport',
});

export const salesEndpoints = {
  // ---- slots (/operate/slot) ----
  salesSlotList: endpoint({
    name: 'sales.slotList',
    path: '/api/sales/slot/list.shtm',
    auth: 'session',
    permission: Perm.operateSlot,
    scope: { object: 'adSlot', kind: 'list', audience: 'tenant' },
    request: z
      .object({
        page,
        size: pageSize,
        keyword: z.string().trim().max(64).optional(),
        salesMethod: z.enum(SALES_METHODS).optional(),
        rtbEnabled: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(slotSchema) }),
  }),
  salesSlotInfo: endpoint({
    name: 'sales.slotInfo',
    path: '/api/sales/slot/info.shtm',
    auth: 'session',
    permission: Perm.operateSlot,
    scope: { object: 'adSlot', kind: 'detail', audience: 'tenant' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: slotSchema,
  }),
  salesSlotSave: endpoint({
    name: 'sales.slotSave',
    path: '/api/sales/slot/save.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.AD_TARGET_INVALID, ErrorCode.SLOT_IN_USE, ErrorCode.DEVICE_LONG_OFFLINE],
    /**
     * Adds or edits a slot. Its targets are checked against the enterprise (AD_TARGET_INVALID);
     * a slot in use (goods on sale, orders not over) keeps its method, rotations and screens
     * (SLOT_IN_USE), its prices may change (goods and orders keep theirs).
     */
    request: slotSaveSchema,
    response: slotSchema,
  }),
  salesSlotDelete: endpoint({
    name: 'sales.slotDelete',
    path: '/api/sales/slot/delete.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.SLOT_IN_USE],
    request: z.object({ id }).strict(),
    response: z.null(),
  }),
  salesSlotRtb: endpoint({
    name: 'sales.slotRtb',
    path: '/api/sales/slot/rtb.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.AD_NOT_SCHEDULED, ErrorCode.DICTIONARY_VALUE_INVALID],
    /**
     * Turns RTB on or off for a slot: its floor (fen per thousand impressions; required when
     * on), the fallback ad of turns nobody wins and the venue type DSPs are told. Its turns are
     * auctioned from the next decision (within RTB_HORIZON_SEC) on.
     */
    request: z
      .object({
        id,
        rtbEnabled: z.boolean(),
        rtbFloor: rtbPriceSchema.nullable().optional(),
        rtbFallbackAdId: id.nullable().optional(),
        venueType: z.enum(OPENOOH_VENUE_TYPES).optional(),
      })
      .strict()
      .superRefine((r, ctx) => {
        if (r.rtbEnabled && !r.rtbFloor) {
          ctx.addIssue({ code: 'custom', path: ['rtbFloor'], message: 'validation.required' });
        }
      }),
    response: slotSchema,
  }),
  salesSlotOptions: endpoint({
    name: 'sales.slotOptions',
    path: '/api/sales/slot/options.shtm',
    auth: 'session',
    permission: Perm.operateGoods,
    unscoped: "the caller's enterprise's slot names for pickers (goods, price contracts)",
    request: z.object({ keyword: z.string().trim().max(64).optional() }).strict(),
    response: z.object({
      data: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          salesMethod: z.enum(SALES_METHODS),
          unitPrice: z.number().int().nullable(),
          maxRotations: z.number(),
          screens: z.number(),
        }),
      ),
    }),
  }),
  salesSlotRegions: endpoint({
    name: 'sales.slotRegions',
    path: '/api/sales/slot/regions.shtm',
    auth: 'session',
    permission: manage,
    unscoped: "the caller's enterprise's layouts with a region marked as an RTB slot, for the slot form",
    /**
     * The layouts of the caller's enterprise with the regions their editor marked 'RTB slot': a
     * slot may be such a region (its screens then play it where the layout shows it).
     */
    request: z.object({}).strict(),
    response: z.object({
      data: z.array(
        z.object({
          layoutId: z.string(),
          layoutName: z.string(),
          regions: z.array(z.object({ id: z.string(), name: z.string() })),
        }),
      ),
    }),
  }),
  salesSlotDevices: endpoint({
    name: 'sales.slotDevices',
    path: '/api/sales/slot/devices.shtm',
    auth: 'session',
    permission: Perm.operateGoods,
    scope: { object: 'adSlot', kind: 'detail', idField: 'slotId', audience: 'tenant', with: { page: 1, size: 50 } },
    errors: [ErrorCode.NOT_FOUND],
    /** The screens a slot reaches now (a goods line or an order chooses among them), with their sellability. */
    request: z.object({ slotId: id, keyword: z.string().trim().max(64).optional(), page, size: pageSize }).strict(),
    response: z.object({
      total: z.number(),
      data: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          number: z.string().nullable(),
          address: z.string(),
          status: z.string(),
          longOffline: z.boolean(),
        }),
      ),
    }),
  }),

  // ---- goods and programmes (/operate/goods) ----
  salesGoodsList: endpoint({
    name: 'sales.goodsList',
    path: '/api/sales/goods/list.shtm',
    auth: 'session',
    permission: Perm.operateGoods,
    scope: { object: 'goods', kind: 'list', audience: 'tenant' },
    /** Goods of the enterprise: on sale for everyone; off shelf too for yxf_new_operate_sales_manage. */
    request: z
      .object({
        page,
        size: pageSize,
        keyword: z.string().trim().max(64).optional(),
        state: z.enum(GOODS_STATES).optional(),
        kind: z.enum(GOODS_KINDS).optional(),
        slotId: id.optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(goodsSchema) }),
  }),
  salesGoodsInfo: endpoint({
    name: 'sales.goodsInfo',
    path: '/api/sales/goods/info.shtm',
    auth: 'session',
    permission: Perm.operateGoods,
    scope: { object: 'goods', kind: 'detail', audience: 'tenant' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: goodsSchema,
  }),
  salesGoodsSave: endpoint({
    name: 'sales.goodsSave',
    path: '/api/sales/goods/save.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.COMMODITY_ON_SALE, ErrorCode.TIME_CONFLICT],
    /**
     * Adds or edits goods (new goods are off shelf). Goods on sale cannot be edited
     * (COMMODITY_ON_SALE, spec section 8): take them off shelf first. Its screens must be the
     * slots'; its period within 366 days.
     */
    request: goodsSaveSchema,
    response: goodsSchema,
  }),
  salesGoodsShelf: endpoint({
    name: 'sales.goodsShelf',
    path: '/api/sales/goods/shelf.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.GOODS_NOT_ON_SALE, ErrorCode.DEVICE_LONG_OFFLINE],
    /**
     * Puts goods on sale or takes them off shelf. Expired goods cannot go on sale
     * (GOODS_NOT_ON_SALE); goods whose chosen screens are offline more than 72 hours neither
     * (DEVICE_LONG_OFFLINE). Orders already placed keep their price and inventory.
     */
    request: z.object({ id, onSale: z.boolean() }).strict(),
    response: goodsSchema,
  }),
  salesGoodsDelete: endpoint({
    name: 'sales.goodsDelete',
    path: '/api/sales/goods/delete.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.COMMODITY_ON_SALE, ErrorCode.CONFLICT],
    /** Deletes goods off shelf with no order (CONFLICT otherwise). */
    request: z.object({ id }).strict(),
    response: z.null(),
  }),

  // ---- availability ----
  salesAvailability: endpoint({
    name: 'sales.availability',
    path: '/api/sales/availability.shtm',
    auth: 'session',
    permission: Perm.operateGoods,
    scope: {
      object: 'adSlot',
      kind: 'detail',
      idField: 'slotId',
      audience: 'tenant',
      with: { startDate: '2026-01-01', endDate: '2026-01-02' },
    },
    errors: [ErrorCode.NOT_FOUND],
    /** Rotations booked, held and available per screen-hour of a slot, exact at the query's moment. */
    request: availabilityRequestSchema,
    response: availabilitySchema,
  }),

  // ---- price contracts (/operate/signContract, tab) ----
  salesPriceContractList: endpoint({
    name: 'sales.priceContractList',
    path: '/api/sales/priceContract/list.shtm',
    auth: 'session',
    permission: Perm.operateSignContract,
    scope: { object: 'priceContract', kind: 'list' },
    request: z
      .object({
        page,
        size: pageSize,
        advertiserId: id.optional(),
        keyword: z.string().trim().max(64).optional(),
        active: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(priceContractSchema) }),
  }),
  salesPriceContractSave: endpoint({
    name: 'sales.priceContractSave',
    path: '/api/sales/priceContract/save.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.TIME_CONFLICT, ErrorCode.CONTRACT_STATE],
    /**
     * Adds or edits an advertiser's price contract. Two enabled contracts of one advertiser may
     * not overlap in time (TIME_CONFLICT, spec section 8 'time conflict'); a contract whose
     * document is signed cannot change (CONTRACT_STATE).
     */
    request: priceContractSaveSchema,
    response: priceContractSchema,
  }),
  salesPriceContractDelete: endpoint({
    name: 'sales.priceContractDelete',
    path: '/api/sales/priceContract/delete.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
    /** Deletes a price contract no order used (CONFLICT: disable it instead). */
    request: z.object({ id }).strict(),
    response: z.null(),
  }),

  // ---- coupons (/operate/coupon) ----
  salesCouponList: endpoint({
    name: 'sales.couponList',
    path: '/api/sales/coupon/list.shtm',
    auth: 'session',
    permission: Perm.operateCoupon,
    scope: { object: 'coupon', kind: 'list', audience: 'tenant' },
    request: z
      .object({
        page,
        size: pageSize,
        keyword: z.string().trim().max(64).optional(),
        state: z.enum(COUPON_STATES).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(couponSchema) }),
  }),
  salesCouponSave: endpoint({
    name: 'sales.couponSave',
    path: '/api/sales/coupon/save.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
    /** Adds or edits a coupon; a used coupon keeps its discount (CONFLICT), and its limit cannot go below its uses. */
    request: couponSaveSchema,
    response: couponSchema,
  }),
  salesCouponEnable: endpoint({
    name: 'sales.couponEnable',
    path: '/api/sales/coupon/enable.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id, enabled: z.boolean() }).strict(),
    response: couponSchema,
  }),
  salesCouponUses: endpoint({
    name: 'sales.couponUses',
    path: '/api/sales/coupon/uses.shtm',
    auth: 'session',
    permission: Perm.operateCoupon,
    scope: { object: 'coupon', kind: 'detail', idField: 'couponId', audience: 'tenant', with: { page: 1, size: 50 } },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ couponId: id, page, size: pageSize }).strict(),
    response: z.object({ total: z.number(), data: z.array(couponUseSchema) }),
  }),
  salesCouponOptions: endpoint({
    name: 'sales.couponOptions',
    path: '/api/sales/coupon/options.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    unscoped: "the enterprise's coupons usable now for the chosen goods, for the order form",
    request: z.object({ goodsId: id.optional() }).strict(),
    response: z.object({ data: z.array(couponSchema) }),
  }),

  // ---- orders (/operate/order, /operate/orderDetail) ----
  salesAdvertiserOptions: endpoint({
    name: 'sales.advertiserOptions',
    path: '/api/sales/advertiserOptions.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    scope: { object: 'advertiser', kind: 'list' },
    /** The advertisers the caller may order for: itself when it is one; staff: those it sees on /user/adv. */
    request: z.object({ keyword: z.string().trim().max(64).optional() }).strict(),
    response: z.object({ data: z.array(z.object({ id: z.string(), name: z.string(), loginName: z.string() })) }),
  }),
  salesQuote: endpoint({
    name: 'sales.quote',
    path: '/api/sales/quote.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    unscoped:
      "prices the caller's own choice; goods, slots, screens or an advertiser it may not see are refused as by the order",
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.GOODS_NOT_ON_SALE,
      ErrorCode.COUPON_UNAVAILABLE,
      ErrorCode.DEVICE_LONG_OFFLINE,
      ErrorCode.AD_TARGET_INVALID,
    ],
    /** What an order would cost (list price, price contract, coupon) and how much of it is bookable. */
    request: orderRequestSchema,
    response: quoteSchema,
  }),
  salesOrderCreate: endpoint({
    name: 'sales.orderCreate',
    path: '/api/sales/order/create.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.GOODS_NOT_ON_SALE,
      ErrorCode.COUPON_UNAVAILABLE,
      ErrorCode.DEVICE_LONG_OFFLINE,
      ErrorCode.AD_TARGET_INVALID,
      ErrorCode.TIME_CONFLICT,
    ],
    /**
     * Places an order, unpaid: its lines hold their rotations until `holdUntil` (the sales
     * settings' hold time). A screen-hour without enough rotations left refuses the whole
     * order (TIME_CONFLICT, nothing written), under any concurrency. The coupon's use is
     * taken here (its limit holds under concurrent orders).
     */
    request: orderRequestSchema,
    response: salesOrderSchema,
  }),
  salesOrderPay: endpoint({
    name: 'sales.orderPay',
    path: '/api/sales/order/pay.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.SALES_ORDER_STATE, ErrorCode.INSUFFICIENT_BALANCE],
    /**
     * Confirms an unpaid order: freezes its amount in the advertiser's wallet (a pending
     * transfer to the operator's wallet; INSUFFICIENT_BALANCE: nothing written) and books its
     * held rotations. Answers the order, `toUpload` (materials needed) or `paid`.
     */
    request: z.object({ id }).strict(),
    response: salesOrderSchema,
  }),
  salesOrderCancel: endpoint({
    name: 'sales.orderCancel',
    path: '/api/sales/order/cancel.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.SALES_ORDER_STATE],
    /**
     * Cancels an order not settled, in one transaction: releases its inventory, gives back its
     * coupon use, pauses its ads, and refunds exactly what was not delivered (a void of the hold;
     * an order in progress first pays what proof of play says was delivered). A retry refunds
     * nothing more.
     */
    request: z.object({ id, note: z.string().trim().max(200).default('') }).strict(),
    response: salesOrderSchema,
  }),
  salesOrderMaterials: endpoint({
    name: 'sales.orderMaterials',
    path: '/api/sales/order/materials.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.SALES_ORDER_STATE,
      ErrorCode.AD_TOO_MANY_MATERIALS,
      ErrorCode.MATERIAL_INVALID,
    ],
    /**
     * Gives a paid order's sub-order its content: materials of the advertiser's library (1 to
     * 20) or a layout. Makes the sub-order's ad (source 'order', its slot, screens, period,
     * hours and rotations per loop), which goes to review; the order moves from toUpload to
     * paid once every sub-order has one. Again on a sub-order whose ad failed review: edits
     * that ad (a new review round).
     */
    request: z
      .object({
        id,
        subOrderId: id,
        name: z.string().trim().min(1, 'validation.required').max(50).optional(),
        materialIds: z.array(id).max(100).default([]),
        layoutId: id.nullable().optional(),
      })
      .strict()
      .refine((r) => r.materialIds.length > 0 !== Boolean(r.layoutId), {
        path: ['materialIds'],
        message: 'validation.adContent',
      }),
    response: salesOrderSchema,
  }),
  salesOrderList: endpoint({
    name: 'sales.orderList',
    path: '/api/sales/order/list.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    scope: { object: 'salesOrder', kind: 'list' },
    request: z.object(orderFilter).strict(),
    response: z.object({
      total: z.number(),
      data: z.array(salesOrderSchema),
      /** Orders per state over the filter (without its state), for the tabs. */
      counts: z.record(z.string(), z.number()),
    }),
  }),
  salesOrderInfo: endpoint({
    name: 'sales.orderInfo',
    path: '/api/sales/order/info.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    scope: { object: 'salesOrder', kind: 'detail' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: z.object({
      order: salesOrderSchema,
      subOrders: z.array(subOrderSchema),
      events: z.array(orderEventSchema),
      /** The ledger's movements of this order (hold, post, release), to reconcile. */
      transfers: z.array(z.object({ id: z.string(), code: z.string(), amount: z.number().int(), at: z.string() })),
    }),
  }),
  salesOrderExportStart: endpoint({
    name: 'sales.orderExportStart',
    path: '/api/sales/order/exportStart.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    mutation: true,
    notForMonitor: true,
    /** The orders of the filter as an Excel workbook (the operation log's export mechanism). */
    request: z.object(orderFilter).omit({ page: true, size: true }).strict(),
    response: exportStatusSchema,
  }),
  salesOrderExportStatus: orderExport.status,
  salesOrderExportDownload: orderExport.download,

  // ---- settlement (order detail, /operate/order) ----
  salesSettlementInfo: endpoint({
    name: 'sales.settlementInfo',
    path: '/api/sales/settlement/info.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    scope: { object: 'salesOrder', kind: 'detail', idField: 'orderId', with: { page: 1, size: 50 } },
    errors: [ErrorCode.NOT_FOUND],
    /**
     * The order's settlement (null before its period ended and nobody settled it) and its
     * screen-day lines, under-delivered first.
     */
    request: z.object({ orderId: id, underOnly: z.boolean().default(false), page, size: pageSize }).strict(),
    response: z.object({
      settlement: settlementSchema.nullable(),
      lines: z.object({ total: z.number(), data: z.array(settlementLineSchema) }),
    }),
  }),
  salesSettlementCompute: endpoint({
    name: 'sales.settlementCompute',
    path: '/api/sales/settlement/compute.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.SETTLEMENT_STATE, ErrorCode.SALES_ORDER_STATE],
    /**
     * (Re)computes an in-progress order's settlement from the play rollups: after its period,
     * or earlier to see the figures so far. Only while `toBePaid`; chosen remedies are kept.
     */
    request: z.object({ orderId: id }).strict(),
    response: settlementSchema,
  }),
  salesSettlementRemedy: endpoint({
    name: 'sales.settlementRemedy',
    path: '/api/sales/settlement/remedy.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.SETTLEMENT_STATE],
    /** Chooses the make-good of under-delivered screen-days (all of them when `lines` is absent). */
    request: z
      .object({
        orderId: id,
        remedy: z.enum(MAKE_GOOD_REMEDIES),
        lines: z
          .array(z.object({ subOrderId: id, deviceId: id, day: salesDateSchema }).strict())
          .max(10_000)
          .optional(),
      })
      .strict(),
    response: settlementSchema,
  }),
  salesSettlementConfirm: endpoint({
    name: 'sales.settlementConfirm',
    path: '/api/sales/settlement/confirm.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.SETTLEMENT_STATE, ErrorCode.SALES_ORDER_STATE],
    /**
     * Confirms a settlement whose order's period is over: posts the billed amount from the
     * advertiser's hold to the operator and releases the rest (credits included), in one
     * transaction; schedules the make-good extra plays. `paid`, then `completed` (the order
     * `settled`) once no make-good is outstanding.
     */
    request: z.object({ orderId: id }).strict(),
    response: settlementSchema,
  }),
  salesSettlementExportStart: endpoint({
    name: 'sales.settlementExportStart',
    path: '/api/sales/settlement/exportStart.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** The settlement as an Excel workbook a finance person reconciles to the ledger to the fen. */
    request: z.object({ orderId: id }).strict(),
    response: exportStatusSchema,
  }),
  salesSettlementExportStatus: settlementExport.status,
  salesSettlementExportDownload: settlementExport.download,

  // ---- contracts (/operate/signContract) ----
  salesContractList: endpoint({
    name: 'sales.contractList',
    path: '/api/sales/contract/list.shtm',
    auth: 'session',
    permission: Perm.operateSignContract,
    scope: { object: 'contract', kind: 'list' },
    request: z
      .object({
        page,
        size: pageSize,
        state: z.enum(CONTRACT_STATES).optional(),
        kind: z.enum(CONTRACT_KINDS).optional(),
        syncState: z.enum(SYNC_STATES).optional(),
        keyword: z.string().trim().max(64).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(contractSchema) }),
  }),
  salesContractInfo: endpoint({
    name: 'sales.contractInfo',
    path: '/api/sales/contract/info.shtm',
    auth: 'session',
    permission: Perm.operateSignContract,
    scope: { object: 'contract', kind: 'detail' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: contractSchema,
  }),
  salesContractCreate: endpoint({
    name: 'sales.contractCreate',
    path: '/api/sales/contract/create.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.SALES_ORDER_STATE, ErrorCode.ESIGN_UNAVAILABLE],
    /**
     * Draws up the contract of an order (paid or later) or a price contract: renders the PDF
     * (Chinese text included), stores it with its SHA-256, state `signing`. `channel: 'esign'`
     * sends it to the configured e-signature provider (ESIGN_UNAVAILABLE when none). One live
     * contract per subject (CONFLICT).
     */
    request: z
      .object({
        kind: z.enum(CONTRACT_KINDS),
        subjectId: id,
        channel: z.enum(CONTRACT_CHANNELS).default('internal'),
      })
      .strict(),
    response: contractSchema,
  }),
  salesContractSign: endpoint({
    name: 'sales.contractSign',
    path: '/api/sales/contract/sign.shtm',
    auth: 'session',
    permission: Perm.operateSignContract,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONTRACT_STATE],
    /**
     * Signs a contract inside the product: the advertiser it is for (or, on its behalf, staff
     * who see it) confirms the document whose SHA-256 it names (CONTRACT_STATE when it changed
     * or is signed, or is an e-signature contract). Signer, time and hash are kept immutable.
     */
    request: z.object({ id, sha256: z.string().regex(/^[0-9a-f]{64}$/) }).strict(),
    response: contractSchema,
  }),
  salesContractSync: endpoint({
    name: 'sales.contractSync',
    path: '/api/sales/contract/sync.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONTRACT_STATE, ErrorCode.ESIGN_UNAVAILABLE],
    /** Retries a failed (or unsynchronized) e-signature sync now. */
    request: z.object({ id }).strict(),
    response: contractSchema,
  }),
  salesContractDownload: endpoint({
    name: 'sales.contractDownload',
    path: '/api/sales/contract/download.shtm',
    auth: 'session',
    permission: Perm.operateSignContract,
    scope: { object: 'contract', kind: 'detail' },
    errors: [ErrorCode.NOT_FOUND],
    download: true,
    /** The contract's PDF (signed: with the signature page). */
    request: z.object({ id }).strict(),
    response: z.unknown(),
  }),

  // ---- settings ----
  salesSettings: endpoint({
    name: 'sales.settings',
    path: '/api/sales/settings.shtm',
    auth: 'session',
    permission: Perm.operateOrder,
    unscoped: "the caller's own enterprise's sales settings",
    request: z.object({}).strict(),
    response: salesSettingsSchema,
  }),
  salesSettingsSave: endpoint({
    name: 'sales.settingsSave',
    path: '/api/sales/settingsSave.shtm',
    auth: 'session',
    permission: manage,
    mutation: true,
    notForMonitor: true,
    request: z
      .object({
        holdMinutes: z.number().int().min(HOLD_MINUTES_MIN).max(HOLD_MINUTES_MAX),
        impressionsPerPlayPct: z.number().int().min(1).max(IMPRESSIONS_PER_PLAY_PCT_MAX),
        defaultRemedy: z.enum(MAKE_GOOD_REMEDIES),
      })
      .strict(),
    response: salesSettingsSchema,
  }),
};
