// A worker process of bench/devices.ts: runs a slice of the fleet's headless players, so the
// players' CPU is not the server's and not the parent's. Talks to the parent over IPC:
//   in:  { type: 'start', credentials, brokerUrl, heartbeatSec }   { type: 'stop' }
//   out: { type: 'connected', ok, failed }   { type: 'received', id, at } (epoch ms, sub-ms)
import type { DeviceCredentials } from '@marquee/protocol';
import { HeadlessPlayer } from '../apps/server/src/player/player.js';

const CONNECT_CONCURRENCY = 25;
const players: HeadlessPlayer[] = [];
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send?.(message);

process.on('message', async (message: { type: string } & Record<string, unknown>) => {
  if (message.type === 'stop') {
    for (const p of players) p.kill();
    process.exit(0);
  }
  if (message.type !== 'start') return;
  const credentials = message.credentials as DeviceCredentials[];
  let next = 0;
  let ok = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONNECT_CONCURRENCY }, async () => {
      while (next < credentials.length) {
        const c = credentials[next++];
        const player = new HeadlessPlayer({
          server: 'http://127.0.0.1:1',
          brokerUrl: message.brokerUrl as string,
          heartbeatSec: message.heartbeatSec as number,
        });
        player.onCommandReceived((command) => send({ type: 'received', id: command.id, at: now() }));
        try {
          await player.connect(c);
          players.push(player);
          ok++;
        } catch {
          failed++;
        }
      }
    }),
  );
  send({ type: 'connected', ok, failed });
});
process.on('disconnect', () => process.exit(0));
