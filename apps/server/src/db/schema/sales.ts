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
import { enterprises } from './tenancy.js';

/**
 * Selling airtime (issue 28, modules/sales; docs/ARCHITECTURE.md "Selling airtime"). The
 * enterprise's slots (its inventory), goods and programmes, advertisers' price contracts,
 * coupons and their uses, ad orders with their sub-orders, the bookings that hold and book
 * rotations of screen-hours, settlements from proof of play, and contracts. Amounts are fen;
 * discounts integer percentages; days UTC dates (until issue 31).
 */

type SalesMethod = 'cpt' | 'cpm';
type SlotTargets = { deviceIds: string[]; groupIds: string[]; tagIds: string[]; spliceIds: string[] };

/** An enterprise's sales settings (absent row: the defaults of salesRules.ts). */
export const salesSettings = pgTable('sales_settings', {
  entId: text('ent_id')
    .primaryKey()
    .references(() => enterprises.id),
  holdMinutes: integer('hold_minutes').notNull(),
  impressionsPerPlayPct: integer('impressions_per_play_pct').notNull(),
  defaultRemedy: text('default_remedy').$type<'credit' | 'extraPlays'>().notNull(),
  updatedAt: updatedAt(),
});

/** A share of the loop on a set of screens: maxRotations turns of durationSec per loop, each sold to one buyer. */
export const adSlots = pgTable(
  'ad_slots',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    /** 9 digits, unique on the platform. */
    number: text('number').notNull(),
    name: text('name').notNull(),
    screenSize: text('screen_size').notNull().default(''),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    durationSec: integer('duration_sec').notNull(),
    salesMethod: text('sales_method').$type<SalesMethod>().notNull(),
    cptPrice: bigint('cpt_price', { mode: 'number' }),
    cpmPrice: bigint('cpm_price', { mode: 'number' }),
    maxRotations: integer('max_rotations').notNull(),
    rtbEnabled: boolean('rtb_enabled').notNull().default(false),
    rtbFloor: bigint('rtb_floor', { mode: 'number' }),
    /** What plays in a turn nobody won (an approved fallback ad), or null: the loop goes on (issue 29). */
    rtbFallbackAdId: text('rtb_fallback_ad_id').references(() => ads.id),
    /** The OpenOOH venue type DSPs are told (issue 29). */
    venueType: text('venue_type').notNull().default('retail.malls'),
    targets: jsonb('targets').$type<SlotTargets>().notNull(),
    /** A region (component id) of a layout marked as an RTB slot, or null: a turn of the loop. */
    layoutId: text('layout_id'),
    regionId: text('region_id'),
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    check('ad_slots_method_check', sql`${t.salesMethod} in ('cpt', 'cpm')`),
    check('ad_slots_rotations_check', sql`${t.maxRotations} between 1 and 60`),
    uniqueIndex('ad_slots_number_key').on(t.number),
    index('ad_slots_ent_idx').on(t.entId, t.createdAt.desc(), t.id),
  ],
);
export type AdSlotRow = typeof adSlots.$inferSelect;

/** What the operator packages for sale: one slot (single) or several (programme), a period and hours. */
export const salesGoods = pgTable(
  'sales_goods',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    number: text('number').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind').$type<'single' | 'programme'>().notNull(),
    /** Stored onSale / offShelf; soldOut and expired are derived (goodsState). */
    state: text('state').$type<'onSale' | 'offShelf'>().notNull().default('offShelf'),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    /** 24-bit mask of the hours offered (all: 0xFFFFFF). */
    hoursMask: integer('hours_mask').notNull(),
    /** No rotation left in any screen-hour of its lines, as of the last sale or cancellation that touched its slots. */
    soldOut: boolean('sold_out').notNull().default(false),
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    check('sales_goods_kind_check', sql`${t.kind} in ('single', 'programme')`),
    check('sales_goods_state_check', sql`${t.state} in ('onSale', 'offShelf')`),
    check('sales_goods_period_check', sql`${t.endDate} >= ${t.startDate}`),
    uniqueIndex('sales_goods_number_key').on(t.number),
    index('sales_goods_ent_idx').on(t.entId, t.createdAt.desc(), t.id),
  ],
);
export type SalesGoodsRow = typeof salesGoods.$inferSelect;

export const salesGoodsLines = pgTable(
  'sales_goods_lines',
  {
    id: id(),
    goodsId: text('goods_id')
      .notNull()
      .references(() => salesGoods.id),
    slotId: text('slot_id')
      .notNull()
      .references(() => adSlots.id),
    position: integer('position').notNull(),
    /** The screens offered; empty: all the slot reaches. */
    deviceIds: jsonb('device_ids').$type<string[]>().notNull(),
    unitPrice: bigint('unit_price', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('sales_goods_lines_goods_slot_key').on(t.goodsId, t.slotId),
    index('sales_goods_lines_slot_idx').on(t.slotId),
  ],
);
export type SalesGoodsLineRow = typeof salesGoodsLines.$inferSelect;

/** An advertiser's negotiated prices: a discount and slot prices, for a validity. */
export const salesPriceContracts = pgTable(
  'sales_price_contracts',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    number: text('number').notNull(),
    name: text('name').notNull(),
    advertiserId: text('advertiser_id')
      .notNull()
      .references(() => accounts.id),
    /** 0..100 (100: no discount). */
    discountPct: integer('discount_pct').notNull(),
    slotPrices: jsonb('slot_prices').$type<{ slotId: string; unitPrice: number }[]>().notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    check('sales_price_contracts_pct_check', sql`${t.discountPct} between 0 and 100`),
    uniqueIndex('sales_price_contracts_number_key').on(t.number),
    index('sales_price_contracts_adv_idx').on(t.entId, t.advertiserId, t.validFrom),
  ],
);
export type SalesPriceContractRow = typeof salesPriceContracts.$inferSelect;

export const salesCoupons = pgTable(
  'sales_coupons',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    name: text('name').notNull(),
    discountPct: integer('discount_pct').notNull(),
    useLimit: integer('use_limit').notNull(),
    /** Uses not given back; claimed by `update ... set used = used + 1 where used < use_limit`. */
    used: integer('used').notNull().default(0),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }).notNull(),
    /** Goods it applies to; empty: all. */
    goodsIds: jsonb('goods_ids').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('sales_coupons_pct_check', sql`${t.discountPct} between 0 and 100`),
    check('sales_coupons_used_check', sql`${t.used} >= 0 and ${t.used} <= ${t.useLimit}`),
    index('sales_coupons_ent_idx').on(t.entId, t.createdAt.desc(), t.id),
  ],
);
export type SalesCouponRow = typeof salesCoupons.$inferSelect;

/** Spec section 4 order states. */
type OrderState = 'unpaid' | 'paid' | 'cancelled' | 'settled' | 'toUpload' | 'inProgress';

export const salesOrders = pgTable(
  'sales_orders',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    /** 'S' + UTC+8 date + a sequence number. */
    no: text('no').notNull(),
    advertiserId: text('advertiser_id')
      .notNull()
      .references(() => accounts.id),
    goodsId: text('goods_id').references(() => salesGoods.id),
    goodsName: text('goods_name'),
    state: text('state').$type<OrderState>().notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    hoursMask: integer('hours_mask').notNull(),
    listAmount: bigint('list_amount', { mode: 'number' }).notNull(),
    /** What the advertiser pays at most (after the price contract and the coupon). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** Posted to the operator's wallet so far. */
    paidAmount: bigint('paid_amount', { mode: 'number' }).notNull().default(0),
    /** Released back to the advertiser (voids, the unposted rest, credits). */
    refundedAmount: bigint('refunded_amount', { mode: 'number' }).notNull().default(0),
    priceContractId: text('price_contract_id').references(() => salesPriceContracts.id),
    contractDiscountPct: integer('contract_discount_pct').notNull().default(100),
    couponId: text('coupon_id').references(() => salesCoupons.id),
    couponDiscountPct: integer('coupon_discount_pct'),
    /** While unpaid: when the hold lapses (the job cancels it, reason holdExpired). */
    holdUntil: timestamp('hold_until', { withTimezone: true }),
    /** The ledger's pending transfer that froze `amount` (id 'sales:<order>:hold'). */
    holdTransferId: text('hold_transfer_id'),
    cancelReason: text('cancel_reason').$type<'buyer' | 'operator' | 'holdExpired' | 'notStarted'>(),
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'sales_orders_state_check',
      sql`${t.state} in ('unpaid', 'paid', 'cancelled', 'settled', 'toUpload', 'inProgress')`,
    ),
    check('sales_orders_amount_check', sql`${t.amount} >= 0 and ${t.paidAmount} + ${t.refundedAmount} <= ${t.amount}`),
    uniqueIndex('sales_orders_no_key').on(t.no),
    index('sales_orders_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id),
    index('sales_orders_adv_idx').on(t.advertiserId, t.createdAt.desc()),
    index('sales_orders_hold_idx').on(t.holdUntil).where(sql`${t.state} = 'unpaid'`),
    index('sales_orders_open_idx')
      .on(t.state, t.startDate)
      .where(sql`${t.state} in ('paid', 'toUpload', 'inProgress')`),
  ],
);
export type SalesOrderRow = typeof salesOrders.$inferSelect;

/** A sub-order: one slot of the order with its screens, rotations and (once given materials) its ad. */
export const salesOrderLines = pgTable(
  'sales_order_lines',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => salesOrders.id),
    position: integer('position').notNull(),
    slotId: text('slot_id')
      .notNull()
      .references(() => adSlots.id),
    slotName: text('slot_name').notNull(),
    salesMethod: text('sales_method').$type<SalesMethod>().notNull(),
    durationSec: integer('duration_sec').notNull(),
    unitPrice: bigint('unit_price', { mode: 'number' }).notNull(),
    rotations: integer('rotations').notNull(),
    impressionsK: integer('impressions_k'),
    screens: integer('screens').notNull(),
    /** Before discounts. */
    listAmount: bigint('list_amount', { mode: 'number' }).notNull(),
    adId: text('ad_id').references(() => ads.id),
  },
  (t) => [
    uniqueIndex('sales_order_lines_pos_key').on(t.orderId, t.position),
    index('sales_order_lines_ad_idx').on(t.adId),
  ],
);
export type SalesOrderLineRow = typeof salesOrderLines.$inferSelect;

/** The screens of a sub-order. */
export const salesOrderLineDevices = pgTable(
  'sales_order_line_devices',
  {
    lineId: text('line_id')
      .notNull()
      .references(() => salesOrderLines.id),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.deviceId] }), index('sales_order_line_devices_device_idx').on(t.deviceId)],
);

/**
 * Rotations of a slot held or booked on a set of screens (the line's devices, or a make-good's)
 * for days x hours. A screen-hour's live bookings (not released; holds not past expires_at)
 * never exceed the slot's maxRotations: checked under the slot's row lock by the statement
 * that inserts them.
 */
export const salesBookings = pgTable(
  'sales_bookings',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    slotId: text('slot_id')
      .notNull()
      .references(() => adSlots.id),
    orderId: text('order_id')
      .notNull()
      .references(() => salesOrders.id),
    lineId: text('line_id')
      .notNull()
      .references(() => salesOrderLines.id),
    kind: text('kind').$type<'hold' | 'booked' | 'makeGood'>().notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    hoursMask: integer('hours_mask').notNull(),
    rotations: integer('rotations').notNull(),
    /** A hold's lapse (its order's holdUntil). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('sales_bookings_kind_check', sql`${t.kind} in ('hold', 'booked', 'makeGood')`),
    index('sales_bookings_live_idx').on(t.slotId, t.startDate, t.endDate).where(sql`${t.releasedAt} is null`),
    index('sales_bookings_order_idx').on(t.orderId),
  ],
);
export type SalesBookingRow = typeof salesBookings.$inferSelect;

export const salesBookingDevices = pgTable(
  'sales_booking_devices',
  {
    bookingId: text('booking_id')
      .notNull()
      .references(() => salesBookings.id),
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.deviceId] }), index('sales_booking_devices_device_idx').on(t.deviceId)],
);

/** Each coupon use, once per order; given back (released_at) when the order is cancelled. */
export const salesCouponUses = pgTable(
  'sales_coupon_uses',
  {
    id: id(),
    couponId: text('coupon_id')
      .notNull()
      .references(() => salesCoupons.id),
    orderId: text('order_id')
      .notNull()
      .references(() => salesOrders.id),
    advertiserId: text('advertiser_id')
      .notNull()
      .references(() => accounts.id),
    saved: bigint('saved', { mode: 'number' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sales_coupon_uses_order_key').on(t.orderId),
    index('sales_coupon_uses_coupon_idx').on(t.couponId, t.usedAt.desc()),
  ],
);

/** Every state an order moved to: who (null: the system) and when. */
export const salesOrderEvents = pgTable(
  'sales_order_events',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => salesOrders.id),
    fromState: text('from_state').$type<OrderState>(),
    toState: text('to_state').$type<OrderState>().notNull(),
    actorId: text('actor_id').references(() => accounts.id),
    note: text('note').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sales_order_events_order_idx').on(t.orderId, t.at)],
);

/** An order's settlement: computed from the play rollups, confirmed by the operator, completed after make-goods. */
export const salesSettlements = pgTable(
  'sales_settlements',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => salesOrders.id),
    state: text('state').$type<'toBePaid' | 'paid' | 'completed'>().notNull(),
    impressionsPerPlayPct: integer('impressions_per_play_pct').notNull(),
    expectedPlays: bigint('expected_plays', { mode: 'number' }).notNull(),
    deliveredPlays: bigint('delivered_plays', { mode: 'number' }).notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull(),
    billedAmount: bigint('billed_amount', { mode: 'number' }).notNull(),
    creditAmount: bigint('credit_amount', { mode: 'number' }).notNull(),
    makeGoodUntil: date('make_good_until', { mode: 'string' }),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
    confirmedBy: text('confirmed_by').references(() => accounts.id),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    check('sales_settlements_state_check', sql`${t.state} in ('toBePaid', 'paid', 'completed')`),
    uniqueIndex('sales_settlements_order_key').on(t.orderId),
    index('sales_settlements_paid_idx').on(t.makeGoodUntil).where(sql`${t.state} = 'paid'`),
  ],
);
export type SalesSettlementRow = typeof salesSettlements.$inferSelect;

/** One screen-day of a settlement. */
export const salesSettlementLines = pgTable(
  'sales_settlement_lines',
  {
    settlementId: text('settlement_id')
      .notNull()
      .references(() => salesSettlements.id),
    lineId: text('line_id')
      .notNull()
      .references(() => salesOrderLines.id),
    deviceId: text('device_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    expectedPlays: integer('expected_plays').notNull(),
    deliveredPlays: integer('delivered_plays').notNull(),
    impressions: bigint('impressions', { mode: 'number' }).notNull(),
    fromAudience: boolean('from_audience').notNull(),
    underDelivered: boolean('under_delivered').notNull(),
    remedy: text('remedy').$type<'credit' | 'extraPlays'>(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    credit: bigint('credit', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.settlementId, t.lineId, t.deviceId, t.day] }),
    index('sales_settlement_lines_under_idx').on(t.settlementId).where(sql`${t.underDelivered}`),
  ],
);

/** A contract document: rendered once (PDF in storage with its SHA-256), signed once, immutable after. */
export const salesContracts = pgTable(
  'sales_contracts',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    no: text('no').notNull(),
    kind: text('kind').$type<'order' | 'priceContract'>().notNull(),
    subjectId: text('subject_id').notNull(),
    advertiserId: text('advertiser_id')
      .notNull()
      .references(() => accounts.id),
    title: text('title').notNull(),
    /** Storage key of the PDF (e/<ent>/contracts/<id>.pdf), its hash and size. */
    fileKey: text('file_key').notNull(),
    sha256: text('sha256').notNull(),
    bytes: integer('bytes').notNull(),
    state: text('state').$type<'signing' | 'signed'>().notNull(),
    channel: text('channel').$type<'internal' | 'esign'>().notNull(),
    syncState: text('sync_state').$type<'unsynchronized' | 'synchronizing' | 'synchronized' | 'failed'>(),
    providerRef: text('provider_ref'),
    syncAttempts: integer('sync_attempts').notNull().default(0),
    syncError: text('sync_error'),
    /** The signed PDF (signature page appended), once signed. */
    signedFileKey: text('signed_file_key'),
    signedSha256: text('signed_sha256'),
    signedBy: text('signed_by').references(() => accounts.id),
    /** The e-signature provider's signer, when signed there. */
    signedByName: text('signed_by_name'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('sales_contracts_state_check', sql`${t.state} in ('signing', 'signed')`),
    check('sales_contracts_kind_check', sql`${t.kind} in ('order', 'priceContract')`),
    uniqueIndex('sales_contracts_no_key').on(t.no),
    uniqueIndex('sales_contracts_subject_key').on(t.kind, t.subjectId),
    index('sales_contracts_ent_idx').on(t.entId, t.createdAt.desc(), t.id),
    index('sales_contracts_sync_idx')
      .on(t.syncState)
      .where(sql`${t.syncState} in ('unsynchronized', 'synchronizing', 'failed')`),
  ],
);
export type SalesContractRow = typeof salesContracts.$inferSelect;
