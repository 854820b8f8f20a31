// The ad chain (issue 13), end to end: figures, never assertions.
//   npm run bench -- ad-chain   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres: a
//   scratch database is created and dropped; BENCH_PORT=19230, BENCH_AD_RUNS=10, BENCH_AD_PLAYS=3)
// The server runs in this process (as apps/server/src/main.ts starts it: PostgreSQL, the embedded
// broker on /mqtt, the job runner with its cron), and a headless Chromium tab is the player,
// paired as a device of the demo enterprise (as bench/player.ts does).
// - approval to screen (N runs): an ad of a new image aimed at the device, made and approved
//   through the API; the time from the approve call (ad.auditPass) returning to the image on the
//   player's screen; then the ad is paused and gone from the screen before the next run;
// - play to report: the time from a play ending on the player to its count in the rollups the ad
//   report reads (play_rollups_daily), in two parts: the player's upload (its journal flushes
//   every 30 s) and the rollup job (queued, debounced, within 10 s of an upload, besides its
//   minute schedule). No shortcut: the bench triggers neither.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { endpoints, type LoginResponse } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import { uniquePng } from '../e2e/fixtures/png.js';
import { callApi, freePort, percentile, scratchDatabase } from './lib.js';

const PORT = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
const RUNS = Number(process.env.BENCH_AD_RUNS ?? 10);
const PLAYS = Number(process.env.BENCH_AD_PLAYS ?? 3);
const base = `http://127.0.0.1:${PORT}`;

const scratch = await scratchDatabase();
const dataDir = join(process.cwd(), `.tmp/bench-ad-chain-${process.env.BENCH_PORT ?? 'default'}`);
Object.assign(process.env, {
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DATABASE_URL: scratch.url,
  MQTT_TCP_PORT: 'off',
  LOG_LEVEL: 'warn',
});
const { loadConfig } = await import('../apps/server/src/config.js');
const { openDatabase } = await import('../apps/server/src/db/client.js');
const { buildApp } = await import('../apps/server/src/app.js');
const { seedIfNeeded } = await import('../apps/server/src/seed/index.js');

async function ok<T>(path: string, data: unknown, token?: string): Promise<T> {
  const answer = await callApi<T>(PORT, path, data, token);
  if (answer.code !== 0) throw new Error(`${path}: ${answer.code} ${answer.message}`);
  return answer.payload;
}

/** Puts an image into the library as the console does (apply, POST to storage, verify) and waits until it is ready. */
async function upload(token: string, folderId: string, fileName: string): Promise<string> {
  const buffer = uniquePng(640, 360);
  const applied = await ok<{ url: string; fields: Record<string, string>; uploadId: string }>(
    endpoints.materialUploadApply.path,
    { folderId, fileName, size: buffer.length, contentType: 'image/png', type: 'image' },
    token,
  );
  const form = new FormData();
  for (const [k, v] of Object.entries(applied.fields)) form.append(k, v);
  if (!Object.keys(applied.fields).some((k) => k.toLowerCase() === 'content-type')) {
    form.append('Content-Type', 'image/png');
  }
  form.append('file', new Blob([new Uint8Array(buffer)], { type: 'image/png' }), fileName);
  const posted = await fetch(applied.url.startsWith('/') ? `${base}${applied.url}` : applied.url, {
    method: 'POST',
    body: form,
  });
  if (!posted.ok) throw new Error(`upload POST ${posted.status}`);
  const verified = await ok<{ material: { id: string } }>(
    endpoints.materialUploadVerify.path,
    { uploadId: applied.uploadId },
    token,
  );
  for (let i = 0; i < 240; i++) {
    const detail = await ok<{ status: string }>(endpoints.materialDetail.path, { id: verified.material.id }, token);
    if (detail.status === 'ready') return verified.material.id;
    if (detail.status !== 'processing') throw new Error(`material ${detail.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('material still processing');
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, maxConnections: config.databasePoolSize });
let app: Awaited<ReturnType<typeof buildApp>> | null = null;
let browser: Awaited<ReturnType<typeof chromium.launch>> | null = null;
try {
  await database.migrate();
  await seedIfNeeded(database.db);
  app = await buildApp({ config, db: database });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const login = await ok<LoginResponse>(endpoints.login.path, { loginName: 'entadmin', password: 'Marquee@2026' });
  const token = login.token;
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${base}/player/`);
  const code = (await page.getByTestId('pairing-code').textContent({ timeout: 60_000 }))?.trim() ?? '';
  const device = await ok<{ id: string }>(endpoints.deviceAdd.path, { code, name: 'Bench ad screen' }, token);
  await page.getByTestId('nothing').waitFor({ timeout: 60_000 });
  const folder = await ok<{ id: string }>(endpoints.materialFolderCreate.path, { name: `Bench ads ${code}` }, token);

  const body = (materialId: string, adName: string) => ({
    name: adName,
    type: 'common',
    startAt: new Date(Date.now() - 3600_000).toISOString(),
    endAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    strategy: 'perDay',
    playsMin: 1,
    playsMax: 99_999,
    periods: [],
    link: '',
    materialIds: [materialId],
    targets: { deviceIds: [device.id], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
  });

  // Approval to screen.
  const shown: number[] = [];
  const gone: number[] = [];
  let lastAd = '';
  let lastMaterial = '';
  for (let run = 0; run < RUNS; run++) {
    const materialId = await upload(token, folder.id, `bench-ad-${run}-${randomUUID().slice(0, 6)}.png`);
    const ad = await ok<{ id: string }>(endpoints.adCreate.path, body(materialId, `Bench ad ${run}`), token);
    await ok(endpoints.adAuditPass.path, { id: ad.id, round: 1 }, token);
    const approved = performance.now();
    const image = page.locator(`img[data-material="${materialId}"]`);
    await image.waitFor({ state: 'visible', timeout: 60_000 });
    shown.push(performance.now() - approved);
    lastAd = ad.id;
    lastMaterial = materialId;
    if (run === RUNS - 1) break;
    await ok(endpoints.adDisable.path, { id: ad.id }, token);
    const paused = performance.now();
    await image.waitFor({ state: 'detached', timeout: 60_000 });
    gone.push(performance.now() - paused);
  }
  const sortedShown = [...shown].sort((a, b) => a - b);
  console.log(
    `approval to screen: p50 ${fmt(percentile(sortedShown, 50))}, max ${fmt(sortedShown[sortedShown.length - 1])} over ${RUNS} runs (ad.auditPass answered -> the ad's image on the player; each a new image, downloaded; aim <= 5 s)`,
  );
  if (gone.length > 0) {
    const sortedGone = [...gone].sort((a, b) => a - b);
    console.log(
      `pause to off screen: p50 ${fmt(percentile(sortedGone, 50))}, max ${fmt(sortedGone[sortedGone.length - 1])} (ad.disable answered -> the image gone)`,
    );
  }

  // Play to report: the last ad keeps playing (an image plays 10 s); each of its first plays is
  // followed from its end on the player to the plays table and then to the rollups.
  const db = database.db;
  type PlayRow = { event_id: string; ended: string; received: string };
  const uploaded: number[] = [];
  const rolled: number[] = [];
  const totals: number[] = [];
  const seen = new Map<string, { ended: number; received: number }>();
  const deadline = Date.now() + 10 * 60_000;
  while (rolled.length < PLAYS && Date.now() < deadline) {
    const rows = (await db.execute(sql`
      select event_id::text as event_id,
             (extract(epoch from started_at) * 1000 + duration_ms)::float8::text as ended,
             (extract(epoch from received_at) * 1000)::float8::text as received
      from plays where ad_id = ${lastAd} and material_id = ${lastMaterial}
      order by received_at, started_at`)) as unknown as { rows: PlayRow[] };
    for (const r of rows.rows) {
      if (!seen.has(r.event_id)) seen.set(r.event_id, { ended: Number(r.ended), received: Number(r.received) });
    }
    const sum = (await db.execute(
      sql`select coalesce(sum(plays), 0)::int as n from play_rollups_daily where ad_id = ${lastAd}`,
    )) as unknown as { rows: { n: number }[] };
    const inRollups = sum.rows[0].n;
    const now = Date.now();
    // The rollups count plays in received order: the k-th received play is in once the sum reaches k.
    const ordered = [...seen.values()];
    while (rolled.length < Math.min(PLAYS, inRollups, ordered.length)) {
      const play = ordered[rolled.length];
      uploaded.push(play.received - play.ended);
      rolled.push(now - play.received);
      totals.push(now - play.ended);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  for (let i = 0; i < rolled.length; i++) {
    console.log(
      `play ${i + 1} to report: ${fmt(totals[i])} (play ended -> stored by the player's upload ${fmt(uploaded[i])}, stored -> in the rollups by the job ${fmt(rolled[i])}; aim <= 60 s)`,
    );
  }
  if (rolled.length === 0) console.log('play to report: no play reached the rollups within 10 minutes');
} finally {
  await browser?.close();
  await app?.close();
  await database.close();
  await scratch.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
