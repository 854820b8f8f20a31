import { deviceHttpCalls, ErrorCode, endpoints } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentPushes, deviceCommands } from '../src/db/schema/index.js';
import { adContent } from '../src/modules/ads/schedule.js';
import { buildManifest } from '../src/modules/content/sources.js';
import { adBody, adWorld } from './fixtures/ads.js';
import { BACKENDS, createTestApp, createUser, type TestApp } from './helpers/index.js';

/**
 * Issued records (issue 13): each manifest push is recorded with its per-device commands;
 * acks and failures show per device; broadcast, repush, the playlist sort and its push; the
 * plan over time; and only the devices in the caller's scope count.
 */
describe.each(BACKENDS)('pushes and issued records on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function setup() {
    const { ent, admin, client, material, device } = await adWorld(t);
    const targets = (deviceIds: string[]) => ({ deviceIds, groupIds: [], tagIds: [], deptIds: [], spliceIds: [] });
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
    /** The device's command of a push, acknowledged or failed as the gateway writes an ack. */
    const ack = async (pushId: string, deviceId: string, result: 'ok' | 'error') => {
      await t.db
        .update(deviceCommands)
        .set(
          result === 'ok'
            ? { state: 'acknowledged', ackedAt: new Date(t.clock.now()) }
            : { state: 'failed', ackedAt: new Date(t.clock.now()), errorCode: 'E_IO', errorMessage: 'disk full' },
        )
        .where(and(eq(deviceCommands.pushId, pushId), eq(deviceCommands.deviceId, deviceId)));
    };
    return { ent, admin, client, material, device, targets, createAd, ack };
  }

  it('an approval is one push with a command per device; acks and failures show per device; repush goes to the failed', async () => {
    const s = await setup();
    const one = await s.device({ name: 'One', number: `N${Date.now()}a` });
    const two = await s.device({ name: 'Two', number: `N${Date.now()}b` });
    const m = await s.material('a');
    const id = await s.createAd([m], { targets: s.targets([one, two]) });
    expect((await s.client.call(endpoints.adAuditPass, { id })).envelope.code).toBe(0);

    const list = await s.client.call(endpoints.pushList, { page: 1, size: 20 });
    expect(list.envelope.code).toBe(0);
    expect(list.envelope.payload.total).toBe(1);
    const [push] = list.envelope.payload.data;
    expect(push).toMatchObject({ reason: 'adApproved', adId: id, devices: 2, acknowledged: 0, failed: 0, pending: 2 });
    expect(push.adNumber).toMatch(/^\d{9}$/);
    const commands = await t.db.select().from(deviceCommands).where(eq(deviceCommands.pushId, push.id));
    expect(commands.map((c) => c.kind)).toEqual(['syncContent', 'syncContent']);

    await s.ack(push.id, one, 'ok');
    await s.ack(push.id, two, 'error');
    const after = await s.client.call(endpoints.pushList, { page: 1, size: 20, reason: 'adApproved' });
    expect(after.envelope.payload.data[0]).toMatchObject({ devices: 2, acknowledged: 1, failed: 1, pending: 0 });
    const perDevice = await s.client.call(endpoints.pushDevices, { id: push.id, page: 1, size: 20 });
    expect(perDevice.envelope.payload.data).toEqual([
      expect.objectContaining({ deviceId: one, name: 'One', state: 'acknowledged', ackedAt: expect.any(String) }),
      expect.objectContaining({ deviceId: two, name: 'Two', state: 'failed', errorCode: 'E_IO' }),
    ]);
    const failedOnly = await s.client.call(endpoints.pushDevices, { id: push.id, page: 1, size: 20, state: 'failed' });
    expect(failedOnly.envelope.payload.data.map((d) => d.deviceId)).toEqual([two]);

    // Repush: only the device whose last push of the ad failed.
    t.clock.advance(1000);
    const repush = await s.client.call(endpoints.adRepush, { id });
    expect(repush.envelope.code).toBe(0);
    expect(repush.envelope.payload.devices).toBe(1);
    const repushed = await t.db
      .select({ deviceId: deviceCommands.deviceId })
      .from(deviceCommands)
      .where(eq(deviceCommands.pushId, repush.envelope.payload.pushId ?? ''));
    expect(repushed).toEqual([{ deviceId: two }]);
    // Its last push pending now: nothing more to repush.
    expect((await s.client.call(endpoints.adRepush, { id })).envelope.payload).toEqual({ pushId: null, devices: 0 });
    // Named devices: any the ad reaches; another is NOT_FOUND.
    const other = await s.device();
    t.clock.advance(1000);
    expect((await s.client.call(endpoints.adRepush, { id, deviceIds: [one] })).envelope.payload.devices).toBe(1);
    expect((await s.client.call(endpoints.adRepush, { id, deviceIds: [other] })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );

    // Broadcast: all the ad's devices.
    t.clock.advance(1000);
    const broadcast = await s.client.call(endpoints.adBroadcast, { id });
    expect(broadcast.envelope.payload.devices).toBe(2);
    const reasons = (
      await s.client.call(endpoints.pushList, { page: 1, size: 20, adId: id })
    ).envelope.payload.data.map((p) => p.reason);
    expect(reasons).toEqual(['broadcast', 'repush', 'repush', 'adApproved']);

    // A paused ad is not scheduled: nothing to broadcast.
    t.clock.advance(1000);
    expect((await s.client.call(endpoints.adDisable, { id })).envelope.code).toBe(0);
    expect((await s.client.call(endpoints.adBroadcast, { id })).envelope.code).toBe(ErrorCode.AD_NOT_SCHEDULED);
    const paused = await s.client.call(endpoints.pushList, { page: 1, size: 10 });
    expect(paused.envelope.payload.data[0]).toMatchObject({ reason: 'adPaused', devices: 2 });
  });

  it('counts only the devices in the caller’s scope, and hides pushes with none of them', async () => {
    const s = await setup();
    const inA = await s.device({ deptId: s.ent.depts.a });
    const inB = await s.device({ deptId: s.ent.depts.b });
    const m = await s.material('b');
    const id = await s.createAd([m], { targets: s.targets([inA, inB]) });
    await s.client.call(endpoints.adAuditPass, { id });
    const onlyB = await s.device({ deptId: s.ent.depts.b });
    const idB = await s.createAd([await s.material('c')], { targets: s.targets([onlyB]) });
    await s.client.call(endpoints.adAuditPass, { id: idB });

    const user = await createUser(t.db, s.ent, { deptIds: [s.ent.depts.a], dataScope: 'dept_and_below' });
    const client = await t.loginAs(user);
    const list = await client.call(endpoints.pushList, { page: 1, size: 20 });
    expect(list.envelope.payload.total).toBe(1);
    expect(list.envelope.payload.data[0]).toMatchObject({ adId: id, devices: 1 });
    const devicesSeen = await client.call(endpoints.pushDevices, {
      id: list.envelope.payload.data[0].id,
      page: 1,
      size: 20,
    });
    expect(devicesSeen.envelope.payload.data.map((d) => d.deviceId)).toEqual([inA]);
    const [hidden] = await t.db.select().from(contentPushes).where(eq(contentPushes.adId, idB));
    expect((await client.call(endpoints.pushDevices, { id: hidden.id, page: 1, size: 20 })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );

    // Another enterprise sees none of it.
    const stranger = await t.tenant();
    expect((await stranger.client.call(endpoints.pushList, { page: 1, size: 20 })).envelope.payload.total).toBe(0);
  });

  it('the playlist shows the device’s ads in playing order; a sort reorders the loop and pushes the manifest', async () => {
    const s = await setup();
    const screen = await s.device();
    const ids: string[] = [];
    for (const n of ['d', 'e', 'f']) {
      t.clock.advance(1000);
      const id = await s.createAd([await s.material(n)], { targets: s.targets([screen]), name: `Ad ${n}` });
      await s.client.call(endpoints.adAuditPass, { id });
      ids.push(id);
    }
    const playlist = await s.client.call(endpoints.devicePlaylist, { deviceId: screen });
    expect(playlist.envelope.code).toBe(0);
    expect(playlist.envelope.payload.entries.map((e) => e.adId)).toEqual(ids);
    expect(playlist.envelope.payload.entries[0]).toMatchObject({
      adName: 'Ad d',
      type: 'common',
      role: 'loop',
      download: 'not_downloaded',
    });
    expect(playlist.envelope.payload.canSort).toBe(true);

    t.clock.advance(1000);
    const sorted = await s.client.call(endpoints.devicePlaylistSort, { deviceId: screen, adIds: [ids[2], ids[0]] });
    expect(sorted.envelope.code).toBe(0);
    expect(sorted.envelope.payload.pushId).toEqual(expect.any(String));
    const again = await s.client.call(endpoints.devicePlaylist, { deviceId: screen });
    expect(again.envelope.payload.entries.map((e) => e.adId)).toEqual([ids[2], ids[0], ids[1]]);
    expect(again.envelope.payload.order).toEqual([ids[2], ids[0]]);
    // The manifest plays the same order.
    const { items } = await adContent(t.db, { id: screen, entId: s.ent.id }, t.clock.now());
    expect(items.map((i) => i.adId)).toEqual([ids[2], ids[0], ids[1]]);
    const [push] = (await s.client.call(endpoints.pushList, { page: 1, size: 10 })).envelope.payload.data;
    expect(push).toMatchObject({ reason: 'playlistSort', devices: 1 });

    // An empty order drops the sort.
    await s.client.call(endpoints.devicePlaylistSort, { deviceId: screen, adIds: [] });
    const reset = await s.client.call(endpoints.devicePlaylist, { deviceId: screen });
    expect(reset.envelope.payload.entries.map((e) => e.adId)).toEqual(ids);
    expect(reset.envelope.payload.order).toEqual([]);

    // The plan: each ad all day, every day of the default week.
    const plan = await s.client.call(endpoints.devicePlan, { deviceId: screen });
    expect(plan.envelope.code).toBe(0);
    const days = new Set(plan.envelope.payload.bars.map((b) => b.day));
    expect(days.size).toBe(7);
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(plan.envelope.payload.bars.filter((b) => b.day === today)).toHaveLength(3);
    expect(
      (await s.client.call(endpoints.devicePlan, { deviceId: screen, from: '2026-02-01', to: '2026-01-01' })).envelope
        .code,
    ).not.toBe(0);

    // Another enterprise: no such device.
    const stranger = await t.tenant();
    expect((await stranger.client.call(endpoints.devicePlaylist, { deviceId: screen })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect(
      (await stranger.client.call(endpoints.devicePlaylistSort, { deviceId: screen, adIds: [] })).envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
  });

  it('a wall’s tiles carry the wall block; creating, editing and deleting the wall pushes to old and new tiles', async () => {
    const s = await setup();
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((n) => s.device({ name: `Tile ${n}` })));
    const idle = await s.device({ name: 'Idle', activatedAt: null });
    const manifest = (id: string) => buildManifest(t.db, { id, entId: s.ent.id, layoutId: null }, t.clock.now());
    const before = await manifest(a);
    expect(before.wall).toBeUndefined();
    const pushesOf = async () =>
      (await s.client.call(endpoints.pushList, { page: 1, size: 20, reason: 'splice' })).envelope.payload.data;
    const devicesOf = async (pushId: string) =>
      (
        await t.db
          .select({ deviceId: deviceCommands.deviceId })
          .from(deviceCommands)
          .where(eq(deviceCommands.pushId, pushId))
      )
        .map((r) => r.deviceId)
        .sort();

    const created = await s.client.call(endpoints.spliceCreate, {
      name: 'Wall',
      rows: 1,
      cols: 2,
      tiles: [
        { row: 0, col: 0, deviceId: a },
        { row: 0, col: 1, deviceId: b },
      ],
    });
    expect(created.envelope.code).toBe(0);
    const wallId = created.envelope.payload.id;
    const first = await manifest(b);
    expect(first.wall).toEqual({
      id: wallId,
      rows: 1,
      cols: 2,
      row: 0,
      col: 1,
      scaling: false,
      rotation: 0,
      anchor: t.clock.now(),
    });
    expect((await manifest(a)).version).not.toBe(before.version);
    let pushes = await pushesOf();
    expect(pushes).toHaveLength(1);
    expect(pushes[0]).toMatchObject({ reason: 'splice', adId: null, devices: 2 });

    // B leaves, C (and a device never activated) join: the push reaches A, B and C.
    t.clock.advance(1000);
    const edited = await s.client.call(endpoints.spliceUpdate, {
      id: wallId,
      name: 'Wall',
      rows: 2,
      cols: 2,
      scaling: true,
      rotation: 90,
      tiles: [
        { row: 0, col: 0, deviceId: a },
        { row: 1, col: 1, deviceId: c },
        { row: 1, col: 0, deviceId: idle },
      ],
    });
    expect(edited.envelope.code).toBe(0);
    expect((await manifest(b)).wall).toBeUndefined();
    expect((await manifest(c)).wall).toMatchObject({ rows: 2, cols: 2, row: 1, col: 1, scaling: true, rotation: 90 });
    expect((await manifest(a)).version).not.toBe(first.version);
    pushes = await pushesOf();
    expect(pushes).toHaveLength(2);
    expect(await devicesOf(pushes[0].id)).toEqual([a, b, c].sort());

    // Deleted: its tiles play on their own again.
    t.clock.advance(1000);
    expect((await s.client.call(endpoints.spliceDelete, { id: wallId })).envelope.code).toBe(0);
    expect((await manifest(a)).wall).toBeUndefined();
    expect((await manifest(a)).version).toBe(before.version);
    pushes = await pushesOf();
    expect(pushes).toHaveLength(3);
    expect(await devicesOf(pushes[0].id)).toEqual([a, c].sort());
  });

  it('GET /dapi/v1/time answers the server’s clock without credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: deviceHttpCalls.time.path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ code: 0, payload: { now: t.clock.now() } });
  });
});
