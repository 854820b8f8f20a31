import { randomUUID } from 'node:crypto';
import { ErrorCode, endpoints, type PlayEvent } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryDays, devices } from '../src/db/schema/index.js';
import { markAdsDownloaded } from '../src/modules/ads/downloads.js';
import { createAdvertiser } from '../src/modules/advertisers/service.js';
import { ingestPlays } from '../src/modules/content/plays.js';
import { runPlayRollups } from '../src/modules/content/rollups.js';
import { reconcileDeliveryDays } from '../src/modules/reports/deliveryDays.js';
import { adBody, ownMaterial } from './fixtures/ads.js';
import { BACKENDS, createTestApp, TEST_PASSWORD, type TestApp, type TestUser, uniqueName } from './helpers/index.js';

const DAY = 86_400_000;
/** Noon UTC on 2026-06-10: the report's days are fixed. */
const NOW = Date.parse('2026-06-10T12:00:00Z');

/**
 * Ad reports with reconciliation (issue 13): plays go in through the player's ingest, the
 * rollup job folds them, and the reports read the rollups: plays, play time, devices, expected
 * plays from the schedule, delivery and full rate; advertisers see only their own ads.
 */
describe.each(BACKENDS)('ad reports on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    t.clock.set(NOW);
  });
  afterAll(() => t.close());

  async function world() {
    const { ent, admin, client } = await t.tenant();
    const advertiser = async () => {
      const loginName = uniqueName('adv');
      const id = await createAdvertiser(t.db, {
        entId: ent.id,
        deptId: ent.depts.a1,
        createdBy: admin.id,
        loginName,
        password: TEST_PASSWORD,
        realName: 'Advertiser',
      });
      const user: TestUser = { id, entId: ent.id, loginName, password: TEST_PASSWORD };
      return { user, client: await t.loginAs(user) };
    };
    const device = async (number: string) => {
      const [row] = await t.db
        .insert(devices)
        .values({
          entId: ent.id,
          deptId: ent.depts.root,
          ownerId: admin.id,
          number,
          name: `Screen ${number}`,
          activatedAt: new Date(NOW - 30 * DAY),
        })
        .returning({ id: devices.id });
      return row.id;
    };
    return { ent, admin, client, advertiser, device };
  }

  const play = (adId: string, materialId: string, start: number, durationMs = 10_000): PlayEvent => ({
    id: randomUUID(),
    materialId,
    layoutId: null,
    componentId: null,
    adId,
    start,
    durationMs,
    outcome: 'completed',
  });

  it('counts plays, play time, devices, expected plays, delivery and full rate from the rollups', async () => {
    const w = await world();
    const dev1 = await w.device('R-001');
    const dev2 = await w.device('R-002');
    const m = await ownMaterial(t, { entId: w.ent.id, deptId: w.ent.depts.root, ownerId: w.admin.id });
    // Per day 4 plays, all day, from 2026-06-08 00:00 to 2026-06-20, on both screens; made,
    // approved and downloaded the day before.
    t.clock.set(Date.parse('2026-06-07T10:00:00Z'));
    const made = await w.client.call(
      endpoints.adCreate,
      adBody([m], NOW, {
        name: 'Reported ad',
        startAt: '2026-06-08T00:00:00Z',
        endAt: '2026-06-20T00:00:00Z',
        strategy: 'perDay',
        playsMin: 4,
        playsMax: 10,
        periods: [],
        targets: { deviceIds: [dev1, dev2], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
      }) as never,
    );
    expect(made.envelope.code).toBe(0);
    const adId = made.envelope.payload.id as string;
    expect((await w.client.call(endpoints.adAuditPass, { id: adId })).envelope.code).toBe(0);
    await markAdsDownloaded(t.db, w.ent.id, [adId], new Date('2026-06-07T11:00:00Z'));
    t.clock.set(NOW);

    // Screen 1: 4 plays on the 8th (at 09:xx UTC), 2 on the 9th; screen 2: 4 on the 9th.
    const d8 = Date.parse('2026-06-08T09:00:00Z');
    const d9 = Date.parse('2026-06-09T15:00:00Z');
    await ingestPlays(
      t.db,
      { id: dev1, entId: w.ent.id },
      [0, 1, 2, 3].map((i) => play(adId, m, d8 + i * 60_000)),
      NOW,
    );
    await ingestPlays(
      t.db,
      { id: dev1, entId: w.ent.id },
      [0, 1].map((i) => play(adId, m, d9 + i * 60_000)),
      NOW,
    );
    await ingestPlays(
      t.db,
      { id: dev2, entId: w.ent.id },
      [0, 1, 2, 3].map((i) => play(adId, m, d9 + i * 60_000, 5000)),
      NOW,
    );
    await runPlayRollups(t.db);

    const range = { from: '2026-06-08', to: '2026-06-10' };
    const list = await w.client.call(endpoints.reportAdList, range);
    expect(list.envelope.code).toBe(0);
    // Expected: 4 a day x 2 screens x 3 days = 24; reported 10 -> 41.67 %.
    expect(list.envelope.payload).toMatchObject({
      from: '2026-06-08',
      to: '2026-06-10',
      total: 1,
      data: [
        {
          adId,
          name: 'Reported ad',
          plays: 10,
          completed: 10,
          durationMs: 80_000,
          devices: 2,
          expected: 24,
          deliveryPct: 41.67,
          underDelivered: true,
          // Day 8: 4 plays / 1 screen; day 9: 6 / 2 = 3 -> (4 + 3) / (2 x 8) = 43.75 %.
          fullRate: 43.75,
        },
      ],
    });
    expect(list.envelope.payload.trend).toEqual([
      { day: '2026-06-08', plays: 4, durationMs: 40_000, expected: 8 },
      { day: '2026-06-09', plays: 6, durationMs: 40_000, expected: 8 },
      { day: '2026-06-10', plays: 0, durationMs: 0, expected: 8 },
    ]);

    const detail = await w.client.call(endpoints.reportAdDetail, { id: adId, ...range });
    expect(detail.envelope.code).toBe(0);
    const p = detail.envelope.payload;
    expect(p.totals).toMatchObject({ plays: 10, devices: 2, expected: 24, deliveryPct: 41.67, fullRate: 43.75 });
    expect(p.days).toEqual([
      { day: '2026-06-08', plays: 4, durationMs: 40_000, devices: 1, expected: 8 },
      { day: '2026-06-09', plays: 6, durationMs: 40_000, devices: 2, expected: 8 },
      { day: '2026-06-10', plays: 0, durationMs: 0, devices: 0, expected: 8 },
    ]);
    // The per-device table is its own paged call.
    const devicesPage = await w.client.call(endpoints.reportAdDevices, { id: adId, ...range });
    expect(devicesPage.envelope.code).toBe(0);
    expect(devicesPage.envelope.payload).toEqual({
      from: '2026-06-08',
      to: '2026-06-10',
      timeZone: 'UTC',
      zoneSince: null,
      total: 2,
      data: [
        {
          deviceId: dev1,
          number: 'R-001',
          name: 'Screen R-001',
          plays: 6,
          durationMs: 60_000,
          expected: 12,
          deliveryPct: 50,
          underDelivered: true,
        },
        {
          deviceId: dev2,
          number: 'R-002',
          name: 'Screen R-002',
          plays: 4,
          durationMs: 20_000,
          expected: 12,
          deliveryPct: 33.33,
          underDelivered: true,
        },
      ],
    });
    const byDelivery = await w.client.call(endpoints.reportAdDevices, {
      id: adId,
      ...range,
      sort: 'deliveryPct',
      order: 'asc',
      underOnly: true,
    });
    expect(byDelivery.envelope.payload).toMatchObject({
      total: 2,
      data: [
        { deviceId: dev2, deliveryPct: 33.33 },
        { deviceId: dev1, deliveryPct: 50 },
      ],
    });
    expect(p.materials).toEqual([{ materialId: m, name: expect.any(String), plays: 10, durationMs: 80_000 }]);
    expect(p.hours.find((h: { hour: number }) => h.hour === 9)).toEqual({ hour: 9, plays: 4 });
    expect(p.hours.find((h: { hour: number }) => h.hour === 15)).toEqual({ hour: 15, plays: 6 });

    // The schedule report: screen 1 on the 8th delivered 4 of 4.
    const schedule = await w.client.call(endpoints.reportDeviceSchedule, { ...range, keyword: 'R-00' });
    expect(schedule.envelope.code).toBe(0);
    expect(schedule.envelope.payload.total).toBe(6);
    expect(schedule.envelope.payload.data[0]).toMatchObject({
      deviceId: dev1,
      day: '2026-06-08',
      expected: 4,
      reported: 4,
      deliveryPct: 100,
      underDelivered: false,
      ads: [{ adId, name: 'Reported ad', expected: 4, reported: 4 }],
    });
    const under = await w.client.call(endpoints.reportDeviceSchedule, { ...range, keyword: 'R-00', underFirst: true });
    expect(under.envelope.payload.data.slice(0, 4).map((r: { underDelivered: boolean }) => r.underDelivered)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(under.envelope.payload.data[0]).toMatchObject({ deliveryPct: 0 });

    // The export runs as a background job through the export registry.
    const started = await w.client.call(endpoints.reportAdDetailExportStart, { id: adId, ...range });
    expect(started.envelope.code).toBe(0);
    expect(started.envelope.payload).toMatchObject({
      total: 2,
      fileName: expect.stringMatching(/^ad-report-devices-/),
    });
    const status = await w.client.call(endpoints.reportExportStatus, { exportId: started.envelope.payload.exportId });
    expect(status.envelope.code).toBe(0);

    // The reconciliation per screen of yesterday (the 9th) agrees with the schedule report:
    // screen 1 reported 2 of 4, screen 2 all 4; a screen no ad reaches is not listed.
    const idle = await w.device('R-003');
    expect(await reconcileDeliveryDays(t.db, new Date(NOW))).toBeGreaterThanOrEqual(2);
    const reconciled = await t.db
      .select()
      .from(deliveryDays)
      .where(and(eq(deliveryDays.entId, w.ent.id), eq(deliveryDays.day, '2026-06-09')));
    expect(reconciled.map((r) => [r.deviceId, r.expected, r.delivered]).sort()).toEqual(
      [
        [dev1, 4, 2],
        [dev2, 4, 4],
      ].sort(),
    );
    expect(reconciled.some((r) => r.deviceId === idle)).toBe(false);
    // A rerun rewrites the day, once.
    await reconcileDeliveryDays(t.db, new Date(NOW));
    expect(
      await t.db
        .select()
        .from(deliveryDays)
        .where(and(eq(deliveryDays.entId, w.ent.id), eq(deliveryDays.day, '2026-06-09'))),
    ).toHaveLength(2);
  });

  it('expects of a day in progress only the loops so far', async () => {
    const w = await world();
    const dev = await w.device('R-101');
    const m = await ownMaterial(t, { entId: w.ent.id, deptId: w.ent.depts.root, ownerId: w.admin.id });
    // Once a loop, alone on the screen (a 10 s loop), from 11:00 today (approved and downloaded
    // before); now is 12:00.
    t.clock.set(Date.parse('2026-06-10T10:00:00Z'));
    const made = await w.client.call(
      endpoints.adCreate,
      adBody([m], NOW, {
        name: 'Started this morning',
        startAt: '2026-06-10T11:00:00Z',
        endAt: '2026-06-20T00:00:00Z',
        strategy: 'perLoop',
        playsMin: 1,
        playsMax: 1,
        periods: [],
        targets: { deviceIds: [dev], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
      }) as never,
    );
    const adId = made.envelope.payload.id as string;
    expect((await w.client.call(endpoints.adAuditPass, { id: adId })).envelope.code).toBe(0);
    await markAdsDownloaded(t.db, w.ent.id, [adId], new Date('2026-06-10T10:30:00Z'));
    t.clock.set(NOW);
    const detail = await w.client.call(endpoints.reportAdDetail, { id: adId, from: '2026-06-10', to: '2026-06-10' });
    // One hour of 10 s loops: 360 (the other 12 hours of the day have not come yet).
    expect(detail.envelope.payload.totals.expected).toBe(360);
  });

  it('expects of an ad approved late in the day the loops from its approval and first download, not from midnight', async () => {
    const w = await world();
    const dev = await w.device('R-201');
    const m = await ownMaterial(t, { entId: w.ent.id, deptId: w.ent.depts.root, ownerId: w.admin.id });
    // Once a loop, alone on the screen (a 10 s loop), from 2026-06-09 00:00; made that morning,
    // approved at 17:00, downloaded by the screen at 17:05; now is the next day's noon.
    t.clock.set(Date.parse('2026-06-08T09:00:00Z'));
    const made = await w.client.call(
      endpoints.adCreate,
      adBody([m], Date.parse('2026-06-08T09:00:00Z'), {
        name: 'Approved late',
        startAt: '2026-06-09T00:00:00Z',
        endAt: '2026-06-20T00:00:00Z',
        strategy: 'perLoop',
        playsMin: 1,
        playsMax: 1,
        periods: [],
        targets: { deviceIds: [dev], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
      }) as never,
    );
    expect(made.envelope.code).toBe(0);
    const adId = made.envelope.payload.id as string;
    t.clock.set(Date.parse('2026-06-09T17:00:00Z'));
    expect((await w.client.call(endpoints.adAuditPass, { id: adId })).envelope.code).toBe(0);
    t.clock.set(NOW);
    const day = { id: adId, from: '2026-06-09', to: '2026-06-09' };
    // Approved but on no screen yet: it could not play, nothing is expected.
    expect((await w.client.call(endpoints.reportAdDetail, day)).envelope.payload.totals.expected).toBe(0);
    await markAdsDownloaded(t.db, w.ent.id, [adId], new Date('2026-06-09T17:05:00Z'));
    // From 17:05 to midnight: 6 h 55 min of 10 s loops = 2,490 (from midnight it would be 8,640).
    const start = Date.parse('2026-06-09T17:05:00Z');
    await ingestPlays(
      t.db,
      { id: dev, entId: w.ent.id },
      Array.from({ length: 2490 }, (_, i) => play(adId, m, start + i * 10_000)),
      NOW,
    );
    await runPlayRollups(t.db);
    const detail = (await w.client.call(endpoints.reportAdDetail, day)).envelope.payload;
    expect(detail.totals).toMatchObject({
      plays: 2490,
      expected: 2490,
      deliveryPct: 100,
      underDelivered: false,
      fullRate: 100,
    });
    expect(detail.days).toEqual([
      { day: '2026-06-09', plays: 2490, durationMs: 24_900_000, devices: 1, expected: 2490 },
    ]);
    const table = (await w.client.call(endpoints.reportAdDevices, day)).envelope.payload;
    expect(table.data).toMatchObject([{ deviceId: dev, plays: 2490, expected: 2490, deliveryPct: 100 }]);
    const listed = await w.client.call(endpoints.reportAdList, {
      from: day.from,
      to: day.to,
      keyword: 'Approved late',
    });
    expect(listed.envelope.code).toBe(0);
    const list = listed.envelope.payload;
    expect(list.data).toMatchObject([{ adId, expected: 2490, deliveryPct: 100, underDelivered: false }]);
    expect(list.trend).toEqual([{ day: '2026-06-09', plays: 2490, durationMs: 24_900_000, expected: 2490 }]);
  });

  it('keeps an advertiser to its own ads: another advertiser gets NOT_FOUND and an empty list', async () => {
    const w = await world();
    const alice = await w.advertiser();
    const bob = await w.advertiser();
    const m = await ownMaterial(t, { entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: alice.user.id });
    const made = await alice.client.call(endpoints.adCreate, adBody([m], NOW, { name: 'Alice ad' }) as never);
    const adId = made.envelope.payload.id as string;
    expect((await alice.client.call(endpoints.reportAdDetail, { id: adId })).envelope.code).toBe(0);
    expect((await bob.client.call(endpoints.reportAdDetail, { id: adId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await bob.client.call(endpoints.reportAdDevices, { id: adId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await bob.client.call(endpoints.reportAdDetailExportStart, { id: adId })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect((await bob.client.call(endpoints.reportAdList, {})).envelope.payload).toMatchObject({ total: 0, data: [] });
    // An advertiser has no device schedule report.
    expect((await bob.client.call(endpoints.reportDeviceSchedule, {})).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    // Another enterprise's administrator neither sees it.
    const other = await t.tenant();
    expect((await other.client.call(endpoints.reportAdDetail, { id: adId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('refuses a bad date range with a validation error', async () => {
    const w = await world();
    const tooLong = await w.client.call(endpoints.reportAdList, { from: '2025-01-01', to: '2026-06-01' });
    expect(tooLong.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const backwards = await w.client.call(endpoints.reportDeviceSchedule, { from: '2026-06-09', to: '2026-06-01' });
    expect(backwards.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const notADay = await w.client.call(endpoints.reportAdDetail, { id: 'x', from: '2026-13-01' } as never);
    expect(notADay.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect((await w.client.call(endpoints.reportAdList, { from: '2025-06-10', to: '2026-06-10' })).envelope.code).toBe(
      0,
    );
  });
});
