import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { uniquePng } from '../fixtures/png.js';
import { expect, openAs, test } from '../fixtures/session.js';

/**
 * Feedback answered (issue 31) in Chromium: the enterprise administrator writes feedback on
 * /my/help with a screenshot (uploaded through storage, with progress), the platform operator
 * finds it in the second tab, sees the screenshot and replies; the administrator sees the
 * reply on /my/help and the station letter the reply sent.
 */
test('feedback with a screenshot is answered by the operator and the author reads the reply', async ({ browser }) => {
  test.setTimeout(120_000);
  mkdirSync('/tmp/shots', { recursive: true });
  const text = `E2E 预览窗口打不开 ${randomBytes(3).toString('hex')}`;
  const file = `/tmp/shots/feedback-shot-${randomBytes(3).toString('hex')}.png`;
  writeFileSync(file, uniquePng(320, 200));

  const author = await browser.newPage();
  await openAs(author, 'entadmin', '/my/help');
  await author.getByTestId('feedback-new').click();
  await author.getByTestId('feedback-content').fill(text);
  await expect(author.getByTestId('feedback-counter')).toHaveText(`${[...text].length} / 500`);
  await author.getByTestId('feedback-shot-input').setInputFiles(file);
  await expect(author.getByTestId('feedback-shot-item').locator('.ant-progress-status-success')).toBeVisible();
  await author.screenshot({ path: '/tmp/shots/feedback-submit.png' });
  await author.getByTestId('feedback-submit-ok').click();
  const row = author.locator('[data-testid^="feedback-row-"]', { hasText: text });
  await expect(row.getByTestId('feedback-state-submitted')).toBeVisible();

  const operator = await browser.newPage();
  await openAs(operator, 'operator', '/my/help?tab=all');
  const theirs = operator.locator('[data-testid^="feedback-row-"]', { hasText: text });
  await theirs.locator('[data-testid^="feedback-open-"]').click();
  await expect(operator.getByTestId('feedback-detail-shot')).toHaveCount(1);
  await operator.getByTestId('feedback-reply-open').click();
  await operator.getByTestId('feedback-reply-text').fill('已复现，下个版本修复。');
  await operator.getByTestId('feedback-reply-ok').click();
  await expect(operator.getByTestId('feedback-detail-reply')).toHaveText('已复现，下个版本修复。');
  await operator.screenshot({ path: '/tmp/shots/feedback-operator.png' });

  await author.reload();
  await expect(row.getByTestId('feedback-state-replied')).toBeVisible();
  await row.locator('[data-testid^="feedback-open-"]').click();
  await expect(author.getByTestId('feedback-detail-reply')).toHaveText('已复现，下个版本修复。');
  await author.screenshot({ path: '/tmp/shots/feedback-reply.png' });
  await author.keyboard.press('Escape');
  await author.getByTestId('station-letter-banner').click();
  await expect(author.getByTestId('station-letter-dialog')).toContainText('已收到平台回复');
  await author.screenshot({ path: '/tmp/shots/feedback-letter.png' });
});
