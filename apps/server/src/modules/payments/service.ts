import {
  ErrorCode,
  type OfflinePayment,
  PAY_ORDER_TTL_MINUTES,
  type PayOrder,
  PROVIDER_METHODS,
  type paymentEndpoints,
} from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { enterprises, payOrders } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { accountBalances, ensureEnterpriseWallet } from '../ledger/accounts.js';
import { requireWallet, walletView, walletWhere } from '../ledger/walletScope.js';
import { closeAtProviders } from './attempts.js';
import { closeOrder } from './closing.js';
import { presentOfflineViews } from './offline.js';
import { payableOf } from './payables.js';
import { presentOrder } from './presenter.js';
import { providerSettings } from './providers/index.js';
import { findOrderView, listOrderViews, lockOrder, orderWalletColumn } from './repository.js';
import { markPaid, nextOrderNo } from './settle.js';
import { PaymentText } from './texts.js';

/**
 * Payment orders (issue 26): a recharge of a wallet, a bill the platform raised (and later
 * the market's orders); the ways to pay one now (payment.info, the aggregate page /pay),
 * paying from the balance, and closing one. Who sees an order is who sees its wallet
 * (ledger/walletScope.ts); an order another cannot see is NOT_FOUND to them.
 */

type Req<K extends keyof typeof paymentEndpoints> = z.infer<(typeof paymentEndpoints)[K]['request']>;

const lang = (ctx: CallContext) => (ctx.language === 'en-US' || ctx.language === 'ja' ? ctx.language : 'zh-CN');

const auditOrder = (
  ctx: CallContext,
  action: string,
  order: { id: string; no: string },
  detail?: Record<string, unknown>,
) =>
  ctx.audit({ module: 'payments', action, targetType: 'payOrder', targetId: order.id, targetName: order.no, detail });

/** The order as the caller sees it, or NOT_FOUND. */
async function visibleOrder(ctx: CallContext, id: string): Promise<PayOrder> {
  const view = await walletView(ctx.db, ctx.user);
  const found = await findOrderView(ctx.db, id, walletWhere(view, orderWalletColumn));
  if (!found) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.orderNotFound);
  return presentOrder(found, ctx.language);
}

/** A recharge order of the caller's wallet (or of `walletId`, one the caller sees); pay it at /pay. */
export async function recharge(input: Req<'paymentRecharge'>, ctx: CallContext): Promise<{ id: string; no: string }> {
  const view = await walletView(ctx.db, ctx.user);
  const wallet = await requireWallet(ctx.db, view, input.walletId);
  // A platform account is the platform's books, not a wallet anyone tops up.
  if (wallet.kind === 'platform' || !wallet.entId) {
    throw new AppError(ErrorCode.NOT_FOUND, PaymentText.walletNotRechargeable);
  }
  const no = await nextOrderNo(ctx.db, ctx.now);
  const [order] = await ctx.db
    .insert(payOrders)
    .values({
      no,
      purpose: 'recharge',
      title: PaymentText.rechargeTitle[lang(ctx)],
      amount: input.amount,
      state: 'unpaid',
      walletId: wallet.id,
      entId: wallet.entId,
      createdBy: ctx.user.accountId,
      expiresAt: new Date(ctx.now.getTime() + PAY_ORDER_TTL_MINUTES * 60_000),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: payOrders.id, no: payOrders.no });
  await auditOrder(ctx, 'recharge', order, { amount: input.amount, walletId: wallet.id });
  return order;
}

/** The platform operator bills an enterprise: an unpaid order of its wallet, with no expiry. */
export async function createBill(
  input: Req<'paymentBillCreate'>,
  ctx: CallContext,
): Promise<{ id: string; no: string }> {
  const [ent] = await ctx.db
    .select({ id: enterprises.id, name: enterprises.name })
    .from(enterprises)
    .where(eq(enterprises.id, input.entId));
  if (!ent) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.enterpriseNotFound);
  const walletId = await ensureEnterpriseWallet(ctx.db, ent.id);
  const no = await nextOrderNo(ctx.db, ctx.now);
  const [order] = await ctx.db
    .insert(payOrders)
    .values({
      no,
      purpose: 'bill',
      title: input.title,
      amount: input.amount,
      state: 'unpaid',
      walletId,
      entId: ent.id,
      createdBy: ctx.user.accountId,
      expiresAt: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: payOrders.id, no: payOrders.no });
  await auditOrder(ctx, 'billCreate', order, { amount: input.amount, entId: ent.id, entName: ent.name });
  return order;
}

type MethodOption = {
  method: PayOrder['method'] & string;
  available: boolean;
  reason: string | null;
  settings: string[];
};

/** The order with the ways it can be paid now, the wallet's available balance and its latest offline transfer. */
export async function paymentInfo(
  input: Req<'paymentInfo'>,
  ctx: CallContext,
): Promise<{ order: PayOrder; methods: MethodOption[]; available: number; offline: OfflinePayment | null }> {
  const order = await visibleOrder(ctx, input.id);
  const balances = await accountBalances(ctx.db, [order.walletId]);
  const available = balances.get(order.walletId)?.available ?? 0;
  const unpaid = order.state === 'unpaid';
  const payable = payableOf(order.purpose);
  const methods: MethodOption[] = [];
  const balanceReason = !payable.byBalance
    ? 'rechargeByBalance'
    : !unpaid
      ? 'notPayable'
      : available < order.amount
        ? 'insufficient'
        : null;
  methods.push({ method: 'balance', available: balanceReason === null, reason: balanceReason, settings: [] });
  const providers = providerSettings(ctx.services.config.payments);
  for (const method of PROVIDER_METHODS) {
    const p = providers.find((s) => s.method === method);
    const reason = !p?.configured ? 'notConfigured' : !unpaid ? 'notPayable' : null;
    methods.push({ method, available: reason === null, reason, settings: p?.settings ?? [] });
  }
  methods.push({
    method: 'offline',
    available: unpaid,
    reason: unpaid ? null : order.state === 'review' ? 'inReview' : 'notPayable',
    settings: [],
  });
  const [offline] = await presentOfflineViews(ctx, 'latest', order.id);
  return { order, methods, available, offline: offline ?? null };
}

/** The orders of the wallets the caller sees, newest first. */
export async function listOrders(input: Req<'paymentList'>, ctx: CallContext) {
  const view = await walletView(ctx.db, ctx.user);
  const { total, rows } = await listOrderViews(ctx.db, walletWhere(view, orderWalletColumn), input, input);
  return { total, data: rows.map((row) => presentOrder(row, ctx.language)) };
}

/** Pays an unpaid order (not a recharge) from its wallet's available balance. */
export async function payByBalance(input: Req<'paymentPayBalance'>, ctx: CallContext): Promise<PayOrder> {
  const view = await walletView(ctx.db, ctx.user);
  const order = await lockOrder(ctx.db, input.id, walletWhere(view, orderWalletColumn));
  if (!order) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.orderNotFound);
  if (!payableOf(order.purpose).byBalance) {
    throw new AppError(ErrorCode.PAYMENT_METHOD_UNAVAILABLE, PaymentText.rechargeByBalance);
  }
  // Under review, an offline transfer may pay it yet: the balance waits for the review.
  if (order.state !== 'unpaid') throw new AppError(ErrorCode.PAYMENT_NOT_PAYABLE, PaymentText.notPayable);
  const paid = await markPaid(ctx.db, order.id, { method: 'balance', now: ctx.now, actorId: ctx.user.accountId });
  if (paid.status !== 'paid') throw new AppError(ErrorCode.PAYMENT_NOT_PAYABLE, PaymentText.notPayable);
  await auditOrder(ctx, 'payBalance', order, { amount: order.amount, walletId: order.walletId });
  return visibleOrder(ctx, order.id);
}

/** The payer gives up an unpaid recharge; a bill is closed only by the platform operator. */
export async function closePayment(input: Req<'paymentClose'>, ctx: CallContext): Promise<null> {
  const view = await walletView(ctx.db, ctx.user);
  const order = await lockOrder(ctx.db, input.id, walletWhere(view, orderWalletColumn));
  if (!order) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.orderNotFound);
  if (order.purpose !== 'recharge' && !view.platform) {
    throw new AppError(ErrorCode.PAYMENT_NOT_PAYABLE, PaymentText.billClosedByPlatform);
  }
  const closed = order.state === 'unpaid' ? await closeOrder(ctx.db, order.id, ctx.now) : null;
  if (!closed) throw new AppError(ErrorCode.PAYMENT_NOT_PAYABLE, PaymentText.notClosable);
  await auditOrder(ctx, 'close', order, { purpose: order.purpose, amount: order.amount });
  // Its provider payments are closed at the provider too, once this commits (attempts.ts).
  ctx.afterCommit(() => {
    closeAtProviders(ctx.services, ctx.log, order.id, ctx.now).catch((error) =>
      ctx.log.warn({ err: error, orderId: order.id }, 'provider payments not closed'),
    );
  });
  return null;
}
