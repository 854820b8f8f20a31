import type { Browser, Page } from '@playwright/test';
import { apiCall, BASE_URL, loginApi, uploadMaterial } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { uniquePng } from '../fixtures/png.js';
import { ok } from '../fixtures/sales.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Time zones (issue 31): two browser players whose clocks read the same instant, one screen
 * following its enterprise (Asia/Shanghai), the other set to Asia/Tokyo in the device's edit
 * dialog. The same 07:00-09:00 ad plays at each screen's own 07:00: at 22:30 UTC (07:30 in
 * Tokyo, 06:30 in Shanghai) only the Tokyo screen shows it; an hour later both do.
 */
test.setTimeout(6 * 60_000);

/** The next 22:30 UTC at least an hour from now: the instant both player clocks are set to. */
function next2230(): number {
  const now = Date.now();
  const d = new Date(now);
  let at = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 22, 30);
  if (at < now + 3600_000) at += 86_400_000;
  return at;
}

/**
 * A browser player paired as `name` by the enterprise admin, then started again with its clock
 * at `time` (it keeps its credentials across the reload, as a screen does across a restart).
 */
async function playerAt(browser: Browser, token: string, name: string, time: number) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'en-US' });
  const player = await context.newPage();
  await player.goto(`${BASE_URL}/player/`);
  const code = (await player.getByTestId('pairing-code').textContent({ timeout: 30_000 }))?.trim() ?? '';
  const added = await apiCall('deviceAdd', { code, name }, { token });
  expect(added.code, added.message).toBe(0);
  await expect(player.getByTestId('nothing')).toBeVisible({ timeout: 30_000 });
  await player.clock.install({ time });
  await player.reload();
  await expect(player.getByTestId('nothing')).toBeVisible({ timeout: 30_000 });
  return { context, player, deviceId: added.payload.id as string };
}

async function showsImage(player: Page, materialId: string) {
  return player.locator(`img[data-material="${materialId}"]`).isVisible();
}

test('the same 07:00-09:00 ad plays at each screen’s own 07:00', async ({ browser, page }) => {
  const admin = await loginApi('entadmin');
  const at = next2230();
  const shanghaiName = uniqueName('E2E Shanghai screen');
  const tokyoName = uniqueName('E2E Tokyo screen');
  const shanghai = await playerAt(browser, admin.token, shanghaiName, at);
  const tokyo = await playerAt(browser, admin.token, tokyoName, at);

  // The Tokyo screen gets its own zone in the device's edit dialog.
  await openAs(page, 'entadmin', `/device?keyword=${encodeURIComponent(tokyoName)}`);
  await page.getByTestId(`device-edit-${tokyoName}`).click();
  const edit = page.getByTestId('device-edit-dialog');
  await expect(edit).toBeVisible();
  await edit.getByTestId('device-edit-time-zone').click();
  await page.keyboard.type('Asia/Tokyo');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Asia/Tokyo' }).first().click();
  await page.screenshot({ path: test.info().outputPath('device-time-zone.png') });
  await page.getByTestId('device-edit-submit').click();
  await expect(edit).toBeHidden();
  const detail = await ok('deviceDetail', { id: tokyo.deviceId }, admin.token);
  expect(detail.timeZone).toBe('Asia/Tokyo');
  // The other follows the enterprise; the device detail says so.
  await page.goto(`/device/context?id=${shanghai.deviceId}`);
  await expect(page.getByTestId('device-context-registry')).toContainText('Asia/Shanghai', { timeout: 30_000 });

  // One ad, 07:00-09:00, on both screens, approved.
  const suffix = Date.now().toString(36);
  const folder = await ok('materialFolderCreate', { name: `E2E zones ${suffix}` }, admin.token);
  const image = await uploadMaterial(admin.token, {
    folderId: folder.id,
    name: `zones-${suffix}.png`,
    buffer: uniquePng(640, 360),
    contentType: 'image/png',
    type: 'image',
  });
  const ad = await ok(
    'adCreate',
    {
      name: `E2E morning ad ${suffix}`,
      type: 'common',
      startAt: new Date(Date.now() - 3600_000).toISOString(),
      endAt: new Date(at + 3 * 86_400_000).toISOString(),
      strategy: 'perLoop',
      playsMin: 1,
      playsMax: 1,
      periods: [{ start: '07:00', end: '09:00' }],
      materialIds: [image.id],
      targets: {
        deviceIds: [shanghai.deviceId, tokyo.deviceId],
        groupIds: [],
        tagIds: [],
        deptIds: [],
        spliceIds: [],
      },
    },
    admin.token,
  );
  await ok('adAuditPass', { id: ad.id }, admin.token);

  // 22:30 UTC: 07:30 in Tokyo (plays), 06:30 in Shanghai (nothing yet, though it holds the ad).
  await expect.poll(() => showsImage(tokyo.player, image.id), { timeout: 120_000, intervals: [1000] }).toBe(true);
  await expect
    .poll(
      async () => {
        const playlist = await ok('devicePlaylist', { deviceId: shanghai.deviceId }, admin.token);
        return playlist.entries.find((e) => e.adId === ad.id)?.download;
      },
      { timeout: 120_000, intervals: [2000] },
    )
    .toBe('successful');
  await expect(shanghai.player.getByTestId('nothing')).toBeVisible();
  expect(await showsImage(shanghai.player, image.id)).toBe(false);
  await tokyo.player.screenshot({ path: test.info().outputPath('tokyo-0730.png') });
  await shanghai.player.screenshot({ path: test.info().outputPath('shanghai-0630.png') });

  // An hour later (07:30 in Shanghai) the Shanghai screen plays it too.
  await shanghai.player.clock.fastForward('01:00:00');
  await expect.poll(() => showsImage(shanghai.player, image.id), { timeout: 60_000, intervals: [1000] }).toBe(true);
  await shanghai.player.screenshot({ path: test.info().outputPath('shanghai-0730.png') });

  await shanghai.context.close();
  await tokyo.context.close();
});

test('the ad report counts the enterprise’s own days (Asia/Shanghai), today included', async ({ page }) => {
  await openAs(page, 'entadmin', '/report/ad');
  // The server's default range ends today in Shanghai, whatever the UTC date is.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const trend = page.locator('.ant-card-head-title', { hasText: 'Asia/Shanghai' });
  await expect(trend).toBeVisible({ timeout: 30_000 });
  await expect(trend).toContainText(today);
  const report = await ok('reportAdList', {}, (await loginApi('entadmin')).token);
  expect([report.timeZone, report.to]).toEqual(['Asia/Shanghai', today]);
  await page.screenshot({ path: test.info().outputPath('ad-report-zone.png') });
});
