import { type OfflinePayment, type PayOrder, Perm, VOUCHER_MAX_BYTES } from '@marquee/protocol';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { queryClient } from '../src/app/queryClient';
import { OfflineReviewPanel } from '../src/features/payments/OfflineReviewPanel';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 10_000 });

const order = (extra: Partial<PayOrder> = {}): PayOrder => ({
  id: 'po-1',
  no: 'P20261128000123',
  purpose: 'bill',
  title: 'Service fee',
  amount: 15_000,
  state: 'unpaid',
  method: null,
  walletId: 'ent:ent-1',
  walletName: 'Ada Media',
  entId: 'ent-1',
  entName: 'Ada Media',
  createdBy: 'operator',
  createdAt: '2026-11-28T01:00:00.000Z',
  expiresAt: null,
  paidAt: null,
  closedAt: null,
  providerTradeNo: null,
  ...extra,
});

const offline = (extra: Partial<OfflinePayment> = {}): OfflinePayment => ({
  id: 'op-1',
  orderId: 'po-1',
  orderNo: 'P20261128000123',
  amount: 200_000,
  entId: 'ent-1',
  entName: 'Ada Media',
  payerName: 'Ada Media Ltd',
  bankName: 'ICBC',
  bankAccount: '6222000011112222',
  transferNo: 'TX-778',
  transferredAt: '2026-11-28T01:10:00.000Z',
  remark: '',
  vouchers: [
    { url: 'http://files.test/v1.png', contentType: 'image/png', name: 'receipt.png' },
    { url: 'http://files.test/v2.pdf', contentType: 'application/pdf', name: 'statement.pdf' },
  ],
  state: 'submitted',
  reason: '',
  submittedBy: 'entadmin',
  submittedAt: '2026-11-28T01:12:00.000Z',
  reviewedBy: null,
  reviewedAt: null,
  ...extra,
});

const method = (m: string, available: boolean, reason: string | null = null, settings: string[] = []) => ({
  method: m,
  available,
  reason,
  settings,
});

const login = () => useSession.getState().setLogin(loginResponse({ permissionList: [Perm.my, Perm.myFinance] }));

describe('the aggregate payment page (/pay)', () => {
  it('pays a bill with the balance after a confirmation stating the amount, then shows the result', async () => {
    let paid = false;
    const calls = fakeServer({
      ...shellAnswers,
      paymentInfo: () => ({
        code: 0,
        payload: {
          order: paid ? order({ state: 'paid', method: 'balance', paidAt: '2026-11-28T01:20:00.000Z' }) : order(),
          methods: [
            method('balance', true),
            method('wechat', false, 'notConfigured', ['WECHATPAY_MCHID', 'WECHATPAY_APPID']),
            method('alipay', false, 'notConfigured', ['ALIPAY_APP_ID']),
            method('offline', true),
          ],
          available: paid ? 185_000 : 200_000,
          offline: null,
        },
      }),
      paymentPayBalance: () => {
        paid = true;
        return { code: 0, payload: order({ state: 'paid', method: 'balance' }) };
      },
    });
    login();
    render(renderApp('/pay?id=po-1').tree);
    expect((await screen.findByTestId('pay-amount', {}, { timeout: 30_000 })).textContent).toBe('¥150.00');
    expect(screen.getByTestId('pay-state').textContent).toBe('Unpaid');
    expect(screen.getByTestId('pay-available').textContent).toBe('¥2,000.00');
    // English shows no capital numerals; a provider not configured says which settings enable it.
    expect(screen.queryByTestId('pay-amount-words')).toBeNull();
    expect(screen.getByTestId('pay-reason-wechat').textContent).toContain('WECHATPAY_MCHID');
    expect((screen.getByTestId('pay-wechat') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('pay-offline').getAttribute('href')).toBe('/payUnderline?id=po-1');
    // A bill is not closed by the payer.
    expect(screen.queryByTestId('pay-close')).toBeNull();

    fireEvent.click(screen.getByTestId('pay-balance'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('¥150.00');
    expect(calls.some((c) => c.name === 'paymentPayBalance')).toBe(false);
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.filter((c) => c.name === 'paymentPayBalance')).toHaveLength(1));
    expect(calls.find((c) => c.name === 'paymentPayBalance')?.data).toEqual({ id: 'po-1' });
    expect((await screen.findByTestId('pay-result')).textContent).toContain('Payment complete');
    expect(screen.getByTestId('pay-state').textContent).toBe('Paid');
    expect(screen.getByTestId('pay-to-finance').getAttribute('href')).toBe('/my/finance?tab=movements');
  });

  it("draws a provider's QR code, asks until the recharge is paid, then shows the new balance", async () => {
    let queried = 0;
    const expiresAt = new Date(Date.now() + 30 * 60_000).toISOString();
    const recharge = order({ purpose: 'recharge', title: 'Recharge', amount: 200_000, expiresAt });
    const calls = fakeServer({
      ...shellAnswers,
      paymentInfo: () => ({
        code: 0,
        payload: {
          order:
            queried >= 2
              ? { ...recharge, state: 'paid', method: 'alipay', providerTradeNo: '2026112822001' }
              : recharge,
          methods: [
            method('balance', false, 'rechargeByBalance'),
            method('wechat', false, 'notConfigured', ['WECHATPAY_MCHID']),
            method('alipay', true, null, ['ALIPAY_APP_ID']),
            method('offline', true),
          ],
          available: queried >= 2 ? 200_000 : 0,
          offline: null,
        },
      }),
      paymentStart: () => ({
        code: 0,
        payload: { method: 'alipay', qrCode: 'https://qr.alipay.test/abc', redirectUrl: null, expiresAt },
      }),
      paymentQuery: () => {
        queried++;
        return { code: 0, payload: queried >= 2 ? { ...recharge, state: 'paid', method: 'alipay' } : recharge };
      },
    });
    login();
    render(renderApp('/pay?id=po-1').tree);
    expect((await screen.findByTestId('pay-countdown', {}, { timeout: 30_000 })).textContent).toMatch(
      /Pay within (29:5\d|30:00)/,
    );
    expect(screen.getByTestId('pay-reason-balance').textContent).toContain("can't be paid from the wallet");
    expect(screen.getByTestId('pay-close')).toBeTruthy();
    fireEvent.click(screen.getByTestId('pay-alipay'));
    const qr = (await screen.findByTestId('pay-qr')) as HTMLImageElement;
    expect(qr.src.startsWith('data:image/png')).toBe(true);
    expect(calls.find((c) => c.name === 'paymentStart')?.data).toEqual({ id: 'po-1', method: 'alipay' });
    expect((await screen.findByTestId('pay-new-balance', {}, { timeout: 15_000 })).textContent).toContain('¥2,000.00');
    expect(queried).toBe(2);
    expect(screen.getByTestId('pay-result').textContent).toContain('2026112822001');
  });

  it('says so when the address has no order', async () => {
    fakeServer({ ...shellAnswers });
    login();
    render(renderApp('/pay').tree);
    expect(await screen.findByTestId('pay-no-order', {}, { timeout: 30_000 })).toBeTruthy();
  });
});

describe('the offline payment page (/payUnderline)', () => {
  it('shows a rejected transfer with its reason and the form to submit again, which wants a voucher', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      paymentInfo: () => ({
        code: 0,
        payload: {
          order: order({ purpose: 'recharge', amount: 200_000 }),
          methods: [method('balance', false, 'rechargeByBalance'), method('offline', true)],
          available: 0,
          offline: offline({ state: 'rejected', reason: 'No such payment on the statement' }),
        },
      }),
      paymentProviders: () => ({
        code: 0,
        payload: {
          providers: [],
          offlineAccount: { accountName: 'Marquee Ltd', bankName: 'CMB Shanghai', accountNo: '1219 0000 8888' },
        },
      }),
    });
    login();
    render(renderApp('/payUnderline?id=po-1').tree);
    expect((await screen.findByTestId('offline-state', {}, { timeout: 30_000 })).textContent).toBe('Rejected');
    expect(screen.getByTestId('offline-reason').textContent).toBe('No such payment on the statement');
    expect(screen.getByTestId('offline-remark-no').textContent).toContain('P20261128000123');
    expect((await screen.findByTestId('offline-receiving-no')).textContent).toContain('1219 0000 8888');
    expect((screen.getByTestId('offline-payer') as HTMLInputElement).value).toBe('Ada Media Ltd');
    fireEvent.click(screen.getByTestId('offline-submit'));
    expect(await screen.findByText('Upload the transfer voucher')).toBeTruthy();
    expect(calls.some((c) => c.name === 'paymentOfflineSubmit' || c.name === 'paymentVoucherApply')).toBe(false);
  });

  it('shows a submitted transfer as under review, without the form', async () => {
    fakeServer({
      ...shellAnswers,
      paymentInfo: () => ({
        code: 0,
        payload: {
          order: order({ state: 'review', purpose: 'recharge', amount: 200_000 }),
          methods: [method('offline', false, 'inReview')],
          available: 0,
          offline: offline(),
        },
      }),
      paymentProviders: () => ({ code: 0, payload: { providers: [] } }),
    });
    login();
    render(renderApp('/payUnderline?id=po-1').tree);
    expect((await screen.findByTestId('offline-state', {}, { timeout: 30_000 })).textContent).toBe('Under review');
    expect(screen.queryByTestId('offline-form')).toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('offline-receiving').textContent).toContain('Ask the platform operator'),
    );
  });
});

/** XMLHttpRequest as the local store answers a direct upload (the envelope with code 0). */
class FakeXhr {
  static posted: string[] = [];
  upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  private url = '';
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  abort() {}
  send(form: FormData) {
    FakeXhr.posted.push(`${this.url} ${(form.get('file') as File).name}`);
    setTimeout(() => {
      this.upload.onprogress?.({ loaded: 10 });
      this.status = 200;
      this.responseText = '{"code":0,"payload":null}';
      this.onload?.();
    }, 10);
  }
}

describe('the offline transfer form', () => {
  it('uploads a voucher when chosen, then submits the transfer with its id', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.posted = [];
    const calls = fakeServer({
      ...shellAnswers,
      paymentInfo: () => ({
        code: 0,
        payload: {
          order: order({ purpose: 'recharge', amount: 200_000 }),
          methods: [method('offline', true)],
          available: 0,
          offline: null,
        },
      }),
      paymentProviders: () => ({ code: 0, payload: { providers: [] } }),
      paymentVoucherApply: () => ({
        code: 0,
        payload: {
          accessId: 'local',
          policy: 'p',
          signature: 's',
          key: 'e/ent-1/vouchers/po-1/v-9.png',
          callback: '',
          url: '/upload',
          fields: { key: 'e/ent-1/vouchers/po-1/v-9.png' },
          expiresAt: Date.now() + 600_000,
          voucherId: 'v-9',
        },
      }),
      paymentOfflineSubmit: () => ({ code: 0, payload: offline() }),
    });
    login();
    render(renderApp('/payUnderline?id=po-1').tree);
    const payer = (await screen.findByTestId('offline-payer', {}, { timeout: 30_000 })) as HTMLInputElement;
    fireEvent.change(payer, { target: { value: 'Ada Media Ltd' } });
    fireEvent.change(screen.getByTestId('offline-transfer-no'), { target: { value: 'TX-778' } });
    const when =
      screen.getByTestId('offline-transferred-at').querySelector('input') ??
      screen.getByTestId('offline-transferred-at');
    fireEvent.mouseDown(when);
    fireEvent.focus(when);
    fireEvent.change(when, { target: { value: '2026-11-27 09:30:00' } });
    fireEvent.keyDown(when, { key: 'Enter', code: 'Enter' });
    const input = screen.getByTestId('offline-voucher').querySelector('input[type=file]') as HTMLInputElement;
    const png = new File([new Uint8Array([137, 80, 78, 71])], 'receipt.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [png] } });
    await waitFor(() => expect(FakeXhr.posted).toEqual(['/upload receipt.png']));
    expect(calls.find((c) => c.name === 'paymentVoucherApply')?.data).toEqual({
      orderId: 'po-1',
      fileName: 'receipt.png',
      contentType: 'image/png',
      size: 4,
    });
    // A file over 10 MB is refused before anything is sent.
    const big = new File([new Uint8Array(VOUCHER_MAX_BYTES + 1)], 'scan.png', { type: 'image/png' });
    // (the picker's input is a new element after each choice)
    const again = screen.getByTestId('offline-voucher').querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(again, { target: { files: [big] } });
    expect(await screen.findByText('scan.png is larger than 10 MB')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('offline-voucher').querySelector('.ant-upload-list-item-done')).not.toBeNull(),
    );
    fireEvent.click(screen.getByTestId('offline-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'paymentOfflineSubmit')).toBe(true));
    const sent = calls.find((c) => c.name === 'paymentOfflineSubmit')?.data as Record<string, unknown>;
    expect(sent).toMatchObject({
      orderId: 'po-1',
      payerName: 'Ada Media Ltd',
      transferNo: 'TX-778',
      voucherIds: ['v-9'],
    });
    expect(new Date(String(sent.transferredAt)).getMinutes()).toBe(30);
    expect(calls.filter((c) => c.name === 'paymentVoucherApply')).toHaveLength(1);
    vi.unstubAllGlobals();
  });
});

describe('the offline review panel', () => {
  it('lists transfers with their vouchers and confirms one after stating the amount credited', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      paymentOfflineList: () => ({
        code: 0,
        payload: { total: 2, data: [offline(), offline({ id: 'op-2', state: 'confirmed', transferNo: 'TX-1' })] },
      }),
      paymentOfflineConfirm: (data) => ({
        code: 0,
        payload: offline({ id: (data as { id: string }).id, state: 'confirmed' }),
      }),
    });
    useSession
      .getState()
      .setLogin(loginResponse({ isYXF: true, permissionList: [Perm.myFinance, Perm.financeManage] }));
    const router = createMemoryRouter([{ path: '/my/finance', element: <OfflineReviewPanel /> }], {
      initialEntries: ['/my/finance?tab=offline'],
    });
    render(
      <QueryClientProvider client={queryClient}>
        <App>
          <RouterProvider router={router} />
        </App>
      </QueryClientProvider>,
    );
    const row = await screen.findByTestId('offline-review-row-op-1', {}, { timeout: 30_000 });
    expect(row.textContent).toContain('¥2,000.00');
    expect(row.textContent).toContain('TX-778');
    expect(
      within(row)
        .getByText(/statement\.pdf/)
        .closest('a')
        ?.getAttribute('href'),
    ).toBe('http://files.test/v2.pdf');
    expect(within(row).getByRole('img', { name: 'receipt.png' })).toBeTruthy();
    // A confirmed transfer has nothing left to do.
    expect(screen.queryByTestId('offline-review-confirm-op-2')).toBeNull();
    fireEvent.click(screen.getByTestId('offline-review-confirm-op-1'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('¥2,000.00');
    expect(dialog.textContent).toContain('Ada Media');
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'paymentOfflineConfirm')?.data).toEqual({ id: 'op-1' }));
  });
});
