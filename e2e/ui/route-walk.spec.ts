import { ROUTES } from '@marquee/protocol';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Issue 31's walk: every route of the spec's section 2 that sits in the shell, opened as the
 * platform operator and as the enterprise administrator, shows its page: none says 'feature
 * not online', and the menu marks no entry so. A route the reader may not open answers the
 * console's 404 (as the spec says of paths one cannot reach), which is not 'not online' either;
 * the walk counts how many it could open.
 */
const SHELL_ROUTES = ROUTES.filter((r) => !r.plain && r.path !== '/404').map((r) => r.path);

test.setTimeout(15 * 60_000);

for (const loginName of ['operator', 'entadmin']) {
  test(`no route says 'feature not online' to ${loginName}`, async ({ page }) => {
    await openAs(page, loginName, '/');
    await expect(page.getByTestId('page-heading')).toBeAttached({ timeout: 30_000 });
    // The menu marks nothing 'not online'.
    await expect(page.locator('.mq-not-online-tag')).toHaveCount(0);
    const notOnline: string[] = [];
    let opened = 0;
    for (const path of SHELL_ROUTES) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const shown = page.getByTestId('page-heading').or(page.getByTestId('not-found'));
      await expect(shown.first()).toBeAttached({ timeout: 30_000 });
      if ((await page.getByTestId('not-found').count()) === 0) opened++;
      if ((await page.getByTestId('not-online').count()) > 0) notOnline.push(path);
    }
    expect(notOnline, `routes saying 'feature not online' to ${loginName}`).toEqual([]);
    expect(SHELL_ROUTES.length).toBeGreaterThan(60);
    // The operator may open nearly every route; the enterprise administrator most of them.
    expect(opened).toBeGreaterThan(loginName === 'operator' ? 60 : 40);
    console.log(`${loginName}: ${opened} of ${SHELL_ROUTES.length} routes opened, none 'not online'`);
  });
}
