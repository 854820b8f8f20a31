import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './helpers.js';

/**
 * A Mosquitto of a test's own (never the machine's shared one on 1883): the dynamic-security
 * plugin with a config made by `mosquitto_ctrl dynsec init`, no anonymous access, a TCP and a
 * WebSocket listener on free loopback ports.
 */

const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p));
const MOSQUITTO_CTRL = ['/usr/bin/mosquitto_ctrl', '/usr/sbin/mosquitto_ctrl'].find((p) => existsSync(p));
const DYNSEC_PLUGIN = [
  '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/mosquitto_dynamic_security.so',
].find((p) => existsSync(p));

/** Why the Mosquitto tests cannot run here, or null when they can. */
export const mosquittoMissing: string | null = !MOSQUITTO
  ? 'the mosquitto binary is absent (apt-get install mosquitto)'
  : !MOSQUITTO_CTRL
    ? 'mosquitto_ctrl is absent (apt-get install mosquitto-clients)'
    : !DYNSEC_PLUGIN
      ? 'mosquitto_dynamic_security.so is absent'
      : null;

export interface TestMosquitto {
  port: number;
  wsPort: number;
  admin: { username: string; password: string };
  url: string;
  wsUrl: string;
  /** The broker's process id (benches read its CPU and memory). */
  pid: number;
  /** What the broker wrote to stderr so far (its errors and warnings), and how it exited if it did. */
  log(): string;
  stop(): Promise<void>;
}

function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`mosquitto did not listen on ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/**
 * `ports`: fixed listener ports (benches keep to their own range), free ones otherwise;
 * `prepare`: edits the dynsec file made by `dynsec init` before the broker starts (benches).
 */
export async function startMosquitto(
  ports: { port?: number; wsPort?: number } = {},
  prepare?: (dynsecFile: string) => Promise<void>,
): Promise<TestMosquitto> {
  if (mosquittoMissing || !MOSQUITTO || !MOSQUITTO_CTRL || !DYNSEC_PLUGIN) throw new Error(mosquittoMissing ?? '');
  const dir = await mkdtemp(join(tmpdir(), 'marquee-mosquitto-'));
  const admin = { username: 'marquee-admin', password: `pw-${Math.random().toString(36).slice(2)}` };
  await promisify(execFile)(MOSQUITTO_CTRL, [
    'dynsec',
    'init',
    join(dir, 'dynsec.json'),
    admin.username,
    admin.password,
  ]);
  await prepare?.(join(dir, 'dynsec.json'));
  // A free port is only free when asked: another process (an outgoing connection's ephemeral
  // port, another test's listener) may take it before the broker binds. Free-picked ports are
  // picked again, up to three times, when the broker cannot listen.
  let port = 0;
  let wsPort = 0;
  let child: ChildProcess | null = null;
  let stderr = '';
  for (let attempt = 1; ; attempt++) {
    port = ports.port ?? (await freePort());
    wsPort = ports.wsPort ?? (await freePort());
    const conf = [
      // Run as root, mosquitto would switch to the user "mosquitto", who cannot read this directory.
      `user ${userInfo().username}`,
      'per_listener_settings false',
      'allow_anonymous false',
      `plugin ${DYNSEC_PLUGIN}`,
      `plugin_opt_config_file ${join(dir, 'dynsec.json')}`,
      'persistence false',
      'set_tcp_nodelay true',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      ...(process.env.MOSQUITTO_LOG_NOTICE ? ['log_type notice', 'log_type information'] : []),
      `listener ${port} 127.0.0.1`,
      `listener ${wsPort} 127.0.0.1`,
      'protocol websockets',
      '',
    ].join('\n');
    await writeFile(join(dir, 'mosquitto.conf'), conf);
    const started: ChildProcess = spawn(MOSQUITTO, ['-c', join(dir, 'mosquitto.conf')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    started.stderr?.on('data', (chunk) => {
      log += String(chunk);
      stderr = log;
    });
    try {
      await Promise.all([waitForPort(port), waitForPort(wsPort)]);
      child = started;
      break;
    } catch (error) {
      started.kill('SIGKILL');
      const fixed = ports.port !== undefined && ports.wsPort !== undefined;
      if (fixed || attempt >= 3 || !/Unable to create|Address already in use/i.test(log)) {
        throw new Error(`${String(error)}\n${log}`);
      }
    }
  }
  const broker = child;
  return {
    port,
    wsPort,
    admin,
    url: `mqtt://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${wsPort}`,
    pid: broker.pid ?? 0,
    log: () =>
      broker.exitCode !== null || broker.signalCode
        ? `${stderr}(exited: ${broker.exitCode ?? broker.signalCode})`
        : stderr,
    async stop() {
      if (broker.exitCode === null) {
        const exited = new Promise((resolve) => broker.once('exit', resolve));
        broker.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
