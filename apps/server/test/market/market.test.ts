import { randomUUID } from 'node:crypto';
import { DEFAULT_STORAGE_QUOTA_BYTES, ErrorCode, endpoints, Perm, STORAGE_PACK_BYTES } from '@marquee/protocol';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  devices,
  iotCards,
  ledgerTransfers,
  marketItems,
  marketOrders,
  marketProducts,
  marketRenewals,
  payOrders,
  stationLetters,
  storageQuotas,
} from '../../src/db/schema/index.js';
import { ensurePlatformAccount, enterpriseWalletId } from '../../src/modules/ledger/accounts.js';
import { transfer } from '../../src/modules/ledger/ledger.js';
import { addMonths, dayOf } from '../../src/modules/market/calendar.js';
import { expireItems, runRenewals } from '../../src/modules/market/renewal.js';
import { markPaid } from '../../src/modules/payments/settle.js';
import { fundEnterprise, insertMarketDevice, insertProduct, POINTS_PRICE, placeOrder } from '../fixtures/market.js';
import { type ApiClient, BACKENDS, createUser, DAY, HOUR, type TestApp } from '../helpers/index.js';
import { balanceOf, paymentsTestApp, platformOperator, submitOffline } from '../payments/helpers.js';

/**
 * The market (issue 27): the catalogue's rules, orders paid by balance or later, their effect
 * applied once, cancelling, the long-offline rule, and the daily renewals over a simulated
 * month (time is the jobs' input). Both databases.
 */
describe.each(BACKENDS)('market on %s', (backend) => {
  let t: TestApp;
  let operator: ApiClient;

  beforeAll(async () => {
    t = await paymentsTestApp(backend);
    operator = await platformOperator(t);
  });
  afterAll(() => t?.close());

  const now = () => new Date(t.clock.now());
  const expiryOf = async (id: string) =>
    (await t.db.select({ e: devices.expireAt }).from(devices).where(eq(devices.id, id)))[0].e;
  const countWhere = async (table: typeof marketOrders | typeof payOrders, entId: string) =>
    Number((await t.db.select({ n: count() }).from(table).where(eq(table.entId, entId)))[0].n);

  it('keeps the catalogue: new products off shelf, prices only off shelf, packs of 200 GB, cards need MB', async () => {
    const saved = await operator.call(endpoints.marketProductSave, {
      kind: 'devicePoints',
      name: 'Screen licence',
      prices: [
        { months: 12, price: 10_000 },
        { months: 1, price: 1_000 },
      ],
    });
    expect(saved.envelope.code, saved.body).toBe(0);
    const product = saved.envelope.payload!;
    expect(product).toMatchObject({ state: 'offShelf', storageBytes: null, dataMbPerMonth: null });
    expect(product.prices.map((p) => p.months)).toEqual([1, 12]);

    const { client } = await t.tenant();
    // A buyer does not see it off shelf; the keeper does.
    const buyerList = await client.call(endpoints.marketProductList, {});
    expect(buyerList.envelope.payload!.data.some((p) => p.id === product.id)).toBe(false);
    expect((await client.call(endpoints.marketProductInfo, { id: product.id })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    const keeperList = await operator.call(endpoints.marketProductList, { state: 'offShelf' });
    expect(keeperList.envelope.payload!.data.some((p) => p.id === product.id)).toBe(true);
    // A buyer may not keep the catalogue.
    const refused = await client.call(endpoints.marketProductSave, {
      kind: 'devicePoints',
      name: 'x',
      prices: [{ months: 1, price: 1 }],
    });
    expect(refused.envelope.code).not.toBe(0);

    const shelf = await operator.call(endpoints.marketProductShelf, { id: product.id, state: 'onSale' });
    expect(shelf.envelope.payload!.state).toBe('onSale');
    expect(
      (await client.call(endpoints.marketProductList, {})).envelope.payload!.data.some((p) => p.id === product.id),
    ).toBe(true);

    const base = {
      id: product.id,
      kind: 'devicePoints' as const,
      name: 'Screen licence',
      prices: [
        { months: 1, price: 1_000 },
        { months: 12, price: 10_000 },
      ],
    };
    const priced = await operator.call(endpoints.marketProductSave, { ...base, prices: [{ months: 1, price: 900 }] });
    expect(priced.envelope.code).toBe(ErrorCode.COMMODITY_ON_SALE);
    const kind = await operator.call(endpoints.marketProductSave, { ...base, kind: 'storagePack' });
    expect(kind.envelope.code).toBe(ErrorCode.COMMODITY_ON_SALE);
    const renamed = await operator.call(endpoints.marketProductSave, {
      ...base,
      name: 'Screen licence (new)',
      description: 'One screen',
    });
    expect(renamed.envelope.code, renamed.body).toBe(0);
    expect(renamed.envelope.payload).toMatchObject({
      name: 'Screen licence (new)',
      description: 'One screen',
      state: 'onSale',
    });
    // Off shelf, the prices may change.
    await operator.call(endpoints.marketProductShelf, { id: product.id, state: 'offShelf' });
    const repriced = await operator.call(endpoints.marketProductSave, { ...base, prices: [{ months: 1, price: 900 }] });
    expect(repriced.envelope.payload!.prices).toEqual([{ months: 1, price: 900 }]);

    const pack = await operator.call(endpoints.marketProductSave, {
      kind: 'storagePack',
      name: 'Pack',
      prices: [{ months: 1, price: 500 }],
    });
    expect(pack.envelope.payload!.storageBytes).toBe(STORAGE_PACK_BYTES);
    const card = await operator.call(endpoints.marketProductSave, {
      kind: 'dataCard',
      name: 'Card',
      prices: [{ months: 1, price: 500 }],
    });
    expect(card.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(card.envelope.message).toBeTruthy();
    const card2 = await operator.call(endpoints.marketProductSave, {
      kind: 'dataCard',
      name: 'Card',
      prices: [{ months: 1, price: 500 }],
      dataMbPerMonth: 2048,
    });
    expect(card2.envelope.payload!.dataMbPerMonth).toBe(2048);
  });

  it('an order by balance extends exactly the chosen devices, once, and charges unit price x devices', async () => {
    const { ent, admin, client } = await t.tenant();
    const productId = await insertProduct(t);
    const later = new Date(t.clock.now() + 10 * DAY);
    const a = await insertMarketDevice(t, { ent, user: admin }, { expireAt: later });
    const b = await insertMarketDevice(t, { ent, user: admin }, { expireAt: new Date(t.clock.now() - DAY) });
    const c = await insertMarketDevice(t, { ent, user: admin }, { expireAt: later });
    await fundEnterprise(t, ent.id, 5_000);

    // Not enough for 12 months of two: nothing is written.
    const poor = await client.call(endpoints.marketOrderCreate, {
      productId,
      months: 12,
      deviceIds: [a, b],
      payBy: 'balance',
    });
    expect(poor.envelope.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(await countWhere(marketOrders, ent.id)).toBe(0);
    expect(await countWhere(payOrders, ent.id)).toBe(0);

    const q = await client.call(endpoints.marketQuote, { productId, months: 1, deviceIds: [a, b] });
    expect(q.envelope.payload).toMatchObject({ amount: 2 * POINTS_PRICE[1], quantity: 2, available: 5_000 });
    const order = await placeOrder(client, {
      productId,
      months: 1,
      deviceIds: [a, b],
      payBy: 'balance',
      autoRenew: true,
    });
    expect(order).toMatchObject({
      state: 'paid',
      payState: 'paid',
      payMethod: 'balance',
      amount: 2_000,
      quantity: 2,
      source: 'purchase',
    });
    expect(order.no).toMatch(/^M\d{14}$/);
    expect(order.payOrderId).toBe(order.id);
    expect(await expiryOf(a)).toEqual(addMonths(later, 1));
    expect(await expiryOf(b)).toEqual(addMonths(now(), 1));
    expect(await expiryOf(c)).toEqual(later);
    expect((await balanceOf(t, enterpriseWalletId(ent.id))).balance).toBe(3_000);
    const items = await t.db.select().from(marketItems).where(eq(marketItems.entId, ent.id));
    expect(items.map((i) => i.subjectId).sort()).toEqual([a, b].sort());
    expect(items.every((i) => i.autoRenew)).toBe(true);
    const info = await client.call(endpoints.marketOrderInfo, { id: order.id });
    expect(info.envelope.payload!.lines.map((l) => l.expiresAfter).sort()).toEqual(
      [addMonths(later, 1).toISOString(), addMonths(now(), 1).toISOString()].sort(),
    );
    // A new order without auto-renewal does not turn it off.
    await placeOrder(client, { productId, months: 1, deviceIds: [a], payBy: 'balance' });
    expect(await expiryOf(a)).toEqual(addMonths(addMonths(later, 1), 1));
    const [itemA] = await t.db.select().from(marketItems).where(eq(marketItems.subjectId, a));
    expect(itemA.autoRenew).toBe(true);
    const list = await client.call(endpoints.marketOrderList, {});
    expect(list.envelope.payload!.total).toBe(2);
    const options = await client.call(endpoints.marketDeviceOptions, {});
    const byId = new Map(options.envelope.payload!.data.map((d) => [d.id, d]));
    expect(byId.get(a)).toMatchObject({ licence: 'licensed', autoRenew: true, selectable: true });
    expect(byId.get(c)).toMatchObject({ licence: 'trial', autoRenew: false });
  });

  it('refuses a device offline more than 72 hours, naming it; wrong subjects; off-shelf terms', async () => {
    const { ent, admin, client } = await t.tenant();
    const productId = await insertProduct(t);
    const gone = await insertMarketDevice(
      t,
      { ent, user: admin },
      { status: 'offline', seenAgoMs: 73 * HOUR, name: 'Lobby' },
    );
    const recent = await insertMarketDevice(t, { ent, user: admin }, { status: 'offline', seenAgoMs: 71 * HOUR });
    const res = await client.call(endpoints.marketQuote, { productId, months: 1, deviceIds: [recent, gone] });
    expect(res.envelope.code).toBe(ErrorCode.DEVICE_LONG_OFFLINE);
    expect(res.envelope.message).toContain('Lobby');
    expect(
      (await client.call(endpoints.marketQuote, { productId, months: 1, deviceIds: [recent] })).envelope.code,
    ).toBe(0);
    const options = await client.call(endpoints.marketDeviceOptions, {});
    const goneOption = options.envelope.payload!.data.find((d) => d.id === gone);
    expect(goneOption).toMatchObject({ selectable: false, reason: 'longOffline', offlineHours: 73 });
    expect((await client.call(endpoints.marketQuote, { productId, months: 1, quantity: 2 })).envelope.code).toBe(
      ErrorCode.MARKET_SUBJECT_INVALID,
    );
    expect((await client.call(endpoints.marketQuote, { productId, months: 1, deviceIds: [] })).envelope.code).toBe(
      ErrorCode.MARKET_SUBJECT_INVALID,
    );
    expect(
      (await client.call(endpoints.marketQuote, { productId, months: 3, deviceIds: [recent] })).envelope.code,
    ).toBe(ErrorCode.PRODUCT_OFF_SHELF);
    const off = await insertProduct(t, 'devicePoints', { state: 'offShelf' });
    expect(
      (await client.call(endpoints.marketQuote, { productId: off, months: 1, deviceIds: [recent] })).envelope.code,
    ).toBe(ErrorCode.PRODUCT_OFF_SHELF);
    // Another enterprise's device is not found.
    const other = await t.tenant();
    const foreign = await insertMarketDevice(t, { ent: other.ent, user: other.admin });
    expect(
      (await client.call(endpoints.marketQuote, { productId, months: 1, deviceIds: [foreign] })).envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
  });

  it('an order paid later (by an offline payment confirmed twice) applies its effect once', async () => {
    const { ent, admin, client } = await t.tenant();
    const productId = await insertProduct(t);
    const d = await insertMarketDevice(t, { ent, user: admin }, { expireAt: null });
    const order = await placeOrder(client, { productId, months: 12, deviceIds: [d], payBy: 'other' });
    expect(order).toMatchObject({ state: 'unpaid', payState: 'unpaid', payMethod: null });
    expect(await expiryOf(d)).toBeNull();
    const first = await t.db.transaction((tx) =>
      markPaid(tx, order.id, { method: 'offline', now: now(), arrivalKey: 'k1' }),
    );
    expect(first.status).toBe('paid');
    const after = await expiryOf(d);
    expect(after).toEqual(addMonths(now(), 12));
    const second = await t.db.transaction((tx) =>
      markPaid(tx, order.id, { method: 'offline', now: new Date(t.clock.now() + HOUR), arrivalKey: 'k1' }),
    );
    expect(second.status).toBe('already');
    expect(await expiryOf(d)).toEqual(after);
    const info = await client.call(endpoints.marketOrderInfo, { id: order.id });
    expect(info.envelope.payload!.order).toMatchObject({ state: 'paid', payState: 'paid', payMethod: 'offline' });
    // The revenue received the order's amount once.
    const revenue = await ensurePlatformAccount(t.db, 'revenue');
    const moved = await t.db
      .select({ n: count() })
      .from(ledgerTransfers)
      .where(and(eq(ledgerTransfers.creditAccountId, revenue), eq(ledgerTransfers.causeId, order.id)));
    expect(Number(moved[0].n)).toBe(1);
  });

  it('walks the order state machine: cancel, pay and review from each state', async () => {
    const { ent, admin, client } = await t.tenant();
    const productId = await insertProduct(t);
    const d = await insertMarketDevice(t, { ent, user: admin });
    await fundEnterprise(t, ent.id, 100_000);
    const make = () => placeOrder(client, { productId, months: 1, deviceIds: [d], payBy: 'other' });
    const cancel = (id: string) => client.call(endpoints.marketOrderCancel, { id });
    const pay = (id: string) => t.db.transaction((tx) => markPaid(tx, id, { method: 'balance', now: now() }));

    const cases: { from: string; setup: () => Promise<string>; action: 'cancel' | 'pay'; expect: string | number }[] = [
      { from: 'unpaid', setup: async () => (await make()).id, action: 'cancel', expect: 'cancelled' },
      { from: 'unpaid', setup: async () => (await make()).id, action: 'pay', expect: 'paid' },
      {
        from: 'paid',
        setup: async () => {
          const o = await make();
          await pay(o.id);
          return o.id;
        },
        action: 'cancel',
        expect: ErrorCode.MARKET_ORDER_STATE,
      },
      {
        from: 'paid',
        setup: async () => {
          const o = await make();
          await pay(o.id);
          return o.id;
        },
        action: 'pay',
        expect: 'paid',
      },
      {
        from: 'cancelled',
        setup: async () => {
          const o = await make();
          await cancel(o.id);
          return o.id;
        },
        action: 'cancel',
        expect: ErrorCode.MARKET_ORDER_STATE,
      },
      {
        from: 'cancelled',
        setup: async () => {
          const o = await make();
          await cancel(o.id);
          return o.id;
        },
        action: 'pay',
        expect: 'cancelled',
      },
      {
        from: 'unpaid under review',
        setup: async () => {
          const o = await make();
          await submitOffline(t, client, o.id);
          return o.id;
        },
        action: 'cancel',
        expect: ErrorCode.MARKET_ORDER_STATE,
      },
    ];
    for (const c of cases) {
      const id = await c.setup();
      if (c.action === 'cancel') {
        const res = await cancel(id);
        if (typeof c.expect === 'number') expect(res.envelope.code, `${c.from} cancel`).toBe(c.expect);
        else expect(res.envelope.payload?.state, `${c.from} cancel`).toBe(c.expect);
      } else {
        await pay(id);
      }
      const [row] = await t.db.select({ state: marketOrders.state }).from(marketOrders).where(eq(marketOrders.id, id));
      if (typeof c.expect === 'string') expect(row.state, `${c.from} ${c.action}`).toBe(c.expect);
      // A cancelled order has no transfer in the ledger.
      if (row.state === 'cancelled') {
        const moved = await t.db.select({ n: count() }).from(ledgerTransfers).where(eq(ledgerTransfers.causeId, id));
        expect(Number(moved[0].n), `${c.from} ${c.action}: transfers`).toBe(0);
        const [po] = await t.db.select({ state: payOrders.state }).from(payOrders).where(eq(payOrders.id, id));
        expect(po.state).toBe('closed');
      }
    }
  });

  it('storage packs raise the quota while active; the expiry job takes the bytes back', async () => {
    const { ent, client } = await t.tenant();
    const productId = await insertProduct(t, 'storagePack');
    await fundEnterprise(t, ent.id, 10_000);
    await placeOrder(client, { productId, months: 1, quantity: 2, payBy: 'balance' });
    const storage = await client.call(endpoints.marketStorage, {});
    expect(storage.envelope.payload).toMatchObject({
      quotaBytes: DEFAULT_STORAGE_QUOTA_BYTES + 2 * STORAGE_PACK_BYTES,
      packBytes: 2 * STORAGE_PACK_BYTES,
      baseBytes: DEFAULT_STORAGE_QUOTA_BYTES,
      activePacks: 2,
    });
    const items = await client.call(endpoints.marketItemList, { kind: 'storagePack' });
    expect(items.envelope.payload!.data.map((i) => i.subjectName)).toEqual(['200 GB', '200 GB']);
    await expireItems(t.db, addMonths(now(), 2));
    const [quota] = await t.db.select().from(storageQuotas).where(eq(storageQuotas.entId, ent.id));
    expect(Number(quota.quotaBytes)).toBe(DEFAULT_STORAGE_QUOTA_BYTES);
  });

  it('data-card packages activate the chosen cards of the enterprise; a cancelled card is refused', async () => {
    const { ent, client } = await t.tenant();
    const productId = await insertProduct(t, 'dataCard');
    const iccid = () => `8986${randomUUID().replace(/\D/g, '').padEnd(16, '0').slice(0, 16)}`;
    const [card, cancelled] = await t.db
      .insert(iotCards)
      .values([
        { entId: ent.id, iccid: iccid(), operator: 'chinaMobile', state: 'stock' },
        { entId: ent.id, iccid: iccid(), operator: 'chinaMobile', state: 'cancelled' },
      ])
      .returning();
    const refused = await client.call(endpoints.marketQuote, {
      productId,
      months: 1,
      cardIds: [card.id, cancelled.id],
    });
    expect(refused.envelope.code).toBe(ErrorCode.MARKET_SUBJECT_INVALID);
    const wrong = await client.call(endpoints.marketQuote, { productId, months: 1, cardIds: [card.id], quantity: 1 });
    expect(wrong.envelope.code).toBe(ErrorCode.MARKET_SUBJECT_INVALID);
    await fundEnterprise(t, ent.id, POINTS_PRICE[12]);
    const order = await placeOrder(client, { productId, months: 12, cardIds: [card.id], payBy: 'balance' });
    expect(order).toMatchObject({ kind: 'dataCard', state: 'paid', amount: POINTS_PRICE[12] });
    const [after] = await t.db.select().from(iotCards).where(eq(iotCards.id, card.id));
    expect(after).toMatchObject({ state: 'activated', packageMb: 1024 });
    expect(after.expiresAt).toEqual(addMonths(now(), 12));
    const items = await client.call(endpoints.marketItemList, { kind: 'dataCard' });
    expect(items.envelope.payload!.data[0]).toMatchObject({ subjectName: card.iccid, subjectId: card.id });
    // Its package ends: the card lapses.
    await expireItems(t.db, addMonths(now(), 13));
    const [lapsed] = await t.db.select().from(iotCards).where(eq(iotCards.id, card.id));
    expect(lapsed.state).toBe('lapsed');
  });

  it('letters: devices expiring and storage nearly full, only for readers of the market', async () => {
    const { ent, admin, client } = await t.tenant();
    await insertMarketDevice(t, { ent, user: admin }, { expireAt: new Date(t.clock.now() + 3 * DAY) });
    await insertMarketDevice(t, { ent, user: admin }, { expireAt: new Date(t.clock.now() + 40 * DAY) });
    await t.db.insert(storageQuotas).values({ entId: ent.id, quotaBytes: 1000, usedBytes: 950 });
    const letters = (await client.call(endpoints.stationLetterList, {}, { language: 'en-US' })).envelope.payload!;
    expect(letters.some((l) => l.startsWith('1 device expires within 15 days'))).toBe(true);
    expect(letters.some((l) => l.includes('95% full'))).toBe(true);
    const other = await t.loginAs(await createUser(t.db, ent, { permissions: [Perm.device] }));
    const none = (await other.call(endpoints.stationLetterList, {}, { language: 'en-US' })).envelope.payload!;
    expect(none.some((l) => l.includes('expires within') || l.includes('full'))).toBe(false);
  });

  describe('renewals over a simulated month', () => {
    /** An enterprise with one licensed device expiring in `days`, auto-renewal on. */
    async function renewable(days: number, fund: number) {
      const tenant = await t.tenant();
      const productId = await insertProduct(t);
      const d = await insertMarketDevice(
        t,
        { ent: tenant.ent, user: tenant.admin },
        { expireAt: new Date(t.clock.now() + days * DAY) },
      );
      await fundEnterprise(t, tenant.ent.id, POINTS_PRICE[1]);
      await placeOrder(tenant.client, { productId, months: 1, deviceIds: [d], payBy: 'balance', autoRenew: true });
      if (fund > 0) await fundEnterprise(t, tenant.ent.id, fund);
      const [item] = await t.db.select().from(marketItems).where(eq(marketItems.subjectId, d));
      return { ...tenant, productId, d, item };
    }
    const attempts = (itemId: string) =>
      t.db.select().from(marketRenewals).where(eq(marketRenewals.itemId, itemId)).orderBy(marketRenewals.at);

    it('renews once per day when due, from the current expiry, and not twice on a rerun', async () => {
      const { ent, client, d, item } = await renewable(-1, 5 * POINTS_PRICE[1]);
      const expiry = item.expiresAt;
      // Day by day: not due until 9 days before the expiry.
      let at = new Date(expiry.getTime() - 12 * DAY);
      for (let i = 0; i < 3; i++) {
        await runRenewals(t.db, at);
        at = new Date(at.getTime() + DAY);
      }
      expect(await attempts(item.id)).toHaveLength(0);
      at = new Date(expiry.getTime() - 9 * DAY + HOUR);
      await runRenewals(t.db, at);
      expect(await attempts(item.id)).toHaveLength(1);
      // A rerun of the day tries nothing twice.
      await runRenewals(t.db, new Date(at.getTime() + HOUR));
      expect(await attempts(item.id)).toHaveLength(1);
      const [attempt] = await attempts(item.id);
      expect(attempt).toMatchObject({ outcome: 'succeeded', day: dayOf(at), amount: POINTS_PRICE[1] });
      expect(attempt.expiresAfter).toEqual(addMonths(expiry, 1));
      expect(await expiryOf(d)).toEqual(addMonths(expiry, 1));
      expect((await balanceOf(t, enterpriseWalletId(ent.id))).balance).toBe(4 * POINTS_PRICE[1]);
      const list = await client.call(endpoints.marketRenewalList, {});
      expect(list.envelope.payload!.data[0]).toMatchObject({
        outcome: 'succeeded',
        orderNo: expect.stringMatching(/^M/),
      });
      const orders = await client.call(endpoints.marketOrderList, { source: 'renewal' });
      expect(orders.envelope.payload!.data[0]).toMatchObject({ state: 'paid', payMethod: 'balance', quantity: 1 });
    });

    it('fails for want of balance (with a letter), then succeeds the day after a recharge', async () => {
      const { ent, d, item } = await renewable(-1, 0);
      const at = new Date(item.expiresAt.getTime() - 5 * DAY);
      await runRenewals(t.db, at);
      expect((await attempts(item.id))[0]).toMatchObject({ outcome: 'failed', reason: 'insufficientBalance' });
      const letters = await t.db.select().from(stationLetters).where(eq(stationLetters.entId, ent.id));
      expect(letters.map((l) => l.kind)).toContain('market.renewalFailed');
      await fundEnterprise(t, ent.id, POINTS_PRICE[1], at);
      const next = new Date(at.getTime() + DAY);
      await runRenewals(t.db, next);
      expect((await attempts(item.id)).map((a) => a.outcome)).toEqual(['failed', 'succeeded']);
      expect(await expiryOf(d)).toEqual(addMonths(item.expiresAt, 1));
    });

    it('fails an item whose product went off shelf, or whose device is gone', async () => {
      const off = await renewable(-1, 10 * POINTS_PRICE[1]);
      await t.db.update(marketProducts).set({ state: 'offShelf' }).where(eq(marketProducts.id, off.productId));
      await runRenewals(t.db, new Date(off.item.expiresAt.getTime() - DAY));
      expect((await attempts(off.item.id))[0]).toMatchObject({ outcome: 'failed', reason: 'offShelf' });
      const gone = await renewable(-1, 10 * POINTS_PRICE[1]);
      await t.db.delete(devices).where(eq(devices.id, gone.d));
      await runRenewals(t.db, new Date(gone.item.expiresAt.getTime() - DAY));
      expect((await attempts(gone.item.id))[0]).toMatchObject({ outcome: 'failed', reason: 'subjectGone' });
    });

    it('never spends frozen money', async () => {
      const { ent, item } = await renewable(-1, POINTS_PRICE[1]);
      const corrections = await ensurePlatformAccount(t.db, 'corrections');
      await transfer(t.db, {
        id: `hold:${randomUUID()}`,
        debitAccountId: enterpriseWalletId(ent.id),
        creditAccountId: corrections,
        amount: 1,
        code: 'hold',
        cause: { type: 'test', id: randomUUID() },
        now: now(),
        pending: { timeoutAt: null },
      });
      expect((await balanceOf(t, enterpriseWalletId(ent.id))).available).toBe(POINTS_PRICE[1] - 1);
      await runRenewals(t.db, new Date(item.expiresAt.getTime() - 2 * DAY));
      expect((await attempts(item.id))[0]).toMatchObject({ outcome: 'failed', reason: 'insufficientBalance' });
      expect((await balanceOf(t, enterpriseWalletId(ent.id))).balance).toBe(POINTS_PRICE[1]);
    });

    it('fails every day until the expiry; then the item expires and so does the device', async () => {
      const { d, item } = await renewable(-1, 0);
      const start = new Date(item.expiresAt.getTime() - 10 * DAY);
      for (let day = 0; day < 12; day++) {
        const at = new Date(start.getTime() + day * DAY);
        await runRenewals(t.db, at);
        await expireItems(t.db, at);
      }
      const tried = await attempts(item.id);
      expect(tried.length).toBeGreaterThanOrEqual(9);
      expect(tried.every((a) => a.outcome === 'failed' && a.reason === 'insufficientBalance')).toBe(true);
      expect(new Set(tried.map((a) => a.day)).size).toBe(tried.length);
      const [after] = await t.db.select().from(marketItems).where(eq(marketItems.id, item.id));
      expect(after.state).toBe('expired');
      const expireAt = await expiryOf(d);
      expect(expireAt!.getTime()).toBeLessThan(start.getTime() + 12 * DAY);
    });

    it('turns auto-renewal off for the enterprise items only', async () => {
      const { client, item } = await renewable(30, 0);
      const other = await t.tenant();
      const res = await client.call(endpoints.marketItemAutoRenew, { ids: [item.id], autoRenew: false });
      expect(res.envelope.payload).toEqual({ updated: 1 });
      const foreign = await other.client.call(endpoints.marketItemAutoRenew, { ids: [item.id], autoRenew: true });
      expect(foreign.envelope.code).toBe(ErrorCode.NOT_FOUND);
    });
  });
});
