import { Perm, type Slot } from '@marquee/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import GoodsPage from '../src/features/sales/GoodsPage';
import SlotPage from '../src/features/sales/SlotPage';
import { i18n } from '../src/i18n';
import { fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

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
  rtbFallbackAdId: null,
  rtbFallbackAdName: null,
  venueType: 'retail.malls',
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

function renderAt(path: string, element: ReactNode, permissions: string[]) {
  return renderPages(path, { [path]: element }, permissions);
}

describe('slot and goods dialogs', () => {
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
    renderAt('/operate/slot', <SlotPage />, [Perm.operateSlot, Perm.salesManage]);
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

  it('offers some of the slot screens on a goods line (long-offline ones not offered)', async () => {
    await i18n.changeLanguage('en-US');
    const calls = fakeServer({
      ...shellAnswers,
      salesGoodsList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      salesGoodsSave: () => ({
        code: 0,
        payload: {
          id: 'g-9',
          number: '200000009',
          name: 'North only',
          description: '',
          kind: 'single',
          state: 'offShelf',
          startDate: '2026-12-01',
          endDate: '2026-12-30',
          hours: [],
          lines: [],
          orders: 0,
          createdAt: '2026-11-28T00:00:00.000Z',
          updatedAt: '2026-11-28T00:00:00.000Z',
        },
      }),
      salesSlotOptions: () => ({
        code: 0,
        payload: {
          data: [{ id: 's-1', name: 'Lobby loop', salesMethod: 'cpt', unitPrice: 1250, maxRotations: 4, screens: 3 }],
        },
      }),
      salesSlotDevices: () => ({
        code: 0,
        payload: {
          total: 3,
          data: [
            { id: 'd-1', name: 'North', number: null, address: '', status: 'online', longOffline: false },
            { id: 'd-2', name: 'South', number: null, address: '', status: 'online', longOffline: false },
            { id: 'd-3', name: 'Gone', number: null, address: '', status: 'offline', longOffline: true },
          ],
        },
      }),
    });
    renderAt('/operate/goods', <GoodsPage />, [Perm.operateGoods, Perm.salesManage]);
    fireEvent.click(await screen.findByTestId('sales-goods-add'));
    fireEvent.change(await screen.findByTestId('sales-goods-name'), { target: { value: 'North only' } });
    const slot = screen.getByTestId('sales-goods-slot');
    fireEvent.mouseDown(slot.querySelector('input') ?? slot);
    fireEvent.click(await screen.findByText(/Lobby loop · CPT/));
    const screens = await screen.findByTestId('sales-goods-screens-0');
    await waitFor(() => expect(calls.some((c) => c.name === 'salesSlotDevices')).toBe(true));
    fireEvent.mouseDown(screens.querySelector('input') ?? screens);
    fireEvent.click(await screen.findByText('North'));
    const gone = await screen.findByText('Gone (Offline > 72 h)');
    expect(gone.closest('.ant-select-item-option')?.className).toContain('disabled');
    fireEvent.click(screen.getByTestId('sales-goods-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'salesGoodsSave')).toBe(true));
    expect(calls.find((c) => c.name === 'salesGoodsSave')?.data).toMatchObject({
      name: 'North only',
      kind: 'single',
      lines: [{ slotId: 's-1', deviceIds: ['d-1'] }],
    });
  });
});
