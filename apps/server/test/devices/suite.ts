import { type CommandAck, deviceHttpCalls, deviceTopic, ErrorCode, endpoints } from '@marquee/protocol';
import { asc, desc, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MqttConfig } from '../../src/config.js';
import { deviceCommands, deviceStatusHistory, devices, operationLogs } from '../../src/db/schema/index.js';
import { DeviceApiError, HeadlessPlayer } from '../../src/player/player.js';
import { type ApiClient, type Backend, createTestApp, type TestApp } from '../helpers/index.js';
import {
  activatePlayer,
  commandReaches,
  deviceReaches,
  deviceRow,
  EMBEDDED_WS_MQTT,
  waitFor,
  watchMessages,
} from './helpers.js';

/** A server under test and how to reach its broker. */
export interface ChannelEnv {
  t: TestApp;
  /** The server's base URL. */
  server: string;
  /** The broker over TCP (raw clients of the ACL tests). */
  tcpUrl: string;
  /** The broker URLs a device is told, in order. */
  brokerUrls: string[];
  /** Whether the broker publishes the last will of a connection it cuts off (aedes does; Mosquitto's dynsec kick does not). */
  cutOffWill: boolean;
  close(): Promise<void>;
}

/** Builds a test app with `mqtt` settings and makes it listen on a free loopback port. */
export async function listeningApp(
  backend: Backend,
  mqtt: Partial<MqttConfig>,
): Promise<{ t: TestApp; server: string }> {
  const t = await createTestApp(backend, {
    config: {
      host: '127.0.0.1',
      mqtt: { ...EMBEDDED_WS_MQTT, ...mqtt },
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  return { t, server: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** The QoS the broker granted a subscription (128: refused). */
export async function granted(client: mqtt.MqttClient, topic: string): Promise<number> {
  try {
    return (await client.subscribeAsync(topic, { qos: 1 }))[0].qos;
  } catch (error) {
    if (String(error).includes('Subscribe error')) return 128;
    throw error;
  }
}

/**
 * The device channel's protocol tests, the same for every broker: activation, the ACL,
 * presence and the last will, commands with acks, redelivery and idempotency. Players are
 * real MQTT clients (WebSocket by the first broker URL, TCP where a test says so).
 */
export function channelSuite(
  label: string,
  backends: readonly Backend[],
  makeEnv: (backend: Backend) => Promise<ChannelEnv>,
) {
  describe.each(backends)(`device channel (${label}) on %s`, (backend) => {
    let env: ChannelEnv;
    let t: TestApp;
    let server: string;
    let client: ApiClient;
    let tcpUrl: string;
    const players: HeadlessPlayer[] = [];

    beforeAll(async () => {
      env = await makeEnv(backend);
      ({ t, server, tcpUrl } = env);
      ({ client } = await t.tenant());
    });
    afterAll(async () => {
      for (const p of players) p.kill();
      await env?.close();
    });

    const activate = async (options: Parameters<typeof activatePlayer>[2] = {}) => {
      const player = await activatePlayer(server, client, options);
      players.push(player);
      return player;
    };

    it('activates a paired player: code -> device.add -> credentials once -> online', async () => {
      const player = new HeadlessPlayer({ server, heartbeatSec: 1 });
      players.push(player);
      const pairing = await player.pair();
      expect(pairing.code).toMatch(/^[2-9A-HJ-KM-NP-Z]{6}$/);
      expect(pairing.qr).toContain(pairing.code);
      // Not added yet: the poll answers pending, the credentials PAIRING_PENDING.
      const early = await fetch(`${server}${deviceHttpCalls.credentials.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pairingId: pairing.pairingId, pollToken: pairing.pollToken }),
      }).then((r) => r.json());
      expect(early.code).toBe(ErrorCode.PAIRING_PENDING);

      const waiting = player.awaitCredentials(pairing, 20_000);
      const added = await client.call(endpoints.deviceAdd, { code: pairing.code.toLowerCase(), name: 'Front door' });
      expect(added.envelope.code).toBe(0);
      const credentials = await waiting;
      expect(credentials.deviceId).toBe(added.envelope.payload.id);
      expect(credentials.username).toBe(credentials.deviceId);
      expect(credentials.brokerUrls).toEqual(env.brokerUrls);
      expect((await deviceRow(client, credentials.deviceId))?.status).toBe('activating');

      // Given once.
      await expect(player.awaitCredentials(pairing, 1000)).rejects.toMatchObject({ code: ErrorCode.CREDENTIALS_TAKEN });
      // The code is used up.
      const again = await client.call(endpoints.deviceAdd, { code: pairing.code, name: 'Twice' });
      expect(again.envelope.code).toBe(ErrorCode.PAIRING_CODE_INVALID);

      await player.connect();
      const row = await deviceReaches(client, credentials.deviceId, 'online');
      expect(row.name).toBe('Front door');
      await waitFor('heartbeat fields', async () => {
        const r = await deviceRow(client, credentials.deviceId);
        return r?.mac === '02:00:5e:10:00:23' ? r : undefined;
      });
      const shown = await deviceRow(client, credentials.deviceId);
      expect(shown).toMatchObject({
        ip: '10.0.0.23',
        screenWidth: 1920,
        screenHeight: 1080,
        volume: 50,
        brightness: 80,
      });
      expect(shown?.playerVersion).toBe('headless-1.0.0');

      const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.targetId, credentials.deviceId));
      expect(logs.map((l) => l.action).sort()).toEqual(['activate', 'add']);
      // The player activated itself: its row names the device as a reader knows it, not by its id (issue 25).
      expect(logs.find((l) => l.action === 'activate')?.loginName).toBe('Front door');
    });

    it('adds by the device number the player reported; refuses unknown codes and bad input', async () => {
      const player = await activate({ by: 'number', connect: false });
      expect(player.credentials?.deviceId).toBeTruthy();
      const unknown = await client.call(endpoints.deviceAdd, { code: 'ZZZZZZ', name: 'x' });
      expect(unknown.envelope.code).toBe(ErrorCode.PAIRING_CODE_INVALID);
      for (const bad of [
        { code: '12', name: 'x' },
        { name: 'x' },
        { code: 'ABCDEF', number: 'N1', name: 'x' },
        { code: 'ABCDEF' },
      ]) {
        expect((await client.call(endpoints.deviceAdd, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      }
      for (const body of ['not json', '{"number": 12}', '{"player": {"version": 1}}']) {
        const answer = await fetch(`${server}${deviceHttpCalls.pair.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).then((r) => r.json());
        expect(answer.code).toBe(ErrorCode.INVALID_PARAMS);
      }
      await expect(
        new HeadlessPlayer({ server }).awaitCredentials({ pairingId: 'nope', pollToken: 'nope' }, 10),
      ).rejects.toBeInstanceOf(DeviceApiError);
    });

    it("refuses another device's topics, wrong passwords and a foreign client id", async () => {
      const a = await activate({ name: 'A' });
      const b = await activate({ name: 'B' });
      const ca = a.credentials!;
      const cb = b.credentials!;
      await deviceReaches(client, cb.deviceId, 'online');

      const raw = await mqtt.connectAsync(tcpUrl, {
        username: ca.username,
        password: ca.password,
        clientId: `${ca.clientId}`,
        reconnectPeriod: 0,
        clean: true,
      });
      // A's own command topic: granted; B's command topic and the fleet wildcard: refused (0x80).
      expect(await granted(raw, deviceTopic(ca.deviceId, 'cmd'))).toBe(1);
      expect(await granted(raw, deviceTopic(cb.deviceId, 'cmd'))).toBe(128);
      expect(await granted(raw, deviceTopic(cb.deviceId, 'state'))).toBe(128);
      expect(await granted(raw, 'mq/v1/d/+/cmd')).toBe(128);
      expect(await granted(raw, '#')).toBe(128);
      // Publishing as B: the broker refuses it (aedes drops A's connection, Mosquitto drops the
      // message) and B stays online.
      const closed = new Promise<void>((closing) => raw.once('close', () => closing()));
      raw.publish(deviceTopic(cb.deviceId, 'ack'), JSON.stringify({ v: 1, id: 'x', ts: 1, result: 'ok' }), { qos: 0 });
      const stated = raw.publishAsync(
        deviceTopic(cb.deviceId, 'state'),
        JSON.stringify({ v: 1, online: false, ts: Date.now() + 60_000 }),
        { qos: 1, retain: true },
      );
      // The broker has read both (its PUBACK of the second, or the connection it closed):
      // what it let through went to the server before B's next heartbeat, which is handled
      // after it (a device's messages in arrival order).
      await Promise.race([stated.catch(() => undefined), closed]);
      raw.end(true);
      const messages = watchMessages(t.services.devices);
      try {
        b.volume = b.volume === 41 ? 42 : 41;
        const marker = b.volume;
        b.heartbeat();
        await messages.handled(
          `B's heartbeat with volume ${marker}`,
          (topic, json) => topic === deviceTopic(cb.deviceId, 'hb') && json.volume === marker,
        );
      } finally {
        messages.restore();
      }
      expect((await deviceRow(client, cb.deviceId))?.status).toBe('online');

      await expect(
        mqtt.connectAsync(tcpUrl, {
          username: ca.username,
          password: `${ca.password}x`,
          clientId: ca.clientId,
          reconnectPeriod: 0,
        }),
      ).rejects.toThrow();
      await expect(
        mqtt.connectAsync(tcpUrl, {
          username: ca.username,
          password: ca.password,
          clientId: cb.clientId,
          reconnectPeriod: 0,
        }),
      ).rejects.toThrow();
    });

    it('records presence: online on connect, offline by the last will, history of each change', async () => {
      const player = await activate({ name: 'Will' });
      const id = player.deviceId;
      await deviceReaches(client, id, 'online');
      player.kill();
      await deviceReaches(client, id, 'offline');
      const history = await t.db
        .select({ status: deviceStatusHistory.status, reason: deviceStatusHistory.reason })
        .from(deviceStatusHistory)
        .where(eq(deviceStatusHistory.deviceId, id))
        .orderBy(asc(deviceStatusHistory.at));
      expect(history.map((h) => h.status)).toEqual(['activating', 'online', 'offline']);
      // Online by the connection's state, or by its first heartbeat when that overtook the
      // retained state (the broker stores a retained message before forwarding it).
      expect(history.map((h) => h.reason)).toEqual(['added', expect.stringMatching(/^(connect|heartbeat)$/), 'will']);

      // Back online over TCP; a clean stop publishes offline itself.
      const again = new HeadlessPlayer({ server, heartbeatSec: 1, brokerUrl: tcpUrl });
      players.push(again);
      await again.connect(player.credentials);
      await deviceReaches(client, id, 'online');
      await again.stop();
      await deviceReaches(client, id, 'offline');
    });

    it('shows a device that missed three heartbeats offline, and online again when it reports', async () => {
      const player = await activate({ name: 'Silent', heartbeatSec: 3600 });
      const id = player.deviceId;
      await deviceReaches(client, id, 'online');
      const ids = async (status: string) =>
        (await client.call(endpoints.deviceList, { status, size: 500 })).envelope.payload.data.map((d) => d.id);
      expect(await ids('online')).toContain(id);
      // The device's interval is 30 s: after 3 intervals without a word it is offline.
      t.clock.advance(91_000);
      expect((await deviceRow(client, id))?.status).toBe('offline');
      expect(await ids('offline')).toContain(id);
      expect(await ids('online')).not.toContain(id);
      // The offline job (each minute; sent here at once) writes it offline with a history row.
      await t.services.jobs.send('device-offline', {});
      t.services.jobs.wake('device-offline');
      const lastChange = async () =>
        (
          await t.db
            .select({ status: deviceStatusHistory.status, reason: deviceStatusHistory.reason })
            .from(deviceStatusHistory)
            .where(eq(deviceStatusHistory.deviceId, id))
            .orderBy(desc(deviceStatusHistory.at))
            .limit(1)
        )[0];
      await waitFor('offline written', async () => {
        const last = await lastChange();
        return last?.status === 'offline' ? last : undefined;
      });
      expect(await lastChange()).toEqual({ status: 'offline', reason: 'heartbeat' });
      const [stored] = await t.db.select({ status: devices.status }).from(devices).where(eq(devices.id, id));
      expect(stored.status).toBe('offline');
      expect(await ids('offline')).toContain(id);
      // The connection lived on (a stall): its next heartbeat brings it back, with a history row.
      t.clock.advance(1000);
      player.heartbeat();
      await deviceReaches(client, id, 'online');
      expect(await lastChange()).toEqual({ status: 'online', reason: 'heartbeat' });
    });

    it('delivers commands at QoS 1 and records the acks (volume, screenshot, a failure)', async () => {
      const player = await activate({ name: 'Commands' });
      const id = player.deviceId;
      await deviceReaches(client, id, 'online');

      const sent = await client.call(endpoints.deviceSendCommand, {
        deviceIds: [id],
        kind: 'volume',
        params: { level: 30 },
      });
      expect(sent.envelope.code).toBe(0);
      const volumeId = sent.envelope.payload.commands[0].id;
      const acked = await commandReaches(client, id, volumeId, 'acknowledged');
      expect(acked).toMatchObject({ kind: 'volume', params: { level: 30 }, attempts: 1, result: { volume: 30 } });
      expect(player.volume).toBe(30);

      const shot = await client.call(endpoints.deviceSendCommand, { deviceIds: [id], kind: 'screenshot' });
      const shotRow = await commandReaches(client, id, shot.envelope.payload.commands[0].id, 'acknowledged');
      // The image went over HTTP (docs/device-protocol.md 2.5); the ack names the upload.
      expect(shotRow.result?.screenshotId).toBe(player.uploads.get(shotRow.id)?.screenshotId);

      const upgrade = await client.call(endpoints.deviceSendCommand, {
        deviceIds: [id],
        kind: 'upgrade',
        params: { target: 'apk', version: '2.0.0', url: 'https://example.com/p.apk', deviceType: 'other-model' },
      });
      // A package for another device type is refused before any download (docs/device-protocol.md 3.8).
      const failed = await commandReaches(client, id, upgrade.envelope.payload.commands[0].id, 'failed');
      expect(failed.errorCode).toBe('FAILED');
      expect(failed.errorMessage).toContain('device type other-model');

      // Bad parameters are the caller's mistake, never a server error.
      for (const bad of [
        { deviceIds: [id], kind: 'volume', params: { level: 101 } },
        { deviceIds: [id], kind: 'volume' },
        { deviceIds: [id], kind: 'explode', params: {} },
        { deviceIds: [], kind: 'reboot' },
      ]) {
        expect((await client.call(endpoints.deviceSendCommand, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      }
      const foreign = await client.call(endpoints.deviceSendCommand, { deviceIds: ['no-such-device'], kind: 'reboot' });
      expect(foreign.envelope.code).toBe(ErrorCode.NOT_FOUND);

      const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.targetId, id));
      expect(logs.filter((l) => l.action === 'command')).toHaveLength(3);
    });

    it('keeps a command for an offline device and delivers it when the device reconnects', async () => {
      const player = await activate({ name: 'Redelivery' });
      const id = player.deviceId;
      await deviceReaches(client, id, 'online');
      player.kill();
      try {
        await deviceReaches(client, id, 'offline');
      } catch (error) {
        // The stored presence and its history, to tell a will never applied from one undone.
        const [row] = await t.db
          .select({ status: devices.status, stateTs: devices.stateTs, statusAt: devices.statusAt })
          .from(devices)
          .where(eq(devices.id, id));
        const history = await t.db
          .select({ status: deviceStatusHistory.status, reason: deviceStatusHistory.reason })
          .from(deviceStatusHistory)
          .where(eq(deviceStatusHistory.deviceId, id))
          .orderBy(asc(deviceStatusHistory.at));
        throw new Error(`${(error as Error).message}; stored ${JSON.stringify({ row, history })}`);
      }

      // The command is dispatched after its transaction (afterCommit): waited on, not slept on.
      const dispatch = vi.spyOn(t.services.devices, 'dispatch');
      let commandId: string;
      try {
        const sent = await client.call(endpoints.deviceSendCommand, {
          deviceIds: [id],
          kind: 'brightness',
          params: { level: 20 },
        });
        commandId = sent.envelope.payload.commands[0].id;
        const dispatched = await waitFor('the dispatch', () =>
          dispatch.mock.calls.findIndex(([ids]) => ids.includes(commandId)) >= 0 ? dispatch.mock.results : undefined,
        );
        await Promise.all(dispatched.map((r) => (r.type === 'return' ? r.value : undefined)));
      } finally {
        dispatch.mockRestore();
      }
      expect((await commandReaches(client, id, commandId, 'pending')).attempts).toBe(0);

      const back = new HeadlessPlayer({ server, heartbeatSec: 1 });
      players.push(back);
      await back.connect(player.credentials);
      const acked = await commandReaches(client, id, commandId, 'acknowledged');
      expect(acked.attempts).toBe(1);
      expect(back.brightness).toBe(20);
    });

    it('ignores a repeated command id on the player; a repeated ack changes nothing', async () => {
      const player = await activate({ name: 'Duplicate' });
      const id = player.deviceId;
      await deviceReaches(client, id, 'online');
      const sent = await client.call(endpoints.deviceSendCommand, {
        deviceIds: [id],
        kind: 'volume',
        params: { level: 70 },
      });
      const commandId = sent.envelope.payload.commands[0].id;
      const first = await commandReaches(client, id, commandId, 'acknowledged');
      expect(player.executions).toBe(1);

      // The same command again (as a QoS 1 redelivery would bring it): answered, not run again.
      const acks: CommandAck[] = [];
      const watcher = await mqtt.connectAsync(tcpUrl, {
        ...t.services.devices.access.internal,
        clientId: 'test-watcher',
        reconnectPeriod: 0,
      });
      watcher.on('message', (_topic, payload) => acks.push(JSON.parse(payload.toString())));
      await watcher.subscribeAsync(deviceTopic(id, 'ack'), { qos: 1 });
      const [row] = await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, commandId));
      player.volume = 5;
      const messages = watchMessages(t.services.devices);
      try {
        await t.services.devices.publishCommand({ ...row, state: 'sent' });
        await waitFor('second ack', () => (acks.length > 0 ? acks : undefined));
        expect(player.received.get(commandId)).toBe(2);
        expect(player.executions).toBe(1);
        expect(player.volume).toBe(5);
        expect(acks[0]).toMatchObject({ id: commandId, result: 'ok' });
        // The server has handled the repeated ack.
        await messages.handled(
          'the repeated ack',
          (topic, json) => topic === deviceTopic(id, 'ack') && json.id === commandId,
        );
      } finally {
        messages.restore();
      }
      const after = await commandReaches(client, id, commandId, 'acknowledged');
      expect(after.ackedAt).toBe(first.ackedAt);
      await watcher.endAsync();
    });

    it('ends broker access at once when a device is disabled or deleted; enabled, it connects again', async () => {
      const player = await activate({ name: 'Revoked' });
      const id = player.deviceId;
      const c = player.credentials!;
      await deviceReaches(client, id, 'online');
      expect(await player.checkStatus()).toEqual({ status: 'active', name: 'Revoked' });
      const refused = () =>
        expect(
          mqtt.connectAsync(tcpUrl, {
            username: c.username,
            password: c.password,
            clientId: c.clientId,
            reconnectPeriod: 0,
          }),
        ).rejects.toThrow();

      const messages = watchMessages(t.services.devices);
      try {
        const disabled = await client.call(endpoints.deviceDisable, { ids: [id] });
        expect(disabled.envelope.payload).toEqual({ changed: 1 });
        await waitFor('connection closed', () => (player.client?.connected ? undefined : true));
        await refused();
        await expect(player.checkStatus()).rejects.toMatchObject({ code: ErrorCode.DEVICE_DISABLED });
        // The cut connection's last will (offline) arrives after the disable: handled, the
        // device is still invalid. (Mosquitto's dynsec kicks a disabled client without its will.)
        if (env.cutOffWill) {
          await messages.handled(
            'the last will',
            (topic, json) => topic === deviceTopic(id, 'state') && json.online === false,
          );
        }
      } finally {
        messages.restore();
      }
      expect((await deviceRow(client, id))?.status).toBe('invalid');
      player.kill();

      const enabled = await client.call(endpoints.deviceEnable, { ids: [id] });
      expect(enabled.envelope.payload).toEqual({ changed: 1 });
      expect((await deviceRow(client, id))?.status).toBe('offline');
      const again = new HeadlessPlayer({ server, heartbeatSec: 1 });
      players.push(again);
      await again.connect(c);
      await deviceReaches(client, id, 'online');

      const deleted = await client.call(endpoints.deviceDelete, { ids: [id] });
      expect(deleted.envelope.payload).toEqual({ deleted: 1 });
      await waitFor('connection closed', () => (again.client?.connected ? undefined : true));
      await refused();
      await expect(again.checkStatus()).rejects.toMatchObject({ code: ErrorCode.DEVICE_REMOVED });
      expect(await deviceRow(client, id)).toBeUndefined();
      again.kill();
    });
  });
}
