import { type DictionaryItem, Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { deviceDetail } from './deviceFixture';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const device = deviceDetail({
  // A scene the operator disabled since: the device keeps it, the form still names it.
  scene: 'dock',
});

const dictionaries: Record<string, DictionaryItem[]> = {
  scene: [
    { code: 'mall', label: 'Mall (dict)', enabled: true },
    { code: 'elevator', label: 'Elevator (dict)', enabled: true },
    { code: 'dock', label: 'Loading dock (dict)', enabled: false },
    { code: 'garage', label: 'Garage (dict)', enabled: false },
  ],
  screenSize: [
    { code: '55', label: '55 in (dict)', enabled: true },
    { code: '65', label: '65 in (dict)', enabled: true },
  ],
  deviceType: [{ code: 'lcd', label: 'LCD screen', enabled: true }],
};

describe('device scene and screen size pickers (issue 31)', () => {
  it('offers the enabled scenes and the device’s own, filters by scene, suggests sizes and sends both', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      customFieldList: () => ({ code: 0, payload: { data: [] } }),
      dictionaryList: (data) => ({ code: 0, payload: dictionaries[(data as { kind: string }).kind] ?? [] }),
      deviceList: () => ({ code: 0, payload: { total: 1, data: [device] } }),
      deptTree: () => ({ code: 0, payload: [] }),
      deviceGroupOptions: () => ({ code: 0, payload: [] }),
      deviceTagOptions: () => ({ code: 0, payload: [] }),
      storeList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deviceUpdate: () => ({ code: 0, payload: null }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.device] }));
    render(renderApp('/device?scene=dock').tree);
    await screen.findByTestId('device-row-Lobby', {}, { timeout: 25_000 });
    // The URL's scene goes to the list's filter (a disabled scene too: devices hold it).
    expect(calls.filter((c) => c.name === 'deviceList').at(-1)?.data).toMatchObject({ scene: 'dock' });
    expect(screen.getByTestId('device-filter-scene')).toBeTruthy();

    fireEvent.click(screen.getByTestId('device-edit-Lobby'));
    const dialog = await screen.findByTestId('device-edit-dialog');
    const scene = within(dialog).getByTestId('device-edit-scene');
    // The device's own scene, disabled since, is named by its label.
    await waitFor(() => expect(scene.textContent).toContain('Loading dock (dict)'));
    fireEvent.mouseDown(within(scene).getByRole('combobox'));
    await screen.findAllByText('Elevator (dict)', { selector: '.ant-select-item-option-content' });
    // Another disabled scene is not offered.
    expect(screen.queryAllByText('Garage (dict)', { selector: '.ant-select-item-option-content' })).toHaveLength(0);
    fireEvent.click(screen.getAllByText('Elevator (dict)', { selector: '.ant-select-item-option-content' })[0]);

    // The screen size is a free number, the dictionary's sizes suggested.
    const size = within(dialog).getByTestId('device-edit-size') as HTMLInputElement;
    fireEvent.change(size, { target: { value: '6' } });
    await screen.findAllByText('65 in (dict)');
    fireEvent.change(size, { target: { value: '57.5' } });
    fireEvent.click(screen.getByTestId('device-edit-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'deviceUpdate')).toBe(true));
    expect(calls.find((c) => c.name === 'deviceUpdate')?.data).toMatchObject({ scene: 'elevator', screenSize: 57.5 });
  });
});
