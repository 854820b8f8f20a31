import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { ProviderMethod } from '@marquee/protocol';

/** What a provider answers when an order is created: a QR code's text or a page to open. */
export interface CreatedPayment {
  qrCode: string | null;
  redirectUrl: string | null;
}

/** A payment as the provider reports it (a verified notification or a query). */
export interface ProviderPayment {
  outTradeNo: string;
  /** The provider's transaction number (null before the payer acted). */
  tradeNo: string | null;
  /** The amount the provider says was paid, in fen (null when nothing was paid). */
  amountFen: number | null;
  /** The payment succeeded (money arrived). */
  paid: boolean;
  /** The provider's own state word (SUCCESS, NOTPAY, CLOSED, TRADE_SUCCESS, WAIT_BUYER_PAY...), for logs. */
  state: string;
  /** The provider no longer accepts payment for it (closed, revoked) or never created it. */
  closed: boolean;
}

export interface ProviderRefund {
  refundNo: string;
  /** The provider's refund id, when it gave one. */
  providerRefundNo: string | null;
  /** 'success', 'processing' or 'failed'. */
  state: 'success' | 'processing' | 'failed';
}

/** An HTTP request as it arrived: headers (lower-case names) and the raw body. */
export interface NotificationRequest {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What to answer the provider. */
export interface NotificationAck {
  status: number;
  contentType: string;
  body: string;
}

/** A notification that fails verification (signature, serial, time, decryption, app id). */
export class NotificationRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NotificationRejected';
  }
}

/** The provider refused a call or could not be reached. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** One payment provider's adapter (issue 26): the only code that speaks its protocol. */
export interface PaymentProvider {
  readonly method: ProviderMethod;
  /** Creates the provider's order: a QR code (WeChat native, Alipay precreate) or a redirect (Alipay page pay). */
  createOrder(order: {
    outTradeNo: string;
    amountFen: number;
    description: string;
    expiresAt: Date;
    notifyUrl: string;
    /** Where a redirect returns the payer. */
    returnUrl: string;
    now: Date;
  }): Promise<CreatedPayment>;
  /**
   * Verifies a notification (signature with the provider's key, serial, time window, app)
   * and reads the payment it reports; NotificationRejected otherwise. The amount is the
   * provider's: the caller compares it with the one it created.
   */
  verifyNotification(request: NotificationRequest, now: Date): ProviderPayment;
  /** The answers the provider expects: received (stop sending) and refused (send again later). */
  ack(ok: boolean, message?: string): NotificationAck;
  query(outTradeNo: string, now: Date): Promise<ProviderPayment>;
  /** Closes an unpaid order at the provider (an order the provider never created counts as closed). */
  close(outTradeNo: string, now: Date): Promise<void>;
  refund(
    refund: { outTradeNo: string; refundNo: string; amountFen: number; totalFen: number; reason: string },
    now: Date,
  ): Promise<ProviderRefund>;
}

/** A PEM private key (PKCS#8 or, from bare base64 that is not PKCS#8, PKCS#1). */
export function privateKeyOf(pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch (error) {
    const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    try {
      return createPrivateKey({ key: Buffer.from(body, 'base64'), format: 'der', type: 'pkcs1' });
    } catch {
      throw error;
    }
  }
}

/** A PEM public key or certificate. */
export function publicKeyOf(pem: string): KeyObject {
  return createPublicKey(pem);
}

/** fetch with a deadline; network failures become ProviderError. */
export async function providerFetch(url: string, init: RequestInit, timeoutMs = 10_000): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new ProviderError(`cannot reach ${new URL(url).host}: ${(error as Error).message}`);
  }
}

/** An instant as Beijing time: RFC 3339 with +08:00 ('2026-11-28T10:00:00+08:00'). */
export function beijingRfc3339(at: Date): string {
  return `${new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
}

/** An instant as Alipay's 'yyyy-MM-dd HH:mm:ss' in Beijing time. */
export function beijingDateTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}
