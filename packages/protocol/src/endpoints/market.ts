import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { fenSchema } from '../money.js';
// STORAGE_PACK_BYTES (spec section 9: storage packs are 200 G) is materialRules.ts's.
import { Perm } from '../permissions.js';
import { listPageSize } from '../validation.js';
import { endpoint } from './common.js';

/**
 * The market (issue 27; /shop and its alias /app_market, /shop/detail, /shop/order): what an
 * enterprise pays the platform for to keep its network running. Device points (a screen's
 * licence: its service expiry), storage packs (200 G of material quota each, for a term) and
 * IoT data-card packages (data per month, for a term, for cards of /operate/flow). The
 * platform operator keeps the catalogue (price per term in fen; a price is edited only off
 * shelf). An order is paid from the wallet's balance at once, or by aggregate or offline
 * payment at /pay (a payment order of purpose 'market'); once paid, in the same transaction,
 * its effect applies (expiries extended, quota raised, cards activated). Items the market
 * keeps alive (a device's licence, a pack, a card's package) renew themselves when their
 * auto-renewal is on (spec section 9). Amounts are fen. Served by the server's market module.
 */

const id = z.string().min(1).max(64);
const isoTime = z.iso.datetime({ offset: true });
const pageSize = listPageSize();
const ids = z.array(id).max(500);

/** What the market sells. */
export const MARKET_KINDS = ['devicePoints', 'storagePack', 'dataCard'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];

/** A catalogue product is on sale or off shelf (spec section 4's goods states that apply to the catalogue). */
export const PRODUCT_STATES = ['onSale', 'offShelf'] as const;
export type ProductState = (typeof PRODUCT_STATES)[number];

/** The terms a price can be set for, in months. */
export const TERM_MONTHS = [1, 3, 6, 12, 24, 36] as const;
export const termMonthsSchema = z
  .number()
  .int()
  .refine((n) => (TERM_MONTHS as readonly number[]).includes(n), 'validation.invalid');

/** Most packs (or devices, or cards) one order carries. */
export const MARKET_ORDER_MAX_SUBJECTS = 500;
export const STORAGE_PACK_MAX_QUANTITY = 100;

/** Spec section 9: auto-renewal starts 9 days before expiry. */
export const RENEWAL_LEAD_DAYS = 9;
/** Spec section 9: a device expiring in under 15 days is 'expiring'. */
export const EXPIRING_DEVICE_DAYS = 15;
/**
 * Spec section 9: 'device offline 72 hours cannot be listed'. A device offline for more than
 * 72 hours cannot be the subject of a new market order (nor, in the airtime market, a listing);
 * its renewal, already bought, still runs (docs/ARCHITECTURE.md "The market").
 */
export const LONG_OFFLINE_HOURS = 72;
/** A newly paired device serves this many days on trial before it needs points. */
export const DEVICE_TRIAL_DAYS = 30;
/** Storage 'nearly full' (a station letter) at this share of the quota, in percent. */
export const STORAGE_NEARLY_FULL_PERCENT = 90;

/** A device's licence as the market sees it: on trial, licensed (points bought), or expired. */
export const LICENCE_STATES = ['trial', 'licensed', 'expired'] as const;
export type LicenceState = (typeof LICENCE_STATES)[number];

/**
 * A market order's state. `unpaid` (its payment order may be under offline review: `payState`
 * says so) -> `paid` (its effect applied) | `cancelled` (by the buyer, or its payment expired;
 * nothing moved in the ledger).
 */
export const MARKET_ORDER_STATES = ['unpaid', 'paid', 'cancelled'] as const;
export type MarketOrderState = (typeof MARKET_ORDER_STATES)[number];
/** A person bought it, or the renewal job did. */
export const MARKET_ORDER_SOURCES = ['purchase', 'renewal'] as const;
export type MarketOrderSource = (typeof MARKET_ORDER_SOURCES)[number];

/** How an order is paid: now from the wallet's available balance, or later at /pay (provider or offline). */
export const MARKET_PAY_BY = ['balance', 'other'] as const;

/** A kept item is active until its expiry, then expired (a pack stops counting, a device stops playing new content). */
export const ITEM_STATES = ['active', 'expired'] as const;
export type ItemState = (typeof ITEM_STATES)[number];

export const RENEWAL_OUTCOMES = ['succeeded', 'failed'] as const;
/** Why a renewal attempt failed. */
export const RENEWAL_FAILURES = [
  /** The wallet's available balance (frozen money excluded) did not cover it. */
  'insufficientBalance',
  /** The product (or the item's term) is no longer on sale. */
  'offShelf',
  /** The device was deleted, or the card cancelled. */
  'subjectGone',
] as const;
export type RenewalFailure = (typeof RENEWAL_FAILURES)[number];

export const productPriceSchema = z.object({ months: termMonthsSchema, price: fenSchema }).strict();

export const productSchema = z.object({
  id: z.string(),
  kind: z.enum(MARKET_KINDS),
  name: z.string(),
  description: z.string(),
  state: z.enum(PRODUCT_STATES),
  /** Price per unit (a device, a pack, a card) for each term offered, fen, by months ascending. */
  prices: z.array(z.object({ months: z.number(), price: z.number().int() })),
  /** A storage pack's size in bytes (STORAGE_PACK_BYTES); null for other kinds. */
  storageBytes: z.number().nullable(),
  /** A data-card package's data per month in MB; null for other kinds. */
  dataMbPerMonth: z.number().nullable(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;

export const productSaveSchema = z
  .object({
    /** Absent: a new product (off shelf until put on sale). */
    id: id.optional(),
    kind: z.enum(MARKET_KINDS),
    name: z.string().trim().min(1, 'validation.required').max(40),
    description: z.string().trim().max(500).default(''),
    prices: z
      .array(productPriceSchema)
      .min(1, 'validation.required')
      .max(TERM_MONTHS.length)
      .refine((p) => new Set(p.map((x) => x.months)).size === p.length, 'validation.duplicate'),
    /** Required for a data-card package: MB per month, 1 to 99999 (spec section 5's traffic range). */
    dataMbPerMonth: z.number().int().min(1).max(99_999).nullable().optional(),
  })
  .strict();

/** One thing an order applies to, before and after. */
export const orderLineSchema = z.object({
  subjectType: z.enum(['device', 'card', 'pack']),
  /** The device's or card's id; a pack's item id once paid (null before). */
  subjectId: z.string().nullable(),
  /** The device's name, the card's ICCID, or the pack's size. */
  subjectName: z.string(),
  amount: z.number().int(),
  /** Expiry before the order (null: none yet, e.g. a new pack) and after it (once paid; before: what it will be). */
  expiresBefore: z.string().nullable(),
  expiresAfter: z.string().nullable(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const marketOrderSchema = z.object({
  id: z.string(),
  /** The number people quote ('M20261128000123'). */
  no: z.string(),
  entId: z.string(),
  entName: z.string(),
  kind: z.enum(MARKET_KINDS),
  productId: z.string(),
  productName: z.string(),
  months: z.number(),
  /** Price per unit for the term, fen. */
  unitPrice: z.number().int(),
  quantity: z.number().int(),
  amount: z.number().int(),
  state: z.enum(MARKET_ORDER_STATES),
  source: z.enum(MARKET_ORDER_SOURCES),
  /** The payment order (pay it at /pay?id=...), and its state (under offline review shows here). */
  payOrderId: z.string(),
  payState: z.enum(['unpaid', 'review', 'paid', 'closed']),
  payMethod: z.enum(['balance', 'wechat', 'alipay', 'offline']).nullable(),
  /** Who placed it (their name); '' for the renewal job's orders. */
  createdBy: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type MarketOrder = z.infer<typeof marketOrderSchema>;

export const marketItemSchema = z.object({
  id: z.string(),
  kind: z.enum(MARKET_KINDS),
  /** The device's or card's id (null for a pack). */
  subjectId: z.string().nullable(),
  /** The device's name, the card's ICCID, or 'the pack's size'. */
  subjectName: z.string(),
  productId: z.string(),
  productName: z.string(),
  /** The term a renewal buys, and its price now (null: the product or term is not on sale). */
  months: z.number(),
  renewalPrice: z.number().int().nullable(),
  state: z.enum(ITEM_STATES),
  startsAt: z.string(),
  expiresAt: z.string(),
  autoRenew: z.boolean(),
  /** A pack's bytes; null otherwise. */
  storageBytes: z.number().nullable(),
  /** The latest renewal attempt, if any. */
  lastRenewal: z
    .object({
      at: z.string(),
      outcome: z.enum(RENEWAL_OUTCOMES),
      reason: z.enum(RENEWAL_FAILURES).nullable(),
    })
    .nullable(),
});
export type MarketItem = z.infer<typeof marketItemSchema>;

export const renewalSchema = z.object({
  id: z.string(),
  itemId: z.string(),
  kind: z.enum(MARKET_KINDS),
  subjectName: z.string(),
  /** When the job tried (its time input), and the day it counts for (UTC+8, YYYY-MM-DD). */
  at: z.string(),
  day: z.string(),
  outcome: z.enum(RENEWAL_OUTCOMES),
  reason: z.enum(RENEWAL_FAILURES).nullable(),
  amount: z.number().int(),
  /** On success: the renewal's order, and when the new term takes effect (the next day). */
  orderId: z.string().nullable(),
  orderNo: z.string().nullable(),
  effectiveAt: z.string().nullable(),
  expiresBefore: z.string(),
  expiresAfter: z.string().nullable(),
});
export type Renewal = z.infer<typeof renewalSchema>;

/** A device as the points picker shows it. */
export const marketDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  number: z.string().nullable(),
  status: z.string(),
  licence: z.enum(LICENCE_STATES),
  expireAt: z.string().nullable(),
  /** Hours since it was last seen, when offline; null when online. */
  offlineHours: z.number().nullable(),
  /** False when it cannot be bought for (offline more than LONG_OFFLINE_HOURS): `reason` says why. */
  selectable: z.boolean(),
  reason: z.enum(['longOffline']).nullable(),
  autoRenew: z.boolean(),
});

/** What a purchase would buy: one request shape for the quote and the order. */
export const purchaseSchema = z
  .object({
    productId: id,
    months: termMonthsSchema,
    /** Devices to license (device points). */
    deviceIds: ids.optional(),
    /** Cards to give the package (data cards). */
    cardIds: ids.optional(),
    /** Packs to buy (storage), 1 to STORAGE_PACK_MAX_QUANTITY. */
    quantity: z.number().int().min(1).max(STORAGE_PACK_MAX_QUANTITY).optional(),
    /** Turn auto-renewal on for what this buys. */
    autoRenew: z.boolean().default(false),
  })
  .strict();

const orderFilter = {
  page: z.number().int().min(1).default(1),
  size: pageSize,
  state: z.enum(MARKET_ORDER_STATES).optional(),
  kind: z.enum(MARKET_KINDS).optional(),
  source: z.enum(MARKET_ORDER_SOURCES).optional(),
  /** Order number or product name contains. */
  keyword: z.string().trim().max(64).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
};

export const marketEndpoints = {
  marketProductList: endpoint({
    name: 'market.productList',
    path: '/api/market/product/list.shtm',
    auth: 'session',
    permission: Perm.applicationMarket,
    unscoped: 'the platform catalogue, the same for every enterprise (off-shelf products only for its keepers)',
    /** The catalogue: products on sale (the keepers, with yxf_new_market_manage, also see those off shelf). */
    request: z
      .object({
        kind: z.enum(MARKET_KINDS).optional(),
        state: z.enum(PRODUCT_STATES).optional(),
        keyword: z.string().trim().max(40).optional(),
      })
      .strict(),
    response: z.object({ data: z.array(productSchema) }),
  }),
  marketProductInfo: endpoint({
    name: 'market.productInfo',
    path: '/api/market/product/info.shtm',
    auth: 'session',
    permission: Perm.applicationMarket,
    unscoped: 'the platform catalogue, the same for every enterprise (off-shelf products only for its keepers)',
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: productSchema,
  }),
  marketProductSave: endpoint({
    name: 'market.productSave',
    path: '/api/market/product/save.shtm',
    auth: 'session',
    permission: Perm.marketManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.COMMODITY_ON_SALE],
    /** Adds or edits a product; prices of a product on sale are refused (spec section 8): take it off shelf first. */
    request: productSaveSchema,
    response: productSchema,
  }),
  marketProductShelf: endpoint({
    name: 'market.productShelf',
    path: '/api/market/product/shelf.shtm',
    auth: 'session',
    permission: Perm.marketManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Puts a product on sale or takes it off shelf (orders already made keep their price). */
    request: z.object({ id, state: z.enum(PRODUCT_STATES) }).strict(),
    response: productSchema,
  }),
  marketDeviceOptions: endpoint({
    name: 'market.deviceOptions',
    path: '/api/market/deviceOptions.shtm',
    auth: 'session',
    permission: Perm.applicationMarket,
    scope: { object: 'device', kind: 'list', audience: 'scoped' },
    /** The devices the caller may buy points for, with their licence and whether they can be chosen. */
    request: z
      .object({
        keyword: z.string().trim().max(64).optional(),
        licence: z.enum(LICENCE_STATES).optional(),
        /** Only those expiring within this many days (EXPIRING_DEVICE_DAYS: 'expiring'). */
        expiringWithinDays: z.number().int().min(0).max(3660).optional(),
        page: z.number().int().min(1).default(1),
        size: pageSize,
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(marketDeviceSchema) }),
  }),
  marketQuote: endpoint({
    name: 'market.quote',
    path: '/api/market/quote.shtm',
    auth: 'session',
    permission: Perm.applicationMarket,
    unscoped: "prices the caller's own choice; devices or cards it may not see are refused as by the order",
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.PRODUCT_OFF_SHELF,
      ErrorCode.DEVICE_LONG_OFFLINE,
      ErrorCode.MARKET_SUBJECT_INVALID,
    ],
    /** What an order would cost and do (each line's expiry before and after), and the wallet's available balance. */
    request: purchaseSchema,
    response: z.object({
      amount: z.number().int(),
      unitPrice: z.number().int(),
      quantity: z.number().int(),
      lines: z.array(orderLineSchema),
      available: z.number().int(),
      walletId: z.string(),
    }),
  }),
  marketOrderCreate: endpoint({
    name: 'market.orderCreate',
    path: '/api/market/order/create.shtm',
    auth: 'session',
    permission: Perm.applicationMarket,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.PRODUCT_OFF_SHELF,
      ErrorCode.DEVICE_LONG_OFFLINE,
      ErrorCode.MARKET_SUBJECT_INVALID,
      ErrorCode.INSUFFICIENT_BALANCE,
    ],
    /**
     * Places an order. `payBy: 'balance'` pays it now from the wallet's available balance, in
     * the same transaction (INSUFFICIENT_BALANCE: nothing is written); `other`: it waits,
     * unpaid, to be paid at /pay?id=<payOrderId> (provider or offline), or cancelled.
     */
    request: purchaseSchema.extend({ payBy: z.enum(MARKET_PAY_BY) }).strict(),
    response: marketOrderSchema,
  }),
  marketOrderList: endpoint({
    name: 'market.orderList',
    path: '/api/market/order/list.shtm',
    auth: 'session',
    permission: Perm.shopOrder,
    scope: { object: 'marketOrder', kind: 'list', audience: 'tenant' },
    request: z.object(orderFilter).strict(),
    response: z.object({ total: z.number(), data: z.array(marketOrderSchema) }),
  }),
  marketOrderInfo: endpoint({
    name: 'market.orderInfo',
    path: '/api/market/order/info.shtm',
    auth: 'session',
    permission: Perm.shopOrder,
    scope: { object: 'marketOrder', kind: 'detail', audience: 'tenant' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: z.object({ order: marketOrderSchema, lines: z.array(orderLineSchema) }),
  }),
  marketOrderCancel: endpoint({
    name: 'market.orderCancel',
    path: '/api/market/order/cancel.shtm',
    auth: 'session',
    permission: Perm.shopOrder,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.MARKET_ORDER_STATE],
    /** Cancels an unpaid order (not one whose offline transfer is under review): nothing moves in the ledger. */
    request: z.object({ id }).strict(),
    response: marketOrderSchema,
  }),
  marketItemList: endpoint({
    name: 'market.itemList',
    path: '/api/market/item/list.shtm',
    auth: 'session',
    permission: Perm.shopOrder,
    scope: { object: 'marketItem', kind: 'list', audience: 'tenant' },
    /** What the market keeps alive for the enterprise: licences, packs, card packages, soonest expiry first. */
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        kind: z.enum(MARKET_KINDS).optional(),
        state: z.enum(ITEM_STATES).optional(),
        autoRenew: z.boolean().optional(),
        expiringWithinDays: z.number().int().min(0).max(3660).optional(),
        /** Device name or number, ICCID contains. */
        keyword: z.string().trim().max(64).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(marketItemSchema) }),
  }),
  marketItemAutoRenew: endpoint({
    name: 'market.itemAutoRenew',
    path: '/api/market/item/autoRenew.shtm',
    auth: 'session',
    permission: Perm.shopOrder,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Turns auto-renewal on or off for items of the enterprise (NOT_FOUND if any is not one). */
    request: z.object({ ids: z.array(id).min(1).max(500), autoRenew: z.boolean() }).strict(),
    response: z.object({ updated: z.number() }),
  }),
  marketRenewalList: endpoint({
    name: 'market.renewalList',
    path: '/api/market/renewal/list.shtm',
    auth: 'session',
    permission: Perm.shopOrder,
    scope: { object: 'marketRenewal', kind: 'list', audience: 'tenant' },
    /** Every renewal attempt: what, when, and why it failed, newest first. */
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        itemId: id.optional(),
        outcome: z.enum(RENEWAL_OUTCOMES).optional(),
        from: isoTime.optional(),
        to: isoTime.optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(renewalSchema) }),
  }),
  marketStorage: endpoint({
    name: 'market.storage',
    path: '/api/market/storage.shtm',
    auth: 'session',
    permission: Perm.applicationMarket,
    unscoped: "the caller's own enterprise's quota",
    /** The enterprise's material storage: the quota (base plus active packs) and what is used. */
    request: z.object({}).strict(),
    response: z.object({
      quotaBytes: z.number(),
      baseBytes: z.number(),
      packBytes: z.number(),
      usedBytes: z.number(),
      activePacks: z.number(),
    }),
  }),
};
