// (b) Gzip bytes of the console's JavaScript that Chromium actually loads for the login
// route, and for the shell after login (everything loaded up to the home page).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { root, startServer, stop } from './lib.js';

const PORT = 18904;
const dist = join(root, 'apps/web/dist');
const { child } = await startServer({ port: PORT, dataDir: join(root, '.tmp/bench-bundle'), fresh: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage();
  const loaded = new Set<string>();
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (url.pathname.endsWith('.js')) loaded.add(url.pathname);
  });
  const gz = () => [...loaded].reduce((sum, p) => sum + gzipSync(readFileSync(join(dist, p))).length, 0);
  await page.goto(`http://127.0.0.1:${PORT}/login`, { waitUntil: 'networkidle' });
  const loginBytes = gz();
  const loginFiles = loaded.size;
  await page.getByTestId('login-account').fill('entadmin');
  await page.getByTestId('login-password').fill('Marquee@2026');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(`http://127.0.0.1:${PORT}/`);
  await page.waitForLoadState('networkidle');
  const shellBytes = gz();
  console.log(`login route JS: ${(loginBytes / 1024).toFixed(1)} KB gzip in ${loginFiles} files (aim <= 200 KB)`);
  console.log(
    `shell after login JS: ${(shellBytes / 1024).toFixed(1)} KB gzip in ${loaded.size} files (aim <= 400 KB)`,
  );
} finally {
  await browser.close();
  await stop(child);
}
