import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { apiCall, BASE_URL, loginApi } from '../fixtures/api.js';
import { expect, openAs, test } from '../fixtures/session.js';

/** A device added to the demo enterprise the way an operator adds a new player: by its pairing code. */
async function addPairedDevice(token: string, name: string): Promise<string> {
  const res = await fetch(`${BASE_URL}/dapi/v1/pairing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ player: { version: 'e2e-1.0' } }),
  });
  const body = (await res.json()) as { code?: unknown; payload?: { code: string } };
  const code = typeof body.code === 'string' ? body.code : (body.payload as { code: string }).code;
  const added = await apiCall('deviceAdd', { code, name }, { token });
  if (added.code !== 0) throw new Error(`device.add failed: ${added.code} ${added.message}`);
  return added.payload.id;
}

test('a store with an address gets approximate coordinates, devices placed in it show on the region map', async ({
  page,
}) => {
  test.setTimeout(120_000); // many steps through the UI on a shared machine
  const admin = await loginApi('entadmin');
  const suffix = randomUUID().slice(0, 6);
  const storeName = `南山店 ${suffix}`;
  const deviceName = `Map screen ${suffix}`;
  await addPairedDevice(admin.token, deviceName);

  await openAs(page, 'entadmin', '/user/company?tab=stores');
  await expect(page.getByTestId('stores-panel')).toBeVisible();
  await page.getByTestId('store-add').click();
  const dialog = page.getByTestId('store-dialog');
  await dialog.getByTestId('store-dialog-name').fill(storeName);
  await dialog.getByTestId('store-dialog-address').fill('广东省深圳市南山区科技园科苑路15号');
  await dialog.getByTestId('store-dialog-contact').fill('李雷');
  await dialog.getByTestId('store-dialog-phone').fill('13800000000');
  // Locate: with no provider configured, the region data set gives the city's centre, marked approximate.
  await page.getByTestId('store-dialog-locate').click();
  const preview = page.getByTestId('store-dialog-preview');
  await expect(preview).toContainText('近似经纬度');
  await expect(preview).toContainText('22.547000, 114.085947');
  await expect(preview).toContainText('广东省 深圳市 南山区');
  await page.getByTestId('store-dialog-submit').click();
  await expect(page.getByTestId('store-dialog')).toBeHidden();

  const row = page.getByTestId(`store-row-${storeName}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('广东省 深圳市 南山区');
  await expect(row).toContainText('22.547000, 114.085947');
  await expect(page.getByTestId(`store-approximate-${storeName}`)).toBeVisible();

  // Place the paired device in the store: it takes the store's place.
  await page.getByTestId(`store-devices-${storeName}`).click();
  await page.getByTestId('store-assign-devices').click();
  await page.keyboard.type(suffix);
  await page.locator('.ant-select-item-option', { hasText: deviceName }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('store-assign-submit').click();
  await expect(page.getByTestId('store-assign-dialog')).toBeHidden();
  await expect(row.locator('td').filter({ hasText: /^1$/ })).toHaveCount(1);
  // A store with devices cannot be deleted.
  await expect(page.getByTestId(`store-delete-${storeName}`)).toBeDisabled();

  // The device map (the map view of /device) counts it under Guangdong, then Shenzhen, then Nanshan.
  await page.goto('/device');
  await page.getByTestId('device-view').getByText('地图').click();
  const map = page.getByTestId('device-region-map');
  await expect(map.getByTestId('region-row-440000')).toBeVisible();
  await map.getByTestId('region-drill-440000').click();
  await expect(map.getByTestId('region-crumb-440000')).toHaveText('广东省');
  await map.getByTestId('region-drill-440300').click();
  const nanshan = map.getByTestId('region-row-440305');
  await expect(nanshan).toBeVisible();
  await expect(nanshan).toContainText('南山区');
  await expect(map.getByTestId('region-chart')).toBeVisible();
  await map.getByTestId('region-crumb-all').click();
  await expect(map.getByTestId('region-row-440000')).toBeVisible();
});

test("an address no region names: 'address has no latitude and longitude', saved once the user enters coordinates", async ({
  page,
}) => {
  const name = `Harbour kiosk ${randomUUID().slice(0, 6)}`;
  await openAs(page, 'entadmin', '/user/company?tab=stores');
  await page.getByTestId('store-add').click();
  const dialog = page.getByTestId('store-dialog');
  await dialog.getByTestId('store-dialog-name').fill(name);
  await dialog.getByTestId('store-dialog-address').fill('Pier 7, Harbour Road');
  await page.getByTestId('store-dialog-submit').click();
  await expect(page.locator('.ant-message')).toContainText('该地址没有经纬度');
  await dialog.getByTestId('store-dialog-lat').fill('22.2855');
  await dialog.getByTestId('store-dialog-lng').fill('114.1577');
  await page.getByTestId('store-dialog-submit').click();
  await expect(page.getByTestId('store-dialog')).toBeHidden();
  const row = page.getByTestId(`store-row-${name}`);
  await expect(row).toContainText('22.285500, 114.157700');
  await expect(page.getByTestId(`store-approximate-${name}`)).toHaveCount(0);
});

test('the Stores tab and the device map have no serious or critical accessibility violation', async ({ page }) => {
  const serious = async (selector: string) => {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const { violations } = await new AxeBuilder({ page }).include(selector).analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  await openAs(page, 'entadmin', '/user/company?tab=stores');
  await expect(page.getByTestId('stores-panel')).toBeVisible();
  expect(await serious('[data-testid="stores-panel"]')).toEqual([]);
  await page.goto('/device');
  await page.getByTestId('device-view').getByText('地图').click();
  await expect(page.getByTestId('device-region-map')).toBeVisible();
  expect(await serious('[data-testid="device-region-map"]')).toEqual([]);
});
