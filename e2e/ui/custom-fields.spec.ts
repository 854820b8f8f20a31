import ExcelJS from 'exceljs';
import { loginApi } from '../fixtures/api.js';
import { ok } from '../fixtures/sales.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Device custom fields (issue 31): the enterprise administrator defines an option field in
 * the device list's "Custom fields" dialog, sets it on a device in the edit dialog, sees its
 * column in the list and filters the list by it. The field is deleted at the end (its
 * confirmation says how many devices hold a value).
 */
test.setTimeout(3 * 60_000);

test('entadmin defines an option field, sets it on a device, sees the column and filters by it', async ({ page }) => {
  const admin = await loginApi('entadmin');
  const suffix = Date.now().toString(36);
  const key = `e2e_zone_${suffix}`;
  const label = `E2E Zone ${suffix}`;
  // A device of its own, pre-registered through the import.
  const name = `E2E CF screen ${suffix}`;
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Devices');
  sheet.addRow(['Device number', 'Device name']);
  sheet.addRow([`E2ECF${suffix}`.toUpperCase(), name]);
  const file = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
  const imported = await ok('deviceImport', { fileName: 'cf.xlsx', file }, admin.token);
  expect(imported.imported).toBe(1);
  const device = (await ok('deviceList', { page: 1, size: 10, keyword: name }, admin.token)).data[0];

  await openAs(page, 'entadmin', '/device');
  await page.getByTestId('device-custom-fields').click();
  const manage = page.getByTestId('cf-manage');
  await expect(manage).toBeVisible();
  await manage.getByTestId('cf-add').click();
  const dialog = page.getByTestId('cf-dialog');
  await dialog.getByTestId('cf-label').fill(label);
  await dialog.getByTestId('cf-key').fill(key);
  await dialog.getByTestId('cf-type').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').nth(3).click();
  const options = dialog.getByTestId('cf-options');
  await options.click();
  await page.keyboard.type('North');
  await page.keyboard.press('Enter');
  await page.keyboard.type('South');
  await page.keyboard.press('Enter');
  await page.getByTestId('cf-submit').click();
  await expect(dialog).toBeHidden();
  await expect(manage.getByTestId(`cf-row-${key}`)).toContainText(label);
  await page.keyboard.press('Escape');
  await expect(manage).toBeHidden();

  // The device's edit dialog offers the field; set South.
  await page.goto(`/device?keyword=${encodeURIComponent(name)}`);
  await page.getByTestId(`device-edit-${name}`).click();
  const edit = page.getByTestId('device-edit-dialog');
  await expect(edit).toBeVisible();
  await edit.getByTestId(`device-cf-${key}`).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'South' }).click();
  await page.getByTestId('device-edit-submit').click();
  await expect(edit).toBeHidden();
  const detail = await ok('deviceDetail', { id: device?.id as string }, admin.token);
  expect(detail.customFields[key]).toBe('South');

  // The column is shown (showInList by default) with the value.
  await expect(page.locator('.ant-table-thead')).toContainText(label);
  await expect(page.getByTestId(`device-row-${name}`)).toContainText('South');

  // Filter by it: South finds the device, North does not.
  await page.goto('/device');
  await page.getByTestId('device-filter-cf-key').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: label }).click();
  await page.getByTestId('device-filter-cf-value').fill('South');
  await page.getByTestId('device-search').click();
  await expect(page.getByTestId(`device-row-${name}`)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('custom-field-filter.png') });
  await page.getByTestId('device-filter-cf-value').fill('North');
  await page.getByTestId('device-search').click();
  await expect(page.getByTestId(`device-row-${name}`)).toBeHidden();

  // Deleting asks first and says one device holds a value.
  await page.getByTestId('device-custom-fields').click();
  await manage.getByTestId(`cf-delete-${key}`).click();
  await expect(page.locator('.ant-popover:visible')).toContainText('1');
  await page.locator('.ant-popover:visible .ant-btn-dangerous').click();
  await expect(manage.getByTestId(`cf-row-${key}`)).toBeHidden();
  const after = await ok('deviceDetail', { id: device?.id as string }, admin.token);
  expect(after.customFields[key]).toBeUndefined();
});
