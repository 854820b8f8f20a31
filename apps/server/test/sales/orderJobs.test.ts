import { ErrorCode, endpoints } from '@marquee/protocol';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerTransfers, salesBookings, salesOrders, salesSettlements } from '../../src/db/schema/index.js';
import { advertiserWalletId, enterpriseWalletId } from '../../src/modules/ledger/accounts.js';
import {
  expireOrderHolds,
  lapseUnstartedOrders,
  settleEndedOrders,
  startOrders,
} from '../../src/modules/sales/orderJobs.js';
import { deliveredAmount } from '../../src/modules/sales/settlement.js';
import { insertSalesAdvertiser, insertSalesOrder, insertSlot, salesDay } from '../fixtures/sales.js';
import { BACKENDS, MINUTE, type TestApp } from '../helpers/index.js';
import { balanceOf } from '../payments/helpers.js';
import { activatedScreens, orderTestApp } from './delivery.js';

/**
 * The order jobs (issue 28) with a simulated clock: the hold expiry cancels exactly the
 * unpaid orders whose hold lapsed, in batches, once; the advance job starts only paid orders
 * whose every sub-order has an approved ad, from their first day. Both databases.
 */
describe.each(BACKENDS)('sales order jobs on %s', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await orderTestApp(backend);
  });
  afterAll(() => t?.close());

  const now = () => new Date(t.clock.now());

  async function world() {
    const { ent, admin, client } = await t.tenant();
    const deviceIds = await activatedScreens(t, ent, admin.id, 2);
    const slotId = await insertSlot(t.db, { entId: ent.id, deviceIds, maxRotations: 10 });
    const adv = await insertSalesAdvertiser(t, ent);
    const order = (state: 'unpaid' | 'paid' | 'toUpload' | 'inProgress', startOffset = 1) =>
      insertSalesOrder(t, {
        entId: ent.id,
        advertiserId: adv.id,
        slotId,
        deviceIds,
        startDate: salesDay(t, startOffset),
        endDate: salesDay(t, startOffset + 1),
        state,
      });
    return { ent, adv, client, order };
  }

  const stateOf = async (id: string) => (await t.db.select().from(salesOrders).where(eq(salesOrders.id, id)))[0];

  it('the hold expiry cancels exactly the lapsed unpaid orders, in batches, once', async () => {
    const w = await world();
    const orders = await Promise.all([0, 1, 2, 3, 4].map(() => w.order('unpaid')));
    const lapsed = orders.slice(0, 3).map((o) => o.id);
    // Three holds lapsed 10 minutes ago (in the fixture they last a day).
    await t.db
      .update(salesOrders)
      .set({ holdUntil: new Date(t.clock.now() - 10 * MINUTE) })
      .where(inArray(salesOrders.id, lapsed));
    const paid = await w.order('paid');
    expect(await expireOrderHolds(t.db, now(), 2)).toBe(3);
    for (const id of lapsed) {
      expect(await stateOf(id)).toMatchObject({ state: 'cancelled', cancelReason: 'holdExpired', holdUntil: null });
      const bookings = await t.db.select().from(salesBookings).where(eq(salesBookings.orderId, id));
      expect(bookings.every((b) => b.releasedAt !== null)).toBe(true);
    }
    for (const o of orders.slice(3)) expect((await stateOf(o.id)).state).toBe('unpaid');
    expect((await stateOf(paid.id)).state).toBe('paid');
    // Again: nothing more.
    expect(await expireOrderHolds(t.db, now(), 2)).toBe(0);
  });

  it('the advance job leaves orders without approved ads, or before their first day', async () => {
    const w = await world();
    const noAd = await w.order('paid', 0);
    const toUpload = await w.order('toUpload', 0);
    const later = Date.parse(`${salesDay(t, 0)}T12:00:00Z`);
    expect(await startOrders(t.db, new Date(later))).toBe(0);
    expect((await stateOf(noAd.id)).state).toBe('paid');
    expect((await stateOf(toUpload.id)).state).toBe('toUpload');
  });
  it('an order whose period ended before it could start is cancelled and refunded in full, once', async () => {
    const w = await world();
    // Days -2 and -1: over before today, never started (no approved ad).
    const paid = await w.order('paid', -2);
    const toUpload = await w.order('toUpload', -2);
    const running = await w.order('paid', 0);
    const wallet = advertiserWalletId(w.adv.id);
    const before = await balanceOf(t, wallet);
    expect(await lapseUnstartedOrders(t.db, now(), 1)).toBe(2);
    for (const o of [paid, toUpload]) {
      expect(await stateOf(o.id)).toMatchObject({
        state: 'cancelled',
        cancelReason: 'notStarted',
        refundedAmount: o.amount,
      });
      const moves = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.causeId, o.id));
      expect(moves.map((m) => m.phase).sort()).toEqual(['pending', 'void']);
    }
    expect((await stateOf(running.id)).state).toBe('paid');
    expect((await balanceOf(t, wallet)).available).toBe(before.available + paid.amount + toUpload.amount);
    expect(await lapseUnstartedOrders(t.db, now())).toBe(0);
  });

  it('cancelling an order in progress posts what was delivered and releases the rest, once', async () => {
    const w = await world();
    // Days -1 and 0, hours 9 and 10, 2 screens, 1 rotation at 100 fen: 800 fen; at 01:00 of day 0 half the screen-hours are over.
    const order = await w.order('inProgress', -1);
    expect(order.amount).toBe(800);
    const delivered = await deliveredAmount(t.db, order.id, now());
    expect(delivered).toBe(400);
    const wallet = advertiserWalletId(w.adv.id);
    const before = await balanceOf(t, wallet);
    const operator = await balanceOf(t, enterpriseWalletId(w.ent.id));
    const answers = await Promise.all([
      w.client.call(endpoints.salesOrderCancel, { id: order.id }),
      w.client.call(endpoints.salesOrderCancel, { id: order.id }),
    ]);
    expect(answers.map((a) => a.envelope.code).sort()).toEqual([ErrorCode.SALES_ORDER_STATE, 0].sort());
    const done = answers.find((a) => a.envelope.code === 0)!.envelope.payload!;
    expect(done).toMatchObject({
      state: 'cancelled',
      paidAmount: delivered,
      refundedAmount: 800 - delivered,
      frozenAmount: 0,
    });
    expect(await balanceOf(t, wallet)).toEqual({
      balance: before.balance - delivered,
      available: before.balance - delivered,
    });
    expect((await balanceOf(t, enterpriseWalletId(w.ent.id))).balance).toBe(operator.balance + delivered);
    const moves = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.causeId, order.id));
    expect(moves.map((m) => [m.phase, m.amount]).sort()).toEqual([
      ['pending', 800],
      ['post', delivered],
    ]);
  });

  it('orders in progress whose last day is over get their settlement, once', async () => {
    const w = await world();
    const ended = await w.order('inProgress', -3);
    const running = await w.order('inProgress', 0);
    expect(await settleEndedOrders(t.db, now())).toBe(1);
    const [settlement] = await t.db.select().from(salesSettlements).where(eq(salesSettlements.orderId, ended.id));
    expect(settlement.state).toBe('toBePaid');
    expect(await t.db.select().from(salesSettlements).where(eq(salesSettlements.orderId, running.id))).toEqual([]);
    expect(await settleEndedOrders(t.db, now())).toBe(0);
    // An order with its settlement is settled, not cancelled.
    expect((await w.client.call(endpoints.salesOrderCancel, { id: ended.id })).envelope.code).toBe(
      ErrorCode.SALES_ORDER_STATE,
    );
  });
});
