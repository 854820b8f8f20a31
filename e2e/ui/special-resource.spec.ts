import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { uniquePng } from '../fixtures/png.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Special resources (issue 31) in Chromium: the platform operator lists a landmark screen with
 * a photo (uploaded through storage) and a reference price typed in yuan; the advertiser sees
 * it as a card and inquires; the operator quotes; the advertiser accepts the quote and reads
 * the station letter the quote sent.
 */
test('a landmark screen is listed, inquired about, quoted and accepted', async ({ browser }) => {
  test.setTimeout(150_000);
  mkdirSync('/tmp/shots', { recursive: true });
  const title = `外滩地标屏 ${randomBytes(3).toString('hex')}`;
  const file = `/tmp/shots/special-photo-${randomBytes(3).toString('hex')}.png`;
  writeFileSync(file, uniquePng(480, 300));

  const operator = await browser.newPage();
  await openAs(operator, 'operator', '/special/resource');
  await operator.getByTestId('special-resource-new').click();
  const form = operator.getByTestId('special-resource-form');
  await operator.getByTestId('special-resource-title').fill(title);
  const period = form.locator('.ant-picker-range');
  await period.locator('input').nth(0).click();
  await period.locator('input').nth(0).fill('2026-12-20');
  await period.locator('input').nth(0).press('Enter');
  await period.locator('input').nth(1).fill('2026-12-31');
  await period.locator('input').nth(1).press('Enter');
  await operator.getByTestId('special-resource-price').fill('120000.5');
  await form.locator('input[type=file]').setInputFiles(file);
  await expect(form.locator('.mq-special-thumb img')).toHaveCount(1);
  await operator.screenshot({ path: '/tmp/shots/special-resource-form.png' });
  await operator.getByTestId('special-resource-submit').click();
  await expect(operator.getByTestId('special-resources')).toContainText(title);
  await expect(operator.getByTestId('special-resources')).toContainText('120,000.50');

  const advertiser = await browser.newPage();
  await openAs(advertiser, 'advertiser', '/special/resource');
  // the card shows the title and the reference price (and the photo: the screenshot)
  await expect(advertiser.getByText(title)).toBeVisible();
  await expect(advertiser.getByText('参考价 ¥120,000.50')).toBeVisible();
  await advertiser.screenshot({ path: '/tmp/shots/special-shelf.png' });
  await advertiser.locator('[data-testid^="special-inquire-"]').first().click();
  await advertiser.getByTestId('special-inquire-message').fill('元旦前一周，新品发布');
  await advertiser.getByTestId('special-inquire-submit').click();
  await advertiser.getByTestId('special-tab-mine').click();
  const mine = advertiser.locator('[data-testid^="special-inquiry-"]', { hasText: title });
  await expect(mine.getByTestId('special-inquiry-state')).toHaveText('待报价');

  await operator.getByTestId('special-tab-inquiries').click();
  const theirs = operator.locator('[data-testid^="special-inquiry-"]', { hasText: title });
  await expect(theirs).toContainText('元旦前一周，新品发布');
  await theirs.locator('[data-testid^="special-quote-"]').click();
  await operator.getByTestId('special-answer-price').fill('98000');
  await operator.getByTestId('special-answer-text').fill('含画面制作');
  await operator.getByTestId('special-answer-submit').click();
  await expect(theirs.getByTestId('special-inquiry-state')).toHaveText('已报价');
  await operator.screenshot({ path: '/tmp/shots/special-inquiries.png' });

  await advertiser.reload();
  await expect(mine.getByTestId('special-inquiry-state')).toHaveText('已报价');
  await expect(mine.getByTestId('special-inquiry-quote')).toContainText('98,000.00');
  await mine.locator('[data-testid^="special-accept-"]').click();
  await advertiser
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /确\s*定|OK/ })
    .click();
  await expect(mine.getByTestId('special-inquiry-state')).toHaveText('已接受');
  await advertiser.screenshot({ path: '/tmp/shots/special-accepted.png' });
  await advertiser.getByTestId('station-letter-banner').click();
  await expect(advertiser.getByTestId('station-letter-dialog')).toContainText(
    `「${title}」的询价已收到报价：¥98000.00`,
  );
});
