import type { AdReportDetail, AdReportDevices, AdReportList, DeviceScheduleRow } from '@marquee/protocol';
import { Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const days = ['2026-06-08', '2026-06-09', '2026-06-10'];

const list: AdReportList = {
  from: days[0],
  to: days[2],
  timeZone: 'Asia/Shanghai',
  zoneSince: null,
  total: 1,
  data: [
    {
      adId: 'a-1',
      number: '100000001',
      name: 'Spring sale',
      type: 'common',
      status: 'playing',
      planName: 'Default plan',
      plays: 12345,
      completed: 12000,
      durationMs: 3_723_000,
      devices: 2,
      expected: 24000,
      deliveryPct: 51.44,
      underDelivered: true,
      fullRate: 43.75,
    },
  ],
  trend: days.map((day, i) => ({ day, plays: i * 10, durationMs: 0, expected: 8 })),
};

const detail: AdReportDetail = {
  ad: {
    id: 'a-1',
    number: '100000001',
    name: 'Spring sale',
    type: 'common',
    status: 'playing',
    planName: 'Default plan',
    startAt: '2026-06-08T00:00:00.000Z',
    endAt: '2026-06-20T00:00:00.000Z',
    strategy: 'perDay',
    playsMin: 4,
    playsMax: 10,
  },
  from: days[0],
  to: days[2],
  timeZone: 'Asia/Shanghai',
  zoneSince: null,
  totals: {
    plays: 10,
    completed: 10,
    durationMs: 80_000,
    devices: 2,
    expected: 24,
    deliveryPct: 41.67,
    underDelivered: true,
    fullRate: 43.75,
  },
  days: days.map((day) => ({ day, plays: 3, durationMs: 30_000, devices: 1, expected: 8 })),
  materials: [{ materialId: 'm-1', name: 'Intro.png', plays: 10, durationMs: 80_000 }],
  hours: Array.from({ length: 24 }, (_, hour) => ({ hour, plays: hour === 9 ? 4 : 0 })),
  hoursFrom: days[0],
};

const deviceRows: AdReportDevices = {
  from: days[0],
  to: days[2],
  timeZone: 'Asia/Shanghai',
  zoneSince: null,
  total: 2,
  data: [
    {
      deviceId: 'd-1',
      number: 'R-001',
      name: 'Lobby',
      plays: 12,
      durationMs: 60_000,
      expected: 12,
      deliveryPct: 100,
      underDelivered: false,
    },
    {
      deviceId: 'd-2',
      number: 'R-002',
      name: 'Lift',
      plays: 4,
      durationMs: 20_000,
      expected: 12,
      deliveryPct: 33.33,
      underDelivered: true,
    },
  ],
};

const scheduleRow = (number: string, day: string, extra: Partial<DeviceScheduleRow> = {}): DeviceScheduleRow => ({
  deviceId: `d-${number}`,
  number,
  name: `Screen ${number}`,
  deptName: 'Head office',
  day,
  reported: 4,
  expected: 4,
  deliveryPct: 100,
  underDelivered: false,
  ads: [{ adId: 'a-1', number: '100000001', name: 'Spring sale', expected: 4, reported: 4 }],
  ...extra,
});

describe('ad report (/report/ad)', () => {
  it('shows each ad with its plays, delivery and full rate, and opens its detail', async () => {
    const calls = fakeServer({ ...shellAnswers, reportAdList: () => ({ code: 0, payload: list }) });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.report, Perm.reportAd] }));
    const { router, tree } = renderApp('/report/ad');
    render(tree);
    const row = await screen.findByTestId('ad-report-row-Spring sale', {}, { timeout: 25_000 });
    expect(row.textContent).toContain('12,345');
    expect(row.textContent).toContain('1:02:03');
    expect(row.textContent).toContain('24,000');
    expect(row.textContent).toContain('51.44 %');
    expect(row.textContent).toContain('43.75 %');
    expect(within(row).getByTestId('under-delivered').textContent).toBe('Under-delivered');
    expect(screen.getByText(/2026-06-08 to 2026-06-10 \(Asia\/Shanghai\)/)).toBeTruthy();
    expect(calls.find((c) => c.name === 'reportAdList')?.data).toMatchObject({ page: 1 });
    fireEvent.click(screen.getByTestId('ad-report-open-Spring sale'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report/adDetail'));
    expect(router.state.location.search).toContain('id=a-1');
  });

  it('fetches the figures again on Search and Reset, the filters unchanged', async () => {
    let plays = 7001;
    const calls = fakeServer({
      ...shellAnswers,
      reportAdList: () => ({ code: 0, payload: { ...list, data: [{ ...list.data[0], plays: plays++ }] } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.report, Perm.reportAd] }));
    render(renderApp('/report/ad').tree);
    const row = () => screen.getByTestId('ad-report-row-Spring sale');
    await waitFor(() => expect(row().textContent).toContain('7,001'), { timeout: 25_000 });
    const sent = () => calls.filter((c) => c.name === 'reportAdList').length;
    const before = sent();
    fireEvent.click(screen.getByTestId('ad-report-search'));
    await waitFor(() => expect(sent()).toBe(before + 1));
    await waitFor(() => expect(row().textContent).toContain('7,002'));
    fireEvent.click(screen.getByTestId('ad-report-reset'));
    await waitFor(() => expect(sent()).toBe(before + 2));
    await waitFor(() => expect(row().textContent).toContain('7,003'));
  });

  it('says so when the report cannot be loaded', async () => {
    fakeServer({ ...shellAnswers, reportAdList: () => ({ code: -10001, message: 'down' }) });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.report, Perm.reportAd] }));
    render(renderApp('/report/ad').tree);
    expect((await screen.findAllByText('The report could not be loaded.', {}, { timeout: 25_000 })).length).toBe(2);
  });
});

describe('ad report detail (/advert/reportDetail and /adReport)', () => {
  it('shows the KPIs, the devices with the under-delivered one tagged, and the materials', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      reportAdDetail: () => ({ code: 0, payload: detail }),
      reportAdDevices: () => ({ code: 0, payload: deviceRows }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advReport] }));
    render(renderApp('/advert/reportDetail?id=a-1').tree);
    expect((await screen.findByTestId('kpi-plays', {}, { timeout: 25_000 })).textContent).toContain('10');
    expect(screen.getByTestId('kpi-expected').textContent).toContain('24');
    expect(screen.getByTestId('kpi-delivery').textContent).toContain('41.67 %');
    expect(screen.getByTestId('kpi-full-rate').textContent).toContain('43.75 %');
    expect(within(await screen.findByTestId('ad-report-device-R-001')).queryByTestId('under-delivered')).toBeNull();
    expect(within(screen.getByTestId('ad-report-device-R-002')).getByTestId('under-delivered')).toBeTruthy();
    expect(screen.getByText('Intro.png')).toBeTruthy();
    expect(screen.getByTestId('ad-report-detail-export')).toBeTruthy();
    // The figures and the devices' page are two calls: only the devices' one is paged.
    expect(calls.find((c) => c.name === 'reportAdDetail')?.data).toEqual({ id: 'a-1' });
    expect(calls.find((c) => c.name === 'reportAdDevices')?.data).toMatchObject({ id: 'a-1', page: 1, size: 20 });
    fireEvent.click(screen.getByTestId('ad-report-under-only'));
    await waitFor(() =>
      expect(calls.filter((c) => c.name === 'reportAdDevices').at(-1)?.data).toMatchObject({ underOnly: true }),
    );
    expect(calls.filter((c) => c.name === 'reportAdDetail')).toHaveLength(1);
  });

  it('is read-only at /adReport: printing, no export', async () => {
    fakeServer({
      ...shellAnswers,
      reportAdDetail: () => ({ code: 0, payload: detail }),
      reportAdDevices: () => ({ code: 0, payload: deviceRows }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advReport] }));
    render(renderApp('/adReport?id=a-1').tree);
    expect(await screen.findByTestId('ad-report-print', {}, { timeout: 25_000 })).toBeTruthy();
    expect(screen.queryByTestId('ad-report-detail-export')).toBeNull();
  });

  it("shows the monitors' photographs beside the proof of play, or says there are none", async () => {
    const calls = fakeServer({
      ...shellAnswers,
      reportAdDetail: () => ({ code: 0, payload: detail }),
      reportAdDevices: () => ({ code: 0, payload: deviceRows }),
      monitoringAdEvidence: () => ({
        code: 0,
        payload: [
          {
            taskId: 't-1',
            deviceName: 'Lobby left',
            monitorName: 'Eagle Eye',
            state: 'completed',
            photos: [
              {
                id: 'ph-1',
                url: 'https://files.example/ph-1.jpg',
                takenAt: '2026-12-02T08:00:00.000Z',
                latitude: 31.2304,
                longitude: 121.4737,
                source: 'exif',
                distanceM: 1200,
                far: true,
                scheduled: false,
                createdAt: '2026-12-02T08:01:00.000Z',
              },
            ],
          },
        ],
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advReport] }));
    render(renderApp('/adReport?id=a-1').tree);
    const task = await screen.findByTestId('ad-evidence-task-t-1', {}, { timeout: 25_000 });
    expect(task.textContent).toContain('Lobby left');
    expect(task.textContent).toContain('Eagle Eye');
    expect(task.textContent).toContain('Completed');
    const photo = within(task).getByTestId('ad-evidence-photo-ph-1');
    expect(photo.textContent).toContain('1200 m from the screen');
    expect(photo.textContent).toContain('No ad scheduled then');
    expect(photo.textContent).toContain('31.23040, 121.47370');
    expect(photo.querySelector('img')?.getAttribute('src')).toBe('https://files.example/ph-1.jpg');
    expect(calls.find((c) => c.name === 'monitoringAdEvidence')?.data).toEqual({ adId: 'a-1' });
  });

  it('says no monitor watched the ad when there is no evidence', async () => {
    fakeServer({
      ...shellAnswers,
      reportAdDetail: () => ({ code: 0, payload: detail }),
      reportAdDevices: () => ({ code: 0, payload: deviceRows }),
      monitoringAdEvidence: () => ({ code: 0, payload: [] }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advReport] }));
    render(renderApp('/adReport?id=a-1').tree);
    expect(await screen.findByTestId('ad-evidence-empty', {}, { timeout: 25_000 })).toBeTruthy();
  });
});

describe('device schedule report (/report/deviceSchedule)', () => {
  it('lists device-days with scheduled ads and marks the under-delivered ones', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      reportDeviceSchedule: () => ({
        code: 0,
        payload: {
          from: days[0],
          to: days[1],
          total: 2,
          data: [
            scheduleRow('R-001', days[0], { reported: 1, deliveryPct: 25, underDelivered: true }),
            scheduleRow('R-001', days[1], { ads: [], expected: 0, reported: 0, deliveryPct: null }),
          ],
        },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.report, Perm.reportDeviceSchedule] }));
    render(renderApp('/report/deviceSchedule').tree);
    const under = await screen.findByTestId(`device-schedule-row-R-001-${days[0]}`, {}, { timeout: 25_000 });
    expect(under.textContent).toContain('Spring sale (4/4)');
    expect(under.textContent).toContain('25.00 %');
    expect(within(under).getByTestId('under-delivered')).toBeTruthy();
    const none = screen.getByTestId(`device-schedule-row-R-001-${days[1]}`);
    expect(none.textContent).toContain('Nothing scheduled');
    expect(none.textContent).toContain('—');
    fireEvent.click(screen.getByTestId('device-schedule-under-first'));
    fireEvent.click(screen.getByTestId('device-schedule-search'));
    await waitFor(() =>
      expect(calls.filter((c) => c.name === 'reportDeviceSchedule').at(-1)?.data).toMatchObject({ underFirst: true }),
    );
  });
});
