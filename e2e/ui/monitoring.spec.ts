import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { apiCall, loginApi, uploadMaterial } from '../fixtures/api.js';
import { pairOnlineScreens } from '../fixtures/market.js';
import { uniquePng } from '../fixtures/png.js';
import { ok, utcDay } from '../fixtures/sales.js';
import { expect, openAs, test } from '../fixtures/session.js';

const SHOTS = '/tmp/shots';

/** Serious or critical axe violations of the page as it is. */
async function axeProblems(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

/**
 * Third-party monitoring in Chromium (issue 30): Demo Media (entadmin) grants the demo monitor
 * (agreeing to its application unless granted already) and makes a plan for an ad on one
 * screen; the monitor sees only its own tasks, uploads a photograph (time and position from the
 * browser's geolocation) and completes the task; the ad report shows the photograph in the
 * monitoring evidence beside the proof of play.
 */
test('a monitor photographs its task and the ad report shows the evidence', async ({ browser, page }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const admin = await loginApi('entadmin');
  const monitor = await loginApi('monitor');

  // The grant: the seed's pending application, agreed (shell.spec may have agreed it already).
  let monitors = await ok('monitoringMonitors', {}, admin.token);
  if (!monitors.some((m) => m.accountId === monitor.id)) {
    const notices = await ok('noticeList', { page: 1, size: 100, pushPlatform: 1 }, admin.token);
    for (const n of notices.data.filter((x) => x.monitorStatus === 'pending')) {
      await apiCall('monitorApply', { noticeId: n.id, status: 1 }, { token: admin.token });
    }
    monitors = await ok('monitoringMonitors', {}, admin.token);
  }
  expect(monitors.some((m) => m.accountId === monitor.id)).toBe(true);

  // The advertiser's ad (a picture) and a paired screen of the enterprise.
  const advertiser = await loginApi('advertiser');
  const suffix = Date.now().toString(36);
  const folder = await ok('materialFolderCreate', { name: `E2E watch ${suffix}` }, advertiser.token);
  const image = await uploadMaterial(advertiser.token, {
    folderId: folder.id,
    name: `watch-${suffix}.png`,
    buffer: uniquePng(640, 360),
    contentType: 'image/png',
    type: 'image',
  });
  const now = Date.now();
  const ad = await ok(
    'adCreate',
    {
      name: `E2E watched ad ${suffix}`,
      type: 'common',
      startAt: new Date(now - 86_400_000).toISOString(),
      endAt: new Date(now + 10 * 86_400_000).toISOString(),
      playsMin: 1,
      playsMax: 10,
      materialIds: [image.id],
    },
    advertiser.token,
  );
  const paired = await pairOnlineScreens(admin.token, [`E2E watched screen ${suffix}`]);
  const device = { id: paired.ids[0] };
  const plan = await ok(
    'monitoringPlanCreate',
    {
      name: `E2E watch ${Date.now()}`,
      monitorAccountId: monitor.id,
      adIds: [ad.id],
      deviceIds: [device.id],
      startDate: utcDay(0),
      endDate: utcDay(0),
      photosRequired: 1,
    },
    admin.token,
  );
  expect(plan.tasks).toBe(1);

  // The monitor, in a browser that knows where it is.
  const context = await browser.newContext({
    geolocation: { latitude: 31.2304, longitude: 121.4737 },
    permissions: ['geolocation'],
  });
  const mon = await context.newPage();
  await openAs(mon, 'monitor', '/operate/monitorTask');
  const tasks = await ok('monitoringTaskList', { page: 1, size: 100 }, monitor.token);
  const task = tasks.data.find((x) => x.planId === plan.id);
  expect(task).toBeTruthy();
  // Only its own tasks: every task listed is the demo monitor's.
  expect(tasks.data.every((x) => x.monitorName === task?.monitorName)).toBe(true);
  await expect(mon.getByTestId(`monitor-task-row-${task?.id}`)).toBeVisible();
  await expect(mon.getByTestId('monitor-task-tab-all')).toContainText(String(tasks.total));
  expect(await axeProblems(mon)).toEqual([]);
  await mon.screenshot({ path: `${SHOTS}/monitoring-tasks.png`, fullPage: true });

  await mon.goto(`/operate/taskDetail?id=${task?.id}`);
  await expect(mon.getByTestId('monitor-task-detail')).toBeVisible();
  await mon
    .getByTestId('monitor-task-file')
    .setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: uniquePng(64, 48) });
  await expect(mon.getByTestId('monitor-task-photo-count')).toContainText('1 / 1', { timeout: 30_000 });
  await mon.getByTestId('monitor-task-complete').click();
  await mon.getByTestId('confirm-ok').click();
  await expect(mon.getByTestId('monitor-task-state')).toContainText(/已完成|Completed|完了/);
  expect(await axeProblems(mon)).toEqual([]);
  await mon.screenshot({ path: `${SHOTS}/monitoring-task-detail.png`, fullPage: true });
  await context.close();
  for (const p of paired.players) p.kill();

  // The plans' page (the enterprise's side) passes axe too.
  await openAs(page, 'entadmin', '/operate/adMonitor');
  await expect(page.getByText('E2E watch').first()).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);

  // The ad report: the photograph beside the proof of play.
  const advContext = await browser.newContext();
  const adv = await advContext.newPage();
  await openAs(adv, 'advertiser', `/adReport?id=${ad.id}`);
  await expect(adv.getByTestId('user-dropdown')).toContainText('Bright Drinks');
  const evidence = adv.getByTestId(`ad-evidence-task-${task?.id}`);
  await expect(evidence).toBeVisible({ timeout: 30_000 });
  await expect(evidence.locator('[data-testid^="ad-evidence-photo-"]')).toHaveCount(1);
  await expect(evidence.locator('img')).toHaveCount(1);
  await evidence.scrollIntoViewIfNeeded();
  await adv.screenshot({ path: `${SHOTS}/monitoring-ad-report.png`, fullPage: true });
  await advContext.close();
});
