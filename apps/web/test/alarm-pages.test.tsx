import { type AlarmEvent, type AlarmRegion, Perm } from '@marquee/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import AlarmPage from '../src/features/alarms/AlarmPage';
import AlarmSettingPage from '../src/features/alarms/AlarmSettingPage';
import { type Answer, fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/** The one-key alarm console pages (issue 30) against answers of the alarm contract. */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const ok = (payload: unknown): Answer => ({ code: 0, payload });

const event: AlarmEvent = {
  id: 'e-1',
  deviceId: 'd-1',
  deviceName: 'Lobby left',
  deviceNumber: '1001',
  address: '1 Bund Road',
  latitude: null,
  longitude: null,
  regionNames: ['Shanghai lobby'],
  state: 'raised',
  raisedAt: '2026-11-28T01:00:00.000Z',
  receivedAt: '2026-11-28T01:00:01.000Z',
  acknowledgedAt: null,
  handledAt: null,
  closedAt: null,
  note: '',
  screenshotUrl: '/files/shot.png',
  notified: 2,
  delivered: 2,
};

const region: AlarmRegion = {
  id: 'r-1',
  name: 'Shanghai lobby',
  regionCodes: [],
  deviceIds: ['d-1'],
  devices: [{ id: 'd-1', name: 'Lobby left' }],
  contacts: [{ name: 'Li Lei', phone: '13800000000', email: '' }],
  updatedAt: '2026-11-28T01:00:00.000Z',
};

const step = (kind: string, extra: Record<string, unknown> = {}) => ({
  kind,
  at: '2026-11-28T01:00:02.000Z',
  actorName: null,
  note: '',
  contactName: null,
  target: null,
  channel: null,
  outcome: null,
  error: null,
  ...extra,
});

const answers: Record<string, (data: unknown) => Answer> = {
  ...shellAnswers,
  alarmEventList: () => ok({ total: 1, data: [event] }),
  alarmEventCount: () => ok({ open: 1, latestId: 'e-1', latestAt: event.receivedAt }),
  alarmReport: () =>
    ok({
      totals: { events: 1, acknowledged: 0, closed: 0, meanAckSec: null, meanCloseSec: null },
      days: [],
      regions: [],
      devices: [],
    }),
  alarmEventInfo: () =>
    ok({
      event,
      steps: [
        step('raised'),
        step('notified', { contactName: 'Li Lei', target: '13800000000', channel: 'sms', outcome: 'delivered' }),
      ],
    }),
  alarmEventAct: () => ok({ state: 'closed' }),
  alarmRegionList: () => ok({ total: 1, data: [region] }),
  alarmRegionSave: () => ok({ id: 'r-2' }),
  deviceList: () => ok({ total: 1, data: [{ id: 'd-1', name: 'Lobby left', number: '1001' }] }),
};

describe('/alarm', () => {
  it('lists the events, opens the timeline with the screenshot and closes with a note', async () => {
    const calls = fakeServer(answers);
    renderPages('/alarm', { '/alarm': <AlarmPage /> }, [Perm.alarm, Perm.device]);
    const row = await screen.findByTestId('alarm-row-e-1');
    expect(row.textContent).toContain('Lobby left');
    // The regions filter offers the enterprise's alarm regions.
    expect(screen.getByTestId('alarm-filter-region')).toBeTruthy();
    expect(calls.some((c) => c.name === 'alarmRegionList')).toBe(true);
    expect(row.textContent).toContain('Raised');
    fireEvent.click(screen.getByTestId('alarm-open-e-1'));
    expect((await screen.findByTestId('alarm-timeline')).textContent).toContain('Li Lei');
    expect(screen.getByTestId('alarm-timeline').textContent).toContain('delivered');
    expect(screen.getByTestId('alarm-screenshot')).toBeTruthy();
    fireEvent.click(screen.getByTestId('alarm-close'));
    const ok = await screen.findByTestId('alarm-close-ok');
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('alarm-close-note'), { target: { value: 'Checked, false alarm' } });
    fireEvent.click(screen.getByTestId('alarm-close-ok'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'alarmEventAct')?.data).toEqual({
        id: 'e-1',
        action: 'close',
        note: 'Checked, false alarm',
      }),
    );
  });
});

describe('/alarm/setting', () => {
  it('lists the regions and requires a contact name and phone', async () => {
    const calls = fakeServer(answers);
    renderPages('/alarm/setting', { '/alarm/setting': <AlarmSettingPage /> }, [Perm.alarm, Perm.device]);
    const row = await screen.findByTestId('alarm-region-row-r-1');
    expect(row.textContent).toContain('Li Lei 13800000000');
    fireEvent.click(screen.getByTestId('alarm-region-add'));
    fireEvent.change(await screen.findByTestId('alarm-region-name'), { target: { value: 'Hall' } });
    fireEvent.click(screen.getByTestId('alarm-region-ok'));
    expect(await screen.findByText("Please enter the contact's name")).toBeTruthy();
    expect(await screen.findByText("Please enter the contact's phone")).toBeTruthy();
    expect(calls.some((c) => c.name === 'alarmRegionSave')).toBe(false);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Han Mei' } });
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '13900000000' } });
    fireEvent.click(screen.getByTestId('alarm-region-ok'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'alarmRegionSave')?.data).toEqual({
        name: 'Hall',
        deviceIds: [],
        regionCodes: [],
        contacts: [{ name: 'Han Mei', phone: '13900000000', email: '' }],
      }),
    );
  });
});
