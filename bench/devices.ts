// The device channel (issue 9): N headless players paired, connected and heartbeating every
// 30 s against (a) the embedded broker and (b) a Mosquitto with dynamic security started here
// on its own ports. Prints how many are online, the server's CPU and memory while they
// heartbeat, and command-to-ack latency p50/p95/p99. Figures, never assertions.
//
//   npx tsx bench/devices.ts        BENCH_DEVICES=1000 (default), BENCH_BROKERS=embedded,mosquitto
//   BENCH_DEVICES=10000 BENCH_WORKERS=4 npx tsx bench/devices.ts
//
// How: the server is `npm start`'s entry in its own process (PGlite in DATA_DIR, so the
// database's work is the server's too); the players run in BENCH_WORKERS child processes
// (bench/devices-players.ts), so the server's CPU (utime + stime from /proc/<pid>/stat over
// BENCH_PERIODS heartbeat periods) and RSS are its own. Every device is paired through the
// real calls (pairing code -> console device.add -> credentials), once, on the embedded
// broker. For Mosquitto the same devices' dynsec clients and roles (exactly what the server's
// provisioning creates) are written into the broker's dynsec file before it starts, and the
// server then runs on the same data directory with MQTT_URL: Mosquitto 2.0 rewrites its whole
// dynsec file on every change, so provisioning 10,000 devices live costs O(N^2) on the broker
// (hours); the cost of one live activation at that size is measured and printed instead.
// Latency: the console call device.sendCommand -> the player has the command (reported by
// its worker), and -> the ack recorded (the command's ackedAt, same machine clock).
// Over the window: the connected count every heartbeat period (asked of the workers) and the
// heartbeats per second the server handled (its gateway's 'device messages' log line, one a
// minute: BENCH_PERIODS >= 4 to see two or more). A 10,000 fleet needs `ulimit -n` above
// 10,000 for Mosquitto (its sockets) and for the workers together (see docs/operations.md):
//   BENCH_DEVICES=10000 BENCH_BROKERS=mosquitto BENCH_PERIODS=6 npm run bench -- devices
// A fleet of that size runs on PostgreSQL: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
// (a scratch database, dropped at the end). On PGlite the database works on the server's own
// thread, and at 10,000 connecting players its writes held the event loop past the MQTT
// keepalive (the broker's PINGRESP waited in the socket: 'Keepalive timeout'). MOSQUITTO_LOG_NOTICE=1
// adds Mosquitto's connection log to its printed tail.
import { type ChildProcess, fork } from 'node:child_process';
import { pbkdf2Sync, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DeviceCredentials,
  deviceCredentialsSchema,
  deviceHttpCalls,
  endpoints,
  pairingAnswerSchema,
} from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { sha256 } from '../apps/server/src/modules/devices/repository.js';
import { DynsecAccounts, dynsecRoleName } from '../apps/server/src/mqtt/accounts.js';
import { mosquittoMissing, startMosquitto, type TestMosquitto } from '../apps/server/test/devices/mosquitto.js';
import { callApi, freePort, percentile, scratchDatabase, startServer, stop } from './lib.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const BROKERS = (process.env.BENCH_BROKERS ?? 'embedded,mosquitto').split(',');
const HEARTBEAT_SEC = Number(process.env.BENCH_HEARTBEAT_SEC ?? 30);
const PERIODS = Number(process.env.BENCH_PERIODS ?? 2);
const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 200);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const LIVE_ACTIVATIONS = Number(process.env.BENCH_LIVE_ACTIVATIONS ?? 10);
// How many devices enrol through the real calls (pair, console add, credentials; timed); the
// rest of the fleet is written into the registry directly as enrolment leaves it (a device
// row with the sha256 of its password), with the server stopped: enrolling 10,000 through
// the calls took 24 minutes and measures enrolment, not a connected fleet. BENCH_ENROL=all.
const ENROL = process.env.BENCH_ENROL === 'all' ? DEVICES : Math.min(DEVICES, Number(process.env.BENCH_ENROL ?? 200));
// Ports 18770-18799 by default: server, embedded MQTT over TCP, Mosquitto TCP and WebSocket.
const PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
const MQTT_TCP = await freePort();
const MOSQUITTO_PORT = await freePort();
const MOSQUITTO_WS_PORT = await freePort();
/** The server limits pairing requests per address: spread them over loopback addresses. */
const PER_ADDRESS = 25;
const here = dirname(fileURLToPath(import.meta.url));
const dataDir = join(tmpdir(), `marquee-bench-devices-${process.env.BENCH_PORT ?? 'default'}`);
// BENCH_DATABASE_URL=postgres://...: the server on a scratch PostgreSQL database made there
// (dropped at the end) instead of PGlite in its data directory, as a fleet of this size runs.
const scratch = process.env.BENCH_DATABASE_URL ? await scratchDatabase('mq_bench_devices') : null;
const pgUrl = scratch?.url;
const f = (n: number, d = 1) => n.toFixed(d);
const epoch = () => performance.timeOrigin + performance.now();
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

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

async function login(): Promise<string> {
  const answer = await callApi<{ token: string }>(PORT, endpoints.login.path, {
    loginName: 'entadmin',
    password: 'Marquee@2026',
  });
  return answer.payload.token;
}

function serverEnv(extra: Record<string, string>) {
  // info: the gateway's 'device messages' lines (the others at info are few: startup, jobs).
  return {
    SKIP_WEB_BUILD: '1',
    WEB_DIST: '/nonexistent',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
    ...extra,
  };
}

/** The server's 'device messages' lines: heartbeats per second it handled (one a minute). */
const gatewayStats: { at: number; heartbeatsPerSec: number }[] = [];

async function launch(extra: Record<string, string>, fresh: boolean): Promise<ChildProcess> {
  const { child } = await startServer({ port: PORT, dataDir, fresh, env: serverEnv(extra) });
  child.on('exit', (code, signal) => {
    console.error(`server exited: code ${code}, signal ${signal}`);
  });
  // The server's warnings and errors (its stdout is otherwise dropped).
  child.stdout?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (/"level":(40|50|60)|"msg":"shutting down"/.test(line))
        process.stderr.write(`server: ${line.slice(0, 1500)}\n`);
      // The gateway's line of messages handled (GATEWAY_STATS_MS): heartbeats per second.
      const hb = /"heartbeatsPerSec":([\d.]+).*"msg":"device messages"/.exec(line);
      if (hb) gatewayStats.push({ at: performance.now(), heartbeatsPerSec: Number(hb[1]) });
    }
  });
  return child;
}

/** Writes each device's dynsec client and role (as DynsecAccounts.provision makes them) into the file. */
function seedDynsec(file: string, fleet: DeviceCredentials[]) {
  const config = JSON.parse(readFileSync(file, 'utf8')) as { clients: unknown[]; roles: unknown[] };
  for (const c of fleet) {
    const salt = randomBytes(12);
    const hash = pbkdf2Sync(c.password, salt, 101, 64, 'sha512');
    const rolename = dynsecRoleName(c.deviceId);
    config.roles.push({ rolename, acls: DynsecAccounts.acls(c.deviceId) });
    config.clients.push({
      username: c.username,
      clientid: c.clientId,
      password: hash.toString('base64'),
      salt: salt.toString('base64'),
      iterations: 101,
      roles: [{ rolename }],
    });
  }
  writeFileSync(file, JSON.stringify(config));
}

/** The players in WORKERS processes; resolves once every player connected (or failed). */
async function startPlayers(fleet: DeviceCredentials[], brokerUrl: string) {
  const workers: ChildProcess[] = [];
  const received = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const counting = new Map<ChildProcess, (connected: number) => void>();
  let ok = 0;
  let failed = 0;
  const per = Math.ceil(fleet.length / WORKERS);
  await Promise.all(
    Array.from({ length: WORKERS }, (_, w) => {
      const slice = fleet.slice(w * per, (w + 1) * per);
      const worker = fork(join(here, 'devices-players.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
      workers.push(worker);
      return new Promise<void>((resolve) => {
        worker.on(
          'message',
          (m: { type: string; id: string; at: number; ok: number; failed: number; connected: number }) => {
            if (m.type === 'received') {
              const wake = waiting.get(m.id);
              if (wake) wake(m.at);
              else received.set(m.id, m.at);
            } else if (m.type === 'count') {
              counting.get(worker)?.(m.connected);
            } else if (m.type === 'connected') {
              ok += m.ok;
              failed += m.failed;
              resolve();
            }
          },
        );
        worker.send({ type: 'start', credentials: slice, brokerUrl, heartbeatSec: HEARTBEAT_SEC });
      });
    }),
  );
  return {
    ok,
    failed,
    /** When the player got command `id` (epoch ms). */
    receipt(id: string): Promise<number> {
      const at = received.get(id);
      if (at !== undefined) return Promise.resolve(at);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    /** How many players are connected now, over all workers. */
    async connected(): Promise<number> {
      const counts = await Promise.all(
        workers.map(
          (w) =>
            new Promise<number>((resolve) => {
              counting.set(w, resolve);
              w.send({ type: 'count' });
            }),
        ),
      );
      return counts.reduce((a, b) => a + b, 0);
    },
    stop() {
      for (const w of workers) if (w.connected) w.send({ type: 'stop' });
    },
  };
}

/** Connects the fleet, waits for it online, measures CPU and memory, then command latency. */
async function measure(
  label: string,
  server: ChildProcess,
  token: string,
  fleet: DeviceCredentials[],
  brokerUrl: string,
  brokerPid?: number,
) {
  const serverPid = server.pid as number;
  let t = performance.now();
  const players = await startPlayers(fleet, brokerUrl);
  try {
    const connectSec = (performance.now() - t) / 1000;
    const list = async (page: number) =>
      (
        await callApi<{ total: number; totalCapped?: boolean; data: unknown[] }>(
          PORT,
          endpoints.deviceList.path,
          { status: 'online', page, size: 10 },
          token,
        )
      ).payload;
    // How many are online: device.list's total, or past its cap (totalCapped) found by probing pages.
    const online = async () => {
      const first = await list(1);
      if (!first.totalCapped) return first.total;
      let lo = first.total;
      let hi = fleet.length + LIVE_ACTIVATIONS;
      // Whether the k-th online device exists (pages of 10).
      const exists = async (k: number) =>
        (await list(Math.ceil(k / 10))).data.length >= k - (Math.ceil(k / 10) - 1) * 10;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (await exists(mid)) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    let onlineCount = await online();
    for (let i = 0; i < 120 && onlineCount < players.ok; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      onlineCount = await online();
    }
    const onlineSec = (performance.now() - t) / 1000;

    // PERIODS heartbeat periods with everyone connected: the server's (and broker's) CPU and memory.
    const before = usage(serverPid);
    const brokerBefore = brokerPid ? usage(brokerPid) : null;
    t = performance.now();
    // The connected count held over the window, sampled every heartbeat period.
    const held: number[] = [];
    for (let p = 0; p < PERIODS; p++) {
      await new Promise((r) => setTimeout(r, HEARTBEAT_SEC * 1000));
      held.push(await players.connected());
    }
    const windowSec = (performance.now() - t) / 1000;
    const rates = gatewayStats.filter((s) => s.at >= t).map((s) => s.heartbeatsPerSec);
    const after = usage(serverPid);
    const cpuPct = ((after.cpuSec - before.cpuSec) / windowSec) * 100;
    const brokerAfter = brokerPid ? usage(brokerPid) : null;
    const loadDuring = load();

    // Command -> receipt and -> ack recorded: one console call at a time, devices spread over the fleet.
    const toDevice: number[] = [];
    const sent: { deviceId: string; id: string; start: number }[] = [];
    for (let i = 0; i < COMMANDS; i++) {
      const device = fleet[Math.floor((i * fleet.length) / COMMANDS)];
      const start = epoch();
      const answer = await callApi<{ commands: { id: string; deviceId: string }[] }>(
        PORT,
        endpoints.deviceSendCommand.path,
        { deviceIds: [device.deviceId], kind: 'volume', params: { level: i % 100 } },
        token,
      );
      if (answer.code !== 0) throw new Error(`sendCommand ${answer.code} ${answer.message}`);
      const { id } = answer.payload.commands[0];
      sent.push({ deviceId: device.deviceId, id, start });
      const got = await Promise.race([
        players.receipt(id),
        new Promise<number>((r) => setTimeout(() => r(Number.NaN), 10_000)),
      ]);
      toDevice.push(got - start);
    }
    await new Promise((r) => setTimeout(r, 2000));
    const toAck: number[] = [];
    for (const { deviceId, id, start } of sent) {
      const rows = await callApi<{ data: { state: string; ackedAt: string | null }[] }>(
        PORT,
        endpoints.deviceCommands.path,
        { deviceId, ids: [id] },
        token,
      );
      const row = rows.payload.data[0];
      if (row?.state === 'acknowledged' && row.ackedAt) toAck.push(Date.parse(row.ackedAt) - start);
    }
    const lost = toDevice.filter((x) => Number.isNaN(x)).length;
    const delivered = toDevice.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
    toAck.sort((a, b) => a - b);
    const pcts = (xs: number[]) =>
      `p50 ${f(percentile(xs, 50))} ms, p95 ${f(percentile(xs, 95))} ms, p99 ${f(percentile(xs, 99))} ms`;
    console.log(
      [
        `${label}: ${fleet.length} players in ${WORKERS} processes (heartbeat ${HEARTBEAT_SEC} s)`,
        `  connected ${players.ok} (${players.failed} failed) in ${f(connectSec)} s; online ${onlineCount} after ${f(onlineSec)} s`,
        `  server over ${PERIODS} heartbeat periods (${f(windowSec, 0)} s): CPU ${f(cpuPct)}% of one core, RSS ${f(after.rssMb)} MB` +
          (brokerBefore && brokerAfter
            ? `; mosquitto CPU ${f(((brokerAfter.cpuSec - brokerBefore.cpuSec) / windowSec) * 100)}%, RSS ${f(brokerAfter.rssMb)} MB`
            : ''),
        `  connected every ${HEARTBEAT_SEC} s over the window: ${held.join(', ')} (min ${Math.min(...held)})`,
        `  heartbeats handled by the server (its 'device messages' lines): ${rates.length ? rates.map((r) => `${f(r)}/s`).join(', ') : 'none logged in the window'} (expected ${f(players.ok / HEARTBEAT_SEC)}/s)`,
        `  load average (1, 5, 15 min) at the end of the window: ${loadDuring}`,
        `  command -> player has it: ${pcts(delivered)} over ${COMMANDS} commands${lost ? ` (${lost} not received in 10 s)` : ''}`,
        `  command -> ack recorded:  ${pcts(toAck)}; ${toAck.length} acknowledged`,
      ].join('\n'),
    );
  } finally {
    players.stop();
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/**
 * Writes `count` more devices into the stopped server's PGlite registry as enrolment leaves
 * them (copying the enrolled `template`'s enterprise, department and owner; status
 * activating, the sha256 of a new password) and returns their credentials.
 */
async function provisionDirectly(template: DeviceCredentials, count: number): Promise<DeviceCredentials[]> {
  const fleet = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    return {
      ...template,
      deviceId: id,
      username: id,
      clientId: id,
      topicPrefix: template.topicPrefix.replace(template.deviceId, id),
      name: `Bench ${ENROL + i}`,
      password: randomBytes(24).toString('base64url'),
      i,
    };
  });
  const database = await openDatabase(pgUrl ? { databaseUrl: pgUrl } : { pgliteDir: join(dataDir, 'pglite') });
  try {
    for (let from = 0; from < fleet.length; from += 1000) {
      const chunk = fleet.slice(from, from + 1000);
      await database.db.execute(sql`
        insert into devices (id, ent_id, dept_id, owner_id, name, status, secret_hash, heartbeat_sec,
          activated_at, status_at, created_at, updated_at)
        select v.id, t.ent_id, t.dept_id, t.owner_id, v.name, 'activating', v.hash, t.heartbeat_sec, now(), now(), now(), now()
        from devices t, unnest(${`{${chunk.map((c) => c.deviceId).join(',')}}`}::text[],
          ${`{${chunk.map((c) => sha256(c.password)).join(',')}}`}::text[],
          ${`{${chunk.map((c) => `"Bench ${ENROL + c.i}"`).join(',')}}`}::text[]) as v(id, hash, name)
        where t.id = ${template.deviceId}`);
    }
  } finally {
    await database.close();
  }
  return fleet.map(({ i: _, ...c }) => deviceCredentialsSchema.parse(c));
}

let server: ChildProcess | null = null;
let mosquitto: TestMosquitto | null = null;
try {
  // Enrolment, on the embedded broker: every device paired through the real calls.
  console.log(`load average at start: ${load()}`);
  server = await launch({ MQTT_TCP_PORT: String(MQTT_TCP) }, true);
  let token = await login();
  let t = performance.now();
  const fleet = await pool(ENROL, 16, (i) => pairOne(i, token));
  const pairSec = (performance.now() - t) / 1000;
  console.log(`enrolment: ${ENROL} devices paired, added and activated in ${f(pairSec)} s (${f(ENROL / pairSec)}/s)`);
  if (ENROL < DEVICES) {
    await stop(server);
    server = null;
    t = performance.now();
    fleet.push(...(await provisionDirectly(fleet[0], DEVICES - ENROL)));
    console.log(
      `registry: ${DEVICES - ENROL} more devices written as enrolment leaves them in ${f((performance.now() - t) / 1000)} s`,
    );
    server = await launch({ MQTT_TCP_PORT: String(MQTT_TCP) }, false);
    token = await login();
  }

  if (BROKERS.includes('embedded')) {
    await measure('embedded', server, token, fleet, `mqtt://127.0.0.1:${MQTT_TCP}`);
  }
  await stop(server);
  server = null;

  if (BROKERS.includes('mosquitto')) {
    if (mosquittoMissing) {
      console.log(`mosquitto: skipped (${mosquittoMissing})`);
    } else {
      t = performance.now();
      mosquitto = await startMosquitto({ port: MOSQUITTO_PORT, wsPort: MOSQUITTO_WS_PORT }, async (file) =>
        seedDynsec(file, fleet),
      );
      console.log(
        `mosquitto: ${DEVICES} device clients and roles in its dynsec file, started in ${f((performance.now() - t) / 1000)} s`,
      );
      server = await launch(
        {
          MQTT_URL: mosquitto.url,
          MQTT_USERNAME: mosquitto.admin.username,
          MQTT_PASSWORD: mosquitto.admin.password,
          MQTT_DYNSEC: '1',
          MQTT_PUBLIC_URLS: mosquitto.url,
          MQTT_TCP_PORT: '0',
        },
        false,
      );
      token = await login();
      // Live activations with the fleet's clients in dynsec: the broker's cost of one more device.
      if (LIVE_ACTIVATIONS > 0) {
        const times: number[] = [];
        await pool(LIVE_ACTIVATIONS, 1, async (i) => {
          const start = performance.now();
          await pairOne(DEVICES + i, token);
          times.push(performance.now() - start);
        });
        times.sort((a, b) => a - b);
        console.log(
          `mosquitto: one more activation (pair + add + credentials, dynsec provisioning) with ${DEVICES} clients: median ${f(percentile(times, 50), 0)} ms over ${LIVE_ACTIVATIONS}`,
        );
      }
      await measure('mosquitto', server, token, fleet, mosquitto.url, mosquitto.pid);
    }
  }
} finally {
  if (server) await stop(server);
  if (mosquitto?.log()) console.error(`mosquitto's log:\n${mosquitto.log().slice(-3000)}`);
  await mosquitto?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop();
}
process.exit(0);
