import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { payOrders } from './payments.js';
import { enterprises } from './tenancy.js';

/**
 * The market (issue 27, modules/market; docs/ARCHITECTURE.md "The market"). The platform's
 * catalogue, the orders enterprises place (each paid through one payment order of purpose
 * 'market'), the items the market keeps alive (a device's licence, a storage pack, a card's
 * package) and every renewal attempt of the daily job. Amounts are fen.
 */
export const marketProducts = pgTable(
  'market_products',
  {
    id: id(),
    kind: text('kind').$type<'devicePoints' | 'storagePack' | 'dataCard'>().notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    state: text('state').$type<'onSale' | 'offShelf'>().notNull().default('offShelf'),
    /** [{ months, price }] by months ascending; price is fen per unit for the term. */
    prices: jsonb('prices').$type<{ months: number; price: number }[]>().notNull(),
    /** A storage pack's bytes (STORAGE_PACK_BYTES). */
    storageBytes: bigint('storage_bytes', { mode: 'number' }),
    /** A data-card package's MB per month. */
    dataMbPerMonth: integer('data_mb_per_month'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('market_products_kind_check', sql`${t.kind} in ('devicePoints', 'storagePack', 'dataCard')`),
    check('market_products_state_check', sql`${t.state} in ('onSale', 'offShelf')`),
    index('market_products_kind_idx').on(t.kind, t.state),
  ],
);
export type MarketProductRow = typeof marketProducts.$inferSelect;

/** One purchase (or one day's renewals of an enterprise): what, for how long, for how much, paid by which payment order. */
export const marketOrders = pgTable(
  'market_orders',
  {
    id: id(),
    /** 'M' + UTC+8 date + a sequence number. */
    no: text('no').notNull(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    productId: text('product_id')
      .notNull()
      .references(() => marketProducts.id),
    /** The product's kind and name when ordered (the catalogue may change later). */
    kind: text('kind').$type<'devicePoints' | 'storagePack' | 'dataCard'>().notNull(),
    productName: text('product_name').notNull(),
    months: integer('months').notNull(),
    unitPrice: bigint('unit_price', { mode: 'number' }).notNull(),
    quantity: integer('quantity').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    state: text('state').$type<'unpaid' | 'paid' | 'cancelled'>().notNull(),
    source: text('source').$type<'purchase' | 'renewal'>().notNull(),
    /** Turn auto-renewal on for the items it creates or extends. */
    autoRenew: boolean('auto_renew').notNull().default(false),
    payOrderId: text('pay_order_id')
      .notNull()
      .references(() => payOrders.id),
    /** The buyer (the renewal job: the account that turned auto-renewal on is not known; null). */
    createdBy: text('created_by').references(() => accounts.id),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('market_orders_amount_check', sql`${t.amount} > 0 and ${t.quantity} > 0`),
    check('market_orders_state_check', sql`${t.state} in ('unpaid', 'paid', 'cancelled')`),
    uniqueIndex('market_orders_no_key').on(t.no),
    uniqueIndex('market_orders_pay_order_key').on(t.payOrderId),
    index('market_orders_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id),
  ],
);
export type MarketOrderRow = typeof marketOrders.$inferSelect;

/** What an order applies to: a device, a card, or one pack; with the expiry before and after. */
export const marketOrderLines = pgTable(
  'market_order_lines',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => marketOrders.id),
    subjectType: text('subject_type').$type<'device' | 'card' | 'pack'>().notNull(),
    /** The device's or card's id; null for a pack until paid. */
    subjectId: text('subject_id'),
    /** The item this line created or extended (set when paid). */
    itemId: text('item_id'),
    subjectName: text('subject_name').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    expiresBefore: timestamp('expires_before', { withTimezone: true }),
    expiresAfter: timestamp('expires_after', { withTimezone: true }),
  },
  (t) => [
    check('market_order_lines_type_check', sql`${t.subjectType} in ('device', 'card', 'pack')`),
    index('market_order_lines_order_idx').on(t.orderId),
  ],
);
export type MarketOrderLineRow = typeof marketOrderLines.$inferSelect;

/**
 * What the market keeps alive for an enterprise: a device's licence (one per device), a card's
 * package (one per card), or a storage pack (one row per pack). Its expiry is the truth the
 * renewal job reads; a device's licence writes through to devices.expire_at, a card's package
 * to iot_cards, a pack to the enterprise's storage quota, in the same transaction.
 */
export const marketItems = pgTable(
  'market_items',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    kind: text('kind').$type<'devicePoints' | 'storagePack' | 'dataCard'>().notNull(),
    /** The device's or card's id; null for a pack. */
    subjectId: text('subject_id'),
    productId: text('product_id')
      .notNull()
      .references(() => marketProducts.id),
    /** The term a renewal buys. */
    months: integer('months').notNull(),
    storageBytes: bigint('storage_bytes', { mode: 'number' }),
    state: text('state').$type<'active' | 'expired'>().notNull().default('active'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    autoRenew: boolean('auto_renew').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('market_items_kind_check', sql`${t.kind} in ('devicePoints', 'storagePack', 'dataCard')`),
    check('market_items_state_check', sql`${t.state} in ('active', 'expired')`),
    // One licence per device, one package per card.
    uniqueIndex('market_items_subject_key').on(t.kind, t.subjectId).where(sql`${t.subjectId} is not null`),
    index('market_items_ent_expires_idx').on(t.entId, t.expiresAt, t.id),
    // The renewal job: items with auto-renewal on, by expiry.
    index('market_items_renew_idx').on(t.expiresAt).where(sql`${t.autoRenew} and ${t.state} = 'active'`),
    // The expiry job: active items by expiry.
    index('market_items_active_expires_idx').on(t.expiresAt).where(sql`${t.state} = 'active'`),
  ],
);
export type MarketItemRow = typeof marketItems.$inferSelect;

/** Every attempt of the renewal job: at most one per item and day (UTC+8), so a rerun of a day tries nothing twice. */
export const marketRenewals = pgTable(
  'market_renewals',
  {
    id: id(),
    itemId: text('item_id')
      .notNull()
      .references(() => marketItems.id),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    /** The UTC+8 day the attempt counts for (YYYY-MM-DD). */
    day: text('day').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    outcome: text('outcome').$type<'succeeded' | 'failed'>().notNull(),
    reason: text('reason').$type<'insufficientBalance' | 'offShelf' | 'subjectGone'>(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    orderId: text('order_id').references(() => marketOrders.id),
    effectiveAt: timestamp('effective_at', { withTimezone: true }),
    expiresBefore: timestamp('expires_before', { withTimezone: true }).notNull(),
    expiresAfter: timestamp('expires_after', { withTimezone: true }),
  },
  (t) => [
    check('market_renewals_outcome_check', sql`${t.outcome} in ('succeeded', 'failed')`),
    uniqueIndex('market_renewals_item_day_key').on(t.itemId, t.day),
    index('market_renewals_ent_at_idx').on(t.entId, t.at.desc(), t.id),
  ],
);
export type MarketRenewalRow = typeof marketRenewals.$inferSelect;
