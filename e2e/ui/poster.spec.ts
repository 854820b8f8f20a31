import { apiCall, loginApi } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { expect, openAs, test } from '../fixtures/session.js';

/** Width and height of a PNG from its IHDR. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

test('a poster template with a text field and a QR code: built on the canvas, undone and redone, filled, exported at full size and recorded', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const name = uniqueName('Poster');
  const folderName = uniqueName('Posters');
  const folder = await apiCall(
    'materialFolderCreate',
    { name: folderName },
    { token: (await loginApi('entadmin')).token },
  );
  expect(folder.code).toBe(0);
  await openAs(page, 'entadmin', '/poster');
  await expect(page.getByTestId('poster-page')).toBeVisible({ timeout: 30_000 });

  // A new 960 x 540 template opens in the editor.
  await page.getByTestId('poster-create').click();
  await page.getByTestId('poster-create-name').fill(name);
  await page.getByTestId('poster-create-width').fill('960');
  await page.getByTestId('poster-create-height').fill('540');
  await page.getByTestId('poster-create-submit').click();
  await expect(page.getByTestId('poster-editor')).toBeVisible({ timeout: 30_000 });

  // A background rectangle, a text made an editable field, a QR code.
  await page.getByTestId('poster-add-rect').click();
  await page.getByTestId('poster-prop-w').fill('960');
  await page.getByTestId('poster-prop-h').fill('540');
  await page.getByTestId('poster-prop-x').fill('0');
  await page.getByTestId('poster-prop-y').fill('0');
  await page.getByTestId('poster-prop-y').press('Tab');
  await page.getByTestId('poster-add-text').click();
  await page.getByTestId('poster-prop-text').fill('Spring sale');
  await page.getByTestId('poster-prop-field').click();
  await page.getByTestId('poster-prop-field-label').fill('Headline');
  await page.getByTestId('poster-prop-field-key').fill('headline');
  await page.getByTestId('poster-add-qr').click();
  await expect(page.getByTestId('poster-layer-0')).toContainText('二维码');

  // Undo removes the QR code, redo brings it back; the keyboard nudges the selection.
  await page.getByTestId('poster-undo').click();
  await expect(page.getByTestId('poster-layer-0')).toContainText('Spring sale');
  await page.getByTestId('poster-redo').click();
  await expect(page.getByTestId('poster-layer-0')).toContainText('二维码');
  await page.getByTestId('poster-layer-0').locator('button').first().click();
  const x = Number(await page.getByTestId('poster-prop-x').inputValue());
  await page.locator('body').press('ArrowRight');
  await expect(page.getByTestId('poster-prop-x')).toHaveValue(String(x + 1));

  await page.getByTestId('poster-save').click();
  await expect(page.getByTestId('poster-save')).toContainText('已保存');
  await page.screenshot({ path: test.info().outputPath('poster-editor.png') });

  // Fill mode: the field's form, the poster follows; generate the PNG.
  await page.getByTestId('poster-to-fill').click();
  await expect(page.getByTestId('poster-fill')).toBeVisible();
  await page.getByTestId('poster-fill-headline').fill('半价周末 Half price');
  // A copy into a folder of the material library.
  await page.getByTestId('poster-fill-library').check();
  await page.getByTestId('poster-fill-folder').click();
  await page.locator('.ant-select-tree').getByText(folderName, { exact: true }).click();
  await page.getByTestId('poster-make').click();
  const made = page.getByTestId('poster-made');
  await expect(made).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: test.info().outputPath('poster-fill.png') });

  // The record: template, field value, and a PNG of exactly the template's size.
  const admin = await loginApi('entadmin');
  const page1 = await apiCall('posterTemplatePage', { name }, { token: admin.token });
  const template = page1.payload.data[0];
  expect(template).toMatchObject({ name, fieldCount: 1, madeCount: 1 });
  const history = await apiCall('posterHistory', { templateId: template.id }, { token: admin.token });
  expect(history.payload.data[0]).toMatchObject({ fields: { headline: '半价周末 Half price' }, format: 'png' });
  // The library holds the copy, a 960 x 540 picture in the chosen folder.
  const copy = await apiCall(
    'materialDetail',
    { id: history.payload.data[0].materialId ?? '' },
    { token: admin.token },
  );
  expect(copy.payload).toMatchObject({ type: 'image', folderId: folder.payload.id });
  await expect(made.getByTestId('poster-made-library')).toBeVisible();
  const image = await page.request.get(history.payload.data[0].url);
  expect(image.ok()).toBe(true);
  expect(pngSize(await image.body())).toEqual({ width: 960, height: 540 });

  // /poster/tplHistory shows it with its image.
  await page.goto(`/poster/tplHistory?templateId=${template.id}`);
  await expect(page.getByTestId(`poster-history-item-${history.payload.data[0].id}`)).toBeVisible();
  await expect(page.getByTestId(`poster-history-item-${history.payload.data[0].id}`).locator('img')).toHaveJSProperty(
    'complete',
    true,
  );
  await page.screenshot({ path: test.info().outputPath('poster-history.png') });
});
