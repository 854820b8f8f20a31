// The browser player (issue 12): figures, never assertions.
//   npm run bench -- player       (BENCH_PORT=19110, BENCH_PLAYS_SEC=10, BENCH_PLAYS_CONCURRENCY=4)
// - bundle: the player's JS + CSS + HTML as sent gzip-compressed (apps/player/dist, built first);
// - pairing to first frame: a Chromium tab opens /player/, shows its code; the console adds it
//   (device.add); the time until the tab shows its first frame (the 'nothing scheduled' screen);
// - content change to screen: a layout saved, then assigned (device.assignLayout) -> drawn;
// - plays ingest: batches of 1000 proof-of-play events POSTed by paired devices for N seconds,
//   events stored per second (each batch a new set of ids; the server inserts with ON CONFLICT).
// Run it on PostgreSQL with BENCH_DATABASE_URL=postgres://... (default: PGlite in DATA_DIR).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  type DeviceCredentials,
  deviceCredentialsSchema,
  deviceHttpCalls,
  endpoints,
  PLAYS_PATH,
  pairingAnswerSchema,
} from '@marquee/protocol';
import { chromium } from 'playwright-core';
import { callApi, freePort, root, startServer, stop } from './lib.js';

const PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
const PLAYS_SEC = Number(process.env.BENCH_PLAYS_SEC ?? 10);
const CONCURRENCY = Number(process.env.BENCH_PLAYS_CONCURRENCY ?? 4);
const BATCH = 1000;
/** A one-page layout with one text (the document of @marquee/layout, v1). */
const BENCH_LAYOUT = {
  v: 1,
  width: 1920,
  height: 1080,
  pages: [
    {
      id: 'p-1',
      name: '',
      duration: 10,
      background: { color: '#000000', materialId: null, fit: 'cover' },
      components: [
        {
          id: 'c-1',
          name: '',
          x: 100,
          y: 100,
          w: 1700,
          h: 300,
          z: 0,
          rotation: 0,
          locked: false,
          hidden: false,
          timing: { start: 0, end: null },
          rtbSlot: false,
          type: 'text',
          props: { content: 'Bench content', color: '#ffffff', fontSize: 120 },
        },
      ],
    },
  ],
};
const base = `http://127.0.0.1:${PORT}`;
const dataDir = join(tmpdir(), `marquee-bench-player-${process.env.BENCH_PORT ?? 'default'}`);

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

function bundleSize() {
  spawnSync('npm', ['run', 'build', '-w', '@marquee/player'], { cwd: root, stdio: 'ignore' });
  const dist = join(root, 'apps/player/dist');
  let raw = 0;
  let gz = 0;
  for (const path of files(dist)) {
    if (!/\.(js|css|html)$/.test(path)) continue;
    const data = readFileSync(path);
    raw += data.length;
    gz += gzipSync(data, { level: 9 }).length;
  }
  console.log(`bundle (js+css+html): ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip`);
}

async function post<T>(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; message: string; payload: T };
}

async function login(): Promise<string> {
  const answer = await callApi<{ token: string }>(PORT, endpoints.login.path, {
    loginName: 'entadmin',
    password: 'Marquee@2026',
  });
  return answer.payload.token;
}

async function pairDevice(token: string, name: string): Promise<DeviceCredentials> {
  const pairing = pairingAnswerSchema.parse((await post(deviceHttpCalls.pair.path, {})).payload);
  const added = await callApi(PORT, endpoints.deviceAdd.path, { code: pairing.code, name }, token);
  if (added.code !== 0) throw new Error(`device.add ${added.code} ${added.message}`);
  const creds = await post(deviceHttpCalls.credentials.path, {
    pairingId: pairing.pairingId,
    pollToken: pairing.pollToken,
  });
  return deviceCredentialsSchema.parse(creds.payload);
}

async function firstFrame(token: string) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`${base}/player/`);
    const code = (await page.getByTestId('pairing-code').textContent({ timeout: 30_000 }))?.trim() ?? '';
    const start = performance.now();
    const added = await callApi(PORT, endpoints.deviceAdd.path, { code, name: 'Bench tab' }, token);
    if (added.code !== 0) throw new Error(`device.add ${added.code}`);
    await page.locator('[data-testid="nothing"], [data-testid="stage"]').first().waitFor({ timeout: 60_000 });
    console.log(`pairing to first frame: ${(performance.now() - start).toFixed(0)} ms (device.add -> first screen)`);
    // Content change: a layout saved and assigned in the console -> its text on the screen.
    const saved = await callApi<{ id: string }>(
      PORT,
      endpoints.templateSave.path,
      { name: `Bench ${Date.now()}`, document: BENCH_LAYOUT },
      token,
    );
    if (saved.code !== 0) throw new Error(`template.save ${saved.code} ${saved.message}`);
    const changed = performance.now();
    const assigned = await callApi(
      PORT,
      endpoints.deviceAssignLayout.path,
      { ids: [(added.payload as { id: string }).id], layoutId: saved.payload.id },
      token,
    );
    if (assigned.code !== 0) throw new Error(`device.assignLayout ${assigned.code}`);
    await page.getByText('Bench content').waitFor({ timeout: 60_000 });
    console.log(
      `content change to screen: ${(performance.now() - changed).toFixed(0)} ms (device.assignLayout -> drawn)`,
    );
    const memory = await page.evaluate(
      () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory,
    );
    if (memory?.usedJSHeapSize)
      console.log(`player tab JS heap after start: ${(memory.usedJSHeapSize / 1048576).toFixed(1)} MB`);
  } finally {
    await browser.close();
  }
}

async function ingest(token: string) {
  const devices = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) => pairDevice(token, `Bench plays ${i}`)),
  );
  const now = Date.now();
  let stored = 0;
  let batches = 0;
  const started = performance.now();
  const deadline = started + PLAYS_SEC * 1000;
  await Promise.all(
    devices.map(async (c) => {
      const authorization = `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;
      while (performance.now() < deadline) {
        const events = Array.from({ length: BATCH }, (_, i) => ({
          id: randomUUID(),
          materialId: 'bench-material',
          layoutId: 'bench-layout',
          componentId: null,
          adId: null,
          start: now - (i % 3) * 86_400_000 - i,
          durationMs: 10_000,
          outcome: 'completed',
        }));
        const answer = await post<{ accepted: string[] }>(PLAYS_PATH, { events }, { authorization });
        if (answer.code !== 0) throw new Error(`plays ${answer.code} ${answer.message}`);
        stored += answer.payload.accepted.length;
        batches++;
      }
    }),
  );
  const sec = (performance.now() - started) / 1000;
  console.log(
    `plays ingest: ${Math.round(stored / sec)} events/s (${stored} events in ${batches} batches of ${BATCH}, ${CONCURRENCY} devices in parallel, ${sec.toFixed(1)} s)`,
  );
}

bundleSize();
const env: Record<string, string> = { HOST: '127.0.0.1', MQTT_TCP_PORT: String(await freePort()), SKIP_WEB_BUILD: '1' };
if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const { child } = await startServer({ port: PORT, dataDir, fresh: true, env });
try {
  const token = await login();
  await firstFrame(token).catch((error) => console.log(`pairing to first frame: not measured (${error.message})`));
  await ingest(token);
} finally {
  await stop(child);
}
