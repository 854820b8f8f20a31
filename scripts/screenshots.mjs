// Screenshots of the console for a language review: node scripts/screenshots.mjs <baseUrl> <outDir> [locales...]
// Headless Chromium (Debian's /usr/bin/chromium or CHROMIUM_PATH) at 1440x900; logs in through the login page
// as the enterprise administrator (entadmin) and the platform operator (operator) for the enterprise list.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright';

const [base = 'http://127.0.0.1:18750', out = '.tmp/screenshots', ...requested] = process.argv.slice(2);
const locales = requested.length ? requested : ['ja', 'en-US'];
const PASSWORD = 'Marquee@2026';
const PAGES = [
  ['home', '/'],
  ['accounts', '/user/company?tab=accounts'],
  ['departments', '/user/company?tab=departments'],
  ['roles', '/user/companyRole'],
  ['template', '/template'],
  ['operation-log', '/report/operationLog'],
];

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
for (const locale of locales) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: 'mq_locale', value: locale, url: base }]);
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByTestId('login-account').waitFor();
  await page.screenshot({ path: join(out, `${locale}-login.png`) });
  await page.getByTestId('login-account').fill('entadmin');
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  for (const [name, path] of PAGES) {
    await page.goto(`${base}${path}`);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(800);
    await page.screenshot({ path: join(out, `${locale}-${name}.png`) });
  }
  // The add-account dialog with a weak password typed: one message under the field.
  await page.goto(`${base}/user/company?tab=accounts`);
  await page.getByTestId('account-add').click();
  await page.getByTestId('account-dialog-password').fill('lowercase1');
  await page
    .getByTestId('account-dialog-phone')
    .fill('12ab')
    .catch(() => {});
  await page.waitForTimeout(600);
  await page.screenshot({ path: join(out, `${locale}-account-dialog.png`) });
  await context.close();
}
await browser.close();
console.log(`screenshots in ${out}`);
