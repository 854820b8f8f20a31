import { type Coupon, type Goods, Perm, type Slot } from '@marquee/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import CouponPage from '../src/features/sales/CouponPage';
import GoodsPage from '../src/features/sales/GoodsPage';
import SlotPage from '../src/features/sales/SlotPage';
import { i18n } from '../src/i18n';
import { fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/** The sales inventory pages (issue 28), mounted directly, against answers of the sales contract. */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const coupon: Coupon = {
  id: 'c-1',
  name: 'Autumn 85',
  discount: 0.85,
  limit: 10,
  used: 3,
  validFrom: '2026-11-01',
  validTo: '2026-12-31',
  goodsIds: [],
  goodsNames: [],
  enabled: true,
  state: 'available',
  createdAt: '2026-11-01T00:00:00.000Z',
};

function renderAt(initial: string, element: ReactNode, permissions: string[]) {
  return renderPages(
    initial,
    {
      [initial]: element,
      '/operate/order': <div data-testid="order-page" />,
    },
    permissions,
  );
}

describe('/operate/coupon', () => {
  it('lists coupons with the discount as 0..1 and as text, and disables one after a confirmation', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      salesCouponList: () => ({ code: 0, payload: { total: 1, data: [coupon] } }),
      salesCouponEnable: () => ({ code: 0, payload: { ...coupon, enabled: false, state: 'disabled' } }),
    });
    renderAt('/operate/coupon', <CouponPage />, [Perm.operateCoupon, Perm.salesManage]);
    const row = await screen.findByTestId('sales-coupon-row-c-1');
    expect(row.textContent).toContain('Autumn 85');
    expect(row.textContent).toContain('0.85 (15% off)');
    expect(row.textContent).toContain('All goods and slots');
    fireEvent.click(screen.getByTestId('sales-coupon-enable-c-1'));
    // The confirmation's OK button carries the action's label (the last 'Disable' button on the page).
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Disable' }).length).toBe(2));
    fireEvent.click(screen.getAllByRole('button', { name: 'Disable' }).at(-1) as HTMLElement);
    await waitFor(() => expect(calls.some((c) => c.name === 'salesCouponEnable')).toBe(true));
    expect(calls.find((c) => c.name === 'salesCouponEnable')?.data).toEqual({ id: 'c-1', enabled: false });
  });
});

const slot: Slot = {
  id: 's-1',
  number: '100000001',
  name: 'Lobby loop',
  screenSize: '55"',
  width: 1920,
  height: 1080,
  durationSec: 15,
  salesMethod: 'cpt',
  cptPrice: 1250,
  cpmPrice: null,
  maxRotations: 4,
  rtbEnabled: false,
  rtbFloor: null,
  rtbFallbackAdId: null,
  rtbFallbackAdName: null,
  venueType: 'retail.malls',
  targets: { deviceIds: ['d-1', 'd-2'], groupIds: [], tagIds: [], spliceIds: [] },
  layoutId: null,
  layoutName: null,
  regionId: null,
  screens: 2,
  longOfflineScreens: 1,
  inUse: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe('/operate/slot', () => {
  it('lists slots with resolution, price in yuan and long-offline screens, and deletes one after a confirmation', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      salesSlotList: () => ({ code: 0, payload: { total: 1, data: [slot] } }),
      salesSlotDelete: () => ({ code: 0, payload: null }),
    });
    renderAt('/operate/slot', <SlotPage />, [Perm.operateSlot, Perm.salesManage]);
    const row = await screen.findByTestId('sales-slot-row-s-1');
    expect(row.textContent).toContain('100000001');
    expect(row.textContent).toContain('1920×1080');
    expect(row.textContent).toContain('12.50');
    expect(row.textContent).toContain('1 offline for long');
    fireEvent.click(screen.getByTestId('sales-slot-delete-s-1'));
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Delete' }).length).toBe(2));
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1) as HTMLElement);
    await waitFor(() => expect(calls.some((c) => c.name === 'salesSlotDelete')).toBe(true));
    expect(calls.find((c) => c.name === 'salesSlotDelete')?.data).toEqual({ id: 's-1' });
  });
});

const goods: Goods = {
  id: 'g-1',
  number: '200000001',
  name: 'Evening pack',
  description: '',
  kind: 'single',
  state: 'onSale',
  startDate: '2026-12-01',
  endDate: '2026-12-31',
  hours: [18, 19, 20, 21],
  lines: [],
  orders: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe('/operate/goods', () => {
  it('shows an advertiser the goods with their hours and opens the composer from Order', async () => {
    await i18n.changeLanguage('en-US');
    fakeServer({ ...shellAnswers, salesGoodsList: () => ({ code: 0, payload: { total: 1, data: [goods] } }) });
    const router = renderAt('/operate/goods', <GoodsPage />, [Perm.operateGoods, Perm.operateOrder]);
    const row = await screen.findByTestId('sales-goods-row-g-1');
    expect(row.textContent).toContain('Evening pack');
    expect(row.textContent).toContain('18:00');
    fireEvent.click(screen.getByTestId('sales-goods-order-g-1'));
    await screen.findByTestId('order-page');
    expect(router.state.location.search).toBe('?compose=1&goodsId=g-1');
  });
});
