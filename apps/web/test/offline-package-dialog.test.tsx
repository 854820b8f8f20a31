import type { DeviceRow } from '@marquee/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OfflinePackageDialog } from '../src/features/devices/OfflinePackageDialog';
import { initI18n } from '../src/i18n';
import { fakeServer, installDomShims } from './harness';

vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  configure({ asyncUtilTimeout: 8000 });
  installDomShims();
  await initI18n('en-US');
});

afterEach(() => cleanup());

const device = { id: 'd1', name: 'Basement screen' } as DeviceRow;

function show() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <App>
        <OfflinePackageDialog device={device} onClose={() => {}} />
      </App>
    </QueryClientProvider>,
  );
}

describe('offline package dialog', () => {
  it("asks once for the screen's package and offers its link, size, contents and how to play it", async () => {
    const calls = fakeServer({
      deviceOfflinePackage: () => ({
        code: 0,
        payload: {
          url: '/offline-packages/e/x/offline/d1.tar?exp=1&sig=s&name=offline.tar',
          fileName: 'offline-Basement-screen-2026-11-29.tar',
          size: 3 * 1024 * 1024,
          files: 4,
          items: 2,
          manifestVersion: 'v1',
          expiresAt: '2026-11-29T02:00:00.000Z',
        },
      }),
    });
    show();
    const link = await screen.findByTestId('device-offline-download');
    expect(link.getAttribute('href')).toBe('/offline-packages/e/x/offline/d1.tar?exp=1&sig=s&name=offline.tar');
    expect(screen.getByTestId('device-offline-size').textContent).toBe('3 MB');
    expect(screen.getByTestId('device-offline-contents').textContent).toBe('Items: 2 · files: 4');
    expect(screen.getByText(/--offline-package offline-Basement-screen-2026-11-29\.tar/)).toBeTruthy();
    expect(calls.filter((c) => c.name === 'deviceOfflinePackage')).toEqual([
      { name: 'deviceOfflinePackage', data: { id: 'd1' } },
    ]);
  });

  it("shows the server's reason when a file is missing, and retries", async () => {
    const calls = fakeServer({
      deviceOfflinePackage: () => ({ code: -10240, message: 'A file of this screen is not in storage' }),
    });
    show();
    expect(await screen.findByText('The offline package could not be made')).toBeTruthy();
    expect(screen.getByText('A file of this screen is not in storage')).toBeTruthy();
    fireEvent.click(screen.getByTestId('device-offline-retry'));
    await screen.findByText('The offline package could not be made');
    expect(calls.filter((c) => c.name === 'deviceOfflinePackage').length).toBeGreaterThanOrEqual(2);
  });
});
