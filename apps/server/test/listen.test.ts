import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { ListenError, listenOnPorts } from '../src/listen.js';
import { createTestApp, type TestApp } from './helpers/index.js';

// A port the server cannot take (issue 25): another instance, or a bench, on PORT or
// MQTT_TCP_PORT. The server says in one line which port is busy and which setting moves it,
// and exits non-zero, with no stack trace.

/** Something else listening on a port of its own choosing (held until closed). */
function occupy(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
}

function release(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port free at this moment. */
async function freePort(): Promise<number> {
  const { server, port } = await occupy();
  await release(server);
  return port;
}

describe('a busy port, in-process', () => {
  let busy: { server: Server; port: number };

  beforeAll(async () => {
    busy = await occupy();
  });

  afterAll(async () => {
    await release(busy.server);
  });

  it('names the HTTP port and PORT', async () => {
    const t = await createTestApp('pglite', { config: { host: '127.0.0.1', port: busy.port } });
    try {
      const failed = await listenOnPorts(t.app, t.services.config).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(ListenError);
      expect((failed as ListenError).setting).toBe('PORT');
      expect((failed as ListenError).message).toBe(
        `Port ${busy.port} (the HTTP port, PORT) is already in use by another program: stop it, or set PORT to a free port.`,
      );
    } finally {
      await t.close();
    }
  });

  it("names the embedded broker's TCP port and MQTT_TCP_PORT", async () => {
    let t: TestApp | undefined;
    try {
      const mqtt = { ...loadConfig({}).mqtt, tcpPort: busy.port };
      t = await createTestApp('pglite', { config: { host: '127.0.0.1', port: 0, mqtt } });
      const failed = await listenOnPorts(t.app, t.services.config).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(ListenError);
      expect((failed as ListenError).setting).toBe('MQTT_TCP_PORT');
      expect((failed as ListenError).message).toMatch(
        new RegExp(`^Port ${busy.port} \\(the embedded MQTT broker's TCP port, MQTT_TCP_PORT\\) is already in use`),
      );
    } finally {
      await t?.close();
    }
  });
});

describe('a busy port, the server process', () => {
  let dataDir: string;
  let busy: { server: Server; port: number };
  const main = join(dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'marquee-listen-'));
    busy = await occupy();
  });

  afterAll(async () => {
    await release(busy.server);
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Runs main.ts to its exit; resolves with its exit code and output. */
  function run(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', main], {
        env: {
          ...process.env,
          DATABASE_URL: '',
          DATA_DIR: dataDir,
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          DEMO_PLAYERS: 'off',
          WEB_DIST: '/nonexistent-web-dist',
          PLAYER_DIST: '/nonexistent-player-dist',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk) => {
        stdout += String(chunk);
      });
      child.stderr?.on('data', (chunk) => {
        stderr += String(chunk);
      });
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it.each([
    ['PORT', 'the HTTP port, PORT'],
    ['MQTT_TCP_PORT', "the embedded MQTT broker's TCP port, MQTT_TCP_PORT"],
  ])(
    'exits non-zero with one line naming %s',
    async (setting, named) => {
      const env =
        setting === 'PORT'
          ? { PORT: String(busy.port), MQTT_TCP_PORT: 'off' }
          : { PORT: String(await freePort()), MQTT_TCP_PORT: String(busy.port) };
      const { code, stdout, stderr } = await run(env);
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      const lines = stderr.trim().split('\n');
      expect(lines).toEqual([expect.stringContaining(`Port ${busy.port} (${named}) is already in use`)]);
      // No stack trace anywhere, and never the "ready" banner.
      expect(`${stdout}${stderr}`).not.toMatch(/\n\s+at /);
      expect(stdout).not.toContain('Marquee is ready');
    },
    120_000,
  );
});
