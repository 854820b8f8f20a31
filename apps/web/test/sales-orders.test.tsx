import {
  type Availability,
  type Goods,
  Perm,
  type SalesOrder,
  type SalesQuote,
  type Settlement,
  type SubOrder,
} from '@marquee/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import OrderDetailPage from '../src/features/sales/OrderDetailPage';
import OrderListPage from '../src/features/sales/OrderListPage';
import { type Answer, fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/**
 * The airtime order pages (issue 28): the list with its state tabs and the composer opened
 * from `?compose=1&goodsId=`, and the detail with its sub-orders, history, transfers and
 * settlement; one render each, against answers of the sales contract.
 */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const order = (extra: Partial<SalesOrder>): SalesOrder => ({
  id: 'o-1',
  no: 'S202611280001',
  advertiserId: 'adv-1',
  advertiserName: 'Blue Tea',
  goodsId: 'g-1',
  goodsName: 'Lobby week',
  state: 'unpaid',
  startDate: '2026-12-01',
  endDate: '2026-12-07',
  hours: [8, 9, 10],
  listAmount: 12_000,
  amount: 10_200,
  paidAmount: 0,
  frozenAmount: 0,
  refundedAmount: 0,
  couponId: null,
  couponName: null,
  priceContractId: null,
  holdUntil: new Date(Date.now() + 3_600_000).toISOString(),
  cancelReason: null,
  subOrders: 1,
  screens: 2,
  settlementState: null,
  contractState: null,
  createdBy: 'Ada Admin',
  createdAt: '2026-11-28T01:00:00.000Z',
  paidAt: null,
  hasPermission: true,
  ...extra,
});

const goods: Goods = {
  id: 'g-1',
  number: '000000001',
  name: 'Lobby week',
  description: '',
  kind: 'single',
  state: 'onSale',
  startDate: '2026-01-01',
  endDate: '2027-12-31',
  hours: [],
  lines: [
    {
      id: 'gl-1',
      slotId: 's-1',
      slotName: 'Lobby 15 s',
      salesMethod: 'cpt',
      durationSec: 15,
      maxRotations: 4,
      deviceIds: [],
      screens: 2,
      unitPrice: 100,
    },
  ],
  orders: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

const figures = { capacity: 8, booked: 4, held: 2, available: 2, availPct: 25, fillRate: 75 };
const availability: Availability = {
  slotId: 's-1',
  maxRotations: 4,
  bookable: 1,
  total: figures,
  series: [{ at: '2026-12-01', ...figures }],
  screens: {
    total: 2,
    data: [
      { deviceId: 'd-1', deviceName: 'Lobby left', longOffline: false, minAvailable: 1, ...figures },
      { deviceId: 'd-2', deviceName: 'Cellar', longOffline: true, minAvailable: 0, ...figures },
    ],
  },
  computedAt: '2026-11-28T08:00:00.000Z',
};

const quote: SalesQuote = {
  lines: [
    {
      slotId: 's-1',
      slotName: 'Lobby 15 s',
      salesMethod: 'cpt',
      unitPrice: 100,
      screens: 2,
      rotations: 2,
      days: 7,
      hoursPerDay: 24,
      impressionsK: null,
      listAmount: 67_200,
      bookable: 1,
    },
  ],
  listAmount: 67_200,
  priceContract: null,
  coupon: null,
  amount: 67_200,
  walletId: 'adv:adv-1',
  available: 50_000,
};

const sub: SubOrder = {
  id: 'so-1',
  subNo: 'S202611280001-1',
  slotId: 's-1',
  slotName: 'Lobby 15 s',
  salesMethod: 'cpt',
  durationSec: 15,
  unitPrice: 100,
  rotations: 2,
  impressionsK: null,
  screens: 2,
  deviceIds: [],
  amount: 10_200,
  adId: null,
  adName: null,
  adReviewState: null,
  adStatus: null,
};

const settlement: Settlement = {
  id: 'st-1',
  orderId: 'o-2',
  orderNo: 'S202611280002',
  advertiserName: 'Blue Tea',
  state: 'toBePaid',
  salesMethod: 'cpt',
  impressionsBasis: { multiplierPct: 150, audienceScreenDays: 3, multiplierScreenDays: 11 },
  expectedPlays: 100,
  deliveredPlays: 90,
  impressions: 135,
  frozenAmount: 10_200,
  billedAmount: 9_180,
  creditAmount: 0,
  underDeliveredScreenDays: 1,
  makeGoodUntil: null,
  computedAt: '2026-12-08T00:10:00.000Z',
  confirmedBy: null,
  confirmedAt: null,
  completedAt: null,
  transfers: [],
};

const answers: Record<string, (data: unknown) => Answer> = {
  ...shellAnswers,
  salesAdvertiserOptions: () => ({
    code: 0,
    payload: { data: [{ id: 'adv-1', name: 'Blue Tea', loginName: 'bluetea' }] },
  }),
  salesOrderList: () => ({
    code: 0,
    payload: {
      total: 2,
      data: [order({}), order({ id: 'o-2', no: 'S202611280002', state: 'inProgress', frozenAmount: 10_200 })],
      counts: { unpaid: 1, inProgress: 1 },
    },
  }),
  salesGoodsList: () => ({ code: 0, payload: { total: 1, data: [goods] } }),
  salesGoodsInfo: () => ({ code: 0, payload: goods }),
  salesCouponOptions: () => ({ code: 0, payload: { data: [] } }),
  salesAvailability: () => ({ code: 0, payload: availability }),
  salesQuote: () => ({ code: 0, payload: quote }),
  timeZoneList: () => ({ code: 0, payload: { zones: [], enterprise: 'Asia/Shanghai', default: 'Asia/Shanghai' } }),
  salesOrderInfo: () => ({
    code: 0,
    payload: {
      order: order({
        id: 'o-2',
        no: 'S202611280002',
        state: 'inProgress',
        frozenAmount: 10_200,
        holdUntil: null,
        paidAt: '2026-11-28T02:00:00.000Z',
        settlementState: 'toBePaid',
      }),
      subOrders: [
        sub,
        {
          ...sub,
          id: 'so-2',
          subNo: 'S202611280002-2',
          adId: 'ad-1',
          adName: 'Tea ad',
          adReviewState: 'failed',
          adStatus: 'auditFailed',
        },
      ],
      events: [
        { from: null, to: 'unpaid', actorName: 'Ada Admin', at: '2026-11-28T01:00:00.000Z', note: '' },
        { from: 'unpaid', to: 'toUpload', actorName: 'Ada Admin', at: '2026-11-28T02:00:00.000Z', note: '' },
        { from: 'paid', to: 'inProgress', actorName: '', at: '2026-12-01T00:00:00.000Z', note: '' },
      ],
      transfers: [{ id: 'sales:o-2:hold', code: 'hold', amount: 10_200, at: '2026-11-28T02:00:00.000Z' }],
    },
  }),
  salesSettlementInfo: () => ({
    code: 0,
    payload: {
      settlement,
      lines: {
        total: 2,
        data: [
          {
            subOrderId: 'so-1',
            deviceId: 'd-2',
            deviceName: 'Cellar',
            day: '2026-12-01',
            expectedPlays: 50,
            deliveredPlays: 40,
            impressions: 60,
            impressionsSource: 'multiplier',
            underDelivered: true,
            remedy: null,
            amount: 5_100,
            credit: 0,
          },
          {
            subOrderId: 'so-1',
            deviceId: 'd-1',
            deviceName: 'Lobby left',
            day: '2026-12-01',
            expectedPlays: 50,
            deliveredPlays: 50,
            impressions: 75,
            impressionsSource: 'audience',
            underDelivered: false,
            remedy: null,
            amount: 5_100,
            credit: 0,
          },
        ],
      },
    },
  }),
  salesSettlementRemedy: () => ({ code: 0, payload: settlement }),
};

function renderAt(initial: string, permissions: string[]) {
  return renderPages(
    initial,
    {
      '/operate/order': <OrderListPage />,
      '/operate/orderDetail': <OrderDetailPage />,
    },
    permissions,
  );
}

const staff = [Perm.operate, Perm.operateOrder, Perm.operateGoods, Perm.salesManage];

describe('/operate/order', () => {
  it('lists orders with their state counts and composes an order of goods, showing the conflict before submitting', async () => {
    const calls = fakeServer(answers);
    renderAt('/operate/order?compose=1&goodsId=g-1', staff);
    await screen.findByTestId('sales-order-row-o-1');
    expect(screen.getByTestId('sales-order-tab-unpaid').textContent).toContain('1');
    expect(screen.getByTestId('sales-order-row-o-1').textContent).toContain('Blue Tea');
    expect(screen.getByTestId('sales-order-row-o-1').textContent).toContain('¥102.00');

    // The composer opened with the goods: its line, the availability and the quote.
    const composer = await screen.findByTestId('sales-composer-line-s-1');
    const rotations = within(composer).getByTestId('sales-composer-rotations-s-1');
    const input = rotations.tagName === 'INPUT' ? rotations : (rotations.querySelector('input') as HTMLElement);
    fireEvent.change(input, { target: { value: '2' } });
    // Staff name the advertiser before a quote is asked for.
    expect((await screen.findByTestId('sales-quote-missing')).textContent).toContain('advertiser');
    const advertiser = screen.getByTestId('sales-composer-advertiser');
    fireEvent.mouseDown(advertiser.querySelector('input') ?? advertiser);
    fireEvent.click(await screen.findByText('Blue Tea (bluetea)'));

    await screen.findByTestId('sales-availability-screens');
    expect(screen.getByTestId('sales-availability-offline-d-2')).toBeTruthy();
    expect(screen.getByTestId('sales-availability-conflict').textContent).toContain('Only 1 rotations');
    await waitFor(() => expect(screen.getByTestId('sales-quote-total').textContent).toBe('¥672.00'));
    expect(screen.getByTestId('sales-quote-conflict')).toBeTruthy();
    expect(screen.getByTestId('sales-quote-recharge')).toBeTruthy();
    expect((screen.getByTestId('sales-composer-submit') as HTMLButtonElement).disabled).toBe(true);
    // The period's days are the selling enterprise's, and the hint says whose.
    expect(await screen.findByText(/days of Asia\/Shanghai/)).toBeTruthy();
    const asked = calls.filter((c) => c.name === 'salesQuote').at(-1)?.data;
    expect(asked).toMatchObject({
      advertiserId: 'adv-1',
      goodsId: 'g-1',
      hours: [],
      lines: [{ slotId: 's-1', rotations: 2 }],
    });
  });
});

describe('/operate/orderDetail', () => {
  it('shows the order, its sub-orders, history, transfers and settlement with its basis', async () => {
    const calls = fakeServer(answers);
    renderAt('/operate/orderDetail?id=o-2', staff);
    await screen.findByTestId('sales-order-detail');
    expect(screen.getByTestId('sales-order-detail-no').textContent).toContain('S202611280002');
    expect(screen.getByTestId('sales-sub-upload-so-1').textContent).toBe('Upload materials');
    expect(screen.getByTestId('sales-sub-upload-so-2').textContent).toBe('Upload again');
    expect(screen.getByTestId('sales-order-transfers').textContent).toContain('sales:o-2:hold');
    expect(screen.getByTestId('sales-order-timeline').textContent).toContain('System');
    expect((await screen.findByTestId('sales-settlement-basis')).textContent).toBe(
      'Impressions = plays × audience where gather data exists (3 screen-days), else × 1.50 per play (11 screen-days).',
    );
    fireEvent.click(screen.getByTestId('sales-settlement-remedy-credit-so-1|d-2|2026-12-01'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'salesSettlementRemedy')?.data).toEqual({
        orderId: 'o-2',
        remedy: 'credit',
        lines: [{ subOrderId: 'so-1', deviceId: 'd-2', day: '2026-12-01' }],
      }),
    );
  });
});
