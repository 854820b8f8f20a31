import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ErrorCode, endpoints, MAX_SCREENSHOT_BYTES, screenshotUploadPath } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, deviceScreenshots, devices, operationLogs } from '../../src/db/schema/index.js';
import { JOBS } from '../../src/jobs/index.js';
import {
  runScreenshotCleanup,
  runTimedScreenshots,
  SCREENSHOT_CLEANUP_JOB,
  TIMED_SCREENSHOT_JOB,
} from '../../src/modules/screenshots/jobs.js';
import { queueTimedScreenshots } from '../../src/modules/screenshots/service.js';
import type { HeadlessPlayer } from '../../src/player/player.js';
import { screenshotPng } from '../../src/player/png.js';
import { enterpriseKey } from '../../src/storage/storage.js';
import { activatePlayer, commandReaches, deviceReaches, EMBEDDED_WS_MQTT, waitFor } from '../devices/helpers.js';
import { type ApiClient, BACKENDS, createTestApp, DAY, HOUR, type TestApp } from '../helpers/index.js';

/**
 * Screenshots end to end in process: the console asks, the headless player uploads over HTTP
 * with its credentials and acknowledges with the upload's id, the console reads signed URLs;
 * the upload's refusals; the timed job and the 7-day cleanup with the files.
 */
describe.each(BACKENDS)('screenshots on %s', (backend) => {
  let t: TestApp;
  let server: string;
  let dir: string;
  let client: ApiClient;
  const players: HeadlessPlayer[] = [];

  const activate = async (c: ApiClient, name: string) => {
    const player = await activatePlayer(server, c, { name });
    players.push(player);
    await deviceReaches(c, player.deviceId, 'online');
    return player;
  };
  const upload = (
    player: HeadlessPlayer,
    commandId: string,
    body: Uint8Array,
    headers: Record<string, string> = {},
  ): Promise<{ code: number; payload: { screenshotId: string } | null }> => {
    const c = player.credentials!;
    return fetch(`${server}${screenshotUploadPath(commandId)}`, {
      method: 'POST',
      headers: {
        'content-type': 'image/png',
        authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`,
        ...headers,
      },
      body: Buffer.from(body),
    }).then((r) => r.json());
  };
  const entOfDevice = async (id: string) =>
    (await t.db.select({ entId: devices.entId }).from(devices).where(eq(devices.id, id)))[0].entId;
  /** A screenshot command stored for the device but never published (the test uploads itself). */
  const quietCommand = async (deviceId: string, entId: string, accountId: string | null = 'someone') => {
    const [row] = await t.db
      .insert(deviceCommands)
      .values({
        entId,
        deviceId,
        kind: 'screenshot',
        params: {},
        accountId,
        state: 'sent',
        expiresAt: new Date(t.clock.now() + 600_000),
      })
      .returning({ id: deviceCommands.id });
    return row.id;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'marquee-shots-'));
    t = await createTestApp(backend, {
      config: {
        host: '127.0.0.1',
        mqtt: EMBEDDED_WS_MQTT,
        storage: { kind: 'local', dir },
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    ({ client } = await t.tenant());
  });
  afterAll(async () => {
    for (const p of players) await p.stop().catch(() => {});
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes a screenshot now: uploaded over HTTP, acknowledged with its id, shown with a signed URL', async () => {
    const player = await activate(client, 'Lobby');
    const id = player.deviceId;
    const take = await client.call(endpoints.screenshotTake, { deviceIds: [id] });
    expect(take.envelope.code).toBe(0);
    const commandId = take.envelope.payload.commands[0].id;
    const acked = await commandReaches(client, id, commandId, 'acknowledged');
    expect(acked.result?.screenshotId).toBe(player.uploads.get(commandId)?.screenshotId);

    const latest = await client.call(endpoints.screenshotLatest, { keyword: 'Lobby' });
    const row = latest.envelope.payload.data.find((d) => d.deviceId === id);
    expect(row?.screenshot).toMatchObject({
      deviceId: id,
      deviceName: 'Lobby',
      contentType: 'image/png',
      width: 320,
      height: 180,
      trigger: 'manual',
      commandId,
    });
    const image = await fetch(`${server}${row?.screenshot?.url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBe(row?.screenshot?.size);

    const history = await client.call(endpoints.screenshotHistory, { deviceId: id });
    expect(history.envelope.payload.total).toBe(1);
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const inRange = await client.call(endpoints.screenshotHistory, { from: today, to: today });
    expect(inRange.envelope.payload.data.map((s) => s.id)).toContain(row?.screenshot?.id);
    const later = new Date(t.clock.now() + 2 * DAY).toISOString();
    const outOfRange = await client.call(endpoints.screenshotHistory, { from: later });
    expect(outOfRange.envelope.payload.total).toBe(0);
    const timedOnly = await client.call(endpoints.screenshotHistory, { deviceId: id, trigger: 'timed' });
    expect(timedOnly.envelope.payload.total).toBe(0);

    // Another enterprise neither sees the history of the device nor takes its screenshot.
    const other = (await t.tenant()).client;
    expect((await other.call(endpoints.screenshotHistory, { deviceId: id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await other.call(endpoints.screenshotTake, { deviceIds: [id] })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await other.call(endpoints.screenshotDelete, { ids: [row!.screenshot!.id] })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );

    // Delete: the row and its file go; the URL finds nothing.
    const deleted = await client.call(endpoints.screenshotDelete, { ids: [row!.screenshot!.id] });
    expect(deleted.envelope.code).toBe(0);
    await waitFor('file deleted', async () =>
      (await fetch(`${server}${row?.screenshot?.url}`)).status === 404 ? true : undefined,
    );
    expect((await client.call(endpoints.screenshotHistory, { deviceId: id })).envelope.payload.total).toBe(0);
    const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.action, 'deleteScreenshot'));
    expect(logs.some((l) => l.targetName === 'Lobby')).toBe(true);
  });

  it('refuses uploads with wrong credentials, for another device, of the wrong type or too large', async () => {
    const a = await activate(client, 'Upload A');
    const b = await activate(client, 'Upload B');
    const entOf = await entOfDevice(a.deviceId);
    const commandA = await quietCommand(a.deviceId, entOf);
    const png = screenshotPng(64, 32, 1);

    // Wrong or missing credentials.
    const wrong = await fetch(`${server}${screenshotUploadPath(commandA)}`, {
      method: 'POST',
      headers: {
        'content-type': 'image/png',
        authorization: `Basic ${Buffer.from(`${a.deviceId}:guess`).toString('base64')}`,
      },
      body: Buffer.from(png),
    }).then((r) => r.json());
    expect(wrong.code).toBe(ErrorCode.DEVICE_AUTH_FAILED);
    const none = await fetch(`${server}${screenshotUploadPath(commandA)}`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.from(png),
    }).then((r) => r.json());
    expect(none.code).toBe(ErrorCode.DEVICE_AUTH_FAILED);
    // Device B may not upload for A's command.
    expect((await upload(b, commandA, png)).code).toBe(ErrorCode.NOT_FOUND);
    expect((await upload(a, 'no-such-command', png)).code).toBe(ErrorCode.NOT_FOUND);
    // A volume command is no screenshot command.
    const [volume] = await t.db
      .insert(deviceCommands)
      .values({
        entId: entOf,
        deviceId: a.deviceId,
        kind: 'volume',
        params: { level: 1 },
        state: 'sent',
        expiresAt: new Date(t.clock.now() + 600_000),
      })
      .returning({ id: deviceCommands.id });
    expect((await upload(a, volume.id, png)).code).toBe(ErrorCode.NOT_FOUND);
    // Type judged from the header and the content.
    expect((await upload(a, commandA, png, { 'content-type': 'text/plain' })).code).toBe(ErrorCode.FILE_FORMAT_ERROR);
    expect((await upload(a, commandA, Buffer.from('not an image at all'))).code).toBe(ErrorCode.FILE_FORMAT_ERROR);
    expect((await upload(a, commandA, png, { 'content-type': 'image/jpeg' })).code).toBe(ErrorCode.FILE_FORMAT_ERROR);
    // Too large: refused, nothing stored.
    const big = Buffer.concat([png, Buffer.alloc(MAX_SCREENSHOT_BYTES)]);
    expect((await upload(a, commandA, big)).code).toBe(ErrorCode.FILE_TOO_LARGE);
    const rows = await t.db.select().from(deviceScreenshots).where(eq(deviceScreenshots.deviceId, a.deviceId));
    expect(rows).toEqual([]);

    // The right upload works; a retry answers the same screenshot; a closed command refuses.
    const first = await upload(a, commandA, png);
    expect(first.code).toBe(0);
    const again = await upload(a, commandA, png);
    expect(again.payload?.screenshotId).toBe(first.payload?.screenshotId);
    const closed = await quietCommand(a.deviceId, entOf);
    await t.db.update(deviceCommands).set({ state: 'expired' }).where(eq(deviceCommands.id, closed));
    expect((await upload(a, closed, png)).code).toBe(ErrorCode.CONFLICT);
  });

  it('fails a screenshot ack that names no upload of its command', async () => {
    const player = await activate(client, 'No upload');
    const id = player.deviceId;
    const take = await client.call(endpoints.screenshotTake, { deviceIds: [id] });
    const commandId = take.envelope.payload.commands[0].id;
    await commandReaches(client, id, commandId, 'acknowledged');
    // A second command acknowledged by a player that claims the first command's upload.
    const other = await quietCommand(id, await entOfDevice(id));
    await player.client?.publishAsync(
      `mq/v1/d/${id}/ack`,
      JSON.stringify({
        v: 1,
        id: other,
        ts: Date.now(),
        result: 'ok',
        data: { screenshotId: player.uploads.get(commandId)?.screenshotId },
      }),
      { qos: 1 },
    );
    const failed = await commandReaches(client, id, other, 'failed');
    expect(failed.errorCode).toBe('FAILED');
  });

  it('reads and saves the timed-screenshot setting (default hourly, on)', async () => {
    const { client: c } = await t.tenant();
    expect((await c.call(endpoints.screenshotSettings, {})).envelope.payload).toEqual({
      timedEnabled: true,
      intervalHours: 1,
    });
    const saved = await c.call(endpoints.screenshotSaveSettings, { timedEnabled: false, intervalHours: 6 });
    expect(saved.envelope.payload).toEqual({ timedEnabled: false, intervalHours: 6 });
    expect((await c.call(endpoints.screenshotSettings, {})).envelope.payload).toEqual({
      timedEnabled: false,
      intervalHours: 6,
    });
    expect(
      (await c.call(endpoints.screenshotSaveSettings, { timedEnabled: true, intervalHours: 5 })).envelope.code,
    ).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('sends timed screenshots hourly to online devices of enterprises that keep it on', async () => {
    expect(JOBS.find((j) => j.id === TIMED_SCREENSHOT_JOB)?.schedule).toBe('0 * * * *');
    expect(JOBS.find((j) => j.id === SCREENSHOT_CLEANUP_JOB)?.schedule).toMatch(/^\d+ \d+ \* \* \*$/);
    const on = await t.tenant();
    const off = await t.tenant();
    const every2 = await t.tenant();
    const pOn = await activate(on.client, 'Timed on');
    const pOff = await activate(off.client, 'Timed off');
    const p2 = await activate(every2.client, 'Every 2');
    await off.client.call(endpoints.screenshotSaveSettings, { timedEnabled: false, intervalHours: 1 });
    await every2.client.call(endpoints.screenshotSaveSettings, { timedEnabled: true, intervalHours: 2 });

    const openFor = async (deviceId: string) =>
      t.db
        .select({ id: deviceCommands.id })
        .from(deviceCommands)
        .where(and(eq(deviceCommands.deviceId, deviceId), eq(deviceCommands.kind, 'screenshot')));
    // The hour decides: at an odd hour every-2-hours sends nothing, at an even one it does; off
    // never. (Both hours lie in the past: a device seen since counts as online then.)
    const base = Math.floor(t.clock.now() / HOUR) * HOUR;
    const odd = new Date(new Date(base).getUTCHours() % 2 === 1 ? base : base - HOUR);
    const even = new Date(odd.getTime() - HOUR);
    const at = async (when: Date) => {
      await t.db.delete(deviceCommands).where(eq(deviceCommands.kind, 'screenshot'));
      await queueTimedScreenshots(t.db, when);
      return [pOn, pOff, p2].map(async (p) => (await openFor(p.deviceId)).length);
    };
    expect(await Promise.all(await at(odd))).toEqual([1, 0, 0]);
    expect(await Promise.all(await at(even))).toEqual([1, 0, 1]);

    // The job's own run at this moment sends and dispatches; the player uploads and acks.
    await t.db.delete(deviceCommands).where(eq(deviceCommands.kind, 'screenshot'));
    const sent = await runTimedScreenshots(t.services, t.app.log);
    expect(sent).toBeGreaterThan(0);
    const [cmd] = await openFor(pOn.deviceId);
    expect(cmd).toBeDefined();
    expect(await openFor(pOff.deviceId)).toHaveLength(0);
    await commandReaches(on.client, pOn.deviceId, cmd.id, 'acknowledged');
    const history = await on.client.call(endpoints.screenshotHistory, { deviceId: pOn.deviceId });
    expect(history.envelope.payload.data[0]).toMatchObject({ trigger: 'timed', commandId: cmd.id });
    // A device with an open screenshot command gets no second one.
    await t.db.update(deviceCommands).set({ state: 'sent' }).where(eq(deviceCommands.id, cmd.id));
    await queueTimedScreenshots(t.db, new Date(t.clock.now()));
    expect(await openFor(pOn.deviceId)).toHaveLength(1);
  });

  it('deletes screenshots older than 7 days with their files', async () => {
    const player = await activate(client, 'Cleanup');
    const entId = await entOfDevice(player.deviceId);
    const make = async (name: string, ageMs: number) => {
      const key = enterpriseKey(entId, 'screenshots', player.deviceId, `${name}.png`);
      const png = screenshotPng(16, 16, 1);
      await t.services.files.storage.put(key, Readable.from([png]), { contentType: 'image/png' });
      const [row] = await t.db
        .insert(deviceScreenshots)
        .values({
          entId,
          deviceId: player.deviceId,
          fileKey: key,
          contentType: 'image/png',
          size: png.length,
          width: 16,
          height: 16,
          trigger: 'timed',
          takenAt: new Date(t.clock.now() - ageMs),
        })
        .returning({ id: deviceScreenshots.id });
      return { id: row.id, key };
    };
    const old = await make('old', 8 * DAY);
    const recent = await make('recent', 6 * DAY);
    expect(await runScreenshotCleanup(t.services, t.app.log)).toBeGreaterThanOrEqual(1);
    expect(await t.services.files.storage.exists(old.key)).toBe(false);
    expect(await t.services.files.storage.exists(recent.key)).toBe(true);
    const left = await t.db
      .select({ id: deviceScreenshots.id })
      .from(deviceScreenshots)
      .where(eq(deviceScreenshots.deviceId, player.deviceId));
    expect(left.map((r) => r.id)).toEqual([recent.id]);
  });

  it("removes a deleted device's screenshot files once the delete is committed", async () => {
    const player = await activate(client, 'Deleted with files');
    const entId = await entOfDevice(player.deviceId);
    const key = enterpriseKey(entId, 'screenshots', player.deviceId, 'gone.png');
    const png = screenshotPng(16, 16, 1);
    await t.services.files.storage.put(key, Readable.from([png]), { contentType: 'image/png' });
    await t.db.insert(deviceScreenshots).values({
      entId,
      deviceId: player.deviceId,
      fileKey: key,
      contentType: 'image/png',
      size: png.length,
      width: 16,
      height: 16,
      trigger: 'manual',
      takenAt: new Date(t.clock.now()),
    });
    player.kill();
    const deleted = await client.call(endpoints.deviceDelete, { ids: [player.deviceId] });
    expect(deleted.envelope.code).toBe(0);
    let exists = true;
    for (let i = 0; i < 100 && exists; i++) {
      exists = await t.services.files.storage.exists(key);
      if (exists) await new Promise((r) => setTimeout(r, 50));
    }
    expect(exists).toBe(false);
  });
});
