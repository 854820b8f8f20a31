import { HeadlessPlayer } from '../../apps/server/src/player/player.js';
import { apiCall, BASE_URL, loginApi } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Firmware and APK upgrades (issue 31) in Chromium: the enterprise admin uploads a package in
 * the Upgrades tab of /device/remote (the server verifies its size and SHA-256), starts a
 * rollout to three real headless players with a canary share and a low failure threshold.
 * The package is for another device type: the canary devices refuse it, the rollout halts by
 * itself and the console shows 'halted' with its reason; the admin resumes it after a
 * confirmation (the canary stage is over: it waits for the operator), then rolls the failed
 * devices back to an earlier package picked in the rollback dialog.
 */
const players: HeadlessPlayer[] = [];
let prefix: string;

test.beforeAll(async () => {
  const admin = await loginApi('entadmin');
  prefix = uniqueName('E2E upgrade');
  await Promise.all(
    [1, 2, 3].map(async (n) => {
      const player = new HeadlessPlayer({ server: BASE_URL, heartbeatSec: 2 });
      players.push(player);
      const pairing = await player.pair();
      const credentials = player.awaitCredentials(pairing, 20_000);
      const added = await apiCall('deviceAdd', { code: pairing.code, name: `${prefix} ${n}` }, { token: admin.token });
      if (added.code !== 0) throw new Error(`device.add: ${added.code} ${added.message}`);
      await credentials;
      await player.connect();
    }),
  );
});

test.afterAll(async () => {
  for (const p of players) await p.stop().catch(() => {});
});

test('a staged upgrade halted by failures', async ({ page }) => {
  const version = `9.${Date.now() % 1_000_000}`;
  const earlier = `8.${Date.now() % 1_000_000}`;
  await openAs(page, 'entadmin', '/device/remote?tab=upgrades');
  const tab = page.getByTestId('upgrades-tab');
  await expect(tab).toBeVisible({ timeout: 30_000 });

  // Upload: kind, version, a device type no headless player is, the file; the server verifies it.
  const upload = async (v: string) => {
    await page.getByTestId('upgrade-upload').click();
    const form = page.getByTestId('upgrade-upload-form');
    await form.getByTestId('upgrade-upload-version').fill(v);
    await form.getByTestId('upgrade-upload-device-type').fill('other-model');
    await form.getByTestId('upgrade-upload-notes').fill('E2E: for another model');
    await page.locator('.ant-modal input[type=file]').setInputFiles({
      name: `player-${v}.apk`,
      mimeType: 'application/vnd.android.package-archive',
      buffer: Buffer.from(`the player ${v}`),
    });
    await page.getByTestId('upgrade-upload-submit').click();
    await expect(page.getByText('升级包已校验').first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId(`upgrade-package-${v}`).getByTestId('upgrade-package-state')).toHaveText('可用');
  };
  // An earlier package of the same kind and device type: a rollback can go back to it.
  await upload(earlier);
  await upload(version);
  const row = page.getByTestId(`upgrade-package-${version}`);
  await expect(row.getByTestId('upgrade-package-sha')).toContainText('…');

  // A rollout to the three devices: 34% of them first (two canaries), a failure threshold of 10%.
  await row.getByTestId(`upgrade-package-rollout-${version}`).click();
  const rollout = page.getByTestId('upgrade-rollout-form');
  await expect(rollout).toBeVisible();
  const devices = rollout.getByTestId('upgrade-rollout-devices');
  await devices.click();
  await page.keyboard.type(prefix);
  for (const n of [1, 2, 3]) {
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `${prefix} ${n}` }).click();
  }
  await page.keyboard.press('Escape');
  // antd puts the test id on the number input itself.
  const number = (id: string) => rollout.locator(`input[data-testid=${id}], [data-testid=${id}] input`);
  await number('upgrade-rollout-canary').fill('34');
  await number('upgrade-rollout-threshold').fill('10');
  await page.getByTestId('upgrade-rollout-submit').click();

  // The new rollout's drawer follows it live: the canaries refuse the package, it halts by itself.
  const drawer = page.getByTestId('upgrade-rollout-drawer');
  await expect(drawer.getByTestId('upgrade-drawer-state')).toHaveText('已暂停', { timeout: 20_000 });
  await expect(drawer.getByTestId('upgrade-drawer-halt-reason')).toContainText('已自动暂停');
  await expect(drawer.getByTestId('upgrade-drawer-halt-reason')).toContainText('10%');
  // Both canaries answer (the second may come after the halt); the rest was never sent.
  await expect(drawer.getByTestId('upgrade-device-state').filter({ hasText: '失败' })).toHaveCount(2, {
    timeout: 15_000,
  });
  await expect(drawer.getByTestId('upgrade-device-state').filter({ hasText: '排队中' })).toHaveCount(1);
  await expect(drawer).toContainText('device type other-model');
  await page.screenshot({ path: '/tmp/upgrades-drawer-halted.png' });
  await page.screenshot({ path: test.info().outputPath('upgrades-drawer-halted.png') });

  // Resume asks first and says what happens; then the canary stage, over, waits for the operator.
  await drawer.getByTestId('upgrade-drawer-resume').click();
  await expect(page.locator('.ant-popconfirm')).toContainText('恢复该升级任务');
  await page.getByTestId('confirm-ok').click();
  await expect(drawer.getByTestId('upgrade-drawer-state')).toHaveText('待继续', { timeout: 10_000 });
  await drawer.locator('.ant-drawer-close').click();

  // The list shows the rollout with its state and progress.
  const listed = page.getByTestId(`upgrade-rollout-${version}`);
  await expect(listed.getByTestId('upgrade-rollout-state')).toHaveText('待继续');
  await expect(listed.getByTestId('upgrade-rollout-progress')).toContainText('2/3');
  await page.screenshot({ path: '/tmp/upgrades-tab.png', fullPage: true });

  // Roll back: no device was upgraded, so the failed ones are chosen; the earlier package is
  // listed with its upload date beside "each device's previous version" (the default).
  await listed.getByTestId(`upgrade-rollout-${version}-rollback`).click();
  const rollback = page.getByTestId('upgrade-rollback-form');
  await expect(rollback).toBeVisible();
  await expect(rollback.getByTestId('upgrade-rollback-previous')).toBeVisible();
  const candidate = rollback.getByTestId(`upgrade-rollback-package-${earlier}`);
  await expect(candidate).toContainText('上传于');
  await expect(rollback.getByTestId(`upgrade-rollback-package-${version}`)).toHaveCount(0);
  await candidate.click();
  await expect(rollback.getByTestId('upgrade-rollback-summary')).toContainText(`2 台设备将收到 APK ${earlier}`);
  await page.screenshot({ path: '/tmp/upgrades-rollback-dialog.png' });
  await page.screenshot({ path: test.info().outputPath('upgrades-rollback-dialog.png') });
  await page.getByTestId(`upgrade-rollout-${version}-rollback-submit`).click();
  await expect(page.getByText('已回滚：已创建 1 个')).toBeVisible({ timeout: 10_000 });
  await expect(listed.getByTestId('upgrade-rollout-state')).toHaveText('已回滚');
  // The rollback is a rollout of the earlier package to the two failed devices.
  await expect(page.getByTestId(`upgrade-rollout-${earlier}`)).toBeVisible();
});
