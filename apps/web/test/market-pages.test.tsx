import { type MarketItem, type MarketOrder, Perm, type Product, type Wallet } from '@marquee/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import ShopDetailPage from '../src/features/market/ShopDetailPage';
import ShopOrderPage from '../src/features/market/ShopOrderPage';
import ShopPage from '../src/features/market/ShopPage';
import { type Answer, fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/**
 * The market's pages (issue 27) in the console's antd root, each at its route (the route table
 * names them; here they are mounted directly), against answers of the market contract.
 */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();

const product = (extra: Partial<Product>): Product => ({
  id: 'p-dev',
  kind: 'devicePoints',
  name: 'Screen licence',
  description: 'Keeps a screen playing',
  state: 'onSale',
  prices: [
    { months: 1, price: 3_000 },
    { months: 12, price: 30_000 },
  ],
  storageBytes: null,
  dataMbPerMonth: null,
  updatedAt: '2026-11-27T10:00:00.000Z',
  ...extra,
});
const devicePoints = product({});
const pack = product({
  id: 'p-pack',
  kind: 'storagePack',
  name: 'Storage 200 G',
  prices: [{ months: 12, price: 12_000 }],
  storageBytes: 200 * 1024 ** 3,
});
const dataCard = product({
  id: 'p-card',
  kind: 'dataCard',
  name: 'Data 1 G',
  prices: [{ months: 3, price: 6_000 }],
  dataMbPerMonth: 1024,
});
const card = (id: string, state: string) => ({
  id,
  iccid: `8986000000000000000${id.slice(-1)}`,
  operator: 'chinaMobile',
  state,
  packageName: null,
  packageMb: null,
  usedMb: 0,
  leftMb: null,
  deviceId: null,
  deviceName: null,
  activatedAt: null,
  expiresAt: null,
  autoRenew: false,
  remark: '',
  createdAt: '2026-11-01T00:00:00.000Z',
});
const wallet: Wallet = {
  id: 'ent:ent-1',
  kind: 'enterprise',
  name: 'Ada Media',
  platformAccount: null,
  entId: 'ent-1',
  entName: 'Ada Media',
  balance: 50_000,
  frozen: 0,
  available: 50_000,
  lowBalanceThreshold: null,
  low: false,
};
const order = (extra: Partial<MarketOrder>): MarketOrder => ({
  id: 'mo-1',
  no: 'M20261128000001',
  entId: 'ent-1',
  entName: 'Ada Media',
  kind: 'devicePoints',
  productId: 'p-dev',
  productName: 'Screen licence',
  months: 12,
  unitPrice: 30_000,
  quantity: 1,
  amount: 30_000,
  state: 'paid',
  source: 'purchase',
  payOrderId: 'pay-1',
  payState: 'paid',
  payMethod: 'balance',
  createdBy: 'Ada Admin',
  createdAt: '2026-11-28T01:00:00.000Z',
  paidAt: '2026-11-28T01:00:00.000Z',
  cancelledAt: null,
  ...extra,
});
const item: MarketItem = {
  id: 'it-1',
  kind: 'devicePoints',
  subjectId: 'd-1',
  subjectName: 'Lobby screen',
  productId: 'p-dev',
  productName: 'Screen licence',
  months: 12,
  renewalPrice: 30_000,
  state: 'active',
  startsAt: '2026-01-01T00:00:00.000Z',
  expiresAt: inDays(5),
  autoRenew: false,
  storageBytes: null,
  lastRenewal: { at: '2026-11-20T00:00:00.000Z', outcome: 'failed', reason: 'insufficientBalance' },
};

const answers: Record<string, (data: unknown) => Answer> = {
  ...shellAnswers,
  financeSummary: () => ({ code: 0, payload: { wallet, invoiceable: 0, unpaidOrders: 0 } }),
  marketProductList: (data) => {
    const { kind } = data as { kind?: string };
    const all = [devicePoints, pack, dataCard].filter((p) => !kind || p.kind === kind);
    return { code: 0, payload: { data: all } };
  },
  marketProductInfo: (data) => ({
    code: 0,
    payload: [devicePoints, pack, dataCard].find((p) => p.id === (data as { id: string }).id),
  }),
  marketProductSave: (data) => ({
    code: 0,
    payload: product({ ...(data as Partial<Product>), id: 'p-new', state: 'offShelf' }),
  }),
  marketProductShelf: (data) => ({
    code: 0,
    payload: product({ state: (data as { state: 'onSale' | 'offShelf' }).state }),
  }),
  marketStorage: () => ({
    code: 0,
    payload: {
      quotaBytes: 10 * 1024 ** 3,
      baseBytes: 10 * 1024 ** 3,
      packBytes: 0,
      usedBytes: 5 * 1024 ** 3,
      activePacks: 0,
    },
  }),
  marketDeviceOptions: () => ({
    code: 0,
    payload: {
      total: 2,
      data: [
        {
          id: 'd-1',
          name: 'Lobby screen',
          number: 'N1',
          status: 'online',
          licence: 'trial',
          expireAt: inDays(5),
          offlineHours: null,
          selectable: true,
          reason: null,
          autoRenew: false,
        },
        {
          id: 'd-2',
          name: 'Cellar screen',
          number: 'N2',
          status: 'offline',
          licence: 'licensed',
          expireAt: inDays(40),
          offlineHours: 100,
          selectable: false,
          reason: 'longOffline',
          autoRenew: false,
        },
      ],
    },
  }),
  marketQuote: (data) => {
    const req = data as { deviceIds?: string[]; cardIds?: string[]; quantity?: number; months: number };
    const count = req.deviceIds?.length ?? req.cardIds?.length ?? req.quantity ?? 1;
    const unit = req.months === 12 ? 30_000 : 3_000;
    return {
      code: 0,
      payload: {
        amount: unit * count,
        unitPrice: unit,
        quantity: count,
        lines: (req.deviceIds ?? ['pack']).map((id) => ({
          subjectType: 'device',
          subjectId: id,
          subjectName: id === 'd-1' ? 'Lobby screen' : id,
          amount: unit,
          expiresBefore: '2026-12-03T00:00:00.000Z',
          expiresAfter: '2027-12-03T00:00:00.000Z',
        })),
        available: 50_000,
        walletId: 'ent:ent-1',
      },
    };
  },
  marketOrderCreate: (data) => {
    const { payBy } = data as { payBy: string };
    return {
      code: 0,
      payload: order(
        payBy === 'balance'
          ? { id: 'mo-9', no: 'M20261128000009' }
          : { id: 'mo-8', state: 'unpaid', payState: 'unpaid', payOrderId: 'pay-8', paidAt: null, payMethod: null },
      ),
    };
  },
  marketOrderList: () => ({
    code: 0,
    payload: {
      total: 3,
      data: [
        order({}),
        order({
          id: 'mo-3',
          no: 'M20261128000003',
          state: 'unpaid',
          payState: 'unpaid',
          paidAt: null,
          payMethod: null,
        }),
        order({
          id: 'mo-2',
          no: 'M20261128000002',
          state: 'unpaid',
          payState: 'review',
          payOrderId: 'pay-2',
          paidAt: null,
          payMethod: 'offline',
        }),
      ],
    },
  }),
  marketOrderInfo: () => ({
    code: 0,
    payload: {
      order: order({}),
      lines: [
        {
          subjectType: 'device',
          subjectId: 'd-1',
          subjectName: 'Lobby screen',
          amount: 30_000,
          expiresBefore: '2026-12-03T00:00:00.000Z',
          expiresAfter: '2027-12-03T00:00:00.000Z',
        },
      ],
    },
  }),
  flowCardList: () => ({ code: 0, payload: { total: 2, data: [card('c-1', 'stock'), card('c-2', 'cancelled')] } }),
  marketItemList: () => ({ code: 0, payload: { total: 1, data: [item] } }),
  marketItemAutoRenew: (data) => ({ code: 0, payload: { updated: (data as { ids: string[] }).ids.length } }),
  marketRenewalList: () => ({
    code: 0,
    payload: {
      total: 2,
      data: [
        {
          id: 'r-2',
          itemId: 'it-1',
          kind: 'devicePoints',
          subjectName: 'Lobby screen',
          at: '2026-11-20T00:00:00.000Z',
          day: '2026-11-20',
          outcome: 'failed',
          reason: 'insufficientBalance',
          amount: 30_000,
          orderId: null,
          orderNo: null,
          effectiveAt: null,
          expiresBefore: '2026-11-29T00:00:00.000Z',
          expiresAfter: null,
        },
        {
          id: 'r-1',
          itemId: 'it-2',
          kind: 'storagePack',
          subjectName: '200 GB',
          at: '2026-10-20T00:00:00.000Z',
          day: '2026-10-20',
          outcome: 'succeeded',
          reason: null,
          amount: 12_000,
          orderId: 'mo-7',
          orderNo: 'M20261020000007',
          effectiveAt: '2026-10-21T00:00:00.000Z',
          expiresBefore: '2026-10-29T00:00:00.000Z',
          expiresAfter: '2027-10-29T00:00:00.000Z',
        },
      ],
    },
  }),
  marketOrderCancel: () => ({ code: 0, payload: order({ id: 'mo-3', no: 'M20261128000003', state: 'cancelled' }) }),
};

function renderMarket(initial: string, permissions: string[]) {
  return renderPages(
    initial,
    {
      '/shop': <ShopPage />,
      '/shop/detail': <ShopDetailPage />,
      '/shop/order': <ShopOrderPage />,
      '/pay': <div data-testid="pay-page" />,
      '/my/finance': <div data-testid="finance-page" />,
    },
    permissions,
  );
}

const buyer = [Perm.applicationMarket, Perm.shopOrder, Perm.myFinance];

describe('/shop', () => {
  it('shows the balance, the storage quota, the devices expiring soon and the catalogue by kind', async () => {
    fakeServer(answers);
    const router = renderMarket('/shop', buyer);
    await waitFor(() => expect(screen.getByTestId('market-available').textContent).toBe('¥500.00'));
    expect(screen.getByTestId('market-storage-text').textContent).toBe('5 GB used of 10 GB, 0 storage packs active');
    await waitFor(() => expect(screen.getByTestId('market-expiring-count').textContent).toBe('2'));
    expect(screen.getByTestId('market-group-devicePoints')).toBeTruthy();
    expect(screen.getByTestId('market-group-storagePack')).toBeTruthy();
    // ¥30 a month, or ¥300 for 12 months: from ¥25.00 a month
    expect(screen.getByTestId('market-price-p-dev').textContent).toBe('From ¥25.00 / month');
    expect(screen.queryByTestId('market-tab-catalogue')).toBeNull();
    fireEvent.click(screen.getByTestId('market-buy-p-dev'));
    await waitFor(() => expect(router.state.location.search).toBe('?id=p-dev'));
    expect(router.state.location.pathname).toBe('/shop/detail');
  });

  it('gives the catalogue tab to its keepers: prices typed in yuan are saved in fen', async () => {
    const calls = fakeServer(answers);
    renderMarket('/shop?tab=catalogue', [...buyer, Perm.marketManage]);
    await screen.findByTestId('market-catalogue-row-p-dev');
    fireEvent.click(screen.getByTestId('market-product-add'));
    await screen.findByTestId('market-product-form');
    fireEvent.change(screen.getByTestId('market-product-name'), { target: { value: 'Screen licence plus' } });
    fireEvent.change(screen.getByTestId('market-price-yuan-0'), { target: { value: '12.345' } });
    fireEvent.click(screen.getByTestId('market-product-submit'));
    await screen.findByText('At most 2 decimal places');
    fireEvent.change(screen.getByTestId('market-price-yuan-0'), { target: { value: '1,234.5' } });
    fireEvent.click(screen.getByTestId('market-price-add'));
    const second = (await screen.findByTestId('market-price-yuan-1')) as HTMLInputElement;
    fireEvent.change(second, { target: { value: '99' } });
    await waitFor(() => expect(second.value).toBe('99'));
    fireEvent.click(screen.getByTestId('market-product-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'marketProductSave')).toBe(true));
    expect(calls.find((c) => c.name === 'marketProductSave')?.data).toEqual({
      kind: 'devicePoints',
      name: 'Screen licence plus',
      description: '',
      prices: [
        { months: 1, price: 123_450 },
        { months: 3, price: 9_900 },
      ],
      dataMbPerMonth: null,
    });

    // Off shelf after a confirmation
    fireEvent.click(screen.getByTestId('market-product-offshelf-p-dev'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'marketProductShelf')?.data).toEqual({ id: 'p-dev', state: 'offShelf' }),
    );

    // Editing a data-card package keeps its data per month and prices (shown in yuan, sent in fen)
    fireEvent.click(screen.getByTestId('market-product-edit-p-card'));
    await waitFor(() => expect((screen.getByTestId('market-price-yuan-0') as HTMLInputElement).value).toBe('60.00'));
    // The data field shows once the form knows the kind (a re-render later under load): wait for it.
    await waitFor(() => expect((screen.getByTestId('market-product-data') as HTMLInputElement).value).toBe('1024'));
    fireEvent.click(screen.getByTestId('market-product-submit'));
    await waitFor(() => expect(calls.filter((c) => c.name === 'marketProductSave')).toHaveLength(2));
    expect(calls.filter((c) => c.name === 'marketProductSave')[1].data).toEqual({
      id: 'p-card',
      kind: 'dataCard',
      name: 'Data 1 G',
      description: 'Keeps a screen playing',
      prices: [{ months: 3, price: 6_000 }],
      dataMbPerMonth: 1024,
    });
  });
});

describe('/shop/detail', () => {
  it('quotes the chosen devices and pays with the balance after a confirmation', async () => {
    const calls = fakeServer(answers);
    const router = renderMarket('/shop/detail?id=p-dev', buyer);
    await screen.findByTestId('market-device-row-d-1');
    // Auto-renewal is on by default for device points; the long-offline device cannot be chosen.
    expect(screen.getByTestId('market-autorenew').getAttribute('aria-checked')).toBe('true');
    const offline = within(screen.getByTestId('market-device-row-d-2')).getByRole('checkbox');
    expect((offline as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByTestId('market-device-row-d-2').textContent).toContain('Offline more than 72 hours');
    expect((screen.getByTestId('market-pay-balance') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('market-term-12'));
    fireEvent.click(within(screen.getByTestId('market-device-row-d-1')).getByRole('checkbox'));
    await waitFor(() => expect(screen.getByTestId('market-quote-total').textContent).toBe('¥300.00'));
    expect(calls.filter((c) => c.name === 'marketQuote').at(-1)?.data).toEqual({
      productId: 'p-dev',
      months: 12,
      autoRenew: true,
      deviceIds: ['d-1'],
    });
    await waitFor(() => expect((screen.getByTestId('market-pay-balance') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('market-pay-balance'));
    expect((await screen.findByTestId('market-confirm-text')).textContent).toContain('¥300.00');
    fireEvent.click(screen.getByTestId('market-confirm-pay'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shop/order'));
    expect(router.state.location.search).toBe('?id=mo-9');
    expect(calls.find((c) => c.name === 'marketOrderCreate')?.data).toEqual({
      productId: 'p-dev',
      months: 12,
      autoRenew: true,
      deviceIds: ['d-1'],
      payBy: 'balance',
    });
  });

  it('refuses the balance when it does not cover the total, and pays otherwise at /pay', async () => {
    const calls = fakeServer(answers);
    const router = renderMarket('/shop/detail?kind=storagePack', buyer);
    const quantity = await screen.findByTestId('market-quantity');
    fireEvent.change(quantity, { target: { value: '5' } });
    await waitFor(() => expect(screen.getByTestId('market-quote-total').textContent).toBe('¥1,500.00'));
    expect(screen.getByTestId('market-quota-after').textContent).toContain('1010 GB');
    expect(screen.getByTestId('market-autorenew').getAttribute('aria-checked')).toBe('false');
    expect((screen.getByTestId('market-pay-balance') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('market-pay-balance-reason').textContent).toContain('¥1,000.00 short');
    fireEvent.click(screen.getByTestId('market-pay-other'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pay'));
    expect(router.state.location.search).toBe('?id=pay-8');
    expect(calls.find((c) => c.name === 'marketOrderCreate')?.data).toEqual({
      productId: 'p-pack',
      months: 12,
      autoRenew: false,
      quantity: 5,
      payBy: 'other',
    });
  });
});

describe('/shop/detail for IoT cards', () => {
  it('gives a package to the chosen cards, a cancelled one not choosable', async () => {
    const calls = fakeServer(answers);
    renderMarket('/shop/detail?kind=dataCard', [...buyer, Perm.operateFlow]);
    const row = await screen.findByTestId('market-card-row-c-1');
    expect((within(screen.getByTestId('market-card-row-c-2')).getByRole('checkbox') as HTMLInputElement).disabled).toBe(
      true,
    );
    expect(screen.getByTestId('market-autorenew').getAttribute('aria-checked')).toBe('false');
    fireEvent.click(within(row).getByRole('checkbox'));
    await waitFor(() => expect(screen.getByTestId('market-quote-total').textContent).toBe('¥30.00'));
    expect(calls.filter((c) => c.name === 'marketQuote').at(-1)?.data).toEqual({
      productId: 'p-card',
      months: 3,
      autoRenew: false,
      cardIds: ['c-1'],
    });
  });
});

describe('/shop/order', () => {
  it('lists the orders (under review shown), cancels an open one, opens one, switches an item’s auto-renewal and shows renewals', async () => {
    const calls = fakeServer(answers);
    const router = renderMarket('/shop/order', buyer);
    const review = await screen.findByTestId('market-order-row-mo-2');
    expect(review.textContent).toContain('Under review');
    expect(within(review).queryByTestId('market-order-pay-mo-2')).toBeNull();
    // An open order is paid at /pay or cancelled after a confirmation
    expect(screen.getByTestId('market-order-pay-mo-3')).toBeTruthy();
    fireEvent.click(screen.getByTestId('market-order-cancel-mo-3'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'marketOrderCancel')?.data).toEqual({ id: 'mo-3' }));
    fireEvent.click(screen.getByTestId('market-order-detail-mo-1'));
    await waitFor(() => expect(router.state.location.search).toContain('id=mo-1'));
    const lines = await screen.findByTestId('market-order-lines');
    expect(lines.textContent).toContain('Lobby screen');
    expect(screen.getByTestId('market-order-ledger').getAttribute('href')).toBe('/my/finance?tab=movements');

    fireEvent.click(screen.getByTestId('market-tab-items'));
    const row = await screen.findByTestId('market-item-row-it-1');
    expect(row.textContent).toContain('Expires in 5 days');
    expect(row.textContent).toContain('The wallet’s available balance was not enough');
    fireEvent.click(screen.getByTestId('market-item-autorenew-it-1'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'marketItemAutoRenew')?.data).toEqual({ ids: ['it-1'], autoRenew: true }),
    );

    // Renewals: why one failed; a successful one's order opens in the Orders tab
    fireEvent.click(screen.getByTestId('market-tab-renewals'));
    const failed = await screen.findByTestId('market-renewal-row-r-2');
    expect(failed.textContent).toContain('Failed');
    expect(failed.textContent).toContain('The wallet’s available balance was not enough');
    const done = screen.getByTestId('market-renewal-row-r-1');
    expect(done.textContent).toContain('¥120.00');
    fireEvent.click(within(done).getByTestId('market-renewal-order'));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=orders&id=mo-7'));
  });
});
