import { type DeviceDetail, Perm } from '@marquee/protocol';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { deviceDetail } from './deviceFixture';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const expired = deviceDetail({ name: 'Lapsed lobby', expireAt: '2026-10-31T00:00:00.000Z', licence: 'expired' });

function serve(detail: DeviceDetail) {
  return fakeServer({
    ...shellAnswers,
    deviceDetail: () => ({ code: 0, payload: detail }),
    deviceList: () => ({ code: 0, payload: { total: 0, data: [] } }),
    deviceStatusHistory: () => ({ code: 0, payload: { total: 0, data: [] } }),
    deviceCommands: () => ({ code: 0, payload: { total: 0, data: [] } }),
    strategyOfDevice: () => ({ code: 0, payload: { data: [] } }),
    screenshotHistory: () => ({ code: 0, payload: { total: 0, data: [] } }),
  });
}

describe('an expired device’s details (issue 27)', () => {
  afterEach(cleanup);

  it('say why it shows no new content, with the way to the market for who may buy', async () => {
    serve(expired);
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.deviceContext, Perm.applicationMarket] }));
    const first = render(renderApp('/device/context?id=d1').tree);
    const alert = await screen.findByTestId('device-context-expired', {}, { timeout: 25_000 });
    expect(alert.textContent).toContain('no new content');
    expect(screen.getByTestId('device-context-renew').getAttribute('href')).toBe('/shop/detail');
    expect(screen.getByTestId('device-licence-expired').textContent).toBe('Expired');
    first.unmount();

    // Without the market: the reason, no link.
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.deviceContext] }));
    render(renderApp('/device/context?id=d1').tree);
    expect(await screen.findByTestId('device-context-expired', {}, { timeout: 25_000 })).toBeTruthy();
    expect(screen.queryByTestId('device-context-renew')).toBeNull();
  });

  it('shows no such notice for a device on trial', async () => {
    serve({ ...expired, licence: 'trial', expireAt: '2099-01-01T00:00:00.000Z' });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.deviceContext] }));
    render(renderApp('/device/context?id=d1').tree);
    expect(await screen.findByTestId('device-licence-trial', {}, { timeout: 25_000 })).toBeTruthy();
    expect(screen.queryByTestId('device-context-expired')).toBeNull();
  });
});
