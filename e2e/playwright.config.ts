import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * Playwright projects `api` (signed calls from Node against the running product) and `ui`
 * (Debian's Chromium). The product runs as `npm start` does, on a fresh PGlite data
 * directory with the seeded demo data.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 18700);
/** The product's data directory (removed at each start): another E2E_PORT and E2E_DATA_DIR run beside this one. */
const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Without Chromium the `ui` project runs one test that fails with this line (e2e/no-chromium.ts)
 * instead of every browser test failing with 'executable doesn't exist'; `api` runs as usual.
 */
export const NO_CHROMIUM = existsSync(CHROMIUM_PATH)
  ? null
  : `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium and fonts-noto-cjk ` +
    '(apt-get install chromium fonts-noto-cjk), or set CHROMIUM_PATH to a Chromium executable.';
if (NO_CHROMIUM && !process.env.TEST_WORKER_INDEX) console.error(`e2e: ${NO_CHROMIUM}`);
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  outputDir: '../.tmp/e2e-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? '../.tmp/e2e-results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'zh-CN',
    launchOptions: { executablePath: CHROMIUM_PATH, args: chromiumArgs },
  },
  projects: [
    { name: 'api', testMatch: /api\/.*\.spec\.ts/ },
    { name: 'ui', testMatch: NO_CHROMIUM ? /no-chromium\.ts$/ : /ui\/.*\.spec\.ts/ },
  ],
  webServer: {
    command: `rm -rf ${JSON.stringify(E2E_DATA_DIR)} && node scripts/start.mjs`,
    cwd: '..',
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      SKIP_WEB_BUILD: '1',
      LOG_LEVEL: 'warn',
      // Players in the browser reach the broker at /mqtt on PORT; no TCP port to collide with a running product.
      MQTT_TCP_PORT: 'off',
      // The suite makes its own devices and ads; the demo fleet's would change its lists and counts.
      DEMO_PLAYERS: 'off',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
