import type { Page } from '@playwright/test';
import { HeadlessPlayer } from '../../apps/server/src/player/player.js';
import { apiCall, BASE_URL, loginApi } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { expect, openAs, test } from '../fixtures/session.js';

/** Pairs a headless player with the product and adds it as `name` through the console API. */
async function pairedPlayer(token: string, name: string): Promise<HeadlessPlayer> {
  const player = new HeadlessPlayer({ server: BASE_URL, heartbeatSec: 5 });
  const pairing = await player.pair();
  const credentials = player.awaitCredentials(pairing, 20_000);
  const added = await apiCall('deviceAdd', { code: pairing.code, name }, { token });
  expect(added.code).toBe(0);
  await credentials;
  await player.connect();
  return player;
}

/** Types a row's time range (the picker goes from start to end on Enter, as a keyboard user does). */
async function typeRange(page: Page, rowTestId: string, start: string, end: string) {
  const inputs = page.getByTestId(rowTestId).locator('.ant-picker input');
  await inputs.nth(0).click();
  for (const [i, time] of [start, end].entries()) {
    const input = inputs.nth(i);
    await expect(input).toBeFocused();
    await input.press('ControlOrMeta+a');
    await input.pressSequentially(time);
    await input.press('Enter');
  }
  await expect(inputs.nth(0)).toHaveValue(start);
  await expect(inputs.nth(1)).toHaveValue(end);
}

test('a power strategy: the time conflict message for a bad period, saved, applied to a paired player and acknowledged', async ({
  page,
}) => {
  // Pairing, the dialog's pickers and the acknowledgement on a machine shared with other work.
  test.setTimeout(180_000);
  const admin = await loginApi('entadmin');
  const screen = uniqueName('Strategy screen');
  const player = await pairedPlayer(admin.token, screen);
  try {
    await openAs(page, 'entadmin', '/device/strategy');
    await expect(page.getByTestId('strategy-page')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('strategy-tab-power').click();
    await page.getByTestId('strategy-add').click();
    const dialog = page.getByTestId('strategy-dialog');
    const name = uniqueName('Nights');
    await dialog.getByTestId('strategy-dialog-name').fill(name);

    // Shutdown 08:00, startup 08:03: 3 minutes apart, a time conflict (zh-CN: 时间冲突).
    await typeRange(page, 'strategy-power-0', '08:00', '08:03');
    const rulesItem = dialog.getByTestId('strategy-rules-item');
    await expect(rulesItem).toContainText('时间冲突：关机与开机时间至少间隔 5 分钟');
    await expect(page.getByTestId('strategy-power-0')).toHaveClass(/mq-strategy-row-invalid/);
    // The dialog refuses to save while the rule fails.
    await page.getByTestId('strategy-dialog-submit').click();
    await expect(dialog).toBeVisible();

    // A second period overlapping the first: time periods overlap.
    await typeRange(page, 'strategy-power-0', '08:00', '09:00');
    await expect(rulesItem).not.toContainText('时间冲突');
    await page.getByTestId('strategy-power-add').click();
    await typeRange(page, 'strategy-power-1', '08:30', '10:00');
    await expect(rulesItem).toContainText('时间段重叠');
    await page.getByTestId('strategy-power-1-remove').click();
    await expect(rulesItem).not.toContainText('时间段重叠');

    await page.getByTestId('strategy-dialog-submit').click();
    await expect(dialog).toBeHidden();
    const row = page.getByTestId(`strategy-row-${name}`);
    await expect(row).toContainText('08:00–09:00');

    // Apply it to the paired player and follow its acknowledgement.
    await page.getByTestId(`strategy-apply-${name}`).click();
    await expect(page.getByTestId('strategy-apply-picker')).toBeVisible();
    // The device picker: search the left side, choose the device, move it to the right.
    const picker = page.getByTestId('strategy-apply-devices');
    await picker.locator('.ant-transfer-section').first().locator('input[type=text]').fill(screen);
    await page.getByTestId(`strategy-apply-devices-item-${screen}`).click();
    await picker.locator('.ant-transfer-actions button').first().click();
    await page.getByTestId('strategy-apply-submit').click();
    const ack = page.getByTestId(`strategy-ack-${screen}`);
    await expect(ack).toContainText('已确认', { timeout: 20_000 });
    await page.getByTestId('strategy-apply-close').click();
    await expect(page.getByTestId(`strategy-applied-${name}`)).toContainText('1');
    expect(player.strategies.get('power')).toMatchObject({ name, rules: { weekly: [{ off: '08:00', on: '09:00' }] } });
  } finally {
    player.kill();
  }
});
