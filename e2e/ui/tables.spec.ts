import type { Locator, Page } from '@playwright/test';
import { BASE_URL } from '../fixtures/api.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * The table config's layout rule and column settings (issue 8 'Tables hide columns'): at
 * 1366 and 1440 px no header cell stays covered by a fixed column (the first or the actions
 * one) wherever the table is scrolled to show it, the actions fit their buttons, and a
 * column the user hides stays hidden after a reload.
 */

const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
];

const LISTS = [
  { name: 'accounts', login: 'entadmin', path: '/user/company?tab=accounts', panel: 'accounts-panel' },
  { name: 'enterprises', login: 'operator', path: '/user/company?tab=companies', panel: 'company-list' },
];

interface Covered {
  column: string;
  by: string;
}

/**
 * For each scrolling header cell: scroll the table so the cell sits just right of the left
 * fixed columns, then compare its box with every fixed (sticky) header cell's box. Returns
 * the cells a fixed one still covers, and the operations cells whose buttons overflow.
 */
async function coveredHeaders(panel: Locator): Promise<{ covered: Covered[]; overflowing: number; headers: number }> {
  return panel.evaluate(async (root) => {
    const content = root.querySelector<HTMLElement>('.ant-table-content, .ant-table-body');
    if (!content) throw new Error('no table');
    const ths = [...root.querySelectorAll<HTMLElement>('.ant-table-thead > tr > th')].filter(
      (th) => !th.classList.contains('ant-table-cell-scrollbar') && th.offsetWidth > 0,
    );
    const sticky = (el: HTMLElement) => getComputedStyle(el).position === 'sticky';
    const fixed = ths.filter(sticky);
    const moving = ths.filter((th) => !sticky(th));
    const leftFixed = fixed.filter((th) => th.offsetLeft < (moving[0]?.offsetLeft ?? 0));
    const leftWidth = leftFixed.reduce((sum, th) => sum + th.offsetWidth, 0);
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const covered: { column: string; by: string }[] = [];
    for (const th of moving) {
      content.scrollLeft = Math.max(0, th.offsetLeft - leftWidth);
      await frame();
      const a = th.getBoundingClientRect();
      const view = content.getBoundingClientRect();
      // The part of the cell inside the table's visible area.
      const left = Math.max(a.left, view.left);
      const right = Math.min(a.right, view.right);
      for (const f of fixed) {
        const b = f.getBoundingClientRect();
        const overlap = Math.min(right, b.right) - Math.max(left, b.left);
        if (overlap > 1) covered.push({ column: th.textContent ?? '', by: f.textContent ?? '' });
      }
      // A cell wider than the room between the fixed columns cannot be shown whole either.
      if (right - left < a.width - 1) covered.push({ column: th.textContent ?? '', by: '(cut off)' });
    }
    content.scrollLeft = 0;
    const overflowing = [...root.querySelectorAll<HTMLElement>('.mq-row-actions')].filter(
      (el) =>
        el.scrollWidth > el.clientWidth + 1 ||
        (el.parentElement?.scrollWidth ?? 0) > (el.parentElement?.clientWidth ?? 0) + 1,
    ).length;
    return { covered, overflowing, headers: ths.length };
  });
}

for (const viewport of VIEWPORTS) {
  for (const list of LISTS) {
    test(`${list.name} at ${viewport.width}x${viewport.height}: no header cell stays under a fixed column`, async ({
      browser,
    }) => {
      const page = await browser.newPage({ viewport });
      await openAs(page, list.login, list.path);
      const panel = page.getByTestId(list.panel);
      await expect(panel.locator('.ant-table-tbody > tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
      const result = await coveredHeaders(panel);
      expect(result.headers).toBeGreaterThan(5);
      expect(result.covered).toEqual([]);
      expect(result.overflowing).toBe(0);
      await page.close();
    });
  }
}

// The actions column is measured in the page's language: the longest labels (ja, en-US) fit too.
for (const locale of ['en-US', 'ja']) {
  test(`accounts at 1366x768 in ${locale}: the actions fit and no header stays under a fixed column`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: VIEWPORTS[0] });
    await context.addCookies([{ name: 'mq_locale', value: locale, url: BASE_URL }]);
    const page = await context.newPage();
    await openAs(page, 'entadmin', '/user/company?tab=accounts');
    const panel = page.getByTestId('accounts-panel');
    await expect(panel.locator('.ant-table-tbody > tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
    const result = await coveredHeaders(panel);
    expect(result.covered).toEqual([]);
    expect(result.overflowing).toBe(0);
    await context.close();
  });
}

/** The header texts of the accounts table. */
async function headerTexts(page: Page): Promise<string[]> {
  return page.getByTestId('accounts-panel').locator('.ant-table-thead > tr > th').allInnerTexts();
}

test('a column hidden from the keyboard stays hidden after a reload and comes back with reset', async ({ browser }) => {
  const page = await browser.newPage({ viewport: VIEWPORTS[0] });
  await openAs(page, 'entadmin', '/user/company?tab=accounts');
  const panel = page.getByTestId('accounts-panel');
  await expect(panel.locator('.ant-table-tbody > tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
  expect(await headerTexts(page)).toContain('邮箱');

  // Keyboard only: Enter opens the settings on the first checkbox it can change (real name);
  // Tab walks to e-mail (real name, roles, departments, phone, e-mail), Space unticks it.
  const button = page.getByTestId('columns-accounts');
  await button.focus();
  await page.keyboard.press('Enter');
  const settings = page.getByTestId('columns-panel-accounts');
  await expect(settings).toBeVisible();
  await expect(settings.getByTestId('column-toggle-realName')).toBeFocused();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
  await expect(settings.getByTestId('column-toggle-email')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(settings.getByTestId('column-toggle-email')).not.toBeChecked();
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
  await expect(button).toBeFocused();
  await expect.poll(() => headerTexts(page)).not.toContain('邮箱');

  await page.reload();
  await expect(panel.locator('.ant-table-tbody > tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
  expect(await headerTexts(page)).not.toContain('邮箱');
  expect(await headerTexts(page)).toContain('手机号');

  // Sorting by a sortable column goes to the URL and the server.
  await panel.locator('.ant-table-thead th', { hasText: '登录账号' }).click();
  await expect(page).toHaveURL(/sort=loginName&order=asc/);

  await button.click();
  await page.getByTestId('columns-reset-accounts').click();
  await expect.poll(() => headerTexts(page)).toContain('邮箱');
  await page.close();
});
