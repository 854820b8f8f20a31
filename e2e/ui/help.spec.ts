import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { uniquePng } from '../fixtures/png.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Help documents and downloads (issue 31) in Chromium: the platform operator writes a help
 * document with a picture (uploaded through storage) in the rich-text editor and publishes it;
 * the enterprise administrator finds it by a word of its text, reads it with the picture;
 * /help/download shows the browser player's address with its QR code and the import templates;
 * /help is the section's overview.
 */
test('the operator writes a help document with a picture, entadmin finds it by search and reads it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  mkdirSync('/tmp/shots', { recursive: true });
  const tag = randomBytes(3).toString('hex');
  const title = `E2E 配对设备 ${tag}`;
  const marker = `pairingcode${tag}`;
  const file = `/tmp/shots/help-picture-${tag}.png`;
  writeFileSync(file, uniquePng(320, 200));

  const operator = await browser.newPage();
  await openAs(operator, 'operator', '/help/helpFile');
  await expect(operator.getByTestId('help-categories')).toBeVisible({ timeout: 45_000 });
  await operator.getByTestId('help-new').click();
  await operator.getByTestId('help-editor-title-zh-CN').fill(title);
  const body = operator.getByTestId('help-editor-body-zh-CN');
  await body.click();
  await operator.keyboard.type(`在屏幕上输入配对码 ${marker} 即可上线。`);
  await operator.getByTestId('help-editor-body-zh-CN-file').setInputFiles(file);
  await expect(body.locator('img[data-help-image]')).toHaveCount(1);
  await operator.screenshot({ path: '/tmp/shots/help-editor.png' });
  await operator.getByTestId('help-editor-save').click();
  await expect(operator.getByTestId('help-doc-title')).toHaveText(title);
  await operator.getByTestId('help-doc-publish').click();
  await expect(operator.getByTestId('help-doc-publish')).toHaveText(/撤回/);

  const reader = await browser.newPage();
  await openAs(reader, 'entadmin', '/help/helpFile');
  // The reader's first load of the console (a cold shell on a busy machine) may take a while.
  await expect(reader.getByTestId('help-categories')).toBeVisible({ timeout: 45_000 });
  await reader.getByTestId('help-search').locator('input').fill(marker);
  await reader.getByTestId('help-search').locator('input').press('Enter');
  await reader.getByText(title).click();
  await expect(reader.getByTestId('help-doc-title')).toHaveText(title);
  await expect(reader.getByTestId('help-doc-body')).toContainText(marker);
  const picture = reader.getByTestId('help-doc-body').locator('img');
  await expect(picture).toHaveCount(1);
  await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(320);
  await reader.screenshot({ path: '/tmp/shots/help-reader.png' });

  await reader.goto('/help/download');
  await expect(reader.getByTestId('help-download-player-qr')).toBeVisible({ timeout: 45_000 });
  await expect(reader.getByTestId('help-download-player-address')).toContainText('/player/');
  await expect(reader.getByTestId('help-download-template-devices')).toBeVisible();
  const [sheet] = await Promise.all([
    reader.waitForEvent('download'),
    reader.getByTestId('help-download-template-devices-file').click(),
  ]);
  expect(sheet.suggestedFilename()).toMatch(/\.xlsx$/);
  await reader.screenshot({ path: '/tmp/shots/help-download.png', fullPage: true });

  await reader.goto('/help');
  await expect(reader.getByTestId('section-help')).toBeVisible({ timeout: 45_000 });
  await expect(reader.getByTestId('section-help-feedback')).toBeVisible();
  await reader.screenshot({ path: '/tmp/shots/help-section.png', fullPage: true });
});
