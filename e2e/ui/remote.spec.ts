import { HeadlessPlayer } from '../../apps/server/src/player/player.js';
import { apiCall, BASE_URL, loginApi } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Remote control and screenshots in Chromium, with a real (headless) player paired to the
 * product under test over its embedded broker (WebSocket /mqtt on the product's port):
 * change its volume in /device/remote and see it acknowledged; take a screenshot and see
 * the image on /device/screenshot.
 */
let player: HeadlessPlayer;
let name: string;

test.beforeAll(async () => {
  const admin = await loginApi('entadmin');
  name = uniqueName('E2E screen');
  player = new HeadlessPlayer({ server: BASE_URL, heartbeatSec: 2 });
  const pairing = await player.pair();
  const credentials = player.awaitCredentials(pairing, 20_000);
  const added = await apiCall('deviceAdd', { code: pairing.code, name }, { token: admin.token });
  if (added.code !== 0) throw new Error(`device.add: ${added.code} ${added.message}`);
  await credentials;
  await player.connect();
});

test.afterAll(async () => {
  await player?.stop();
});

test('remote control: select a device, set its volume and see the acknowledgement', async ({ page }) => {
  await openAs(page, 'entadmin', `/device/remote?keyword=${encodeURIComponent(name)}`);
  const row = page.getByTestId(`remote-row-${name}`);
  // The first page of a fresh product loads the console's chunks: give it time on a busy machine.
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row.getByText('在线')).toBeVisible();
  await row.locator('.ant-checkbox-input').check();
  await expect(page.getByTestId('remote-selected')).toContainText('1');

  const slider = page.getByRole('slider', { name: '音量' });
  await slider.focus();
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowLeft'); // 50 -> 30
  await page.getByTestId('remote-volume-apply').click();
  const result = page.getByTestId(`remote-result-${name}`).first();
  await expect(result).toContainText('音量调至 30');
  await expect(result.getByTestId('remote-result-state')).toHaveText('已确认', { timeout: 15_000 });
  expect(player.volume).toBe(30);

  // A destructive action asks first; cancelling sends nothing.
  await page.getByTestId('remote-reboot').click();
  await expect(page.locator('.ant-popconfirm')).toContainText('重启 1 台设备');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId(`remote-result-${name}`)).toHaveCount(1);
});

test('screenshots: take one now and see the image on /device/screenshot, then in the history', async ({ page }) => {
  await openAs(page, 'entadmin', `/device/screenshot?keyword=${encodeURIComponent(name)}`);
  const card = page.getByTestId(`shot-card-${name}`);
  await expect(card).toBeVisible({ timeout: 30_000 });
  await page.getByTestId(`shot-take-${name}`).click();
  await expect(page.getByTestId(`shot-image-${name}`)).toBeVisible({ timeout: 20_000 });
  const image = card.locator('img').first();
  // The image really loaded through its signed URL.
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 })
    .toBe(320);
  expect(await image.getAttribute('src')).toMatch(/^\/files\/e\/.+\?exp=\d+&sig=/);

  await page.goto('/device/screenshotHistory');
  await expect(page.getByTestId('screenshot-history-page').getByText(name).first()).toBeVisible({ timeout: 30_000 });
});
