import { ROUTES } from '@marquee/protocol';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Issue 31's walk: every route of the spec's section 2 that sits in the shell, opened as the
 * enterprise administrator, shows its page: none says 'feature not online', and the menu marks
 * no entry so. A route the reader may not open answers the console's 404 (as the spec says of
 * paths one cannot reach), which is not 'not online' either; the walk counts how many it could
 * open. The platform operator's walk rides on the accessibility audit (a11y.spec.ts), which
 * opens every route as the operator anyway.
 *
 * A route's page is lazy, and the router renders it only once its module has loaded, so the
 * page (or its 'not online' fallback) is there as soon as the heading names the route.
 */
const SHELL_ROUTES = ROUTES.filter((r) => !r.plain).map((r) => r.path);

test.setTimeout(10 * 60_000);

test(`no route says 'feature not online' to the enterprise administrator`, async ({ page }) => {
  await openAs(page, 'entadmin', '/');
  await expect(page.getByTestId('page-heading')).toBeAttached({ timeout: 30_000 });
  // The menu marks nothing 'not online'.
  await expect(page.locator('.mq-not-online-tag')).toHaveCount(0);
  const notOnline: string[] = [];
  let opened = 0;
  for (const path of SHELL_ROUTES) {
    await page.goto(path);
    const heading = page.getByTestId('page-heading');
    const notFound = page.getByTestId('not-found');
    await expect(heading.filter({ hasText: /\S/ }).or(notFound).first()).toBeAttached({ timeout: 30_000 });
    if ((await notFound.count()) === 0) opened++;
    if ((await page.getByTestId('not-online').count()) > 0) notOnline.push(path);
  }
  expect(notOnline, `routes saying 'feature not online' to the enterprise administrator`).toEqual([]);
  expect(SHELL_ROUTES.length).toBeGreaterThan(60);
  // The enterprise administrator may open most of them.
  expect(opened).toBeGreaterThan(40);
  console.log(`entadmin: ${opened} of ${SHELL_ROUTES.length} routes opened, none 'not online'`);
});
