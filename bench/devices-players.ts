// A worker process of bench/devices.ts: runs a slice of the fleet's headless players, so the
// players' CPU is not the server's and not the parent's. Talks to the parent over IPC:
//   in:  { type: 'start', credentials, brokerUrl, heartbeatSec }   { type: 'count' }   { type: 'stop' }
//   out: { type: 'connected', ok, failed }   { type: 'count', connected }   { type: 'received', id, at } (epoch ms, sub-ms)
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
  // How many of this worker's players are connected now (the parent samples it over the window).
  if (message.type === 'count') {
    send({ type: 'count', connected: players.filter((p) => p.client?.connected).length });
    return;
  }
  if (message.type !== 'start') return;
  const credentials = message.credentials as DeviceCredentials[];
  let next = 0;
  let ok = 0;
  let failed = 0;
  // Why connections do not hold (BENCH_TRACE=1 prints every 10 s): reconnects, closes and errors.
  const trace = { attempts: 0, closes: 0, reconnects: 0, errors: new Map<string, number>() };
  const tracer = process.env.BENCH_TRACE
    ? setInterval(() => {
        const connected = players.filter((p) => p.client?.connected).length;
        console.error(
          `players[${process.pid}]: ${next}/${credentials.length} started, ${ok} resolved, ${connected} connected now, ${trace.closes} closes, ${trace.reconnects} reconnects, errors ${JSON.stringify(Object.fromEntries(trace.errors))}`,
        );
      }, 10_000)
    : undefined;
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
          trace.attempts++;
          const connecting = player.connect(c);
          player.client?.on('close', () => trace.closes++);
          player.client?.on('reconnect', () => trace.reconnects++);
          player.client?.on('error', (e) => {
            const key = String((e as { code?: unknown }).code ?? e.message.slice(0, 40));
            trace.errors.set(key, (trace.errors.get(key) ?? 0) + 1);
          });
          await connecting;
          players.push(player);
          ok++;
        } catch {
          failed++;
        }
      }
    }),
  );
  send({ type: 'connected', ok, failed });
  if (tracer && !process.env.BENCH_TRACE_ALL) clearInterval(tracer);
});
process.on('disconnect', () => process.exit(0));
