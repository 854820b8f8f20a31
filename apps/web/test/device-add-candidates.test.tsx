import { ErrorCode, Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

describe('add device by an ambiguous number', () => {
  it('lists the pairings that report the number, and a pick adds by that code', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      deviceList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deptTree: () => ({ code: 0, payload: [] }),
      deviceGroupOptions: () => ({ code: 0, payload: [] }),
      deviceTagOptions: () => ({ code: 0, payload: [] }),
      storeList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deviceAdd: (data) =>
        (data as { number?: string }).number
          ? { code: ErrorCode.PAIRING_NUMBER_AMBIGUOUS, message: 'ambiguous' }
          : { code: 0, payload: { id: 'd1' } },
      devicePairingCandidates: () => ({
        code: 0,
        payload: {
          data: [
            {
              code: 'K7M2QX',
              createdAt: '2026-11-27T10:00:00.000Z',
              expiresAt: '2026-11-27T10:15:00.000Z',
              ip: '203.0.113.9',
              playerVersion: 'web-0.1.0',
              model: 'browser',
            },
            {
              code: 'H4NP8Z',
              createdAt: '2026-11-27T09:58:00.000Z',
              expiresAt: '2026-11-27T10:13:00.000Z',
              ip: '10.0.0.23',
              playerVersion: '3.2.1',
              model: 'RK3568',
            },
          ],
        },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.device] }));
    render(renderApp('/device').tree);
    fireEvent.click(await screen.findByTestId('device-add', {}, { timeout: 25_000 }));
    const dialog = await screen.findByTestId('device-add-dialog');
    fireEvent.click(within(dialog).getByText('Device number'));
    fireEvent.change(await screen.findByTestId('device-add-number'), { target: { value: 'SN-4411' } });
    fireEvent.change(screen.getByTestId('device-add-name'), { target: { value: 'Lobby' } });
    fireEvent.click(screen.getByTestId('device-add-submit'));

    const list = await screen.findByTestId('device-add-candidates', {}, { timeout: 10_000 });
    expect(within(list).getByText('K7M2QX')).toBeTruthy();
    expect(within(list).getByText('10.0.0.23')).toBeTruthy();
    expect(within(list).getByText('RK3568 3.2.1')).toBeTruthy();
    // The message is the form's field error, which antd renders a beat after the list.
    expect(await screen.findByText(/cannot be added by number/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(calls.find((c) => c.name === 'devicePairingCandidates')?.data).toEqual({ number: 'SN-4411' });

    // The operator picks the code the screen shows: the dialog adds by it.
    fireEvent.click(within(list).getByTestId('device-add-pick-H4NP8Z'));
    expect(((await screen.findByTestId('device-add-code')) as HTMLInputElement).value).toBe('H4NP8Z');
    fireEvent.click(screen.getByTestId('device-add-submit'));
    await waitFor(() =>
      expect(calls.filter((c) => c.name === 'deviceAdd').at(-1)?.data).toMatchObject({ code: 'H4NP8Z', name: 'Lobby' }),
    );
  });
});
