import { Perm } from '@marquee/protocol';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

function serve() {
  return fakeServer({
    ...shellAnswers,
    // More devices match than the server counts (DEVICE_LIST_COUNT_CAP).
    deviceList: () => ({ code: 0, payload: { total: 1000, totalCapped: true, data: [] } }),
    deptTree: () => ({ code: 0, payload: [] }),
    deviceGroupOptions: () => ({ code: 0, payload: [] }),
    deviceTagOptions: () => ({ code: 0, payload: [] }),
    storeList: () => ({ code: 0, payload: { total: 0, data: [] } }),
  });
}

describe('device list page (/device)', () => {
  it('says a capped total is more than the count, and shows the department filter only to who may read the tree', async () => {
    const calls = serve();
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.device] }));
    const first = render(renderApp('/device').tree);
    expect(await screen.findByText('More than 1000 devices', {}, { timeout: 25_000 })).toBeTruthy();
    // Staff without the organisation pages: no department filter, and no refused dept.tree call.
    expect(screen.queryByTestId('device-filter-dept')).toBeNull();
    expect(calls.some((c) => c.name === 'deptTree')).toBe(false);
    first.unmount();

    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.device, Perm.userCompany] }));
    render(renderApp('/device').tree);
    expect(await screen.findByTestId('device-filter-dept')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.name === 'deptTree')).toBe(true));
  });
});
