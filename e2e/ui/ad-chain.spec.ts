import { randomBytes } from 'node:crypto';
import { ADVERTISER_ROLE_CODES } from '@marquee/protocol';
import type { Page } from '@playwright/test';
import { apiCall, loginApi } from '../fixtures/api.js';
import { createAccount, createRole, deptId, uniqueName } from '../fixtures/org.js';
import { pairBrowserPlayer } from '../fixtures/player.js';
import { uniquePng } from '../fixtures/png.js';
import { expect as baseExpect, openAs, test } from '../fixtures/session.js';

/** Uploads, probing, pushes and a player on a shared machine: every wait here is longer than the default. */
const expect = baseExpect.configure({ timeout: 30_000 });

/** `YYYY-MM-DD HH:mm` in the machine's time zone (the browser's too): the ad form's period format. */
function formTime(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())} ${p(at.getHours())}:${p(at.getMinutes())}`;
}

/** The input(s) of a form control: the element of the test id itself, or the inputs inside it. */
function inputs(page: Page, testId: string) {
  return page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`);
}

/** Picks a select's option by typing (searching selects load their options as one types). */
async function choose(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-item-option', { hasText: text }).first().click();
  await page.keyboard.press('Escape');
}

/**
 * The whole chain of issue 13 in Chromium, with no shortcut: a browser player is paired; an
 * advertiser (the advertiser role's permissions only, data scope 'self', the device shared
 * with it: the ad form lists the screens it sees) uploads an image in /advert/material and
 * makes an ad of it in /advert/edit aimed at that device; the operator approves it in /advert/audit; the player shows the image
 * (screenshot), plays it, uploads its plays (the player's own flush, woken by its 'online'
 * event as player.spec does), the server counts them, and the ad becomes 'playing'; pausing the
 * ad takes it off the player.
 */
test('an advertiser’s ad goes from upload, review and push to a browser player and back as plays', async ({
  browser,
  page,
}) => {
  test.setTimeout(420_000);
  const admin = await loginApi('entadmin');

  // A browser player, paired as a device of the enterprise.
  const {
    context: screen,
    player,
    deviceName,
    deviceId,
  } = await pairBrowserPlayer(browser, admin.token, 'E2E ad screen');

  // The advertiser: its own data only, and the screen shared with it.
  const role = await createRole(admin.token, {
    name: uniqueName('E2E advertiser'),
    permissionCodes: [...ADVERTISER_ROLE_CODES],
    dataScope: 'self',
  });
  const advertiser = await createAccount(admin.token, {
    prefix: 'e2e_adv',
    deptIds: [await deptId(admin.token, 'East Region')],
    roleIds: [role],
  });
  const shared = await apiCall(
    'deviceShareApply',
    { by: 'devices', ids: [deviceId], action: 'allocate', allocateInfos: [{ id: advertiser.id, type: 2 }] },
    { token: admin.token },
  );
  expect(shared.code).toBe(0);

  // 1. The advertiser uploads an image into a folder of its own.
  const suffix = randomBytes(3).toString('hex');
  const folder = `E2E ads ${suffix}`;
  const imageName = `poster-${suffix}`;
  const advertiserLogin = await openAs(page, advertiser.loginName, '/advert/material');
  await expect(page.getByTestId('material-page')).toBeVisible();
  await page.getByTestId('folder-add-root').click();
  await page.getByTestId('folder-dialog-name').fill(folder);
  await page.getByTestId('folder-dialog-submit').click();
  await page.getByTestId(`folder-node-${folder}`).click();
  // The page has drawn the folder (a navigation renders in a transition: the URL changes first,
  // and Upload asks for a folder until the page has it).
  await expect(page).toHaveURL(/folderId=/);
  await expect(page.getByTestId('material-folder-title')).toHaveText(folder);
  await page.getByTestId('material-upload').click();
  const upload = page.getByTestId('upload-dialog');
  await upload
    .getByTestId('upload-input')
    .setInputFiles([{ name: `${imageName}.png`, mimeType: 'image/png', buffer: uniquePng(640, 360) }]);
  await page.getByTestId('upload-start').click();
  await expect(upload.getByTestId('upload-done')).toHaveCount(1, { timeout: 60_000 });
  await page.getByTestId('upload-close').click();
  await expect(page.getByTestId(`material-thumb-${imageName}`)).toBeVisible({ timeout: 60_000 });

  // 2. It makes an ad of the image, from an hour ago for a week, aimed at the shared screen.
  const adName = uniqueName('E2E chain ad');
  await page.goto('/advert/edit');
  await expect(page.getByTestId('ad-edit-page')).toBeVisible();
  await page.getByTestId('ad-edit-name').fill(adName);
  const range = inputs(page, 'ad-edit-range');
  await range.first().click();
  await range.first().fill(formTime(new Date(Date.now() - 3600_000)));
  await page.keyboard.press('Enter');
  await range.nth(1).fill(formTime(new Date(Date.now() + 7 * 86_400_000)));
  await page.keyboard.press('Enter');
  await inputs(page, 'ad-edit-max').fill('9999');
  await page.getByTestId('ad-materials-pick').click();
  await page.getByTestId(`material-picker-item-${imageName}`).click();
  await page.getByTestId('material-picker-ok').click();
  await expect(page.getByTestId(`ad-material-${imageName}`)).toBeVisible();
  await choose(page, 'ad-edit-devices', deviceName);
  await page.getByTestId('ad-edit-submit').click();
  await expect(page).toHaveURL(/\/advert$/);
  await expect(page.getByTestId(`ad-row-${adName}`)).toBeVisible();
  const mine = await apiCall('adList', { page: 1, size: 10, name: adName }, { token: advertiserLogin.token });
  const ad = mine.payload.data[0];
  expect(ad.targets.deviceIds).toEqual([deviceId]);
  const materialId = ad.materialIds[0];

  // 3. The operator approves it in /advert/audit.
  const consoleContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const operator = await consoleContext.newPage();
  await openAs(operator, 'entadmin', `/advert/audit?name=${encodeURIComponent(adName)}`);
  await operator.getByTestId(`audit-pass-${adName}`).click();
  await operator.getByTestId('confirm-ok').click();
  // Decided: the review is passed, and the row leaves the queue of the ads waiting for one.
  await expect
    .poll(async () => (await apiCall('adInfo', { id: ad.id }, { token: advertiserLogin.token })).payload.reviewState)
    .toBe('passed');
  await expect(operator.getByTestId(`audit-pass-${adName}`)).toHaveCount(0);

  // 4. The player shows the ad's image.
  const image = player.locator(`img[data-material="${materialId}"]`);
  await expect(image).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  await player.screenshot({ path: test.info().outputPath('ad-on-player.png') });

  // Its download is acknowledged (the heartbeat's ready ads): the ad is playing.
  await expect
    .poll(async () => (await apiCall('adInfo', { id: ad.id }, { token: advertiserLogin.token })).payload.status, {
      timeout: 90_000,
      intervals: [2000],
    })
    .toBe('playing');
  // The device's playlist in the console shows the ad downloaded there (the player's download report).
  await operator.goto(`/device/playlist?device=${deviceId}`);
  await expect(operator.locator('tr', { hasText: adName }).getByText('下载成功')).toBeVisible();
  await operator.screenshot({ path: test.info().outputPath('playlist-downloaded.png') });

  // 5. Plays end (an image plays 10 s), the journal holds them, and the player's own upload empties it.
  await player.keyboard.press('i');
  const pending = player.getByTestId('plays-pending');
  await expect.poll(async () => Number(await pending.textContent()), { timeout: 60_000 }).toBeGreaterThan(0);
  const played = Number(await pending.textContent());
  await player.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect.poll(async () => Number(await pending.textContent()), { timeout: 60_000 }).toBe(0);
  await player.keyboard.press('i');

  // The plays reach the ad's report (rolled up within seconds of the upload): the advertiser
  // reads them on its report page.
  await expect
    .poll(
      async () => {
        const answer = await apiCall('reportAdDetail', { id: ad.id }, { token: advertiserLogin.token });
        return answer.code === 0 ? answer.payload.totals.plays : -answer.code;
      },
      { timeout: 90_000, intervals: [2000] },
    )
    .toBeGreaterThanOrEqual(played);
  const reportPage = await page.context().newPage();
  await reportPage.goto(`/advert/reportDetail?id=${ad.id}`);
  const playsKpi = reportPage.getByTestId('kpi-plays');
  await expect(playsKpi).toBeVisible();
  await expect
    .poll(async () =>
      Number((await playsKpi.locator('.ant-statistic-content-value').textContent())?.replace(/\D/g, '')),
    )
    .toBeGreaterThanOrEqual(played);
  await reportPage.screenshot({ path: test.info().outputPath('ad-report.png') });
  await reportPage.close();

  // 6. Pausing the ad (the advertiser, in /advert) takes it off the player.
  await page.getByTestId(`ad-pause-${adName}`).click();
  await page.getByTestId('confirm-ok').click();
  await expect(image).toHaveCount(0, { timeout: 60_000 });
  await expect(player.getByTestId('nothing')).toBeVisible();
  await consoleContext.close();
  await screen.close();
});
