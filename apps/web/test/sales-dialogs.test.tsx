import { Perm, type Slot } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AntdProviders, prepareAntd } from '../src/app/AntdRoot';
import SlotPage from '../src/features/sales/SlotPage';
import { i18n } from '../src/i18n';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, setUpConsoleTests, shellAnswers } from './harness';

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
  useSession.getState().setLogin(loginResponse({ permissionList: permissions }));
  const router = createMemoryRouter(
    [
      {
        element: (
          <AntdProviders>
            <Outlet />
          </AntdProviders>
        ),
        children: [
          { path: initial, element },
          { path: '/operate/orderDetail', element: <div data-testid="order-detail-page" /> },
        ],
      },
    ],
    { initialEntries: [initial] },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return router;
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
    expect(form.closest('.ant-modal')?.textContent).toContain('comes with the RTB module');

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
    expect(calls.find((c) => c.name === 'salesSlotRtb')?.data).toEqual({ id: 's-1', rtbEnabled: true, rtbFloor: 1234 });
  });
});
