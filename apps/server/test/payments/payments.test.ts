import { ErrorCode, endpoints, PAY_ORDER_TTL_MINUTES, RECHARGE_MAX_FEN } from '@marquee/protocol';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, payOrders } from '../../src/db/schema/index.js';
import { JOBS } from '../../src/jobs/index.js';
import { createAdvertiser } from '../../src/modules/advertisers/service.js';
import { ensureEnterpriseWallet, ensurePlatformAccount } from '../../src/modules/ledger/accounts.js';
import { transfer, transfersOf } from '../../src/modules/ledger/ledger.js';
import { CLOSE_EXPIRED_JOB, closeExpiredOrders, EXPIRE_HOLDS_JOB } from '../../src/modules/payments/closing.js';
import { payOrderCause } from '../../src/modules/payments/settle.js';
import { type ApiClient, BACKENDS, MINUTE, TEST_PASSWORD, type TestApp, uniqueName } from '../helpers/index.js';
import {
  balanceOf,
  fundWallet,
  ledgerSum,
  paymentsTestApp,
  platformOperator,
  rechargeOrder,
  submitOffline,
  uploadVoucher,
  walletIdOfEnt,
} from './helpers.js';

/**
 * Payments (issue 26): recharge orders and their validation, bills paid from the balance,
 * offline transfers with vouchers confirmed or rejected by the platform operator, closing,
 * who sees which order, and the job that closes expired orders. Both databases.
 */
describe.each(BACKENDS)('payments on %s', (backend) => {
  let t: TestApp;
  let operator: ApiClient;

  beforeAll(async () => {
    t = await paymentsTestApp(backend);
    operator = await platformOperator(t);
  });
  afterAll(() => t?.close());

  const ordersOf = async (entId: string) =>
    Number((await t.db.select({ n: count() }).from(payOrders).where(eq(payOrders.entId, entId)))[0].n);
  const logsOf = async (entId: string, action: string) =>
    Number(
      (
        await t.db
          .select({ n: count() })
          .from(operationLogs)
          .where(
            and(eq(operationLogs.entId, entId), eq(operationLogs.module, 'payments'), eq(operationLogs.action, action)),
          )
      )[0].n,
    );

  it('refuses a recharge of 0, negative, fractional fen or above 100000 yuan and writes nothing; takes 100000 yuan', async () => {
    const { ent, client } = await t.tenant();
    for (const amount of [0, -100, 1.5, RECHARGE_MAX_FEN + 1, '100']) {
      const res = await client.call(endpoints.paymentRecharge, { amount });
      expect(res.envelope.code, `amount ${amount}`).toBe(ErrorCode.INVALID_PARAMS);
      expect(res.envelope.message).toBeTruthy();
    }
    expect(await ordersOf(ent.id)).toBe(0);
    expect(await logsOf(ent.id, 'recharge')).toBe(0);
    // The message is in the caller's language.
    const zh = await client.call(endpoints.paymentRecharge, { amount: 0 }, { language: 'zh-CN' });
    const en = await client.call(endpoints.paymentRecharge, { amount: 0 }, { language: 'en-US' });
    expect(zh.envelope.message).not.toBe(en.envelope.message);

    const ok = await client.call(endpoints.paymentRecharge, { amount: RECHARGE_MAX_FEN });
    expect(ok.envelope.code).toBe(0);
    expect(ok.envelope.payload!.no).toMatch(/^P\d{8}\d{6}$/);
    const info = await client.call(endpoints.paymentInfo, { id: ok.envelope.payload!.id });
    expect(info.envelope.code).toBe(0);
    const { order, methods, offline } = info.envelope.payload!;
    expect(order).toMatchObject({
      purpose: 'recharge',
      amount: RECHARGE_MAX_FEN,
      state: 'unpaid',
      method: null,
      walletId: walletIdOfEnt(ent.id),
      walletName: ent.name,
      entId: ent.id,
      entName: ent.name,
      title: 'Wallet recharge',
    });
    expect(Date.parse(order.expiresAt!) - Date.parse(order.createdAt)).toBe(PAY_ORDER_TTL_MINUTES * MINUTE);
    expect(offline).toBeNull();
    const byMethod = Object.fromEntries(methods.map((m) => [m.method, m]));
    expect(byMethod.balance).toMatchObject({ available: false, reason: 'rechargeByBalance' });
    expect(byMethod.wechat).toMatchObject({ available: false, reason: 'notConfigured' });
    expect(byMethod.wechat.settings).toContain('WECHATPAY_MCHID');
    expect(byMethod.alipay).toMatchObject({ available: false, reason: 'notConfigured' });
    expect(byMethod.offline).toMatchObject({ available: true, reason: null });
    expect(await ordersOf(ent.id)).toBe(1);
    expect(await logsOf(ent.id, 'recharge')).toBe(1);
    // A recharge is not paid from the balance.
    const byBalance = await client.call(endpoints.paymentPayBalance, { id: order.id });
    expect(byBalance.envelope.code).toBe(ErrorCode.PAYMENT_METHOD_UNAVAILABLE);
  });

  it('credits the wallet once when the operator confirms an offline transfer with its voucher', async () => {
    const { ent, client } = await t.tenant();
    const wallet = walletIdOfEnt(ent.id);
    const clearing = await ensurePlatformAccount(t.db, 'clearingOffline');
    const clearingBefore = await balanceOf(t, clearing);
    const orderId = await rechargeOrder(client, 50_000);

    // A voucher applied for but never uploaded does not pass.
    const missing = await uploadVoucher(t, client, orderId, { upload: false });
    const incomplete = await client.call(endpoints.paymentOfflineSubmit, {
      orderId,
      payerName: 'Zhang San',
      transferNo: 'T-1',
      transferredAt: new Date(t.clock.now()).toISOString(),
      voucherIds: [missing],
    });
    expect(incomplete.envelope.code).toBe(ErrorCode.UPLOAD_INCOMPLETE);
    // Nor one of another order.
    const otherOrder = await rechargeOrder(client, 100);
    const foreign = await uploadVoucher(t, client, otherOrder);
    const wrong = await client.call(endpoints.paymentOfflineSubmit, {
      orderId,
      payerName: 'Zhang San',
      transferNo: 'T-1',
      transferredAt: new Date(t.clock.now()).toISOString(),
      voucherIds: [foreign],
    });
    expect(wrong.envelope.code).toBe(ErrorCode.UPLOAD_INCOMPLETE);

    const offlineId = await submitOffline(t, client, orderId);
    const review = await client.call(endpoints.paymentInfo, { id: orderId });
    expect(review.envelope.payload!.order.state).toBe('review');
    expect(review.envelope.payload!.offline).toMatchObject({ id: offlineId, state: 'submitted', amount: 50_000 });
    expect(review.envelope.payload!.offline!.vouchers).toHaveLength(1);
    const voucherUrl = review.envelope.payload!.offline!.vouchers[0].url;
    const file = await t.app.inject({ method: 'GET', url: voucherUrl });
    expect(file.statusCode).toBe(200);
    expect(file.body.startsWith('%PDF')).toBe(true);
    // Under review the order cannot be paid another way nor get new vouchers.
    const apply = await client.call(endpoints.paymentVoucherApply, {
      orderId,
      fileName: 'x.png',
      contentType: 'image/png',
      size: 10,
    });
    expect(apply.envelope.code).toBe(ErrorCode.PAYMENT_NOT_PAYABLE);
    // Nothing is credited before the confirmation.
    expect(await balanceOf(t, wallet)).toEqual({ balance: 0, available: 0 });

    // The enterprise itself cannot confirm (the endpoint is the platform's).
    const self = await client.call(endpoints.paymentOfflineConfirm, { id: offlineId });
    expect(self.envelope.code).toBe(ErrorCode.NO_PERMISSION);

    const list = await operator.call(endpoints.paymentOfflineList, { page: 1, size: 50, state: 'submitted' });
    expect(list.envelope.payload!.data.some((o) => o.id === offlineId)).toBe(true);

    const confirmed = await operator.call(endpoints.paymentOfflineConfirm, { id: offlineId });
    expect(confirmed.envelope.code, confirmed.body).toBe(0);
    expect(confirmed.envelope.payload).toMatchObject({ id: offlineId, state: 'confirmed', entName: ent.name });
    expect(confirmed.envelope.payload!.reviewedAt).not.toBeNull();
    expect(await balanceOf(t, wallet)).toEqual({ balance: 50_000, available: 50_000 });
    expect((await balanceOf(t, clearing)).balance).toBe(clearingBefore.balance - 50_000);
    const moves = await transfersOf(t.db, payOrderCause({ id: orderId }));
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ debitAccountId: clearing, creditAccountId: wallet, amount: 50_000 });
    const paid = await client.call(endpoints.paymentInfo, { id: orderId });
    expect(paid.envelope.payload!.order).toMatchObject({ state: 'paid', method: 'offline' });

    // Confirming again: CONFLICT, nothing moves.
    const again = await operator.call(endpoints.paymentOfflineConfirm, { id: offlineId });
    expect(again.envelope.code).toBe(ErrorCode.CONFLICT);
    const reject = await operator.call(endpoints.paymentOfflineReject, { id: offlineId, reason: 'late' });
    expect(reject.envelope.code).toBe(ErrorCode.CONFLICT);
    expect(await balanceOf(t, wallet)).toEqual({ balance: 50_000, available: 50_000 });
    expect(await transfersOf(t.db, payOrderCause({ id: orderId }))).toHaveLength(1);
    expect(await logsOf(ent.id, 'offlineSubmit')).toBe(1);
    expect(await ledgerSum(t)).toBe(0);
  });

  it('credits nothing when the operator rejects the transfer; the order can be paid again', async () => {
    const { ent, client } = await t.tenant();
    const wallet = walletIdOfEnt(ent.id);
    const orderId = await rechargeOrder(client, 20_000);
    const offlineId = await submitOffline(t, client, orderId);
    const empty = await operator.call(endpoints.paymentOfflineReject, { id: offlineId, reason: ' ' });
    expect(empty.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const rejected = await operator.call(endpoints.paymentOfflineReject, {
      id: offlineId,
      reason: 'No such transfer on the statement',
    });
    expect(rejected.envelope.code).toBe(0);
    expect(rejected.envelope.payload).toMatchObject({ state: 'rejected', reason: 'No such transfer on the statement' });
    expect(await balanceOf(t, wallet)).toEqual({ balance: 0, available: 0 });
    expect(await transfersOf(t.db, payOrderCause({ id: orderId }))).toHaveLength(0);
    const info = await client.call(endpoints.paymentInfo, { id: orderId });
    expect(info.envelope.payload!.order.state).toBe('unpaid');
    expect(info.envelope.payload!.offline).toMatchObject({ id: offlineId, state: 'rejected' });
    const confirm = await operator.call(endpoints.paymentOfflineConfirm, { id: offlineId });
    expect(confirm.envelope.code).toBe(ErrorCode.CONFLICT);
    expect(await balanceOf(t, wallet)).toEqual({ balance: 0, available: 0 });

    // The enterprise sees its own submissions only.
    const mine = await client.call(endpoints.paymentOfflineList, { page: 1, size: 50 });
    expect(mine.envelope.payload!.data.map((o) => o.id)).toEqual([offlineId]);
    // A second transfer for the same order is confirmed.
    const second = await submitOffline(t, client, orderId);
    expect((await operator.call(endpoints.paymentOfflineConfirm, { id: second })).envelope.code).toBe(0);
    expect(await balanceOf(t, wallet)).toEqual({ balance: 20_000, available: 20_000 });
  });

  it('pays a bill from the balance only when it covers it, once, into the platform revenue', async () => {
    const { ent, client } = await t.tenant();
    const wallet = walletIdOfEnt(ent.id);
    const revenue = await ensurePlatformAccount(t.db, 'revenue');
    const unknown = await operator.call(endpoints.paymentBillCreate, { entId: 'nope', title: 'Fee', amount: 100 });
    expect(unknown.envelope.code).toBe(ErrorCode.NOT_FOUND);
    // Only the platform bills.
    const self = await client.call(endpoints.paymentBillCreate, { entId: ent.id, title: 'Fee', amount: 100 });
    expect(self.envelope.code).toBe(ErrorCode.NO_PERMISSION);
    const bill = await operator.call(endpoints.paymentBillCreate, {
      entId: ent.id,
      title: 'Service fee November',
      amount: 30_000,
    });
    expect(bill.envelope.code).toBe(0);
    const billId = bill.envelope.payload!.id;

    const info = await client.call(endpoints.paymentInfo, { id: billId });
    expect(info.envelope.payload!.order).toMatchObject({
      purpose: 'bill',
      title: 'Service fee November',
      expiresAt: null,
      walletId: wallet,
    });
    expect(info.envelope.payload!.methods.find((m) => m.method === 'balance')).toMatchObject({
      available: false,
      reason: 'insufficient',
    });
    const revenueBefore = await balanceOf(t, revenue);
    const poor = await client.call(endpoints.paymentPayBalance, { id: billId });
    expect(poor.envelope.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(await balanceOf(t, wallet)).toEqual({ balance: 0, available: 0 });
    expect(await balanceOf(t, revenue)).toEqual(revenueBefore);
    expect((await client.call(endpoints.paymentInfo, { id: billId })).envelope.payload!.order.state).toBe('unpaid');
    expect(await logsOf(ent.id, 'payBalance')).toBe(0);

    t.clock.advance(1_000);
    await fundWallet(t, client, operator, 50_000);
    const ready = await client.call(endpoints.paymentInfo, { id: billId });
    expect(ready.envelope.payload!.available).toBe(50_000);
    expect(ready.envelope.payload!.methods.find((m) => m.method === 'balance')).toMatchObject({
      available: true,
      reason: null,
    });
    const paid = await client.call(endpoints.paymentPayBalance, { id: billId });
    expect(paid.envelope.code, paid.body).toBe(0);
    expect(paid.envelope.payload).toMatchObject({ id: billId, state: 'paid', method: 'balance' });
    expect(await balanceOf(t, wallet)).toEqual({ balance: 20_000, available: 20_000 });
    expect((await balanceOf(t, revenue)).balance).toBe(revenueBefore.balance + 30_000);
    const moves = await transfersOf(t.db, payOrderCause({ id: billId }));
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ debitAccountId: wallet, creditAccountId: revenue, amount: 30_000 });

    const again = await client.call(endpoints.paymentPayBalance, { id: billId });
    expect(again.envelope.code).toBe(ErrorCode.PAYMENT_NOT_PAYABLE);
    expect(await balanceOf(t, wallet)).toEqual({ balance: 20_000, available: 20_000 });
    expect(await logsOf(ent.id, 'payBalance')).toBe(1);
    // A paid order cannot be closed.
    expect((await operator.call(endpoints.paymentClose, { id: billId })).envelope.code).toBe(
      ErrorCode.PAYMENT_NOT_PAYABLE,
    );
    expect(await ledgerSum(t)).toBe(0);

    // The platform sees it among every enterprise's orders; the enterprise among its own.
    const all = await operator.call(endpoints.paymentList, { page: 1, size: 100, purpose: 'bill', state: 'paid' });
    expect(all.envelope.payload!.data.some((o) => o.id === billId)).toBe(true);
    const own = await client.call(endpoints.paymentList, { page: 1, size: 100 });
    expect(own.envelope.payload!.total).toBe(2);
    expect(own.envelope.payload!.data.map((o) => o.purpose)).toEqual(['recharge', 'bill']);
    const filtered = await client.call(endpoints.paymentList, { page: 1, size: 100, method: 'balance' });
    expect(filtered.envelope.payload!.data.map((o) => o.id)).toEqual([billId]);
    const byNo = await client.call(endpoints.paymentList, { page: 1, size: 100, keyword: 'November' });
    expect(byNo.envelope.payload!.data.map((o) => o.id)).toEqual([billId]);
  });

  it('pays once when payments, closes and confirmations race', async () => {
    const { ent, client } = await t.tenant();
    const wallet = walletIdOfEnt(ent.id);
    await fundWallet(t, client, operator, 10_000);
    // Two bills of 6,000 against 10,000, each paid twice at once: exactly one payment of each bill,
    // and only one of the two bills (the balance covers one).
    const bills = await Promise.all(
      [1, 2].map(async (i) => {
        const res = await operator.call(endpoints.paymentBillCreate, {
          entId: ent.id,
          title: `Fee ${i}`,
          amount: 6_000,
        });
        return res.envelope.payload!.id;
      }),
    );
    const codes = (
      await Promise.all([...bills, ...bills].map((id) => client.call(endpoints.paymentPayBalance, { id })))
    ).map((r) => r.envelope.code);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(codes.every((c) => [0, ErrorCode.PAYMENT_NOT_PAYABLE, ErrorCode.INSUFFICIENT_BALANCE].includes(c))).toBe(
      true,
    );
    expect(await balanceOf(t, wallet)).toEqual({ balance: 4_000, available: 4_000 });

    // A close racing a confirmation: the order is under review, so the close is refused and the
    // confirmation pays it; two confirmations at once credit once.
    const orderId = await rechargeOrder(client, 7_000);
    const offlineId = await submitOffline(t, client, orderId);
    const [close, c1, c2] = await Promise.all([
      client.call(endpoints.paymentClose, { id: orderId }),
      operator.call(endpoints.paymentOfflineConfirm, { id: offlineId }),
      operator.call(endpoints.paymentOfflineConfirm, { id: offlineId }),
    ]);
    expect(close.envelope.code).toBe(ErrorCode.PAYMENT_NOT_PAYABLE);
    expect([c1.envelope.code, c2.envelope.code].sort()).toEqual([ErrorCode.CONFLICT, 0].sort());
    expect(await balanceOf(t, wallet)).toEqual({ balance: 11_000, available: 11_000 });
    expect(await transfersOf(t.db, payOrderCause({ id: orderId }))).toHaveLength(1);
    expect(await ledgerSum(t)).toBe(0);
  });

  it('closes an unpaid recharge for its payer; a bill only for the platform', async () => {
    const { client, ent } = await t.tenant();
    const orderId = await rechargeOrder(client, 1_000);
    const closed = await client.call(endpoints.paymentClose, { id: orderId });
    expect(closed.envelope.code).toBe(0);
    const info = await client.call(endpoints.paymentInfo, { id: orderId });
    expect(info.envelope.payload!.order.state).toBe('closed');
    expect(info.envelope.payload!.order.closedAt).not.toBeNull();
    expect(info.envelope.payload!.methods.every((m) => !m.available)).toBe(true);
    expect((await client.call(endpoints.paymentClose, { id: orderId })).envelope.code).toBe(
      ErrorCode.PAYMENT_NOT_PAYABLE,
    );
    const voucher = await client.call(endpoints.paymentVoucherApply, {
      orderId,
      fileName: 'x.pdf',
      contentType: 'application/pdf',
      size: 10,
    });
    expect(voucher.envelope.code).toBe(ErrorCode.PAYMENT_NOT_PAYABLE);

    const bill = await operator.call(endpoints.paymentBillCreate, { entId: ent.id, title: 'Fee', amount: 500 });
    const billId = bill.envelope.payload!.id;
    expect((await client.call(endpoints.paymentClose, { id: billId })).envelope.code).toBe(
      ErrorCode.PAYMENT_NOT_PAYABLE,
    );
    expect((await operator.call(endpoints.paymentClose, { id: billId })).envelope.code).toBe(0);
    expect(await logsOf(ent.id, 'close')).toBe(1);
  });

  it("hides another enterprise's orders and shows an advertiser only its own", async () => {
    const mine = await t.tenant();
    const theirs = await t.tenant();
    const orderId = await rechargeOrder(mine.client, 1_000);
    for (const def of [endpoints.paymentInfo, endpoints.paymentPayBalance, endpoints.paymentClose]) {
      const res = await theirs.client.call(def, { id: orderId });
      expect(res.envelope.code, def.name).toBe(ErrorCode.NOT_FOUND);
    }
    const apply = await theirs.client.call(endpoints.paymentVoucherApply, {
      orderId,
      fileName: 'x.pdf',
      contentType: 'application/pdf',
      size: 10,
    });
    expect(apply.envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await theirs.client.call(endpoints.paymentList, { page: 1, size: 50 })).envelope.payload!.total).toBe(0);
    // Another enterprise's wallet cannot be recharged by naming it.
    const foreign = await theirs.client.call(endpoints.paymentRecharge, {
      amount: 100,
      walletId: walletIdOfEnt(mine.ent.id),
    });
    expect(foreign.envelope.code).toBe(ErrorCode.NOT_FOUND);
    // Nor a platform account.
    const platform = await mine.client.call(endpoints.paymentRecharge, { amount: 100, walletId: 'platform:revenue' });
    expect(platform.envelope.code).toBe(ErrorCode.NOT_FOUND);

    const loginName = uniqueName('adv');
    const advId = await createAdvertiser(t.db, {
      entId: mine.ent.id,
      deptId: mine.ent.depts.a,
      createdBy: null,
      loginName,
      password: TEST_PASSWORD,
      realName: 'Ad Buyer',
      phone: '13900001111',
    });
    const adv = await t.loginAs({ id: advId, entId: mine.ent.id, loginName, password: TEST_PASSWORD });
    const advOrder = await rechargeOrder(adv, 2_000);
    const advInfo = await adv.call(endpoints.paymentInfo, { id: advOrder });
    expect(advInfo.envelope.payload!.order).toMatchObject({ walletId: `adv:${advId}`, walletName: 'Ad Buyer' });
    const advList = await adv.call(endpoints.paymentList, { page: 1, size: 50 });
    expect(advList.envelope.payload!.data.map((o) => o.id)).toEqual([advOrder]);
    expect((await adv.call(endpoints.paymentInfo, { id: orderId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const advRecharge = await adv.call(endpoints.paymentRecharge, {
      amount: 100,
      walletId: walletIdOfEnt(mine.ent.id),
    });
    expect(advRecharge.envelope.code).toBe(ErrorCode.NOT_FOUND);
    // The enterprise administrator sees its advertisers' orders too, and may recharge their wallets.
    const entList = await mine.client.call(endpoints.paymentList, { page: 1, size: 50 });
    expect(entList.envelope.payload!.data.map((o) => o.id).sort()).toEqual([orderId, advOrder].sort());
    const byWallet = await mine.client.call(endpoints.paymentList, { page: 1, size: 50, walletId: `adv:${advId}` });
    expect(byWallet.envelope.payload!.data.map((o) => o.id)).toEqual([advOrder]);
    expect(
      (await mine.client.call(endpoints.paymentRecharge, { amount: 100, walletId: `adv:${advId}` })).envelope.code,
    ).toBe(0);
    // The other enterprise's admin does not see the advertiser's order either.
    expect((await theirs.client.call(endpoints.paymentInfo, { id: advOrder })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    // The advertiser's offline transfers are its own.
    const offlineId = await submitOffline(t, adv, advOrder);
    expect(
      (await adv.call(endpoints.paymentOfflineList, { page: 1, size: 50 })).envelope.payload!.data.map((o) => o.id),
    ).toEqual([offlineId]);
    expect(
      (await theirs.client.call(endpoints.paymentOfflineList, { page: 1, size: 50 })).envelope.payload!.total,
    ).toBe(0);
    expect((await operator.call(endpoints.paymentOfflineConfirm, { id: offlineId })).envelope.code).toBe(0);
    expect(await balanceOf(t, `adv:${advId}`)).toEqual({ balance: 2_000, available: 2_000 });
    expect(await balanceOf(t, walletIdOfEnt(mine.ent.id))).toEqual({ balance: 0, available: 0 });
  });

  it('closes unpaid orders once their time has passed (the job, time as an input)', async () => {
    expect(JOBS.find((j) => j.id === CLOSE_EXPIRED_JOB)?.schedule).toBe('* * * * *');
    expect(JOBS.find((j) => j.id === EXPIRE_HOLDS_JOB)?.schedule).toBe('* * * * *');
    const { client, ent } = await t.tenant();
    const start = t.clock.now();
    const recharge = await rechargeOrder(client, 3_000);
    const underReview = await rechargeOrder(client, 4_000);
    await submitOffline(t, client, underReview);
    const bill = (await operator.call(endpoints.paymentBillCreate, { entId: ent.id, title: 'Fee', amount: 500 }))
      .envelope.payload!.id;
    const state = async (id: string) => (await t.db.select().from(payOrders).where(eq(payOrders.id, id)))[0];

    await closeExpiredOrders(t.db, new Date(start + (PAY_ORDER_TTL_MINUTES - 1) * MINUTE));
    expect((await state(recharge)).state).toBe('unpaid');

    const at = new Date(start + (PAY_ORDER_TTL_MINUTES + 1) * MINUTE);
    expect(await closeExpiredOrders(t.db, at)).toBeGreaterThanOrEqual(1);
    const closed = await state(recharge);
    expect(closed.state).toBe('closed');
    expect(closed.closedAt?.getTime()).toBe(at.getTime());
    // Under review or with no expiry: left alone.
    expect((await state(underReview)).state).toBe('review');
    expect((await state(bill)).state).toBe('unpaid');
    expect(await closeExpiredOrders(t.db, at)).toBe(0);

    // The registered job does the same on the app's clock.
    const late = await rechargeOrder(client, 5_000);
    t.clock.advance((PAY_ORDER_TTL_MINUTES + 1) * MINUTE);
    const job = JOBS.find((j) => j.id === CLOSE_EXPIRED_JOB)!;
    const log = { info: () => {}, debug: () => {}, warn: () => {} } as never;
    await job.handler({}, { services: t.services, log, jobId: 'test', retryCount: 0, retryLimit: 2 });
    expect((await state(late)).state).toBe('closed');
    const info = await client.call(endpoints.paymentInfo, { id: late });
    expect(info.envelope.payload!.order.state).toBe('closed');
  });

  it('voids the holds whose timeout passed (the holds job)', async () => {
    const { ent } = await t.tenant();
    const wallet = await ensureEnterpriseWallet(t.db, ent.id);
    const clearing = await ensurePlatformAccount(t.db, 'clearingOffline');
    const revenue = await ensurePlatformAccount(t.db, 'revenue');
    const now = new Date(t.clock.now());
    const cause = { type: 'test', id: uniqueName('hold') };
    await t.db.transaction(async (tx) => {
      await transfer(tx, {
        id: `${cause.id}:in`,
        debitAccountId: clearing,
        creditAccountId: wallet,
        amount: 1_000,
        code: 'recharge',
        cause,
        now,
      });
      await transfer(tx, {
        id: `${cause.id}:hold`,
        debitAccountId: wallet,
        creditAccountId: revenue,
        amount: 600,
        code: 'hold',
        cause,
        now,
        pending: { timeoutAt: new Date(now.getTime() + MINUTE) },
      });
    });
    expect(await balanceOf(t, wallet)).toEqual({ balance: 1_000, available: 400 });
    t.clock.advance(2 * MINUTE);
    const job = JOBS.find((j) => j.id === EXPIRE_HOLDS_JOB)!;
    const log = { info: () => {}, debug: () => {}, warn: () => {} } as never;
    await job.handler({}, { services: t.services, log, jobId: 'test', retryCount: 0, retryLimit: 2 });
    expect(await balanceOf(t, wallet)).toEqual({ balance: 1_000, available: 1_000 });
  });
});
