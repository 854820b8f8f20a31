import { randomUUID } from 'node:crypto';
import { ALL_PERMISSION_CODES, endpoints, Perm, RefType, STAT_KEYS, TREND_DAYS } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocations, devices, operationLogs } from '../src/db/schema/index.js';
import { ingestPlays } from '../src/modules/content/plays.js';
import { runPlayRollups } from '../src/modules/content/rollups.js';
import { statProviders } from '../src/modules/home/stats.js';
import { insertTemplate } from '../src/modules/templates/repository.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

type Stats = { figures: Record<string, number>; trends: Record<string, { date: string; value: number }[]> };

/** The home page's quick statistics (spec section 7; issue 8). */
describe.each(BACKENDS)('quick statistics on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const stats = async (client: Awaited<ReturnType<TestApp['loginAs']>>, utcOffset = 0) => {
    const res = await client.call(endpoints.homeStats, { utcOffset });
    expect(res.envelope.code).toBe(0);
    return res.envelope.payload as Stats;
  };

  it('has a provider registered for every figure of the protocol', () => {
    expect(
      statProviders()
        .map((p) => p.key)
        .sort(),
    ).toEqual([...STAT_KEYS].sort());
  });

  it("counts in the caller's enterprise and data scope, as its lists do", async () => {
    const { ent, admin, client } = await t.tenant();
    const inA1 = await createUser(t.db, ent, { deptIds: [ent.depts.a1] });
    const inB = await createUser(t.db, ent, { dataScope: 'dept_only', deptIds: [ent.depts.b] });
    await insertTemplate(t.db, { entId: ent.id, deptId: ent.depts.a1, ownerId: inA1.id, name: 'A1 screen' });
    const { id: shared } = await insertTemplate(t.db, {
      entId: ent.id,
      deptId: ent.depts.a1,
      ownerId: inA1.id,
      name: 'Shared with B',
    });
    await insertTemplate(t.db, { entId: ent.id, deptId: ent.depts.b, ownerId: inB.id, name: 'B screen' });
    await t.db.insert(allocations).values({
      entId: ent.id,
      refType: RefType.template,
      refId: shared,
      targetType: 1,
      targetId: ent.depts.b,
      deptDataType: 2,
    });
    // Another enterprise's data counts for nobody here.
    const other = await createEnterprise(t.db);
    const stranger = await createUser(t.db, other);
    await insertTemplate(t.db, { entId: other.id, deptId: other.depts.root, ownerId: stranger.id, name: 'Elsewhere' });

    const all = await stats(client);
    expect(all.figures).toMatchObject({ accounts: 3, departments: 4, templates: 3, sharedWithMe: 0 });
    const narrow = await stats(await t.loginAs(inB));
    // Department B only: its own account and B's template, plus the one shared with B.
    expect(narrow.figures).toMatchObject({ accounts: 1, departments: 1, templates: 2, sharedWithMe: 1 });
    expect(admin.id).toBeTruthy();
  });

  it('leaves out the figures whose permission the caller lacks', async () => {
    const { ent } = await t.tenant();
    const codes = ALL_PERMISSION_CODES.filter(
      (c) => c !== Perm.template && c !== Perm.reportOperationLog && c !== Perm.device && c !== Perm.reportDevice,
    );
    const limited = await createUser(t.db, ent, { permissions: codes });
    const s = await stats(await t.loginAs(limited));
    // Every count figure but those of the permissions taken away (the sales, warning and help figures stay).
    expect(Object.keys(s.figures).sort()).toEqual([
      'accounts',
      'departments',
      'goodsListed',
      'helpDocs',
      'slots',
      'warningsOpen',
    ]);
    expect(s.trends).toEqual({});
    const none = await createUser(t.db, ent, { permissions: [] });
    expect(await stats(await t.loginAs(none))).toEqual({ figures: {}, trends: {} });
  });

  it("counts the operations of the last days per day of the caller's clock, oldest first", async () => {
    const { ent, admin, client } = await t.tenant();
    const now = t.clock.now();
    const entry = (msAgo: number) => ({
      entId: ent.id,
      accountId: admin.id,
      deptId: ent.depts.root,
      module: 'test',
      action: 'probe',
      createdAt: new Date(now - msAgo),
    });
    const day = 86_400_000;
    await t.db.insert(operationLogs).values([entry(day), entry(day + 1000), entry(3 * day), entry(20 * day)]);
    const s = await stats(client);
    const trend = s.trends.operations;
    expect(trend).toHaveLength(TREND_DAYS);
    const dates = trend.map((p) => p.date);
    expect(dates).toEqual([...dates].sort());
    expect(dates.at(-1)).toBe(new Date(now).toISOString().slice(0, 10));
    const at = (msAgo: number) => trend.find((p) => p.date === new Date(now - msAgo).toISOString().slice(0, 10))?.value;
    // Today holds the login of `client` (written by the call); the probes fall on their days.
    expect(at(0)).toBeGreaterThanOrEqual(1);
    expect(at(day)).toBe(2);
    expect(at(3 * day)).toBe(1);
    // The entry of 20 days ago is outside the window.
    expect(trend.reduce((sum, p) => sum + p.value, 0)).toBe((at(0) ?? 0) + 3);
    // Fourteen hours east, today's date is the caller's.
    const east = await stats(client, 14 * 60);
    expect(east.trends.operations.at(-1)?.date).toBe(new Date(now + 14 * 3_600_000).toISOString().slice(0, 10));
  });

  it('counts the devices shown online and offline and the plays on the screens the caller sees', async () => {
    const { ent, admin, client } = await t.tenant();
    const inB = await createUser(t.db, ent, { dataScope: 'dept_only', deptIds: [ent.depts.b] });
    const now = t.clock.now();
    const minute = 60_000;
    const device = async (deptId: string, status: 'online' | 'offline', seenMsAgo: number) => {
      const [row] = await t.db
        .insert(devices)
        .values({
          entId: ent.id,
          deptId,
          ownerId: admin.id,
          name: 'Counted screen',
          status,
          statusAt: new Date(now - 60 * minute),
          lastSeenAt: new Date(now - seenMsAgo),
          heartbeatSec: 30,
        })
        .returning({ id: devices.id, entId: devices.entId });
      return row;
    };
    const liveA = await device(ent.depts.a1, 'online', 10_000);
    // Online as stored, but silent for 10 minutes: shown offline, as the device list shows it.
    await device(ent.depts.a1, 'online', 10 * minute);
    await device(ent.depts.a1, 'offline', 60 * minute);
    const liveB = await device(ent.depts.b, 'online', 10_000);

    const day = 86_400_000;
    const play = (start: number) => ({
      id: randomUUID(),
      adId: 'ad-home',
      materialId: 'm-home',
      start,
      durationMs: 10_000,
      outcome: 'completed' as const,
    });
    await ingestPlays(t.db, liveA, [play(now - minute), play(now - 2 * minute), play(now - day)], now);
    await ingestPlays(t.db, liveB, [play(now - 3 * minute)], now);
    await runPlayRollups(t.db);

    const all = await stats(client);
    expect(all.figures).toMatchObject({ devicesOnline: 2, devicesOffline: 2 });
    const plays = all.trends.plays;
    expect(plays).toHaveLength(TREND_DAYS);
    // UTC days, whatever the caller's clock: the rollups' days.
    const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(plays.at(-1)?.date).toBe(utcDay(now));
    const on = (ms: number, trend = plays) => trend.find((p) => p.date === utcDay(ms))?.value ?? 0;
    expect(on(now - day)).toBeGreaterThanOrEqual(1);
    expect(plays.reduce((sum, p) => sum + p.value, 0)).toBe(4);
    expect((await stats(client, 14 * 60)).trends.plays.at(-1)?.date).toBe(utcDay(now));

    // Department B only: its one device and its one play.
    const narrow = await stats(await t.loginAs(inB));
    expect(narrow.figures).toMatchObject({ devicesOnline: 1, devicesOffline: 0 });
    expect(narrow.trends.plays.reduce((sum, p) => sum + p.value, 0)).toBe(1);
  });

  it('answers INVALID_PARAMS for an offset no time zone has', async () => {
    const { client } = await t.tenant();
    expect((await client.call(endpoints.homeStats, { utcOffset: 900 })).envelope.code).toBe(-10005);
  });
});
