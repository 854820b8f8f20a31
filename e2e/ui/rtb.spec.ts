import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { formatFen, rtbCadence } from '@marquee/protocol';
import type { Locator, Page } from '@playwright/test';
import { loginApi, uploadMaterial } from '../fixtures/api.js';
import { pairBrowserPlayer } from '../fixtures/player.js';
import { uniquePng } from '../fixtures/png.js';
import { fundOffline, ok, wallet } from '../fixtures/sales.js';
import { expect as baseExpect, openAs, test } from '../fixtures/session.js';

/** Review, the minute jobs (decide, bill), the player's manifest poll and plays' upload: long waits. */
const expect = baseExpect.configure({ timeout: 30_000 });

// A step that cannot happen fails within half a minute, not at the test's timeout.
test.use({ actionTimeout: 30_000, viewport: { width: 1440, height: 900 } });

/** The input(s) of a form control: the element of the test id itself, or the inputs inside it. */
function inputs(page: Page, testId: string): Locator {
  return page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`);
}

/** Picks a select's option by typing (searching selects filter their options as one types). */
async function choose(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  await page.keyboard.press('Escape');
}

/** A Statistic's figure as a number of its digits (fen for an amount: formatFen shows two decimals). */
async function figure(stat: Locator): Promise<number> {
  const text = (await stat.locator('.ant-statistic-content').textContent({ timeout: 5_000 })) ?? '';
  return Number(text.replace(/\D/g, ''));
}

/**
 * Programmatic airtime (issue 29) in Chromium: a browser player is paired; the operator has a
 * slot over it (15 s turns, 20 rotations: a turn every 15 s) and switches RTB on with a 1-yuan
 * floor in the slot's RTB dialog on /operate/slot; the demo advertiser (funded the documented
 * offline way when short) uploads an image and creates a campaign on /operate/order's campaigns
 * tab, bidding 50 yuan per thousand, asap; the operator approves the campaign's ad in
 * /advert/audit; the server's minute job decides the screen's next turns for the campaign and
 * the player shows its image in the slot's turns (screenshot); the player's completed plays
 * are uploaded and billed by the minute bill job: the campaign's drawer shows plays and spend in
 * its delivery totals and a payment in its ledger transfers, and the advertiser's wallet is
 * lower by exactly the spend.
 */
test('an RTB campaign wins a slot’s turns on a browser player and its plays are billed as spend', async ({
  browser,
  page,
}) => {
  test.setTimeout(480_000);
  const suffix = randomBytes(3).toString('hex');
  const admin = await loginApi('entadmin');

  // 1. A browser player, paired as a device of the enterprise.
  const {
    context: screen,
    player,
    deviceName,
    deviceId,
  } = await pairBrowserPlayer(browser, admin.token, 'E2E RTB screen');

  // 2. The operator's slot over the screen: 15 s turns, 20 rotations (a turn every 15 s) ...
  const slotName = `E2E RTB ${suffix}`;
  const slot = await ok(
    'salesSlotSave',
    {
      name: slotName,
      width: 1920,
      height: 1080,
      durationSec: 15,
      salesMethod: 'cpt',
      cptPrice: 100,
      maxRotations: 20,
      targets: { deviceIds: [deviceId], groupIds: [], tagIds: [], spliceIds: [] },
    },
    admin.token,
  );
  expect(rtbCadence(slot).everySec).toBe(15);
  // ... and RTB switched on with a 1-yuan floor in the slot's RTB dialog.
  const consoleContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const operator = await consoleContext.newPage();
  await openAs(operator, 'entadmin', '/operate/slot');
  await operator.getByTestId(`sales-slot-rtb-${slot.id}`).click();
  await expect(operator.getByTestId('sales-rtb-form')).toBeVisible();
  await operator.getByTestId('sales-rtb-switch').click();
  await inputs(operator, 'sales-rtb-floor').fill('1');
  await operator.getByTestId('sales-rtb-submit').click();
  await expect(operator.getByTestId('sales-rtb-form')).toBeHidden();
  expect(await ok('salesSlotInfo', { id: slot.id }, admin.token)).toMatchObject({ rtbEnabled: true, rtbFloor: 100 });

  // 3. The demo advertiser, with enough in its wallet for the budget (recharged offline when short).
  const budget = 10_000;
  const buyer = await loginApi('advertiser');
  if ((await wallet(buyer.token)).available < budget) await fundOffline(buyer.token, 100_000);
  const before = await wallet(buyer.token);
  expect(before.available).toBeGreaterThanOrEqual(budget);

  // Its image in its library.
  const folder = await ok('materialFolderCreate', { name: `E2E RTB ${suffix}` }, buyer.token);
  const image = await uploadMaterial(buyer.token, {
    folderId: folder.id,
    name: `rtb-${suffix}.png`,
    buffer: uniquePng(640, 360),
    contentType: 'image/png',
    type: 'image',
  });

  // It creates the campaign on /operate/order's campaigns tab: 50 yuan per thousand, 100 yuan, asap, the screen.
  const campaignName = `E2E 竞价 ${suffix}`;
  await openAs(page, 'advertiser', '/operate/order?tab=campaigns');
  await page.getByTestId('rtb-campaign-new').click();
  const form = page.getByTestId('rtb-campaign-form');
  await expect(form).toBeVisible();
  await inputs(page, 'rtb-campaign-name').fill(campaignName);
  await inputs(page, 'rtb-campaign-bid').fill('50');
  await inputs(page, 'rtb-campaign-total').fill((budget / 100).toFixed(2));
  await page.getByTestId('rtb-campaign-pacing').locator('input[value="asap"]').check();
  await choose(page, 'rtb-campaign-devices', deviceName);
  await page.getByTestId('ad-materials-pick').click();
  await page.getByTestId(`material-picker-item-${image.name}`).click();
  await page.getByTestId('material-picker-ok').click();
  await expect(page.getByTestId(`ad-material-${image.name}`)).toBeVisible();
  await page.getByTestId('rtb-campaign-submit').click();
  await expect(form).toBeHidden();
  const listed = await ok('rtbCampaignList', { keyword: campaignName, page: 1, pageSize: 10 }, buyer.token);
  expect(listed.data).toHaveLength(1);
  const campaign = listed.data[0];
  expect(campaign).toMatchObject({
    bidCpm: 5000,
    totalBudget: budget,
    pacing: 'asap',
    adReviewState: 'pending',
    materialIds: [image.id],
    targets: { deviceIds: [deviceId] },
  });
  await expect(page.getByTestId(`rtb-campaign-name-${campaign.id}`)).toBeVisible();
  // Creating froze the budget.
  expect(await wallet(buyer.token)).toMatchObject({ available: before.available - budget });

  // 4. The operator approves the campaign's ad in /advert/audit.
  const adName = campaign.adName ?? '';
  await operator.goto(`/advert/audit?name=${encodeURIComponent(adName)}`);
  await operator.getByTestId(`audit-pass-${adName}`).click();
  await operator
    .getByTestId('confirm-ok')
    .or(operator.locator('.ant-modal-confirm-btns .ant-btn-primary'))
    .first()
    .click();
  await expect
    .poll(async () => (await ok('rtbCampaignInfo', { id: campaign.id }, buyer.token)).campaign.adReviewState)
    .toBe('passed');

  // 5. The next decision (every minute) gives the campaign the screen's turns (the auction log
  // shows them won at the floor: the only bidder pays the floor) ...
  await expect
    .poll(
      async () => {
        const log = await ok('rtbAuctionList', { slotId: slot.id, page: 1, pageSize: 50 }, admin.token);
        const won = log.data.filter((a) => a.state === 'won' || a.state === 'billed');
        return won.length > 0 && won.every((a) => a.winnerName === campaignName && a.clearingCpm === 100);
      },
      { timeout: 120_000, intervals: [5000] },
    )
    .toBe(true);
  // ... and the player shows its image.
  const shown = player.locator(`img[data-material="${image.id}"]`);
  await expect(shown).toBeVisible({ timeout: 180_000 });
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  mkdirSync('/tmp/shots', { recursive: true });
  await player.screenshot({ path: '/tmp/shots/rtb-player.png' });
  await player.screenshot({ path: test.info().outputPath('rtb-player.png') });

  // 6. Completed plays are uploaded (every 30 s) and billed (every minute): plays and spend.
  await expect
    .poll(
      async () => {
        const c = (await ok('rtbCampaignInfo', { id: campaign.id }, buyer.token)).campaign;
        return c.plays > 0 && c.spent > 0;
      },
      { timeout: 240_000, intervals: [5000] },
    )
    .toBe(true);

  // The campaign's drawer: plays and spend in its delivery totals, a payment in its ledger transfers.
  const drawer = page.getByTestId('rtb-campaign-drawer');
  await expect(async () => {
    await page.reload();
    await page.getByTestId(`rtb-campaign-detail-${campaign.id}`).click();
    await expect(drawer.getByTestId('rtb-delivery-totals')).toBeVisible({ timeout: 10_000 });
    expect(await figure(drawer.getByTestId('rtb-delivery-plays'))).toBeGreaterThan(0);
    expect(await figure(drawer.getByTestId('rtb-delivery-spend'))).toBeGreaterThan(0);
    await expect(drawer.getByTestId('rtb-transfer-payment').first()).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000, intervals: [3000] });
  // The budget's hold (re-made for what is left after each bill) is listed beside the payments.
  await expect(drawer.getByTestId('rtb-transfer-hold').first()).toBeVisible();
  await expect(drawer.getByTestId('rtb-delivery-chart')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('rtb-campaign-drawer.png') });

  // The drawer's figures are the server's: its totals and the campaign's billed spend.
  const delivery = await ok('rtbCampaignDelivery', { id: campaign.id, by: 'day' }, buyer.token);
  expect(delivery.totals.plays).toBeGreaterThan(0);
  expect(delivery.totals.spend).toBeGreaterThan(0);
  await expect(drawer.getByTestId('rtb-delivery-spend')).toContainText(
    formatFen(delivery.totals.spend, 'zh-CN').replace(/^[^\d]*/, ''),
  );

  // The spend left the advertiser's wallet as the campaign's payments, each one of its bills
  // (polled: the bill job may post between two reads), and the rest of the budget stays frozen.
  await expect(async () => {
    const info = await ok('rtbCampaignInfo', { id: campaign.id }, buyer.token);
    const now = await wallet(buyer.token);
    const again = await ok('rtbCampaignInfo', { id: campaign.id }, buyer.token);
    expect(again.campaign.spent).toBe(info.campaign.spent);
    const payments = info.transfers.filter((t) => t.code === 'payment').reduce((sum, t) => sum + Math.abs(t.amount), 0);
    expect(info.campaign.spent).toBeGreaterThan(0);
    expect(payments).toBe(info.campaign.spent);
    // The demo advertiser's wallet is shared with other specs' campaigns (rtb-region's late
    // plays are billed meanwhile): it paid at least this campaign's spend, and holds at most
    // what is left of its budget beside theirs. The server tests prove the fen-exact ledger.
    expect(before.balance - now.balance).toBeGreaterThanOrEqual(info.campaign.spent);
    expect(info.campaign.spent + info.campaign.frozen).toBeLessThanOrEqual(budget);
  }).toPass({ timeout: 90_000, intervals: [2000] });

  await consoleContext.close();
  await screen.close();
});
