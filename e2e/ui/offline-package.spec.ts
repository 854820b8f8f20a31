import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BASE_URL, loginApi, uploadMaterial } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { uniquePng } from '../fixtures/png.js';
import { ok } from '../fixtures/sales.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Offline packages (issue 31): the headless player (`npm run player`, its CLI) pairs and is
 * added in the console; an ad reaches it; the administrator exports the screen's offline package
 * from the device list in Chromium; the player is then started with `--offline-package` against
 * a server address that answers nothing (no network): it verifies the archive and plays it,
 * keeping its plays. When the address answers again (a relay to the product opens on it), the
 * kept plays are uploaded and the ad report counts them.
 */
test.setTimeout(5 * 60_000);

const ROOT = resolve(import.meta.dirname, '../..');

/** The headless player's CLI with these arguments; its output collected as it comes. */
function player(args: string[]) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/player/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    out += String(chunk);
  });
  return { child, output: () => out };
}

/** A TCP relay from a free local port to the product, closed until `open()`: the player's "network". */
async function relay() {
  const target = new URL(BASE_URL);
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((done) => probe.close(() => done()));
  let server: Server | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    open: async () => {
      server = createServer((socket) => {
        const upstream = connect(Number(target.port), target.hostname);
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((done) => server?.listen(port, '127.0.0.1', done));
    },
    close: () => new Promise<void>((done) => (server ? server.close(() => done()) : done())),
  };
}

test('an offline package exported in the console is played by the headless player, and its plays counted once online', async ({
  page,
}) => {
  const admin = await loginApi('entadmin');
  const dir = await mkdtemp(join(tmpdir(), 'mq-e2e-offline-'));
  const state = join(dir, 'player.json');
  const name = uniqueName('E2E offline screen');
  const net = await relay();
  const running: ChildProcess[] = [];
  try {
    // 1. The headless player pairs; the administrator adds it by its code.
    const online = player(['--server', BASE_URL, '--state', state]);
    running.push(online.child);
    await expect.poll(() => /Pairing code: (\S+)/.exec(online.output())?.[1], { timeout: 60_000 }).toBeTruthy();
    const code = /Pairing code: (\S+)/.exec(online.output())?.[1] ?? '';
    const added = await ok('deviceAdd', { code, name }, admin.token);
    await expect.poll(() => online.output(), { timeout: 60_000 }).toContain('Activated as');
    online.child.kill('SIGTERM');

    // 2. An ad of one picture on that screen, approved.
    const suffix = Date.now().toString(36);
    const folder = await ok('materialFolderCreate', { name: `E2E offline ${suffix}` }, admin.token);
    const image = await uploadMaterial(admin.token, {
      folderId: folder.id,
      name: `offline-${suffix}.png`,
      buffer: uniquePng(640, 360),
      contentType: 'image/png',
      type: 'image',
    });
    const ad = await ok(
      'adCreate',
      {
        name: `E2E offline ad ${suffix}`,
        type: 'common',
        startAt: new Date(Date.now() - 3600_000).toISOString(),
        endAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
        strategy: 'perLoop',
        playsMin: 1,
        playsMax: 1,
        periods: [],
        materialIds: [image.id],
        targets: { deviceIds: [added.id], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
      },
      admin.token,
    );
    await ok('adAuditPass', { id: ad.id }, admin.token);

    // 3. The console's offline package: its size and contents, then the archive by its link.
    await openAs(page, 'entadmin', `/device?keyword=${encodeURIComponent(name)}`);
    await page.getByTestId(`device-offline-${name}`).click();
    const dialog = page.getByTestId('device-offline-dialog');
    await expect(dialog.getByTestId('device-offline-size')).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByTestId('device-offline-contents')).toContainText('1');
    await page.screenshot({ path: test.info().outputPath('offline-package-dialog.png') });
    const href = await dialog.getByTestId('device-offline-download').getAttribute('href');
    expect(href).toBeTruthy();
    const archive = await page.request.get(new URL(href ?? '', BASE_URL).toString());
    expect(archive.status()).toBe(200);
    const path = join(dir, 'screen.tar');
    await writeFile(path, await archive.body());

    // 4. No network: the player verifies and plays the package, and keeps its plays.
    const offline = player(['--server', net.url, '--state', state, '--offline-package', path]);
    running.push(offline.child);
    await expect.poll(() => offline.output(), { timeout: 60_000 }).toContain('Playing the offline package of');
    expect(offline.output()).toContain('1 files verified');
    // Its loop turns every 10 s; two turns at least before the network comes back.
    await page.waitForTimeout(22_000);
    const before = await ok('reportAdDetail', { id: ad.id }, admin.token);
    expect(before.totals.plays).toBe(0);

    // 5. Online again: the kept plays are uploaded (every 15 s) and the report counts them.
    await net.open();
    await expect.poll(() => /(\d+) plays uploaded/.exec(offline.output())?.[1], { timeout: 60_000 }).toBeTruthy();
    const uploaded = Number(/(\d+) plays uploaded/.exec(offline.output())?.[1]);
    expect(uploaded).toBeGreaterThanOrEqual(2);
    await expect
      .poll(async () => (await ok('reportAdDetail', { id: ad.id }, admin.token)).totals.plays, {
        timeout: 90_000,
        intervals: [2000],
      })
      .toBeGreaterThanOrEqual(uploaded);
  } finally {
    for (const child of running) child.kill('SIGTERM');
    await net.close();
    await rm(dir, { recursive: true, force: true });
  }
});
