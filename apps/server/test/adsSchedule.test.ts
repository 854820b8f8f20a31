import { endpoints } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, deviceGroups, deviceTags, tagCategories, tags } from '../src/db/schema/index.js';
import { markAdsDownloaded } from '../src/modules/ads/downloads.js';
import { adContent } from '../src/modules/ads/schedule.js';
import { buildManifest } from '../src/modules/content/sources.js';
import { adBody, adWorld } from './fixtures/ads.js';
import { BACKENDS, createTestApp, type TestApp } from './helpers/index.js';

/**
 * Ads on screens: the 'ad' content source (which ads reach a device through its targets, in
 * playlist order, with their files) and the push of a new manifest when an ad changes.
 */
describe.each(BACKENDS)('ads scheduled to screens on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function setup() {
    const { ent, admin, client, own, material, device } = await adWorld(t);
    const targets = (extra: Record<string, string[]> = {}) => ({
      deviceIds: [],
      groupIds: [],
      tagIds: [],
      deptIds: [],
      spliceIds: [],
      ...extra,
    });
    const createAd = async (materialIds: string[], extra: Record<string, unknown>) => {
      const res = await client.call(
        endpoints.adCreate,
        adBody(materialIds, t.clock.now(), {
          periods: [],
          strategy: 'perLoop',
          playsMin: 1,
          playsMax: 1,
          ...extra,
        }) as never,
      );
      expect(res.envelope.code).toBe(0);
      return res.envelope.payload.id as string;
    };
    const syncs = async (deviceId: string) =>
      (
        await t.db
          .select()
          .from(deviceCommands)
          .where(and(eq(deviceCommands.deviceId, deviceId), eq(deviceCommands.kind, 'syncContent')))
      ).length;
    const content = (deviceId: string) => adContent(t.db, { id: deviceId, entId: ent.id }, t.clock.now());
    return { ent, admin, client, own, material, device, targets, createAd, syncs, content };
  }

  it('an approved ad reaches its devices directly, by group, tag and department, and nowhere else', async () => {
    const s = await setup();
    const [group] = await t.db
      .insert(deviceGroups)
      .values({ entId: s.ent.id, deptId: s.ent.depts.root, name: 'Lobby' })
      .returning({ id: deviceGroups.id });
    const [category] = await t.db
      .insert(tagCategories)
      .values({ entId: s.ent.id, name: 'Kind' })
      .returning({ id: tagCategories.id });
    const [tag] = await t.db
      .insert(tags)
      .values({ entId: s.ent.id, categoryId: category.id, name: 'Street' })
      .returning({ id: tags.id });
    const direct = await s.device();
    const grouped = await s.device({ groupId: group.id });
    const tagged = await s.device();
    await t.db.insert(deviceTags).values({ deviceId: tagged, tagId: tag.id, entId: s.ent.id });
    const below = await s.device({ deptId: s.ent.depts.a1 });
    const elsewhere = await s.device({ deptId: s.ent.depts.b });
    const idle = await s.device({ activatedAt: null, deptId: s.ent.depts.a });

    const m = await s.material('a');
    const id = await s.createAd([m], {
      targets: s.targets({ deviceIds: [direct], groupIds: [group.id], tagIds: [tag.id], deptIds: [s.ent.depts.a] }),
    });
    // Not approved yet: on no screen, nobody told.
    expect((await s.content(direct)).items).toEqual([]);
    expect(await s.syncs(direct)).toBe(0);

    expect((await s.client.call(endpoints.adAuditPass, { id })).envelope.code).toBe(0);
    for (const deviceId of [direct, grouped, tagged, below, idle]) {
      const { items, files } = await s.content(deviceId);
      expect(items).toEqual([
        expect.objectContaining({ id: `ad:${id}`, source: 'ad', adId: id, materialIds: [m], role: 'loop' }),
      ]);
      expect(files).toEqual([expect.objectContaining({ materialId: m, sha256: 'a'.repeat(64), size: 10 })]);
    }
    expect((await s.content(elsewhere)).items).toEqual([]);
    // Each activated device reached is told to sync at once; the others are not.
    for (const deviceId of [direct, grouped, tagged, below]) expect(await s.syncs(deviceId)).toBe(1);
    expect(await s.syncs(elsewhere)).toBe(0);
    expect(await s.syncs(idle)).toBe(0);

    // The manifest carries it after the device's own content.
    const manifest = await buildManifest(t.db, { id: direct, entId: s.ent.id, layoutId: null }, t.clock.now());
    expect(manifest.items.map((i) => i.id)).toEqual([`ad:${id}`]);
  });

  it('pause, enable, edit and delete push the new manifest; the playlist follows', async () => {
    const s = await setup();
    const screen = await s.device();
    const m = await s.material('b');
    const id = await s.createAd([m], { targets: s.targets({ deviceIds: [screen] }) });
    await s.client.call(endpoints.adAuditPass, { id });
    expect(await s.syncs(screen)).toBe(1);
    const version = async () =>
      (await buildManifest(t.db, { id: screen, entId: s.ent.id, layoutId: null }, t.clock.now())).version;
    const on = await version();

    expect((await s.client.call(endpoints.adDisable, { id })).envelope.code).toBe(0);
    expect(await s.syncs(screen)).toBe(2);
    expect((await s.content(screen)).items).toEqual([]);
    expect(await version()).not.toBe(on);
    // Pausing a paused ad changes nothing: no push.
    await s.client.call(endpoints.adDisable, { id });
    expect(await s.syncs(screen)).toBe(2);

    await s.client.call(endpoints.adEnable, { id });
    expect(await s.syncs(screen)).toBe(3);
    expect(await version()).toBe(on);

    // An edit sends it back to review: it leaves the screen.
    const edit = await s.client.call(endpoints.adUpdate, {
      id,
      ...adBody([m], t.clock.now(), { targets: s.targets({ deviceIds: [screen] }), periods: [] }),
    } as never);
    expect(edit.envelope.code).toBe(0);
    expect(await s.syncs(screen)).toBe(4);
    expect((await s.content(screen)).items).toEqual([]);

    await s.client.call(endpoints.adAuditPass, { id });
    expect(await s.syncs(screen)).toBe(5);
    const [item] = (await s.content(screen)).items;
    expect(item).toMatchObject({ adId: id, maxPerDay: 20, schedule: { from: expect.any(Number) } });
    expect(item.schedule).not.toHaveProperty('periods');
    await s.client.call(endpoints.adDelete, { id });
    expect(await s.syncs(screen)).toBe(6);
    expect((await s.content(screen)).items).toEqual([]);
  });

  it('orders emergency, loop and fallback ads and carries their time periods', async () => {
    const s = await setup();
    const screen = await s.device();
    const targets = s.targets({ deviceIds: [screen] });
    const m = await s.material('c');
    const fallback = await s.createAd([m], { targets, type: 'fallback', name: 'Fallback' });
    const common = await s.createAd([m], {
      targets,
      name: 'Common',
      playsMin: 2,
      playsMax: 3,
      periods: [{ start: '08:00', end: '12:00' }],
    });
    const emergency = await s.createAd([m], { targets, type: 'emergency', name: 'Emergency' });
    for (const id of [fallback, common, emergency]) await s.client.call(endpoints.adAuditPass, { id });
    const { items } = await s.content(screen);
    expect(items.map((i) => [i.id, i.role])).toEqual([
      [`ad:${emergency}`, 'emergency'],
      [`ad:${common}`, 'loop'],
      [`ad:${common}#2`, 'loop'],
      [`ad:${fallback}`, 'fallback'],
    ]);
    expect(items[1].schedule).toMatchObject({ periods: [{ start: '08:00', end: '12:00' }] });
  });

  it('a device reporting an ad downloaded sets its download time once: the ad is playing', async () => {
    const s = await setup();
    const other = await setup();
    const screen = await s.device();
    const id = await s.createAd([await s.material('d')], { targets: s.targets({ deviceIds: [screen] }) });
    await s.client.call(endpoints.adAuditPass, { id });
    expect((await s.client.call(endpoints.adInfo, { id })).envelope.payload.status).toBe('pendingPlay');
    // Another enterprise's device cannot mark it.
    expect(await markAdsDownloaded(t.db, other.ent.id, [id], new Date(t.clock.now()))).toEqual({
      known: [],
      marked: [],
    });
    const first = new Date(t.clock.now());
    expect(await markAdsDownloaded(t.db, s.ent.id, [id, id, 'nope'], first)).toEqual({ known: [id], marked: [id] });
    expect(await markAdsDownloaded(t.db, s.ent.id, [id], new Date(t.clock.now() + 60_000))).toEqual({
      known: [id],
      marked: [],
    });
    const info = (await s.client.call(endpoints.adInfo, { id })).envelope.payload;
    expect(info.status).toBe('playing');
  });
});
