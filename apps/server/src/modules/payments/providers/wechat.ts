import { createDecipheriv, createSign, createVerify, type KeyObject, randomBytes } from 'node:crypto';
import { CURRENCY } from '@marquee/protocol';
import type { WechatPayConfig } from '../../../config.js';
import {
  beijingRfc3339,
  type CreatedPayment,
  type NotificationAck,
  NotificationRejected,
  type NotificationRequest,
  type PaymentProvider,
  ProviderError,
  type ProviderPayment,
  type ProviderRefund,
  privateKeyOf,
  providerFetch,
  publicKeyOf,
} from './types.js';

/**
 * WeChat Pay API v3 (pay.weixin.qq.com/doc/v3/merchant): native pay (a code_url shown as a
 * QR code), query and close by out_trade_no, refunds. Every request is signed with the
 * merchant's API key (WECHATPAY2-SHA256-RSA2048 over method, path, timestamp, nonce and
 * body); every answer and notification is verified with WeChat Pay's public key (or platform
 * certificate) named by its serial, and a notification's resource is decrypted with the
 * APIv3 key (AEAD_AES_256_GCM).
 */

/** How far a signed timestamp may be from our clock (WeChat Pay's SDKs allow 5 minutes). */
export const WECHAT_TIMESTAMP_WINDOW_S = 300;

const header = (headers: NotificationRequest['headers'], name: string): string => {
  const value = headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/** The transaction of a query answer or a decrypted notification resource. */
interface WechatTransaction {
  appid?: string;
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; payer_total?: number; currency?: string };
}

export class WechatPayProvider implements PaymentProvider {
  readonly method = 'wechat' as const;
  private readonly privateKey: KeyObject;
  private readonly platformKey: KeyObject;

  constructor(private readonly config: WechatPayConfig) {
    this.privateKey = privateKeyOf(config.privateKey);
    this.platformKey = publicKeyOf(config.platformPublicKey);
  }

  /** The Authorization header of a request (the merchant's signature). */
  authorization(method: string, pathAndQuery: string, body: string, now: Date): string {
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const signature = createSign('RSA-SHA256')
      .update(`${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`)
      .sign(this.privateKey, 'base64');
    return (
      `WECHATPAY2-SHA256-RSA2048 mchid="${this.config.mchId}",nonce_str="${nonce}",` +
      `signature="${signature}",timestamp="${timestamp}",serial_no="${this.config.serialNo}"`
    );
  }

  /** Verifies the Wechatpay-* signature headers of an answer or a notification; the reason when it fails. */
  private signatureProblem(headers: NotificationRequest['headers'], body: string, now: Date): string | null {
    const serial = header(headers, 'wechatpay-serial');
    const timestamp = header(headers, 'wechatpay-timestamp');
    const nonce = header(headers, 'wechatpay-nonce');
    const signature = header(headers, 'wechatpay-signature');
    if (!serial || !timestamp || !nonce || !signature) return 'signature headers missing';
    if (serial !== this.config.platformSerial) return `unknown serial ${serial.slice(0, 64)}`;
    const at = Number(timestamp);
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now.getTime() / 1000 - at) > WECHAT_TIMESTAMP_WINDOW_S) {
      return 'timestamp outside the window';
    }
    let valid = false;
    try {
      valid = createVerify('RSA-SHA256')
        .update(`${timestamp}\n${nonce}\n${body}\n`)
        .verify(this.platformKey, signature, 'base64');
    } catch {
      valid = false;
    }
    return valid ? null : 'signature invalid';
  }

  /** One signed call; the parsed JSON of a verified 2xx answer (null for 204), ProviderError otherwise. */
  private async call(
    method: 'GET' | 'POST',
    pathAndQuery: string,
    payload: unknown,
    now: Date,
    accept: (status: number, answer: { code?: string; message?: string }) => boolean = () => false,
  ): Promise<{ status: number; json: Record<string, unknown> | null }> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const response = await providerFetch(`${this.config.baseUrl}${pathAndQuery}`, {
      method,
      headers: {
        authorization: this.authorization(method, pathAndQuery, body, now),
        accept: 'application/json',
        'user-agent': 'marquee-payments',
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: payload === undefined ? undefined : body,
    });
    const text = await response.text();
    let json: Record<string, unknown> | null = null;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      json = null;
    }
    if (response.status >= 200 && response.status < 300) {
      const headers = Object.fromEntries(response.headers.entries());
      const problem = this.signatureProblem(headers, text, now);
      if (problem) throw new ProviderError(`WeChat Pay answer not verified: ${problem}`, 'ANSWER_NOT_VERIFIED');
      return { status: response.status, json };
    }
    const answer = (json ?? {}) as { code?: string; message?: string };
    if (accept(response.status, answer)) return { status: response.status, json };
    throw new ProviderError(
      `WeChat Pay ${method} ${pathAndQuery.split('?')[0]}: HTTP ${response.status} ${answer.code ?? ''} ${answer.message ?? ''}`.trim(),
      answer.code ?? `HTTP_${response.status}`,
    );
  }

  async createOrder(order: Parameters<PaymentProvider['createOrder']>[0]): Promise<CreatedPayment> {
    const { json } = await this.call(
      'POST',
      '/v3/pay/transactions/native',
      {
        appid: this.config.appId,
        mchid: this.config.mchId,
        description: order.description.slice(0, 127),
        out_trade_no: order.outTradeNo,
        time_expire: beijingRfc3339(order.expiresAt),
        notify_url: order.notifyUrl,
        amount: { total: order.amountFen, currency: CURRENCY },
      },
      order.now,
    );
    const codeUrl = json?.code_url;
    if (typeof codeUrl !== 'string' || !codeUrl) throw new ProviderError('WeChat Pay answered no code_url');
    return { qrCode: codeUrl, redirectUrl: null };
  }

  private paymentOf(tx: WechatTransaction, outTradeNo: string): ProviderPayment {
    const state = tx.trade_state ?? 'UNKNOWN';
    // REFUND: it was paid (then refunded): the money arrived.
    const paid = state === 'SUCCESS' || state === 'REFUND';
    const total = tx.amount?.total;
    return {
      outTradeNo: tx.out_trade_no ?? outTradeNo,
      tradeNo: tx.transaction_id ?? null,
      amountFen: paid && Number.isSafeInteger(total) ? (total as number) : null,
      paid,
      state,
      closed: state === 'CLOSED' || state === 'REVOKED' || state === 'PAYERROR',
    };
  }

  verifyNotification(request: NotificationRequest, now: Date): ProviderPayment {
    const problem = this.signatureProblem(request.headers, request.body, now);
    if (problem) throw new NotificationRejected(problem);
    let resource: { algorithm?: string; ciphertext?: string; associated_data?: string; nonce?: string };
    try {
      resource = (JSON.parse(request.body) as { resource?: typeof resource }).resource ?? {};
    } catch {
      throw new NotificationRejected('body is not JSON');
    }
    if (resource.algorithm !== 'AEAD_AES_256_GCM' || !resource.ciphertext || !resource.nonce) {
      throw new NotificationRejected('resource is not AEAD_AES_256_GCM');
    }
    const tx = this.decrypt(resource.ciphertext, resource.nonce, resource.associated_data ?? '');
    if (tx.mchid !== this.config.mchId || tx.appid !== this.config.appId) {
      throw new NotificationRejected('notification of another merchant or app');
    }
    if (!tx.out_trade_no) throw new NotificationRejected('no out_trade_no');
    return this.paymentOf(tx, tx.out_trade_no);
  }

  /** Decrypts a notification resource with the APIv3 key (the tag is the ciphertext's last 16 bytes). */
  private decrypt(ciphertext: string, nonce: string, associatedData: string): WechatTransaction {
    try {
      const data = Buffer.from(ciphertext, 'base64');
      if (data.length < 17) throw new Error('short');
      const decipher = createDecipheriv('aes-256-gcm', Buffer.from(this.config.apiV3Key, 'utf8'), Buffer.from(nonce));
      decipher.setAuthTag(data.subarray(data.length - 16));
      decipher.setAAD(Buffer.from(associatedData));
      const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as WechatTransaction;
    } catch {
      throw new NotificationRejected('resource does not decrypt');
    }
  }

  ack(ok: boolean, message = 'refused'): NotificationAck {
    return ok
      ? { status: 200, contentType: 'application/json', body: '' }
      : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message }) };
  }

  async query(outTradeNo: string, now: Date): Promise<ProviderPayment> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(this.config.mchId)}`;
    const { json } = await this.call(
      'GET',
      path,
      undefined,
      now,
      (status, a) => status === 404 && a.code === 'ORDER_NOT_EXIST',
    );
    if (!json || !('trade_state' in json)) {
      return { outTradeNo, tradeNo: null, amountFen: null, paid: false, state: 'ORDER_NOT_EXIST', closed: false };
    }
    const tx = json as WechatTransaction;
    if (tx.mchid !== undefined && tx.mchid !== this.config.mchId)
      throw new ProviderError('WeChat Pay answered another merchant');
    return this.paymentOf(tx, outTradeNo);
  }

  async close(outTradeNo: string, now: Date): Promise<void> {
    await this.call(
      'POST',
      `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`,
      { mchid: this.config.mchId },
      now,
      (status, a) => status === 404 && a.code === 'ORDER_NOT_EXIST',
    );
  }

  async refund(refund: Parameters<PaymentProvider['refund']>[0], now: Date): Promise<ProviderRefund> {
    const { json } = await this.call(
      'POST',
      '/v3/refund/domestic/refunds',
      {
        out_trade_no: refund.outTradeNo,
        out_refund_no: refund.refundNo,
        reason: refund.reason.slice(0, 80),
        amount: { refund: refund.amountFen, total: refund.totalFen, currency: CURRENCY },
      },
      now,
    );
    const status = String(json?.status ?? '');
    return {
      refundNo: refund.refundNo,
      providerRefundNo: typeof json?.refund_id === 'string' ? json.refund_id : null,
      state: status === 'SUCCESS' ? 'success' : status === 'PROCESSING' ? 'processing' : 'failed',
    };
  }
}
