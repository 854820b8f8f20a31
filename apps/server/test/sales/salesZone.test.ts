import { ErrorCode, endpoints, hoursMask } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderAdFrame } from '../../src/modules/sales/orderAds.js';
import { settleEndedOrders } from '../../src/modules/sales/orderJobs.js';
import { insertCoupon, insertGoods, insertSalesAdvertiser, insertSalesOrder, insertSlot } from '../fixtures/sales.js';
import { createEnterprise, createUser } from '../helpers/factories.js';
import { type ApiClient, BACKENDS, type TestApp } from '../helpers/index.js';
import { activatedScreens, orderTestApp } from './delivery.js';

/**
 * The sales calendar in the selling enterprise's zone (issue 31): goods', orders' and coupons'
 * dates are days of Asia/Shanghai for a Shanghai enterprise, whose 2 December begins at 16:00
 * UTC on 1 December. What UTC would still call 1 December is already the 2nd: an order can no
 * longer start on the 1st, a coupon valid to the 1st is over, an order ending on the 1st is
 * settled, and an order's ad runs from Shanghai's midnight. Both databases.
 */
const at = (iso: string) => Date.parse(iso);

describe.each(BACKENDS)('the sales calendar in the enterprise zone on %s', (backend) => {
  let t: TestApp;
  let staff: ApiClient;
  let entId: string;
  let adminId: string;
  let slotId: string;
  let goodsId: string;
  let couponId: string;
  let deviceIds: string[];
  let advertiserId: string;

  beforeAll(async () => {
    t = await orderTestApp(backend);
    t.clock.set(at('2026-12-01T12:00:00Z'));
    const ent = await createEnterprise(t.db, { timeZone: 'Asia/Shanghai' });
    const admin = await createUser(t.db, ent, { isEntAdmin: true });
    entId = ent.id;
    adminId = admin.id;
    staff = await t.loginAs(admin);
    deviceIds = await activatedScreens(t, ent, admin.id, 2);
    slotId = await insertSlot(t.db, { entId, deviceIds, maxRotations: 2, price: 100 });
    goodsId = await insertGoods(t.db, {
      entId,
      slotIds: [slotId],
      startDate: '2026-12-01',
      endDate: '2026-12-31',
      unitPrice: 100,
    });
    couponId = await insertCoupon(t.db, { entId, validFrom: '2026-11-20', validTo: '2026-12-01', discountPct: 80 });
    advertiserId = (await insertSalesAdvertiser(t, ent, { realName: '上海咖啡馆' })).id;
  });
  afterAll(() => t?.close());

  const quote = (startDate: string, extra: Record<string, unknown> = {}) =>
    staff.call(endpoints.salesQuote, {
      goodsId,
      advertiserId,
      startDate,
      endDate: '2026-12-05',
      hours: [8, 9],
      lines: [{ slotId, rotations: 1 }],
      ...extra,
    } as never);

  it("refuses a first day before Shanghai's today, which begins at 16:00 UTC", async () => {
    t.clock.set(at('2026-12-01T15:59:00Z'));
    expect((await quote('2026-12-01')).envelope.code).toBe(0);
    t.clock.set(at('2026-12-01T16:01:00Z'));
    expect((await quote('2026-12-01')).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect((await quote('2026-12-02')).envelope.code).toBe(0);
  });

  it('ends a coupon with its last Shanghai day', async () => {
    t.clock.set(at('2026-12-01T15:59:00Z'));
    expect((await quote('2026-12-02', { couponId })).envelope.code).toBe(0);
    const before = await staff.call(endpoints.salesCouponList, { page: 1, size: 50 });
    expect(before.envelope.payload?.data.find((c) => c.id === couponId)?.state).toBe('available');
    t.clock.set(at('2026-12-01T16:01:00Z'));
    expect((await quote('2026-12-02', { couponId })).envelope.code).toBe(ErrorCode.COUPON_UNAVAILABLE);
    const after = await staff.call(endpoints.salesCouponList, { page: 1, size: 50, state: 'expired' });
    expect(after.envelope.payload?.data.map((c) => c.id)).toEqual([couponId]);
  });

  it("settles an order after its last Shanghai day, by the jobs' clock", async () => {
    t.clock.set(at('2026-12-01T12:00:00Z'));
    const order = await insertSalesOrder(t, {
      entId,
      advertiserId,
      slotId,
      deviceIds,
      startDate: '2026-12-02',
      endDate: '2026-12-02',
      state: 'inProgress',
      createdBy: adminId,
    });
    // 23:59 on 2 December in Shanghai: the order's day is not over.
    expect(await settleEndedOrders(t.db, new Date(at('2026-12-02T15:59:00Z')))).toBe(0);
    // 00:01 on the 3rd in Shanghai, still the 2nd in UTC: it is.
    expect(await settleEndedOrders(t.db, new Date(at('2026-12-02T16:01:00Z')))).toBe(1);
    const info = await staff.call(endpoints.salesSettlementInfo, { orderId: order.id, page: 1, size: 50 } as never);
    expect(info.envelope.code).toBe(0);
  });

  it("frames an order's ad from 00:00 of its first Shanghai day to 00:00 after its last", () => {
    const frame = orderAdFrame(
      { startDate: '2026-12-02', endDate: '2026-12-03', hoursMask: hoursMask([8, 9]) },
      { slotId: 's', rotations: 1 },
      ['d'],
      'Asia/Shanghai',
    );
    expect(frame.startAt.toISOString()).toBe('2026-12-01T16:00:00.000Z');
    expect(frame.endAt.toISOString()).toBe('2026-12-03T16:00:00.000Z');
    // The hours stay a wall-clock range, read on each device's own clock.
    expect(frame.periods).toEqual([{ start: '08:00', end: '10:00' }]);
  });
});
