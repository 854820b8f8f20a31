import { ErrorCode, endpoints, hoursMask } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, salesGoods } from '../../src/db/schema/index.js';
import { bookRotations } from '../../src/modules/sales/inventory.js';
import { BACKENDS, createTestApp, createUser, type TestApp } from '../helpers/index.js';
import { insertOrder, insertScreen } from './h1-fixtures.js';

/**
 * Slots, goods and availability over HTTP (issue 28): the slot's targets checked, a slot in
 * use locked, goods edited only off shelf (COMMODITY_ON_SALE), expired or long-offline goods
 * kept off sale, advertisers seeing goods on sale only, and the availability endpoint's
 * figures. Both databases.
 */
describe.each(BACKENDS)('sales slots, goods and availability on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    t.clock.set(Date.parse('2026-04-01T08:00:00Z'));
  });
  afterAll(() => t?.close());

  const now = () => new Date(t.clock.now());

  async function tenantWithScreens() {
    const { ent, admin, client } = await t.tenant();
    const s1 = await insertScreen(t.db, ent, admin.id, now(), { name: 'North' });
    const s2 = await insertScreen(t.db, ent, admin.id, now(), { name: 'South' });
    const gone = await insertScreen(t.db, ent, admin.id, now(), { name: 'Gone', seenAgoMs: 100 * 3600_000 });
    return { ent, admin, client, s1, s2, gone };
  }

  const slotInput = (deviceIds: string[]) => ({
    name: 'Lobby 15s',
    width: 1920,
    height: 1080,
    durationSec: 15,
    salesMethod: 'cpt' as const,
    cptPrice: 500,
    maxRotations: 3,
    targets: { deviceIds, groupIds: [], tagIds: [], spliceIds: [] },
  });

  it('keeps slots: targets of the enterprise, 9-digit numbers, locked in use, RTB, options and screens', async () => {
    const { ent, client, s1, s2, gone } = await tenantWithScreens();
    const other = await t.tenant();
    const foreign = await insertScreen(t.db, other.ent, other.admin.id, now());
    expect((await client.call(endpoints.salesSlotSave, slotInput([s1, foreign]))).envelope.code).toBe(
      ErrorCode.AD_TARGET_INVALID,
    );
    const saved = await client.call(endpoints.salesSlotSave, slotInput([s1, s2, gone]));
    expect(saved.envelope.code, saved.body).toBe(0);
    const slot = saved.envelope.payload!;
    expect(slot).toMatchObject({ screens: 3, longOfflineScreens: 1, inUse: false, rtbEnabled: false });
    expect(slot.number).toMatch(/^\d{9}$/);
    // A layout region not marked as the RTB slot is refused.
    const region = await client.call(endpoints.salesSlotSave, {
      ...slotInput([s1]),
      layoutId: 'nope',
      regionId: 'r1',
    });
    expect(region.envelope.code).toBe(ErrorCode.AD_TARGET_INVALID);

    const rtb = await client.call(endpoints.salesSlotRtb, { id: slot.id, rtbEnabled: true, rtbFloor: 1000 });
    expect(rtb.envelope.payload).toMatchObject({ rtbEnabled: true, rtbFloor: 1000 });
    const options = await client.call(endpoints.salesSlotOptions, {});
    expect(options.envelope.payload!.data).toEqual([
      { id: slot.id, name: 'Lobby 15s', salesMethod: 'cpt', unitPrice: 500, maxRotations: 3, screens: 3 },
    ]);
    const devs = await client.call(endpoints.salesSlotDevices, { slotId: slot.id, page: 1, size: 10 });
    expect(devs.envelope.payload!.data.map((d) => [d.name, d.longOffline])).toEqual([
      ['Gone', true],
      ['North', false],
      ['South', false],
    ]);

    // Goods on sale use it: method, rotations and screens are locked, the price is not; no delete.
    const goods = await client.call(endpoints.salesGoodsSave, {
      name: 'April lobby',
      kind: 'single',
      startDate: '2026-04-01',
      endDate: '2026-04-30',
      lines: [{ slotId: slot.id }],
    });
    expect(goods.envelope.code, goods.body).toBe(0);
    expect(
      (await client.call(endpoints.salesGoodsShelf, { id: goods.envelope.payload!.id, onSale: true })).envelope.code,
    ).toBe(0);
    const info = await client.call(endpoints.salesSlotInfo, { id: slot.id });
    expect(info.envelope.payload!.inUse).toBe(true);
    const edit = { ...slotInput([s1, s2, gone]), id: slot.id };
    expect((await client.call(endpoints.salesSlotSave, { ...edit, maxRotations: 4 })).envelope.code).toBe(
      ErrorCode.SLOT_IN_USE,
    );
    expect(
      (await client.call(endpoints.salesSlotSave, { ...edit, targets: { ...edit.targets, deviceIds: [s1] } })).envelope
        .code,
    ).toBe(ErrorCode.SLOT_IN_USE);
    const repriced = await client.call(endpoints.salesSlotSave, { ...edit, cptPrice: 600 });
    expect(repriced.envelope.payload!.cptPrice).toBe(600);
    expect((await client.call(endpoints.salesSlotDelete, { id: slot.id })).envelope.code).toBe(ErrorCode.SLOT_IN_USE);
    // Off shelf, it can be deleted.
    await client.call(endpoints.salesGoodsShelf, { id: goods.envelope.payload!.id, onSale: false });
    expect((await client.call(endpoints.salesSlotDelete, { id: slot.id })).envelope.code).toBe(0);
    expect((await client.call(endpoints.salesSlotInfo, { id: slot.id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.entId, ent.id));
    expect(logs.filter((l) => l.module === 'sales').map((l) => `${l.action}:${l.targetType}`)).toEqual(
      expect.arrayContaining([
        'add:adSlot',
        'rtbOn:adSlot',
        'update:adSlot',
        'delete:adSlot',
        'add:salesGoods',
        'productOnSale:salesGoods',
      ]),
    );
  });

  it('keeps goods: edited only off shelf, screens of the slot, expired and long-offline refused, buyers see on sale only', async () => {
    const { ent, client, s1, s2, gone } = await tenantWithScreens();
    const slot = (await client.call(endpoints.salesSlotSave, slotInput([s1, s2, gone]))).envelope.payload!;
    const other = await t.tenant();
    const foreign = await insertScreen(t.db, other.ent, other.admin.id, now());
    const base = {
      name: 'Mornings',
      kind: 'single' as const,
      startDate: '2026-04-01',
      endDate: '2026-04-10',
      hours: [8, 9],
    };
    expect(
      (await client.call(endpoints.salesGoodsSave, { ...base, lines: [{ slotId: slot.id, deviceIds: [foreign] }] }))
        .envelope.code,
    ).toBe(ErrorCode.AD_TARGET_INVALID);
    const saved = await client.call(endpoints.salesGoodsSave, {
      ...base,
      lines: [{ slotId: slot.id, deviceIds: [s1, gone] }],
    });
    expect(saved.envelope.code, saved.body).toBe(0);
    const goods = saved.envelope.payload!;
    expect(goods).toMatchObject({ state: 'offShelf', hours: [8, 9], orders: 0 });
    expect(goods.lines[0]).toMatchObject({ unitPrice: 500, screens: 2, maxRotations: 3 });
    // A chosen screen offline more than 72 hours keeps it off sale.
    expect((await client.call(endpoints.salesGoodsShelf, { id: goods.id, onSale: true })).envelope.code).toBe(
      ErrorCode.DEVICE_LONG_OFFLINE,
    );
    const fixed = await client.call(endpoints.salesGoodsSave, {
      ...base,
      id: goods.id,
      lines: [{ slotId: slot.id, deviceIds: [s1], unitPrice: 450 }],
    });
    expect(fixed.envelope.payload!.lines[0]).toMatchObject({ unitPrice: 450, screens: 1 });
    const on = await client.call(endpoints.salesGoodsShelf, { id: goods.id, onSale: true });
    expect(on.envelope.payload!.state).toBe('onSale');
    // On sale: no edit, no delete.
    expect(
      (await client.call(endpoints.salesGoodsSave, { ...base, id: goods.id, name: 'x', lines: [{ slotId: slot.id }] }))
        .envelope.code,
    ).toBe(ErrorCode.COMMODITY_ON_SALE);
    expect((await client.call(endpoints.salesGoodsDelete, { id: goods.id })).envelope.code).toBe(
      ErrorCode.COMMODITY_ON_SALE,
    );

    // An advertiser (no sales management) sees on-sale goods only.
    const offShelf = await client.call(endpoints.salesGoodsSave, {
      ...base,
      name: 'Hidden',
      lines: [{ slotId: slot.id }],
    });
    const buyer = await createUser(t.db, ent, { permissions: ['yxf_new_operate', 'yxf_new_operate_goods'] });
    const buyerClient = await t.loginAs(buyer);
    const seen = await buyerClient.call(endpoints.salesGoodsList, {});
    expect(seen.envelope.payload!.data.map((g) => g.name)).toEqual(['Mornings']);
    expect(
      (await buyerClient.call(endpoints.salesGoodsInfo, { id: offShelf.envelope.payload!.id })).envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
    const keeper = await client.call(endpoints.salesGoodsList, { state: 'offShelf' });
    expect(keeper.envelope.payload!.data.map((g) => g.name)).toEqual(['Hidden']);

    // Expired goods cannot go on sale; goods on sale past their period show expired.
    const past = await client.call(endpoints.salesGoodsSave, {
      ...base,
      name: 'March',
      startDate: '2026-03-01',
      endDate: '2026-03-31',
      lines: [{ slotId: slot.id }],
    });
    const pastId = past.envelope.payload!.id;
    expect((await client.call(endpoints.salesGoodsShelf, { id: pastId, onSale: true })).envelope.code).toBe(
      ErrorCode.GOODS_NOT_ON_SALE,
    );
    await t.db.update(salesGoods).set({ state: 'onSale' }).where(eq(salesGoods.id, pastId));
    const expired = await client.call(endpoints.salesGoodsList, { state: 'expired' });
    expect(expired.envelope.payload!.data.map((g) => g.name)).toEqual(['March']);
    expect((await buyerClient.call(endpoints.salesGoodsList, {})).envelope.payload!.data.map((g) => g.name)).toEqual([
      'Mornings',
    ]);
    // Off shelf with no order: deleted.
    expect((await client.call(endpoints.salesGoodsDelete, { id: offShelf.envelope.payload!.id })).envelope.code).toBe(
      0,
    );
  });

  it('answers availability with the bookings of the moment, and marks goods sold out', async () => {
    const { ent, admin, client, s1, s2 } = await tenantWithScreens();
    const slot = (await client.call(endpoints.salesSlotSave, { ...slotInput([s1, s2]), maxRotations: 2 })).envelope
      .payload!;
    const goods = (
      await client.call(endpoints.salesGoodsSave, {
        name: 'Two days',
        kind: 'single',
        startDate: '2026-04-02',
        endDate: '2026-04-03',
        hours: [10],
        lines: [{ slotId: slot.id }],
      })
    ).envelope.payload!;
    await client.call(endpoints.salesGoodsShelf, { id: goods.id, onSale: true });
    const period = { startDate: '2026-04-02', endDate: '2026-04-03' };
    const book = async (
      deviceIds: string[],
      rotations: number,
      kind: 'hold' | 'booked',
      expiresAt: Date | null = null,
    ) => {
      const { order, line } = await insertOrder(t.db, ent.id, admin.id, slot, period);
      await bookRotations(
        t.db,
        [
          {
            entId: ent.id,
            slotId: slot.id,
            orderId: order.id,
            lineId: line.id,
            deviceIds,
            ...period,
            hoursMask: hoursMask([10]),
            rotations,
            kind,
            expiresAt,
          },
        ],
        now(),
      );
      return order.id;
    };
    await book([s1, s2], 1, 'booked');
    const holdOrder = await book([s1], 1, 'hold', new Date(now().getTime() + 3600_000));
    const a = await client.call(endpoints.salesAvailability, { slotId: slot.id, ...period, hours: [10, 11] });
    expect(a.envelope.code, a.body).toBe(0);
    // Capacity 2 x 2 screens x 2 days x 2 hours = 16; booked 1 x 2 x 2 x 1 = 4; held 1 x 1 x 2 x 1 = 2.
    expect(a.envelope.payload!.total).toEqual({
      capacity: 16,
      booked: 4,
      held: 2,
      available: 10,
      availPct: 62.5,
      fillRate: 37.5,
    });
    expect(a.envelope.payload!.bookable).toBe(0);
    expect(a.envelope.payload!.screens.data.map((s) => [s.deviceName, s.minAvailable])).toEqual([
      ['North', 0],
      ['South', 1],
    ]);
    // The order's own holds count as available to it.
    const mine = await client.call(endpoints.salesAvailability, {
      slotId: slot.id,
      ...period,
      hours: [10],
      excludeOrderId: holdOrder,
    });
    expect(mine.envelope.payload!.bookable).toBe(1);
    // Narrowed to one screen.
    const south = await client.call(endpoints.salesAvailability, {
      slotId: slot.id,
      deviceIds: [s2],
      ...period,
      hours: [10],
    });
    expect(south.envelope.payload!.total).toMatchObject({ capacity: 4, booked: 2, held: 0 });
    // Sold out once every screen-hour is full.
    const soldOut = async () => (await t.db.select().from(salesGoods).where(eq(salesGoods.id, goods.id)))[0].soldOut;
    expect(await soldOut()).toBe(false);
    await book([s2], 1, 'booked');
    expect(await soldOut()).toBe(true);
    expect((await client.call(endpoints.salesGoodsInfo, { id: goods.id })).envelope.payload!.state).toBe('soldOut');
  });
});
