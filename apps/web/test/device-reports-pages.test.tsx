import { type DeviceReportRow, Perm, type PlaylistEntry, type Push } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { moveCommon } from '../src/features/devicePlan/PlaylistPage';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const row = (name: string, extra: Partial<DeviceReportRow> = {}): DeviceReportRow => ({
  deviceId: `d-${name}`,
  number: `N-${name}`,
  name,
  deptName: 'Head office',
  onlineSec: 18 * 3600 + 300,
  plays: 1234,
  completed: 1200,
  playMs: 754_000,
  ads: 3,
  downloads: 2,
  downloadsFailed: 1,
  downloadSec: 95,
  fullRate: 18.75,
  ...extra,
});

const entry = (adId: string, extra: Partial<PlaylistEntry> = {}): PlaylistEntry => ({
  key: adId,
  adId,
  adNumber: `00000000${adId.slice(-1)}`,
  adName: `Ad ${adId}`,
  type: 'common',
  role: 'loop',
  startAt: '2026-03-01T00:00:00.000Z',
  endAt: '2026-04-01T00:00:00.000Z',
  periods: [],
  strategy: 'perLoop',
  playsMin: 1,
  playsMax: 2,
  download: 'not_downloaded',
  downloadPercent: null,
  downloadError: null,
  downloadedAt: null,
  ...extra,
});

const device = {
  id: 'd1',
  number: 'N-1',
  name: 'Lobby',
  status: 'online',
  deptName: 'Head office',
  playerVersion: '1.0',
  lastSeenAt: null,
};

describe('playlist sort (moveCommon)', () => {
  it('moves a common ad among the common ads only; the others keep their place', () => {
    const list = [
      entry('e', { type: 'emergency', role: 'emergency' }),
      entry('a'),
      entry('i', { type: 'interstitial' }),
      entry('b'),
      entry('c'),
    ];
    expect(moveCommon(list, 1, 1).map((e) => e.adId)).toEqual(['e', 'b', 'i', 'a', 'c']);
    expect(moveCommon(list, 4, -1).map((e) => e.adId)).toEqual(['e', 'a', 'i', 'c', 'b']);
    // The first cannot go up, the last cannot go down, a non-common entry does not move.
    expect(moveCommon(list, 1, -1).map((e) => e.adId)).toEqual(['e', 'a', 'i', 'b', 'c']);
    expect(moveCommon(list, 4, 1).map((e) => e.adId)).toEqual(['e', 'a', 'i', 'b', 'c']);
    expect(moveCommon(list, 0, 1).map((e) => e.adId)).toEqual(['e', 'a', 'i', 'b', 'c']);
  });
});

describe('device report (/report/device)', () => {
  it('lists the devices with their figures, filters by keyword and links to the detail', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      deviceGroupOptions: () => ({ code: 0, payload: [] }),
      reportDeviceList: () => ({
        code: 0,
        payload: {
          from: '2026-03-04',
          to: '2026-03-10',
          timeZone: 'Asia/Shanghai',
          zoneSince: '2026-03-06',
          total: 2,
          data: [row('Lobby'), row('Hall', { plays: 0 })],
        },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.report, Perm.reportDevice] }));
    render(renderApp('/report/device').tree);
    const rows = await screen.findAllByTestId('device-report-row', {}, { timeout: 25_000 });
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('18 h 5 min');
    expect(rows[0].textContent).toContain('1,234');
    expect(rows[0].textContent).toContain('18.75%');
    expect(screen.getByText('2026-03-04 to 2026-03-10 (Asia/Shanghai)')).toBeTruthy();
    // The range begins before the enterprise's change of zone: the page says so.
    expect(screen.getByTestId('report-zone-since').textContent).toContain('2026-03-06');
    const link = within(rows[0]).getByTestId('device-report-detail') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/report/deviceDetail?id=d-Lobby&from=2026-03-04&to=2026-03-10');

    fireEvent.change(screen.getByTestId('device-report-keyword'), { target: { value: 'Lob' } });
    fireEvent.click(screen.getByTestId('device-report-search'));
    await waitFor(() =>
      expect(calls.filter((c) => c.name === 'reportDeviceList').at(-1)?.data).toMatchObject({ keyword: 'Lob' }),
    );
  });

  it('fetches the figures again on Search and Reset, the filters unchanged', async () => {
    let plays = 7001;
    const calls = fakeServer({
      ...shellAnswers,
      deviceGroupOptions: () => ({ code: 0, payload: [] }),
      reportDeviceList: () => ({
        code: 0,
        payload: { from: '2026-03-04', to: '2026-03-10', total: 1, data: [row('Lobby', { plays: plays++ })] },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.report, Perm.reportDevice] }));
    render(renderApp('/report/device').tree);
    const first = async () => (await screen.findAllByTestId('device-report-row', {}, { timeout: 25_000 }))[0];
    await waitFor(async () => expect((await first()).textContent).toContain('7,001'), { timeout: 25_000 });
    const sent = () => calls.filter((c) => c.name === 'reportDeviceList').length;
    const before = sent();
    fireEvent.click(screen.getByTestId('device-report-search'));
    await waitFor(() => expect(sent()).toBe(before + 1));
    await waitFor(async () => expect((await first()).textContent).toContain('7,002'));
    fireEvent.click(screen.getByTestId('device-report-reset'));
    await waitFor(() => expect(sent()).toBe(before + 2));
    await waitFor(async () => expect((await first()).textContent).toContain('7,003'));
  });

  it('shows a device’s days and ads', async () => {
    fakeServer({
      ...shellAnswers,
      reportDeviceDetail: () => ({
        code: 0,
        payload: {
          from: '2026-03-09',
          to: '2026-03-10',
          device: row('Lobby'),
          days: [
            {
              day: '2026-03-09',
              onlineSec: 7200,
              plays: 10,
              playMs: 100_000,
              ads: 2,
              downloads: 1,
              downloadsFailed: 0,
            },
            { day: '2026-03-10', onlineSec: 0, plays: 0, playMs: 0, ads: 0, downloads: 0, downloadsFailed: 1 },
          ],
          ads: [
            {
              adId: 'a1',
              adNumber: '000000001',
              adName: 'Spring sale',
              plays: 10,
              completed: 9,
              playMs: 100_000,
              days: 1,
            },
          ],
        },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.report, Perm.reportDevice] }));
    render(renderApp('/report/deviceDetail?id=d-Lobby').tree);
    const totals = await screen.findByTestId('device-report-totals', {}, { timeout: 25_000 });
    expect(totals.textContent).toContain('18.75%');
    expect((await screen.findByTestId('device-report-days')).textContent).toContain('2 h 0 min');
    expect(screen.getByTestId('device-report-ads').textContent).toContain('Spring sale');
    // The chart loads on its own (a lazy chunk).
    expect(await screen.findByTestId('device-report-chart', {}, { timeout: 25_000 })).toBeTruthy();
  });
});

describe('issued records (/report/issuedRecords)', () => {
  it('lists the pushes with their results and opens one push’s devices', async () => {
    const push: Push = {
      id: 'p1',
      reason: 'adApproved',
      adId: 'a1',
      adNumber: '000000001',
      adName: 'Spring sale',
      accountName: 'Ann',
      createdAt: '2026-03-10T08:00:00.000Z',
      devices: 2,
      acknowledged: 1,
      failed: 1,
      pending: 0,
    };
    const calls = fakeServer({
      ...shellAnswers,
      pushList: () => ({ code: 0, payload: { total: 1, data: [push] } }),
      adRepush: () => ({ code: 0, payload: { pushId: 'p2', devices: 1 } }),
      pushDevices: () => ({
        code: 0,
        payload: {
          total: 2,
          data: [
            {
              deviceId: 'd1',
              number: 'N1',
              name: 'Lobby',
              state: 'acknowledged',
              attempts: 1,
              sentAt: null,
              ackedAt: '2026-03-10T08:00:05.000Z',
              errorCode: null,
              errorMessage: null,
              downloadedAt: '2026-03-10T08:01:05.000Z',
            },
            {
              deviceId: 'd2',
              number: 'N2',
              name: 'Hall',
              state: 'failed',
              attempts: 1,
              sentAt: null,
              ackedAt: null,
              errorCode: 'E_IO',
              errorMessage: 'disk full',
              downloadedAt: null,
            },
          ],
        },
      }),
    });
    useSession
      .getState()
      .setLogin(loginResponse({ permissionList: [Perm.report, Perm.reportIssuedRecords, Perm.advEdit] }));
    render(renderApp('/report/issuedRecords').tree);
    const [issued] = await screen.findAllByTestId('issued-row', {}, { timeout: 25_000 });
    expect(issued.textContent).toContain('Ad approved');
    expect(issued.textContent).toContain('000000001 Spring sale');
    fireEvent.click(within(issued).getByTestId('push-view-devices'));
    const devices = await screen.findAllByTestId('push-device-row');
    expect(devices).toHaveLength(2);
    expect(devices[1].textContent).toContain('E_IO: disk full');
    // The push's download time on the device.
    expect(devices[0].textContent).toMatch(/2026-03-10 \d\d:01:05/);
    expect(calls.find((c) => c.name === 'pushDevices')?.data).toMatchObject({ id: 'p1', page: 1 });

    // The failed devices get the ad again after asking.
    fireEvent.click(within(issued).getByTestId('push-repush'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'adRepush')?.data).toEqual({ id: 'a1' }));
  });
});

describe('device playlist and plan', () => {
  it('shows the playlist, sorts the loop and saves the order', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      deviceList: () => ({ code: 0, payload: { total: 1, data: [device] } }),
      devicePlaylist: () => ({
        code: 0,
        payload: {
          entries: [
            entry('a1', { download: 'downloading', downloadPercent: 42 }),
            entry('a2', { download: 'failed', downloadError: 'HTTP 404' }),
            entry('f', {
              type: 'fallback',
              role: 'fallback',
              download: 'successful',
              downloadedAt: '2026-03-02T08:00:00.000Z',
            }),
            entry('n', { type: 'interstitial' }),
          ],
          order: [],
          canSort: true,
        },
      }),
      devicePlaylistSort: () => ({ code: 0, payload: { pushId: 'p9' } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.device, Perm.devicePlaylist] }));
    render(renderApp('/device/playlist?device=d1').tree);
    const rows = await screen.findAllByTestId('playlist-row', {}, { timeout: 25_000 });
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Ad a1'),
      expect.stringContaining('Ad a2'),
      expect.stringContaining('Fallback'),
      expect.stringContaining('Ad n'),
    ]);
    expect(rows[0].textContent).toContain('1–2 a loop');
    // The download column: the device's own state of each ad's materials.
    expect(rows[0].textContent).toContain('Downloading 42%');
    expect(rows[1].textContent).toContain('Failed (HTTP 404)');
    expect(rows[2].textContent).toContain('Downloaded');
    expect(rows[3].textContent).toContain('Not downloaded');
    fireEvent.click(screen.getByTestId('playlist-sort'));
    fireEvent.click(await screen.findByTestId('playlist-down-0'));
    fireEvent.click(screen.getByTestId('playlist-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'devicePlaylistSort')?.data).toEqual({ deviceId: 'd1', adIds: ['a2', 'a1'] }),
    );
  });

  it('says so when nothing reaches the device', async () => {
    fakeServer({
      ...shellAnswers,
      deviceList: () => ({ code: 0, payload: { total: 1, data: [device] } }),
      devicePlaylist: () => ({ code: 0, payload: { entries: [], order: [], canSort: true } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.device, Perm.devicePlaylist] }));
    render(renderApp('/device/playlist?device=d1').tree);
    const empty = await screen.findByTestId('device-playlist-empty', {}, { timeout: 25_000 });
    await waitFor(() => expect(empty.textContent).toContain('No ads reach this device now'));
  });

  it('draws the plan: a row per ad and layout, bars per day', async () => {
    fakeServer({
      ...shellAnswers,
      deviceList: () => ({ code: 0, payload: { total: 1, data: [device] } }),
      devicePlan: () => ({
        code: 0,
        payload: {
          from: '2026-03-10',
          to: '2026-03-11',
          bars: [
            {
              day: '2026-03-10',
              start: '00:00',
              end: '24:00',
              source: 'layout',
              id: 'l1',
              name: 'Welcome',
              adNumber: null,
              role: null,
            },
            {
              day: '2026-03-10',
              start: '08:00',
              end: '12:00',
              source: 'ad',
              id: 'a1',
              name: 'Spring sale',
              adNumber: '000000001',
              role: 'loop',
            },
            {
              day: '2026-03-11',
              start: '08:00',
              end: '12:00',
              source: 'ad',
              id: 'a1',
              name: 'Spring sale',
              adNumber: '000000001',
              role: 'loop',
            },
          ],
        },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.device, Perm.devicePlan] }));
    render(renderApp('/device/devicePlan?device=d1').tree);
    const rows = await screen.findAllByTestId('device-plan-row', {}, { timeout: 25_000 });
    expect(rows).toHaveLength(2);
    expect(screen.getByLabelText('Spring sale: 2026-03-10 08:00–12:00')).toBeTruthy();
    expect(screen.getByLabelText('Spring sale: 2026-03-11 08:00–12:00')).toBeTruthy();
    expect(screen.getByLabelText('Welcome: 2026-03-10 00:00–24:00')).toBeTruthy();
  });
});
