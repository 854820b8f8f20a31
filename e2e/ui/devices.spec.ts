import AxeBuilder from '@axe-core/playwright';
import { HeadlessPlayer } from '../../apps/server/src/player/player.js';
import { BASE_URL } from '../fixtures/api.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * The device registry end to end (issue 9): a headless player pairs with the product and
 * shows its code; the enterprise administrator adds it in the console by that code, sees it
 * go online in the device list, opens its details (reported state, status history), edits
 * it, disables it (the player is cut off) and deletes it.
 */
test.describe('devices', () => {
  const players: HeadlessPlayer[] = [];
  test.afterAll(() => {
    for (const p of players) p.kill();
  });

  test('adds a pairing player by its code, sees it online, opens its details, disables and deletes it', async ({
    page,
  }) => {
    // Pairing, a live player and six pages on a shared 2-core machine.
    test.setTimeout(180_000);
    const name = `E2E screen ${Date.now().toString(36)}`;
    const player = new HeadlessPlayer({ server: BASE_URL, heartbeatSec: 2 });
    players.push(player);
    const pairing = await player.pair();
    const credentials = player.awaitCredentials(pairing, 50_000);

    await openAs(page, 'entadmin', '/device');
    await expect(page.getByTestId('device-page')).toBeVisible({ timeout: 30_000 });

    // A wrong code is refused at the field, in the console's language.
    await page.getByTestId('device-add').click();
    const dialog = page.getByTestId('device-add-dialog');
    await dialog.getByTestId('device-add-code').fill('ZZZZZZ');
    await dialog.getByTestId('device-add-name').fill(name);
    await page.getByTestId('device-add-submit').click();
    await expect(dialog.getByText('配对码不存在或已过期', { exact: false })).toBeVisible();

    // The player's code (typed in lower case) binds it.
    await dialog.getByTestId('device-add-code').fill(pairing.code.toLowerCase());
    await page.getByTestId('device-add-submit').click();
    await expect(dialog).toBeHidden();
    await credentials;
    await player.connect();

    const row = page.getByTestId(`device-row-${name}`);
    await expect(row).toBeVisible();
    // The list refreshes itself: the player's connection turns it online.
    await page.getByTestId('device-search').click();
    await expect(row.getByTestId('device-status-online')).toBeVisible({ timeout: 20_000 });
    await expect(row).toContainText('headless-1.0.0');
    // The address is the heartbeat's (the pairing saw 127.0.0.1): Search fetches again until
    // the first heartbeat is written (Search refetches even with the same filters).
    await expect(async () => {
      await page.getByTestId('device-search').click();
      await expect(row).toContainText('10.0.0.23', { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });

    // Filter by status.
    await page.getByTestId('device-filter-keyword').fill(name);
    await page.getByTestId('device-search').click();
    await expect(page).toHaveURL(/keyword=/);
    await expect(row).toBeVisible();

    // Edit: type and screen size.
    await page.getByTestId(`device-edit-${name}`).click();
    const edit = page.getByTestId('device-edit-dialog');
    await edit.getByTestId('device-edit-size').fill('55');
    await page.getByTestId('device-edit-submit').click();
    await expect(edit).toBeHidden();

    // Details: the reported state and the status history.
    await page.getByTestId(`device-detail-${name}`).click();
    await expect(page).toHaveURL(/\/device\/context\?id=/);
    await expect(page.getByTestId('device-context-registry')).toContainText(name, { timeout: 30_000 });
    await expect(page.getByTestId('device-context-registry')).toContainText('55');
    await expect(page.getByTestId('device-context-reported')).toContainText('02:00:5e:10:00:23');
    await expect(page.getByTestId('device-context-history')).toContainText('在线');

    // Disable from the list: the player is cut off, the row shows invalid.
    await page.goto(`/device?keyword=${encodeURIComponent(name)}`);
    await page.getByTestId(`device-disable-${name}`).click();
    await page.getByTestId('confirm-ok').click();
    await expect(row.getByTestId('device-status-invalid')).toBeVisible();
    await expect.poll(() => player.client?.connected ?? false).toBe(false);

    // Delete, confirmed: the row is gone.
    await page.getByTestId(`device-delete-${name}`).click();
    await page.getByTestId('confirm-ok').click();
    await expect(row).toBeHidden();
    await expect(page.getByText('没有符合筛选条件的设备')).toBeVisible();
  });

  test('the device details page offers a picker without an id', async ({ page }) => {
    await openAs(page, 'entadmin', '/device/context');
    await expect(page.getByTestId('device-context-empty')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('device-context-picker')).toBeVisible();
  });

  test('axe: the device pages and the add dialog have no serious or critical violation', async ({ page }) => {
    test.setTimeout(120_000);
    const serious = async () =>
      (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
    await openAs(page, 'entadmin', '/device');
    await expect(page.getByTestId('device-page')).toBeVisible({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    expect(await serious()).toEqual([]);
    await page.getByTestId('device-add').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.waitForTimeout(400);
    expect(await serious()).toEqual([]);
    await page.goto('/device/context');
    await expect(page.getByTestId('device-context-empty')).toBeVisible({ timeout: 30_000 });
    expect(await serious()).toEqual([]);
  });
});
