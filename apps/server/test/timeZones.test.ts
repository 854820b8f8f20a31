import { randomUUID } from 'node:crypto';
import { ErrorCode, endpoints, nextDay, type PlayEvent } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, enterprises } from '../src/db/schema/index.js';
import { ingestPlays } from '../src/modules/content/plays.js';
import { rezoneRollups, runPlayRollups } from '../src/modules/content/rollups.js';
import { buildManifest } from '../src/modules/content/sources.js';
import { insertEnterprise } from '../src/modules/enterprise/repository.js';
import { ExpectedModel } from '../src/modules/reports/expected.js';
import { itemsToPlay } from '../src/player/content.js';
import { adBody, adWorld } from './fixtures/ads.js';
import { insertAuction, insertRtbSlot } from './fixtures/rtb.js';
import { BACKENDS, createTestApp, type TestApp } from './helpers/index.js';

/**
 * Time zones (issue 31): an enterprise's zone, a device's override, and the same 07:00-09:00 ad
 * played at each screen's own 07:00 — by the manifest the server builds, the headless player's
 * pick, the device plan and the reports' expected plays.
 */
describe.each(BACKENDS)('time zones on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  /** An enterprise in Shanghai (a test enterprise is in UTC unless told), its rollups keyed there. */
  async function inShanghai(entId: string) {
    await t.db
      .update(enterprises)
      .set({ timeZone: 'Asia/Shanghai', rollupZone: 'Asia/Shanghai' })
      .where(eq(enterprises.id, entId));
  }

  async function world() {
    const w = await adWorld(t);
    await inShanghai(w.ent.id);
    const shanghai = await w.device();
    const tokyo = await w.device();
    expect(
      (await w.client.call(endpoints.deviceUpdate, { id: tokyo, name: 'Tokyo screen', timeZone: 'Asia/Tokyo' }))
        .envelope.code,
    ).toBe(0);
    const m = await w.material('tz');
    const created = await w.client.call(
      endpoints.adCreate,
      adBody([m], t.clock.now(), {
        periods: [{ start: '07:00', end: '09:00' }],
        strategy: 'perLoop',
        playsMin: 1,
        playsMax: 1,
        targets: { deviceIds: [shanghai, tokyo], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
      }) as never,
    );
    const adId = created.envelope.payload.id as string;
    expect((await w.client.call(endpoints.adAuditPass, { id: adId })).envelope.code).toBe(0);
    const manifest = (id: string) => buildManifest(t.db, { id, entId: w.ent.id, layoutId: null }, t.clock.now());
    // The UTC date after the test clock's: the ad runs from a day before to ten days after it.
    const tomorrow = new Date(t.clock.now() + 86_400_000).toISOString().slice(0, 10);
    return { ...w, shanghai, tokyo, adId, manifest, tomorrow };
  }

  it('new enterprises get the default zone, their rollups keyed in it; the list offers every IANA zone with its offset', async () => {
    const w = await world();
    const answer = await w.client.call(endpoints.timeZoneList, {});
    expect(answer.envelope.payload.enterprise).toBe('Asia/Shanghai');
    expect(answer.envelope.payload.default).toBe('Asia/Shanghai');
    expect(answer.envelope.payload.zones).toContainEqual({ name: 'Asia/Tokyo', offsetMinutes: 540 });
    const detail = await w.client.call(endpoints.enterpriseDetail, {});
    expect(detail.envelope.payload.timeZone).toBe('Asia/Shanghai');
    const { id } = await insertEnterprise(t.db, { kind: 'enterprise', name: `Zone ${randomUUID()}` });
    const [row] = await t.db.select().from(enterprises).where(eq(enterprises.id, id));
    expect([row.timeZone, row.rollupZone, row.rollupZoneSince]).toEqual(['Asia/Shanghai', 'Asia/Shanghai', null]);
  });

  it('refuses a zone that is not an IANA name, and changes nothing', async () => {
    const w = await adWorld(t);
    const device = await w.device();
    const bad = await w.client.call(endpoints.deviceUpdate, { id: device, name: 'x', timeZone: 'Mars/Olympus' });
    expect(bad.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const detail = await w.client.call(endpoints.deviceDetail, { id: device });
    expect(detail.envelope.payload.timeZone).toBeNull();
  });

  it('each screen plays the same 07:00-09:00 ad at its own 07:00', async () => {
    const w = await world();
    const sh = await w.manifest(w.shanghai);
    const tk = await w.manifest(w.tokyo);
    expect(sh.timeZone).toBe('Asia/Shanghai');
    expect(tk.timeZone).toBe('Asia/Tokyo');
    const plays = (m: typeof sh, iso: string) =>
      itemsToPlay(m, new Date(iso), new Map()).some((i) => i.adId === w.adId);
    // 22:30 UTC: 06:30 in Shanghai, 07:30 in Tokyo.
    expect(plays(sh, `${w.tomorrow}T22:30:00Z`)).toBe(false);
    expect(plays(tk, `${w.tomorrow}T22:30:00Z`)).toBe(true);
    // 23:30 UTC: 07:30 and 08:30: both.
    expect(plays(sh, `${w.tomorrow}T23:30:00Z`)).toBe(true);
    expect(plays(tk, `${w.tomorrow}T23:30:00Z`)).toBe(true);
    // 00:30 UTC the next day: 08:30 in Shanghai, 09:30 in Tokyo.
    const after = new Date(Date.parse(`${w.tomorrow}T00:30:00Z`) + 86_400_000).toISOString();
    expect(plays(sh, after)).toBe(true);
    expect(plays(tk, after)).toBe(false);
  });

  it('a device following its enterprise gets a new manifest when the enterprise changes zone', async () => {
    const w = await world();
    const before = await w.manifest(w.shanghai);
    const [ent] = await t.db.select().from(enterprises).where(eq(enterprises.id, w.ent.id));
    const update = await w.client.call(endpoints.enterpriseUpdate, {
      id: ent.id,
      name: ent.name,
      socialCreditCode: `91310000TZ${ent.id
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(-8)
        .padStart(8, '0')}`,
      contact: ent.contact || 'Zhang San',
      phone: ent.phone || '13800000000',
      accountType: ent.accountType,
      timeZone: 'Europe/Berlin',
    });
    expect(update.envelope.code).toBe(0);
    const after = await w.manifest(w.shanghai);
    expect(after.timeZone).toBe('Europe/Berlin');
    expect(after.version).not.toBe(before.version);
    // The overriding device keeps its own.
    expect((await w.manifest(w.tokyo)).timeZone).toBe('Asia/Tokyo');
    // Clearing the override makes it follow the enterprise.
    await w.client.call(endpoints.deviceUpdate, { id: w.tokyo, name: 'Tokyo screen', timeZone: null });
    expect((await w.manifest(w.tokyo)).timeZone).toBe('Europe/Berlin');
  });

  it('the device plan shows the ad at 07:00-09:00 of each device’s own days', async () => {
    const w = await world();
    for (const id of [w.shanghai, w.tokyo]) {
      const plan = await w.client.call(endpoints.devicePlan, { deviceId: id, from: w.tomorrow, to: w.tomorrow });
      expect(plan.envelope.code).toBe(0);
      expect(plan.envelope.payload.timeZone).toBe(id === w.tokyo ? 'Asia/Tokyo' : 'Asia/Shanghai');
      expect(plan.envelope.payload.bars.filter((b) => b.id === w.adId)).toEqual([
        expect.objectContaining({ day: w.tomorrow, start: '07:00', end: '09:00' }),
      ]);
    }
  });

  it('the expected plays of a UTC day count each zone’s 07:00-09:00 where it falls', async () => {
    const w = await world();
    const day = w.tomorrow;
    const model = await expectedOn(w, day);
    const sh = model.onDeviceDay(w.shanghai, day).get(w.adId) ?? 0;
    const tk = model.onDeviceDay(w.tokyo, day).get(w.adId) ?? 0;
    // Both zones' two hours lie in the UTC day (Tokyo 22:00-24:00; Shanghai 00:00-01:00 and
    // 23:00-24:00), so both expect the same count, and more than nothing.
    expect(sh).toBeGreaterThan(0);
    expect(tk).toBe(sh);
    // Devices in different zones are not one set of figures.
    expect(model.adIds()).toEqual([w.adId]);
  });
  /** The expected-plays model of `day`, the world's ad downloaded the day before, read three days later. */
  async function expectedOn(w: Awaited<ReturnType<typeof world>>, day: string) {
    await t.db
      .update(ads)
      .set({ downloadedAt: new Date(t.clock.now() - 86_400_000) })
      .where(eq(ads.id, w.adId));
    return ExpectedModel.load(t.db, w.ent.id, day, day, new Date(Date.parse(`${day}T00:00:00Z`) + 3 * 86_400_000));
  }

  /** Two plays of the Shanghai screen at 07:30 and 08:30 Shanghai time on `day` (23:30 and 00:30 UTC). */
  async function twoMorningPlays(w: Awaited<ReturnType<typeof world>>, day: string) {
    const play = (iso: string): PlayEvent => ({
      id: randomUUID(),
      materialId: 'm-tz',
      layoutId: null,
      componentId: null,
      adId: w.adId,
      start: Date.parse(iso),
      durationMs: 10_000,
      outcome: 'completed',
    });
    const plays = [play(`${nextDay(day, -1)}T23:30:00Z`), play(`${day}T00:30:00Z`)];
    await ingestPlays(t.db, { id: w.shanghai, entId: w.ent.id }, plays, Date.parse(`${day}T01:00:00Z`));
    await runPlayRollups(t.db);
  }

  it('the ad report’s days for a Shanghai reader start at its midnight, and its hours are its own', async () => {
    const w = await world();
    const day = nextDay(w.tomorrow);
    await twoMorningPlays(w, day);
    const range = { id: w.adId, from: nextDay(day, -1), to: day };
    const detail = await w.client.call(endpoints.reportAdDetail, range);
    expect(detail.envelope.code).toBe(0);
    const p = detail.envelope.payload;
    expect([p.timeZone, p.zoneSince]).toEqual(['Asia/Shanghai', null]);
    // Both plays are on the Shanghai day, though they straddle the UTC midnight.
    expect(p.days.map((d) => [d.day, d.plays])).toEqual([
      [nextDay(day, -1), 0],
      [day, 2],
    ]);
    expect(p.hours.filter((h) => h.plays > 0)).toEqual([
      { hour: 7, plays: 1 },
      { hour: 8, plays: 1 },
    ]);
    // The schedule's expected plays are counted over the same Shanghai day: its 07:00-09:00
    // whole, the two hours of 120 loops of 60 s at most (one 10 s item a loop here: 720).
    const model = await expectedOn(w, day);
    expect(model.dayZone).toBe('Asia/Shanghai');
    expect(model.onDeviceDay(w.shanghai, day).get(w.adId)).toBe(720);
    const list = await w.client.call(endpoints.reportAdList, { from: range.from, to: range.to });
    expect(list.envelope.payload.trend.map((d) => d.plays)).toEqual([0, 2]);
  });

  it('a change of the enterprise’s zone rebuilds its report days from the retained plays', async () => {
    const w = await world();
    const day = nextDay(w.tomorrow, 3);
    await twoMorningPlays(w, day);
    const daysOf = async () => {
      const answer = await w.client.call(endpoints.reportAdDetail, { id: w.adId, from: nextDay(day, -1), to: day });
      const p = answer.envelope.payload;
      return {
        zone: p.timeZone,
        days: p.days.map((d) => d.plays),
        hours: p.hours.filter((h) => h.plays > 0).map((h) => h.hour),
      };
    };
    expect(await daysOf()).toEqual({ zone: 'Asia/Shanghai', days: [0, 2], hours: [7, 8] });
    // In UTC the two plays fall on two days, at 23:00 and 00:00.
    await t.db.update(enterprises).set({ timeZone: 'UTC' }).where(eq(enterprises.id, w.ent.id));
    // Until the job rebuilds them the report keeps the zone its rollups are in.
    expect((await daysOf()).zone).toBe('Asia/Shanghai');
    let rebuilt = await rezoneRollups(t.db);
    while (rebuilt && rebuilt.entId !== w.ent.id) rebuilt = await rezoneRollups(t.db);
    expect(rebuilt).toEqual({ entId: w.ent.id, pairs: 2 });
    expect(await daysOf()).toEqual({ zone: 'UTC', days: [1, 1], hours: [0, 23] });
    // Nothing waits any more, and back in Shanghai the days are as before.
    await t.db.update(enterprises).set({ timeZone: 'Asia/Shanghai' }).where(eq(enterprises.id, w.ent.id));
    rebuilt = await rezoneRollups(t.db);
    while (rebuilt && rebuilt.entId !== w.ent.id) rebuilt = await rezoneRollups(t.db);
    expect(await daysOf()).toEqual({ zone: 'Asia/Shanghai', days: [0, 2], hours: [7, 8] });
  });
  it('the RTB fill report’s hours of day are the enterprise’s', async () => {
    const w = await world();
    const slotId = await insertRtbSlot(t.db, { entId: w.ent.id, deviceIds: [w.shanghai], name: 'Zone slot' });
    // 23:30 UTC is 07:30 in Shanghai.
    await insertAuction(t.db, {
      entId: w.ent.id,
      slotId,
      deviceId: w.shanghai,
      at: Date.parse(`${w.tomorrow}T23:30:00Z`),
    });
    const report = await w.client.call(endpoints.rtbFillReport, { by: 'hour' });
    expect(report.envelope.code).toBe(0);
    expect(report.envelope.payload.timeZone).toBe('Asia/Shanghai');
    expect(report.envelope.payload.rows.map((r) => [r.key, r.name, r.auctions])).toEqual([['7', '07:00', 1]]);
  });
});
