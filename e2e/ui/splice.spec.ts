import ExcelJS from 'exceljs';
import { apiCall, loginApi } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { expect, openAs, test } from '../fixtures/session.js';

/** A filled device import sheet (base64 .xlsx) with the template's English headers. */
async function deviceSheet(rows: (string | null)[][]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Devices');
  sheet.addRow(['Device number', 'Device name', 'Department']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
}

// A device number no other call of this run makes: uniqueName's random part alone let two of
// one sheet's four numbers, made in the same millisecond, collide (1 in 170 runs).
let made = 0;
const number = () => `${uniqueName('SN').replace(/[^A-Za-z0-9_-]/g, '')}_${(made++).toString(36)}`;

test('a device sheet with one bad row imports nothing and answers the row error; fixed, it pre-registers the devices', async () => {
  const admin = await loginApi('entadmin');
  const good = [number(), number()];
  const bad = await apiCall(
    'deviceImport',
    {
      fileName: 'screens.xlsx',
      file: await deviceSheet([
        [good[0], 'Gate screen', null],
        ['not a number!', 'Broken row', null],
        [good[1], 'Hall screen', null],
      ]),
    },
    { token: admin.token, language: 'zh-CN' },
  );
  expect(bad).toMatchObject({
    code: 0,
    payload: {
      imported: 0,
      rows: 3,
      errors: [{ row: 3, column: 'number', message: '设备编号只能包含 1 到 64 个字母、数字、- 或 _' }],
    },
  });
  const before = await apiCall('deviceList', { keyword: good[0] }, { token: admin.token });
  expect(before.payload?.total).toBe(0);
  const ok = await apiCall(
    'deviceImport',
    {
      fileName: 'screens.xlsx',
      file: await deviceSheet([
        [good[0], 'Gate screen', null],
        [good[1], 'Hall screen', null],
      ]),
    },
    { token: admin.token },
  );
  expect(ok.payload).toEqual({ imported: 2, rows: 2, errors: [] });
  const after = await apiCall('deviceList', { keyword: good[0] }, { token: admin.token });
  expect(after.payload?.data).toMatchObject([{ number: good[0], status: 'activating' }]);
});

test('builds a 2 x 2 splicing screen from four devices with the grid editor and sees its grid', async ({ page }) => {
  // Four searches and a save on a machine shared by several builds.
  test.setTimeout(180_000);
  const admin = await loginApi('entadmin');
  const tag = uniqueName('Wall').replace(/[^A-Za-z0-9]/g, '');
  const names = [1, 2, 3, 4].map((i) => `${tag} tile ${i}`);
  const imported = await apiCall(
    'deviceImport',
    { fileName: 'wall.xlsx', file: await deviceSheet(names.map((n) => [number(), n, null])) },
    { token: admin.token },
  );
  expect(imported.payload?.imported).toBe(4);

  await openAs(page, 'entadmin', '/device/splicDevice');
  await expect(page.getByTestId('splice-page')).toBeVisible();
  await page.getByTestId('splice-add').click();
  const dialog = page.getByTestId('splice-dialog');
  await expect(dialog).toBeVisible();
  const wall = `${tag} lobby`;
  await dialog.getByTestId('splice-name').fill(wall);
  // The default grid is 2 x 2.
  await expect(dialog.getByTestId('splice-grid').getByRole('gridcell')).toHaveCount(4);

  // Tile 1 by mouse, the others by keyboard: arrows move, Enter opens the picker.
  await dialog.getByTestId('splice-cell-0-0').click();
  const picker = dialog.getByTestId('splice-device-picker');
  const choose = async (name: string) => {
    await page.keyboard.type(name);
    await page.locator('.ant-select-item-option', { hasText: name }).first().click();
  };
  await choose(names[0]);
  await expect(dialog.getByTestId('splice-cell-0-0')).toContainText(names[0]);
  for (const [from, key, cell, name] of [
    ['splice-cell-0-0', 'ArrowRight', 'splice-cell-0-1', names[1]],
    ['splice-cell-0-1', 'ArrowDown', 'splice-cell-1-1', names[3]],
    ['splice-cell-1-1', 'ArrowLeft', 'splice-cell-1-0', names[2]],
  ] as const) {
    await dialog.getByTestId(from).focus();
    await page.keyboard.press(key);
    await expect(dialog.getByTestId(cell)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(picker.locator('input')).toBeFocused();
    await choose(name);
    await expect(dialog.getByTestId(cell)).toContainText(name);
  }
  // Rotation waits for tile scaling.
  await expect(dialog.getByTestId('splice-rotation')).toHaveClass(/ant-select-disabled/);
  await dialog.getByTestId('splice-scaling').click();
  await expect(dialog.getByTestId('splice-rotation')).not.toHaveClass(/ant-select-disabled/);
  await page.getByTestId('splice-dialog-submit').click();
  await expect(page.getByTestId('splice-dialog')).toBeHidden();

  const row = page.getByTestId(`splice-row-${wall}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('2 × 2');
  await expect(row).toContainText('4 / 4');

  // The saved wall shows its grid with the four devices where they were put.
  await page.getByTestId(`splice-edit-${wall}`).click();
  const again = page.getByTestId('splice-dialog');
  for (const [cell, name] of [
    ['splice-cell-0-0', names[0]],
    ['splice-cell-0-1', names[1]],
    ['splice-cell-1-0', names[2]],
    ['splice-cell-1-1', names[3]],
  ] as const) {
    await expect(again.getByTestId(cell)).toContainText(name);
  }
  const detail = await apiCall('spliceList', { keyword: wall }, { token: admin.token });
  expect(detail.payload?.data).toMatchObject([{ rows: 2, cols: 2, tileCount: 4, scaling: true }]);
});
