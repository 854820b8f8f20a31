import { createServer } from 'node:net';
import { type CommandRow, endpoints } from '@marquee/protocol';
import { vi } from 'vitest';
import type { MqttConfig } from '../../src/config.js';
import type { DeviceGateway } from '../../src/modules/devices/gateway.js';
import { HeadlessPlayer, type PlayerOptions } from '../../src/player/player.js';
import type { ApiClient } from '../helpers/index.js';

/** A free TCP port on the loopback (for the embedded broker's TCP listener or a test broker). */
/** The embedded broker on WebSocket only: no external broker, no TCP port, no dynamic security. */
export const EMBEDDED_WS_MQTT = {
  url: '',
  username: '',
  password: '',
  tcpPort: 0,
  dynsec: false,
  publicUrls: [],
  httpAuthSecret: '',
} satisfies Partial<MqttConfig>;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns a value that is not undefined (or throws after `timeoutMs`). */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Pairs a new headless player with the server at `server` and adds it through the console
 * as `client` (code or number): the activated, connected player.
 */
export async function activatePlayer(
  server: string,
  client: ApiClient,
  options: Partial<PlayerOptions> & { name?: string; by?: 'code' | 'number'; deptId?: string; connect?: boolean } = {},
): Promise<HeadlessPlayer> {
  const number = options.by === 'number' ? `SN-${Math.random().toString(36).slice(2, 10)}` : options.number;
  const player = new HeadlessPlayer({ server, heartbeatSec: 1, ...options, number });
  const pairing = await player.pair();
  const credentials = player.awaitCredentials(pairing, 20_000);
  const added = await client.call(endpoints.deviceAdd, {
    ...(options.by === 'number' ? { number } : { code: pairing.code }),
    name: options.name ?? 'Lobby screen',
    ...(options.deptId ? { deptId: options.deptId } : {}),
  });
  if (added.envelope.code !== 0) throw new Error(`device.add: ${added.envelope.code} ${added.envelope.message}`);
  await credentials;
  if (options.connect !== false) await player.connect();
  return player;
}

/** The device's row as the console lists it. */
export async function deviceRow(client: ApiClient, id: string) {
  const list = await client.call(endpoints.deviceList, { size: 500 });
  return list.envelope.payload?.data.find((d) => d.id === id);
}

/** One command's row as the console reads it. */
export async function commandRow(client: ApiClient, deviceId: string, id: string): Promise<CommandRow | undefined> {
  const list = await client.call(endpoints.deviceCommands, { deviceId, ids: [id] });
  return list.envelope.payload?.data[0];
}

/** Waits until the command reaches `state`. */
export function commandReaches(client: ApiClient, deviceId: string, id: string, state: string, timeoutMs = 10_000) {
  return waitFor(
    `command ${id} ${state}`,
    async () => {
      const row = await commandRow(client, deviceId, id);
      return row?.state === state ? row : undefined;
    },
    timeoutMs,
  );
}

/** Waits until the console shows the device `status`. */
export async function deviceReaches(client: ApiClient, id: string, status: string, timeoutMs = 10_000) {
  let seen: Awaited<ReturnType<typeof deviceRow>>;
  try {
    return await waitFor(
      `device ${id} ${status}`,
      async () => {
        seen = await deviceRow(client, id);
        return seen?.status === status ? seen : undefined;
      },
      timeoutMs,
    );
  } catch (error) {
    // What the list showed last: whether the device was missing or in which state it stayed.
    const last = seen && { status: seen.status, lastSeenAt: seen.lastSeenAt };
    throw new Error(`${(error as Error).message}; last listed: ${JSON.stringify(last ?? 'not listed')}`);
  }
}

/**
 * The device messages `gateway` receives from now on (a spy on its onMessage; `restore` ends
 * it): `handled` waits until a message that `match`es has arrived and been handled. A device's
 * messages are handled in arrival order, so a test that shows a message changed nothing waits
 * on it, or on a later message of the same device, instead of sleeping.
 */
export function watchMessages(gateway: DeviceGateway) {
  const spy = vi.spyOn(gateway, 'onMessage');
  return {
    async handled(what: string, match: (topic: string, json: Record<string, unknown>) => boolean): Promise<void> {
      const done = await waitFor(what, () => {
        const i = spy.mock.calls.findIndex(([topic, payload]) => {
          try {
            return match(topic, JSON.parse(payload.toString('utf8')));
          } catch {
            return false;
          }
        });
        return i < 0 ? undefined : spy.mock.results[i];
      });
      if (done.type === 'return') await done.value;
    },
    restore: () => spy.mockRestore(),
  };
}
