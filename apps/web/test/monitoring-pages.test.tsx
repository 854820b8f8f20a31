import { type MonitorPhoto, type MonitorPlan, type MonitorTask, Perm } from '@marquee/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareAntd } from '../src/app/AntdRoot';
import MonitorPlanPage from '../src/features/monitoring/MonitorPlanPage';
import MonitorTaskPage from '../src/features/monitoring/MonitorTaskPage';
import TaskDetailPage from '../src/features/monitoring/TaskDetailPage';
import { type Answer, fakeServer, renderPages, setUpConsoleTests, shellAnswers } from './harness';

/**
 * Third-party monitoring's console pages (issue 30): the plans of /operate/adMonitor with the
 * new-plan dialog, the tasks of /operate/monitorTask by state, and /operate/taskDetail's photos
 * and actions; against answers of the monitoring contract.
 */
vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });
beforeAll(async () => {
  await prepareAntd();
});

const ok = (payload: unknown): Answer => ({ code: 0, payload });

const plan: MonitorPlan = {
  id: 'p-1',
  name: 'Spring check',
  monitorAccountId: 'mon-1',
  monitorName: 'Eagle Eye',
  adIds: ['ad-1'],
  adNames: ['Tea ad'],
  deviceIds: ['d-1', 'd-2'],
  startDate: '2026-12-01',
  endDate: '2026-12-07',
  photosRequired: 2,
  tasks: { pending: 1, completed: 1 },
  createdAt: '2026-11-28T01:00:00.000Z',
};

const task = (extra: Partial<MonitorTask> = {}): MonitorTask => ({
  id: 't-1',
  planId: 'p-1',
  planName: 'Spring check',
  entName: 'Acme Media',
  deviceId: 'd-1',
  deviceName: 'Lobby left',
  deviceAddress: '1 Bund Road',
  monitorName: 'Eagle Eye',
  state: 'pending',
  closed: false,
  startDate: '2026-12-01',
  endDate: '2026-12-07',
  dueAt: '2026-12-08T00:00:00.000Z',
  photosRequired: 2,
  photos: 2,
  flagged: 1,
  completedAt: null,
  ...extra,
});

const photo = (extra: Partial<MonitorPhoto> = {}): MonitorPhoto => ({
  id: 'ph-1',
  url: null,
  takenAt: '2026-12-02T08:00:00.000Z',
  latitude: 31.2,
  longitude: 121.5,
  source: 'exif',
  distanceM: 40,
  far: false,
  scheduled: true,
  createdAt: '2026-12-02T08:01:00.000Z',
  ...extra,
});

const answers: Record<string, (data: unknown) => Answer> = {
  ...shellAnswers,
  monitoringPlanList: () => ok({ total: 1, data: [plan] }),
  monitoringMonitors: () => ok([{ id: 'g-1', accountId: 'mon-1', name: 'Eagle Eye', entName: 'Eagle Watch' }]),
  adList: () => ok({ total: 1, data: [{ id: 'ad-1', name: 'Tea ad' }] }),
  deviceList: () => ok({ total: 1, data: [{ id: 'd-1', name: 'Lobby left', number: '1001' }] }),
  monitoringPlanCreate: () => ok({ id: 'p-2', tasks: 1 }),
  monitoringTaskList: () =>
    ok({
      total: 1,
      counts: { pendingView: 0, pending: 1, completed: 3, notCompleted: 0, overdue: 2 },
      data: [task()],
    }),
  monitoringTaskComplete: () => ok({ state: 'completed' }),
  monitoringTaskClose: () => ok({ state: 'notCompleted' }),
  monitoringTaskView: () => ok({ state: 'pending' }),
};

const info = (extra: { task?: Partial<MonitorTask>; isMonitor?: boolean; canManage?: boolean } = {}) =>
  ok({
    task: task(extra.task),
    ads: [{ id: 'ad-1', name: 'Tea ad' }],
    device: { latitude: 31.2, longitude: 121.5 },
    photos: [photo(), photo({ id: 'ph-2', far: true, distanceM: 1200, scheduled: false, source: 'browser' })],
    isMonitor: extra.isMonitor ?? true,
    canManage: extra.canManage ?? false,
  });

/** Opens an antd select and picks the option showing `text`. */
async function pick(testId: string, text: string) {
  const select = await screen.findByTestId(testId);
  fireEvent.mouseDown(select.querySelector('input') ?? select);
  const options = await screen.findAllByText(text, { selector: '.ant-select-item-option-content' });
  fireEvent.click(options[options.length - 1]);
}

const input = (testId: string) => {
  const el = screen.getByTestId(testId);
  return el.tagName === 'INPUT' ? el : (el.querySelector('input') as HTMLElement);
};

const staff = [Perm.operate, Perm.operateAdMonitor, Perm.operateMonitorTask, Perm.adv, Perm.device];

describe('/operate/adMonitor', () => {
  it('lists the plans with their tasks by state', async () => {
    fakeServer(answers);
    renderPages('/operate/adMonitor', { '/operate/adMonitor': <MonitorPlanPage /> }, staff);
    const row = await screen.findByTestId('monitor-plan-row-p-1');
    expect(row.textContent).toContain('Spring check');
    expect(row.textContent).toContain('Eagle Eye');
    expect(row.textContent).toContain('2026-12-01 ~ 2026-12-07');
    expect(screen.getByTestId('monitor-plan-tasks-p-1').textContent).toContain('Pending (1)');
    expect(screen.getByTestId('monitor-plan-tasks-p-1').textContent).toContain('Completed (1)');
  });

  it('the new-plan dialog requires its fields and sends ads, screens, dates, photos and the monitor', async () => {
    const calls = fakeServer(answers);
    renderPages('/operate/adMonitor', { '/operate/adMonitor': <MonitorPlanPage /> }, staff);
    fireEvent.click(await screen.findByTestId('monitor-plan-add'));
    const form = await screen.findByTestId('monitor-plan-form');
    fireEvent.click(screen.getByTestId('monitor-plan-submit'));
    expect((await within(form).findAllByText('This field is required')).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.name === 'monitoringPlanCreate')).toBe(false);

    fireEvent.change(input('monitor-plan-name'), { target: { value: 'Winter check' } });
    await pick('monitor-plan-ads', 'Tea ad');
    await pick('monitor-plan-screens', 'Lobby left (1001)');
    fireEvent.change(input('monitor-plan-photos'), { target: { value: '3' } });
    await pick('monitor-plan-monitor', 'Eagle Eye (Eagle Watch)');
    fireEvent.click(screen.getByTestId('monitor-plan-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'monitoringPlanCreate')).toBe(true));
    const today = dayjs().startOf('day');
    expect(calls.find((c) => c.name === 'monitoringPlanCreate')?.data).toEqual({
      name: 'Winter check',
      monitorAccountId: 'mon-1',
      adIds: ['ad-1'],
      deviceIds: ['d-1'],
      startDate: today.format('YYYY-MM-DD'),
      endDate: today.add(6, 'day').format('YYYY-MM-DD'),
      photosRequired: 3,
    });
  });
});

describe('/operate/monitorTask', () => {
  it('lists tasks and asks the server for a state by its tab', async () => {
    const calls = fakeServer(answers);
    renderPages('/operate/monitorTask', { '/operate/monitorTask': <MonitorTaskPage /> }, staff);
    const row = await screen.findByTestId('monitor-task-row-t-1');
    expect(row.textContent).toContain('Lobby left');
    expect(screen.getByTestId('monitor-task-photos-t-1').textContent).toContain('2 / 2');
    expect(screen.getByTestId('monitor-task-photos-t-1').textContent).toContain('1 flagged');
    // The tabs show the server's counts per state (and their sum).
    expect(screen.getByTestId('monitor-task-tab-overdue').textContent).toContain('2');
    expect(screen.getByTestId('monitor-task-tab-completed').textContent).toContain('3');
    expect(screen.getByTestId('monitor-task-tab-all').textContent).toContain('6');
    fireEvent.click(screen.getByTestId('monitor-task-tab-overdue'));
    await waitFor(() =>
      expect(
        calls.some((c) => c.name === 'monitoringTaskList' && (c.data as { state?: string }).state === 'overdue'),
      ).toBe(true),
    );
  });
});

describe('/operate/taskDetail', () => {
  const renderDetail = (permissions: string[] = [Perm.operate, Perm.operateMonitorTask]) =>
    renderPages('/operate/taskDetail?id=t-1', { '/operate/taskDetail': <TaskDetailPage /> }, permissions);

  it('shows the photos with their flags and completes the task after a confirmation', async () => {
    const calls = fakeServer({ ...answers, monitoringTaskInfo: () => info() });
    renderDetail();
    expect((await screen.findByTestId('monitor-photo-flags-ph-2')).textContent).toContain('1200 m from the screen');
    expect(screen.getByTestId('monitor-photo-flags-ph-2').textContent).toContain('No ad scheduled then');
    expect(screen.getByTestId('monitor-photo-flags-ph-1').textContent).toContain('40 m from the screen');
    expect(screen.queryByTestId('monitor-task-close')).toBeNull();
    fireEvent.click(screen.getByTestId('monitor-task-complete'));
    const confirm = await screen.findByText('Complete this task?');
    expect(calls.some((c) => c.name === 'monitoringTaskComplete')).toBe(false);
    fireEvent.click(within(confirm.closest('.ant-popover') as HTMLElement).getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'monitoringTaskComplete')?.data).toEqual({ id: 't-1' }));
  });

  it('cannot complete without enough photos; opening a task not viewed marks it viewed', async () => {
    const calls = fakeServer({
      ...answers,
      monitoringTaskInfo: () => info({ task: { state: 'pendingView', photos: 1 } }),
    });
    renderDetail();
    const complete = await screen.findByTestId('monitor-task-complete');
    expect((complete as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(calls.find((c) => c.name === 'monitoringTaskView')?.data).toEqual({ id: 't-1' }));
  });

  it("the plan's owner closes an unfinished task after a confirmation", async () => {
    const calls = fakeServer({
      ...answers,
      monitoringTaskInfo: () => info({ isMonitor: false, canManage: true }),
    });
    renderDetail([Perm.operate, Perm.operateMonitorTask, Perm.operateAdMonitor]);
    expect(await screen.findByTestId('monitor-task-close')).toBeTruthy();
    expect(screen.queryByTestId('monitor-task-upload')).toBeNull();
    expect(screen.queryByTestId('monitor-task-complete')).toBeNull();
    fireEvent.click(screen.getByTestId('monitor-task-close'));
    const confirm = await screen.findByText('Close this task?');
    fireEvent.click(within(confirm.closest('.ant-popover') as HTMLElement).getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'monitoringTaskClose')?.data).toEqual({ id: 't-1' }));
    expect(calls.some((c) => c.name === 'monitoringTaskView')).toBe(false);
  });
});
