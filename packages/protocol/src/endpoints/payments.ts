import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { fenSchema, rechargeFenSchema } from '../money.js';
import { Perm } from '../permissions.js';
import { uploadSignatureSchema } from '../upload.js';
import { listPageSize } from '../validation.js';
import { endpoint, ok } from './common.js';

/**
 * Payments (issue 26; the spec's 'market wallet, balance pay, WeChat pay, aggregate payment'
 * groups, /pay and /payUnderline). A payment order is something a wallet owes or is owed:
 * a recharge of the wallet, a bill the platform raised, and later market and ad orders
 * (a purpose registered by their module). The aggregate page /pay?id=<order> offers every way
 * to pay it: the wallet's balance (not for a recharge), each configured provider (WeChat Pay,
 * Alipay: a QR code or a redirect, confirmed by the provider's verified notification or by a
 * query), and an offline bank transfer with its voucher, confirmed by the platform operator.
 * Amounts are fen. Served by the server's payments module.
 */

const id = z.string().min(1).max(64);
const isoTime = z.iso.datetime({ offset: true });
const pageSize = listPageSize();

/** A recharge, a bill the platform raised, a market order (issue 27: devices points, storage, data cards). */
export const PAY_PURPOSES = ['recharge', 'bill', 'market'] as const;
export type PayPurpose = (typeof PAY_PURPOSES)[number];

/** unpaid -> paid | closed (by the payer, or at expiry); unpaid -> review (offline voucher) -> paid | unpaid (rejected). */
export const PAY_STATES = ['unpaid', 'review', 'paid', 'closed'] as const;
export type PayState = (typeof PAY_STATES)[number];

export const PAY_METHODS = ['balance', 'wechat', 'alipay', 'offline'] as const;
export type PayMethod = (typeof PAY_METHODS)[number];
export const PROVIDER_METHODS = ['wechat', 'alipay'] as const;
export type ProviderMethod = (typeof PROVIDER_METHODS)[number];

export const OFFLINE_STATES = ['submitted', 'confirmed', 'rejected'] as const;
export type OfflineState = (typeof OFFLINE_STATES)[number];

/** Vouchers: an image or a PDF, at most 10 MB each, at most 5 per transfer. */
export const VOUCHER_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export const VOUCHER_MAX_BYTES = 10 * 1024 * 1024;
export const VOUCHERS_MAX = 5;

/** How long an unpaid order can be paid by a provider before the job closes it. */
export const PAY_ORDER_TTL_MINUTES = 30;

export const payOrderSchema = z.object({
  id: z.string(),
  /** The order number people quote ('P20261128000123'). */
  no: z.string(),
  purpose: z.enum(PAY_PURPOSES),
  title: z.string(),
  /** Fen. */
  amount: z.number().int(),
  state: z.enum(PAY_STATES),
  method: z.enum(PAY_METHODS).nullable(),
  /** The wallet it credits (a recharge) or debits (a bill), and whose it is. */
  walletId: z.string(),
  walletName: z.string(),
  entId: z.string(),
  entName: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** After this instant a provider payment is closed by the job (null: no expiry, e.g. a bill). */
  expiresAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** The provider's transaction number, when a provider paid it. */
  providerTradeNo: z.string().nullable(),
});
export type PayOrder = z.infer<typeof payOrderSchema>;

export const payMethodOptionSchema = z.object({
  method: z.enum(PAY_METHODS),
  available: z.boolean(),
  /**
   * Why not, as a key of the payments namespace ('notConfigured', 'rechargeByBalance',
   * 'insufficient'), with the settings that would enable a provider.
   */
  reason: z.string().nullable(),
  settings: z.array(z.string()),
});

export const offlinePaymentSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  orderNo: z.string(),
  amount: z.number().int(),
  entId: z.string(),
  entName: z.string(),
  payerName: z.string(),
  bankName: z.string(),
  bankAccount: z.string(),
  transferNo: z.string(),
  transferredAt: z.string(),
  remark: z.string(),
  /** Signed URLs of the vouchers, with their type. */
  vouchers: z.array(z.object({ url: z.string(), contentType: z.string(), name: z.string() })),
  state: z.enum(OFFLINE_STATES),
  reason: z.string(),
  submittedBy: z.string(),
  submittedAt: z.string(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type OfflinePayment = z.infer<typeof offlinePaymentSchema>;

export const paymentEndpoints = {
  paymentRecharge: endpoint({
    name: 'payment.recharge',
    path: '/api/pay/recharge.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Opens a recharge order of the caller's wallet (or `walletId`, one the caller may recharge); pay it at /pay. */
    request: z.object({ amount: rechargeFenSchema, walletId: id.optional() }).strict(),
    response: z.object({ id: z.string(), no: z.string() }),
  }),
  paymentBillCreate: endpoint({
    name: 'payment.billCreate',
    path: '/api/pay/bill/create.shtm',
    auth: 'session',
    permission: Perm.financeManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** The platform operator bills an enterprise (a service fee): the enterprise pays it at /pay. */
    request: z
      .object({ entId: id, title: z.string().trim().min(1, 'validation.required').max(60), amount: fenSchema })
      .strict(),
    response: z.object({ id: z.string(), no: z.string() }),
  }),
  paymentInfo: endpoint({
    name: 'payment.info',
    path: '/api/pay/info.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    scope: { object: 'payOrder', kind: 'detail', audience: 'wallet' },
    errors: [ErrorCode.NOT_FOUND],
    /** The order with the ways it can be paid now (the aggregate page). */
    request: z.object({ id }).strict(),
    response: z.object({
      order: payOrderSchema,
      methods: z.array(payMethodOptionSchema),
      /** The paying wallet's available fen (for the balance option). */
      available: z.number().int(),
      /** The latest offline submission of this order, if any. */
      offline: offlinePaymentSchema.nullable(),
    }),
  }),
  paymentList: endpoint({
    name: 'payment.list',
    path: '/api/pay/list.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    scope: { object: 'payOrder', kind: 'list', audience: 'wallet' },
    /** Recharges and payments of the wallets the caller sees (the platform operator: every one). */
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        walletId: id.optional(),
        purpose: z.enum(PAY_PURPOSES).optional(),
        state: z.enum(PAY_STATES).optional(),
        method: z.enum(PAY_METHODS).optional(),
        /** Order number or title contains. */
        keyword: z.string().trim().max(64).optional(),
        from: isoTime.optional(),
        to: isoTime.optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(payOrderSchema) }),
  }),
  paymentStart: endpoint({
    name: 'payment.start',
    path: '/api/pay/start.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.PAYMENT_NOT_PAYABLE, ErrorCode.PAYMENT_METHOD_UNAVAILABLE],
    /**
     * Starts paying the order with a provider: its QR code (WeChat Pay native) or the page to
     * go to (Alipay). The order is paid when the provider's notification (verified) or a
     * query says so; the page polls payment.query.
     */
    request: z.object({ id, method: z.enum(PROVIDER_METHODS) }).strict(),
    response: z.object({
      method: z.enum(PROVIDER_METHODS),
      /** The text to show as a QR code (WeChat Pay's code_url, Alipay's qr_code). */
      qrCode: z.string().nullable(),
      /** A page to open instead (Alipay's page pay). */
      redirectUrl: z.string().nullable(),
      expiresAt: z.string(),
    }),
  }),
  paymentQuery: endpoint({
    name: 'payment.query',
    path: '/api/pay/query.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /** Asks the provider of a started payment whether it is paid (credits exactly once), and answers the order. */
    request: z.object({ id }).strict(),
    response: payOrderSchema,
  }),
  paymentPayBalance: endpoint({
    name: 'payment.payBalance',
    path: '/api/pay/balance.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [
      ErrorCode.NOT_FOUND,
      ErrorCode.PAYMENT_NOT_PAYABLE,
      ErrorCode.PAYMENT_METHOD_UNAVAILABLE,
      ErrorCode.INSUFFICIENT_BALANCE,
    ],
    /** Pays the order from its wallet's available balance (not a recharge). */
    request: z.object({ id }).strict(),
    response: payOrderSchema,
  }),
  paymentClose: endpoint({
    name: 'payment.close',
    path: '/api/pay/close.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.PAYMENT_NOT_PAYABLE],
    /** The payer gives up an unpaid recharge (a bill is closed only by the platform operator); a started provider payment is closed too. */
    request: z.object({ id }).strict(),
    response: ok,
  }),
  paymentVoucherApply: endpoint({
    name: 'payment.voucherApply',
    path: '/api/pay/underline/voucherApply.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.PAYMENT_NOT_PAYABLE],
    /** A signed direct upload of one voucher of the order's bank transfer (image or PDF). */
    request: z
      .object({
        orderId: id,
        fileName: z.string().trim().min(1).max(120),
        contentType: z.enum(VOUCHER_TYPES),
        size: z.number().int().min(1).max(VOUCHER_MAX_BYTES),
      })
      .strict(),
    response: uploadSignatureSchema.extend({ voucherId: z.string() }),
  }),
  paymentOfflineSubmit: endpoint({
    name: 'payment.offlineSubmit',
    path: '/api/pay/underline/submit.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.PAYMENT_NOT_PAYABLE, ErrorCode.UPLOAD_INCOMPLETE],
    /** Records the bank transfer that pays the order, with its uploaded vouchers: the order waits for review. */
    request: z
      .object({
        orderId: id,
        payerName: z.string().trim().min(1, 'validation.required').max(60),
        bankName: z.string().trim().max(60).default(''),
        bankAccount: z.string().trim().max(40).default(''),
        transferNo: z.string().trim().min(1, 'validation.required').max(64),
        transferredAt: isoTime,
        remark: z.string().trim().max(200).default(''),
        voucherIds: z.array(id).min(1, 'validation.voucherRequired').max(VOUCHERS_MAX),
      })
      .strict(),
    response: offlinePaymentSchema,
  }),
  paymentOfflineList: endpoint({
    name: 'payment.offlineList',
    path: '/api/pay/underline/list.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    scope: { object: 'payOrder', kind: 'list', audience: 'wallet' },
    /** Offline transfers: the platform operator reviews every enterprise's; others see their own. */
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        state: z.enum(OFFLINE_STATES).optional(),
        keyword: z.string().trim().max(64).optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(offlinePaymentSchema) }),
  }),
  paymentOfflineConfirm: endpoint({
    name: 'payment.offlineConfirm',
    path: '/api/pay/underline/confirm.shtm',
    auth: 'session',
    permission: Perm.financeManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
    /** The platform operator confirms the money arrived: the order is paid (a recharge credits the wallet). */
    request: z.object({ id }).strict(),
    response: offlinePaymentSchema,
  }),
  paymentOfflineReject: endpoint({
    name: 'payment.offlineReject',
    path: '/api/pay/underline/reject.shtm',
    auth: 'session',
    permission: Perm.financeManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
    /** The platform operator refuses the voucher: nothing is credited, the order is unpaid again. */
    request: z.object({ id, reason: z.string().trim().min(1, 'validation.required').max(200) }).strict(),
    response: offlinePaymentSchema,
  }),
  paymentProviders: endpoint({
    name: 'payment.providers',
    path: '/api/pay/providers.shtm',
    auth: 'session',
    permission: Perm.myFinance,
    unscoped: 'the server configuration: which providers are enabled and the settings that enable each',
    request: z.object({}).strict(),
    response: z.object({
      providers: z.array(
        z.object({ method: z.enum(PROVIDER_METHODS), configured: z.boolean(), settings: z.array(z.string()) }),
      ),
      /**
       * The platform's bank account an offline transfer is made to (configuration; the /payUnderline
       * page shows it); null or absent while not configured (the page then says to ask the operator).
       */
      offlineAccount: z
        .object({ accountName: z.string(), bankName: z.string(), accountNo: z.string() })
        .nullable()
        .optional(),
    }),
  }),
} as const;
