import { Perm, type Slot } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AntdProviders, prepareAntd } from '../src/app/AntdRoot';
import SlotPage from '../src/features/sales/SlotPage';
import { i18n } from '../src/i18n';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, setUpConsoleTests, shellAnswers } from './harness';

/** The slot dialog (issue 28): a slot typed in yuan, placed on a layout region marked as the RTB slot. */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const saved: Slot = {
  id: 's-9',
  number: '100000009',
  name: 'Side banner 10s',
  screenSize: '',
  width: 1920,
  height: 1080,
  durationSec: 15,
  salesMethod: 'cpt',
  cptPrice: 1250,
  cpmPrice: null,
  maxRotations: 4,
  rtbEnabled: false,
  rtbFloor: null,
  targets: { deviceIds: [], groupIds: [], tagIds: [], spliceIds: [] },
  layoutId: 'l-1',
  layoutName: 'Lobby split',
  regionId: 'c-side',
  screens: 0,
  longOfflineScreens: 0,
  inUse: false,
  createdAt: '2026-11-28T00:00:00.000Z',
  updatedAt: '2026-11-28T00:00:00.000Z',
};

describe('slot dialog', () => {
  it('adds a CPT slot priced in yuan on a layout region marked RTB', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      salesSlotList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      salesSlotSave: () => ({ code: 0, payload: saved }),
      salesSlotRegions: () => ({
        code: 0,
        payload: {
          data: [{ layoutId: 'l-1', layoutName: 'Lobby split', regions: [{ id: 'c-side', name: 'Side banner' }] }],
        },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.operateSlot, Perm.salesManage] }));
    const router = createMemoryRouter(
      [
        {
          element: (
            <AntdProviders>
              <Outlet />
            </AntdProviders>
          ),
          children: [{ path: '/operate/slot', element: <SlotPage /> }],
        },
      ],
      { initialEntries: ['/operate/slot'] },
    );
    render(
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>,
    );
    fireEvent.click(await screen.findByTestId('sales-slot-add'));
    fireEvent.change(await screen.findByTestId('sales-slot-name'), { target: { value: 'Side banner 10s' } });
    fireEvent.change(screen.getByTestId('sales-slot-cpt-price'), { target: { value: '12.5' } });
    const region = screen.getByTestId('sales-slot-region');
    fireEvent.mouseDown(region.querySelector('input') ?? region);
    fireEvent.click(await screen.findByText('Lobby split · Side banner'));
    fireEvent.click(screen.getByTestId('sales-slot-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'salesSlotSave')).toBe(true));
    expect(calls.find((c) => c.name === 'salesSlotSave')?.data).toMatchObject({
      name: 'Side banner 10s',
      salesMethod: 'cpt',
      cptPrice: 1250,
      layoutId: 'l-1',
      regionId: 'c-side',
    });
  });
});
