// Several instances on one PostgreSQL (docs/operations.md):
// (a) the signed-call throughput of one instance on PostgreSQL against a bare Fastify route,
//     with the shared replay guard (one insert per call, grouped) and the session cache;
// (b) two instances (two processes) on the same database against one, the load split
//     between them as a load balancer would;
// (c) the replay guard's store: a PostgreSQL insert against a Redis SET NX (REDIS_URL or
//     127.0.0.1:6379), one at a time and 32 at once, to decide whether Redis would pay;
// (d) the device channel across the two instances, each with its default embedded broker: a
//     headless player paired and connected through the first, BENCH_COMMANDS (20) commands
//     sent through each instance (call -> the player has it), then the first instance
//     stopped (SIGTERM): how long until the player is connected through the second and the
//     registry shows it online there (issue 25).
// BENCH_DATABASE_URL (default TEST_DATABASE_URL or the local server) names the server; the
// bench makes and drops a database of its own there.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { endpoints, type LoginResponse } from '@marquee/protocol';
import pg from 'pg';
import { HeadlessPlayer } from '../apps/server/src/player/player.js';
import {
  callApi,
  combine,
  freePort,
  type LoadResult,
  load,
  percentile,
  post,
  root,
  signed,
  startServer,
  stop,
  waitForPort,
} from './lib.js';

const DURATION = Number(process.env.BENCH_MS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const PORTS = [await freePort(), await freePort()];
const BARE_PORT = await freePort();
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${r.requests} requests, ${r.errors} errors`;

const name = `mq_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database "${name}"`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const databaseUrl = url.toString();

const servers: Awaited<ReturnType<typeof startServer>>['child'][] = [];
const bare = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/bare-server.ts')], {
  cwd: root,
  env: { ...process.env, PORT: String(BARE_PORT) },
  stdio: 'inherit',
});
try {
  // One after the other: the first migrates and seeds, the second finds both done.
  for (const port of PORTS) {
    const { child } = await startServer({
      port,
      dataDir: join(root, `.tmp/bench-multi-${PORTS.indexOf(port)}`),
      fresh: true,
      env: { DATABASE_URL: databaseUrl, SKIP_WEB_BUILD: '1' },
    });
    servers.push(child);
  }
  await waitForPort(BARE_PORT, bare);
  const login = await callApi<LoginResponse>(PORTS[0], endpoints.login.path, {
    loginName: 'entadmin',
    password: 'Marquee@2026',
  });
  if (login.code !== 0) throw new Error(`login failed: ${JSON.stringify(login)}`);
  const token = login.payload.token;
  const noticeOn = (port: number) => async () => {
    const { url: path, body } = signed(endpoints.noticeList.path, { page: 1, size: 10, pushPlatform: 1 }, token);
    const res = await post(port, path, body);
    if (!res.text.startsWith('{"code":0')) throw new Error(res.text.slice(0, 200));
  };
  let turn = 0;
  // A round-robin balancer over both instances: the token of a login on one works on the other.
  const noticeOnBoth = () => noticeOn(PORTS[turn++ % 2])();
  const bareCall = async () => {
    const { url: path, body } = signed('/bare', { page: 1, size: 10, pushPlatform: 1 }, token);
    await post(BARE_PORT, path, body);
  };
  await load(noticeOn(PORTS[0]), CONCURRENCY, 1000);
  await load(noticeOnBoth, CONCURRENCY, 1000);
  await load(bareCall, CONCURRENCY, 1000);
  // Alternate short rounds so background load on this shared machine hits every side alike.
  const ROUNDS = 4;
  const one: LoadResult[] = [];
  const two: LoadResult[] = [];
  const bareRounds: LoadResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    one.push(await load(noticeOn(PORTS[0]), CONCURRENCY, DURATION / ROUNDS));
    two.push(await load(noticeOnBoth, CONCURRENCY, DURATION / ROUNDS));
    bareRounds.push(await load(bareCall, CONCURRENCY, DURATION / ROUNDS));
  }
  const oneR = combine(one);
  const twoR = combine(two);
  const bareR = combine(bareRounds);
  console.log(`PostgreSQL, concurrency ${CONCURRENCY}, ${DURATION} ms each`);
  console.log(`signed notice.list, 1 instance : ${fmt(oneR)}`);
  console.log(`signed notice.list, 2 instances: ${fmt(twoR)}`);
  console.log(`bare Fastify route             : ${fmt(bareR)}`);
  console.log(`ratio (1 instance / bare): ${(oneR.rps / bareR.rps).toFixed(2)}  (aim >= 0.5)`);
  console.log(`ratio (2 instances / 1): ${(twoR.rps / oneR.rps).toFixed(2)}`);

  // (d) The device channel across instances.
  const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 20);
  const probe = new pg.Client({ connectionString: databaseUrl });
  await probe.connect();
  const presence = async (id: string) =>
    (
      await probe.query<{ status: string; instance: string | null }>(
        'select d.status, c.instance_id as instance from devices d left join device_connections c on c.device_id = d.id where d.id = $1',
        [id],
      )
    ).rows[0];
  const until = async <T>(what: string, check: () => Promise<T | undefined>, ms = 30_000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  // Both instances have announced their brokers to each other (registry heartbeat 5 s at most).
  await until('instances registered', async () => {
    const n = await probe.query("select count(*)::int as n from server_instances where broker_urls <> '[]'::jsonb");
    return n.rows[0].n >= 2 ? true : undefined;
  });
  const player = new HeadlessPlayer({ server: `http://127.0.0.1:${PORTS[0]}`, heartbeatSec: 5 });
  try {
    const pairing = await player.pair();
    const credentials = player.awaitCredentials(pairing, 20_000);
    const added = await callApi<{ id: string }>(
      PORTS[0],
      endpoints.deviceAdd.path,
      { code: pairing.code, name: 'Bench failover' },
      token,
    );
    if (added.code !== 0) throw new Error(`device.add ${added.code} ${added.message}`);
    const urls = (await credentials).brokerUrls;
    if (!urls.some((u) => u.includes(`:${PORTS[1]}/`))) throw new Error(`no second broker in ${urls.join(', ')}`);
    await player.connect();
    const id = player.deviceId;
    const first = await until('online through the first instance', async () => {
      const p = await presence(id);
      return p?.status === 'online' && p.instance ? p.instance : undefined;
    });
    const commandVia = async (port: number, level: number) => {
      const started = performance.now();
      const received = new Promise<number>((resolve) => {
        const off = player.onCommandReceived((c) => {
          if (c.kind === 'volume' && c.params.level === level) {
            off();
            resolve(performance.now() - started);
          }
        });
      });
      const answer = await callApi(
        port,
        endpoints.deviceSendCommand.path,
        { deviceIds: [id], kind: 'volume', params: { level } },
        token,
      );
      if (answer.code !== 0) throw new Error(`sendCommand ${answer.code} ${answer.message}`);
      return Promise.race([
        received,
        new Promise<number>((_, reject) =>
          setTimeout(() => reject(new Error(`command through :${port} not received in 10 s`)), 10_000),
        ),
      ]);
    };
    const same: number[] = [];
    const across: number[] = [];
    for (let i = 0; i < COMMANDS; i++) {
      same.push(await commandVia(PORTS[0], i % 100));
      across.push(await commandVia(PORTS[1], (i + 50) % 100));
    }
    const show = (label: string, values: number[]) => {
      const sorted = [...values].sort((x, y) => x - y);
      console.log(
        `${label}: p50 ${percentile(sorted, 50).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (${values.length} of ${COMMANDS} received)`,
      );
    };
    show('command -> player, through the instance holding the player', same);
    show('command -> player, through the other instance (relayed)   ', across);
    console.log(`broker URLs in the credentials: ${player.credentials?.brokerUrls.join(', ')}`);
    let reconnectedAt = 0;
    player.client?.on('connect', () => {
      reconnectedAt ||= performance.now();
    });
    const stopping = performance.now();
    const stopped = stop(servers[0]);
    const onSecond = await until('online through the second instance', async () => {
      const p = await presence(id);
      return p?.status === 'online' && p.instance && p.instance !== first ? performance.now() : undefined;
    });
    await stopped;
    console.log(
      `failover: the first instance stopped (SIGTERM) -> player connected to the second ${(reconnectedAt - stopping).toFixed(0)} ms, shown online there ${(onSecond - stopping).toFixed(0)} ms; the stop itself took ${(performance.now() - stopping).toFixed(0)} ms`,
    );
    const after = await commandVia(PORTS[1], 99);
    console.log(`command -> player after the failover: ${after.toFixed(1)} ms`);
  } finally {
    player.kill();
    await probe.end();
  }
} finally {
  for (const child of servers) await stop(child);
  await stop(bare);
}

// (c) The replay guard's store, alone: what one accepted call costs in each.
const db = new pg.Pool({ connectionString: databaseUrl, max: 10 });
db.on('error', () => {});
let n = 0;
// The guard's statement as it sends it (a digest and integers as literals), one key each.
const pgInsert = async () => {
  const key = createHash('sha256').update(`bench\n${process.pid}\n${n++}`).digest('hex');
  await db.query(
    `insert into replay_keys (key, expires_at) values ('${key}',${Date.now() + 300_000}) on conflict (key) do update set expires_at = excluded.expires_at where replay_keys.expires_at < ${Date.now()} returning key`,
  );
};

/** A minimal RESP client (SET NX PX replies are +OK or a nil bulk string), pipelined in order. */
class Resp {
  private pending: ((reply: string) => void)[] = [];
  private buffer = '';
  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end = this.buffer.indexOf('\r\n');
      while (end >= 0) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        this.pending.shift()?.(line);
        end = this.buffer.indexOf('\r\n');
      }
    });
  }
  static open(redisUrl: string): Promise<Resp> {
    const u = new URL(redisUrl);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(u.port || 6379), u.hostname, () => resolve(new Resp(socket)));
      socket.once('error', reject);
    });
  }
  command(...args: string[]): Promise<string> {
    return new Promise((resolve) => {
      this.pending.push(resolve);
      this.socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
    });
  }
  close() {
    this.socket.end();
  }
}

try {
  const rounds = { pg1: [] as LoadResult[], pg32: [] as LoadResult[], r1: [] as LoadResult[], r32: [] as LoadResult[] };
  let redis: Resp | null = null;
  try {
    redis = await Resp.open(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  } catch (error) {
    console.log(`Redis not reachable (${(error as Error).message}): only PostgreSQL measured`);
  }
  const redisSet = async () => {
    const reply = await redis?.command('SET', `bench:${process.pid}:${n++}`, '1', 'NX', 'PX', '300000');
    if (reply !== '+OK') throw new Error(`unexpected ${reply}`);
  };
  for (let i = 0; i < 3; i++) {
    rounds.pg1.push(await load(pgInsert, 1, 700));
    rounds.pg32.push(await load(pgInsert, 32, 700));
    if (redis) {
      rounds.r1.push(await load(redisSet, 1, 700));
      rounds.r32.push(await load(redisSet, 32, 700));
    }
  }
  const show = (label: string, r: LoadResult[]) => {
    if (r.length > 0) console.log(`${label}: ${fmt(combine(r))}`);
  };
  show('replay key, PostgreSQL insert, 1 at a time ', rounds.pg1);
  show('replay key, PostgreSQL insert, 32 at once  ', rounds.pg32);
  show('replay key, Redis SET NX PX, 1 at a time   ', rounds.r1);
  show('replay key, Redis SET NX PX, 32 at once    ', rounds.r32);
  redis?.close();
} finally {
  await db.end();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
