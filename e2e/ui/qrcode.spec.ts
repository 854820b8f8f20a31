import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { loginApi } from '../fixtures/api.js';
import { pairBrowserPlayer } from '../fixtures/player.js';
import { ok } from '../fixtures/sales.js';
import { expect as baseExpect, openAs, test } from '../fixtures/session.js';

/** The player's manifest poll and the scans' batch writer: waits of seconds. */
const expect = baseExpect.configure({ timeout: 30_000 });

/**
 * A QR scan counted (issue 31) in Chromium: a browser player shows a layout with a QR code
 * whose target is an outside address; the QR it draws encodes the server's short link instead
 * (read from the rendered element: its accessible name is the encoded text); requesting that
 * link answers 302 to the target; the QR code events page shows the scan on that screen.
 */
test('a QR scan on a browser player is redirected and counted in the report', async ({ browser, page, request }) => {
  test.setTimeout(240_000);
  const suffix = randomBytes(3).toString('hex');
  const admin = await loginApi('entadmin');
  const {
    context: screen,
    player,
    deviceId,
    deviceName,
  } = await pairBrowserPlayer(browser, admin.token, 'E2E QR screen');

  const target = `https://example.com/e2e-offer-${suffix}?from=qr`;
  const document = {
    v: 1,
    width: 1920,
    height: 1080,
    pages: [
      {
        id: 'p-1',
        name: '',
        duration: 30,
        background: { color: '#ffffff', materialId: null, fit: 'cover' },
        components: [
          {
            id: 'c-qr',
            name: 'Offer QR',
            x: 760,
            y: 300,
            w: 400,
            h: 400,
            z: 1,
            rotation: 0,
            locked: false,
            hidden: false,
            timing: { start: 0, end: null },
            rtbSlot: false,
            type: 'qrCode',
            props: { content: target, color: '#000000', backgroundColor: '#ffffff', margin: 1 },
          },
        ],
      },
    ],
  };
  const layout = await ok('templateSave', { name: `E2E QR ${suffix}`, document: document as never }, admin.token);
  await ok('deviceAssignLayout', { ids: [deviceId], layoutId: layout.id }, admin.token);

  // The player draws the short link, not the target.
  const qr = player.locator('svg[data-qr]');
  await expect(qr).toBeVisible({ timeout: 60_000 });
  const link = (await qr.getAttribute('aria-label')) ?? '';
  expect(link).toMatch(/^https?:\/\/[^/]+\/q\/[A-Za-z0-9_-]+$/);
  expect(link).not.toContain('example.com');
  mkdirSync('/tmp/shots', { recursive: true });
  await player.screenshot({ path: '/tmp/shots/qrcode-player.png' });

  // A phone scanning it: 302 to the target at once.
  const scan = await request.get(link, {
    maxRedirects: 0,
    headers: { 'user-agent': 'E2E phone', 'accept-language': 'en-US' },
  });
  expect(scan.status()).toBe(302);
  expect(scan.headers().location).toBe(target);
  // An altered link is refused.
  const forged = await request.get(`${link.slice(0, -3)}${link.endsWith('AAA') ? 'BBB' : 'AAA'}`, { maxRedirects: 0 });
  expect(forged.status()).toBe(404);

  // The report counts it on that screen.
  await expect
    .poll(
      async () => {
        const r = await ok('qrcodeReport', { groupBy: 'device', deviceId }, admin.token);
        return r.totals.scans;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(1);
  await openAs(page, 'entadmin', '/report/qrcodeEvent?groupBy=device');
  const row = page.getByTestId('qrcode-row').filter({ hasText: deviceName });
  await expect(row).toBeVisible();
  await expect(row).toContainText('1');
  await expect(page.getByTestId('qrcode-chart')).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/qrcode-report.png', fullPage: true });
  await page.screenshot({ path: test.info().outputPath('qrcode-report.png'), fullPage: true });
  await screen.close();
});
