import { Writable } from 'node:stream';
import { ENDPOINT_LIST, ErrorCode, endpoints } from '@marquee/protocol';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS } from '../../src/app.js';
import type { PaymentsConfig } from '../../src/config.js';
import { ledgerAccounts, ledgerTransfers, payAttempts, payOrders } from '../../src/db/schema/index.js';
import { createLogger } from '../../src/logger.js';
import { accountBalances, ensureEnterpriseWallet } from '../../src/modules/ledger/accounts.js';
import { queryOpenAttempts } from '../../src/modules/payments/attempts.js';
import { providerFor } from '../../src/modules/payments/providers/index.js';
import { nextOrderNo } from '../../src/modules/payments/settle.js';
import { defineHandler, type Handler } from '../../src/protocol/handlers.js';
import {
  type ApiClient,
  BACKENDS,
  type Backend,
  createTestApp,
  MINUTE,
  type TestApp,
  type TestAppOptions,
} from '../helpers/index.js';
import { FakeAlipay, type FakeNotification, FakeWechatPay } from '../helpers/payProviders.js';

/**
 * Issue 26: provider payments against local servers that speak WeChat Pay API v3 and
 * Alipay's gateway with keys the test makes. A started payment paid by a verified
 * notification credits the wallet exactly once; forged, wrong-serial, replayed, reordered,
 * late and mismatched notifications are refused or absorbed.
 */

class Capture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.lines.push(chunk.toString('utf8'));
    done();
  }
  has(message: string) {
    return this.lines.some((l) => l.includes(message));
  }
}

/** The app with every catalogue endpoint answerable (parts of issue 26 built beside this one get a stub). */
function appWith(backend: Backend, options: TestAppOptions): Promise<TestApp> {
  const stubs: Handler[] = ENDPOINT_LIST.filter((def) => !HANDLERS.some((h) => h.def === def)).map((def) =>
    defineHandler(def, {
      handle: () => {
        throw new Error(`${def.name} is not built yet`);
      },
    } as never),
  );
  return createTestApp(backend, { ...options, extraEndpoints: [...(options.extraEndpoints ?? []), ...stubs] });
}

describe.each(BACKENDS)('payment providers (%s)', (backend) => {
  let t: TestApp;
  let wechat: FakeWechatPay;
  let alipay: FakeAlipay;
  let client: ApiClient;
  let entId: string;
  let adminId: string;
  let wallet: string;
  const log = new Capture();

  beforeAll(async () => {
    wechat = await new FakeWechatPay().start();
    alipay = await new FakeAlipay().start();
    const payments: PaymentsConfig = {
      notifyBaseUrl: 'https://marquee.example.com',
      returnBaseUrl: 'https://marquee.example.com',
      wechat: wechat.config(),
      alipay: alipay.config('page'),
      offlineAccount: null,
    };
    t = await appWith(backend, { logger: createLogger('info', log), config: { payments } });
    wechat.now = t.clock.now;
    const tenant = await t.tenant();
    client = tenant.client;
    entId = tenant.ent.id;
    adminId = tenant.admin.id;
    wallet = await ensureEnterpriseWallet(t.db, entId);
  });
  afterAll(async () => {
    await t?.close();
    await wechat?.stop();
    await alipay?.stop();
  });

  /** An unpaid order of the tenant's wallet (a recharge expiring in 30 minutes, or a bill). */
  async function newOrder(amount: number, purpose: 'recharge' | 'bill' = 'recharge') {
    const now = new Date(t.clock.now());
    const [order] = await t.db
      .insert(payOrders)
      .values({
        no: await nextOrderNo(t.db, now),
        purpose,
        title: purpose === 'recharge' ? 'Wallet recharge' : 'Service fee',
        amount,
        state: 'unpaid',
        walletId: wallet,
        entId,
        createdBy: adminId,
        expiresAt: purpose === 'recharge' ? new Date(now.getTime() + 30 * MINUTE) : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return order;
  }

  const available = async () => (await accountBalances(t.db, [wallet])).get(wallet)?.available ?? 0;
  const orderState = async (id: string) =>
    (await t.db.select({ state: payOrders.state }).from(payOrders).where(eq(payOrders.id, id)))[0].state;
  const attemptOf = async (orderId: string) =>
    (await t.db.select().from(payAttempts).where(eq(payAttempts.orderId, orderId))).at(-1);
  /** Transfers that credited the wallet for the order (arrivals). */
  const arrivals = async (orderId: string) =>
    Number(
      (
        await t.db
          .select({ n: count() })
          .from(ledgerTransfers)
          .where(
            and(
              eq(ledgerTransfers.causeType, 'payOrder'),
              eq(ledgerTransfers.causeId, orderId),
              eq(ledgerTransfers.creditAccountId, wallet),
            ),
          )
      )[0].n,
    );
  const ledgerSum = async () => {
    const rows = await t.db
      .select({ c: ledgerAccounts.creditsPosted, d: ledgerAccounts.debitsPosted })
      .from(ledgerAccounts);
    return rows.reduce((s, r) => s + Number(r.c) - Number(r.d), 0);
  };
  const notify = (method: 'wechat' | 'alipay', n: FakeNotification) =>
    t.app.inject({ method: 'POST', url: `/api/pay/notify/${method}`, headers: n.headers, payload: n.body });
  const start = async (id: string, method: 'wechat' | 'alipay') => {
    const res = await client.call(endpoints.paymentStart, { id, method });
    return res.envelope;
  };
  const nowS = () => Math.floor(t.clock.now() / 1000);

  describe('WeChat Pay', () => {
    it('a started payment paid by a verified notification credits the wallet exactly once; a replay moves nothing', async () => {
      const before = await available();
      const order = await newOrder(12_345);
      const started = await start(order.id, 'wechat');
      expect(started.code).toBe(ErrorCode.OK);
      expect(started.payload?.qrCode).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
      expect(started.payload?.redirectUrl).toBeNull();
      const attempt = await attemptOf(order.id);
      expect(attempt?.state).toBe('created');
      const atProvider = wechat.orders.get(attempt?.outTradeNo ?? '');
      expect(atProvider?.total).toBe(12_345);
      expect(atProvider?.notifyUrl).toBe('https://marquee.example.com/api/pay/notify/wechat');
      expect(wechat.badRequests).toEqual([]);

      // Starting again reuses the open payment (the same QR code).
      const again = await start(order.id, 'wechat');
      expect(again.payload?.qrCode).toBe(started.payload?.qrCode);

      wechat.pay(attempt?.outTradeNo ?? '');
      const n = wechat.notification(attempt?.outTradeNo ?? '');
      const res = await notify('wechat', n);
      expect(res.statusCode).toBe(200);
      expect(await orderState(order.id)).toBe('paid');
      expect(await available()).toBe(before + 12_345);
      expect(await arrivals(order.id)).toBe(1);
      const [row] = await t.db.select().from(payOrders).where(eq(payOrders.id, order.id));
      expect(row.method).toBe('wechat');
      expect(row.providerTradeNo).toBe(wechat.orders.get(attempt?.outTradeNo ?? '')?.transactionId);

      // The same notification again, and a fresh one (WeChat's retry): acknowledged, nothing moves.
      expect((await notify('wechat', n)).statusCode).toBe(200);
      expect((await notify('wechat', wechat.notification(attempt?.outTradeNo ?? ''))).statusCode).toBe(200);
      expect(await available()).toBe(before + 12_345);
      expect(await arrivals(order.id)).toBe(1);
      expect(await ledgerSum()).toBe(0);

      // Paid: it cannot be started again.
      expect((await start(order.id, 'wechat')).code).toBe(ErrorCode.PAYMENT_NOT_PAYABLE);
    });

    it('refuses forged, wrong-serial, stale, tampered and undecryptable notifications; nothing moves', async () => {
      const before = await available();
      const order = await newOrder(500);
      await start(order.id, 'wechat');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      wechat.pay(no);
      const refused = [
        wechat.notification(no, { key: wechat.forger.privateKey }),
        wechat.notification(no, { serial: 'PUB_KEY_ID_SOMEONE_ELSE' }),
        wechat.notification(no, { timestamp: nowS() - 600 }),
        wechat.notification(no, { apiV3Key: 'x'.repeat(32) }),
      ];
      const genuine = wechat.notification(no);
      refused.push({
        headers: genuine.headers,
        body: genuine.body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.OTHER"'),
      });
      refused.push({ headers: { 'content-type': 'application/json' }, body: genuine.body });
      for (const n of refused) {
        const res = await notify('wechat', n);
        expect(res.statusCode).toBe(400);
        expect(JSON.parse(res.body).code).toBe('FAIL');
      }
      expect(log.has('payment notification refused')).toBe(true);
      expect(await orderState(order.id)).toBe('unpaid');
      expect(await available()).toBe(before);
      expect(await arrivals(order.id)).toBe(0);
      // The genuine one still pays it.
      expect((await notify('wechat', genuine)).statusCode).toBe(200);
      expect(await available()).toBe(before + 500);
    });

    it('reordered: a query before the notification settles it once; the notification after is acknowledged', async () => {
      const before = await available();
      const order = await newOrder(800, 'bill');
      await start(order.id, 'wechat');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      // Not paid yet: the query answers the unpaid order.
      const unpaid = await client.call(endpoints.paymentQuery, { id: order.id });
      expect(unpaid.envelope.payload?.state).toBe('unpaid');
      wechat.pay(no);
      const paid = await client.call(endpoints.paymentQuery, { id: order.id });
      expect(paid.envelope.code).toBe(ErrorCode.OK);
      expect(paid.envelope.payload?.state).toBe('paid');
      expect(paid.envelope.payload?.method).toBe('wechat');
      // A bill: the money arrived and went to the platform's revenue.
      expect(await available()).toBe(before);
      expect(await arrivals(order.id)).toBe(1);
      expect((await notify('wechat', wechat.notification(no))).statusCode).toBe(200);
      expect(await arrivals(order.id)).toBe(1);
      expect((await attemptOf(order.id))?.state).toBe('success');
      expect(await ledgerSum()).toBe(0);
    });

    it('a mismatched amount is refused and alarmed: the order stays unpaid, nothing is credited', async () => {
      const before = await available();
      const order = await newOrder(1_000);
      await start(order.id, 'wechat');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      wechat.pay(no, { paidTotal: 1 });
      const res = await notify('wechat', wechat.notification(no));
      expect(res.statusCode).toBe(400);
      expect(log.has('payment amount mismatch')).toBe(true);
      expect(await orderState(order.id)).toBe('unpaid');
      expect(await available()).toBe(before);
      expect((await attemptOf(order.id))?.state).toBe('failed');
      // The query path refuses it the same way.
      const queried = await client.call(endpoints.paymentQuery, { id: order.id });
      expect(queried.envelope.payload?.state).toBe('unpaid');
      expect(await available()).toBe(before);
    });

    it('a notification after the order was closed still lands in the wallet; the order stays closed', async () => {
      const before = await available();
      const order = await newOrder(2_000);
      await start(order.id, 'wechat');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      // The payer gave up (or the expiry job closed it) while the QR code was being paid.
      await t.db
        .update(payOrders)
        .set({ state: 'closed', closedAt: new Date(t.clock.now()) })
        .where(eq(payOrders.id, order.id));
      await t.db.update(payAttempts).set({ state: 'closed' }).where(eq(payAttempts.orderId, order.id));
      wechat.pay(no);
      expect((await notify('wechat', wechat.notification(no))).statusCode).toBe(200);
      expect(await orderState(order.id)).toBe('closed');
      expect(await available()).toBe(before + 2_000);
      expect(await arrivals(order.id)).toBe(1);
      expect(log.has('payment arrived for an order already paid or closed')).toBe(true);
      expect((await notify('wechat', wechat.notification(no))).statusCode).toBe(200);
      expect(await available()).toBe(before + 2_000);
      expect(await ledgerSum()).toBe(0);
    });

    it('the job settles a payment whose notification was lost, and closes expired ones at the provider; a late payment still lands', async () => {
      const before = await available();
      const lost = await newOrder(300);
      const expiring = await newOrder(400);
      await start(lost.id, 'wechat');
      await start(expiring.id, 'wechat');
      const lostNo = (await attemptOf(lost.id))?.outTradeNo ?? '';
      const expiringNo = (await attemptOf(expiring.id))?.outTradeNo ?? '';
      wechat.pay(lostNo);
      // Younger than a minute: not asked yet.
      expect((await queryOpenAttempts(t.services, t.app.log, new Date(t.clock.now()))).asked).toBe(0);
      t.clock.advance(2 * MINUTE);
      const first = await queryOpenAttempts(t.services, t.app.log, new Date(t.clock.now()));
      expect(first.settled).toBe(1);
      expect(await orderState(lost.id)).toBe('paid');
      expect(await available()).toBe(before + 300);
      // After the expiry: closed at WeChat Pay.
      t.clock.advance(30 * MINUTE);
      const second = await queryOpenAttempts(t.services, t.app.log, new Date(t.clock.now()));
      expect(second.closed).toBeGreaterThanOrEqual(1);
      expect(wechat.orders.get(expiringNo)?.state).toBe('CLOSED');
      expect((await attemptOf(expiring.id))?.state).toBe('closed');
      await t.db.update(payOrders).set({ state: 'closed' }).where(eq(payOrders.id, expiring.id));
      // A late payment (the provider's clock, a race): the money lands in the wallet, the order stays closed.
      wechat.pay(expiringNo, { evenIfClosed: true });
      expect((await notify('wechat', wechat.notification(expiringNo))).statusCode).toBe(200);
      expect(await orderState(expiring.id)).toBe('closed');
      expect(await available()).toBe(before + 700);
      expect(await arrivals(expiring.id)).toBe(1);
      // An expired order cannot be started.
      expect((await start(expiring.id, 'wechat')).code).toBe(ErrorCode.PAYMENT_NOT_PAYABLE);
      expect(await ledgerSum()).toBe(0);
    });

    it('concurrent notifications and queries of one payment credit the wallet once', async () => {
      const before = await available();
      const order = await newOrder(4_321);
      await start(order.id, 'wechat');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      wechat.pay(no);
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, () => notify('wechat', wechat.notification(no))),
        ...Array.from({ length: 3 }, () => client.call(endpoints.paymentQuery, { id: order.id })),
      ]);
      for (const a of answers.slice(0, 8)) expect((a as { statusCode: number }).statusCode).toBe(200);
      for (const a of answers.slice(8)) expect((a as { envelope: { code: number } }).envelope.code).toBe(ErrorCode.OK);
      expect(await orderState(order.id)).toBe('paid');
      expect(await arrivals(order.id)).toBe(1);
      expect(await available()).toBe(before + 4_321);
      expect(await ledgerSum()).toBe(0);
    });

    it('the payer closing the order closes its payment at WeChat Pay; a payment made anyway still lands', async () => {
      const before = await available();
      const order = await newOrder(1_200);
      await start(order.id, 'wechat');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      expect((await client.call(endpoints.paymentClose, { id: order.id })).envelope.code).toBe(ErrorCode.OK);
      await expect.poll(() => wechat.orders.get(no)?.state, { timeout: 5_000 }).toBe('CLOSED');
      expect((await attemptOf(order.id))?.state).toBe('closed');
      wechat.pay(no, { evenIfClosed: true });
      expect((await notify('wechat', wechat.notification(no))).statusCode).toBe(200);
      expect(await orderState(order.id)).toBe('closed');
      expect(await available()).toBe(before + 1_200);
    });

    it('refuses a signed notification of an attempt it does not know, and a notification of another merchant', async () => {
      const res = await notify(
        'wechat',
        wechat.notification('P20261128999999zzzz', {
          transaction: {
            appid: wechat.appId,
            mchid: wechat.mchId,
            out_trade_no: 'P20261128999999zzzz',
            transaction_id: '42000001',
            trade_state: 'SUCCESS',
            amount: { total: 100 },
          },
        }),
      );
      expect(res.statusCode).toBe(400);
      expect(log.has('payment for an unknown attempt')).toBe(true);
      const order = await newOrder(100);
      await start(order.id, 'wechat');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      const other = await notify(
        'wechat',
        wechat.notification(no, {
          transaction: {
            appid: wechat.appId,
            mchid: '1900000999',
            out_trade_no: no,
            trade_state: 'SUCCESS',
            amount: { total: 100 },
          },
        }),
      );
      expect(other.statusCode).toBe(400);
      expect(await orderState(order.id)).toBe('unpaid');
    });

    it('refunds and closes through the signed API', async () => {
      const provider = providerFor(t.services.config.payments, 'wechat');
      const order = await newOrder(600);
      await start(order.id, 'wechat');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      wechat.pay(no);
      const refund = await provider?.refund(
        { outTradeNo: no, refundNo: `R${no}`, amountFen: 600, totalFen: 600, reason: 'test' },
        new Date(t.clock.now()),
      );
      expect(refund?.state).toBe('success');
      await expect(provider?.close(no, new Date(t.clock.now()))).rejects.toThrow(/ORDERPAID/);
      await expect(provider?.close('P_NEVER_CREATED', new Date(t.clock.now()))).resolves.toBeUndefined();
      expect(wechat.badRequests).toEqual([]);
    });
  });

  describe('Alipay', () => {
    it('page pay: the redirect is a signed request; a verified notification credits exactly once, a replay moves nothing', async () => {
      const before = await available();
      const order = await newOrder(9_999);
      const started = await start(order.id, 'alipay');
      expect(started.code).toBe(ErrorCode.OK);
      expect(started.payload?.qrCode).toBeNull();
      const url = new URL(started.payload?.redirectUrl ?? 'http://x');
      expect(`${url.origin}${url.pathname}`).toBe(alipay.gateway);
      expect(url.searchParams.get('method')).toBe('alipay.trade.page.pay');
      expect(url.searchParams.get('return_url')).toBe(`https://marquee.example.com/pay?id=${order.id}`);
      expect(await alipay.open(url.toString())).toBe(200);
      expect(alipay.badRequests).toEqual([]);
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      expect(alipay.trades.get(no)?.totalAmount).toBe('99.99');
      alipay.pay(no);
      const n = alipay.notification(no);
      const res = await notify('alipay', n);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('success');
      expect(await orderState(order.id)).toBe('paid');
      expect(await available()).toBe(before + 9_999);
      expect((await notify('alipay', n)).body).toBe('success');
      expect((await notify('alipay', alipay.notification(no))).body).toBe('success');
      expect(await arrivals(order.id)).toBe(1);
      expect(await available()).toBe(before + 9_999);
      expect(await ledgerSum()).toBe(0);
    });

    it('refuses forged, tampered, other-app and unsigned notifications; a mismatched amount is alarmed', async () => {
      const before = await available();
      const order = await newOrder(1_500);
      const started = await start(order.id, 'alipay');
      await alipay.open(started.payload?.redirectUrl ?? '');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      alipay.pay(no);
      const genuine = alipay.notification(no);
      const refused: FakeNotification[] = [
        alipay.notification(no, { key: alipay.forger.privateKey }),
        alipay.notification(no, { appId: '2021000000009999' }),
        { headers: genuine.headers, body: genuine.body.replace('total_amount=15.00', 'total_amount=0.01') },
        { headers: genuine.headers, body: genuine.body.replace(/&sign=[^&]*/, '') },
      ];
      for (const n of refused) {
        const res = await notify('alipay', n);
        expect(res.statusCode).toBe(400);
        expect(res.body).toBe('fail');
      }
      expect(await orderState(order.id)).toBe('unpaid');
      expect(await available()).toBe(before);
      // Signed by Alipay but for another amount than the order's: refused and alarmed.
      const mismatch = alipay.notification(no, { fields: { total_amount: '0.01' } });
      const lines = log.lines.length;
      expect((await notify('alipay', mismatch)).body).toBe('fail');
      expect(log.lines.slice(lines).some((l) => l.includes('payment amount mismatch'))).toBe(true);
      expect(await orderState(order.id)).toBe('unpaid');
      expect(await available()).toBe(before);
    });

    it('reordered: a query before the notification settles once; after the order closed, money still lands', async () => {
      const before = await available();
      const order = await newOrder(700);
      const started = await start(order.id, 'alipay');
      // Not opened yet: Alipay does not know the trade; the query answers the unpaid order.
      expect((await client.call(endpoints.paymentQuery, { id: order.id })).envelope.payload?.state).toBe('unpaid');
      await alipay.open(started.payload?.redirectUrl ?? '');
      const no = (await attemptOf(order.id))?.outTradeNo ?? '';
      alipay.pay(no);
      expect((await client.call(endpoints.paymentQuery, { id: order.id })).envelope.payload?.state).toBe('paid');
      expect((await notify('alipay', alipay.notification(no))).body).toBe('success');
      expect(await arrivals(order.id)).toBe(1);
      expect(await available()).toBe(before + 700);

      const late = await newOrder(50);
      const lateStart = await start(late.id, 'alipay');
      await alipay.open(lateStart.payload?.redirectUrl ?? '');
      const lateNo = (await attemptOf(late.id))?.outTradeNo ?? '';
      t.clock.advance(31 * MINUTE);
      // (The job also settles earlier tests' payments whose notification never came.)
      await queryOpenAttempts(t.services, t.app.log, new Date(t.clock.now()));
      const afterJob = await available();
      expect(alipay.trades.get(lateNo)?.status).toBe('TRADE_CLOSED');
      await t.db.update(payOrders).set({ state: 'closed' }).where(eq(payOrders.id, late.id));
      alipay.pay(lateNo, { evenIfClosed: true });
      expect((await notify('alipay', alipay.notification(lateNo))).body).toBe('success');
      expect(await orderState(late.id)).toBe('closed');
      expect(await available()).toBe(afterJob + 50);
      expect(await arrivals(late.id)).toBe(1);
      expect(await ledgerSum()).toBe(0);
    });

    it('precreate (QR) mode, switching provider, and refunds through the signed gateway', async () => {
      const qr = providerFor({ ...t.services.config.payments, alipay: alipay.config('qr') }, 'alipay');
      const now = new Date(t.clock.now());
      const created = await qr?.createOrder({
        outTradeNo: 'PQRTEST0001',
        amountFen: 1234,
        description: 'QR test',
        expiresAt: new Date(now.getTime() + 30 * MINUTE),
        notifyUrl: 'https://marquee.example.com/api/pay/notify/alipay',
        returnUrl: 'https://marquee.example.com/pay',
        now,
      });
      expect(created?.qrCode).toMatch(/^https:\/\/qr\.alipay\.com\//);
      expect(alipay.trades.get('PQRTEST0001')?.totalAmount).toBe('12.34');
      alipay.pay('PQRTEST0001');
      expect((await qr?.query('PQRTEST0001', now))?.amountFen).toBe(1234);
      expect(
        (
          await qr?.refund(
            { outTradeNo: 'PQRTEST0001', refundNo: 'R1', amountFen: 1234, totalFen: 1234, reason: 'x' },
            now,
          )
        )?.state,
      ).toBe('success');

      // A WeChat payment started first is closed at WeChat Pay when the payer switches to Alipay.
      const order = await newOrder(250);
      await start(order.id, 'wechat');
      const wechatNo = (await attemptOf(order.id))?.outTradeNo ?? '';
      expect((await start(order.id, 'alipay')).code).toBe(ErrorCode.OK);
      expect(wechat.orders.get(wechatNo)?.state).toBe('CLOSED');
      // But one paid meanwhile settles the order instead.
      const other = await newOrder(260);
      await start(other.id, 'wechat');
      wechat.pay((await attemptOf(other.id))?.outTradeNo ?? '');
      expect((await start(other.id, 'alipay')).code).toBe(ErrorCode.PAYMENT_NOT_PAYABLE);
      expect(await orderState(other.id)).toBe('paid');
      expect(alipay.badRequests).toEqual([]);
    });
  });

  it('payment.providers lists both as configured with their settings', async () => {
    const res = await client.call(endpoints.paymentProviders, {});
    expect(res.envelope.payload?.providers.map((p) => [p.method, p.configured])).toEqual([
      ['wechat', true],
      ['alipay', true],
    ]);
  });
});

describe.each(BACKENDS)('payment providers not configured (%s)', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWith(backend, {});
  });
  afterAll(() => t?.close());

  it('payment.start answers PAYMENT_METHOD_UNAVAILABLE naming the settings; payment.providers lists them', async () => {
    const { ent, admin, client } = await t.tenant();
    const wallet = await ensureEnterpriseWallet(t.db, ent.id);
    const now = new Date(t.clock.now());
    const [order] = await t.db
      .insert(payOrders)
      .values({
        no: await nextOrderNo(t.db, now),
        purpose: 'recharge',
        title: 'Wallet recharge',
        amount: 100,
        state: 'unpaid',
        walletId: wallet,
        entId: ent.id,
        createdBy: admin.id,
        expiresAt: new Date(now.getTime() + 30 * MINUTE),
      })
      .returning();
    for (const method of ['wechat', 'alipay'] as const) {
      const res = await client.call(endpoints.paymentStart, { id: order.id, method });
      expect(res.envelope.code).toBe(ErrorCode.PAYMENT_METHOD_UNAVAILABLE);
      expect(res.envelope.message).toContain(method === 'wechat' ? 'WECHATPAY_MCHID' : 'ALIPAY_APP_ID');
    }
    const zh = await client.call(endpoints.paymentStart, { id: order.id, method: 'wechat' }, { language: 'zh-CN' });
    expect(zh.envelope.message).toContain('该支付方式未启用');
    const providers = await client.call(endpoints.paymentProviders, {});
    expect(providers.envelope.payload?.providers).toEqual([
      {
        method: 'wechat',
        configured: false,
        settings: expect.arrayContaining(['WECHATPAY_MCHID', 'WECHATPAY_API_V3_KEY', 'WECHATPAY_PLATFORM_PUBLIC_KEY']),
      },
      { method: 'alipay', configured: false, settings: ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY'] },
    ]);
    // A notification to an unconfigured provider is not found.
    const res = await t.app.inject({ method: 'POST', url: '/api/pay/notify/wechat', payload: '{}' });
    expect(res.statusCode).toBe(404);
    expect(await t.db.select().from(payAttempts)).toEqual([]);
  });
});
