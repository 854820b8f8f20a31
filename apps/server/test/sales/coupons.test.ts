import { ErrorCode, endpoints } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertisers, salesCoupons, salesCouponUses, salesOrders } from '../../src/db/schema/index.js';
import { claimCoupon, releaseCoupon, usableCoupon } from '../../src/modules/sales/coupons.js';
import { activePriceContract } from '../../src/modules/sales/priceContracts.js';
import { AppError } from '../../src/protocol/appError.js';
import { BACKENDS, createTestApp, createUser, type TestApp } from '../helpers/index.js';
import { insertOrder, insertScreen, insertSlot } from './h1-fixtures.js';

/**
 * Coupons and price contracts (issue 28): a coupon's limit holds under concurrent claims, a
 * used coupon keeps its discount, uses are given back; an advertiser's enabled price
 * contracts never overlap, and each side sees the contracts it may. Both databases.
 */
describe.each(BACKENDS)('sales coupons and price contracts on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    t.clock.set(Date.parse('2026-05-10T08:00:00Z'));
  });
  afterAll(() => t?.close());

  const now = () => new Date(t.clock.now());

  it('claims a coupon at most its limit, even all at once; gives uses back; keeps a used discount', async () => {
    const { ent, admin, client } = await t.tenant();
    const screen = await insertScreen(t.db, ent, admin.id, now());
    const slot = await insertSlot(t.db, ent.id, [screen]);
    const saved = await client.call(endpoints.salesCouponSave, {
      name: 'Spring',
      discount: 0.85,
      limit: 3,
      validFrom: '2026-05-01',
      validTo: '2026-05-31',
    });
    expect(saved.envelope.code, saved.body).toBe(0);
    const coupon = saved.envelope.payload!;
    expect(coupon).toMatchObject({ discount: 0.85, limit: 3, used: 0, state: 'available', goodsIds: [] });

    const orders = [];
    for (let i = 0; i < 8; i++) {
      orders.push(
        (await insertOrder(t.db, ent.id, admin.id, slot, { startDate: '2026-05-11', endDate: '2026-05-11' })).order,
      );
    }
    const results = await Promise.allSettled(
      orders.map((o) =>
        t.db.transaction((tx) =>
          claimCoupon(tx, {
            entId: ent.id,
            couponId: coupon.id,
            goodsId: null,
            orderId: o.id,
            advertiserId: admin.id,
            saved: 150,
            now: now(),
          }),
        ),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(3);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as AppError).code).toBe(ErrorCode.COUPON_UNAVAILABLE);
    }
    const [row] = await t.db.select().from(salesCoupons).where(eq(salesCoupons.id, coupon.id));
    expect(row.used).toBe(3);
    expect(await t.db.select().from(salesCouponUses).where(eq(salesCouponUses.couponId, coupon.id))).toHaveLength(3);
    const exhausted = await client.call(endpoints.salesCouponList, { state: 'exhausted' });
    expect(exhausted.envelope.payload!.data.map((c) => c.id)).toEqual([coupon.id]);
    await expect(usableCoupon(t.db, ent.id, coupon.id, null, now())).rejects.toMatchObject({
      code: ErrorCode.COUPON_UNAVAILABLE,
    });

    // A use given back (the order cancelled) frees one, once.
    const usedOrder = (await t.db.select().from(salesCouponUses).where(eq(salesCouponUses.couponId, coupon.id)))[0]
      .orderId;
    await releaseCoupon(t.db, usedOrder, now());
    await releaseCoupon(t.db, usedOrder, now());
    expect((await t.db.select().from(salesCoupons).where(eq(salesCoupons.id, coupon.id)))[0].used).toBe(2);
    expect((await usableCoupon(t.db, ent.id, coupon.id, null, now())).id).toBe(coupon.id);
    const [orderRow] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, usedOrder));
    const uses = await client.call(endpoints.salesCouponUses, { couponId: coupon.id });
    expect(uses.envelope.payload!.total).toBe(3);
    expect(uses.envelope.payload!.data.find((u) => u.orderId === usedOrder)).toMatchObject({
      orderNo: orderRow.no,
      saved: 150,
    });

    // Used: the discount cannot change, the limit not below the uses; the name can.
    const base = {
      id: coupon.id,
      name: 'Spring',
      discount: 0.85,
      limit: 3,
      validFrom: '2026-05-01',
      validTo: '2026-05-31',
    };
    expect((await client.call(endpoints.salesCouponSave, { ...base, discount: 0.8 })).envelope.code).toBe(
      ErrorCode.CONFLICT,
    );
    expect((await client.call(endpoints.salesCouponSave, { ...base, limit: 1 })).envelope.code).toBe(
      ErrorCode.CONFLICT,
    );
    const renamed = await client.call(endpoints.salesCouponSave, { ...base, name: 'Spring sale', limit: 5 });
    expect(renamed.envelope.payload).toMatchObject({ name: 'Spring sale', limit: 5, used: 2 });

    // Disabled: not offered, not claimable.
    const off = await client.call(endpoints.salesCouponEnable, { id: coupon.id, enabled: false });
    expect(off.envelope.payload!.state).toBe('disabled');
    expect((await client.call(endpoints.salesCouponOptions, {})).envelope.payload!.data).toEqual([]);
    await expect(usableCoupon(t.db, ent.id, coupon.id, null, now())).rejects.toBeInstanceOf(AppError);
    await client.call(endpoints.salesCouponEnable, { id: coupon.id, enabled: true });
    expect((await client.call(endpoints.salesCouponOptions, {})).envelope.payload!.data.map((c) => c.id)).toEqual([
      coupon.id,
    ]);

    // A coupon for some goods only: not for others, nor for a slot ordered directly.
    const goods = await client.call(endpoints.salesGoodsSave, {
      name: 'May',
      kind: 'single',
      startDate: '2026-05-01',
      endDate: '2026-05-31',
      lines: [{ slotId: slot.id }],
    });
    const only = await client.call(endpoints.salesCouponSave, {
      name: 'May only',
      discount: 0.9,
      limit: 10,
      validFrom: '2026-05-01',
      validTo: '2026-05-31',
      goodsIds: [goods.envelope.payload!.id],
    });
    expect(only.envelope.payload!.goodsNames).toEqual(['May']);
    await expect(usableCoupon(t.db, ent.id, only.envelope.payload!.id, null, now())).rejects.toBeInstanceOf(AppError);
    expect((await usableCoupon(t.db, ent.id, only.envelope.payload!.id, goods.envelope.payload!.id, now())).id).toBe(
      only.envelope.payload!.id,
    );
    // Not started yet.
    const later = await client.call(endpoints.salesCouponSave, {
      name: 'June',
      discount: 0.9,
      limit: 10,
      validFrom: '2026-06-01',
      validTo: '2026-06-30',
    });
    expect(later.envelope.payload!.state).toBe('notStarted');
  });

  it('keeps price contracts: no overlap of enabled ones, scoped like orders, deleted when unused', async () => {
    const { ent, admin, client } = await t.tenant();
    const adv = await createUser(t.db, ent, {
      permissions: ['yxf_new_operate', 'yxf_new_operate_sign_contract'],
      dataScope: 'self',
    });
    await t.db.insert(advertisers).values({ accountId: adv.id, entId: ent.id });
    const other = await createUser(t.db, ent, { permissions: [] });
    await t.db.insert(advertisers).values({ accountId: other.id, entId: ent.id });
    const notAdvertiser = await createUser(t.db, ent, { permissions: [] });
    const screen = await insertScreen(t.db, ent, admin.id, now());
    const slot = await insertSlot(t.db, ent.id, [screen]);

    const base = {
      name: 'Annual',
      advertiserId: adv.id,
      discount: 0.8,
      slotPrices: [{ slotId: slot.id, unitPrice: 80 }],
      validFrom: '2026-05-01',
      validTo: '2026-12-31',
    };
    const saved = await client.call(endpoints.salesPriceContractSave, base);
    expect(saved.envelope.code, saved.body).toBe(0);
    const pc = saved.envelope.payload!;
    expect(pc).toMatchObject({ discount: 0.8, active: true, enabled: true, contractId: null });
    expect(pc.number).toMatch(/^\d{9}$/);
    expect(pc.slotPrices).toEqual([{ slotId: slot.id, slotName: slot.name, unitPrice: 80 }]);
    expect((await activePriceContract(t.db, ent.id, adv.id, '2026-06-01'))?.id).toBe(pc.id);
    expect(await activePriceContract(t.db, ent.id, adv.id, '2027-01-01')).toBeNull();

    // Overlapping an enabled one: refused; disabled, or after it: fine.
    const overlap = await client.call(endpoints.salesPriceContractSave, {
      ...base,
      name: 'Autumn',
      validFrom: '2026-09-01',
      validTo: '2027-02-28',
    });
    expect(overlap.envelope.code).toBe(ErrorCode.TIME_CONFLICT);
    const disabled = await client.call(endpoints.salesPriceContractSave, {
      ...base,
      name: 'Autumn',
      validFrom: '2026-09-01',
      validTo: '2027-02-28',
      enabled: false,
    });
    expect(disabled.envelope.code).toBe(0);
    const next = await client.call(endpoints.salesPriceContractSave, {
      ...base,
      name: 'Next year',
      validFrom: '2027-01-01',
      validTo: '2027-12-31',
    });
    expect(next.envelope.code).toBe(0);
    // Editing the first into the next one's period: refused.
    expect(
      (await client.call(endpoints.salesPriceContractSave, { ...base, id: pc.id, validTo: '2027-01-31' })).envelope
        .code,
    ).toBe(ErrorCode.TIME_CONFLICT);
    // Another advertiser's periods are its own.
    expect(
      (await client.call(endpoints.salesPriceContractSave, { ...base, advertiserId: other.id })).envelope.code,
    ).toBe(0);
    // Not an advertiser: NOT_FOUND.
    expect(
      (await client.call(endpoints.salesPriceContractSave, { ...base, advertiserId: notAdvertiser.id })).envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);

    // The advertiser sees its own contracts only; the administrator all.
    const advClient = await t.loginAs(adv);
    const own = await advClient.call(endpoints.salesPriceContractList, {});
    expect(own.envelope.code, own.body).toBe(0);
    expect(own.envelope.payload!.data.every((c) => c.advertiserId === adv.id)).toBe(true);
    expect(own.envelope.payload!.total).toBe(3);
    expect((await client.call(endpoints.salesPriceContractList, {})).envelope.payload!.total).toBe(4);
    expect((await client.call(endpoints.salesPriceContractList, { active: true })).envelope.payload!.total).toBe(2);

    // Used by an order: not deleted (CONFLICT); unused: deleted.
    const { order } = await insertOrder(t.db, ent.id, adv.id, slot, { startDate: '2026-06-01', endDate: '2026-06-01' });
    await t.db.update(salesOrders).set({ priceContractId: pc.id }).where(eq(salesOrders.id, order.id));
    expect((await client.call(endpoints.salesPriceContractDelete, { id: pc.id })).envelope.code).toBe(
      ErrorCode.CONFLICT,
    );
    expect(
      (await client.call(endpoints.salesPriceContractDelete, { id: next.envelope.payload!.id })).envelope.code,
    ).toBe(0);
    expect((await client.call(endpoints.salesPriceContractList, {})).envelope.payload!.total).toBe(3);
  });

  it('keeps the sales settings: defaults, then saved values', async () => {
    const { client } = await t.tenant();
    const first = await client.call(endpoints.salesSettings, {});
    expect(first.envelope.payload).toEqual({
      holdMinutes: 1440,
      impressionsPerPlayPct: 100,
      defaultRemedy: 'credit',
      esignConfigured: false,
    });
    const saved = await client.call(endpoints.salesSettingsSave, {
      holdMinutes: 30,
      impressionsPerPlayPct: 250,
      defaultRemedy: 'extraPlays',
    });
    expect(saved.envelope.code, saved.body).toBe(0);
    expect((await client.call(endpoints.salesSettings, {})).envelope.payload).toMatchObject({
      holdMinutes: 30,
      impressionsPerPlayPct: 250,
      defaultRemedy: 'extraPlays',
    });
  });
});
