import { readFileSync } from 'node:fs';
import { fenToYuan, formatFen } from '@marquee/protocol';
import type { Locator, Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiCall } from '../fixtures/api.js';
import { uniquePng } from '../fixtures/png.js';
import { expect as baseExpect, openAs, test } from '../fixtures/session.js';

/** Uploads, background exports and a shared machine: every wait here is longer than the default. */
const expect = baseExpect.configure({ timeout: 30_000 });

// A step that cannot happen fails within half a minute, not at the test's timeout.
test.use({ actionTimeout: 30_000 });

const RECHARGE_FEN = 200_000;
const BILL_FEN = 15_000;

/** The input(s) of a form control: the element of the test id itself (an input or a text area), or the inputs inside it. */
function inputs(page: Page, testId: string): Locator {
  return page.locator(
    `input[data-testid="${testId}"], textarea[data-testid="${testId}"], [data-testid="${testId}"] input`,
  );
}

/** The OK button of the confirmation on screen (a Popconfirm's or a Modal.confirm's). */
async function confirm(page: Page) {
  const ok = page.getByTestId('confirm-ok').or(page.locator('.ant-modal-confirm-btns .ant-btn-primary'));
  await ok.first().click();
}

/** The available balance of the caller's own wallet, read from the server. */
async function available(token: string): Promise<number> {
  const summary = await apiCall('financeSummary', {}, { token });
  expect(summary.code, summary.message).toBe(0);
  return summary.payload.wallet.available;
}

/**
 * The money chain of issue 26 in Chromium: the enterprise administrator recharges 2,000 yuan
 * from the finance centre and pays it offline at /pay -> /payUnderline with a bank-transfer
 * voucher (a PNG made here); the platform operator confirms the transfer in the finance
 * centre's offline review; the enterprise's available balance rises by 2,000 yuan and its
 * ledger shows the recharge linked to its order. The operator bills the enterprise 150 yuan;
 * the administrator pays the bill at /pay with the balance; the balance falls by 150 yuan and
 * the ledger shows the payment. The ledger exports to an Excel file.
 */
test('an offline recharge with a voucher, the operator’s confirmation, a bill paid by balance and the ledger’s export', async ({
  browser,
  page,
}) => {
  test.setTimeout(300_000);

  // 1. The enterprise administrator opens the finance centre and recharges 2,000 yuan.
  const admin = await openAs(page, 'entadmin', '/my/finance');
  await expect(page.getByTestId('finance-page')).toBeVisible();
  const before = await available(admin.token);
  await expect(page.getByTestId('finance-available')).toContainText(formatFen(before));

  await page.getByTestId('finance-recharge').click();
  await page.getByTestId(`finance-recharge-preset-${RECHARGE_FEN}`).click();
  await page.getByTestId('finance-recharge-submit').click();
  await expect(page).toHaveURL(/\/pay\?id=/);
  const rechargeId = new URL(page.url()).searchParams.get('id') ?? '';
  expect(rechargeId).not.toBe('');
  await expect(page.getByTestId('pay-page')).toBeVisible();
  await expect(page.getByTestId('pay-amount')).toContainText(formatFen(RECHARGE_FEN));
  const recharge = (await apiCall('paymentInfo', { id: rechargeId }, { token: admin.token })).payload.order;
  expect(recharge).toMatchObject({ purpose: 'recharge', amount: RECHARGE_FEN, state: 'unpaid' });

  // 2. Offline bank transfer: the form, a voucher, submitted: the order waits for review.
  await page.getByTestId('pay-offline').click();
  await expect(page).toHaveURL(new RegExp(`/payUnderline\\?id=${rechargeId}`));
  await expect(page.getByTestId('offline-form')).toBeVisible();
  const transferNo = `E2E${Date.now()}`;
  await inputs(page, 'offline-payer').fill('Demo Media Co., Ltd.');
  await inputs(page, 'offline-bank').fill('Bank of Shanghai');
  await inputs(page, 'offline-account').fill('6222020200112233445');
  await inputs(page, 'offline-transfer-no').fill(transferNo);
  // The transfer time: the picker's 'now' (typed text is parsed only as the panel's columns allow).
  const when = inputs(page, 'offline-transferred-at');
  await when.click();
  await page.locator('.ant-picker-dropdown:visible .ant-picker-now-btn').click();
  await expect(when).toHaveValue(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  await inputs(page, 'offline-remark').fill(recharge.no);
  await page
    .getByTestId('offline-voucher')
    .locator('input[type=file]')
    .setInputFiles([{ name: 'voucher.png', mimeType: 'image/png', buffer: uniquePng(320, 200) }]);
  await expect(page.getByTestId('offline-voucher').locator('.ant-upload-list-item-done').first()).toBeVisible();
  await page.getByTestId('offline-submit').click();
  await expect(page.getByTestId('offline-state')).toHaveAttribute('data-state', 'submitted');
  await expect
    .poll(async () => (await apiCall('paymentInfo', { id: rechargeId }, { token: admin.token })).payload.order.state)
    .toBe('review');
  await page.screenshot({ path: test.info().outputPath('offline-submitted.png') });
  // Nothing is credited before the operator confirms.
  expect(await available(admin.token)).toBe(before);

  // 3. The platform operator confirms the transfer in the finance centre's offline review.
  const operatorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const operator = await operatorContext.newPage();
  const op = await openAs(operator, 'operator', '/my/finance?tab=offline');
  const submitted = await apiCall(
    'paymentOfflineList',
    { page: 1, size: 10, keyword: transferNo },
    { token: op.token },
  );
  expect(submitted.code, submitted.message).toBe(0);
  const offline = submitted.payload.data.find((o) => o.orderId === rechargeId);
  expect(offline?.state).toBe('submitted');
  expect(offline?.vouchers).toHaveLength(1);
  await expect(operator.getByTestId(`offline-review-confirm-${offline?.id}`)).toBeVisible();
  // The voucher the administrator uploaded is the picture the operator sees (loaded from storage).
  const voucher = operator.getByTestId(`offline-review-vouchers-${offline?.id}`).locator('img').first();
  await expect(voucher).toBeVisible();
  await expect.poll(() => voucher.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await operator.screenshot({ path: test.info().outputPath('offline-review.png') });
  await operator.getByTestId(`offline-review-confirm-${offline?.id}`).click();
  await confirm(operator);
  await expect(operator.getByTestId(`offline-review-confirm-${offline?.id}`)).toHaveCount(0);
  await expect
    .poll(async () => (await apiCall('paymentInfo', { id: rechargeId }, { token: admin.token })).payload.order.state)
    .toBe('paid');

  // 4. The administrator's finance centre: 2,000 yuan more, and the recharge in the ledger, linked to its order.
  await page.goto('/my/finance?tab=movements');
  await expect(page.getByTestId('finance-available')).toContainText(formatFen(before + RECHARGE_FEN));
  const rechargeLine = page.locator('tr', { hasText: recharge.no });
  await expect(rechargeLine).toContainText(formatFen(RECHARGE_FEN));
  await expect(rechargeLine.locator(`a[href*="/pay?id=${rechargeId}"]`)).toBeVisible();
  // The line's link opens its order, paid offline.
  await rechargeLine.locator(`a[href*="/pay?id=${rechargeId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/pay\\?id=${rechargeId}`));
  await expect(page.getByTestId('pay-state')).toHaveAttribute('data-state', 'paid');

  // 5. The operator bills the enterprise 150 yuan.
  const billTitle = `E2E service fee ${Date.now().toString(36)}`;
  await operator.goto('/my/finance');
  await operator.getByTestId('pay-bill-create').click();
  await operator.getByTestId('pay-bill-ent').click();
  await operator.keyboard.type('Demo Media');
  await operator.locator('.ant-select-item-option', { hasText: 'Demo Media Co., Ltd.' }).first().click();
  await inputs(operator, 'pay-bill-title').fill(billTitle);
  await inputs(operator, 'pay-bill-amount').fill('150');
  await operator.getByTestId('pay-bill-submit').click();
  let billId = '';
  await expect
    .poll(async () => {
      const bills = await apiCall(
        'paymentList',
        { page: 1, size: 10, purpose: 'bill', keyword: billTitle },
        { token: admin.token },
      );
      billId = bills.payload?.data[0]?.id ?? '';
      return bills.payload?.data[0]?.amount ?? 0;
    })
    .toBe(BILL_FEN);
  await operatorContext.close();

  // 6. The administrator finds the bill among its payments and pays it with the balance.
  await page.goto('/my/finance?tab=payments');
  await page.locator('tr', { hasText: billTitle }).locator(`a[href*="/pay?id=${billId}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`/pay\\?id=${billId}`));
  await expect(page.getByTestId('pay-amount')).toContainText(formatFen(BILL_FEN));
  await expect(page.getByTestId('pay-available')).toHaveText(formatFen(before + RECHARGE_FEN));
  await page.getByTestId('pay-balance').click();
  await confirm(page);
  await expect(page.getByTestId('pay-state')).toHaveAttribute('data-state', 'paid');
  await page.screenshot({ path: test.info().outputPath('bill-paid.png') });

  // 7. 1,850 yuan more than before, and the payment in the ledger.
  await page.goto('/my/finance?tab=movements');
  await expect(page.getByTestId('finance-available')).toContainText(formatFen(before + RECHARGE_FEN - BILL_FEN));
  const bill = (await apiCall('paymentInfo', { id: billId }, { token: admin.token })).payload.order;
  expect(bill).toMatchObject({ state: 'paid', method: 'balance' });
  const paymentLine = page.locator('tr', { hasText: bill.no });
  await expect(paymentLine).toContainText(formatFen(BILL_FEN));
  await expect(paymentLine.locator(`a[href*="/pay?id=${billId}"]`)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('ledger.png') });

  // 8. The ledger exports to an Excel file.
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByTestId('finance-export').click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  const saved = test.info().outputPath(file.suggestedFilename());
  await file.saveAs(saved);
  const bytes = readFileSync(saved);
  expect(bytes.length).toBeGreaterThan(0);
  // An .xlsx (a ZIP archive) whose sheet has the two movements, with their orders and amounts in yuan.
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v))));
  });
  const rowOf = (no: string) => rows.find((r) => r.includes(no)) ?? [];
  expect(rowOf(recharge.no)).toContain(fenToYuan(RECHARGE_FEN));
  expect(rowOf(bill.no)).toContain(fenToYuan(BILL_FEN));
  await expect(page.getByTestId('finance-export-progress')).toHaveAttribute('data-status', 'done');
});
