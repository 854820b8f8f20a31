import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { fenOrZeroSchema, fenSchema } from '../money.js';
import { Perm } from '../permissions.js';
import { listPageSize, socialCreditCodeSchema } from '../validation.js';
import { endpoint } from './common.js';
import { exportFollowUps, exportStatusSchema } from './operationLog.js';

/**
 * Finance (issue 26, /my/finance and its alias /finance_center): the wallets, the ledger of
 * their movements, monthly statements, invoices and the low-balance threshold. Every amount
 * is fen. The ledger itself (accounts, transfers, holds) is the server's ledger module; this
 * domain reads it. Served by the server's finance module.
 */

const id = z.string().min(1).max(64);
const isoTime = z.iso.datetime({ offset: true });
const pageSize = listPageSize();

/** What a ledger account is: a wallet (an enterprise's or an advertiser's) or one of the platform's. */
export const LEDGER_ACCOUNT_KINDS = ['enterprise', 'advertiser', 'platform'] as const;
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];

/**
 * The platform's own accounts: its revenue, each provider's clearing account (money the
 * provider holds for us), offline bank receipts, refunds paid out, coupons' cost, corrections.
 */
export const PLATFORM_ACCOUNTS = [
  'revenue',
  'clearingWechat',
  'clearingAlipay',
  'clearingOffline',
  /** What external DSPs owe for their proven RTB plays (issue 29). */
  'clearingRtb',
  'refunds',
  'coupons',
  'corrections',
] as const;
export type PlatformAccount = (typeof PLATFORM_ACCOUNTS)[number];

/** What moved the money (the movement list's kind filter). */
export const MOVEMENT_CODES = ['recharge', 'payment', 'refund', 'hold', 'release', 'correction'] as const;
export type MovementCode = (typeof MOVEMENT_CODES)[number];

/**
 * The cause a movement names and links to. A module that moves money registers its cause type
 * (the market's orders, ad orders, renewals); `payOrder` is a recharge or a bill's payment.
 */
export const CAUSE_TYPES = ['payOrder', 'correction', 'test'] as const;

export const INVOICE_STATES = ['requested', 'issued', 'refused'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];

/**
 * The threshold the console proposes when an enterprise turns the low-balance alert on: 100
 * yuan. A new wallet has none (no letter until the enterprise sets one).
 */
export const LOW_BALANCE_DEFAULT_FEN = 10_000;

export const walletSchema = z.object({
  id: z.string(),
  kind: z.enum(LEDGER_ACCOUNT_KINDS),
  /** The enterprise's or the advertiser's name; a platform account's key of the finance namespace. */
  name: z.string(),
  /** For a platform account, which one. */
  platformAccount: z.enum(PLATFORM_ACCOUNTS).nullable(),
  entId: z.string().nullable(),
  entName: z.string(),
  /** Posted balance (credits - debits posted), fen. */
  balance: z.number().int(),
  /** Held by pending transfers (orders awaiting confirmation), fen. */
  frozen: z.number().int(),
  /** What can be spent: balance - frozen, fen. */
  available: z.number().int(),
  /** The threshold below which the low-balance letter shows (null: none). */
  lowBalanceThreshold: z.number().int().nullable(),
  low: z.boolean(),
});
export type Wallet = z.infer<typeof walletSchema>;

export const movementSchema = z.object({
  /** The entry's sequence number (a bank statement's line). */
  seq: z.string(),
  transferId: z.string(),
  at: z.string(),
  code: z.enum(MOVEMENT_CODES),
  /** Signed change of the posted balance, fen (+ in, - out). */
  amount: z.number().int(),
  /** Signed change of the frozen amount, fen. */
  frozenChange: z.number().int(),
  /** The posted balance and frozen amount after this movement. */
  balance: z.number().int(),
  frozen: z.number().int(),
  /** The other account: a wallet's owner or a platform account's key. */
  counterparty: z.string(),
  cause: z.object({
    type: z.string(),
    id: z.string(),
    /** What a person reads (an order number). */
    label: z.string(),
    /** Where the console opens it ('/pay?id=...'), or null. */
    route: z.string().nullable(),
  }),
  note: z.string(),
});
export type Movement = z.infer<typeof movementSchema>;

/** Filters of the movement list and of its export. */
export const movementFilterSchema = z
  .object({
    walletId: id.optional(),
    code: z.enum(MOVEMENT_CODES).optional(),
    /** Inclusive start and exclusive end. */
    from: isoTime.optional(),
    to: isoTime.optional(),
    /** Bounds of the movement's absolute amount, fen. */
    minAmount: fenOrZeroSchema.optional(),
    maxAmount: fenOrZeroSchema.optional(),
    /** Only money in, or only money out. */
    direction: z.enum(['in', 'out']).optional(),
  })
  .strict();
export type MovementFilter = z.infer<typeof movementFilterSchema>;

export const statementMonthSchema = z.object({
  /** 'YYYY-MM' (UTC+8, the enterprise's calendar). */
  month: z.string(),
  opening: z.number().int(),
  credits: z.number().int(),
  debits: z.number().int(),
  closing: z.number().int(),
  movements: z.number().int(),
});
export type StatementMonth = z.infer<typeof statementMonthSchema>;

export const invoiceSchema = z.object({
  id: z.string(),
  walletId: z.string(),
  entId: z.string(),
  entName: z.string(),
  title: z.string(),
  taxNo: z.string(),
  amount: z.number().int(),
  email: z.string(),
  remark: z.string(),
  state: z.enum(INVOICE_STATES),
  invoiceNo: z.string(),
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

const financeMovementExport = exportFollowUps({
  name: 'finance.movementExport',
  path: '/api/finance/movementExport',
  permission: Perm.myFinance,
  object: 'movementExport',
});

export const financeEndpoints = {
  financeWallets: endpoint({
    name: 'finance.wallets',
    path: '/api/finance/wallets.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    scope: { object: 'wallet', kind: 'list', audience: 'wallet' },
    /**
     * The wallets the caller sees, its own first: an enterprise's, an advertiser's; the platform
     * operator every wallet and the platform's accounts (`platform` true).
     */
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        kind: z.enum(LEDGER_ACCOUNT_KINDS).optional(),
        keyword: z.string().trim().max(64).optional(),
        /** Only wallets below their low-balance threshold. */
        low: z.boolean().optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(walletSchema) }),
  }),
  financeSummary: endpoint({
    name: 'finance.summary',
    path: '/api/finance/summary.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    scope: { object: 'wallet', kind: 'detail', idField: 'walletId', audience: 'wallet' },
    errors: [ErrorCode.NOT_FOUND],
    /** One wallet (default: the caller's own) with what was paid and not yet invoiced. */
    request: z.object({ walletId: id.optional() }).strict(),
    response: z.object({
      wallet: walletSchema,
      /** Paid recharges minus invoices requested or issued, fen. */
      invoiceable: z.number().int(),
      /** Unpaid orders (bills, recharges) awaiting payment. */
      unpaidOrders: z.number().int(),
    }),
  }),
  financeMovements: endpoint({
    name: 'finance.movements',
    path: '/api/finance/movements.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    scope: { object: 'wallet', kind: 'detail', idField: 'walletId', audience: 'wallet' },
    errors: [ErrorCode.NOT_FOUND],
    /** A wallet's ledger, newest first (default: the caller's own wallet). Total capped at 10,000. */
    request: z
      .object({ page: z.number().int().min(1).default(1), size: pageSize })
      .extend(movementFilterSchema.shape)
      .strict(),
    response: z.object({ total: z.number(), capped: z.boolean(), data: z.array(movementSchema) }),
  }),
  financeStatement: endpoint({
    name: 'finance.statement',
    path: '/api/finance/statement.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    scope: { object: 'wallet', kind: 'detail', idField: 'walletId', audience: 'wallet' },
    errors: [ErrorCode.NOT_FOUND],
    /** Monthly statements of the last `months` months, oldest first: opening + credits - debits = closing. */
    request: z.object({ walletId: id.optional(), months: z.number().int().min(1).max(36).default(12) }).strict(),
    response: z.object({ months: z.array(statementMonthSchema) }),
  }),
  financeSetLowBalance: endpoint({
    name: 'finance.setLowBalance',
    path: '/api/finance/lowBalance.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Below this available balance the header's station letter says so; null turns it off. */
    request: z.object({ walletId: id.optional(), threshold: fenOrZeroSchema.nullable() }).strict(),
    response: walletSchema,
  }),
  financeMovementExportStart: endpoint({
    name: 'finance.movementExportStart',
    path: '/api/finance/movementExportStart.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    request: movementFilterSchema,
    response: exportStatusSchema,
  }),
  financeMovementExportStatus: financeMovementExport.status,
  financeMovementExportDownload: financeMovementExport.download,
  invoiceList: endpoint({
    name: 'invoice.list',
    path: '/api/finance/invoice/list.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    scope: { object: 'invoice', kind: 'list', audience: 'wallet' },
    /** Invoices of the wallets the caller sees (the platform operator: every enterprise's, to issue). */
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        walletId: id.optional(),
        state: z.enum(INVOICE_STATES).optional(),
        keyword: z.string().trim().max(64).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(invoiceSchema) }),
  }),
  invoiceRequest: endpoint({
    name: 'invoice.request',
    path: '/api/finance/invoice/request.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.INVOICE_AMOUNT_EXCEEDED],
    /** Asks for an invoice of what the wallet paid and has not had invoiced yet. */
    request: z
      .object({
        walletId: id.optional(),
        title: z.string().trim().min(1, 'validation.required').max(100),
        taxNo: socialCreditCodeSchema,
        amount: fenSchema,
        email: z.union([z.email('validation.email'), z.literal('')]).default(''),
        remark: z.string().trim().max(200).default(''),
      })
      .strict(),
    response: invoiceSchema,
  }),
  invoiceIssue: endpoint({
    name: 'invoice.issue',
    path: '/api/finance/invoice/issue.shtm',
    auth: 'session',
    permission: Perm.financeManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
    request: z.object({ id, invoiceNo: z.string().trim().min(1, 'validation.required').max(40) }).strict(),
    response: invoiceSchema,
  }),
  invoiceRefuse: endpoint({
    name: 'invoice.refuse',
    path: '/api/finance/invoice/refuse.shtm',
    auth: 'session',
    permission: Perm.financeManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
    request: z.object({ id, reason: z.string().trim().min(1, 'validation.required').max(200) }).strict(),
    response: invoiceSchema,
  }),
} as const;
