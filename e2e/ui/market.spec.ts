import { formatFen, formatSize, formatTime, STORAGE_PACK_BYTES } from '@marquee/protocol';
import type { Page } from '@playwright/test';
import type { HeadlessPlayer } from '../../apps/server/src/player/player.js';
import { apiCall } from '../fixtures/api.js';
import { availableFen, demoProduct, pairOnlineScreens } from '../fixtures/market.js';
import { expect as baseExpect, openAs, test } from '../fixtures/session.js';

/** Quotes settle after a pause, lists refetch, players connect: every wait here is longer than the default. */
const expect = baseExpect.configure({ timeout: 30_000 });

test.use({ actionTimeout: 30_000 });

/** The market order's payment order number: the same with 'P' for 'M'. */
const payNoOf = (marketNo: string) => `P${marketNo.slice(1)}`;

/** Chooses the term of `months` on the detail page (the radio button's label: its input is hidden). */
async function chooseTerm(page: Page, months: number) {
  const input = page.getByTestId(`market-term-${months}`);
  await page.locator('label', { has: input }).click();
  await expect(input).toBeChecked();
}

/** Confirms 'Pay with balance' on the detail page and waits for the paid order's page; answers the order id. */
async function payWithBalance(page: Page, totalFen: number): Promise<string> {
  await expect(page.getByTestId('market-quote-total')).toContainText(formatFen(totalFen));
  await expect(page.getByTestId('market-pay-balance')).toBeEnabled();
  await page.getByTestId('market-pay-balance').click();
  await expect(page.getByTestId('market-confirm-text')).toContainText(formatFen(totalFen));
  await page.getByTestId('market-confirm-pay').click();
  await expect(page).toHaveURL(/\/shop\/order\?id=/);
  return new URL(page.url()).searchParams.get('id') ?? '';
}

/**
 * The market end to end (issue 27) in Chromium, on the demo catalogue and the demo wallet: the
 * enterprise administrator buys a month of device points for two screens with the balance
 * (/shop -> Screen licence -> both screens -> pay with balance -> confirm); the screens'
 * licence expiry moves on /device, the ledger shows the debit at /my/finance; auto-renewal is
 * turned on in /shop/order's 'My items'; a 200 GB storage pack bought with the balance raises
 * the material quota on /shop's header and on the material library.
 */
test.describe('market', () => {
  const players: HeadlessPlayer[] = [];
  test.afterAll(() => {
    for (const p of players) p.kill();
  });

  test('device points for two screens and a storage pack, paid with the balance', async ({ page }) => {
    // Two pairings, live players and seven pages on a shared 2-core machine.
    test.setTimeout(240_000);
    const stamp = Date.now().toString(36);
    const names = [`E2E market A ${stamp}`, `E2E market B ${stamp}`];

    const admin = await openAs(page, 'entadmin', '/shop');
    const token = admin.token;
    const paired = await pairOnlineScreens(token, names);
    players.push(...paired.players);
    const [idA, idB] = paired.ids;
    const licence = await demoProduct(token, 'Screen licence');
    const pack = await demoProduct(token, '200 GB storage pack');
    const monthOf = (p: typeof licence) => p.prices.find((x) => x.months === 1)?.price ?? 0;
    const pointsFen = 2 * monthOf(licence);
    const packFen = monthOf(pack);
    expect(pointsFen).toBeGreaterThan(0);
    const before = await availableFen(token);
    expect(before).toBeGreaterThanOrEqual(pointsFen + packFen);

    // 1. /shop: the catalogue and the wallet; Buy on the screen licence.
    await expect(page.getByTestId('market-shop-page')).toBeVisible();
    await expect(page.getByTestId('market-available')).toContainText(formatFen(before));
    await page.getByTestId(`market-buy-${licence.id}`).click();
    await expect(page).toHaveURL(new RegExp(`/shop/detail\\?id=${licence.id}`));
    await expect(page.getByTestId(`market-detail-${licence.id}`)).toContainText('Screen licence');

    // 2. A month, the two new screens (found by the run's stamp), auto-renewal off for now.
    await chooseTerm(page, 1);
    const keyword = page
      .getByTestId('market-devices-keyword')
      .locator('input')
      .or(page.locator('input[data-testid="market-devices-keyword"]'));
    await keyword.first().fill(stamp);
    await keyword.first().press('Enter');
    for (const id of [idA, idB]) {
      const row = page.getByTestId(`market-device-row-${id}`);
      await expect(row).toBeVisible();
      await row.locator('input[type="checkbox"]').check();
    }
    await expect(page.getByTestId('market-devices-chosen-count')).toContainText('2');
    const autoRenew = page.getByTestId('market-autorenew');
    if ((await autoRenew.getAttribute('aria-checked')) === 'true') await autoRenew.click();
    await expect(autoRenew).toHaveAttribute('aria-checked', 'false');
    await expect(page.getByTestId('market-quote-lines')).toContainText(names[0]);
    await expect(page.getByTestId('market-quote-lines')).toContainText(names[1]);
    await expect(page.getByTestId('market-quote-available')).toContainText(formatFen(before));
    await page.screenshot({ path: test.info().outputPath('points-quote.png') });

    // 3. Pay with the balance and confirm: the order, paid, on /shop/order.
    const orderId = await payWithBalance(page, pointsFen);
    const info = await apiCall('marketOrderInfo', { id: orderId }, { token });
    expect(info.code, info.message).toBe(0);
    expect(info.payload.order).toMatchObject({
      state: 'paid',
      payMethod: 'balance',
      amount: pointsFen,
      quantity: 2,
      source: 'purchase',
    });
    await expect(page.getByTestId('market-order-drawer')).toBeVisible();
    await expect(page.getByTestId('market-order-amount')).toContainText(formatFen(pointsFen));
    expect(await availableFen(token)).toBe(before - pointsFen);
    const expiryOf = new Map(info.payload.lines.map((l) => [l.subjectId ?? '', l.expiresAfter ?? '']));
    for (const id of [idA, idB]) {
      const line = info.payload.lines.find((l) => l.subjectId === id);
      // A new screen is on its 30-day trial: a month more from its trial's end.
      expect(Date.parse(line?.expiresAfter ?? '')).toBeGreaterThan(Date.parse(line?.expiresBefore ?? ''));
    }

    // 4. /device: both screens licensed, their licence column showing the new expiry.
    await page.goto('/device');
    await expect(page.getByTestId('device-page')).toBeVisible();
    await page.getByTestId('device-filter-keyword').fill(stamp);
    await page.getByTestId('device-search').click();
    for (const [i, id] of [idA, idB].entries()) {
      const cell = page.getByTestId(`device-row-${names[i]}`).getByTestId(`device-licence-${id}`);
      await expect(cell.getByTestId('device-licence-licensed')).toBeVisible();
      await expect(cell).toContainText(formatTime(expiryOf.get(id) ?? ''));
    }
    await page.screenshot({ path: test.info().outputPath('devices-licensed.png') });

    // 5. /my/finance: the debit in the ledger, naming the order's payment.
    await page.goto('/my/finance?tab=movements');
    await expect(page.getByTestId('finance-available')).toContainText(formatFen(before - pointsFen));
    const debit = page.locator('tr', { hasText: payNoOf(info.payload.order.no) });
    await expect(debit).toContainText(formatFen(pointsFen));
    const movements = await apiCall('financeMovements', { page: 1, size: 20 }, { token });
    expect(movements.payload.data.filter((m) => m.cause.id === orderId)).toMatchObject([
      { code: 'payment', amount: -pointsFen },
    ]);

    // 6. /shop/order, My items: auto-renewal turned on for screen A's licence.
    await page.goto('/shop/order?tab=items');
    const items = await apiCall('marketItemList', { page: 1, size: 20, keyword: stamp }, { token });
    expect(items.code, items.message).toBe(0);
    expect(items.payload.data).toHaveLength(2);
    const itemA = items.payload.data.find((i) => i.subjectId === idA);
    expect(itemA).toMatchObject({ kind: 'devicePoints', autoRenew: false, state: 'active' });
    const toggle = page.getByTestId(`market-item-autorenew-${itemA?.id}`);
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect
      .poll(async () => {
        const again = await apiCall('marketItemList', { page: 1, size: 20, keyword: stamp }, { token });
        return again.payload.data.map((i) => [i.subjectId, i.autoRenew]);
      })
      .toEqual(
        expect.arrayContaining([
          [idA, true],
          [idB, false],
        ]),
      );

    // 7. A 200 GB storage pack for a month: the quota rises on /shop's header and in the material library.
    const storage = await apiCall('marketStorage', {}, { token });
    expect(storage.code, storage.message).toBe(0);
    const quotaBefore = storage.payload.quotaBytes;
    await page.goto('/shop');
    await expect(page.getByTestId('market-storage-text')).toContainText(formatSize(quotaBefore));
    await page.getByTestId(`market-buy-${pack.id}`).click();
    await expect(page).toHaveURL(new RegExp(`/shop/detail\\?id=${pack.id}`));
    await chooseTerm(page, 1);
    await expect(page.getByTestId('market-quota-after')).toContainText(formatSize(quotaBefore + STORAGE_PACK_BYTES));
    const packOrder = await payWithBalance(page, packFen);
    expect((await apiCall('marketOrderInfo', { id: packOrder }, { token })).payload.order).toMatchObject({
      state: 'paid',
      kind: 'storagePack',
      amount: packFen,
    });
    expect(await availableFen(token)).toBe(before - pointsFen - packFen);
    await page.goto('/shop');
    await expect(page.getByTestId('market-storage-text')).toContainText(formatSize(quotaBefore + STORAGE_PACK_BYTES));
    await page.screenshot({ path: test.info().outputPath('storage-raised.png') });
    await page.goto('/advert/material');
    await expect(page.getByTestId('storage-usage-text')).toContainText(formatSize(quotaBefore + STORAGE_PACK_BYTES));
  });
});
