import { ErrorCode, endpoints } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { payOrders } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { defineHandler } from '../../protocol/handlers.js';
import { walletView, walletWhere } from '../ledger/walletScope.js';
import { providerPaymentOf, settleAttempt, startAttempt } from './attempts.js';
import { presentOrder } from './presenter.js';
import { providerSettings } from './providers/index.js';
import { findOrderView, orderWalletColumn } from './repository.js';
import { PaymentText } from './texts.js';

/**
 * The provider endpoints of the payments module (issue 26): payment.start (a QR code or a
 * redirect from WeChat Pay or Alipay), payment.query (the page's poll: asks the provider and
 * settles a paid answer once) and payment.providers (which are configured, and how). The
 * provider is spoken to in `prepare`, before the call's transaction; the transaction
 * settles and writes the log row.
 */

async function visibleOrderRow(db: Executor, ctx: CallContext, id: string) {
  const view = await walletView(db, ctx.user);
  const [order] = await db
    .select()
    .from(payOrders)
    .where(and(eq(payOrders.id, id), walletWhere(view, orderWalletColumn)));
  if (!order) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.orderNotFound);
  return { order, visible: walletWhere(view, orderWalletColumn) };
}

export const providerHandlers = [
  defineHandler(endpoints.paymentStart, {
    prepare: async (input, ctx) => {
      const { order } = await visibleOrderRow(ctx.db, ctx, input.id);
      const attempt = await startAttempt(
        ctx.services,
        ctx.log,
        order,
        input.method,
        `${order.title} ${order.no}`,
        ctx.now,
      );
      return { order, attempt };
    },
    handle: async (input, ctx, { order, attempt }) => {
      await ctx.audit({
        module: 'payments',
        action: 'payStart',
        targetType: 'payOrder',
        targetId: order.id,
        targetName: order.no,
        detail: { method: input.method, outTradeNo: attempt.outTradeNo, amount: attempt.amount },
      });
      return {
        method: input.method,
        qrCode: attempt.qrCode ?? null,
        redirectUrl: attempt.redirectUrl ?? null,
        expiresAt: attempt.expiresAt.toISOString(),
      };
    },
  }),
  defineHandler(endpoints.paymentQuery, {
    prepare: async (input, ctx) => {
      const { order } = await visibleOrderRow(ctx.db, ctx, input.id);
      return { order, reports: await providerPaymentOf(ctx.services, ctx.log, order, ctx.now) };
    },
    handle: async (input, ctx, { order, reports }) => {
      for (const { method, payment } of reports) {
        await settleAttempt(ctx.db, ctx.log, method, payment, ctx.now, 'query');
      }
      await ctx.audit({
        module: 'payments',
        action: 'payQuery',
        targetType: 'payOrder',
        targetId: order.id,
        targetName: order.no,
      });
      const { visible } = await visibleOrderRow(ctx.db, ctx, input.id);
      const found = await findOrderView(ctx.db, input.id, visible);
      if (!found) throw new AppError(ErrorCode.NOT_FOUND, PaymentText.orderNotFound);
      return presentOrder(found, ctx.language);
    },
  }),
  defineHandler(endpoints.paymentProviders, {
    handle: async (_input, ctx) => ({
      providers: providerSettings(ctx.services.config.payments),
      offlineAccount: ctx.services.config.payments.offlineAccount,
    }),
  }),
];
