import { test } from '@playwright/test';
import { NO_CHROMIUM } from './playwright.config.js';

/**
 * The `ui` project's only test when Chromium is missing (see playwright.config.ts): one
 * failure that says what to install, in place of one 'executable doesn't exist' per test.
 */
test.use({ trace: 'off', screenshot: 'off' });

test('Chromium is installed for the browser tests', () => {
  if (NO_CHROMIUM) throw new Error(NO_CHROMIUM);
});
