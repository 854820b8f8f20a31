import { endpoints } from '@marquee/protocol';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { deviceConnections, deviceStatusHistory, devices, serverInstances } from '../../src/db/schema/index.js';
import { INSTANCE_GONE_REASON } from '../../src/modules/devices/instances.js';
import type { HeadlessPlayer } from '../../src/player/player.js';
import {
  type ApiClient,
  BACKENDS,
  type Backend,
  createTestApp,
  createTestDatabase,
  type TestApp,
  type TestDatabase,
} from '../helpers/index.js';
import { activatePlayer, commandReaches, freePort, waitFor } from './helpers.js';

// Several instances on one database, each with its default embedded broker on ports of its
// own (issue 25): a player connected to one instance gets the commands sent through another,
// its credentials name every instance's broker, and when its instance stops it comes back
// through another, which shows it online. The figures (relay latency, failover time) are
// printed; bench/multi-instance.ts measures them on PostgreSQL in processes of their own.

interface Instance {
  t: TestApp;
  server: string;
  tcpPort: number;
}

async function startInstance(backend: Backend, database: TestDatabase): Promise<Instance> {
  const tcpPort = await freePort();
  const mqtt: Config['mqtt'] = {
    url: '',
    username: '',
    password: '',
    tcpPort,
    dynsec: false,
    publicUrls: [],
    httpAuthSecret: '',
  };
  const t = await createTestApp(backend, { database, config: { host: '127.0.0.1', mqtt } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  await t.services.devices.tcpListening;
  const address = t.app.server.address();
  return { t, server: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, tcpPort };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

describe.each(BACKENDS)('two instances with their embedded brokers on one %s database', (backend) => {
  let database: TestDatabase;
  let a: Instance;
  let b: Instance;
  let onA: ApiClient;
  let onB: ApiClient;
  const players: HeadlessPlayer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    a = await startInstance(backend, database);
    b = await startInstance(backend, database);
    ({ client: onA } = await a.t.tenant());
    onB = b.t.client({ token: onA.token });
  });
  afterAll(async () => {
    for (const p of players) p.kill();
    await a?.t.close();
    await b?.t.close();
    await database?.close();
  });

  /** The stored presence of a device and the instance its connection row names. */
  const presence = async (id: string) => {
    const [row] = await database.db
      .select({ status: devices.status, stateTs: devices.stateTs, instance: deviceConnections.instanceId })
      .from(devices)
      .leftJoin(deviceConnections, eq(deviceConnections.deviceId, devices.id))
      .where(eq(devices.id, id));
    return row;
  };

  it('delivers a command sent through the instance that does not hold the player (10 of 10, acknowledged)', async () => {
    const player = await activatePlayer(a.server, onA, { name: 'Held by A' });
    players.push(player);
    const id = player.deviceId;
    await waitFor('online through A', async () => {
      const p = await presence(id);
      return p?.status === 'online' && p.instance === a.t.services.devices.instanceId ? p : undefined;
    });
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const level = 10 + i;
      const started = performance.now();
      const received = new Promise<number>((resolve) => {
        const off = player.onCommandReceived((command) => {
          if (command.kind === 'volume' && command.params.level === level) {
            off();
            resolve(performance.now() - started);
          }
        });
      });
      const sent = await onB.call(endpoints.deviceSendCommand, { deviceIds: [id], kind: 'volume', params: { level } });
      expect(sent.envelope.code).toBe(0);
      const commandId = sent.envelope.payload.commands[0].id;
      // Bounded so that a command that never arrives fails here (before the fix: marked sent by B,
      // whose broker has no such player, and delivered only at the player's next connection).
      latencies.push(
        await Promise.race([
          received,
          new Promise<number>((_, reject) =>
            setTimeout(() => reject(new Error(`command ${i + 1} of 10 not received within 10 s`)), 10_000).unref(),
          ),
        ]),
      );
      const acked = await commandReaches(onB, id, commandId, 'acknowledged');
      expect(acked.attempts).toBe(1);
      expect(player.volume).toBe(level);
    }
    console.log(
      `[${backend}] command through the other instance -> player: p50 ${percentile(latencies, 50).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (10 of 10)`,
    );
  });

  it('keeps a command pending, not sent, while no instance holds the device; it goes out when the device is back', async () => {
    const player = await activatePlayer(a.server, onA, { name: 'Away' });
    players.push(player);
    const id = player.deviceId;
    await waitFor('online', async () => ((await presence(id))?.status === 'online' ? true : undefined));
    player.kill();
    await waitFor('offline by its will', async () => ((await presence(id))?.status === 'offline' ? true : undefined));
    const sent = await onB.call(endpoints.deviceSendCommand, {
      deviceIds: [id],
      kind: 'brightness',
      params: { level: 7 },
    });
    const commandId = sent.envelope.payload.commands[0].id;
    // Whichever instance tries it (B that stored it, A that held the device last), none
    // publishes it: neither broker holds the device.
    await b.t.services.devices.dispatch([commandId]);
    expect(await a.t.services.devices.deliverHeld([commandId])).toEqual([]);
    expect((await commandReaches(onB, id, commandId, 'pending')).attempts).toBe(0);
    // Back through B's broker this time: B sends it.
    const { HeadlessPlayer } = await import('../../src/player/player.js');
    const back = new HeadlessPlayer({ server: b.server, heartbeatSec: 1, brokerUrl: `mqtt://127.0.0.1:${b.tcpPort}` });
    players.push(back);
    await back.connect(player.credentials);
    const acked = await commandReaches(onB, id, commandId, 'acknowledged');
    expect(acked.attempts).toBe(1);
    expect(back.brightness).toBe(7);
  });

  it('releases at once the devices of an instance found dead, unless they came back through another', async () => {
    const player = await activatePlayer(b.server, onA, { name: 'Orphan' });
    players.push(player);
    const id = player.deviceId;
    const online = await waitFor('online through B', async () => {
      const p = await presence(id);
      return p?.status === 'online' && p.instance === b.t.services.devices.instanceId ? p : undefined;
    });
    // The test's clocks move by hand: the release (by A or B, whichever finds the dead
    // instance first) comes after the connection it releases.
    const later = Math.max(a.t.clock.now(), b.t.clock.now()) + 1000;
    for (const i of [a, b]) i.t.clock.set(later);
    // An instance that stopped touching its row a minute ago (killed), said to hold the device.
    await database.db.insert(serverInstances).values({
      id: 'dead-instance',
      brokerUrls: ['ws://10.9.9.9:1/mqtt'],
      startedAt: sql`now() - interval '2 minutes'`,
      seenAt: sql`now() - interval '1 minute'`,
    });
    await database.db
      .update(deviceConnections)
      .set({ instanceId: 'dead-instance' })
      .where(eq(deviceConnections.deviceId, id));
    await waitFor('released', async () => ((await presence(id))?.status === 'offline' ? true : undefined), 15_000);
    const [last] = await database.db
      .select({ reason: deviceStatusHistory.reason })
      .from(deviceStatusHistory)
      .where(and(eq(deviceStatusHistory.deviceId, id), eq(deviceStatusHistory.status, 'offline')));
    expect(last.reason).toBe(INSTANCE_GONE_REASON);
    expect(await database.db.select().from(serverInstances).where(eq(serverInstances.id, 'dead-instance'))).toEqual([]);
    // Then the heartbeat after it.
    for (const i of [a, b]) i.t.clock.advance(1000);
    // Its connection lives on (the instance was B all along): its next heartbeat brings it back.
    await waitFor('online again by its heartbeat', async () => {
      const p = await presence(id);
      return p?.status === 'online' && p.stateTs === online.stateTs ? p : undefined;
    });
  });

  it('gives a player every instance broker; when its instance stops it comes back through another, shown online', async () => {
    // An instance of its own to stop (A and B serve the other tests).
    const c = await startInstance(backend, database);
    let stopped = false;
    try {
      const cId = c.t.services.devices.instanceId;
      const bId = b.t.services.devices.instanceId;
      // C knows the others' brokers (they announced themselves when they listened).
      await waitFor('peers known', () =>
        c.t.services.devices.peerBrokerUrls.includes(`ws://127.0.0.1:${new URL(b.server).port}/mqtt`)
          ? true
          : undefined,
      );
      const player = await activatePlayer(c.server, onA, { name: 'Fails over' });
      players.push(player);
      const id = player.deviceId;
      const urls = player.credentials?.brokerUrls ?? [];
      expect(urls.slice(0, 2)).toEqual([`${c.server.replace('http', 'ws')}/mqtt`, `mqtt://127.0.0.1:${c.tcpPort}`]);
      expect(urls).toContain(`${b.server.replace('http', 'ws')}/mqtt`);
      expect(urls).toContain(`mqtt://127.0.0.1:${b.tcpPort}`);
      expect(urls).toContain(`${a.server.replace('http', 'ws')}/mqtt`);
      await waitFor('online through C', async () => ((await presence(id))?.instance === cId ? true : undefined));

      const started = performance.now();
      await c.t.app.close();
      stopped = true;
      const back = await waitFor(
        'online through another instance',
        async () => {
          const p = await presence(id);
          return p?.status === 'online' && p.instance && p.instance !== cId ? p : undefined;
        },
        20_000,
      );
      const failoverMs = performance.now() - started;
      console.log(
        `[${backend}] failover: the player online through another instance ${failoverMs.toFixed(0)} ms after its instance began to stop`,
      );
      expect([a.t.services.devices.instanceId, bId]).toContain(back.instance);
      // (Each test app has a clock of its own, so the history's times do not order the two.)
      const history = await database.db
        .select({ status: deviceStatusHistory.status, reason: deviceStatusHistory.reason })
        .from(deviceStatusHistory)
        .where(eq(deviceStatusHistory.deviceId, id));
      expect(history).toContainEqual({ status: 'offline', reason: INSTANCE_GONE_REASON });
      expect(history.filter((h) => h.status === 'online' && h.reason === 'connect')).toHaveLength(2);
      // And commands reach it there, through either instance.
      const sent = await onB.call(endpoints.deviceSendCommand, {
        deviceIds: [id],
        kind: 'volume',
        params: { level: 61 },
      });
      await commandReaches(onB, id, sent.envelope.payload.commands[0].id, 'acknowledged');
      expect(player.volume).toBe(61);
    } finally {
      if (!stopped) await c.t.app.close();
    }
  });
});
