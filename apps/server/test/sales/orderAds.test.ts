import { ErrorCode, endpoints } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, ledgerTransfers, salesOrderEvents, salesOrders } from '../../src/db/schema/index.js';
import { startOrders } from '../../src/modules/sales/orderJobs.js';
import {
  fundAdvertiser,
  insertAdvertiserMaterial,
  insertGoods,
  insertSalesAdvertiser,
  insertSlot,
  salesDay,
} from '../fixtures/sales.js';
import { type ApiClient, BACKENDS, type TestApp } from '../helpers/index.js';
import { activatedScreens, orderTestApp } from './delivery.js';

/**
 * An order's ads (issue 28): materials given to a sub-order make its ad (source 'order', the
 * order's slot, screens, days, hours and rotations), which goes through review; a failed ad
 * is edited by the next call (a new round); every sub-order with an ad moves the order to
 * paid, and approved ads on the first day move it to inProgress (the advance job, with a
 * simulated clock). ad.update keeps an order ad's frame; cancelling retires its ads. Both
 * databases.
 */
describe.each(BACKENDS)('sales order ads on %s', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await orderTestApp(backend);
  });
  afterAll(() => t?.close());

  const now = () => new Date(t.clock.now());

  /** A paid order of 2 screens x days 1..2 x hours 8, 9 x 2 rotations, with the advertiser's material. */
  async function paidOrder() {
    const { ent, admin, client } = await t.tenant();
    const deviceIds = await activatedScreens(t, ent, admin.id, 2);
    const slotId = await insertSlot(t.db, { entId: ent.id, deviceIds, maxRotations: 4, price: 100 });
    const goodsId = await insertGoods(t.db, {
      entId: ent.id,
      slotIds: [slotId],
      startDate: salesDay(t, 0),
      endDate: salesDay(t, 30),
    });
    const adv = await insertSalesAdvertiser(t, ent);
    const advClient = await t.loginAs(adv);
    await fundAdvertiser(t, ent.id, adv.id, 10_000);
    const created = await advClient.call(endpoints.salesOrderCreate, {
      goodsId,
      startDate: salesDay(t, 1),
      endDate: salesDay(t, 2),
      hours: [8, 9],
      lines: [{ slotId, rotations: 2 }],
    } as never);
    expect(created.envelope.code, created.body).toBe(0);
    const order = created.envelope.payload!;
    const paid = await advClient.call(endpoints.salesOrderPay, { id: order.id });
    expect(paid.envelope.payload?.state).toBe('toUpload');
    const info = await advClient.call(endpoints.salesOrderInfo, { id: order.id });
    const subOrderId = info.envelope.payload!.subOrders[0].id;
    const materialId = await insertAdvertiserMaterial(t, ent.id, adv.id);
    return { ent, admin, client, deviceIds, slotId, adv, advClient, order, subOrderId, materialId };
  }

  const adOf = async (id: string) => (await t.db.select().from(ads).where(eq(ads.id, id)))[0];
  const give = (c: ApiClient, o: { order: { id: string }; subOrderId: string }, materialIds: string[], name?: string) =>
    c.call(endpoints.salesOrderMaterials, { id: o.order.id, subOrderId: o.subOrderId, materialIds, name } as never);

  it('materials make the order ad through review; approved, the first day starts the order', async () => {
    const o = await paidOrder();
    // Another advertiser's material is not this advertiser's.
    const stranger = await insertSalesAdvertiser(t, o.ent);
    const foreign = await insertAdvertiserMaterial(t, o.ent.id, stranger.id);
    expect((await give(o.advClient, o, [foreign])).envelope.code).toBe(ErrorCode.NOT_FOUND);

    const given = await give(o.advClient, o, [o.materialId]);
    expect(given.envelope.code, given.body).toBe(0);
    expect(given.envelope.payload!.state).toBe('paid');
    const info = (await o.advClient.call(endpoints.salesOrderInfo, { id: o.order.id })).envelope.payload!;
    const sub = info.subOrders[0];
    expect(sub).toMatchObject({ adReviewState: 'pending', adName: `${o.order.no}-1` });
    const ad = await adOf(sub.adId!);
    expect(ad).toMatchObject({
      source: 'order',
      slotId: o.slotId,
      ownerId: o.adv.id,
      strategy: 'perLoop',
      playsMin: 2,
      playsMax: 2,
      periods: [{ start: '08:00', end: '10:00' }],
      materialIds: [o.materialId],
      reviewState: 'pending',
    });
    expect(ad.targets.deviceIds.sort()).toEqual([...o.deviceIds].sort());
    expect(ad.startAt.toISOString()).toBe(`${salesDay(t, 1)}T00:00:00.000Z`);
    expect(ad.endAt.toISOString()).toBe(`${salesDay(t, 3)}T00:00:00.000Z`);

    // An ad under review is not replaced by another call.
    expect((await give(o.advClient, o, [o.materialId])).envelope.code).toBe(ErrorCode.SALES_ORDER_STATE);
    // Failed review: the next call edits the same ad (a new round).
    const failed = await o.client.call(endpoints.adAuditFail, { id: ad.id, round: 1, reason: 'Too dark' } as never);
    expect(failed.envelope.code, failed.body).toBe(0);
    const again = await give(o.advClient, o, [o.materialId], 'Brighter');
    expect(again.envelope.code, again.body).toBe(0);
    expect(await adOf(ad.id)).toMatchObject({ name: 'Brighter', reviewState: 'pending', reviewRound: 2 });

    // Not approved yet: the first day does not start it.
    const first = Date.parse(`${salesDay(t, 1)}T00:30:00Z`);
    expect(await startOrders(t.db, new Date(first))).toBe(0);
    const pass = await o.client.call(endpoints.adAuditPass, { id: ad.id, round: 2 } as never);
    expect(pass.envelope.code, pass.body).toBe(0);
    // Approved, before the first day: still paid.
    expect(await startOrders(t.db, now())).toBe(0);
    expect(await startOrders(t.db, new Date(first))).toBe(1);
    expect(await startOrders(t.db, new Date(first))).toBe(0);
    const [row] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, o.order.id));
    expect(row.state).toBe('inProgress');
    const events = await t.db.select().from(salesOrderEvents).where(eq(salesOrderEvents.orderId, o.order.id));
    expect(events.map((e) => [e.fromState, e.toState, e.actorId === null])).toEqual(
      expect.arrayContaining([
        ['toUpload', 'paid', false],
        ['paid', 'inProgress', true],
      ]),
    );
  });

  it('ad.update keeps what the order bought; name and content may change (a new review round)', async () => {
    const o = await paidOrder();
    const given = await give(o.advClient, o, [o.materialId]);
    expect(given.envelope.code, given.body).toBe(0);
    const info = (await o.advClient.call(endpoints.salesOrderInfo, { id: o.order.id })).envelope.payload!;
    const ad = await adOf(info.subOrders[0].adId!);
    const body = {
      id: ad.id,
      name: ad.name,
      type: ad.type,
      startAt: ad.startAt.toISOString(),
      endAt: ad.endAt.toISOString(),
      strategy: ad.strategy,
      playsMin: ad.playsMin,
      playsMax: ad.playsMax,
      periods: ad.periods,
      slotId: ad.slotId,
      materialIds: ad.materialIds,
      targets: { deviceIds: ad.targets.deviceIds, groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
    };
    const refused = async (change: Record<string, unknown>) =>
      (await o.client.call(endpoints.adUpdate, { ...body, ...change } as never)).envelope.code;
    expect(await refused({ endAt: new Date(ad.endAt.getTime() + 86_400_000).toISOString() })).toBe(ErrorCode.CONFLICT);
    expect(await refused({ playsMin: 3, playsMax: 3 })).toBe(ErrorCode.CONFLICT);
    expect(await refused({ periods: [] })).toBe(ErrorCode.CONFLICT);
    expect(await refused({ strategy: 'perDay' })).toBe(ErrorCode.CONFLICT);
    expect(await refused({ slotId: null })).toBe(ErrorCode.CONFLICT);
    expect(await refused({ targets: { ...body.targets, deviceIds: [o.deviceIds[0]] } })).toBe(ErrorCode.CONFLICT);
    expect((await adOf(ad.id)).reviewRound).toBe(1);
    // The same frame with a new name: accepted, a new round, the frame as it was.
    const renamed = await o.client.call(endpoints.adUpdate, { ...body, name: 'Renamed' } as never);
    expect(renamed.envelope.code, renamed.body).toBe(0);
    const after = await adOf(ad.id);
    expect(after).toMatchObject({ name: 'Renamed', reviewRound: 2, reviewState: 'pending', slotId: o.slotId });
    expect(after.targets.deviceIds.sort()).toEqual([...o.deviceIds].sort());
    // No targets sent: the order's screens, unchanged (an order may reach more than an edit may list).
    const untargeted = await o.client.call(endpoints.adUpdate, {
      ...body,
      name: 'Renamed again',
      targets: { deviceIds: [], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
    } as never);
    expect(untargeted.envelope.code, untargeted.body).toBe(0);
    expect((await adOf(ad.id)).targets.deviceIds.sort()).toEqual([...o.deviceIds].sort());
    // The ad's detail names its slot and its order.
    const adInfo = await o.client.call(endpoints.adInfo, { id: ad.id });
    expect(adInfo.envelope.payload!.slot).toMatchObject({ id: o.slotId, orderId: o.order.id, orderNo: o.order.no });
    // A console ad is not affected by the rule.
    const consoleAd = await o.client.call(endpoints.adCreate, {
      ...body,
      id: undefined,
      slotId: null,
      targets: { deviceIds: [o.deviceIds[0]] },
    } as never);
    expect(consoleAd.envelope.code, consoleAd.body).toBe(0);
    const moved = await o.client.call(endpoints.adUpdate, {
      ...body,
      id: consoleAd.envelope.payload!.id,
      slotId: null,
      targets: { deviceIds: [o.deviceIds[0]] },
      playsMin: 3,
      playsMax: 3,
    } as never);
    expect(moved.envelope.code, moved.body).toBe(0);
  });

  it('cancelling a paid order retires its ads and voids its hold', async () => {
    const o = await paidOrder();
    expect((await give(o.advClient, o, [o.materialId])).envelope.code).toBe(0);
    const info = (await o.advClient.call(endpoints.salesOrderInfo, { id: o.order.id })).envelope.payload!;
    const adId = info.subOrders[0].adId!;
    const cancelled = await o.client.call(endpoints.salesOrderCancel, { id: o.order.id });
    expect(cancelled.envelope.payload).toMatchObject({ state: 'cancelled', cancelReason: 'operator', frozenAmount: 0 });
    expect((await adOf(adId)).deletedAt).not.toBeNull();
    const after = (await o.advClient.call(endpoints.salesOrderInfo, { id: o.order.id })).envelope.payload!;
    expect(after.subOrders[0].adStatus).toBe('deleted');
    const moves = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.causeId, o.order.id));
    expect(moves.map((m) => m.phase).sort()).toEqual(['pending', 'void']);
    // No materials for a cancelled order.
    expect((await give(o.advClient, o, [o.materialId])).envelope.code).toBe(ErrorCode.SALES_ORDER_STATE);
  });
});
