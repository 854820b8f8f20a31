import { ErrorCode, orderAmounts } from '@marquee/protocol';
import { expect, test } from '@playwright/test';
import { apiCall, loginApi } from '../fixtures/api.js';
import { pairOnlineScreens } from '../fixtures/market.js';
import { uniqueName } from '../fixtures/org.js';
import { fundOffline, newAdvertiser, ok, utcDay, wallet } from '../fixtures/sales.js';

/**
 * Selling airtime through the real HTTP API (issue 28), with signed calls only: the demo
 * enterprise's administrator puts two online screens (headless players) into a CPT slot of two
 * rotations, packages it as goods for two days x two hours and puts them on sale, with a 10%-off
 * coupon; a new advertiser, funded by an offline recharge, sees the goods, their availability
 * and a quote, orders one rotation with the coupon (held), pays (the amount frozen in its
 * wallet, the rotations booked); an order for two more rotations of the same screen-hours is
 * TIME_CONFLICT; cancelling the paid order refunds exactly its amount once (a retry moves
 * nothing), gives the coupon's use back and frees the rotations.
 */
test('goods on sale, availability, a quote, an order with a coupon paid and cancelled with its refund', async () => {
  test.setTimeout(180_000);
  const admin = await loginApi('entadmin');
  const token = admin.token;
  const { players, ids: screenIds } = await pairOnlineScreens(token, [
    uniqueName('E2E sales screen A'),
    uniqueName('E2E sales screen B'),
  ]);
  try {
    // The operator's inventory: a CPT slot over the two screens, goods of it, a coupon.
    const price = 150;
    const slot = await ok(
      'salesSlotSave',
      {
        name: uniqueName('E2E 轮播'),
        screenSize: '55"',
        width: 1920,
        height: 1080,
        durationSec: 15,
        salesMethod: 'cpt',
        cptPrice: price,
        maxRotations: 2,
        targets: { deviceIds: screenIds, groupIds: [], tagIds: [], spliceIds: [] },
      },
      token,
    );
    expect(slot).toMatchObject({ salesMethod: 'cpt', cptPrice: price, maxRotations: 2, screens: 2 });
    const startDate = utcDay(1);
    const endDate = utcDay(2);
    const hours = [10, 11];
    const goods = await ok(
      'salesGoodsSave',
      {
        name: uniqueName('E2E goods'),
        description: '',
        kind: 'single',
        startDate,
        endDate,
        hours,
        lines: [{ slotId: slot.id, deviceIds: [] }],
      },
      token,
    );
    expect(goods.state).toBe('offShelf');
    expect((await ok('salesGoodsShelf', { id: goods.id, onSale: true }, token)).state).toBe('onSale');
    const coupon = await ok(
      'salesCouponSave',
      { name: uniqueName('E2E 九折'), discount: 0.9, limit: 100, validFrom: utcDay(0), validTo: endDate, goodsIds: [] },
      token,
    );
    expect(coupon).toMatchObject({ discount: 0.9, limit: 100, used: 0 });

    // The advertiser, funded the offline way: 1,000 yuan.
    const buyer = await newAdvertiser(token);
    await fundOffline(buyer.token, 100_000);
    const funded = await wallet(buyer.token);
    expect(funded).toMatchObject({ available: 100_000, frozen: 0 });

    // It sees the goods on sale and their availability: 2 screens x 2 days x 2 hours x 2 rotations.
    const list = await ok('salesGoodsList', { page: 1, size: 50, keyword: goods.name }, buyer.token);
    expect(list.data.map((g) => [g.id, g.state])).toEqual([[goods.id, 'onSale']]);
    const ask = { slotId: slot.id, deviceIds: [], startDate, endDate, hours, granularity: 'hour' as const };
    const free = await ok('salesAvailability', { ...ask, page: 1, size: 50 }, buyer.token);
    expect(free.total).toMatchObject({ capacity: 16, booked: 0, held: 0, available: 16 });
    expect(free.bookable).toBe(2);
    expect(free.series).toHaveLength(4);
    expect(free.screens.total).toBe(2);

    // A quote with the coupon: the list price, 10% off, the wallet's available balance.
    const order = {
      goodsId: goods.id,
      startDate,
      endDate,
      hours,
      lines: [{ slotId: slot.id, deviceIds: [], rotations: 1 }],
      couponId: coupon.id,
    };
    const expected = orderAmounts(
      [{ method: 'cpt', unitPrice: price, rotations: 1, screens: 2, days: 2, hoursPerDay: 2 }],
      100,
      90,
    );
    const quote = await ok('salesQuote', order, buyer.token);
    expect(quote).toMatchObject({
      listAmount: expected.listAmount,
      amount: expected.amount,
      available: 100_000,
      coupon: { id: coupon.id, discount: 0.9 },
      priceContract: null,
    });
    expect(quote.lines[0]).toMatchObject({ screens: 2, days: 2, hoursPerDay: 2, rotations: 1, bookable: 2 });

    // Ordered: unpaid, its rotations held, the coupon's use taken; nothing moved in the wallet.
    const placed = await ok('salesOrderCreate', order, buyer.token);
    expect(placed).toMatchObject({ state: 'unpaid', amount: expected.amount, couponId: coupon.id, screens: 2 });
    expect(placed.no).toMatch(/^S\d{8}/);
    expect(placed.holdUntil).not.toBeNull();
    const held = await ok('salesAvailability', { ...ask, page: 1, size: 50 }, buyer.token);
    expect(held.total).toMatchObject({ held: 8, booked: 0, available: 8 });
    expect(held.bookable).toBe(1);
    expect(await wallet(buyer.token)).toMatchObject({ available: 100_000, frozen: 0 });

    // Paid: the amount frozen in the advertiser's wallet, the rotations booked; materials next.
    const paid = await ok('salesOrderPay', { id: placed.id }, buyer.token);
    expect(paid).toMatchObject({ state: 'toUpload', frozenAmount: expected.amount, paidAmount: 0 });
    expect(await wallet(buyer.token)).toMatchObject({ available: 100_000 - expected.amount, frozen: expected.amount });
    const booked = await ok('salesAvailability', { ...ask, page: 1, size: 50 }, buyer.token);
    expect(booked.total).toMatchObject({ booked: 8, held: 0, available: 8 });
    // Paying twice is refused, and moves nothing.
    expect((await apiCall('salesOrderPay', { id: placed.id }, { token: buyer.token })).code).toBe(
      ErrorCode.SALES_ORDER_STATE,
    );

    // Two more rotations of the same screen-hours: only one is left, so the whole order is refused.
    const conflict = await apiCall(
      'salesOrderCreate',
      { ...order, couponId: null, lines: [{ slotId: slot.id, deviceIds: [], rotations: 2 }] },
      { token: buyer.token },
    );
    expect(conflict.code).toBe(ErrorCode.TIME_CONFLICT);
    expect((await ok('salesAvailability', { ...ask, page: 1, size: 50 }, buyer.token)).total.available).toBe(8);

    // The order's detail: one sub-order over the two screens, the ledger's hold.
    const info = await ok('salesOrderInfo', { id: placed.id }, buyer.token);
    expect(info.subOrders).toHaveLength(1);
    expect([...info.subOrders[0].deviceIds].sort()).toEqual([...screenIds].sort());
    expect(info.transfers.map((t) => [t.code, t.amount])).toEqual([['hold', expected.amount]]);

    // Cancelled: the hold is released (the whole amount back), the coupon's use and rotations freed.
    const cancelled = await ok('salesOrderCancel', { id: placed.id, note: '' }, buyer.token);
    expect(cancelled).toMatchObject({ state: 'cancelled', cancelReason: 'buyer', refundedAmount: expected.amount });
    expect(await wallet(buyer.token)).toMatchObject({ available: 100_000, frozen: 0 });
    // A retry refunds nothing more.
    const again = await apiCall('salesOrderCancel', { id: placed.id, note: '' }, { token: buyer.token });
    expect([0, ErrorCode.SALES_ORDER_STATE]).toContain(again.code);
    expect(await wallet(buyer.token)).toMatchObject({ available: 100_000, frozen: 0 });
    const uses = await ok('salesCouponUses', { couponId: coupon.id, page: 1, size: 50 }, token);
    expect(uses.data).toHaveLength(1);
    expect(uses.data[0].releasedAt).not.toBeNull();
    const after = await ok('salesCouponList', { page: 1, size: 50, keyword: coupon.name }, token);
    expect(after.data[0].used).toBe(0);
    expect((await ok('salesAvailability', { ...ask, page: 1, size: 50 }, buyer.token)).total).toMatchObject({
      booked: 0,
      held: 0,
      available: 16,
    });

    // The advertiser's ledger shows the recharge, the hold and its release, linked to the order.
    const movements = await ok('financeMovements', { page: 1, size: 50 }, buyer.token);
    const ofOrder = movements.data.filter((m) => m.cause.type === 'salesOrder' && m.cause.id === placed.id);
    expect(ofOrder.length).toBeGreaterThanOrEqual(1);

    // Now the whole screen-hours are free: two rotations can be ordered again.
    const second = await ok(
      'salesOrderCreate',
      { ...order, couponId: null, lines: [{ slotId: slot.id, deviceIds: [], rotations: 2 }] },
      buyer.token,
    );
    expect(second.state).toBe('unpaid');
    await ok('salesOrderCancel', { id: second.id, note: '' }, buyer.token);
    expect(await wallet(buyer.token)).toMatchObject({ available: 100_000, frozen: 0 });
  } finally {
    for (const player of players) await player.stop();
  }
});
