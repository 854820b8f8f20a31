import { type Coupon, Perm, type Slot } from '@marquee/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import CouponPage from '../src/features/sales/CouponPage';
import OrderListPage from '../src/features/sales/OrderListPage';
import SlotPage from '../src/features/sales/SlotPage';
import { i18n } from '../src/i18n';
import { fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/**
 * The sales pages' smaller dialogs (issue 28): a slot's RTB switch and floor, a coupon's uses
 * in a drawer, and the enterprise's sales settings; each opened from its page's row action or
 * toolbar, against answers of the sales contract.
 */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

function renderAt(initial: string, element: ReactNode, permissions: string[]) {
  return renderPages(
    initial,
    {
      [initial]: element,
      '/operate/orderDetail': <div data-testid="order-detail-page" />,
    },
    permissions,
  );
}

const slot: Slot = {
  id: 's-1',
  number: '100000001',
  name: 'Lobby loop',
  screenSize: '55"',
  width: 1920,
  height: 1080,
  durationSec: 15,
  salesMethod: 'cpm',
  cptPrice: null,
  cpmPrice: 3000,
  maxRotations: 4,
  rtbEnabled: false,
  rtbFloor: null,
  rtbFallbackAdId: null,
  rtbFallbackAdName: null,
  venueType: 'retail.malls',
  targets: { deviceIds: ['d-1'], groupIds: [], tagIds: [], spliceIds: [] },
  layoutId: null,
  layoutName: null,
  regionId: null,
  screens: 1,
  longOfflineScreens: 0,
  inUse: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe('SlotRtbDialog', () => {
  it('turns RTB on with a floor in yuan sent as fen, and refuses a floor with 3 decimals', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      salesSlotList: () => ({ code: 0, payload: { total: 1, data: [slot] } }),
      salesSlotRtb: (data) => ({ code: 0, payload: { ...slot, ...(data as Partial<Slot>) } }),
    });
    renderAt('/operate/slot', <SlotPage />, [Perm.operateSlot, Perm.salesManage]);
    fireEvent.click(await screen.findByTestId('sales-slot-rtb-s-1'));
    const form = await screen.findByTestId('sales-rtb-form');
    expect(form.closest('.ant-modal')?.textContent).toContain("the screen's own loop simply continues");

    fireEvent.click(within(form).getByTestId('sales-rtb-switch'));
    // On, the floor is required.
    fireEvent.click(screen.getByTestId('sales-rtb-submit'));
    expect(await within(form).findByText('This field is required')).toBeTruthy();

    const floor = within(form).getByTestId('sales-rtb-floor');
    fireEvent.change(floor, { target: { value: '12.345' } });
    expect(await within(form).findByText('At most 2 decimal places')).toBeTruthy();
    fireEvent.click(screen.getByTestId('sales-rtb-submit'));
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.some((c) => c.name === 'salesSlotRtb')).toBe(false);

    fireEvent.change(floor, { target: { value: '10001' } });
    expect(await within(form).findByText('The floor is 0.01 to 10000 yuan')).toBeTruthy();

    fireEvent.change(floor, { target: { value: '12.34' } });
    fireEvent.click(screen.getByTestId('sales-rtb-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'salesSlotRtb')).toBe(true));
    expect(calls.find((c) => c.name === 'salesSlotRtb')?.data).toEqual({
      id: 's-1',
      rtbEnabled: true,
      rtbFloor: 1234,
      rtbFallbackAdId: null,
      venueType: 'retail.malls',
    });
  });
});

const coupon: Coupon = {
  id: 'c-1',
  name: 'Autumn 85',
  discount: 0.85,
  limit: 10,
  used: 1,
  validFrom: '2026-11-01',
  validTo: '2026-12-31',
  goodsIds: [],
  goodsNames: [],
  enabled: true,
  state: 'available',
  createdAt: '2026-11-01T00:00:00.000Z',
};

const use = (extra: Record<string, unknown>) => ({
  id: 'u-1',
  couponId: 'c-1',
  orderId: 'o-1',
  orderNo: 'S202611280001',
  advertiserName: 'Blue Tea',
  saved: 1530,
  usedAt: '2026-11-28T01:00:00.000Z',
  releasedAt: null,
  ...extra,
});

describe('CouponUsesDrawer', () => {
  it('lists the uses of a coupon with the order number, the amount saved and the ones given back', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      salesCouponList: () => ({ code: 0, payload: { total: 1, data: [coupon] } }),
      salesCouponUses: () => ({
        code: 0,
        payload: {
          total: 2,
          data: [
            use({}),
            use({
              id: 'u-2',
              orderId: 'o-2',
              orderNo: 'S202611280002',
              advertiserName: 'Red Kettle',
              releasedAt: '2026-11-28T03:00:00.000Z',
            }),
          ],
        },
      }),
    });
    // Anyone who sees the coupons (no salesManage) opens the uses.
    const router = renderAt('/operate/coupon', <CouponPage />, [Perm.operateCoupon]);
    fireEvent.click(await screen.findByTestId('sales-coupon-uses-c-1'));
    const kept = await screen.findByTestId('sales-coupon-use-u-1');
    expect(kept.textContent).toContain('S202611280001');
    expect(kept.textContent).toContain('Blue Tea');
    expect(kept.textContent).toContain('15.30');
    expect(kept.textContent).toContain('Counted');
    const released = screen.getByTestId('sales-coupon-use-u-2');
    expect(within(released).getByTestId('sales-coupon-use-released').textContent).toBe('Given back');
    expect(within(kept).queryByTestId('sales-coupon-use-released')).toBeNull();
    expect(calls.find((c) => c.name === 'salesCouponUses')?.data).toEqual({ couponId: 'c-1', page: 1, size: 20 });

    fireEvent.click(within(kept).getByText('S202611280001'));
    await screen.findByTestId('order-detail-page');
    expect(router.state.location.search).toBe('?id=o-1');
  });

  it('says so when the coupon has no use yet', async () => {
    await i18n.changeLanguage('en-US');
    fakeServer({
      ...shellAnswers,
      salesCouponList: () => ({ code: 0, payload: { total: 1, data: [{ ...coupon, used: 0 }] } }),
      salesCouponUses: () => ({ code: 0, payload: { total: 0, data: [] } }),
    });
    renderAt('/operate/coupon', <CouponPage />, [Perm.operateCoupon]);
    fireEvent.click(await screen.findByTestId('sales-coupon-uses-c-1'));
    const drawer = await screen.findByTestId('sales-coupon-uses');
    expect(await within(drawer).findByText('This coupon has not been used yet')).toBeTruthy();
  });
});

describe('SalesSettingsDialog', () => {
  const answers = {
    ...shellAnswers,
    salesAdvertiserOptions: () => ({ code: 0, payload: { data: [] } }),
    salesOrderList: () => ({ code: 0, payload: { total: 0, data: [], counts: {} } }),
    salesSettings: () => ({
      code: 0,
      payload: { holdMinutes: 1440, impressionsPerPlayPct: 100, defaultRemedy: 'credit', esignConfigured: false },
    }),
    salesSettingsSave: (data: unknown) => ({
      code: 0,
      payload: { ...(data as object), esignConfigured: false },
    }),
  };

  it('opens from the order list for a manager with the saved values, and saves the changed ones', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer(answers);
    renderAt('/operate/order', <OrderListPage />, [Perm.operateOrder, Perm.salesManage]);
    fireEvent.click(await screen.findByTestId('sales-settings-open'));
    const form = await screen.findByTestId('sales-settings-form');
    const hold = within(form).getByTestId('sales-settings-hold') as HTMLInputElement;
    await waitFor(() => expect(hold.value).toBe('1440'));
    const impressions = within(form).getByTestId('sales-settings-impressions') as HTMLInputElement;
    expect(impressions.value).toBe('1.00');
    expect(within(form).getByTestId('sales-settings-hold-text').textContent).toBe('That is 24 h 0 min.');
    expect((within(form).getByRole('radio', { name: 'Credit' }) as HTMLInputElement).checked).toBe(true);
    expect(within(form).getByTestId('sales-settings-esign').textContent).toContain('ESIGN_URL');
    expect(within(form).getByTestId('sales-settings-esign').textContent).toContain('No e-signature provider');

    fireEvent.change(hold, { target: { value: '90' } });
    await waitFor(() =>
      expect(within(form).getByTestId('sales-settings-hold-text').textContent).toBe('That is 1 h 30 min.'),
    );
    fireEvent.change(impressions, { target: { value: '1.25' } });
    fireEvent.click(within(form).getByRole('radio', { name: 'Extra plays' }));
    fireEvent.click(screen.getByTestId('sales-settings-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'salesSettingsSave')).toBe(true));
    expect(calls.find((c) => c.name === 'salesSettingsSave')?.data).toEqual({
      holdMinutes: 90,
      impressionsPerPlayPct: 125,
      defaultRemedy: 'extraPlays',
    });
  });

  it('is not offered to someone who may only place orders', async () => {
    await i18n.changeLanguage('en-US');
    fakeServer(answers);
    renderAt('/operate/order', <OrderListPage />, [Perm.operateOrder]);
    await screen.findByTestId('sales-order-new');
    expect(screen.queryByTestId('sales-settings-open')).toBeNull();
  });
});
