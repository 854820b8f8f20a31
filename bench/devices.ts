// The device channel (issue 9): N headless players paired, connected and heartbeating every
// 30 s against (a) the embedded broker and (b) a Mosquitto with dynamic security started here
// on its own ports; prints how many are online, the server's CPU and memory while they
// heartbeat, and command-to-ack latency p50/p95/p99 (console call -> the player has the
// command and answers; the ack is then checked recorded). Figures, never assertions.
//
//   npx tsx bench/devices.ts            BENCH_DEVICES=1000 (default), BENCH_BROKERS=embedded,mosquitto
//   BENCH_DEVICES=5000 BENCH_BROKERS=mosquitto npx tsx bench/devices.ts
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DeviceCredentials,
  deviceCredentialsSchema,
  deviceHttpCalls,
  endpoints,
  pairingAnswerSchema,
} from '@marquee/protocol';
import { HeadlessPlayer } from '../apps/server/src/player/player.js';
import { mosquittoMissing, startMosquitto, type TestMosquitto } from '../apps/server/test/devices/mosquitto.js';
import { callApi, percentile, startServer, stop } from './lib.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const BROKERS = (process.env.BENCH_BROKERS ?? 'embedded,mosquitto').split(',');
const HEARTBEAT_SEC = 30;
const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 200);
const PORT = Number(process.env.BENCH_PORT ?? 18770);
const MQTT_TCP = PORT + 1;
/** The server limits pairing requests per address: spread them over loopback addresses. */
const PER_ADDRESS = 25;

function postJson(path: string, body: unknown, localAddress: string): Promise<{ code: number; payload: unknown }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: PORT,
        path,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Pairs device `i` (code from its own loopback address), adds it through the console, collects its credentials. */
async function pairOne(i: number, token: string): Promise<DeviceCredentials> {
  const local = `127.0.${1 + Math.floor(i / (PER_ADDRESS * 250))}.${2 + (Math.floor(i / PER_ADDRESS) % 250)}`;
  const pairing = await postJson(deviceHttpCalls.pair.path, {}, local);
  if (pairing.code !== 0) throw new Error(`pairing ${pairing.code}`);
  const p = pairingAnswerSchema.parse(pairing.payload);
  const added = await callApi(PORT, endpoints.deviceAdd.path, { code: p.code, name: `Bench ${i}` }, token);
  if (added.code !== 0) throw new Error(`device.add ${added.code} ${added.message}`);
  const creds = await postJson(
    deviceHttpCalls.credentials.path,
    { pairingId: p.pairingId, pollToken: p.pollToken },
    local,
  );
  if (creds.code !== 0) throw new Error(`credentials ${creds.code}`);
  return deviceCredentialsSchema.parse(creds.payload);
}

async function pool<T>(count: number, concurrency: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await work(i);
      }
    }),
  );
  return out;
}

/** utime + stime of a process in seconds, and its resident memory in MB. */
function usage(pid: number): { cpuSec: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuSec: ticks / 100, rssMb: Number(rss?.[1] ?? 0) / 1024 };
}

async function run(broker: 'embedded' | 'mosquitto') {
  let mosquitto: TestMosquitto | null = null;
  const env: Record<string, string> = { SKIP_WEB_BUILD: '1', WEB_DIST: '/nonexistent', HOST: '127.0.0.1' };
  if (broker === 'mosquitto') {
    if (mosquittoMissing) return console.log(`mosquitto: skipped (${mosquittoMissing})`);
    mosquitto = await startMosquitto({ port: PORT + 2, wsPort: PORT + 3 });
    Object.assign(env, {
      MQTT_URL: mosquitto.url,
      MQTT_USERNAME: mosquitto.admin.username,
      MQTT_PASSWORD: mosquitto.admin.password,
      MQTT_DYNSEC: '1',
      MQTT_PUBLIC_URLS: mosquitto.url,
      MQTT_TCP_PORT: '0',
    });
  } else {
    env.MQTT_TCP_PORT = String(MQTT_TCP);
  }
  const dataDir = join(tmpdir(), `marquee-bench-devices-${broker}`);
  const { child } = await startServer({ port: PORT, dataDir, fresh: true, env });
  // The server's warnings and errors (its stdout is otherwise dropped).
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (/"level":(40|50|60)/.test(line)) process.stderr.write(`server: ${line.slice(0, 400)}\n`);
    }
  });
  const players: HeadlessPlayer[] = [];
  try {
    const pid = child.pid as number;
    const login = await callApi<{ token: string }>(PORT, endpoints.login.path, {
      loginName: 'entadmin',
      password: 'Marquee@2026',
    });
    const token = login.payload.token;

    let t = performance.now();
    const credentials = await pool(DEVICES, 8, (i) => pairOne(i, token));
    const pairSec = (performance.now() - t) / 1000;

    const brokerUrl = broker === 'embedded' ? `mqtt://127.0.0.1:${MQTT_TCP}` : (mosquitto as TestMosquitto).url;
    t = performance.now();
    await pool(DEVICES, 50, async (i) => {
      const player = new HeadlessPlayer({ server: `http://127.0.0.1:${PORT}`, brokerUrl, heartbeatSec: HEARTBEAT_SEC });
      players.push(player);
      await player.connect(credentials[i]);
    });
    const connectSec = (performance.now() - t) / 1000;
    const online = async () =>
      (await callApi<{ total: number }>(PORT, endpoints.deviceList.path, { status: 'online', size: 10 }, token)).payload
        .total;
    let onlineCount = await online();
    for (let i = 0; i < 100 && onlineCount < DEVICES; i++) {
      await new Promise((r) => setTimeout(r, 200));
      onlineCount = await online();
    }

    // One heartbeat period with everyone connected: the server's CPU and memory.
    const before = usage(pid);
    const windowStart = performance.now();
    await new Promise((r) => setTimeout(r, HEARTBEAT_SEC * 1000));
    const after = usage(pid);
    const cpuPct = ((after.cpuSec - before.cpuSec) / ((performance.now() - windowStart) / 1000)) * 100;

    // Command to ack: one console call per command, to devices spread over the fleet.
    const latencies: number[] = [];
    const ids: { deviceId: string; id: string }[] = [];
    for (let i = 0; i < COMMANDS; i++) {
      const player = players[Math.floor((i * players.length) / COMMANDS)];
      const got = new Promise<number>((resolve) => {
        const off = player.onCommandReceived(() => {
          off();
          resolve(performance.now());
        });
      });
      const start = performance.now();
      const sent = await callApi<{ commands: { id: string; deviceId: string }[] }>(
        PORT,
        endpoints.deviceSendCommand.path,
        { deviceIds: [player.deviceId], kind: 'volume', params: { level: i % 100 } },
        token,
      );
      if (sent.code !== 0) throw new Error(`sendCommand ${sent.code}`);
      ids.push(sent.payload.commands[0]);
      latencies.push((await got) - start);
    }
    await new Promise((r) => setTimeout(r, 1000));
    let acked = 0;
    for (const { deviceId, id } of ids) {
      const rows = await callApi<{ data: { state: string }[] }>(
        PORT,
        endpoints.deviceCommands.path,
        { deviceId, ids: [id] },
        token,
      );
      if (rows.payload.data[0]?.state === 'acknowledged') acked++;
    }
    latencies.sort((a, b) => a - b);
    const f = (n: number) => n.toFixed(1);
    console.log(
      [
        `${broker}: ${DEVICES} players (heartbeat ${HEARTBEAT_SEC} s)`,
        `  paired and added in ${f(pairSec)} s, connected in ${f(connectSec)} s, online: ${onlineCount}`,
        `  server over one heartbeat period: CPU ${f(cpuPct)}% of one core, RSS ${f(after.rssMb)} MB`,
        `  command -> device: p50 ${f(percentile(latencies, 50))} ms, p95 ${f(percentile(latencies, 95))} ms, p99 ${f(percentile(latencies, 99))} ms over ${COMMANDS} commands; ${acked} acknowledged`,
      ].join('\n'),
    );
  } finally {
    for (const p of players) p.kill();
    await stop(child);
    await mosquitto?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const broker of BROKERS) await run(broker as 'embedded' | 'mosquitto');
process.exit(0);
