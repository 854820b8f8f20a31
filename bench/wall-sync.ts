// Video-wall sync (issue 12: 'the tiles switch pages together, a shared clock from the server:
// tiles aligned within 50 ms, measured'). Figures, never assertions.
//   npm run bench -- wall-sync   (BENCH_PORT=18712, BENCH_WALL_SWITCHES=20, BENCH_WALL_PAGE_SEC=2,
//                                 BENCH_WALL_SKEW_MS=2500)
// A server on a fresh PGlite; four Chromium players, each in its own browser context (its own
// storage, as four screens), paired through the product and made the tiles of a 2 x 2 wall; a
// layout of 4 pages (colour and text, BENCH_WALL_PAGE_SEC each) assigned to them. Each tab
// records, with a MutationObserver installed before the player loads, the instant
// (performance.timeOrigin + performance.now(): one machine, one clock) its stage's
// `data-wall-slot` (the timeline step shown, the same name on every tile) changes. For each step
// all four tiles showed, the spread is the latest tile's instant minus the earliest's.
// Run 1: the four as they are. Run 2: tile 1 reloads with its local clock (Date) set
// BENCH_WALL_SKEW_MS ahead: the shared clock (GET /dapi/v1/time) must take it back into line.
import { execSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints } from '@marquee/protocol';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { callApi, freePort, percentile, root, startServer, stop } from './lib.js';

const PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
const SWITCHES = Number(process.env.BENCH_WALL_SWITCHES ?? 20);
const PAGE_SEC = Number(process.env.BENCH_WALL_PAGE_SEC ?? 2);
const SKEW_MS = Number(process.env.BENCH_WALL_SKEW_MS ?? 2500);
const PAGES = 4;
const base = `http://127.0.0.1:${PORT}`;
const dataDir = join(tmpdir(), `marquee-bench-wall-${process.env.BENCH_PORT ?? 'default'}`);

async function api<T>(name: keyof typeof endpoints, data: unknown, token: string): Promise<T> {
  const answer = await callApi<T>(PORT, endpoints[name].path, data, token);
  if (answer.code !== 0) throw new Error(`${String(name)}: ${answer.code} ${answer.message}`);
  return answer.payload;
}

const COLOURS = ['#c0392b', '#27ae60', '#2980b9', '#8e44ad'];
function layout() {
  return {
    v: 1,
    width: 1920,
    height: 1080,
    pages: COLOURS.slice(0, PAGES).map((color, i) => ({
      id: `p-${i + 1}`,
      name: '',
      duration: PAGE_SEC,
      background: { color, materialId: null, fit: 'cover' },
      components: [
        {
          id: `c-${i + 1}`,
          name: '',
          x: 160,
          y: 390,
          w: 1600,
          h: 300,
          z: 0,
          rotation: 0,
          locked: false,
          hidden: false,
          timing: { start: 0, end: null },
          rtbSlot: false,
          type: 'text',
          props: { content: `Wall page ${i + 1}`, color: '#ffffff', fontSize: 200 },
        },
      ],
    })),
  };
}

// The page scripts are strings: tsx names functions with a helper the page does not have.
/** Installed before the player's code: every change of the stage's step, with its instant. */
const RECORDER = `
  window.__wallSwitches = [];
  const note = (el) => {
    const slot = el.getAttribute('data-wall-slot');
    if (slot)
      window.__wallSwitches.push({
        slot,
        at: performance.timeOrigin + performance.now(),
        start: Number(el.getAttribute('data-wall-start')),
        offset: Number(el.getAttribute('data-clock-offset')),
        rtt: Number(el.getAttribute('data-clock-rtt')),
      });
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes' && r.target instanceof Element) note(r.target);
      for (const n of r.addedNodes) if (n instanceof Element && n.hasAttribute('data-wall-slot')) note(n);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-wall-slot'] });
`;

/** The local clock `skew` ms ahead: Date.now() and new Date() (what a wrongly set device shows). */
const skewScript = (skew: number) => `
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + ${skew});
      else super(...args);
    }
    static now() {
      return realNow() + ${skew};
    }
  }
  globalThis.Date = SkewedDate;
`;

interface Switch {
  slot: string;
  at: number;
  /** The step's start on the tile's shared clock, the tile's clock offset estimate and its round trip. */
  start: number;
  offset: number;
  rtt: number;
}
async function switches(page: Page): Promise<Switch[]> {
  return page.evaluate(() => (window as unknown as { __wallSwitches: Switch[] }).__wallSwitches);
}

/**
 * Spreads (ms) of the steps every tile showed whose switch lies in [from, to); and, to tell the
 * clock's part from the renderer's: each switch's lateness (its instant minus the step's start:
 * the server runs on this machine, so its clock is the real one) and each tile's clock error
 * (its offset estimate minus the true offset, `-trueAhead[i]`).
 */
async function measure(pages: Page[], from: number, to: number, trueAhead: number[]) {
  const per = await Promise.all(pages.map(switches));
  const late: number[] = [];
  const errors = per.map((list, i) => {
    const inRange = list.filter((s) => s.at >= from && s.at < to);
    for (const s of inRange) late.push(s.at - s.start);
    const last = inRange.at(-1);
    return last ? `${(last.offset + trueAhead[i]).toFixed(0)} (rtt ${last.rtt})` : '?';
  });
  late.sort((a, b) => a - b);
  console.log(
    `  switch lateness (instant - step start) p50 ${percentile(late, 50).toFixed(1)} ms, p95 ${percentile(late, 95).toFixed(1)} ms; ` +
      `clock error per tile, ms: ${errors.join(', ')}`,
  );
  const bySlot = new Map<string, number[]>();
  for (const list of per) {
    const seen = new Set<string>();
    for (const { slot, at } of list) {
      // A step's first appearance on the tile (a re-render does not move it).
      if (seen.has(slot)) continue;
      seen.add(slot);
      const ats = bySlot.get(slot) ?? [];
      ats.push(at);
      bySlot.set(slot, ats);
    }
  }
  const spreads: number[] = [];
  if (per.some((list) => list.length === 0))
    console.log(`  switches recorded per tile: ${per.map((l) => l.length).join(', ')}`);
  for (const ats of bySlot.values()) {
    if (ats.length !== pages.length) continue;
    const first = Math.min(...ats);
    if (first < from || first >= to) continue;
    spreads.push(Math.max(...ats) - first);
  }
  return spreads.sort((a, b) => a - b);
}

function report(label: string, spreads: number[]) {
  const f = (n: number) => n.toFixed(1);
  console.log(
    `${label}: ${spreads.length} switches, spread across the 4 tiles p50 ${f(percentile(spreads, 50))} ms, ` +
      `p95 ${f(percentile(spreads, 95))} ms, max ${f(spreads[spreads.length - 1] ?? Number.NaN)} ms (aim <= 50 ms)`,
  );
}

const waitSwitches = (n: number) => new Promise((r) => setTimeout(r, (n + 0.5) * PAGE_SEC * 1000));

spawnSync('npm', ['run', 'build', '-w', '@marquee/player'], { cwd: root, stdio: 'ignore' });
const { child } = await startServer({
  port: PORT,
  dataDir,
  fresh: true,
  readyTimeoutMs: 600_000,
  env: { HOST: '127.0.0.1', MQTT_TCP_PORT: String(await freePort()), SKIP_WEB_BUILD: '1', LOG_LEVEL: 'warn' },
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    // Screens are never in the background: no throttled timers.
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
  ],
});
try {
  const login = await callApi<{ token: string }>(PORT, endpoints.login.path, {
    loginName: 'entadmin',
    password: 'Marquee@2026',
  });
  const token = login.payload.token;
  const saved = await api<{ id: string }>('templateSave', { name: `Wall ${Date.now()}`, document: layout() }, token);

  const contexts: BrowserContext[] = [];
  const pages: Page[] = [];
  const deviceIds: string[] = [];
  for (let n = 0; n < 4; n++) {
    const context = await browser.newContext({ viewport: { width: 480, height: 270 } });
    await context.addInitScript({ content: RECORDER });
    const page = await context.newPage();
    await page.goto(`${base}/player/`);
    const code = (await page.getByTestId('pairing-code').textContent({ timeout: 30_000 }))?.trim() ?? '';
    const added = await api<{ id: string }>('deviceAdd', { code, name: `Wall tile ${n + 1}` }, token);
    await page.locator('[data-testid="nothing"], [data-testid="stage"]').first().waitFor({ timeout: 60_000 });
    contexts.push(context);
    pages.push(page);
    deviceIds.push(added.id);
  }
  await api(
    'spliceCreate',
    {
      name: 'Bench wall',
      rows: 2,
      cols: 2,
      scaling: true,
      tiles: deviceIds.map((deviceId, i) => ({ row: Math.floor(i / 2), col: i % 2, deviceId })),
    },
    token,
  );
  await api('deviceAssignLayout', { ids: deviceIds, layoutId: saved.id }, token);
  for (const page of pages) await page.locator('[data-wall-slot]').waitFor({ timeout: 120_000 });
  // Settle (the pushes, the first clock estimates), then measure from now.
  await waitSwitches(2);
  console.log(
    `wall sync: 2 x 2 wall of 4 Chromium players (own contexts, 480 x 270 each), a layout of ${PAGES} pages x ${PAGE_SEC} s`,
  );
  let from = Date.now();
  await waitSwitches(SWITCHES);
  report('clocks as they are', await measure(pages, from, Date.now(), [0, 0, 0, 0]));
  const parts = await Promise.all(
    pages.map((p) =>
      p.evaluate(() => {
        const wall = document.querySelector('.wall') as HTMLElement | null;
        return wall ? `${wall.style.left},${wall.style.top}` : '?';
      }),
    ),
  );
  console.log(`  each tile's wall offset (left,top): ${parts.join('  ')}`);

  // Tile 1 with its local clock SKEW_MS ahead: a fresh page of the same context (same device).
  await pages[0].close();
  const skewed = await contexts[0].newPage();
  await skewed.addInitScript({ content: skewScript(SKEW_MS) });
  await skewed.goto(`${base}/player/`);
  pages[0] = skewed;
  await skewed.locator('[data-wall-slot]').waitFor({ timeout: 120_000 });
  const localAhead = await skewed.evaluate(() => Date.now() - (performance.timeOrigin + performance.now()));
  // Its clock's first rounds (15 s apart): measured from the third on.
  await new Promise((r) => setTimeout(r, 32_000));
  from = Date.now();
  await waitSwitches(SWITCHES);
  report(
    `tile 1's clock ${Math.round(localAhead)} ms ahead`,
    await measure(pages, from, Date.now(), [localAhead, 0, 0, 0]),
  );
  console.log(`load average (uptime): ${execSync('uptime').toString().trim()}`);
} finally {
  await browser.close();
  await stop(child);
}
