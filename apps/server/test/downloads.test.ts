import type { DownloadReport, Heartbeat } from '@marquee/protocol';
import { ErrorCode, endpoints } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceDownloads, deviceManifestDownloads, devices, materials } from '../src/db/schema/index.js';
import { recordDownloads } from '../src/modules/devices/downloads.js';
import type { HeadlessPlayer } from '../src/player/player.js';
import { activatePlayer } from './devices/helpers.js';
import { listeningApp } from './devices/suite.js';
import { adBody, adWorld } from './fixtures/ads.js';
import { BACKENDS, type TestApp } from './helpers/index.js';

/**
 * Per-device download state (docs/device-protocol.md 2.7.1): the heartbeat's download reports
 * stored per (device, material) only when changed, scoped by enterprise, removed with the
 * material; shown by the device's playlist and counted by the device report.
 */
describe.each(BACKENDS)('device download states on %s', (backend) => {
  let t: TestApp;
  let server: string;
  const players: HeadlessPlayer[] = [];
  beforeAll(async () => {
    ({ t, server } = await listeningApp(backend, {}));
  });
  afterAll(async () => {
    for (const p of players) await p.stop().catch(() => {});
    await t.close();
  });

  const report = (materialId: string, state: DownloadReport['state'], extra: Partial<DownloadReport> = {}) => ({
    materialId,
    state,
    bytes: state === 'successful' ? 10 : 0,
    size: 10,
    at: t.clock.now(),
    ...extra,
  });
  const rowsOf = (deviceId: string) =>
    t.db
      .select()
      .from(deviceDownloads)
      .where(eq(deviceDownloads.deviceId, deviceId))
      .orderBy(deviceDownloads.materialId);
  const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (ok(v) || Date.now() > end) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('stores what the heartbeats report, writes again only on a change, ignores other enterprises’ materials', async () => {
    const a = await adWorld(t);
    const b = await adWorld(t);
    const [m1, m2] = [await a.material('1'), await a.material('2')];
    const foreign = await b.material('3');
    let content: Heartbeat['content'] = {
      manifestVersion: null,
      pendingVersion: 'v1',
      downloads: [
        report(m1, 'downloading', { bytes: 4 }),
        report(m2, 'failed', { error: 'HTTP 404' }),
        report(foreign, 'successful'),
      ],
    };
    const player = await activatePlayer(server, a.client, { name: 'Downloader', content: () => content });
    players.push(player);
    const deviceId = player.credentials!.deviceId;

    const first = await until(
      () => rowsOf(deviceId),
      (rows) => rows.length >= 2,
    );
    const byMaterial = new Map(first.map((r) => [r.materialId, r]));
    expect(byMaterial.get(m1)).toMatchObject({ entId: a.ent.id, state: 'downloading', bytesDone: 4, bytesTotal: 10 });
    expect(byMaterial.get(m2)).toMatchObject({ state: 'failed', error: 'HTTP 404', manifestVersion: 'v1' });
    // Another enterprise's material is never written by this device.
    expect(byMaterial.has(foreign)).toBe(false);
    const [pending] = await t.db
      .select()
      .from(deviceManifestDownloads)
      .where(eq(deviceManifestDownloads.deviceId, deviceId));
    expect(pending).toMatchObject({ manifestVersion: 'v1', entId: a.ent.id, completedAt: null });

    // The same report heartbeat after heartbeat (1 s here) writes nothing: wait until the device's
    // row shows two more heartbeats written (their uptime moved on), then the downloads are unchanged.
    const stamp = first.map((r) => r.updatedAt.getTime());
    t.clock.advance(5000);
    const uptime = async () =>
      (await t.db.select({ u: devices.uptimeSec }).from(devices).where(eq(devices.id, deviceId)))[0]?.u ?? 0;
    const before = await uptime();
    await until(uptime, (u) => u >= before + 2);
    expect(await uptime()).toBeGreaterThanOrEqual(before + 2);
    expect((await rowsOf(deviceId)).map((r) => r.updatedAt.getTime())).toEqual(stamp);

    // Done: the manifest is in use, its download time recorded.
    t.clock.advance(60_000);
    content = {
      manifestVersion: 'v1',
      pendingVersion: null,
      downloads: [report(m1, 'successful'), report(m2, 'successful')],
    };
    const done = await until(
      () => rowsOf(deviceId),
      (rows) => rows.every((r) => r.state === 'successful'),
    );
    expect(done.map((r) => [r.state, r.bytesDone, r.error])).toEqual([
      ['successful', 10, null],
      ['successful', 10, null],
    ]);
    const [complete] = await until(
      () => t.db.select().from(deviceManifestDownloads).where(eq(deviceManifestDownloads.deviceId, deviceId)),
      (rows) => rows[0]?.completedAt !== null,
    );
    expect(complete.completedAt!.getTime() - complete.startedAt.getTime()).toBeGreaterThanOrEqual(60_000);

    // Removed with the material.
    await t.db.delete(materials).where(eq(materials.id, m2));
    expect((await rowsOf(deviceId)).map((r) => r.materialId)).toEqual([m1]);
  });

  it('an upsert is idempotent: the same report twice writes once', async () => {
    const a = await adWorld(t);
    const m = await a.material('4');
    const device = { id: await a.device(), entId: a.ent.id };
    const content = { pendingVersion: 'v9', downloads: [report(m, 'downloading', { bytes: 3 })] };
    const now = new Date(t.clock.now());
    expect(await recordDownloads(t.db, device, content, now)).toEqual({ written: 1 });
    expect(await recordDownloads(t.db, device, content, now)).toEqual({ written: 0 });
    // A time of change from the device's future is kept at the receipt.
    const ahead = { downloads: [report(m, 'downloading', { bytes: 5, at: t.clock.now() + 3_600_000 })] };
    expect(await recordDownloads(t.db, device, ahead, now)).toEqual({ written: 1 });
    const [row] = await rowsOf(device.id);
    expect(row.changedAt.getTime()).toBe(now.getTime());
  });

  it('the playlist shows each ad’s download on the device; the device report counts them; other tenants see neither', async () => {
    const a = await adWorld(t);
    const b = await adWorld(t);
    const screen = await a.device();
    const [m1, m2, m3] = [await a.material('5'), await a.material('6'), await a.material('7')];
    const targets = { deviceIds: [screen], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] };
    const adIds: string[] = [];
    for (const [name, ms] of [
      ['Both', [m1, m2]],
      ['Broken', [m3]],
    ] as const) {
      t.clock.advance(1000);
      const res = await a.client.call(
        endpoints.adCreate,
        adBody([...ms], t.clock.now(), {
          name,
          periods: [],
          strategy: 'perLoop',
          playsMin: 1,
          playsMax: 1,
          targets,
        }) as never,
      );
      expect(res.envelope.code).toBe(0);
      const id = res.envelope.payload.id as string;
      expect((await a.client.call(endpoints.adAuditPass, { id })).envelope.code).toBe(0);
      adIds.push(id);
    }
    const playlist = async () =>
      new Map(
        (await a.client.call(endpoints.devicePlaylist, { deviceId: screen })).envelope.payload.entries.map((e) => [
          e.adId,
          e,
        ]),
      );
    expect((await playlist()).get(adIds[0])).toMatchObject({ download: 'not_downloaded', downloadPercent: null });

    const device = { id: screen, entId: a.ent.id };
    const start = t.clock.now();
    await recordDownloads(
      t.db,
      device,
      {
        pendingVersion: 'v2',
        downloads: [
          report(m1, 'successful'),
          report(m2, 'downloading', { bytes: 5 }),
          report(m3, 'failed', { error: 'sha256 mismatch' }),
        ],
      },
      new Date(start),
    );
    let entries = await playlist();
    // 15 of 20 bytes.
    expect(entries.get(adIds[0])).toMatchObject({ download: 'downloading', downloadPercent: 75, downloadError: null });
    expect(entries.get(adIds[1])).toMatchObject({ download: 'failed', downloadError: 'sha256 mismatch' });

    t.clock.advance(90_000);
    await recordDownloads(
      t.db,
      device,
      { manifestVersion: 'v2', downloads: [report(m1, 'successful', { at: start }), report(m2, 'successful')] },
      new Date(t.clock.now()),
    );
    entries = await playlist();
    expect(entries.get(adIds[0])).toMatchObject({
      download: 'successful',
      downloadPercent: null,
      downloadedAt: new Date(t.clock.now()).toISOString(),
    });

    // The push's download time on the device: the first manifest it completed after the push.
    const [latest] = (await a.client.call(endpoints.pushList, { page: 1, size: 10 })).envelope.payload.data;
    const perDevice = await a.client.call(endpoints.pushDevices, { id: latest.id, page: 1, size: 20 });
    expect(perDevice.envelope.payload.data).toEqual([
      expect.objectContaining({ deviceId: screen, downloadedAt: new Date(t.clock.now()).toISOString() }),
    ]);

    const list = await a.client.call(endpoints.reportDeviceList, { page: 1, size: 20 });
    expect(list.envelope.code).toBe(0);
    expect(list.envelope.payload.data.find((r) => r.deviceId === screen)).toMatchObject({
      downloads: 2,
      downloadsFailed: 1,
      downloadSec: 90,
    });
    const detail = await a.client.call(endpoints.reportDeviceDetail, { id: screen });
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect(detail.envelope.payload.days.find((d) => d.day === today)).toMatchObject({
      downloads: 2,
      downloadsFailed: 1,
    });

    // Another enterprise reads none of it.
    expect((await b.client.call(endpoints.devicePlaylist, { deviceId: screen })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect((await b.client.call(endpoints.reportDeviceDetail, { id: screen })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const theirs = await b.client.call(endpoints.reportDeviceList, { page: 1, size: 20 });
    expect(theirs.envelope.payload.data.map((r) => r.deviceId)).not.toContain(screen);
    // And a device of theirs cannot write a state of this enterprise's material.
    const their = { id: await b.device(), entId: b.ent.id };
    expect(await recordDownloads(t.db, their, { downloads: [report(m1, 'failed')] }, new Date())).toEqual({
      written: 0,
    });
    expect(
      await t.db
        .select()
        .from(deviceDownloads)
        .where(and(eq(deviceDownloads.deviceId, their.id))),
    ).toEqual([]);
  });
});
