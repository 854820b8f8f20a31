import { type CustomField, Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { deviceDetail } from './deviceFixture';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const device = deviceDetail({
  expireAt: '2026-10-31T00:00:00.000Z',
  licence: 'expired',
  customFields: { floor: 'F2', height: 3 },
});

const fields: CustomField[] = [
  {
    id: 'f1',
    key: 'floor',
    label: 'Floor',
    type: 'option',
    options: ['F1', 'F2'],
    required: false,
    sort: 0,
    showInList: true,
    deviceCount: 1,
  },
  {
    id: 'f2',
    key: 'height',
    label: 'Height',
    type: 'number',
    options: [],
    required: false,
    sort: 1,
    showInList: false,
    deviceCount: 1,
  },
];

describe('device custom fields (issue 31)', () => {
  it('show as list columns (by default when the field says so), filter the list, and go with the edit', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      customFieldList: () => ({ code: 0, payload: { data: fields } }),
      deviceList: () => ({ code: 0, payload: { total: 1, data: [device] } }),
      deptTree: () => ({ code: 0, payload: [] }),
      deviceGroupOptions: () => ({ code: 0, payload: [] }),
      deviceTagOptions: () => ({ code: 0, payload: [] }),
      storeList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deviceUpdate: () => ({ code: 0, payload: null }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.device] }));
    render(renderApp('/device?cfKey=floor&cfValue=F2').tree);
    const row = await screen.findByTestId('device-row-Lobby', {}, { timeout: 25_000 });
    // Floor is shown by default, Height only in the column settings.
    expect(within(row).getByText('F2')).toBeTruthy();
    expect(screen.getAllByText('Floor').length).toBeGreaterThan(0);
    expect(within(row).queryByText('3')).toBeNull();
    // The URL's field and value go to the list's one custom-field filter.
    const listCall = calls.filter((c) => c.name === 'deviceList').at(-1);
    expect(listCall?.data).toMatchObject({ customField: { key: 'floor', value: 'F2' } });

    // The edit dialog has their inputs and sends every field (null for an empty one).
    fireEvent.click(screen.getByTestId('device-edit-Lobby'));
    const dialog = await screen.findByTestId('device-edit-dialog');
    expect(within(dialog).getByTestId('device-cf-height')).toBeTruthy();
    fireEvent.click(screen.getByTestId('device-edit-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'deviceUpdate')).toBe(true));
    const update = calls.find((c) => c.name === 'deviceUpdate');
    expect(update?.data).toMatchObject({ customFields: { floor: 'F2', height: 3 } });
  });

  it('the add dialog asks for them: a required one before adding by code, empty ones left out', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      customFieldList: () => ({
        code: 0,
        payload: {
          data: [
            ...fields,
            {
              id: 'f3',
              key: 'site',
              label: 'Site code',
              type: 'text',
              options: [],
              required: true,
              sort: 2,
              showInList: false,
              deviceCount: 0,
            },
          ],
        },
      }),
      deviceList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deptTree: () => ({ code: 0, payload: [] }),
      deviceGroupOptions: () => ({ code: 0, payload: [] }),
      deviceTagOptions: () => ({ code: 0, payload: [] }),
      storeList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deviceAdd: () => ({ code: 0, payload: { id: 'd9' } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.device] }));
    render(renderApp('/device').tree);
    fireEvent.click(await screen.findByTestId('device-add', {}, { timeout: 25_000 }));
    const dialog = await screen.findByTestId('device-add-dialog');
    fireEvent.change(within(dialog).getByTestId('device-add-code'), { target: { value: 'K7M2QX' } });
    fireEvent.change(within(dialog).getByTestId('device-add-name'), { target: { value: 'Lobby' } });
    const site = await within(dialog).findByTestId('device-cf-site');
    fireEvent.click(screen.getByTestId('device-add-submit'));
    // The required field is demanded at the field; nothing is sent.
    expect(await within(dialog).findByText(/required|必填|必須/i)).toBeTruthy();
    expect(calls.some((c) => c.name === 'deviceAdd')).toBe(false);
    fireEvent.change(site, { target: { value: 'SH-01' } });
    fireEvent.click(screen.getByTestId('device-add-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'deviceAdd')).toBe(true));
    expect(calls.find((c) => c.name === 'deviceAdd')?.data).toEqual({
      code: 'K7M2QX',
      name: 'Lobby',
      customFields: { site: 'SH-01' },
    });
  });
});
