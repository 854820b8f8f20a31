import { endpoints } from '@marquee/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { HeadlessPlayer } from '../../src/player/player.js';
import { ApiClient, BACKENDS, type TestApp } from '../helpers/index.js';
import { activatePlayer, commandReaches, deviceReaches, waitFor } from './helpers.js';
import { mosquittoMissing, startMosquitto, type TestMosquitto } from './mosquitto.js';
import { channelSuite, listeningApp } from './suite.js';

/**
 * The same protocol tests against a real Mosquitto started by the test (dynamic-security
 * plugin, its own ports, TCP and WebSocket listeners): the server reaches it with MQTT_URL as
 * the dynsec admin and manages each device's client and role; then two server instances on
 * one database and one broker split the fleet through $share/marquee.
 */
if (mosquittoMissing) {
  describe('device channel (Mosquitto)', () => {
    it.skip(`skipped: ${mosquittoMissing}`, () => {});
  });
} else {
  const brokers: TestMosquitto[] = [];
  afterAll(async () => {
    for (const b of brokers) await b.stop();
  });
  const mqttSettings = (broker: TestMosquitto) => ({
    url: broker.url,
    username: broker.admin.username,
    password: broker.admin.password,
    dynsec: true,
    publicUrls: [`${broker.wsUrl}/mqtt`, broker.url],
  });

  channelSuite('Mosquitto with dynamic security', BACKENDS, async (backend) => {
    const broker = await startMosquitto();
    brokers.push(broker);
    const settings = mqttSettings(broker);
    const { t, server } = await listeningApp(backend, settings);
    return {
      t,
      server,
      tcpUrl: broker.url,
      brokerUrls: settings.publicUrls,
      cutOffWill: false,
      close: () => t.close(),
    };
  });

  describe.each(BACKENDS)('two server instances sharing one Mosquitto on %s', (backend) => {
    let broker: TestMosquitto;
    let a: TestApp;
    let serverA: string;
    let appB: FastifyInstance;
    const players: HeadlessPlayer[] = [];

    beforeAll(async () => {
      broker = await startMosquitto();
      brokers.push(broker);
      ({ t: a, server: serverA } = await listeningApp(backend, mqttSettings(broker)));
      // The second instance: its own app and broker connection, the same database.
      appB = await buildApp({ config: a.services.config, db: a.database, clock: a.clock.now });
      await appB.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      for (const p of players) p.kill();
      await appB?.close();
      await a?.close();
    });

    it('splits the devices messages between the instances, and either one commands any device', async () => {
      const { admin, client: clientA } = await a.tenant();
      const fleet = 8;
      for (let i = 0; i < fleet; i++) {
        players.push(await activatePlayer(serverA, clientA, { name: `Screen ${i}`, heartbeatSec: 0.25 }));
      }
      for (const p of players) await deviceReaches(clientA, p.deviceId, 'online');
      const gA = a.services.devices.handled;
      const gB = appB.services.devices.handled;
      // Each online state reached exactly one instance; heartbeats went to both.
      await waitFor('heartbeats on both instances', () => (gA.hb > 5 && gB.hb > 5 ? true : undefined), 15_000);
      expect(gA.state + gB.state).toBe(fleet);

      // Commands sent through instance B's console, to every device.
      const clientB = new ApiClient(appB, a.clock);
      await clientB.login(admin.loginName, admin.password);
      const sent = await clientB.call(endpoints.deviceSendCommand, {
        deviceIds: players.map((p) => p.deviceId),
        kind: 'brightness',
        params: { level: 42 },
      });
      expect(sent.envelope.code).toBe(0);
      for (const c of sent.envelope.payload.commands) await commandReaches(clientB, c.deviceId, c.id, 'acknowledged');
      for (const p of players) expect(p.brightness).toBe(42);
      // Each ack was consumed once, by one of the two.
      expect(gA.ack + gB.ack).toBe(fleet);
      console.log(
        `two instances: A handled ${gA.state} states, ${gA.hb} heartbeats, ${gA.ack} acks; B ${gB.state}, ${gB.hb}, ${gB.ack}`,
      );
    });
  });
}
