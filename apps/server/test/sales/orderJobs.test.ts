import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, salesBookings, salesOrders } from '../../src/db/schema/index.js';
import { expireOrderHolds, startOrders } from '../../src/modules/sales/orderJobs.js';
import { insertSalesAdvertiser, insertSalesOrder, insertScreens, insertSlot, salesDay } from '../fixtures/sales.js';
import { BACKENDS, MINUTE, type TestApp } from '../helpers/index.js';
import { paymentsTestApp } from '../payments/helpers.js';

/**
 * The order jobs (issue 28) with a simulated clock: the hold expiry cancels exactly the
 * unpaid orders whose hold lapsed, in batches, once; the advance job starts only paid orders
 * whose every sub-order has an approved ad, from their first day. Both databases.
 */
describe.each(BACKENDS)('sales order jobs on %s', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await paymentsTestApp(backend);
    const d = new Date();
    t.clock.set(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1, 1, 0, 0));
  });
  afterAll(() => t?.close());

  const now = () => new Date(t.clock.now());

  async function world() {
    const { ent, admin } = await t.tenant();
    const deviceIds = await insertScreens(t, ent, admin.id, 2);
    await t.db.update(devices).set({ activatedAt: now() }).where(inArray(devices.id, deviceIds));
    const slotId = await insertSlot(t.db, { entId: ent.id, deviceIds, maxRotations: 10 });
    const adv = await insertSalesAdvertiser(t, ent);
    const order = (state: 'unpaid' | 'paid' | 'toUpload', startOffset = 1) =>
      insertSalesOrder(t, {
        entId: ent.id,
        advertiserId: adv.id,
        slotId,
        deviceIds,
        startDate: salesDay(t, startOffset),
        endDate: salesDay(t, startOffset + 1),
        state,
      });
    return { ent, order };
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
});
