import { apiCall, DEMO_PASSWORD, loginApi } from '../fixtures/api.js';
import { ok } from '../fixtures/sales.js';
import { expect, openAs, test } from '../fixtures/session.js';

/** The demo enterprise's social credit code (apps/server/src/seed/demo.ts). */
const DEMO_CREDIT_CODE = '91310000MA1DEMO001';

test.describe('login', () => {
  test('a good login lands on the home page', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByTestId('login-account').fill('entadmin');
    await page.getByTestId('login-password').fill(DEMO_PASSWORD);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('home-page')).toBeVisible();
    await expect(page.getByTestId('tab-/')).toBeVisible();
  });

  test('a bad password shows the server message and stays on /login', async ({ page }) => {
    await page.goto('/login');
    await page.getByTestId('login-account').fill('entadmin');
    await page.getByTestId('login-password').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toContainText('账号或密码错误');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test('the menu differs between the administrator and the department staff', async ({ browser }) => {
  const admin = await browser.newPage();
  await openAs(admin, 'entadmin');
  await expect(admin.getByTestId('menu-device')).toBeVisible();
  await expect(admin.getByTestId('menu-user')).toBeVisible();
  await expect(admin.getByTestId('menu-operate')).toBeVisible();
  const staff = await browser.newPage();
  await openAs(staff, 'deptstaff');
  await expect(staff.getByTestId('menu-device')).toBeVisible();
  await expect(staff.getByTestId('menu-user')).toHaveCount(0);
  await expect(staff.getByTestId('menu-operate')).toHaveCount(0);
});

test.describe('routing', () => {
  test('the alias /dev_mag lands on /device', async ({ page }) => {
    await openAs(page, 'entadmin', '/dev_mag');
    await expect(page).toHaveURL(/\/device$/);
    await expect(page.getByTestId('device-page')).toBeVisible();
  });

  test('an unknown path lands on /404 with a way home', async ({ page }) => {
    await openAs(page, 'entadmin', '/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByTestId('not-found')).toBeVisible();
    await page.getByTestId('not-found').getByRole('link').click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a path without permission lands on /404', async ({ page }) => {
    await openAs(page, 'deptstaff', '/user/company');
    await expect(page).toHaveURL(/\/404$/);
  });
});

test('tabs: open three pages, close others, close all keeps the affix tab, middle-click, close the active tab', async ({
  page,
}) => {
  await openAs(page, 'entadmin', '/device');
  // Client-side navigation keeps the tabs; a full reload restores them only from the session.
  for (const path of ['/device/group', '/report/ad', '/help/helpFile']) {
    await page.evaluate((p) => {
      window.history.pushState({}, '', p);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await expect(page.getByTestId(`tab-${path}`)).toBeVisible();
  }
  await expect(page.getByTestId('tab-/')).toBeVisible();

  // Close others from the right-click menu on /report/ad.
  await page.getByTestId('tab-/report/ad').click({ button: 'right' });
  await page.getByTestId('tab-menu-close-others').click();
  await expect(page).toHaveURL(/\/report\/ad$/);
  await expect(page.getByTestId('tab-/device/group')).toHaveCount(0);
  await expect(page.getByTestId('tab-/help/helpFile')).toHaveCount(0);
  await expect(page.getByTestId('tab-/')).toBeVisible();

  // Middle-click closes a tab that is not active.
  await page.evaluate(() => {
    window.history.pushState({}, '', '/device/tags');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByTestId('tab-/device/tags')).toBeVisible();
  await page.getByTestId('tab-/report/ad').click({ button: 'middle' });
  await expect(page.getByTestId('tab-/report/ad')).toHaveCount(0);
  await expect(page).toHaveURL(/\/device\/tags$/);

  // Closing the active tab goes to the last remaining tab.
  await page.getByTestId('tab-/report/ad').waitFor({ state: 'detached' });
  await page.getByTestId('tab-close-/device/tags').click();
  await expect(page).toHaveURL(/\/$/);

  // Close all keeps the affix home tab.
  await page.evaluate(() => {
    window.history.pushState({}, '', '/device/playlist');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByTestId('tab-/device/playlist')).toBeVisible();
  await page.getByTestId('tab-/device/playlist').click({ button: 'right' });
  await page.getByTestId('tab-menu-close-all').click();
  await expect(page.getByTestId('tab-/device/playlist')).toHaveCount(0);
  await expect(page.getByTestId('tab-/')).toBeVisible();
  await expect(page.getByTestId('tab-close-/')).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
});

test('the language switch reloads in en-US and in ja', async ({ page }) => {
  await openAs(page, 'entadmin');
  await page.getByTestId('user-dropdown').click();
  await page.getByTestId('lang-en-US').click();
  await expect(page.getByTestId('menu-device')).toContainText('Device');
  expect((await page.context().cookies()).find((c) => c.name === 'mq_locale')?.value).toBe('en-US');
  await page.getByTestId('user-dropdown').click();
  await page.getByTestId('lang-ja').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByTestId('menu-device')).toContainText('デバイス');
});

test('skin 4 sets the body theme class', async ({ page }) => {
  await openAs(page, 'entadmin', '/skin');
  await page.getByTestId('skin-option-4').click();
  await expect(page.locator('body')).toHaveClass(/theme-4/);
  await page.reload();
  await expect(page.locator('body')).toHaveClass(/theme-4/);
});

test('the offline banner appears with the network off and goes when it returns', async ({ page, context }) => {
  await openAs(page, 'entadmin');
  await expect(page.getByTestId('home-page')).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await context.setOffline(true);
  await expect(page.getByTestId('offline-banner')).toContainText('网络不可用');
  await context.setOffline(false);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
});

test('the home page shows real figures, linking to their pages, and the enterprise by name', async ({ page }) => {
  await openAs(page, 'entadmin');
  await expect(page.getByTestId('home-enterprise')).toHaveText('Demo Media Co., Ltd.');
  await expect(page.getByTestId('home-figure-accounts')).toHaveText(/^[1-9]\d*$/);
  await expect(page.getByTestId('home-trend-chart-operations').locator('svg')).toBeVisible();
  await expect(page.getByTestId('home-figure-devicesOnline')).toHaveText(/^\d+$/);
  await page.getByTestId('home-figure-templates').click();
  await expect(page).toHaveURL(/\/template$/);
});

/**
 * The demo's monitor application waiting for a decision: the seed's, or, when another spec
 * (monitoring.spec) agreed it already, a new one the monitor sends the demo enterprise now.
 */
async function pendingMonitorApplication() {
  const admin = await loginApi('entadmin');
  const notices = await ok('noticeList', { page: 1, size: 100, pushPlatform: 1 }, admin.token);
  if (notices.data.some((n) => n.monitorStatus === 'pending')) return;
  const monitor = await loginApi('monitor');
  await ok('monitoringApply', { socialCreditCode: DEMO_CREDIT_CODE, message: '' }, monitor.token);
}

// Before the notice test below: the one letter of the demo is computed from the monitor
// application waiting for a decision, and goes once the administrator agrees.
test("the station-letter banner, written from facts in the reader's language, opens its dialog", async ({ page }) => {
  await pendingMonitorApplication();
  await openAs(page, 'entadmin');
  const banner = page.getByTestId('station-letter-banner');
  await expect(banner).toContainText('申请监播您的屏幕');
  await expect(banner).not.toContainText(/Storage|存储|Device points/);
  await banner.click();
  await expect(page.getByTestId('station-letter-dialog')).toBeVisible();
  await expect(page.getByTestId('station-letter-count')).toContainText(/\d/);
  await expect(page.getByTestId('station-letter-market')).toBeVisible();
});

test('a notice opens its dialog and the administrator agrees to a monitor application', async ({ page }) => {
  await pendingMonitorApplication();
  await openAs(page, 'entadmin');
  await page.getByTestId('notice-bell').click();
  const panel = page.getByTestId('notice-panel');
  await expect(panel).toBeVisible();
  const systemNotice = panel.locator('[data-testid^="notice-item-"]', { hasText: /监播|monitor/i }).first();
  await systemNotice.click();
  await expect(page.getByTestId('notice-dialog')).toBeVisible();
  await page.getByTestId('notice-agree').click();
  await expect(page.getByText('操作成功').first()).toBeVisible();
  await expect(page.getByTestId('notice-agree')).toHaveCount(0);
});

test('a department switch reloads the console in the new department', async ({ page }) => {
  await openAs(page, 'deptstaff');
  const before = (await page.getByTestId('user-dept-name').textContent())?.trim();
  await page.getByTestId('user-dropdown').click();
  const other = page.locator('[data-testid^="dept-"]:not([aria-current="true"])').filter({ hasNotText: before ?? '' });
  const target = (await other.first().textContent())?.trim();
  await Promise.all([page.waitForEvent('load'), other.first().click()]);
  await expect(page.getByTestId('user-dept-name')).toHaveText(target ?? '');
});

test('an expired or revoked token returns to /login', async ({ page }) => {
  const login = await openAs(page, 'entadmin');
  await expect(page.getByTestId('home-page')).toBeVisible();
  expect((await apiCall('logout', {}, { token: login.token })).code).toBe(0);
  await page.getByTestId('notice-bell').click();
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
});
