import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiCall, loginApi, uploadMaterial } from '../fixtures/api.js';
import { uniqueName } from '../fixtures/org.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * The layout editor (issue 11): build a two-page layout with a text, a clock and a QR code,
 * undo and redo, save, reopen it and find it the same, preview it, and try to delete the last page.
 * The console runs in zh-CN (the default locale).
 */
test('builds a two-page layout, undoes and redoes, saves, reopens it the same, previews it and keeps its last page', async ({
  page,
}) => {
  // A long flow (two full loads of the console); the machine running e2e may be busy.
  test.setTimeout(180_000);
  const name = uniqueName('Lobby');
  await openAs(page, 'entadmin', '/template/new');

  // Name and size of the new layout.
  await page.getByTestId('le-new-name').fill(name, { timeout: 60_000 });
  await page.getByTestId('le-new-width').fill('1280');
  await page.getByTestId('le-new-height').fill('720');
  await page.getByTestId('le-new-ok').click();
  await expect(page.getByTestId('layout-editor')).toBeVisible();
  await expect(page.getByTestId('le-name')).toHaveValue(name);

  // Page 1: a text and a clock.
  await page.getByTestId('le-palette-text').click();
  await page.getByTestId('le-prop-content').fill('Welcome to the lobby');
  await page.getByTestId('le-prop-content').blur();
  await expect(page.getByTestId('le-item-text')).toContainText('Welcome to the lobby');
  await page.getByTestId('le-palette-clock').click();
  await page.getByTestId('le-prop-y').fill('40');
  await page.getByTestId('le-prop-y').press('Enter');
  await expect(page.getByTestId('le-item-clock')).toBeVisible();

  // Page 2: a QR code.
  await page.getByTestId('le-page-add').click();
  await expect(page.getByTestId('le-page-2')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('le-item-text')).toHaveCount(0);
  await page.getByTestId('le-palette-qrCode').click();
  await page.getByTestId('le-prop-qr').fill('https://example.com/menu');
  await page.getByTestId('le-prop-qr').blur();
  await expect(page.getByTestId('le-item-qrCode').locator('svg[data-qr]')).toBeVisible();

  // Undo the QR content and the QR code itself, then redo both.
  await page.getByTestId('le-undo').click();
  await expect(page.getByTestId('le-prop-qr')).toHaveValue('');
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('le-item-qrCode')).toHaveCount(0);
  await page.getByTestId('le-redo').click();
  await expect(page.getByTestId('le-item-qrCode')).toHaveCount(1);
  await page.keyboard.press('Control+Shift+z');
  await expect(page.getByTestId('le-prop-qr')).toHaveValue('https://example.com/menu');

  // Save: the editor moves to the layout's own address.
  await page.getByTestId('le-save').click();
  await expect(page.getByText('布局已保存')).toBeVisible();
  await expect(page).toHaveURL(/\/template\/edit\?id=/);

  // Reopen (a fresh load of that address) and find it the same.
  await page.reload();
  await expect(page.getByTestId('layout-editor')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('le-name')).toHaveValue(name);
  await expect(page.getByTestId('le-pages').locator('.mq-le-page')).toHaveCount(2);
  await expect(page.getByTestId('le-item-text')).toContainText('Welcome to the lobby');
  await expect(page.getByTestId('le-item-clock')).toHaveCount(1);
  await page.getByTestId('le-page-2').click();
  await expect(page.getByTestId('le-item-qrCode').locator('svg[data-qr]')).toBeVisible();
  await page.getByTestId('le-item-qrCode').click();
  await expect(page.getByTestId('le-prop-qr')).toHaveValue('https://example.com/menu');

  // Preview: the player shows the layout's first page.
  await page.getByTestId('le-preview').click();
  const player = page.getByTestId('le-preview-player');
  await expect(player.locator('[data-component="text"]')).toContainText('Welcome to the lobby');
  await expect(page.getByTestId('le-preview-page')).toContainText('1');
  await page.keyboard.press('Escape');
  await expect(player).toHaveCount(0);

  // Delete page 2, then try the last page: 'a layout must keep one page'.
  await page.getByTestId('le-page-delete').click();
  await page.getByTestId('confirm-ok').filter({ visible: true }).click();
  await expect(page.getByTestId('le-pages').locator('.mq-le-page')).toHaveCount(1);
  await page.getByTestId('le-page-delete').click();
  await page.getByTestId('confirm-ok').filter({ visible: true }).click();
  await expect(page.getByText('删除失败，布局至少保留一页')).toBeVisible();
  await expect(page.getByTestId('le-pages').locator('.mq-le-page')).toHaveCount(1);
});

test('a video component takes its material from the library picker and draws it on the canvas', async ({ page }) => {
  test.setTimeout(180_000);
  const login = await loginApi('entadmin');
  const folder = await apiCall('materialFolderCreate', { name: uniqueName('Picker') }, { token: login.token });
  expect(folder.code).toBe(0);
  const clipName = `${uniqueName('clip')}.mp4`;
  const clip = await uploadMaterial(login.token, {
    folderId: folder.payload.id,
    name: clipName,
    buffer: readFileSync(join(import.meta.dirname, '../fixtures/media/clip.mp4')),
    contentType: 'video/mp4',
    type: 'video',
  });
  expect(clip.status).toBe('ready');

  await openAs(page, 'entadmin', '/template/new');
  await page.getByTestId('le-new-name').fill(uniqueName('Picker layout'), { timeout: 60_000 });
  await page.getByTestId('le-new-width').fill('1280');
  await page.getByTestId('le-new-height').fill('720');
  await page.getByTestId('le-new-ok').click();
  await page.getByTestId('le-palette-video').click();

  await page.getByTestId('le-material-pick-video').click();
  const picker = page.getByTestId('material-picker');
  await expect(picker).toBeVisible();
  await picker.getByTestId('material-picker-search').locator('input').fill(clip.name);
  await picker.getByTestId('material-picker-search').locator('input').press('Enter');
  await picker.getByTestId(`material-picker-item-${clip.name}`).click();
  await expect(picker.getByTestId(`material-picker-item-${clip.name}`)).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('material-picker-ok').click();

  await expect(page.getByTestId('le-materials-video')).toContainText(clip.name);
  await expect(page.getByTestId('le-item-video').locator('video, img').first()).toBeAttached();
});
