import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { loginApi } from '../fixtures/api.js';
import { pairBrowserPlayer } from '../fixtures/player.js';
import { ok } from '../fixtures/sales.js';
import { expect as baseExpect, openAs, test } from '../fixtures/session.js';

const expect = baseExpect.configure({ timeout: 30_000 });

/**
 * One-key alarm (issue 30) in Chromium: a region with two contacts covers a paired browser
 * player; the player raises an alarm (F9); /alarm shows it within seconds with its screenshot;
 * the development outbox holds both contacts' messages; the operator acknowledges, handles and
 * closes it with a note. Screenshots of the three alarm pages.
 */
test('a screen raises an alarm, its contacts are notified, the console follows it to closed', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const suffix = randomBytes(3).toString('hex');
  const admin = await loginApi('entadmin');
  const {
    context: screen,
    player,
    deviceId,
    deviceName,
  } = await pairBrowserPlayer(browser, admin.token, 'E2E alarm screen');
  const phones = [
    `1390000${suffix.slice(0, 4).replace(/\D/g, '1').padEnd(4, '1')}`,
    `1380000${suffix.slice(2, 6).replace(/\D/g, '2').padEnd(4, '2')}`,
  ];
  await ok(
    'alarmRegionSave',
    {
      name: `E2E alarm ${suffix}`,
      deviceIds: [deviceId],
      regionCodes: [],
      contacts: [
        { name: 'Contact A', phone: phones[0], email: '' },
        { name: 'Contact B', phone: phones[1], email: '' },
      ],
    },
    admin.token,
  );

  await openAs(page, 'entadmin', '/alarm');
  await expect(page.getByTestId('alarm-timeline').or(page.locator('.ant-table')).first()).toBeVisible();
  const pressed = Date.now();
  await player.keyboard.press('F9');
  const row = page.locator('[data-testid^="alarm-row-"]', { hasText: deviceName }).first();
  // The page polls every 3 s (ALARM_POLL_MS): the aim is 5 s; 15 s leaves room for a loaded CI machine.
  await expect(row).toBeVisible({ timeout: 15_000 });
  const shownMs = Date.now() - pressed;
  console.log(`alarm shown on /alarm ${shownMs} ms after F9`);
  test.info().annotations.push({ type: 'alarm shown after F9 (ms)', description: String(shownMs) });
  await row.locator('[data-testid^="alarm-open-"]').click();
  await expect(page.getByTestId('alarm-timeline')).toContainText('Contact A');
  await expect(page.getByTestId('alarm-screenshot')).toBeVisible();
  mkdirSync('/tmp/shots', { recursive: true });
  await page.screenshot({ path: '/tmp/shots/alarm-detail.png', fullPage: true });

  const operator = await loginApi('operator');
  for (const target of phones) {
    const list = await ok('outboxList', { page: 1, size: 10, target }, operator.token);
    expect(list.data.some((m) => m.target === target)).toBe(true);
  }

  await page.getByTestId('alarm-ack').click();
  await expect(page.getByTestId('alarm-state')).toHaveText('已确认');
  await page.getByTestId('alarm-handle').click();
  await expect(page.getByTestId('alarm-state')).toHaveText('已处理');
  await page.getByTestId('alarm-close').click();
  await page.getByTestId('alarm-close-note').fill('Checked on site: a test alarm');
  await page.getByTestId('alarm-close-ok').click();
  await expect(page.getByTestId('alarm-state')).toHaveText('已关闭');
  await expect(page.getByTestId('alarm-timeline')).toContainText('Checked on site: a test alarm');

  await page.goto('/alarm/report');
  await expect(page.getByTestId('alarm-report-events')).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/alarm-report.png', fullPage: true });
  await page.goto('/alarm/setting');
  await expect(page.locator('[data-testid^="alarm-region-row-"]').first()).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/alarm-setting.png', fullPage: true });
  await screen.close();
});
