import {
  createCipheriv,
  createSign,
  createVerify,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fenToYuan, yuanToFen } from '@marquee/protocol';
import type { AlipayConfig, WechatPayConfig } from '../../src/config.js';

/**
 * Local stand-ins for WeChat Pay API v3 and Alipay's gateway (issue 26), speaking each
 * provider's documented protocol with keys the test makes (generateKeyPairSync): they check
 * the merchant's signatures on every request, sign every answer with the provider's key, and
 * build notifications as the provider sends them (signed, WeChat's resource encrypted with
 * the APIv3 key). A test pays an order "at the provider" with pay(), then delivers the
 * notification to the app (or not, to test the query paths), genuine or tampered.
 */

const pem = (key: KeyObject, type: 'pkcs8' | 'spki') =>
  key.export({ format: 'pem', type } as never) as unknown as string;

function rsaPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicKey };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A notification as the provider would POST it. */
export interface FakeNotification {
  headers: Record<string, string>;
  body: string;
}

// ---------------------------------------------------------------- WeChat Pay API v3

interface WechatOrder {
  outTradeNo: string;
  total: number;
  description: string;
  notifyUrl: string;
  timeExpire: string;
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
  transactionId: string | null;
  paidTotal: number | null;
}

export class FakeWechatPay {
  readonly mchId = '1900000109';
  readonly appId = 'wxd678efh567hg6787';
  readonly serialNo = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
  readonly platformSerial = 'PUB_KEY_ID_0114232134912410000000000000';
  readonly apiV3Key = randomBytes(16).toString('hex');
  private readonly merchant = rsaPair();
  private readonly platform = rsaPair();
  /** A key that is not WeChat Pay's (forged notifications). */
  readonly forger = rsaPair();
  readonly orders = new Map<string, WechatOrder>();
  /** Requests whose merchant signature did not verify. */
  readonly badRequests: string[] = [];
  readonly requests: { method: string; path: string }[] = [];
  private server: Server | null = null;
  baseUrl = '';
  /** The provider's clock (tests hand it the app's, so signed timestamps follow moved time). */
  now: () => number = Date.now;

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.baseUrl = await listen(this.server);
    return this;
  }

  stop(): Promise<void> {
    return this.server ? close(this.server) : Promise.resolve();
  }

  /** Lets the test process exit with the server still listening (a fixture shared by a file). */
  unref(): this {
    this.server?.unref();
    return this;
  }

  config(): WechatPayConfig {
    return {
      mchId: this.mchId,
      appId: this.appId,
      serialNo: this.serialNo,
      privateKey: pem(this.merchant.privateKey, 'pkcs8'),
      platformPublicKey: pem(this.platform.publicKey, 'spki'),
      platformSerial: this.platformSerial,
      apiV3Key: this.apiV3Key,
      baseUrl: this.baseUrl,
    };
  }

  /** The Wechatpay-* headers of `body` signed with `key` (default WeChat Pay's). */
  signHeaders(body: string, options: { key?: KeyObject; serial?: string; timestamp?: number } = {}) {
    const timestamp = String(options.timestamp ?? Math.floor(this.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    const signature = createSign('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`)
      .sign(options.key ?? this.platform.privateKey, 'base64');
    return {
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-signature': signature,
      'wechatpay-serial': options.serial ?? this.platformSerial,
    };
  }

  private send(res: ServerResponse, status: number, payload: unknown) {
    const body = payload === null ? '' : JSON.stringify(payload);
    const headers: Record<string, string> = { ...this.signHeaders(body), 'request-id': randomUUID() };
    if (body) headers['content-type'] = 'application/json';
    res.writeHead(status, headers);
    res.end(body);
  }

  private verifyAuthorization(req: IncomingMessage, path: string, body: string): boolean {
    const auth = String(req.headers.authorization ?? '');
    const match = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(auth);
    if (!match) return false;
    const fields = Object.fromEntries(
      [...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as [string, string]),
    );
    if (fields.mchid !== this.mchId || fields.serial_no !== this.serialNo) return false;
    return createVerify('RSA-SHA256')
      .update(`${req.method}\n${path}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`)
      .verify(this.merchant.publicKey, fields.signature ?? '', 'base64');
  }

  private transaction(order: WechatOrder) {
    return {
      appid: this.appId,
      mchid: this.mchId,
      out_trade_no: order.outTradeNo,
      transaction_id: order.transactionId ?? undefined,
      trade_type: 'NATIVE',
      trade_state: order.state,
      trade_state_desc: order.state,
      success_time: order.state === 'SUCCESS' ? new Date().toISOString() : undefined,
      payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
      amount: {
        total: order.paidTotal ?? order.total,
        payer_total: order.paidTotal ?? order.total,
        currency: 'CNY',
        payer_currency: 'CNY',
      },
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const path = req.url ?? '/';
    const body = await readBody(req);
    this.requests.push({ method: req.method ?? '', path });
    if (!this.verifyAuthorization(req, path, body)) {
      this.badRequests.push(path);
      return this.send(res, 401, { code: 'SIGN_ERROR', message: 'signature verification failed' });
    }
    const url = new URL(path, 'http://x');
    if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/native') {
      const input = JSON.parse(body) as {
        appid: string;
        mchid: string;
        out_trade_no: string;
        description: string;
        notify_url: string;
        time_expire: string;
        amount: { total: number };
      };
      if (input.appid !== this.appId || input.mchid !== this.mchId) {
        return this.send(res, 400, { code: 'PARAM_ERROR', message: 'appid or mchid' });
      }
      if (this.orders.has(input.out_trade_no)) {
        return this.send(res, 400, { code: 'ORDERNO_USED', message: 'out_trade_no used' });
      }
      this.orders.set(input.out_trade_no, {
        outTradeNo: input.out_trade_no,
        total: input.amount.total,
        description: input.description,
        notifyUrl: input.notify_url,
        timeExpire: input.time_expire,
        state: 'NOTPAY',
        transactionId: null,
        paidTotal: null,
      });
      return this.send(res, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(5).toString('hex')}` });
    }
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && query) {
      if (url.searchParams.get('mchid') !== this.mchId)
        return this.send(res, 400, { code: 'PARAM_ERROR', message: 'mchid' });
      const order = this.orders.get(decodeURIComponent(query[1]));
      if (!order) return this.send(res, 404, { code: 'ORDER_NOT_EXIST', message: 'order does not exist' });
      return this.send(res, 200, this.transaction(order));
    }
    const closing = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(url.pathname);
    if (req.method === 'POST' && closing) {
      const order = this.orders.get(decodeURIComponent(closing[1]));
      if (!order) return this.send(res, 404, { code: 'ORDER_NOT_EXIST', message: 'order does not exist' });
      if (order.state === 'SUCCESS') return this.send(res, 400, { code: 'ORDERPAID', message: 'order paid' });
      order.state = 'CLOSED';
      return this.send(res, 204, null);
    }
    if (req.method === 'POST' && url.pathname === '/v3/refund/domestic/refunds') {
      const input = JSON.parse(body) as { out_trade_no: string; out_refund_no: string; amount: { refund: number } };
      const order = this.orders.get(input.out_trade_no);
      if (order?.state !== 'SUCCESS') return this.send(res, 400, { code: 'INVALID_REQUEST', message: 'not paid' });
      return this.send(res, 200, {
        refund_id: `50000${randomBytes(6).toString('hex')}`,
        out_refund_no: input.out_refund_no,
        status: 'SUCCESS',
        amount: { refund: input.amount.refund, total: order.total, currency: 'CNY' },
      });
    }
    return this.send(res, 404, { code: 'NOT_FOUND', message: 'no such API' });
  }

  /** The payer pays (optionally another amount than the order's, which a real provider never reports). */
  pay(outTradeNo: string, options: { paidTotal?: number; evenIfClosed?: boolean } = {}): WechatOrder {
    const order = this.orders.get(outTradeNo);
    if (!order) throw new Error(`no WeChat order ${outTradeNo}`);
    if (order.state !== 'NOTPAY' && !options.evenIfClosed)
      throw new Error(`WeChat order ${outTradeNo} is ${order.state}`);
    order.state = 'SUCCESS';
    order.transactionId = `4200000${randomBytes(8).toString('hex')}`;
    order.paidTotal = options.paidTotal ?? order.total;
    return order;
  }

  /** The TRANSACTION.SUCCESS notification of a paid order, as WeChat Pay POSTs it (or tampered). */
  notification(
    outTradeNo: string,
    options: {
      key?: KeyObject;
      serial?: string;
      timestamp?: number;
      apiV3Key?: string;
      transaction?: Record<string, unknown>;
    } = {},
  ): FakeNotification {
    const order = this.orders.get(outTradeNo);
    const tx = options.transaction ?? (order ? this.transaction(order) : { out_trade_no: outTradeNo });
    const nonce = randomBytes(6).toString('hex');
    const associatedData = 'transaction';
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(options.apiV3Key ?? this.apiV3Key), Buffer.from(nonce));
    cipher.setAAD(Buffer.from(associatedData));
    const encrypted = Buffer.concat([cipher.update(JSON.stringify(tx), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const body = JSON.stringify({
      id: randomUUID(),
      create_time: new Date().toISOString(),
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: {
        original_type: 'transaction',
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: encrypted.toString('base64'),
        associated_data: associatedData,
        nonce,
      },
    });
    return {
      headers: { 'content-type': 'application/json', ...this.signHeaders(body, options) },
      body,
    };
  }
}

// ---------------------------------------------------------------- Alipay

interface AlipayTrade {
  outTradeNo: string;
  totalAmount: string;
  subject: string;
  notifyUrl: string;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED' | 'TRADE_FINISHED';
  tradeNo: string;
  paidAmount: string | null;
}

/** Alipay's RSA2 sign content: the parameters but `exclude`, non-empty, sorted, `k=v` joined by `&`. */
function signContent(params: Record<string, string>, exclude: readonly string[]): string {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

export class FakeAlipay {
  readonly appId = '2021000000000001';
  readonly sellerId = '2088000000000001';
  private readonly app = rsaPair();
  private readonly alipay = rsaPair();
  readonly forger = rsaPair();
  readonly trades = new Map<string, AlipayTrade>();
  readonly badRequests: string[] = [];
  readonly requests: string[] = [];
  private server: Server | null = null;
  gateway = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.gateway = `${await listen(this.server)}/gateway.do`;
    return this;
  }

  stop(): Promise<void> {
    return this.server ? close(this.server) : Promise.resolve();
  }

  config(mode: 'page' | 'qr' = 'page'): AlipayConfig {
    return {
      appId: this.appId,
      privateKey: pem(this.app.privateKey, 'pkcs8'),
      alipayPublicKey: pem(this.alipay.publicKey, 'spki'),
      gateway: this.gateway,
      mode,
    };
  }

  private sign(content: string, key: KeyObject = this.alipay.privateKey): string {
    return createSign('RSA-SHA256').update(content, 'utf8').sign(key, 'base64');
  }

  private answer(res: ServerResponse, method: string, node: Record<string, unknown>) {
    const json = JSON.stringify(node);
    const name = `${method.replace(/\./g, '_')}_response`;
    res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
    res.end(`{"${name}":${json},"sign":"${this.sign(json)}"}`);
  }

  private verified(params: Record<string, string>): boolean {
    if (params.app_id !== this.appId || params.sign_type !== 'RSA2' || !params.sign) return false;
    return createVerify('RSA-SHA256')
      .update(signContent(params, ['sign']), 'utf8')
      .verify(this.app.publicKey, params.sign, 'base64');
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readBody(req);
    const form = req.method === 'GET' ? url.searchParams : new URLSearchParams(body);
    const params: Record<string, string> = {};
    for (const [k, v] of form) params[k] = v;
    const method = params.method ?? '';
    this.requests.push(method);
    if (!this.verified(params)) {
      this.badRequests.push(method);
      res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
      return res.end(
        JSON.stringify({
          error_response: { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature' },
        }),
      );
    }
    const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
    const trade = this.trades.get(biz.out_trade_no ?? '');
    const notExist = { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: '交易不存在' };
    switch (method) {
      case 'alipay.trade.page.pay': {
        // The payer opened the page: the trade exists from now on.
        if (!trade) this.trades.set(biz.out_trade_no, this.newTrade(biz, params));
        res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
        return res.end('<html><body>Alipay cashier</body></html>');
      }
      case 'alipay.trade.precreate': {
        if (trade)
          return this.answer(res, method, {
            code: '40004',
            msg: 'Business Failed',
            sub_code: 'ACQ.CONTEXT_INCONSISTENT',
          });
        this.trades.set(biz.out_trade_no, this.newTrade(biz, params));
        return this.answer(res, method, {
          code: '10000',
          msg: 'Success',
          out_trade_no: biz.out_trade_no,
          qr_code: `https://qr.alipay.com/${randomBytes(8).toString('hex')}`,
        });
      }
      case 'alipay.trade.query': {
        if (!trade) return this.answer(res, method, notExist);
        return this.answer(res, method, {
          code: '10000',
          msg: 'Success',
          trade_no: trade.tradeNo,
          out_trade_no: trade.outTradeNo,
          trade_status: trade.status,
          total_amount: trade.paidAmount ?? trade.totalAmount,
          buyer_logon_id: 'tes***@example.com',
        });
      }
      case 'alipay.trade.close': {
        if (!trade) return this.answer(res, method, notExist);
        if (trade.status !== 'WAIT_BUYER_PAY') {
          return this.answer(res, method, {
            code: '40004',
            msg: 'Business Failed',
            sub_code: 'ACQ.TRADE_STATUS_ERROR',
          });
        }
        trade.status = 'TRADE_CLOSED';
        return this.answer(res, method, {
          code: '10000',
          msg: 'Success',
          out_trade_no: trade.outTradeNo,
          trade_no: trade.tradeNo,
        });
      }
      case 'alipay.trade.refund': {
        if (trade?.status !== 'TRADE_SUCCESS') return this.answer(res, method, notExist);
        return this.answer(res, method, {
          code: '10000',
          msg: 'Success',
          trade_no: trade.tradeNo,
          out_trade_no: trade.outTradeNo,
          refund_fee: biz.refund_amount,
          fund_change: 'Y',
        });
      }
      default:
        return this.answer(res, method, { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method' });
    }
  }

  private newTrade(biz: Record<string, string>, params: Record<string, string>): AlipayTrade {
    return {
      outTradeNo: biz.out_trade_no,
      totalAmount: biz.total_amount,
      subject: biz.subject,
      notifyUrl: params.notify_url ?? '',
      status: 'WAIT_BUYER_PAY',
      tradeNo: `2026112822001${randomBytes(6).toString('hex')}`,
      paidAmount: null,
    };
  }

  /** The payer opens a page-pay URL (the app's redirectUrl): Alipay's cashier page; the trade exists. */
  async open(redirectUrl: string): Promise<number> {
    const response = await fetch(redirectUrl);
    await response.text();
    return response.status;
  }

  pay(outTradeNo: string, options: { paidFen?: number; evenIfClosed?: boolean } = {}): AlipayTrade {
    const trade = this.trades.get(outTradeNo);
    if (!trade) throw new Error(`no Alipay trade ${outTradeNo}`);
    if (trade.status !== 'WAIT_BUYER_PAY' && !options.evenIfClosed) throw new Error(`Alipay trade is ${trade.status}`);
    trade.status = 'TRADE_SUCCESS';
    trade.paidAmount = options.paidFen === undefined ? trade.totalAmount : fenToYuan(options.paidFen);
    return trade;
  }

  /** The trade_status_sync notification as Alipay POSTs it (form encoded, RSA2 signed), or tampered. */
  notification(
    outTradeNo: string,
    options: { key?: KeyObject; fields?: Record<string, string>; appId?: string } = {},
  ): FakeNotification {
    const trade = this.trades.get(outTradeNo);
    const amount = trade?.paidAmount ?? trade?.totalAmount ?? '0.01';
    const params: Record<string, string> = {
      notify_time: '2026-11-28 10:00:00',
      notify_type: 'trade_status_sync',
      notify_id: randomBytes(16).toString('hex'),
      app_id: options.appId ?? this.appId,
      charset: 'utf-8',
      version: '1.0',
      sign_type: 'RSA2',
      trade_no: trade?.tradeNo ?? 'none',
      out_trade_no: outTradeNo,
      trade_status: trade?.status ?? 'TRADE_SUCCESS',
      total_amount: amount,
      receipt_amount: amount,
      buyer_pay_amount: amount,
      seller_id: this.sellerId,
      subject: trade?.subject ?? '',
      gmt_payment: '2026-11-28 10:00:00',
      ...options.fields,
    };
    params.sign = this.sign(signContent(params, ['sign', 'sign_type']), options.key);
    return {
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams(params).toString(),
    };
  }

  /** The fen of a trade's amount as Alipay holds it (yuan text). */
  static fen(yuan: string): number {
    const parsed = yuanToFen(yuan);
    if (!parsed.ok) throw new Error(`not an amount: ${yuan}`);
    return parsed.fen;
  }
}
