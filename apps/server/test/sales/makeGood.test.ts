import { endpoints } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ads,
  ledgerTransfers,
  salesBookingDevices,
  salesBookings,
  salesOrders,
  salesSettlements,
} from '../../src/db/schema/index.js';
import { completeSettlements } from '../../src/modules/sales/settlementJobs.js';
import { insertSalesAdvertiser, insertSalesOrder, salesDay } from '../fixtures/sales.js';
import { BACKENDS, type TestApp } from '../helpers/index.js';
import { paymentsTestApp } from '../payments/helpers.js';
import { at, inProgressOrder as newInProgressOrder, playAd } from './delivery.js';

/**
 * Make-goods (issue 28): an under-delivered screen-day with the remedy 'extraPlays' is booked
 * again on that screen (kind makeGood) on the next day with room after the confirm (a full
 * screen-hour skipped), its make-good ad a copy of the approved order ad on that screen and
 * day (review carried), the settlement paid until then; the hourly job completes it and
 * settles the order the day after, with a simulated clock. Both databases.
 */
describe.each(BACKENDS)('sales make-goods on %s', (backend) => {
  let t: TestApp;
  const d = new Date();
  const base = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - 10, 1, 0, 0);
  beforeAll(async () => {
    t = await paymentsTestApp(backend);
  });
  beforeEach(() => t.clock.set(base));
  afterAll(() => t?.close());

  const play = (entId: string, deviceId: string, adId: string, day: string, hour: number, n: number) =>
    playAd(t, entId, deviceId, adId, day, hour, n);
  const inProgressOrder = (o: Parameters<typeof newInProgressOrder>[1]) => newInProgressOrder(t, o);

  it('books extra plays on the next free day, schedules the make-good ad, completes by the job', async () => {
    const o = await inProgressOrder({ screens: 2, days: 2, hours: [8] });
    const [a, b] = o.deviceIds;
    const [d1, d2, d3, d4, d5, d6] = [1, 2, 3, 4, 5, 6].map((n) => salesDay(t, n));
    for (const day of [d1, d2]) await play(o.ent.id, a, o.adId, day, 8, 360);
    await play(o.ent.id, b, o.adId, d1, 8, 360);
    // b's hour 8 on d4 is sold out by another order (4 of 4 rotations).
    const other = await insertSalesAdvertiser(t, o.ent);
    await insertSalesOrder(t, {
      entId: o.ent.id,
      advertiserId: other.id,
      slotId: o.slotId,
      deviceIds: [b],
      startDate: d4,
      endDate: d4,
      state: 'paid',
      hours: [8],
      rotations: 4,
    });

    t.clock.set(at(d3, 2));
    const client = await t.loginAs(o.admin);
    expect((await client.call(endpoints.salesSettlementCompute, { orderId: o.order.id })).envelope.code).toBe(0);
    const chosen = await client.call(endpoints.salesSettlementRemedy, { orderId: o.order.id, remedy: 'extraPlays' });
    expect(chosen.envelope.payload).toMatchObject({ underDeliveredScreenDays: 1, creditAmount: 0, billedAmount: 400 });
    const confirmed = await client.call(endpoints.salesSettlementConfirm, { orderId: o.order.id });
    expect(confirmed.envelope.code, confirmed.body).toBe(0);
    expect(confirmed.envelope.payload).toMatchObject({ state: 'paid', makeGoodUntil: d5, billedAmount: 400 });

    // The make-good booking: b only, d5 (d4 was full), the order's hours and rotations.
    const bookings = await t.db
      .select()
      .from(salesBookings)
      .where(and(eq(salesBookings.orderId, o.order.id), eq(salesBookings.kind, 'makeGood')));
    expect(bookings).toHaveLength(1);
    expect(bookings[0]).toMatchObject({ startDate: d5, endDate: d5, rotations: 1, hoursMask: 1 << 8 });
    const devs = await t.db.select().from(salesBookingDevices).where(eq(salesBookingDevices.bookingId, bookings[0].id));
    expect(devs.map((x) => x.deviceId)).toEqual([b]);
    // The make-good ad: a copy of the approved ad on b for d5.
    const copies = (await t.db.select().from(ads).where(eq(ads.entId, o.ent.id))).filter((x) => x.id !== o.adId);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ source: 'order', slotId: o.slotId, reviewState: 'passed', strategy: 'perLoop' });
    expect(copies[0].targets.deviceIds).toEqual([b]);
    expect(copies[0].startAt.toISOString()).toBe(`${d5}T00:00:00.000Z`);
    expect(copies[0].endAt.toISOString()).toBe(`${d6}T00:00:00.000Z`);
    // Money: all 400 posted (extra plays instead of a credit); the order still in progress.
    const [order] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, o.order.id));
    expect(order).toMatchObject({ state: 'inProgress', paidAmount: 400, refundedAmount: 0 });
    const post = await t.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.id, `sales:${o.order.id}:post`));
    expect(post[0]?.amount).toBe(400);

    // The job: not before the make-good day is over; then completed and settled, once.
    expect(await completeSettlements(t.db, new Date(at(d5, 23)))).toBe(0);
    expect(await completeSettlements(t.db, new Date(at(d6, 1)))).toBe(1);
    expect(await completeSettlements(t.db, new Date(at(d6, 2)))).toBe(0);
    const [s] = await t.db.select().from(salesSettlements).where(eq(salesSettlements.orderId, o.order.id));
    expect(s.state).toBe('completed');
    const [settled] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, o.order.id));
    expect(settled.state).toBe('settled');
  });
});
