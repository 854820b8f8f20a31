import { ErrorCode, endpoints } from '@marquee/protocol';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ledgerTransfers,
  operationLogs,
  salesBookings,
  salesCoupons,
  salesCouponUses,
  salesOrders,
  salesSettings,
} from '../../src/db/schema/index.js';
import { advertiserWalletId, enterpriseWalletId } from '../../src/modules/ledger/accounts.js';
import { runExport } from '../../src/modules/operationLog/exportJob.js';
import { expireOrderHolds } from '../../src/modules/sales/orderJobs.js';
import {
  fundAdvertiser,
  insertCoupon,
  insertGoods,
  insertPriceContract,
  insertSalesAdvertiser,
  insertSlot,
  salesDay,
} from '../fixtures/sales.js';
import { type ApiClient, BACKENDS, createUser, MINUTE, type TestApp } from '../helpers/index.js';
import { balanceOf } from '../payments/helpers.js';
import { activatedScreens, orderTestApp } from './delivery.js';

/**
 * Airtime orders (issue 28): the quote's arithmetic (price contract, then coupon), placing an
 * order holds its rotations (TIME_CONFLICT refuses an overbooking and writes nothing), paying
 * freezes the amount in the advertiser's wallet (INSUFFICIENT_BALANCE writes nothing),
 * cancelling refunds exactly once in each state, the hold expiry job with a simulated clock,
 * and who sees which order. Both databases.
 */
describe.each(BACKENDS)('sales orders on %s', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await orderTestApp(backend);
  });
  afterAll(() => t?.close());

  const now = () => new Date(t.clock.now());

  const screens = (ent: Parameters<typeof activatedScreens>[1], ownerId: string, n: number) =>
    activatedScreens(t, ent, ownerId, n);

  /** An operator's enterprise with 2 screens, a CPT slot of 2 rotations at 100 fen, goods on sale, an advertiser. */
  async function world(options: { maxRotations?: number } = {}) {
    const { ent, admin, client } = await t.tenant();
    const deviceIds = await screens(ent, admin.id, 2);
    const slotId = await insertSlot(t.db, {
      entId: ent.id,
      deviceIds,
      maxRotations: options.maxRotations ?? 2,
      price: 100,
    });
    const goodsId = await insertGoods(t.db, {
      entId: ent.id,
      slotIds: [slotId],
      startDate: salesDay(t, 0),
      endDate: salesDay(t, 30),
      unitPrice: 100,
    });
    const adv = await insertSalesAdvertiser(t, ent, { realName: 'Buyer one' });
    const advClient = await t.loginAs(adv);
    return { ent, admin, client, deviceIds, slotId, goodsId, adv, advClient };
  }

  type World = Awaited<ReturnType<typeof world>>;
  const request = (w: World, extra: Record<string, unknown> = {}) => ({
    goodsId: w.goodsId,
    startDate: salesDay(t, 1),
    endDate: salesDay(t, 2),
    hours: [8, 9],
    lines: [{ slotId: w.slotId, rotations: 1 }],
    ...extra,
  });
  async function place(caller: ApiClient, body: Record<string, unknown>) {
    const res = await caller.call(endpoints.salesOrderCreate, body as never);
    expect(res.envelope.code, res.body).toBe(0);
    return res.envelope.payload!;
  }
  const liveBookings = async (orderId: string) =>
    Number(
      (
        await t.db
          .select({ n: count() })
          .from(salesBookings)
          .where(and(eq(salesBookings.orderId, orderId), isNull(salesBookings.releasedAt)))
      )[0].n,
    );
  const transfersOf = (orderId: string) =>
    t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.causeId, orderId)).orderBy(ledgerTransfers.createdAt);

  it('quotes the list price, the price contract, then the coupon, with what is bookable and the wallet', async () => {
    const w = await world();
    await insertPriceContract(t.db, {
      entId: w.ent.id,
      advertiserId: w.adv.id,
      validFrom: salesDay(t, 0),
      validTo: salesDay(t, 10),
      discountPct: 90,
    });
    const couponId = await insertCoupon(t.db, {
      entId: w.ent.id,
      validFrom: salesDay(t, 0),
      validTo: salesDay(t, 10),
      discountPct: 85,
    });
    await fundAdvertiser(t, w.ent.id, w.adv.id, 5_000);
    const res = await w.advClient.call(endpoints.salesQuote, request(w, { couponId }) as never);
    expect(res.envelope.code, res.body).toBe(0);
    const q = res.envelope.payload!;
    // 100 fen x 1 rotation x 2 screens x 2 days x 2 hours = 800; x 0.90 = 720; x 0.85 = 612.
    expect(q.lines).toEqual([
      expect.objectContaining({ unitPrice: 100, screens: 2, days: 2, hoursPerDay: 2, listAmount: 800, bookable: 2 }),
    ]);
    expect(q).toMatchObject({ listAmount: 800, amount: 612, available: 5_000 });
    expect(q.priceContract?.discount).toBe(0.9);
    expect(q.coupon?.discount).toBe(0.85);
    // A quote writes nothing.
    expect(
      Number((await t.db.select({ n: count() }).from(salesOrders).where(eq(salesOrders.entId, w.ent.id)))[0].n),
    ).toBe(0);

    // An advertiser orders for itself only; staff must name an advertiser they see.
    const other = await insertSalesAdvertiser(t, w.ent);
    expect(
      (await w.advClient.call(endpoints.salesQuote, request(w, { advertiserId: other.id }) as never)).envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
    expect((await w.client.call(endpoints.salesQuote, request(w) as never)).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const staff = await w.client.call(endpoints.salesQuote, request(w, { advertiserId: w.adv.id }) as never);
    expect(staff.envelope.payload?.amount).toBe(720);
    // Hours outside the goods', a rotation beyond the slot's, an unknown screen.
    const offShelfHours = await insertGoods(t.db, {
      entId: w.ent.id,
      slotIds: [w.slotId],
      startDate: salesDay(t, 0),
      endDate: salesDay(t, 30),
      hours: [8],
    });
    expect(
      (await w.advClient.call(endpoints.salesQuote, request(w, { goodsId: offShelfHours }) as never)).envelope.code,
    ).toBe(ErrorCode.GOODS_NOT_ON_SALE);
    expect(
      (
        await w.advClient.call(
          endpoints.salesQuote,
          request(w, { lines: [{ slotId: w.slotId, rotations: 3 }] }) as never,
        )
      ).envelope.code,
    ).toBe(ErrorCode.INVALID_PARAMS);
    const stranger = await screens(w.ent, w.admin.id, 1);
    expect(
      (
        await w.advClient.call(
          endpoints.salesQuote,
          request(w, { lines: [{ slotId: w.slotId, deviceIds: stranger }] }) as never,
        )
      ).envelope.code,
    ).toBe(ErrorCode.AD_TARGET_INVALID);
    // A slot directly needs the sales management code.
    expect(
      (await w.advClient.call(endpoints.salesQuote, { ...request(w), goodsId: undefined, slotId: w.slotId } as never))
        .envelope.code,
    ).toBe(ErrorCode.NO_PERMISSION);
  });

  it('an order holds its rotations; an overbooking is refused whole and writes nothing', async () => {
    const w = await world();
    const couponId = await insertCoupon(t.db, {
      entId: w.ent.id,
      validFrom: salesDay(t, 0),
      validTo: salesDay(t, 10),
      discountPct: 50,
      limit: 5,
    });
    const order = await place(w.advClient, request(w, { lines: [{ slotId: w.slotId, rotations: 2 }], couponId }));
    expect(order).toMatchObject({ state: 'unpaid', listAmount: 1_600, amount: 800, subOrders: 1, screens: 2 });
    expect(new Date(order.holdUntil!).getTime()).toBeGreaterThan(t.clock.now());
    expect(await liveBookings(order.id)).toBe(1);
    const [coupon] = await t.db.select().from(salesCoupons).where(eq(salesCoupons.id, couponId));
    expect(coupon.used).toBe(1);
    const [use] = await t.db.select().from(salesCouponUses).where(eq(salesCouponUses.orderId, order.id));
    expect(use.saved).toBe(800);

    const quote = await w.advClient.call(endpoints.salesQuote, request(w) as never);
    expect(quote.envelope.payload!.lines[0].bookable).toBe(0);
    const refused = await w.advClient.call(endpoints.salesOrderCreate, request(w, { couponId }) as never);
    expect(refused.envelope.code).toBe(ErrorCode.TIME_CONFLICT);
    expect(
      Number((await t.db.select({ n: count() }).from(salesOrders).where(eq(salesOrders.entId, w.ent.id)))[0].n),
    ).toBe(1);
    expect((await t.db.select().from(salesCoupons).where(eq(salesCoupons.id, couponId)))[0].used).toBe(1);
    // Other hours are free.
    await place(w.advClient, request(w, { hours: [10] }));

    const info = await w.advClient.call(endpoints.salesOrderInfo, { id: order.id });
    expect(info.envelope.payload!.subOrders[0]).toMatchObject({ subNo: `${order.no}-1`, rotations: 2, screens: 2 });
    expect(info.envelope.payload!.events).toEqual([expect.objectContaining({ from: null, to: 'unpaid' })]);
    const logged = await t.db.select().from(operationLogs).where(eq(operationLogs.targetId, order.id));
    expect(logged.map((l) => l.action)).toEqual(['orderCreate']);
  });

  it('paying freezes the amount (frozen grows, available shrinks); not enough balance writes nothing', async () => {
    const w = await world();
    const order = await place(w.advClient, request(w));
    expect(order.amount).toBe(800);
    const wallet = advertiserWalletId(w.adv.id);
    await fundAdvertiser(t, w.ent.id, w.adv.id, 500);
    const poor = await w.advClient.call(endpoints.salesOrderPay, { id: order.id });
    expect(poor.envelope.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    const [still] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, order.id));
    expect(still).toMatchObject({ state: 'unpaid', holdTransferId: null, paidAt: null });
    expect(await transfersOf(order.id)).toEqual([]);
    expect((await t.db.select().from(salesBookings).where(eq(salesBookings.orderId, order.id)))[0].kind).toBe('hold');

    await fundAdvertiser(t, w.ent.id, w.adv.id, 500);
    const paid = await w.advClient.call(endpoints.salesOrderPay, { id: order.id });
    expect(paid.envelope.code, paid.body).toBe(0);
    expect(paid.envelope.payload).toMatchObject({ state: 'toUpload', frozenAmount: 800, paidAmount: 0 });
    expect(await balanceOf(t, wallet)).toEqual({ balance: 1_000, available: 200 });
    const [hold] = await transfersOf(order.id);
    expect(hold).toMatchObject({
      id: `sales:${order.id}:hold`,
      phase: 'pending',
      state: 'pending',
      amount: 800,
      debitAccountId: wallet,
      creditAccountId: enterpriseWalletId(w.ent.id),
    });
    expect((await t.db.select().from(salesBookings).where(eq(salesBookings.orderId, order.id)))[0]).toMatchObject({
      kind: 'booked',
      expiresAt: null,
    });
    // Paying twice: the state refuses it.
    expect((await w.advClient.call(endpoints.salesOrderPay, { id: order.id })).envelope.code).toBe(
      ErrorCode.SALES_ORDER_STATE,
    );
    const info = await w.advClient.call(endpoints.salesOrderInfo, { id: order.id });
    expect(info.envelope.payload!.transfers).toEqual([expect.objectContaining({ code: 'hold', amount: 800 })]);
    // The ledger's movement names the order by number and links to its page.
    const finance = await w.advClient.call(endpoints.financeMovements, {
      walletId: wallet,
      page: 1,
      size: 20,
    } as never);
    const movement = (
      finance.envelope.payload as { data: { cause: { label: string; route: string | null } }[] }
    ).data.find((m) => m.cause.route?.includes(order.id));
    expect(movement?.cause).toMatchObject({ label: order.no, route: `/operate/orderDetail?id=${order.id}` });
  });

  it('a hold past its time cannot be paid, and the job cancels it with a simulated clock', async () => {
    const w = await world();
    // The operator holds unpaid orders for 30 minutes.
    await t.db
      .insert(salesSettings)
      .values({ entId: w.ent.id, holdMinutes: 30, impressionsPerPlayPct: 100, defaultRemedy: 'credit' });
    const couponId = await insertCoupon(t.db, {
      entId: w.ent.id,
      validFrom: salesDay(t, 0),
      validTo: salesDay(t, 10),
    });
    const order = await place(w.advClient, request(w, { lines: [{ slotId: w.slotId, rotations: 2 }], couponId }));
    const start = t.clock.now();
    expect(new Date(order.holdUntil!).getTime()).toBe(start + 30 * MINUTE);
    try {
      // Before the lapse the job leaves it.
      expect(await expireOrderHolds(t.db, new Date(start + 29 * MINUTE))).toBe(0);
      t.clock.set(new Date(order.holdUntil!).getTime() + MINUTE);
      await fundAdvertiser(t, w.ent.id, w.adv.id, 10_000);
      expect((await w.advClient.call(endpoints.salesOrderPay, { id: order.id })).envelope.code).toBe(
        ErrorCode.SALES_ORDER_STATE,
      );
      expect(await expireOrderHolds(t.db, now())).toBeGreaterThanOrEqual(1);
      const [row] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, order.id));
      expect(row).toMatchObject({ state: 'cancelled', cancelReason: 'holdExpired' });
      expect(await liveBookings(order.id)).toBe(0);
      expect((await t.db.select().from(salesCoupons).where(eq(salesCoupons.id, couponId)))[0].used).toBe(0);
      // Idempotent: a second run finds nothing more of this order.
      await expireOrderHolds(t.db, now());
      const info = await w.advClient.call(endpoints.salesOrderInfo, { id: order.id });
      // Newest first.
      expect(info.envelope.payload!.events.map((e) => [e.from, e.to, e.actorName])).toEqual([
        ['unpaid', 'cancelled', ''],
        [null, 'unpaid', 'Buyer one'],
      ]);
    } finally {
      t.clock.set(start);
    }
  });

  it('cancelling refunds exactly what was frozen, once, however often it is asked', async () => {
    const w = await world();
    const wallet = advertiserWalletId(w.adv.id);
    await fundAdvertiser(t, w.ent.id, w.adv.id, 3_000);
    const couponId = await insertCoupon(t.db, {
      entId: w.ent.id,
      validFrom: salesDay(t, 0),
      validTo: salesDay(t, 10),
      discountPct: 50,
    });

    // Unpaid: holds and the coupon use released, nothing in the ledger.
    const unpaid = await place(w.advClient, request(w, { couponId }));
    const c1 = await w.advClient.call(endpoints.salesOrderCancel, { id: unpaid.id });
    expect(c1.envelope.payload).toMatchObject({ state: 'cancelled', cancelReason: 'buyer', refundedAmount: 0 });
    expect(await liveBookings(unpaid.id)).toBe(0);
    expect((await t.db.select().from(salesCoupons).where(eq(salesCoupons.id, couponId)))[0].used).toBe(0);
    expect(await transfersOf(unpaid.id)).toEqual([]);

    // Paid (toUpload): the hold is voided, the wallet whole again; retried at once, it refunds once.
    const order = await place(w.advClient, request(w, { lines: [{ slotId: w.slotId, rotations: 2 }] }));
    expect((await w.advClient.call(endpoints.salesOrderPay, { id: order.id })).envelope.code).toBe(0);
    expect(await balanceOf(t, wallet)).toEqual({ balance: 3_000, available: 1_400 });
    const answers = await Promise.all([
      w.client.call(endpoints.salesOrderCancel, { id: order.id, note: 'customer asked' }),
      w.advClient.call(endpoints.salesOrderCancel, { id: order.id }),
      w.client.call(endpoints.salesOrderCancel, { id: order.id }),
    ]);
    expect(answers.filter((a) => a.envelope.code === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.envelope.code === ErrorCode.SALES_ORDER_STATE)).toHaveLength(2);
    expect(await balanceOf(t, wallet)).toEqual({ balance: 3_000, available: 3_000 });
    const moves = await transfersOf(order.id);
    expect(moves.map((m) => [m.id, m.phase, m.amount])).toEqual([
      [`sales:${order.id}:hold`, 'pending', 1_600],
      [`sales:${order.id}:void`, 'void', 1_600],
    ]);
    const [row] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, order.id));
    expect(row).toMatchObject({ state: 'cancelled', paidAmount: 0, refundedAmount: 1_600 });
    expect(await liveBookings(order.id)).toBe(0);
    // The rotations are for sale again.
    await place(w.advClient, request(w, { lines: [{ slotId: w.slotId, rotations: 2 }] }));
    // Cancelled stays cancelled.
    expect((await w.advClient.call(endpoints.salesOrderCancel, { id: order.id })).envelope.code).toBe(
      ErrorCode.SALES_ORDER_STATE,
    );
  });

  it('an advertiser sees its own orders only; staff those of the advertisers assigned to them', async () => {
    const w = await world({ maxRotations: 10 });
    const staff = await createUser(t.db, w.ent, { dataScope: 'self', deptIds: [w.ent.depts.b] });
    const staffClient = await t.loginAs(staff);
    const mine = await insertSalesAdvertiser(t, w.ent, { staffIds: [staff.id], deptId: w.ent.depts.a });
    const mineClient = await t.loginAs(mine);
    const a = await place(w.advClient, request(w));
    const b = await place(mineClient, request(w));
    const byStaff = await place(staffClient, request(w, { advertiserId: mine.id }));
    expect(byStaff.advertiserId).toBe(mine.id);
    // Staff cannot order for an advertiser not theirs.
    expect(
      (await staffClient.call(endpoints.salesOrderCreate, request(w, { advertiserId: w.adv.id }) as never)).envelope
        .code,
    ).toBe(ErrorCode.NOT_FOUND);

    const ids = async (c: ApiClient) =>
      (await c.call(endpoints.salesOrderList, { page: 1, size: 50 } as never)).envelope
        .payload!.data.map((o) => o.id)
        .sort();
    expect(await ids(w.advClient)).toEqual([a.id]);
    expect(await ids(mineClient)).toEqual([b.id, byStaff.id].sort());
    expect(await ids(staffClient)).toEqual([b.id, byStaff.id].sort());
    expect(await ids(w.client)).toEqual([a.id, b.id, byStaff.id].sort());
    expect((await w.advClient.call(endpoints.salesOrderInfo, { id: b.id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await staffClient.call(endpoints.salesOrderCancel, { id: a.id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    // The advertiser options: itself; staff: its assigned advertisers.
    const opts = await w.advClient.call(endpoints.salesAdvertiserOptions, {});
    expect(opts.envelope.payload!.data.map((o) => o.id)).toEqual([w.adv.id]);
    const staffOpts = await staffClient.call(endpoints.salesAdvertiserOptions, {});
    expect(staffOpts.envelope.payload!.data.map((o) => o.id)).toEqual([mine.id]);

    // Counts per state over the filter; a staff cancel is the operator's.
    await staffClient.call(endpoints.salesOrderCancel, { id: byStaff.id });
    const list = await w.client.call(endpoints.salesOrderList, { page: 1, size: 50, state: 'unpaid' } as never);
    expect(list.envelope.payload!.total).toBe(2);
    expect(list.envelope.payload!.counts).toMatchObject({ unpaid: 2, cancelled: 1, paid: 0 });
    const [cancelled] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, byStaff.id));
    expect(cancelled.cancelReason).toBe('operator');
    const keyword = await w.client.call(endpoints.salesOrderList, { page: 1, size: 50, keyword: `${a.no}-1` } as never);
    expect(keyword.envelope.payload!.data.map((o) => o.id)).toEqual([a.id]);
  });
  it('exports the orders the caller sees, in its language, to the fen', async () => {
    const w = await world({ maxRotations: 10 });
    await fundAdvertiser(t, w.ent.id, w.adv.id, 10_000);
    const a = await place(w.advClient, request(w));
    expect((await w.advClient.call(endpoints.salesOrderPay, { id: a.id })).envelope.code).toBe(0);
    const other = await insertSalesAdvertiser(t, w.ent);
    await place(await t.loginAs(other), request(w, { hours: [12] }));
    const ja = await t.loginAs(w.adv, { language: 'ja' });
    const started = await ja.call(endpoints.salesOrderExportStart, {} as never);
    expect(started.envelope.code, started.body).toBe(0);
    const exportId = started.envelope.payload!.exportId;
    await runExport(t.services, exportId, t.app.log, true);
    const status = await ja.call(endpoints.salesOrderExportStatus, { exportId });
    expect(status.envelope.payload).toMatchObject({ status: 'done', total: 1 });
    const file = await ja.call(endpoints.salesOrderExportDownload, { exportId });
    expect(file.status).toBe(200);
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0].name).toBe('広告枠の注文');
    const values = wb.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
    expect(values).toHaveLength(2);
    expect(values[0][1]).toBe('注文番号');
    expect(values[1].slice(1, 5)).toEqual([a.no, 'Buyer one', expect.any(String), '素材待ち']);
    // Amount, paid, frozen, refunded in yuan.
    expect(values[1].slice(11, 15)).toEqual(['8.00', '0.00', '8.00', '0.00']);
    // Someone else cannot read the caller's export.
    expect((await w.client.call(endpoints.salesOrderExportStatus, { exportId })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });
});
