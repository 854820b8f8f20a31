import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { ledgerAccounts } from './ledger.js';
import { enterprises } from './tenancy.js';

/**
 * Payment orders (issue 26, modules/payments): what a wallet pays or is paid, and how it was
 * paid. The ledger transfer of a paid order is written in the same transaction that marks it
 * paid, with the order as its cause.
 */
export const payOrders = pgTable(
  'pay_orders',
  {
    id: id(),
    /** 'P' + UTC+8 date + a sequence number. */
    no: text('no').notNull(),
    purpose: text('purpose').notNull(),
    title: text('title').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    state: text('state').$type<'unpaid' | 'review' | 'paid' | 'closed'>().notNull(),
    method: text('method').$type<'balance' | 'wechat' | 'alipay' | 'offline'>(),
    walletId: text('wallet_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    createdBy: text('created_by')
      .notNull()
      .references(() => accounts.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    providerTradeNo: text('provider_trade_no'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('pay_orders_amount_check', sql`${t.amount} > 0`),
    check('pay_orders_state_check', sql`${t.state} in ('unpaid', 'review', 'paid', 'closed')`),
    uniqueIndex('pay_orders_no_key').on(t.no),
    index('pay_orders_wallet_created_idx').on(t.walletId, t.createdAt.desc(), t.id),
    index('pay_orders_created_idx').on(t.createdAt.desc(), t.id),
    index('pay_orders_unpaid_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.state} = 'unpaid' and ${t.expiresAt} is not null`),
  ],
);
export type PayOrderRow = typeof payOrders.$inferSelect;

/**
 * A provider payment of an order (one per start: a new start closes the previous one). Its
 * out_trade_no is what the provider knows; a notification or a query naming it settles it once.
 */
export const payAttempts = pgTable(
  'pay_attempts',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => payOrders.id),
    provider: text('provider').$type<'wechat' | 'alipay'>().notNull(),
    outTradeNo: text('out_trade_no').notNull(),
    /** created -> success | closed | failed */
    state: text('state').$type<'created' | 'success' | 'closed' | 'failed'>().notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    qrCode: text('qr_code'),
    redirectUrl: text('redirect_url'),
    providerTradeNo: text('provider_trade_no'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pay_attempts_out_trade_no_key').on(t.outTradeNo),
    index('pay_attempts_order_idx').on(t.orderId),
    index('pay_attempts_open_idx').on(t.createdAt).where(sql`${t.state} = 'created'`),
  ],
);
export type PayAttemptRow = typeof payAttempts.$inferSelect;

/** A voucher file of an offline transfer, uploaded before the transfer is submitted. */
export const payVouchers = pgTable(
  'pay_vouchers',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => payOrders.id),
    /** The storage key (e/<entId>/vouchers/<order>/<voucher>). */
    fileKey: text('file_key').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Set when a submission names it. */
    offlineId: text('offline_id'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('pay_vouchers_order_idx').on(t.orderId)],
);

/** An offline bank transfer that pays an order: confirmed (the order paid) or rejected by the platform operator. */
export const offlinePayments = pgTable(
  'offline_payments',
  {
    id: id(),
    orderId: text('order_id')
      .notNull()
      .references(() => payOrders.id),
    entId: text('ent_id').notNull(),
    payerName: text('payer_name').notNull(),
    bankName: text('bank_name').notNull().default(''),
    bankAccount: text('bank_account').notNull().default(''),
    transferNo: text('transfer_no').notNull(),
    transferredAt: timestamp('transferred_at', { withTimezone: true }).notNull(),
    remark: text('remark').notNull().default(''),
    state: text('state').$type<'submitted' | 'confirmed' | 'rejected'>().notNull(),
    reason: text('reason').notNull().default(''),
    submittedBy: text('submitted_by').notNull(),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
    /** Extra facts kept with the review (amount seen on the voucher...). */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('offline_payments_order_idx').on(t.orderId),
    index('offline_payments_state_created_idx').on(t.state, t.createdAt.desc()),
    index('offline_payments_ent_created_idx').on(t.entId, t.createdAt.desc()),
  ],
);
export type OfflinePaymentRow = typeof offlinePayments.$inferSelect;
