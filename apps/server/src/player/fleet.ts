import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DeviceCredentials, deviceCredentialsSchema, ErrorCode, PAIRING_TTL_MS } from '@marquee/protocol';
import { ContentPlayer } from './content.js';
import type { FleetEvent, FleetPlayerSpec, FleetStart } from './fleetProtocol.js';
import { DeviceApiError, HeadlessPlayer } from './player.js';

/**
 * The demo fleet's child process (started by src/demo/fleet.ts with an IPC channel): a few
 * headless players in one process. Each pairs through the real pairing flow when it has no
 * credentials (the code goes to the parent, which adds the device as the demo tenant's
 * administrator), keeps its credentials in `<stateDir>/<key>.json`, connects to the broker,
 * syncs and plays its manifest and uploads its plays. It stops (each player publishing its
 * offline state) on SIGTERM, SIGINT, or when the parent's IPC channel closes (the parent died).
 */

const send = (event: FleetEvent) => {
  if (process.connected) process.send?.(event);
};

interface Running {
  player: HeadlessPlayer;
  content: ContentPlayer;
}

const running: Running[] = [];
let stopping = false;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

async function loadCredentials(file: string): Promise<DeviceCredentials | null> {
  try {
    return deviceCredentialsSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch {
    return null;
  }
}

async function pairNew(player: HeadlessPlayer, spec: FleetPlayerSpec, file: string): Promise<DeviceCredentials> {
  for (;;) {
    const pairing = await player.pair();
    send({ type: 'pairing', key: spec.key, number: spec.number, code: pairing.code });
    try {
      const credentials = await player.awaitCredentials(pairing, PAIRING_TTL_MS);
      await writeFile(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
      send({ type: 'paired', key: spec.key, deviceId: credentials.deviceId });
      return credentials;
    } catch (error) {
      if (stopping) throw error;
      // Not added before the code expired (or the server was busy): ask for a new code.
      await sleep(2000);
    }
  }
}

/**
 * What a demo player can truly report: no address of its own (the server records the one it
 * sees), no MAC, and the storage of the disk its state lives on (refreshed each minute).
 */
let facts: { net: { ip: string; mac: string }; storage?: { usedBytes: number; freeBytes: number } } = {
  net: { ip: '', mac: '' },
};
async function measureStorage(dir: string) {
  try {
    const s = await statfs(dir);
    facts = { ...facts, storage: { usedBytes: (s.blocks - s.bfree) * s.bsize, freeBytes: s.bavail * s.bsize } };
  } catch {
    // keep the last reading
  }
}

async function runPlayer(start: FleetStart, spec: FleetPlayerSpec): Promise<void> {
  const file = join(start.stateDir, `${spec.key}.json`);
  if (existsSync(join(start.stateDir, `${spec.key}.removed.json`))) return;
  let player: HeadlessPlayer;
  const content = new ContentPlayer({
    server: start.server,
    credentials: () => player.credentials,
    uploadEverySec: start.uploadEverySec,
    onUploaded: (accepted) => {
      if (accepted > 0) send({ type: 'plays', key: spec.key, deviceId: player.deviceId, accepted });
    },
    onManifest: (manifest) =>
      send({
        type: 'manifest',
        key: spec.key,
        deviceId: player.deviceId,
        version: manifest.version,
        items: manifest.items.length,
      }),
    onReportChange: () => player.heartbeat(),
  });
  player = new HeadlessPlayer({
    server: start.server,
    number: spec.number,
    version: 'headless-demo-1.0.0',
    content: () => content.report(),
    facts: () => facts,
    syncContent: () => content.sync(),
    timeZone: () => content.manifest?.timeZone,
  });
  const credentials = (await loadCredentials(file)) ?? (await pairNew(player, spec, file));
  for (;;) {
    if (stopping) return;
    try {
      await player.connect(credentials);
      break;
    } catch (error) {
      // Refused by the broker: ask the server why (docs/device-protocol.md 2.4).
      const why = await player.checkStatus(credentials).then(
        () => null,
        (e: unknown) => e,
      );
      if (why instanceof DeviceApiError && why.code === ErrorCode.DEVICE_REMOVED) {
        // Someone deleted the demo device: it stays deleted (no new pairing behind their back).
        await rename(file, join(start.stateDir, `${spec.key}.removed.json`)).catch(() => {});
        send({ type: 'removed', key: spec.key });
        return;
      }
      send({ type: 'error', key: spec.key, message: String((why as Error)?.message ?? error) });
      await sleep(10_000);
    }
  }
  running.push({ player, content });
  watchRefusals(start, spec, player, content);
  send({ type: 'online', key: spec.key, deviceId: credentials.deviceId });
  content.start();
  for (let attempt = 0; !stopping; attempt++) {
    try {
      await content.sync();
      break;
    } catch {
      await sleep(Math.min(60_000, 2000 * 2 ** attempt));
    }
  }
}

/**
 * After the first connection the MQTT client reconnects by itself; a broker that refuses it
 * (the device was deleted or disabled) would be asked again every second. On a refusal the
 * player asks the server why: deleted, it stops for good (its credentials file renamed, so
 * no later start pairs it again behind the operator's back); otherwise it backs off to a
 * try every 30 s until a connection succeeds.
 */
function watchRefusals(start: FleetStart, spec: FleetPlayerSpec, player: HeadlessPlayer, content: ContentPlayer) {
  const client = player.client;
  if (!client) return;
  let asking = false;
  client.on('connect', () => {
    client.options.reconnectPeriod = 1000;
  });
  client.on('error', (error: Error & { code?: unknown }) => {
    if (typeof error.code !== 'number' || asking || stopping) return;
    asking = true;
    client.options.reconnectPeriod = 30_000;
    void player
      .checkStatus()
      .then(
        () => null,
        (e: unknown) => e,
      )
      .then(async (why) => {
        if (why instanceof DeviceApiError && why.code === ErrorCode.DEVICE_REMOVED) {
          await content.stop().catch(() => {});
          player.kill();
          const file = join(start.stateDir, `${spec.key}.json`);
          await rename(file, join(start.stateDir, `${spec.key}.removed.json`)).catch(() => {});
          send({ type: 'removed', key: spec.key });
        }
      })
      .finally(() => {
        asking = false;
      });
  });
}

async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    // A bounded stop: a player that cannot say goodbye is left to its last will.
    const stopped = Promise.all(running.map((r) => Promise.all([r.content.stop(), r.player.stop()]).catch(() => {})));
    await Promise.race([stopped, sleep(5000)]);
  }
  process.exit(code);
}

process.once('SIGTERM', () => void stopAll(0));
process.once('SIGINT', () => void stopAll(0));
// The parent closed the channel or died: nobody supervises this process any more.
process.once('disconnect', () => void stopAll(0));

process.once('message', (message: FleetStart) => {
  if (message?.type !== 'start') return void stopAll(2);
  void (async () => {
    await mkdir(message.stateDir, { recursive: true, mode: 0o700 });
    await measureStorage(message.stateDir);
    setInterval(() => void measureStorage(message.stateDir), 60_000).unref();
    await Promise.all(
      message.players.map((spec) =>
        runPlayer(message, spec).catch((error) => {
          if (!stopping) send({ type: 'error', key: spec.key, message: String(error?.message ?? error) });
        }),
      ),
    );
  })();
});
