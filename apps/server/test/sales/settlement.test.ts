import { ErrorCode, endpoints } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  deviceAudienceHourly,
  ledgerTransfers,
  salesOrderLines,
  salesOrders,
  salesSettlementLines,
} from '../../src/db/schema/index.js';
import { accountBalances, advertiserWalletId, enterpriseWalletId } from '../../src/modules/ledger/accounts.js';
import { runExport } from '../../src/modules/operationLog/exportJob.js';
import { computeSettlement, deliveredAmount, splitByWeights } from '../../src/modules/sales/settlement.js';
import { insertSalesAdvertiser, salesDay } from '../fixtures/sales.js';
import { BACKENDS, type TestApp } from '../helpers/index.js';
import { paymentsTestApp } from '../payments/helpers.js';
import { at, inProgressOrder as newInProgressOrder, playAd } from './delivery.js';

/**
 * Settlement from proof of play (issue 28): plays written through the real plays path
 * (ingestPlays, then the rollup job's recompute of the touched (day, device) pairs), the
 * screen-day lines (expected from the booked time: 1 rotation x 360 loops of 10 s in one booked
 * hour), the under-delivery of a screen offline one day, the credit remedy, the confirm's
 * ledger post and release to the fen, confirming twice; CPM impressions from gather's audience
 * on one screen and the multiplier on another; deliveredAmount half-way. Both databases, a
 * simulated clock.
 */
describe.each(BACKENDS)('sales settlement on %s', (backend) => {
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

  it('splits an amount to the fen by largest remainder', () => {
    expect(splitByWeights(100, [1n, 1n, 1n])).toEqual([34, 33, 33]);
    expect(
      splitByWeights(
        588,
        Array.from({ length: 6 }, () => 1n),
      ).reduce((a, b) => a + b, 0),
    ).toBe(588);
    expect(splitByWeights(7, [0n, 0n])).toEqual([0, 0]);
  });

  it('CPT over 3 days on 2 screens, one offline a day: lines, under-delivery, credit, confirm to the fen, once', async () => {
    const o = await inProgressOrder({ screens: 2, days: 3, hours: [8] });
    const [a, b] = o.deviceIds;
    const d1 = salesDay(t, 1);
    const d2 = salesDay(t, 2);
    const d3 = salesDay(t, 3);
    const d4 = salesDay(t, 4);
    // 1 rotation in 1 booked hour: 360 loops of 10 s expected per screen-day.
    for (const day of [d1, d2, d3]) await play(o.ent.id, a, o.adId, day, 8, 360);
    await play(o.ent.id, b, o.adId, d1, 8, 360);
    // b offline on d2 (nothing), 350 of 360 on d3 (97%: delivered).
    await play(o.ent.id, b, o.adId, d3, 8, 350);
    // Another ad's plays are not the order's.
    await play(o.ent.id, b, 'other-ad', d2, 9, 50);

    // Early (during d3): only the days before today; confirming refused (period not over).
    t.clock.set(at(d3, 12));
    o.client = await t.loginAs(o.admin); // the session of 10 days ago lapsed
    const early = await o.client.call(endpoints.salesSettlementCompute, { orderId: o.order.id });
    expect(early.envelope.code, early.body).toBe(0);
    expect(early.envelope.payload).toMatchObject({ state: 'toBePaid', expectedPlays: 4 * 360 });
    expect((await o.client.call(endpoints.salesSettlementConfirm, { orderId: o.order.id })).envelope.code).toBe(
      ErrorCode.SALES_ORDER_STATE,
    );

    t.clock.set(at(d4, 2)); // the day after d3
    o.client = await t.loginAs(o.admin);
    const computed = await o.client.call(endpoints.salesSettlementCompute, { orderId: o.order.id });
    expect(computed.envelope.code, computed.body).toBe(0);
    const s = computed.envelope.payload!;
    expect(s).toMatchObject({
      frozenAmount: 600,
      expectedPlays: 6 * 360,
      deliveredPlays: 5 * 360 - 10,
      underDeliveredScreenDays: 1,
      // default remedy credit: b on d2 is credited in full (100 fen of its screen-day).
      creditAmount: 100,
      billedAmount: 500,
      salesMethod: 'cpt',
    });
    const info = await o.client.call(endpoints.salesSettlementInfo, {
      orderId: o.order.id,
      underOnly: false,
      page: 1,
      size: 50,
    });
    const lines = info.envelope.payload!.lines;
    expect(lines.total).toBe(6);
    expect(lines.data[0]).toMatchObject({
      deviceId: b,
      day: d2,
      expectedPlays: 360,
      deliveredPlays: 0,
      underDelivered: true,
      remedy: 'credit',
      amount: 100,
      credit: 100,
      impressionsSource: 'multiplier',
    });
    expect(lines.data.reduce((sum, l) => sum + l.amount, 0)).toBe(600);
    expect(lines.data.find((l) => l.deviceId === b && l.day === d3)).toMatchObject({
      deliveredPlays: 350,
      underDelivered: false,
      credit: 0,
    });

    // Remedies: extra plays for all (no credit), then credit again (kept through a recompute).
    const extra = await o.client.call(endpoints.salesSettlementRemedy, { orderId: o.order.id, remedy: 'extraPlays' });
    expect(extra.envelope.payload).toMatchObject({ creditAmount: 0, billedAmount: 600 });
    const back = await o.client.call(endpoints.salesSettlementRemedy, {
      orderId: o.order.id,
      remedy: 'credit',
      lines: [{ subOrderId: o.order.lineId, deviceId: b, day: d2 }],
    });
    expect(back.envelope.payload).toMatchObject({ creditAmount: 100, billedAmount: 500 });
    const kept = await o.client.call(endpoints.salesSettlementCompute, { orderId: o.order.id });
    expect(kept.envelope.payload).toMatchObject({ creditAmount: 100, billedAmount: 500 });

    const confirmed = await o.client.call(endpoints.salesSettlementConfirm, { orderId: o.order.id });
    expect(confirmed.envelope.code, confirmed.body).toBe(0);
    expect(confirmed.envelope.payload).toMatchObject({ state: 'completed', billedAmount: 500, makeGoodUntil: null });
    const [order] = await t.db.select().from(salesOrders).where(eq(salesOrders.id, o.order.id));
    expect(order).toMatchObject({ state: 'settled', paidAmount: 500, refundedAmount: 100 });
    const transfers = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.causeId, o.order.id));
    const post = transfers.find((x) => x.id === `sales:${o.order.id}:post`);
    expect(post?.amount).toBe(500);
    const balances = await accountBalances(t.db, [advertiserWalletId(o.adv.id), enterpriseWalletId(o.ent.id)]);
    // The advertiser was funded exactly the order's 600: 100 back, nothing frozen; the operator got 500.
    expect(balances.get(advertiserWalletId(o.adv.id))).toMatchObject({ balance: 100, frozen: 0, available: 100 });
    expect(balances.get(enterpriseWalletId(o.ent.id))?.balance).toBe(500);

    // Twice: SETTLEMENT_STATE, no second post.
    const again = await o.client.call(endpoints.salesSettlementConfirm, { orderId: o.order.id });
    expect(again.envelope.code).toBe(ErrorCode.SETTLEMENT_STATE);
    const after = await t.db.select().from(ledgerTransfers).where(eq(ledgerTransfers.causeId, o.order.id));
    expect(after.length).toBe(transfers.length);
    expect((await o.client.call(endpoints.salesSettlementCompute, { orderId: o.order.id })).envelope.code).toBe(
      ErrorCode.SALES_ORDER_STATE,
    );
    // The workbook finance reconciles: the summary (ledger ids and amounts, the check) and the screen-days.
    const en = await t.loginAs(o.admin, { language: 'en-US' });
    const started = await en.call(endpoints.salesSettlementExportStart, { orderId: o.order.id });
    expect(started.envelope.code, started.body).toBe(0);
    const exportId = started.envelope.payload!.exportId;
    await runExport(t.services, exportId, t.app.log, true);
    const file = await en.call(endpoints.salesSettlementExportDownload, { exportId });
    expect(file.status).toBe(200);
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Settlement summary', 'Screen-days']);
    const summary = wb.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
    const item = (label: string) => summary.find((r) => String(r[1]).startsWith(label));
    expect(item('Frozen')?.slice(3, 5)).toEqual(['6.00', 600]);
    expect(item('Billed')?.slice(3, 5)).toEqual(['5.00', 500]);
    expect(item('Released')?.slice(3, 5)).toEqual(['1.00', 100]);
    expect(item('Check')?.slice(2, 5)).toEqual(['Matches', '6.00', 600]);
    expect(summary.some((r) => String(r[2]).startsWith(`sales:${o.order.id}:post`) && r[4] === 500)).toBe(true);
    const days = wb.worksheets[1].getSheetValues().filter(Boolean) as unknown[][];
    expect(days).toHaveLength(7);
    expect(days[0][1]).toBe('Sub-order');
    expect(days.slice(1).reduce((sum, r) => sum + Number(r[13]) - Number(r[14]), 0)).toBe(500);

    // The advertiser sees its settlement; a stranger does not.
    const advClient = await t.loginAs(o.adv);
    const seen = await advClient.call(endpoints.salesSettlementInfo, {
      orderId: o.order.id,
      underOnly: true,
      page: 1,
      size: 10,
    });
    expect(seen.envelope.payload?.lines.total).toBe(1);
    const stranger = await t.loginAs(await insertSalesAdvertiser(t, o.ent));
    expect(
      (await stranger.call(endpoints.salesSettlementInfo, { orderId: o.order.id, underOnly: false, page: 1, size: 10 }))
        .envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
  });

  it('CPM: impressions from gather audience on one screen, the multiplier on the other', async () => {
    const o = await inProgressOrder({ screens: 2, days: 1, hours: [8] });
    const [a, b] = o.deviceIds;
    // 2 screens x 1 day x 1 hour x 100 = 200 fen: bought as 2 thousand impressions at 100 fen.
    await t.db
      .update(salesOrderLines)
      .set({ salesMethod: 'cpm', impressionsK: 2, unitPrice: 100, listAmount: 200 })
      .where(eq(salesOrderLines.id, o.order.lineId));
    const d1 = salesDay(t, 1);
    const d2 = salesDay(t, 2);
    await play(o.ent.id, a, o.adId, d1, 8, 100);
    await play(o.ent.id, a, 'other-ad', d1, 10, 100);
    await play(o.ent.id, b, o.adId, d1, 8, 100);
    await t.db.insert(deviceAudienceHourly).values([
      { deviceId: a, entId: o.ent.id, hour: new Date(at(d1, 8)), band: '25-34', gender: 'male', count: 600 },
      { deviceId: a, entId: o.ent.id, hour: new Date(at(d1, 10)), band: '25-34', gender: 'female', count: 400 },
    ]);
    t.clock.set(at(d1, 12));
    expect(await deliveredAmount(t.db, o.order.id, new Date(t.clock.now()))).toBe(60);
    t.clock.set(at(d2, 2));
    o.client = await t.loginAs(o.admin);
    const s = await computeSettlement(t.db, o.order.id, new Date(t.clock.now()));
    // a: 100 plays x (1000 audience / 200 plays of all ads) = 500; b: 100 plays x 100% = 100.
    expect(s).toMatchObject({ impressions: 600, billedAmount: 60, creditAmount: 0 });
    const lines = await t.db.select().from(salesSettlementLines).where(eq(salesSettlementLines.settlementId, s.id));
    const byDevice = new Map(lines.map((l) => [l.deviceId, l]));
    expect(byDevice.get(a)).toMatchObject({ impressions: 500, fromAudience: true, amount: 50 });
    expect(byDevice.get(b)).toMatchObject({ impressions: 100, fromAudience: false, amount: 10 });
    const info = await o.client.call(endpoints.salesSettlementInfo, {
      orderId: o.order.id,
      underOnly: false,
      page: 1,
      size: 10,
    });
    expect(info.envelope.payload?.settlement).toMatchObject({
      salesMethod: 'cpm',
      impressionsBasis: { multiplierPct: 100, audienceScreenDays: 1, multiplierScreenDays: 1 },
    });
  });

  it('deliveredAmount of a half-elapsed CPT order: half its amount', async () => {
    const o = await inProgressOrder({ screens: 3, days: 2, hours: [8, 9] });
    // 3 x 2 x 2 x 100 = 1200; 2 of the 4 booked hours over at d2 08:00.
    const d2 = salesDay(t, 2);
    expect(await deliveredAmount(t.db, o.order.id, new Date(at(d2, 8)))).toBe(600);
    expect(await deliveredAmount(t.db, o.order.id, new Date(at(d2, 9, 59)))).toBe(900);
    expect(await deliveredAmount(t.db, o.order.id, new Date(at(salesDay(t, 0), 0)))).toBe(0);
    expect(await deliveredAmount(t.db, o.order.id, new Date(at(salesDay(t, 5), 0)))).toBe(1200);
  });
});
