import { ErrorCode, endpoints } from '@marquee/protocol';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.js';
import {
  ledgerTransfers,
  salesCoupons,
  salesCouponUses,
  salesOrderEvents,
  salesOrders,
} from '../../src/db/schema/index.js';
import { createAdvertiser } from '../../src/modules/advertisers/service.js';
import { accountBalances, ensureAdvertiserWallet } from '../../src/modules/ledger/accounts.js';
import {
  fundAdvertiser,
  insertCoupon,
  insertSalesOrder,
  insertScreens,
  insertSlot,
  salesDay,
} from '../fixtures/sales.js';
import {
  type ApiClient,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
  type TestUser,
  uniqueName,
} from '../helpers/index.js';

/**
 * Issue 28 under real concurrency (PostgreSQL's pool: each call its own transaction on its own
 * connection, all at once): the last rotations of a screen-hour sell once, a coupon's limit
 * holds, and a cancellation retried at once moves money once. Through the real endpoints
 * (the app's inject), never a mock. PGlite has one connection, so these run on PostgreSQL only.
 */

const NO_POSTGRES = process.env.TEST_DATABASE_URL
  ? ''
  : ' (skipped: TEST_DATABASE_URL is not set; it needs concurrent PostgreSQL transactions)';

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

describe.skipIf(!process.env.TEST_DATABASE_URL)(`selling airtime under concurrency on PostgreSQL${NO_POSTGRES}`, () => {
  let t: TestApp;
  let ent: TestEnterprise;
  let staff: TestUser;
  let client: ApiClient;
  let passwordHash: string;

  beforeAll(async () => {
    t = await createTestApp('postgres');
    ent = await createEnterprise(t.db);
    // Sales staff in the root department (dept and below: every advertiser), with every permission (salesManage: ordering a slot directly).
    staff = await createUser(t.db, ent);
    client = await t.loginAs(staff);
    passwordHash = await hashPassword('not-used-to-log-in');
  }, 60_000);
  afterAll(() => t?.close());

  /** `n` advertiser accounts of the enterprise (they never log in: one password hash for all). */
  async function advertisers(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push(
        await createAdvertiser(t.db, {
          entId: ent.id,
          deptId: ent.depts.root,
          createdBy: staff.id,
          loginName: uniqueName('buyer'),
          password: 'not-used-to-log-in',
          passwordHash,
          realName: `Buyer ${i + 1}`,
        }),
      );
    }
    return ids;
  }

  /** Live rotations of one screen-hour of a slot (sales_bookings: not released, a hold not lapsed). */
  async function liveRotations(slotId: string, deviceId: string, day: string, hour: number): Promise<number> {
    const now = new Date(t.clock.now()).toISOString();
    const rows = rowsOf(
      await t.db.execute(sql`
        select coalesce(sum(b.rotations), 0)::int as n
        from sales_bookings b join sales_booking_devices d on d.booking_id = b.id
        where b.slot_id = ${slotId} and d.device_id = ${deviceId}
          and b.released_at is null and (b.kind <> 'hold' or b.expires_at > ${now}::timestamptz)
          and b.start_date <= ${day}::date and b.end_date >= ${day}::date
          and (b.hours_mask & ${1 << hour}) <> 0`),
    );
    return Number(rows[0].n);
  }

  const codes = (results: { envelope: { code: number } }[]) => {
    const out: Record<string, number> = {};
    for (const r of results) out[r.envelope.code] = (out[r.envelope.code] ?? 0) + 1;
    return out;
  };

  it('200 buyers try the last 10 rotations of one screen-hour: 10 orders, 190 TIME_CONFLICT, 12 live rotations', async () => {
    const [deviceId] = await insertScreens(t, ent, staff.id, 1);
    const slotId = await insertSlot(t.db, {
      entId: ent.id,
      deviceIds: [deviceId],
      maxRotations: 12,
      createdBy: staff.id,
    });
    const day = salesDay(t, 2);
    const hour = 20;
    // 2 of the 12 rotations are sold already (a paid order): 10 are left.
    const [first, ...buyers] = await advertisers(201);
    await insertSalesOrder(t, {
      entId: ent.id,
      advertiserId: first,
      slotId,
      deviceIds: [deviceId],
      startDate: day,
      endDate: day,
      hours: [hour],
      rotations: 2,
      state: 'paid',
    });
    expect(await liveRotations(slotId, deviceId, day, hour)).toBe(2);

    const results = await Promise.all(
      buyers.map((advertiserId) =>
        client.call(endpoints.salesOrderCreate, {
          advertiserId,
          slotId,
          startDate: day,
          endDate: day,
          hours: [hour],
          lines: [{ slotId, deviceIds: [deviceId], rotations: 1 }],
        }),
      ),
    );
    const unexpected = results
      .filter((r) => ![0, ErrorCode.TIME_CONFLICT].includes(r.envelope.code))
      .map((r) => r.body);
    expect(unexpected.slice(0, 3)).toEqual([]);
    expect(codes(results)).toEqual({ 0: 10, [ErrorCode.TIME_CONFLICT]: 190 });
    expect(await liveRotations(slotId, deviceId, day, hour)).toBe(12);
    // Exactly the 10 successful orders exist (a refused order leaves nothing half-written).
    const orders = await t.db
      .select({ id: salesOrders.id, state: salesOrders.state })
      .from(salesOrders)
      .where(
        and(
          eq(salesOrders.entId, ent.id),
          sql`${salesOrders.id} in (select order_id from sales_order_lines where slot_id = ${slotId})`,
        ),
      );
    expect(orders).toHaveLength(11);
    expect(orders.filter((o) => o.state === 'unpaid')).toHaveLength(10);
  }, 120_000);

  it('a coupon limited to 5 uses under 50 concurrent orders: 5 carry it, used = 5, 45 COUPON_UNAVAILABLE', async () => {
    const screens = await insertScreens(t, ent, staff.id, 50);
    const slotId = await insertSlot(t.db, { entId: ent.id, deviceIds: screens, maxRotations: 1, createdBy: staff.id });
    const couponId = await insertCoupon(t.db, {
      entId: ent.id,
      validFrom: salesDay(t, 0),
      validTo: salesDay(t, 30),
      limit: 5,
      discountPct: 80,
    });
    const buyers = await advertisers(50);
    const day = salesDay(t, 3);
    const results = await Promise.all(
      buyers.map((advertiserId, i) =>
        client.call(endpoints.salesOrderCreate, {
          advertiserId,
          slotId,
          startDate: day,
          endDate: day,
          hours: [9],
          lines: [{ slotId, deviceIds: [screens[i]], rotations: 1 }],
          couponId,
        }),
      ),
    );
    const unexpected = results
      .filter((r) => ![0, ErrorCode.COUPON_UNAVAILABLE].includes(r.envelope.code))
      .map((r) => r.body);
    expect(unexpected.slice(0, 3)).toEqual([]);
    expect(codes(results)).toEqual({ 0: 5, [ErrorCode.COUPON_UNAVAILABLE]: 45 });
    const made = results
      .filter((r) => r.envelope.code === 0)
      .map((r) => r.envelope.payload as { couponId: string | null });
    expect(made.every((o) => o.couponId === couponId)).toBe(true);
    const [coupon] = await t.db.select().from(salesCoupons).where(eq(salesCoupons.id, couponId));
    expect(coupon.used).toBe(5);
    const uses = await t.db.select().from(salesCouponUses).where(eq(salesCouponUses.couponId, couponId));
    expect(uses).toHaveLength(5);
    // The refused orders left no order behind.
    const orders = await t.db
      .select({ id: salesOrders.id })
      .from(salesOrders)
      .where(eq(salesOrders.couponId, couponId));
    expect(orders).toHaveLength(5);
  }, 120_000);

  /** Ten cancellations of one order at once: one succeeds, the rest SALES_ORDER_STATE. */
  async function cancelTenTimes(orderId: string) {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.call(endpoints.salesOrderCancel, { id: orderId })),
    );
    const unexpected = results
      .filter((r) => ![0, ErrorCode.SALES_ORDER_STATE].includes(r.envelope.code))
      .map((r) => r.body);
    expect(unexpected.slice(0, 3)).toEqual([]);
    expect(codes(results)).toEqual({ 0: 1, [ErrorCode.SALES_ORDER_STATE]: 9 });
    const events = await t.db
      .select()
      .from(salesOrderEvents)
      .where(and(eq(salesOrderEvents.orderId, orderId), eq(salesOrderEvents.toState, 'cancelled')));
    expect(events).toHaveLength(1);
    return results;
  }

  /** The ledger's movements of an order other than its hold (its post or void). */
  async function settleMovements(orderId: string) {
    const rows = await t.db
      .select({ id: ledgerTransfers.id, phase: ledgerTransfers.phase, amount: ledgerTransfers.amount })
      .from(ledgerTransfers)
      .where(and(eq(ledgerTransfers.causeType, 'salesOrder'), eq(ledgerTransfers.causeId, orderId)));
    return rows.filter((r) => r.id !== `sales:${orderId}:hold`);
  }

  it("a paid order's cancellation retried 10 times at once voids the hold once; the balance is back exactly", async () => {
    const [deviceId] = await insertScreens(t, ent, staff.id, 1);
    const slotId = await insertSlot(t.db, { entId: ent.id, deviceIds: [deviceId], maxRotations: 10, price: 1_234 });
    const [advertiserId] = await advertisers(1);
    const day = salesDay(t, 4);
    const created = await client.call(endpoints.salesOrderCreate, {
      advertiserId,
      slotId,
      startDate: day,
      endDate: day,
      hours: [9, 10, 11],
      lines: [{ slotId, deviceIds: [deviceId], rotations: 2 }],
    });
    expect(created.envelope.code, created.body).toBe(0);
    const order = created.envelope.payload as { id: string; amount: number };
    expect(order.amount).toBe(1_234 * 2 * 3);
    const start = 1_000_000;
    await fundAdvertiser(t, ent.id, advertiserId, start);
    const wallet = await ensureAdvertiserWallet(t.db, ent.id, advertiserId);
    const paid = await client.call(endpoints.salesOrderPay, { id: order.id });
    expect(paid.envelope.code, paid.body).toBe(0);
    expect((await accountBalances(t.db, [wallet])).get(wallet)).toMatchObject({
      available: start - order.amount,
      frozen: order.amount,
    });

    await cancelTenTimes(order.id);
    expect((await accountBalances(t.db, [wallet])).get(wallet)).toMatchObject({
      balance: start,
      available: start,
      frozen: 0,
    });
    const moves = await settleMovements(order.id);
    expect(moves).toHaveLength(1);
    expect(moves[0].id).toBe(`sales:${order.id}:void`);
    const [row] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, order.id));
    expect(row).toMatchObject({ state: 'cancelled', refundedAmount: order.amount, paidAmount: 0 });
    expect(await liveRotations(slotId, deviceId, day, 10)).toBe(0);
  }, 60_000);

  it("an in-progress order's cancellation retried 10 times at once posts what was delivered once", async () => {
    const [deviceId] = await insertScreens(t, ent, staff.id, 1);
    const slotId = await insertSlot(t.db, { entId: ent.id, deviceIds: [deviceId], maxRotations: 10 });
    const [advertiserId] = await advertisers(1);
    // Started yesterday, ends tomorrow; paid (the fixture funds the wallet with the amount and holds it).
    const order = await insertSalesOrder(t, {
      entId: ent.id,
      advertiserId,
      slotId,
      deviceIds: [deviceId],
      startDate: salesDay(t, -1),
      endDate: salesDay(t, 1),
      hours: [9, 10],
      state: 'inProgress',
    });
    const wallet = await ensureAdvertiserWallet(t.db, ent.id, advertiserId);
    const before = (await accountBalances(t.db, [wallet])).get(wallet);
    expect(before).toMatchObject({ balance: order.amount, frozen: order.amount, available: 0 });

    await cancelTenTimes(order.id);
    // Yesterday's hours are delivered, tomorrow's are not: a part is posted to the operator, once.
    const moves = await settleMovements(order.id);
    expect(moves).toHaveLength(1);
    expect(moves[0].id).toBe(`sales:${order.id}:post`);
    const [row] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, order.id));
    expect(row.state).toBe('cancelled');
    expect(row.paidAmount).toBeGreaterThan(0);
    expect(row.paidAmount).toBeLessThan(order.amount);
    expect(moves[0].amount).toBe(row.paidAmount);
    expect(row.paidAmount + row.refundedAmount).toBe(order.amount);
    // What was delivered went to the operator once; the rest is available again.
    expect((await accountBalances(t.db, [wallet])).get(wallet)).toMatchObject({
      balance: order.amount - row.paidAmount,
      available: order.amount - row.paidAmount,
      frozen: 0,
    });
  }, 60_000);
});
