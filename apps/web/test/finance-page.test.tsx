import { type Movement, Perm, type Wallet } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

// The first visit compiles the lazy page with antd's table, tabs, statistic and radio in the test run.
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });

const wallet: Wallet = {
  id: 'ent:ent-1',
  kind: 'enterprise',
  name: 'Ada Media',
  platformAccount: null,
  entId: 'ent-1',
  entName: 'Ada Media',
  balance: 1_234_550,
  frozen: 200_000,
  available: 1_034_550,
  lowBalanceThreshold: 2_000_000,
  low: true,
};

const movement = (seq: number, amount: number, extra: Partial<Movement> = {}): Movement => ({
  seq: String(seq),
  transferId: `t-${seq}`,
  at: '2026-11-27T10:00:00.000Z',
  code: amount > 0 ? 'recharge' : 'payment',
  amount,
  frozenChange: 0,
  balance: 1_234_550,
  frozen: 200_000,
  counterparty: amount > 0 ? 'clearingOffline' : 'revenue',
  cause: { type: 'payOrder', id: `o-${seq}`, label: `P2026112700000${seq}`, route: `/pay?id=o-${seq}` },
  note: '',
  ...extra,
});

const answers = {
  ...shellAnswers,
  financeWallets: () => ({ code: 0, payload: { total: 1, data: [wallet] } }),
  financeSummary: () => ({ code: 0, payload: { wallet, invoiceable: 100_000, unpaidOrders: 2 } }),
  financeMovements: () => ({
    code: 0,
    payload: { total: 2, capped: false, data: [movement(2, 100_000), movement(1, -5_050)] },
  }),
  financeStatement: () => ({
    code: 0,
    payload: {
      months: [
        { month: '2026-10', opening: 0, credits: 500_000, debits: 100_000, closing: 400_000, movements: 3 },
        { month: '2026-11', opening: 400_000, credits: 900_000, debits: 65_450, closing: 1_234_550, movements: 5 },
      ],
    },
  }),
  paymentList: () => ({ code: 0, payload: { total: 0, data: [] } }),
  invoiceList: () => ({ code: 0, payload: { total: 0, data: [] } }),
  paymentRecharge: () => ({ code: 0, payload: { id: 'o-9', no: 'P20261128000009' } }),
};

const enterpriseAdmin = [Perm.my, Perm.myFinance];

describe('/my/finance (the finance centre)', () => {
  it('shows the wallet, the low-balance warning and the ledger with each movement linked to its cause', async () => {
    const calls = fakeServer(answers);
    useSession.getState().setLogin(loginResponse({ permissionList: enterpriseAdmin }));
    const app = renderApp('/finance_center');
    render(app.tree);
    await screen.findByTestId('finance-page', {}, { timeout: 60_000 });
    await waitFor(() => expect(screen.getByTestId('finance-available').textContent).toBe('¥10,345.50'));
    expect(screen.getByTestId('finance-frozen').textContent).toBe('¥2,000.00');
    expect(screen.getByTestId('finance-balance').textContent).toBe('¥12,345.50');
    expect(screen.getByTestId('finance-invoiceable').textContent).toBe('¥1,000.00');
    expect(screen.getByTestId('finance-unpaid').textContent).toBe('2');
    expect(screen.getByTestId('finance-low-alert').textContent).toContain('¥20,000.00');
    // One wallet: no selector
    expect(screen.queryByTestId('finance-wallet')).toBeNull();

    const rows = await screen.findAllByTestId('finance-movements-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('+¥1,000.00');
    expect(rows[0].textContent).toContain('Bank transfers received');
    expect(rows[1].textContent).toContain('-¥50.50');
    expect(rows[1].textContent).toContain('Platform revenue');
    const cause = within(rows[0]).getByTestId('finance-movements-cause');
    expect(cause.getAttribute('href')).toBe('/pay?id=o-2');
    expect(calls.find((c) => c.name === 'financeMovements')?.data).toEqual({ page: 1, size: 50 });

    // The statement: a table of the months, newest first, and its chart
    fireEvent.click(screen.getByTestId('finance-tab-statement'));
    const months = await screen.findAllByTestId('finance-statement-row');
    expect(months.map((m) => m.textContent?.slice(0, 7))).toEqual(['2026-11', '2026-10']);
    expect(months[0].textContent).toContain('¥12,345.50');
    expect(screen.getByTestId('finance-statement-chart')).toBeTruthy();
    expect(calls.find((c) => c.name === 'financeStatement')?.data).toEqual({ months: 12 });
    expect(app.router.state.location.search).toContain('tab=statement');

    // Unpaid orders open the Payments tab filtered to them
    fireEvent.click(screen.getByTestId('finance-unpaid-link'));
    await waitFor(() => expect(calls.some((c) => c.name === 'paymentList')).toBe(true));
    expect(calls.find((c) => c.name === 'paymentList')?.data).toMatchObject({ state: 'unpaid' });
  });

  it('recharges a free amount with the section-5 rules, then opens its payment page', async () => {
    const calls = fakeServer(answers);
    useSession.getState().setLogin(loginResponse({ permissionList: enterpriseAdmin }));
    const app = renderApp('/my/finance');
    render(app.tree);
    fireEvent.click(await screen.findByTestId('finance-recharge', {}, { timeout: 60_000 }));
    await screen.findByTestId('finance-recharge-form');
    // The first preset is chosen when the dialog opens.
    await waitFor(() => expect(screen.getByTestId('finance-recharge-total').textContent).toContain('¥1,000.00'));
    fireEvent.click(screen.getByTestId('finance-recharge-preset-custom'));
    const amount = await screen.findByTestId('finance-recharge-amount');

    fireEvent.change(amount, { target: { value: '12.345' } });
    fireEvent.click(screen.getByTestId('finance-recharge-submit'));
    await screen.findByText('At most 2 decimal places');
    fireEvent.change(amount, { target: { value: '100000.01' } });
    await screen.findByText('The recharge amount is greater than 0 and at most 100000');
    fireEvent.change(amount, { target: { value: 'ten' } });
    await screen.findByText('Invalid amount: enter a number with at most 2 decimals');
    expect(calls.some((c) => c.name === 'paymentRecharge')).toBe(false);

    fireEvent.change(amount, { target: { value: '88.5' } });
    await waitFor(() => expect(screen.getByTestId('finance-recharge-total').textContent).toContain('¥88.50'));
    fireEvent.click(screen.getByTestId('finance-recharge-submit'));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/pay'));
    expect(app.router.state.location.search).toBe('?id=o-9');
    expect(calls.find((c) => c.name === 'paymentRecharge')?.data).toEqual({ amount: 8850 });
  });

  it('the platform operator picks any wallet, reviews offline transfers and bills, and issues an invoice', async () => {
    const revenue: Wallet = {
      ...wallet,
      id: 'platform:revenue',
      kind: 'platform',
      name: 'revenue',
      platformAccount: 'revenue',
      entId: null,
      entName: '',
      low: false,
      lowBalanceThreshold: null,
    };
    const invoice = {
      id: 'inv-1',
      walletId: wallet.id,
      entId: 'ent-1',
      entName: 'Ada Media',
      title: 'Ada Media Ltd.',
      taxNo: '91310000MA1DEMO001',
      amount: 150_000,
      email: '',
      remark: '',
      state: 'requested',
      invoiceNo: '',
      reason: '',
      requestedBy: 'entadmin',
      requestedAt: '2026-11-27T10:00:00.000Z',
      reviewedBy: null,
      reviewedAt: null,
    };
    const calls = fakeServer({
      ...answers,
      financeWallets: () => ({ code: 0, payload: { total: 2, data: [revenue, wallet] } }),
      financeSummary: () => ({ code: 0, payload: { wallet: revenue, invoiceable: 0, unpaidOrders: 0 } }),
      invoiceList: () => ({ code: 0, payload: { total: 1, data: [invoice] } }),
      invoiceIssue: () => ({ code: 0, payload: { ...invoice, state: 'issued', invoiceNo: 'INV-1' } }),
      paymentOfflineList: () => ({ code: 0, payload: { total: 0, data: [] } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [...enterpriseAdmin, Perm.financeManage] }));
    render(renderApp('/my/finance?tab=invoices').tree);
    const issue = await screen.findByTestId('finance-invoice-issue', {}, { timeout: 60_000 });
    expect(screen.getByTestId('finance-wallet-name').textContent).toBe('Platform revenue');
    expect(screen.getByTestId('finance-wallet')).toBeTruthy();
    expect(screen.getByTestId('finance-tab-offline')).toBeTruthy();
    expect(screen.getByTestId('finance-tab-bills')).toBeTruthy();
    // A platform account is not recharged and asks for no invoice.
    expect(screen.queryByTestId('finance-recharge')).toBeNull();
    expect(screen.queryByTestId('finance-invoice-request')).toBeNull();

    fireEvent.click(issue);
    fireEvent.change(await screen.findByTestId('finance-invoice-no'), { target: { value: 'INV-1' } });
    fireEvent.click(screen.getByTestId('finance-invoice-review-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'invoiceIssue')).toBe(true));
    expect(calls.find((c) => c.name === 'invoiceIssue')?.data).toEqual({ id: 'inv-1', invoiceNo: 'INV-1' });
  });
});
