import { randomBytes } from 'node:crypto';
import { formatFen, orderAmounts, wallClock } from '@marquee/protocol';
import type { Locator, Page } from '@playwright/test';
import { apiCall, loginApi } from '../fixtures/api.js';
import { pairBrowserPlayer } from '../fixtures/player.js';
import { uniquePng } from '../fixtures/png.js';
import { fundOffline, newAdvertiser, ok, wallet } from '../fixtures/sales.js';
import { expect as baseExpect, openAs, test } from '../fixtures/session.js';

/** Uploads, review, a player, plays and the jobs on a shared machine: every wait here is longer than the default. */
const expect = baseExpect.configure({ timeout: 30_000 });

// A step that cannot happen fails within half a minute, not at the test's timeout.
test.use({ actionTimeout: 30_000, viewport: { width: 1440, height: 900 } });

/** The input(s) of a form control: the element of the test id itself, or the inputs inside it. */
function inputs(page: Page, testId: string): Locator {
  return page.locator(
    `input[data-testid="${testId}"], textarea[data-testid="${testId}"], [data-testid="${testId}"] input`,
  );
}

/** Picks a select's option by typing (searching selects filter their options as one types). */
async function choose(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
  await page.keyboard.press('Escape');
}

/** The OK button of the confirmation on screen (a Popconfirm's or a Modal.confirm's). */
async function confirm(page: Page) {
  const ok = page.getByTestId('confirm-ok').or(page.locator('.ant-modal-confirm-btns .ant-btn-primary'));
  await ok.first().click();
}

/** An order's state, read from the server as the advertiser. */
async function orderState(token: string, id: string): Promise<string> {
  const info = await apiCall('salesOrderInfo', { id }, { token });
  return info.code === 0 ? info.payload.order.state : `error ${info.code}`;
}

/**
 * The commercial chain of issue 28 in Chromium, with no API shortcut in the chain itself (the
 * setup pairs a browser player, makes an advertiser and funds its wallet the documented
 * offline way, as ad-chain and money do): the operator (the demo enterprise's administrator)
 * creates a CPT slot over the player's screen on /operate/slot, a goods item of it for the next
 * 30 days on /operate/goods, puts it on sale, and a 10%-off coupon on /operate/coupon; the
 * advertiser sees the goods, opens the order composer from them, sees the availability, orders
 * one rotation with the coupon and pays it from its wallet (the amount frozen); it uploads an
 * image into its library and gives it to the sub-order; the operator approves the ad in
 * /advert/audit; the browser player plays it and its plays reach the ad's report; the order is
 * in progress; the operator computes the settlement on the order's page (the days settled so
 * far: up to yesterday) and the page shows the server's figures; the
 * advertiser's finance page shows the frozen amount and the hold's movement linked to the
 * order. A second order is cancelled from its page and its whole amount comes back.
 */
test('a slot, goods and a coupon; an order paid, its ad approved and played, settled; a second one cancelled and refunded', async ({
  browser,
  page,
}) => {
  test.setTimeout(600_000);
  const suffix = randomBytes(3).toString('hex');
  const admin = await loginApi('entadmin');

  // A browser player, paired as a device of the enterprise.
  const {
    context: screen,
    player,
    deviceName,
    deviceId,
  } = await pairBrowserPlayer(browser, admin.token, 'E2E sales screen');

  // The advertiser, with 1,000 yuan in its wallet.
  const buyer = await newAdvertiser(admin.token);
  await fundOffline(buyer.token, 100_000);
  expect(await wallet(buyer.token)).toMatchObject({ available: 100_000, frozen: 0 });

  // 1. The operator makes the slot, the goods (on sale) and the coupon in the console.
  const consoleContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const operator = await consoleContext.newPage();
  await openAs(operator, 'entadmin', '/operate/slot');
  const slotName = `E2E 轮播 ${suffix}`;
  const price = 120;
  await operator.getByTestId('sales-slot-add').click();
  await expect(operator.getByTestId('sales-slot-form')).toBeVisible();
  await inputs(operator, 'sales-slot-name').fill(slotName);
  await inputs(operator, 'sales-slot-duration').fill('15');
  await inputs(operator, 'sales-slot-cpt-price').fill((price / 100).toFixed(2));
  await inputs(operator, 'sales-slot-rotations').fill('2');
  await choose(operator, 'sales-slot-devices', deviceName);
  await operator.getByTestId('sales-slot-submit').click();
  await expect(operator.getByText(slotName)).toBeVisible();
  const slots = await ok('salesSlotList', { page: 1, size: 10, keyword: slotName }, admin.token);
  const slot = slots.data[0];
  expect(slot).toMatchObject({ name: slotName, salesMethod: 'cpt', cptPrice: price, maxRotations: 2, screens: 1 });
  expect(slot.targets.deviceIds).toEqual([deviceId]);

  // Goods of the slot for the next 30 days (the dialog's default period starts today), put on sale.
  const goodsName = `E2E 今明两天 ${suffix}`;
  await operator.goto('/operate/goods');
  await operator.getByTestId('sales-goods-add').click();
  await expect(operator.getByTestId('sales-goods-form')).toBeVisible();
  await inputs(operator, 'sales-goods-name').fill(goodsName);
  await choose(operator, 'sales-goods-slot', slotName);
  await operator.getByTestId('sales-goods-submit').click();
  await expect(operator.getByText(goodsName)).toBeVisible();
  const made = (await ok('salesGoodsList', { page: 1, size: 10, keyword: goodsName }, admin.token)).data[0];
  await operator.getByTestId(`sales-goods-shelf-${made.id}`).click();
  await confirm(operator);
  await expect.poll(async () => (await ok('salesGoodsInfo', { id: made.id }, admin.token)).state).toBe('onSale');
  const goods = await ok('salesGoodsInfo', { id: made.id }, admin.token);

  const couponName = `E2E 九折 ${suffix}`;
  await operator.goto('/operate/coupon');
  await operator.getByTestId('sales-coupon-add').click();
  await expect(operator.getByTestId('sales-coupon-form')).toBeVisible();
  await inputs(operator, 'sales-coupon-name').fill(couponName);
  await inputs(operator, 'sales-coupon-discount').fill('0.9');
  await inputs(operator, 'sales-coupon-limit').fill('100');
  await operator.getByTestId('sales-coupon-submit').click();
  await expect(operator.getByText(couponName)).toBeVisible();

  // 2. The advertiser sees the goods on sale and orders them from the composer, with the coupon.
  await openAs(page, buyer.loginName, '/operate/goods');
  await page.getByTestId(`sales-goods-order-${goods.id}`).click();
  await expect(page).toHaveURL(/\/operate\/order\?.*compose=1/);
  const composer = page.getByTestId('sales-composer');
  await expect(composer).toBeVisible();
  // One day (today in the enterprise's zone, whose days orders are dated in; from 16:00 UTC
  // Shanghai's today is UTC's tomorrow), all the hours the goods offer (all day): the ad plays now.
  const zone = (await ok('timeZoneList', {}, buyer.token)).enterprise;
  const today = wallClock(Date.now(), zone).day;
  await expect(composer).toContainText(zone);
  const range = inputs(page, 'sales-composer-period');
  await range.first().click();
  const todayCell = page.locator(`.ant-picker-dropdown:visible .ant-picker-cell[title="${today}"]`).first();
  await todayCell.click();
  await todayCell.click();
  await expect(range.first()).toHaveValue(today);
  await expect(range.nth(1)).toHaveValue(today);
  // Its availability: the one screen, all 24 hours free (2 rotations each), exact now.
  await expect(page.getByTestId(`sales-availability-${slot.id}`)).toBeVisible();
  await expect(page.getByTestId('sales-availability-chart')).toBeVisible();
  await expect(page.getByTestId('sales-availability-at')).toBeVisible();
  await expect(page.getByTestId('sales-availability-screens')).toContainText(deviceName);
  await choose(page, 'sales-composer-coupon', couponName);
  const expected = orderAmounts(
    [{ method: 'cpt', unitPrice: price, rotations: 1, screens: 1, days: 1, hoursPerDay: 24 }],
    100,
    90,
  );
  await expect(page.getByTestId('sales-quote-list')).toContainText(formatFen(expected.listAmount));
  await expect(page.getByTestId('sales-quote-total')).toContainText(formatFen(expected.amount));
  await expect(page.getByTestId('sales-quote-available')).toContainText(formatFen(100_000));
  // The quote settles (debounced) before the order can be placed.
  await expect(page.getByTestId('sales-composer-submit')).toBeEnabled();
  await page.getByTestId('sales-composer-submit').click();
  await expect(page.getByTestId('sales-composer-placed')).toBeVisible();
  const placed = await ok('salesOrderList', { page: 1, size: 10, goodsId: goods.id }, buyer.token);
  const order = placed.data[0];
  expect(order).toMatchObject({ state: 'unpaid', amount: expected.amount, couponName });
  // Pay now: the amount is frozen in the wallet.
  await page.getByTestId(`sales-pay-${order.id}`).click();
  await expect(page.getByTestId('sales-pay-text')).toContainText(formatFen(expected.amount));
  await page.getByTestId('sales-pay-ok').click();
  await expect.poll(() => orderState(buyer.token, order.id)).toBe('toUpload');
  expect(await wallet(buyer.token)).toMatchObject({
    available: 100_000 - expected.amount,
    frozen: expected.amount,
  });
  await page.screenshot({ path: test.info().outputPath('order-paid.png') });

  // 3. The advertiser uploads an image into its library and gives it to the sub-order.
  const folder = `E2E sales ${suffix}`;
  const imageName = `airtime-${suffix}`;
  await page.goto('/advert/material');
  await expect(page.getByTestId('material-page')).toBeVisible();
  await page.getByTestId('folder-add-root').click();
  await page.getByTestId('folder-dialog-name').fill(folder);
  await page.getByTestId('folder-dialog-submit').click();
  await page.getByTestId(`folder-node-${folder}`).click();
  // The page has drawn the folder (a navigation renders in a transition: the URL changes first,
  // and Upload asks for a folder until the page has it).
  await expect(page).toHaveURL(/folderId=/);
  await expect(page.getByTestId('material-folder-title')).toHaveText(folder);
  const upload = page.getByTestId('upload-dialog');
  // The library's toolbar answers once its folder has loaded: click until the dialog opens.
  await expect(async () => {
    await page.getByTestId('material-upload').click();
    await expect(upload).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await upload
    .getByTestId('upload-input')
    .setInputFiles([{ name: `${imageName}.png`, mimeType: 'image/png', buffer: uniquePng(640, 360) }]);
  await page.getByTestId('upload-start').click();
  await expect(upload.getByTestId('upload-done')).toHaveCount(1, { timeout: 60_000 });
  await page.getByTestId('upload-close').click();
  await expect(page.getByTestId(`material-thumb-${imageName}`)).toBeVisible({ timeout: 60_000 });

  await page.goto(`/operate/orderDetail?id=${order.id}`);
  await expect(page.getByTestId('sales-order-detail')).toBeVisible();
  await expect(page.getByTestId('sales-order-detail-no')).toContainText(order.no);
  await expect(page.getByTestId('sales-order-to-upload')).toBeVisible();
  const sub = (await ok('salesOrderInfo', { id: order.id }, buyer.token)).subOrders[0];
  await page.getByTestId(`sales-sub-upload-${sub.id}`).click();
  await expect(page.getByTestId('sales-materials-form')).toBeVisible();
  const adName = `E2E 订单广告 ${suffix}`;
  await inputs(page, 'sales-materials-name').fill(adName);
  await page.getByTestId('ad-materials-pick').click();
  await page.getByTestId(`material-picker-item-${imageName}`).click();
  await page.getByTestId('material-picker-ok').click();
  await expect(page.getByTestId(`ad-material-${imageName}`)).toBeVisible();
  await page.getByTestId('sales-materials-submit').click();
  await expect(page.getByTestId(`sales-sub-ad-${sub.id}`)).toBeVisible();
  await expect.poll(() => orderState(buyer.token, order.id)).toBe('paid');
  const withAd = (await ok('salesOrderInfo', { id: order.id }, buyer.token)).subOrders[0];
  expect(withAd).toMatchObject({ adName, adReviewState: 'pending' });
  const adId = withAd.adId ?? '';
  const ad = await ok('adInfo', { id: adId }, buyer.token);
  expect(ad.targets.deviceIds).toEqual([deviceId]);
  const materialId = ad.materialIds[0];

  // 4. The operator approves it in /advert/audit.
  await operator.goto(`/advert/audit?name=${encodeURIComponent(adName)}`);
  await operator.getByTestId(`audit-pass-${adName}`).click();
  await confirm(operator);
  await expect.poll(async () => (await ok('adInfo', { id: adId }, buyer.token)).reviewState).toBe('passed');

  // 5. The player shows it; the order is in progress (its first day has come, its ad passed).
  const image = player.locator(`img[data-material="${materialId}"]`);
  await expect(image).toBeVisible({ timeout: 90_000 });
  await player.screenshot({ path: test.info().outputPath('order-ad-on-player.png') });
  await expect
    .poll(() => orderState(buyer.token, order.id), { timeout: 120_000, intervals: [3000] })
    .toBe('inProgress');
  await page.reload();
  await expect(page.getByTestId('sales-order-detail')).toBeVisible();

  // Plays end (an image plays 10 s), the player uploads them, the rollups count them.
  await player.keyboard.press('i');
  const pending = player.getByTestId('plays-pending');
  await expect.poll(async () => Number(await pending.textContent()), { timeout: 60_000 }).toBeGreaterThan(0);
  const played = Number(await pending.textContent());
  await player.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect.poll(async () => Number(await pending.textContent()), { timeout: 60_000 }).toBe(0);
  await player.keyboard.press('i');
  await expect
    .poll(
      async () => {
        const answer = await apiCall('reportAdDetail', { id: adId }, { token: buyer.token });
        return answer.code === 0 ? answer.payload.totals.plays : -answer.code;
      },
      { timeout: 90_000, intervals: [2000] },
    )
    .toBeGreaterThanOrEqual(played);

  // 6. The operator computes the settlement on the order's page. Computed before the period
  // ends it settles the days up to yesterday (settlement.ts): an order of today has no
  // screen-day settled yet, so the page shows the figures the server computed (the plays so
  // far are the ad report's, above), the amount frozen and nothing billed beyond it.
  await operator.goto(`/operate/orderDetail?id=${order.id}`);
  await expect(operator.getByTestId('sales-settlement')).toBeVisible();
  await operator.getByTestId('sales-settlement-compute').click();
  await expect
    .poll(
      async () =>
        (await apiCall('salesSettlementInfo', { orderId: order.id, page: 1, size: 50 }, { token: admin.token })).payload
          ?.settlement?.state ?? null,
    )
    .toBe('toBePaid');
  const settlement = (await ok('salesSettlementInfo', { orderId: order.id, page: 1, size: 50 }, admin.token))
    .settlement;
  expect(settlement?.frozenAmount).toBe(expected.amount);
  expect(settlement?.billedAmount).toBeLessThanOrEqual(expected.amount);
  const delivered = operator.getByTestId('sales-settlement-delivered');
  await expect
    // '<plays> (<percent of expected>%)'
    .poll(async () => Number(/\d+/.exec((await delivered.textContent()) ?? '')?.[0] ?? '-1'))
    .toBe(settlement?.deliveredPlays ?? -1);
  await expect(operator.getByTestId('sales-settlement-billed')).toContainText(
    formatFen(settlement?.billedAmount ?? -1),
  );
  await operator.screenshot({ path: test.info().outputPath('settlement.png') });

  // 6b. The operator draws up the order's contract (signed in the product: no e-signature
  // provider here), lands on the contracts page filtered by its number; the advertiser signs
  // the document whose SHA-256 the dialog shows.
  await operator.getByTestId('sales-order-contract-draw').click();
  await expect(
    operator.locator('.ant-radio-wrapper', { has: operator.getByTestId('contract-draw-esign') }),
  ).toHaveClass(/ant-radio-wrapper-disabled/);
  await operator.getByTestId('contract-draw-submit').click();
  await expect(operator).toHaveURL(/\/operate\/signContract\?keyword=C/);
  const drawn = (await ok('salesContractList', { page: 1, size: 10, keyword: order.no }, admin.token)).data[0];
  await expect(operator.getByTestId(`contract-row-${drawn.id}`)).toBeVisible();
  await page.goto(`/operate/signContract?keyword=${encodeURIComponent(order.no)}`);
  await page.getByTestId(`contract-sign-${drawn.id}`).click();
  await expect(page.getByTestId('contract-sign-hash')).toContainText(drawn.sha256);
  await page.getByTestId('contract-sign-agree').check();
  await page.getByTestId('contract-sign-submit').click();
  await expect(page.getByTestId(`contract-row-${drawn.id}`).getByTestId('sales-contract-state-signed')).toBeVisible();
  const signed = await ok('salesContractInfo', { id: drawn.id }, admin.token);
  expect(signed).toMatchObject({ state: 'signed', sha256: drawn.sha256 });
  expect(signed.signedBy).toBeTruthy();
  await page.screenshot({ path: test.info().outputPath('contract-signed.png') });

  // 7. The advertiser's finance page agrees: the amount frozen, the hold linked to the order.
  await page.goto('/my/finance');
  await expect(page.getByTestId('finance-available')).toContainText(formatFen(100_000 - expected.amount));
  await expect(page.getByTestId('finance-frozen')).toContainText(formatFen(expected.amount));
  const holdRow = page.getByTestId('finance-movements-row').filter({ hasText: order.no });
  await expect(holdRow.first()).toBeVisible();
  await expect(holdRow.first().getByTestId('finance-movements-cause')).toHaveAttribute(
    'href',
    new RegExp(`/operate/orderDetail\\?id=${order.id}`),
  );

  // 8. A second order (tomorrow), paid, then cancelled from its page: the whole amount comes back.
  await page.goto(`/operate/order?compose=1&goodsId=${goods.id}`);
  await expect(page.getByTestId('sales-composer')).toBeVisible();
  await expect(page.getByTestId('sales-quote-total')).toBeVisible();
  await expect(page.getByTestId('sales-composer-submit')).toBeEnabled();
  await page.getByTestId('sales-composer-submit').click();
  await expect(page.getByTestId('sales-composer-placed')).toBeVisible();
  const orders = await ok('salesOrderList', { page: 1, size: 10, goodsId: goods.id, state: 'unpaid' }, buyer.token);
  const second = orders.data[0];
  await page.getByTestId(`sales-pay-${second.id}`).click();
  await page.getByTestId('sales-pay-ok').click();
  await expect.poll(() => orderState(buyer.token, second.id)).toBe('toUpload');
  const frozen = await wallet(buyer.token);
  expect(frozen.frozen).toBe(expected.amount + second.amount);
  await page.goto(`/operate/orderDetail?id=${second.id}`);
  await page.getByTestId('sales-order-detail-cancel').click();
  await confirm(page);
  await expect.poll(() => orderState(buyer.token, second.id)).toBe('cancelled');
  expect(await wallet(buyer.token)).toMatchObject({
    available: 100_000 - expected.amount,
    frozen: expected.amount,
  });
  const cancelled = (await ok('salesOrderInfo', { id: second.id }, buyer.token)).order;
  expect(cancelled).toMatchObject({ refundedAmount: second.amount, paidAmount: 0, frozenAmount: 0 });
  await expect(page.getByTestId('sales-order-transfers')).toContainText(formatFen(second.amount));

  await consoleContext.close();
  await screen.close();
});
