import { apiCall, BASE_URL, loginApi } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * The browser player (issue 12) in one Chromium context and the console in another: the
 * player shows a pairing code, the device is added with it, a layout is assigned and the
 * player draws it; a screenshot taken from the console shows up; cut off from the network it
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

  const saved = await apiCall(
    'templateSave',
    { name: uniqueName('E2E player layout'), document: layoutDocument as never },
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
