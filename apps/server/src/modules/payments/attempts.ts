import { randomBytes } from 'node:crypto';
import { ErrorCode, PAY_ORDER_TTL_MINUTES, type ProviderMethod } from '@marquee/protocol';
import { and, asc, desc, eq, gt, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ALIPAY_SETTINGS, WECHATPAY_SETTINGS } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { type PayAttemptRow, type PayOrderRow, payAttempts, payOrders } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { AppServices } from '../../services.js';
import {
  notifyUrl,
  type PaymentProvider,
  ProviderError,
  type ProviderPayment,
  providerFor,
} from './providers/index.js';
import { ProviderText } from './providers/texts.js';
import { markPaid } from './settle.js';

/**
 * Provider payments of an order (issue 26): an attempt is one order created at WeChat Pay or
 * Alipay (its out_trade_no). A verified notification, the payer's query or the job's query
 * settles it once: the attempt row and markPaid (the order paid, the money credited) commit
 * in one transaction, and the transfer ids derive from the attempt, so a replayed
 * notification, or a notification racing a query, moves nothing twice. The amount is never
 * the provider's: a payment whose amount differs from the attempt's is refused and alarmed.
 * A payment arriving after the order was closed (late, or after a new start) still lands in
 * the wallet (markPaid's arrival): money is never lost.
 */

/** The job that asks the providers about open attempts, and its schedule (every minute). */
export const QUERY_OPEN_JOB = 'payments-query-open';
export const QUERY_OPEN_CRON = '* * * * *';

/** How long an attempt without its own order expiry (a bill) may be paid. */
export const ATTEMPT_TTL_MS = PAY_ORDER_TTL_MINUTES * 60_000;
/** An open attempt is reused by a new start while it has at least this long left. */
const REUSE_MARGIN_MS = 2 * 60_000;

/** What settling a provider's report did. */
export type SettleStatus =
  /** This report paid the order. */
  | 'settled'
  /** Settled before (a replayed notification, a query after the notification): nothing moved. */
  | 'already'
  /** Paid after the order was closed or paid another way: credited to the wallet, the order unchanged. */
  | 'absorbed'
  /** Not paid (yet). */
  | 'unpaid'
  /** The amount differs from the attempt's: refused, the order stays unpaid. */
  | 'mismatch'
  /** No attempt of this provider has that out_trade_no. */
  | 'unknown';

/** Statuses a notification is acknowledged for (the provider stops sending it). */
export const ACKNOWLEDGED: ReadonlySet<SettleStatus> = new Set(['settled', 'already', 'absorbed', 'unpaid']);

/**
 * Settles what a provider reported about an attempt, in the caller's transaction `db`: the
 * attempt is locked, and a paid report of the right amount marks it successful and pays the
 * order (markPaid with the attempt as the arrival) in the same transaction.
 */
export async function settleAttempt(
  db: Executor,
  log: FastifyBaseLogger,
  method: ProviderMethod,
  payment: ProviderPayment,
  now: Date,
  source: 'notify' | 'query' | 'job',
): Promise<SettleStatus> {
  const [attempt] = await db
    .select()
    .from(payAttempts)
    .where(eq(payAttempts.outTradeNo, payment.outTradeNo))
    .for('update');
  if (!attempt || attempt.provider !== method) {
    log.warn({ method, outTradeNo: payment.outTradeNo, source }, 'payment for an unknown attempt');
    return 'unknown';
  }
  if (!payment.paid) {
    if (payment.closed && attempt.state === 'created') {
      await db
        .update(payAttempts)
        .set({ state: 'closed', settledAt: now })
        .where(and(eq(payAttempts.id, attempt.id), eq(payAttempts.state, 'created')));
    }
    return 'unpaid';
  }
  if (attempt.state === 'success') return 'already';
  if (payment.amountFen !== attempt.amount) {
    log.warn(
      {
        method,
        outTradeNo: attempt.outTradeNo,
        orderId: attempt.orderId,
        expected: attempt.amount,
        reported: payment.amountFen,
        tradeNo: payment.tradeNo,
        source,
      },
      'payment amount mismatch',
    );
    await db
      .update(payAttempts)
      .set({ state: 'failed', providerTradeNo: payment.tradeNo, settledAt: now })
      .where(and(eq(payAttempts.id, attempt.id), eq(payAttempts.state, 'created')));
    return 'mismatch';
  }
  await db
    .update(payAttempts)
    .set({ state: 'success', providerTradeNo: payment.tradeNo, settledAt: now })
    .where(eq(payAttempts.id, attempt.id));
  const paid = await markPaid(db, attempt.orderId, {
    method,
    providerTradeNo: payment.tradeNo,
    arrivalKey: attempt.id,
    now,
  });
  if (paid.status !== 'paid') {
    log.warn(
      {
        method,
        outTradeNo: attempt.outTradeNo,
        orderId: attempt.orderId,
        orderState: paid.order.state,
        amount: attempt.amount,
        tradeNo: payment.tradeNo,
        source,
      },
      'payment arrived for an order already paid or closed: credited to its wallet',
    );
    return 'absorbed';
  }
  log.info({ method, outTradeNo: attempt.outTradeNo, orderId: attempt.orderId, source }, 'payment settled');
  return 'settled';
}

/** Asks the provider about an attempt and settles a paid answer in its own transaction. */
export async function queryAndSettle(
  services: AppServices,
  log: FastifyBaseLogger,
  provider: PaymentProvider,
  attempt: PayAttemptRow,
  now: Date,
  source: 'query' | 'job',
): Promise<{ payment: ProviderPayment; status: SettleStatus }> {
  const payment = await provider.query(attempt.outTradeNo, now);
  if (!payment.paid && !payment.closed) return { payment, status: 'unpaid' };
  const status = await services.db.transaction((tx) =>
    settleAttempt(
      tx as unknown as Executor,
      log,
      provider.method,
      { ...payment, outTradeNo: attempt.outTradeNo },
      now,
      source,
    ),
  );
  return { payment, status };
}

/**
 * What the providers say about the order's open attempts (the payer's query, before the
 * call's transaction): the paid or closed reports, to settle in the transaction. A provider
 * that cannot be reached is logged and skipped (the order is answered as it is).
 */
export async function providerPaymentOf(
  services: AppServices,
  log: FastifyBaseLogger,
  order: PayOrderRow,
  now: Date,
): Promise<{ method: ProviderMethod; payment: ProviderPayment }[]> {
  const reports: { method: ProviderMethod; payment: ProviderPayment }[] = [];
  for (const attempt of (await openAttempts(services.db, order.id)).slice(0, 3)) {
    const provider = providerFor(services.config.payments, attempt.provider);
    if (!provider) continue;
    try {
      const payment = await provider.query(attempt.outTradeNo, now);
      if (payment.paid || payment.closed) {
        reports.push({ method: attempt.provider, payment: { ...payment, outTradeNo: attempt.outTradeNo } });
      }
    } catch (error) {
      log.warn({ err: error, method: attempt.provider, outTradeNo: attempt.outTradeNo }, 'provider payment not asked');
    }
  }
  return reports;
}

/** Open (created) attempts of an order, newest first. */
export function openAttempts(db: Executor, orderId: string): Promise<PayAttemptRow[]> {
  return db
    .select()
    .from(payAttempts)
    .where(and(eq(payAttempts.orderId, orderId), eq(payAttempts.state, 'created')))
    .orderBy(desc(payAttempts.createdAt));
}

/** The provider of `method`, or PAYMENT_METHOD_UNAVAILABLE naming the settings that enable it. */
export function requireProvider(services: AppServices, method: ProviderMethod): PaymentProvider {
  const provider = providerFor(services.config.payments, method);
  if (!provider) {
    const settings = method === 'wechat' ? WECHATPAY_SETTINGS : ALIPAY_SETTINGS;
    throw new AppError(ErrorCode.PAYMENT_METHOD_UNAVAILABLE, ProviderText.notConfigured(settings));
  }
  return provider;
}

/** A new out_trade_no: the order number and 8 random characters (WeChat allows 6 to 32). */
function outTradeNoOf(order: PayOrderRow): string {
  return `${order.no}${randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8)}`;
}

/**
 * Starts paying `order` with `method` (before the call's transaction: it speaks to the
 * provider): an open attempt of the same provider with time left is reused; other open
 * attempts are asked first (one paid meanwhile settles the order: PAYMENT_NOT_PAYABLE) and
 * closed; then a new attempt is written and created at the provider.
 */
export async function startAttempt(
  services: AppServices,
  log: FastifyBaseLogger,
  order: PayOrderRow,
  method: ProviderMethod,
  description: string,
  now: Date,
): Promise<PayAttemptRow> {
  const provider = requireProvider(services, method);
  const db = services.db;
  if (order.state !== 'unpaid') throw new AppError(ErrorCode.PAYMENT_NOT_PAYABLE);
  if (order.expiresAt && order.expiresAt.getTime() - now.getTime() < 60_000) {
    throw new AppError(ErrorCode.PAYMENT_NOT_PAYABLE, ProviderText.expired);
  }
  for (const open of await openAttempts(db, order.id)) {
    if (open.provider === method && open.expiresAt.getTime() - now.getTime() > REUSE_MARGIN_MS) return open;
    const other = providerFor(services.config.payments, open.provider);
    if (!other) continue;
    try {
      const { status } = await queryAndSettle(services, log, other, open, now, 'query');
      if (status === 'settled' || status === 'already' || status === 'absorbed') {
        throw new AppError(ErrorCode.PAYMENT_NOT_PAYABLE, ProviderText.paidMeanwhile);
      }
      await other.close(open.outTradeNo, now);
      await db
        .update(payAttempts)
        .set({ state: 'closed', settledAt: now })
        .where(and(eq(payAttempts.id, open.id), eq(payAttempts.state, 'created')));
    } catch (error) {
      if (error instanceof AppError) throw error;
      // Left open: the job asks and closes it later; a payment on it still lands.
      log.warn({ err: error, outTradeNo: open.outTradeNo }, 'previous provider payment not closed');
    }
  }
  const expiresAt = new Date(
    Math.min(order.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY, now.getTime() + ATTEMPT_TTL_MS),
  );
  const [attempt] = await db
    .insert(payAttempts)
    .values({
      orderId: order.id,
      provider: method,
      outTradeNo: outTradeNoOf(order),
      state: 'created',
      amount: order.amount,
      expiresAt,
      createdAt: now,
    })
    .returning();
  try {
    const created = await provider.createOrder({
      outTradeNo: attempt.outTradeNo,
      amountFen: attempt.amount,
      description,
      expiresAt,
      notifyUrl: notifyUrl(services.config.payments, method),
      returnUrl: `${services.config.payments.returnBaseUrl}/pay?id=${encodeURIComponent(order.id)}`,
      now,
    });
    const [updated] = await db
      .update(payAttempts)
      .set({ qrCode: created.qrCode, redirectUrl: created.redirectUrl })
      .where(eq(payAttempts.id, attempt.id))
      .returning();
    return updated;
  } catch (error) {
    log.warn({ err: error, method, outTradeNo: attempt.outTradeNo }, 'provider payment not created');
    await db.update(payAttempts).set({ state: 'failed', settledAt: now }).where(eq(payAttempts.id, attempt.id));
    if (error instanceof ProviderError)
      throw new AppError(ErrorCode.PAYMENT_METHOD_UNAVAILABLE, ProviderText.unreachable);
    throw error;
  }
}

/**
 * After an order was closed (the payer gave up: payment.close), its provider payments that
 * could still be paid are closed at the provider too (after the transaction, on the root
 * database). One paid meanwhile is settled: the money lands in the wallet (the order stays
 * closed). Failures are logged; a payment made anyway is still credited when it is notified.
 */
export async function closeAtProviders(
  services: AppServices,
  log: FastifyBaseLogger,
  orderId: string,
  now: Date,
): Promise<number> {
  const { wechat, alipay } = services.config.payments;
  if (!wechat && !alipay) return 0;
  const open = await services.db
    .select()
    .from(payAttempts)
    .where(and(eq(payAttempts.orderId, orderId), eq(payAttempts.state, 'closed'), gt(payAttempts.expiresAt, now)));
  let closed = 0;
  for (const attempt of open) {
    const provider = providerFor(services.config.payments, attempt.provider);
    if (!provider) continue;
    try {
      const payment = await provider.query(attempt.outTradeNo, now);
      if (payment.paid) {
        await services.db.transaction((tx) =>
          settleAttempt(
            tx as unknown as Executor,
            log,
            provider.method,
            { ...payment, outTradeNo: attempt.outTradeNo },
            now,
            'job',
          ),
        );
        continue;
      }
      if (!payment.closed) await provider.close(attempt.outTradeNo, now);
      closed++;
    } catch (error) {
      log.warn({ err: error, method: attempt.provider, outTradeNo: attempt.outTradeNo }, 'provider payment not closed');
    }
  }
  return closed;
}

/**
 * The job (payments-query-open, every minute): asks the provider about every open attempt
 * older than a minute, settles the paid ones, and closes at the provider those whose time ran
 * out or whose order was closed or paid another way. Returns what it did.
 */
export async function queryOpenAttempts(
  services: AppServices,
  log: FastifyBaseLogger,
  now: Date,
  limit = 200,
): Promise<{ asked: number; settled: number; closed: number; failed: number }> {
  const due = await services.db
    .select({ attempt: payAttempts, orderState: payOrders.state })
    .from(payAttempts)
    .innerJoin(payOrders, eq(payOrders.id, payAttempts.orderId))
    .where(and(eq(payAttempts.state, 'created'), lte(payAttempts.createdAt, new Date(now.getTime() - 60_000))))
    .orderBy(asc(payAttempts.createdAt))
    .limit(limit);
  const result = { asked: 0, settled: 0, closed: 0, failed: 0 };
  for (const { attempt, orderState } of due) {
    const provider = providerFor(services.config.payments, attempt.provider);
    if (!provider) continue;
    result.asked++;
    try {
      const { payment, status } = await queryAndSettle(services, log, provider, attempt, now, 'job');
      if (status === 'settled' || status === 'absorbed') result.settled++;
      if (payment.paid || status !== 'unpaid') continue;
      if (payment.closed) {
        result.closed++;
        continue;
      }
      if (attempt.expiresAt <= now || orderState !== 'unpaid') {
        await provider.close(attempt.outTradeNo, now);
        await services.db
          .update(payAttempts)
          .set({ state: 'closed', settledAt: now })
          .where(and(eq(payAttempts.id, attempt.id), eq(payAttempts.state, 'created')));
        result.closed++;
      }
    } catch (error) {
      result.failed++;
      log.warn(
        { err: error, method: attempt.provider, outTradeNo: attempt.outTradeNo },
        'open provider payment not asked',
      );
    }
  }
  return result;
}
