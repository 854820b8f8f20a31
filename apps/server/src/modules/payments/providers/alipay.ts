import { createSign, createVerify, type KeyObject } from 'node:crypto';
import { fenToYuan, yuanToFen } from '@marquee/protocol';
import type { AlipayConfig } from '../../../config.js';
import {
  beijingDateTime,
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
 * Alipay's open platform (opendocs.alipay.com): alipay.trade.page.pay (the payer is sent to
 * Alipay's page) or alipay.trade.precreate (a QR code), alipay.trade.query, .close, .refund.
 * Requests are signed RSA2 (SHA256withRSA over the parameters sorted by name, `k=v` joined
 * by `&`, without sign); answers are verified over their response node's exact text, and
 * asynchronous notifications over their sorted parameters (without sign and sign_type), with
 * Alipay's public key. A notification is answered 'success'.
 */

/** The text RSA2 signs: every non-empty parameter but `sign` (and `sign_type` for a notification), sorted. */
export function alipaySignContent(params: Record<string, string>, exclude: readonly string[] = ['sign']): string {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

/** The text of `node`'s value in an answer, exactly as sent (what Alipay signed). */
export function alipayNodeText(body: string, node: string): string | null {
  const key = `"${node}"`;
  const at = body.indexOf(key);
  if (at < 0) return null;
  let start = body.indexOf(':', at + key.length) + 1;
  while (/\s/.test(body[start] ?? '')) start++;
  const signAt = body.lastIndexOf('"sign"');
  let end = signAt > start ? body.lastIndexOf(',', signAt) : body.lastIndexOf('}');
  while (end > start && /\s/.test(body[end - 1])) end--;
  return body.slice(start, end);
}

interface AlipayAnswer {
  code?: string;
  msg?: string;
  sub_code?: string;
  sub_msg?: string;
  [field: string]: unknown;
}

const NOT_EXIST = 'ACQ.TRADE_NOT_EXIST';

export class AlipayProvider implements PaymentProvider {
  readonly method = 'alipay' as const;
  private readonly privateKey: KeyObject;
  private readonly alipayKey: KeyObject;

  constructor(private readonly config: AlipayConfig) {
    this.privateKey = privateKeyOf(config.privateKey);
    this.alipayKey = publicKeyOf(config.alipayPublicKey);
  }

  /** The common parameters of a method, with biz_content, signed. */
  signedParams(method: string, biz: Record<string, unknown>, now: Date, extra: Record<string, string> = {}) {
    const params: Record<string, string> = {
      app_id: this.config.appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: beijingDateTime(now),
      version: '1.0',
      ...extra,
      biz_content: JSON.stringify(biz),
    };
    params.sign = createSign('RSA-SHA256').update(alipaySignContent(params), 'utf8').sign(this.privateKey, 'base64');
    return params;
  }

  private verifies(content: string, signature: string): boolean {
    try {
      return createVerify('RSA-SHA256').update(content, 'utf8').verify(this.alipayKey, signature, 'base64');
    } catch {
      return false;
    }
  }

  /** Calls a method; its verified response node (a code other than 10000 is the caller's to read). */
  private async call(
    method: string,
    biz: Record<string, unknown>,
    now: Date,
    extra: Record<string, string> = {},
  ): Promise<AlipayAnswer> {
    const params = this.signedParams(method, biz, now, extra);
    const response = await providerFetch(this.config.gateway, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', 'user-agent': 'marquee-payments' },
      body: new URLSearchParams(params).toString(),
    });
    const body = await response.text();
    if (response.status !== 200) throw new ProviderError(`Alipay ${method}: HTTP ${response.status}`);
    const node = `${method.replace(/\./g, '_')}_response`;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      throw new ProviderError(`Alipay ${method}: the answer is not JSON`);
    }
    const answer = (parsed[node] ?? parsed.error_response) as AlipayAnswer | undefined;
    if (!answer || typeof answer !== 'object') throw new ProviderError(`Alipay ${method}: no ${node}`);
    const sign = typeof parsed.sign === 'string' ? parsed.sign : '';
    const text = alipayNodeText(body, parsed[node] ? node : 'error_response');
    const verified = sign !== '' && text !== null && this.verifies(text, sign);
    // An error answer may come unsigned (a refused request); a success must be Alipay's.
    if (!verified && (answer.code === '10000' || sign !== '')) {
      throw new ProviderError(`Alipay ${method}: answer not verified`, 'ANSWER_NOT_VERIFIED');
    }
    return answer;
  }

  private failure(method: string, answer: AlipayAnswer): ProviderError {
    return new ProviderError(
      `Alipay ${method}: ${answer.code ?? ''} ${answer.sub_code ?? answer.msg ?? ''} ${answer.sub_msg ?? ''}`.trim(),
      answer.sub_code ?? answer.code ?? null,
    );
  }

  async createOrder(order: Parameters<PaymentProvider['createOrder']>[0]): Promise<CreatedPayment> {
    const subject = order.description.slice(0, 256);
    const totalAmount = fenToYuan(order.amountFen);
    if (this.config.mode === 'qr') {
      const minutes = Math.max(1, Math.floor((order.expiresAt.getTime() - order.now.getTime()) / 60_000));
      const answer = await this.call(
        'alipay.trade.precreate',
        { out_trade_no: order.outTradeNo, total_amount: totalAmount, subject, timeout_express: `${minutes}m` },
        order.now,
        { notify_url: order.notifyUrl },
      );
      if (answer.code !== '10000' || typeof answer.qr_code !== 'string') throw this.failure('precreate', answer);
      return { qrCode: answer.qr_code, redirectUrl: null };
    }
    // Page pay: the signed request itself is the page the payer opens (GET on the gateway).
    const params = this.signedParams(
      'alipay.trade.page.pay',
      {
        out_trade_no: order.outTradeNo,
        total_amount: totalAmount,
        subject,
        product_code: 'FAST_INSTANT_TRADE_PAY',
        time_expire: beijingDateTime(order.expiresAt),
      },
      order.now,
      { notify_url: order.notifyUrl, return_url: order.returnUrl },
    );
    return { qrCode: null, redirectUrl: `${this.config.gateway}?${new URLSearchParams(params).toString()}` };
  }

  private paymentOf(fields: Record<string, unknown>, outTradeNo: string): ProviderPayment {
    const state = String(fields.trade_status ?? 'UNKNOWN');
    const paid = state === 'TRADE_SUCCESS' || state === 'TRADE_FINISHED';
    const amount = yuanToFen(String(fields.total_amount ?? ''));
    return {
      outTradeNo: typeof fields.out_trade_no === 'string' ? fields.out_trade_no : outTradeNo,
      tradeNo: typeof fields.trade_no === 'string' && fields.trade_no ? fields.trade_no : null,
      amountFen: paid && amount.ok ? amount.fen : null,
      paid,
      state,
      closed: state === 'TRADE_CLOSED',
    };
  }

  verifyNotification(request: NotificationRequest, _now: Date): ProviderPayment {
    const form = new URLSearchParams(request.body);
    const params: Record<string, string> = {};
    for (const [k, v] of form) params[k] = v;
    if (!params.sign) throw new NotificationRejected('no sign');
    if (params.sign_type && params.sign_type !== 'RSA2') throw new NotificationRejected('sign_type is not RSA2');
    if (!this.verifies(alipaySignContent(params, ['sign', 'sign_type']), params.sign)) {
      throw new NotificationRejected('signature invalid');
    }
    if (params.app_id !== this.config.appId) throw new NotificationRejected('notification of another app');
    if (!params.out_trade_no) throw new NotificationRejected('no out_trade_no');
    return this.paymentOf(params, params.out_trade_no);
  }

  ack(ok: boolean): NotificationAck {
    return ok
      ? { status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' }
      : { status: 400, contentType: 'text/plain; charset=utf-8', body: 'fail' };
  }

  async query(outTradeNo: string, now: Date): Promise<ProviderPayment> {
    const answer = await this.call('alipay.trade.query', { out_trade_no: outTradeNo }, now);
    if (answer.code === '40004' && answer.sub_code === NOT_EXIST) {
      // Page pay: Alipay creates the trade once the payer opens it.
      return { outTradeNo, tradeNo: null, amountFen: null, paid: false, state: NOT_EXIST, closed: false };
    }
    if (answer.code !== '10000') throw this.failure('query', answer);
    return this.paymentOf(answer, outTradeNo);
  }

  async close(outTradeNo: string, now: Date): Promise<void> {
    const answer = await this.call('alipay.trade.close', { out_trade_no: outTradeNo }, now);
    if (answer.code === '10000') return;
    if (answer.code === '40004' && answer.sub_code === NOT_EXIST) return;
    throw this.failure('close', answer);
  }

  async refund(refund: Parameters<PaymentProvider['refund']>[0], now: Date): Promise<ProviderRefund> {
    const answer = await this.call(
      'alipay.trade.refund',
      {
        out_trade_no: refund.outTradeNo,
        refund_amount: fenToYuan(refund.amountFen),
        out_request_no: refund.refundNo,
        refund_reason: refund.reason.slice(0, 256),
      },
      now,
    );
    if (answer.code !== '10000') return { refundNo: refund.refundNo, providerRefundNo: null, state: 'failed' };
    return {
      refundNo: refund.refundNo,
      providerRefundNo: typeof answer.trade_no === 'string' ? answer.trade_no : null,
      state: answer.fund_change === 'Y' ? 'success' : 'processing',
    };
  }
}
