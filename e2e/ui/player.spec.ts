import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { apiCall, BASE_URL, loginApi, uploadMaterial } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { uniquePng } from '../fixtures/png.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * The browser player (issue 12) in one Chromium context and the console in another: the
 * player shows a pairing code, the device is added with it, a layout with a picture and a
 * video of the library is assigned and the player draws it (the video playing); a screenshot taken from the console shows up; cut off from the network it
 * keeps playing, a reload offline still plays from its cache, and once back online its
 * journal of plays empties (the server acknowledged every event, each stored once:
 * apps/server/test/content covers the idempotency).
 */
const layoutDocument = {
  v: 1,
  width: 1920,
  height: 1080,
  pages: [
    {
      id: 'p-1',
      name: '',
      duration: 2,
      background: { color: '#2255aa', materialId: null, fit: 'cover' },
      components: [
        {
          id: 'c-hello',
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
          props: {
            content: 'Hello from the player e2e',
            color: '#ffffff',
            fontFamily: '',
            fontSize: 120,
            bold: false,
            italic: false,
            underline: false,
            backgroundColor: 'transparent',
            align: 'left',
            verticalAlign: 'top',
            lineHeight: 1.4,
            scroll: { direction: 'none', speed: 60 },
          },
        },
      ],
    },
  ],
};

/** The layout with a picture (left) and a video (right) of the library under its text. */
function layoutWithMedia(pictureId: string, videoId: string) {
  const media = (id: string, type: 'picture' | 'video', x: number, materialId: string) => ({
    id,
    name: '',
    x,
    y: 450,
    w: 800,
    h: 450,
    z: 1,
    rotation: 0,
    locked: false,
    hidden: false,
    timing: { start: 0, end: null },
    rtbSlot: false,
    type,
    props:
      type === 'picture'
        ? { materials: [{ materialId, duration: 10 }], fit: 'contain', transition: 'none' }
        : { materials: [{ materialId, duration: 10 }], fit: 'contain', muted: true, volume: 0 },
  });
  const [page] = layoutDocument.pages;
  return {
    ...layoutDocument,
    pages: [
      {
        ...page,
        components: [
          ...page.components,
          media('c-picture', 'picture', 100, pictureId),
          media('c-video', 'video', 1000, videoId),
        ],
      },
    ],
  };
}

/** The picture is drawn (its pixels decoded) and the video has frames to show. */
async function expectMediaPlaying(player: Page) {
  await expect
    .poll(
      () =>
        player
          .locator('img')
          .first()
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      {
        timeout: 30_000,
      },
    )
    .toBe(640);
  await expect
    .poll(
      () =>
        player
          .locator('video')
          .first()
          .evaluate((v: HTMLVideoElement) => v.readyState),
      {
        timeout: 30_000,
      },
    )
    .toBeGreaterThanOrEqual(2);
}

test('pair a browser player, play a layout, screenshot it from the console, keep playing offline', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const admin = await loginApi('entadmin');
  const name = uniqueName('E2E browser player');
  const screen = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'en-US' });
  const player = await screen.newPage();
  await player.goto(`${BASE_URL}/player/`);
  const code = (await player.getByTestId('pairing-code').textContent({ timeout: 30_000 }))?.trim() ?? '';
  expect(code).toMatch(/^[2-9A-Z]{6}$/);

  const added = await apiCall('deviceAdd', { code, name }, { token: admin.token });
  expect(added.code).toBe(0);
  await expect(player.getByTestId('nothing')).toBeVisible({ timeout: 30_000 });

  // A picture and a video of the library in the layout: the player downloads, checks and plays them.
  const folder = await apiCall('materialFolderCreate', { name: uniqueName('Player media') }, { token: admin.token });
  expect(folder.code).toBe(0);
  const picture = await uploadMaterial(admin.token, {
    folderId: folder.payload.id,
    name: `${uniqueName('picture')}.png`,
    buffer: uniquePng(640, 360),
    contentType: 'image/png',
    type: 'image',
  });
  const video = await uploadMaterial(admin.token, {
    folderId: folder.payload.id,
    name: `${uniqueName('clip')}.mp4`,
    buffer: readFileSync(join(import.meta.dirname, '../fixtures/media/clip.mp4')),
    contentType: 'video/mp4',
    type: 'video',
  });
  const saved = await apiCall(
    'templateSave',
    { name: uniqueName('E2E player layout'), document: layoutWithMedia(picture.id, video.id) as never },
    { token: admin.token },
  );
  expect(saved.code).toBe(0);
  const assigned = await apiCall(
    'deviceAssignLayout',
    { ids: [added.payload.id], layoutId: saved.payload.id },
    { token: admin.token },
  );
  expect(assigned.code).toBe(0);
  await expect(player.getByText('Hello from the player e2e')).toBeVisible({ timeout: 30_000 });
  await expectMediaPlaying(player);
  await player.screenshot({ path: '../.tmp/e2e-results/player-layout.png' });

  // A screenshot from the console: the player captures its screen and uploads it.
  await openAs(page, 'entadmin', `/device/screenshot?keyword=${encodeURIComponent(name)}`);
  await expect(page.getByTestId(`shot-card-${name}`)).toBeVisible({ timeout: 30_000 });
  await page.getByTestId(`shot-take-${name}`).click();
  await expect(page.getByTestId(`shot-image-${name}`)).toBeVisible({ timeout: 30_000 });

  // Offline: it keeps playing, and a reload starts from the cache.
  await screen.setOffline(true);
  await player.waitForTimeout(2500);
  await expect(player.getByText('Hello from the player e2e')).toBeVisible();
  await player.reload();
  await expect(player.getByText('Hello from the player e2e')).toBeVisible({ timeout: 30_000 });
  // The picture and the video come from the cache.
  await expectMediaPlaying(player);
  await player.waitForTimeout(2500);
  await player.keyboard.press('i');
  await expect(player.getByTestId('status')).toBeVisible();

  // Back online: the plays journal is uploaded and emptied.
  await screen.setOffline(false);
  await player.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect
    .poll(async () => Number(await player.getByTestId('plays-pending').textContent()), { timeout: 60_000 })
    .toBe(0);
  await screen.close();
});

/**
 * A video wall (issue 12, docs/device-protocol.md 2.7.2): two players made the tiles of a 1 x 2
 * wall show the two halves of the same page (the wall drawn at twice a tile's width, each
 * shifted by its column) and switch pages together (the same timeline step on both).
 */
test('two tiles of a wall show the two halves of one page and switch together', async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await loginApi('entadmin');
  const tiles: { context: BrowserContext; page: Page; id: string }[] = [];
  for (const n of [1, 2]) {
    const context = await browser.newContext({ viewport: { width: 640, height: 360 }, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${BASE_URL}/player/`);
    const code = (await page.getByTestId('pairing-code').textContent({ timeout: 30_000 }))?.trim() ?? '';
    const added = await apiCall('deviceAdd', { code, name: uniqueName(`E2E wall tile ${n}`) }, { token: admin.token });
    expect(added.code).toBe(0);
    await expect(page.getByTestId('nothing')).toBeVisible({ timeout: 30_000 });
    tiles.push({ context, page, id: added.payload.id });
  }
  const page2 = structuredClone(layoutDocument.pages[0]);
  page2.id = 'p-2';
  page2.background.color = '#aa5522';
  page2.components[0].id = 'c-two';
  page2.components[0].props.content = 'Second page of the wall';
  const saved = await apiCall(
    'templateSave',
    {
      name: uniqueName('E2E wall layout'),
      document: { ...layoutDocument, pages: [layoutDocument.pages[0], page2] } as never,
    },
    { token: admin.token },
  );
  expect(saved.code).toBe(0);
  const wall = await apiCall(
    'spliceCreate',
    {
      name: uniqueName('E2E wall'),
      rows: 1,
      cols: 2,
      scaling: true,
      tiles: tiles.map((t, col) => ({ row: 0, col, deviceId: t.id })),
    },
    { token: admin.token },
  );
  expect(wall.code).toBe(0);
  const assigned = await apiCall(
    'deviceAssignLayout',
    { ids: tiles.map((t) => t.id), layoutId: saved.payload.id },
    { token: admin.token },
  );
  expect(assigned.code).toBe(0);

  // Each tile draws the whole wall (1280 x 360) shifted by its column: the left and right halves.
  for (const [col, t] of tiles.entries()) {
    const drawn = t.page.locator('.wall');
    await expect(drawn).toBeVisible({ timeout: 60_000 });
    await expect
      .poll(() => drawn.evaluate((el) => [el.style.left, el.style.width, el.style.height]))
      .toEqual([`${-640 * col}px`, '1280px', '360px']);
  }
  await tiles[0].page.screenshot({ path: '../.tmp/e2e-results/wall-tile-left.png' });
  await tiles[1].page.screenshot({ path: '../.tmp/e2e-results/wall-tile-right.png' });

  // The same step of the timeline on both, across page switches (2 s pages).
  const steps = new Set<string>();
  for (let i = 0; i < 3; i++) {
    let step: string | null = null;
    await expect
      .poll(async () => {
        const [a, b] = await Promise.all(
          tiles.map((t) => t.page.locator('[data-wall-slot]').getAttribute('data-wall-slot')),
        );
        step = a === b && a !== null && !steps.has(a) ? a : null;
        return step;
      })
      .not.toBeNull();
    if (step) steps.add(step);
  }
  expect(steps.size).toBe(3);
  for (const t of tiles) await t.context.close();
});
