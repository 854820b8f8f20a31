// The browser player's memory over a long run (issue 12: 'memory of a player tab after 1 hour
// of playing a 20-item loop, aim flat'). Figures, never assertions.
//   npm run bench -- playerSoak   (BENCH_SOAK_MIN=60, BENCH_SOAK_SAMPLE_SEC=300, BENCH_PORT=19130)
// A server on a fresh PGlite; 20 picture materials uploaded through the product's signed
// upload; a layout of 20 pages (each a picture background and a text, 3 s each: one loop a
// minute) assigned to a Chromium tab paired as a player. Every sample forces a garbage
// collection in the tab (DevTools protocol) and prints its JS heap, DOM nodes and event
// listeners; the end prints the heap's growth per hour from a least-squares line over the
// samples after the first (the first includes start-up and the cache fill).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints } from '@marquee/protocol';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { callApi, freePort, root, startServer, stop } from './lib.js';

const PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
const MINUTES = Number(process.env.BENCH_SOAK_MIN ?? 60);
const SAMPLE_SEC = Number(process.env.BENCH_SOAK_SAMPLE_SEC ?? 300);
const ITEMS = 20;
const PAGE_SEC = 3;
const base = `http://127.0.0.1:${PORT}`;
const dataDir = join(tmpdir(), `marquee-bench-soak-${process.env.BENCH_PORT ?? 'default'}`);

async function api<T>(name: keyof typeof endpoints, data: unknown, token: string): Promise<T> {
  const answer = await callApi<T>(PORT, endpoints[name].path, data, token);
  if (answer.code !== 0) throw new Error(`${String(name)}: ${answer.code} ${answer.message}`);
  return answer.payload;
}

/** One picture through the product's signed upload: apply, POST the file, verify, wait for the probe. */
async function upload(token: string, folderId: string, n: number): Promise<string> {
  const hue = Math.round((n * 360) / ITEMS);
  const buffer = await sharp({
    create: { width: 1280, height: 720, channels: 3, background: `hsl(${hue}, 70%, 45%)` },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  const name = `soak-${n + 1}.jpg`;
  const applied = await api<{ url: string; fields: Record<string, string>; uploadId: string }>(
    'materialUploadApply',
    { folderId, fileName: name, size: buffer.length, contentType: 'image/jpeg', type: 'image' },
    token,
  );
  const form = new FormData();
  for (const [k, v] of Object.entries(applied.fields)) form.append(k, v);
  if (!Object.keys(applied.fields).some((k) => k.toLowerCase() === 'content-type')) {
    form.append('Content-Type', 'image/jpeg');
  }
  form.append('file', new Blob([new Uint8Array(buffer)], { type: 'image/jpeg' }), name);
  const posted = await fetch(applied.url.startsWith('/') ? `${base}${applied.url}` : applied.url, {
    method: 'POST',
    body: form,
  });
  if (!posted.ok) throw new Error(`upload POST ${posted.status}`);
  const verified = await api<{ material: { id: string } }>(
    'materialUploadVerify',
    { uploadId: applied.uploadId },
    token,
  );
  for (let i = 0; i < 120; i++) {
    const detail = await api<{ status: string }>('materialDetail', { id: verified.material.id }, token);
    if (detail.status !== 'processing') return verified.material.id;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${name} still processing after 60 s`);
}

function layout(materialIds: string[]) {
  return {
    v: 1,
    width: 1920,
    height: 1080,
    pages: materialIds.map((materialId, i) => ({
      id: `p-${i + 1}`,
      name: '',
      duration: PAGE_SEC,
      background: { color: '#000000', materialId, fit: 'cover' },
      components: [
        {
          id: `c-${i + 1}`,
          name: '',
          x: 100,
          y: 100,
          w: 1700,
          h: 200,
          z: 0,
          rotation: 0,
          locked: false,
          hidden: false,
          timing: { start: 0, end: null },
          rtbSlot: false,
          type: 'text',
          props: { content: `Soak item ${i + 1}`, color: '#ffffff', fontSize: 96 },
        },
      ],
    })),
  };
}

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

// The server serves the player's bundle (apps/player/dist); SKIP_WEB_BUILD skips building it.
spawnSync('npm', ['run', 'build', '-w', '@marquee/player'], { cwd: root, stdio: 'ignore' });
const { child } = await startServer({
  port: PORT,
  dataDir,
  fresh: true,
  env: { HOST: '127.0.0.1', MQTT_TCP_PORT: String(await freePort()), SKIP_WEB_BUILD: '1', LOG_LEVEL: 'warn' },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
  ],
});
try {
  const login = await callApi<{ token: string }>(PORT, endpoints.login.path, {
    loginName: 'entadmin',
    password: 'Marquee@2026',
  });
  const token = login.payload.token;
  const folder = await api<{ id: string }>('materialFolderCreate', { name: `Soak ${randomUUID().slice(0, 8)}` }, token);
  const materialIds: string[] = [];
  for (let n = 0; n < ITEMS; n++) materialIds.push(await upload(token, folder.id, n));
  const saved = await api<{ id: string }>(
    'templateSave',
    { name: `Soak ${Date.now()}`, document: layout(materialIds) },
    token,
  );

  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${base}/player/`);
  const code = (await page.getByTestId('pairing-code').textContent({ timeout: 30_000 }))?.trim() ?? '';
  const added = await api<{ id: string }>('deviceAdd', { code, name: 'Soak tab' }, token);
  await page.locator('[data-testid="nothing"], [data-testid="stage"]').first().waitFor({ timeout: 60_000 });
  await api('deviceAssignLayout', { ids: [added.id], layoutId: saved.id }, token);
  await page.getByText('Soak item', { exact: false }).first().waitFor({ timeout: 120_000 });
  console.log(`player soak: ${ITEMS} pictures x ${PAGE_SEC} s a loop, ${MINUTES} min, a sample every ${SAMPLE_SEC} s`);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const started = Date.now();
  const samples: { min: number; heapMb: number; nodes: number; listeners: number }[] = [];
  const sample = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = (await cdp.send('Performance.getMetrics')) as {
      metrics: { name: string; value: number }[];
    };
    const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
    const row = {
      min: (Date.now() - started) / 60_000,
      heapMb: m.JSHeapUsedSize / 1048576,
      nodes: m.Nodes,
      listeners: m.JSEventListeners,
    };
    samples.push(row);
    const shown = await page.getByText('Soak item', { exact: false }).first().textContent();
    console.log(
      `  ${row.min.toFixed(1).padStart(5)} min: JS heap ${row.heapMb.toFixed(2)} MB, DOM nodes ${row.nodes}, listeners ${row.listeners}, on screen '${shown}'`,
    );
  };
  await sample();
  while (Date.now() - started < MINUTES * 60_000) {
    await new Promise((r) => setTimeout(r, Math.min(SAMPLE_SEC * 1000, started + MINUTES * 60_000 - Date.now())));
    await sample();
  }
  const later = samples.slice(1).map((s) => ({ x: s.min / 60, y: s.heapMb }));
  const first = samples[0];
  const last = samples[samples.length - 1];
  console.log(
    `player tab JS heap: ${first.heapMb.toFixed(2)} MB at start, ${last.heapMb.toFixed(2)} MB after ${last.min.toFixed(0)} min; ` +
      (later.length >= 2
        ? `trend ${slope(later).toFixed(2)} MB/hour over the samples after the first`
        : 'too short for a trend'),
  );
  console.log(`DOM nodes ${first.nodes} -> ${last.nodes}, event listeners ${first.listeners} -> ${last.listeners}`);
} finally {
  await browser.close();
  await stop(child);
}
