import { type Ad, type AdInfo, Perm, type PromotionPlan } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { RANGE_FORMAT, wholeEndDay } from '../src/features/ads/AdEditPage';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
// Lazy pages compile in the test run and a shared machine is slow: waits are generous, never fixed sleeps.
setUpConsoleTests({ asyncUtilTimeout: 20_000 });

const plan = (name: string, extra: Partial<PromotionPlan> = {}): PromotionPlan => ({
  id: `p-${name}`,
  name,
  budget: null,
  startDate: null,
  endDate: null,
  isDefault: false,
  adCount: 0,
  ownerName: 'Ann',
  deptName: 'Head office',
  hasPermission: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const ad = (name: string, extra: Partial<Ad> = {}): Ad => ({
  id: `a-${name}`,
  number: '100000001',
  name,
  type: 'common',
  source: 'console',
  status: 'pendingAudit',
  reviewState: 'pending',
  reviewRound: 1,
  auditTime: null,
  auditorName: '',
  auditReason: null,
  planId: 'p-def',
  planName: 'Default plan',
  startAt: '2026-01-01T00:00:00.000Z',
  endAt: '2026-12-31T00:00:00.000Z',
  expiringSoon: false,
  strategy: 'perDay',
  playsMin: 1,
  playsMax: 10,
  periods: [],
  slotId: null,
  link: '',
  monitorUrl: null,
  materialIds: ['m1'],
  layoutId: null,
  targets: { deviceIds: ['d1', 'd2'], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
  paused: false,
  ownerId: 'u1',
  ownerName: 'Ann',
  deptId: null,
  deptName: '',
  hasPermission: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const info = (a: Ad, extra: Partial<AdInfo> = {}): AdInfo => ({
  ...a,
  materials: [{ id: 'm1', name: 'Intro.mp4', type: 'video', status: 'ready' }],
  layoutName: null,
  targetNames: [{ kind: 'deviceIds', id: 'd1', name: 'Lobby 1' }],
  reviews: [],
  ...extra,
});

describe('promotion plans (/advert/plan)', () => {
  it('lists plans, locks the default one, adds a plan and deletes one after asking', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      planList: () => ({
        code: 0,
        payload: {
          total: 2,
          data: [plan('Default plan', { isDefault: true, adCount: 3 }), plan('Spring', { budget: 1200.5 })],
        },
      }),
      planSave: () => ({ code: 0, payload: { id: 'p-new' } }),
      planDelete: () => ({ code: 0, payload: null }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advPlan] }));
    render(renderApp('/advert/plan').tree);
    const row = await screen.findByTestId('plan-row-Default plan', {}, { timeout: 25_000 });
    expect(within(row).getByTestId('plan-default-tag').textContent).toBe('Default');
    expect((screen.getByTestId('plan-edit-Default plan') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('plan-delete-Default plan') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('plan-row-Spring').textContent).toContain('1,200.50');

    fireEvent.click(screen.getByTestId('plan-add'));
    fireEvent.click(await screen.findByTestId('plan-dialog-submit'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    fireEvent.change(screen.getByTestId('plan-dialog-name'), { target: { value: ' Summer ' } });
    fireEvent.change(screen.getByTestId('plan-dialog-budget'), { target: { value: '99.5' } });
    fireEvent.click(screen.getByTestId('plan-dialog-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'planSave')?.data).toEqual({
        name: 'Summer',
        budget: 99.5,
        startDate: null,
        endDate: null,
      }),
    );

    fireEvent.click(screen.getByTestId('plan-delete-Spring'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'planDelete')?.data).toEqual({ id: 'p-Spring' }));
  });
});

describe('ads (/advert)', () => {
  it('filters, shows the status from the server, pauses after asking, and opens the details', async () => {
    const playing = ad('Spring sale', { status: 'playing', reviewState: 'passed' });
    const calls = fakeServer({
      ...shellAnswers,
      planList: () => ({
        code: 0,
        payload: { total: 1, data: [plan('Default plan', { id: 'p-def', isDefault: true })] },
      }),
      adList: () => ({ code: 0, payload: { total: 2, data: [playing, ad('Waiting', { hasPermission: false })] } }),
      adInfo: () => ({
        code: 0,
        payload: info(playing, {
          reviews: [
            {
              round: 1,
              stage: 'first',
              decision: 'pass',
              reason: null,
              auditorId: 'u2',
              auditorName: 'Bob',
              decidedAt: '2026-01-02T00:00:00.000Z',
            },
          ],
        }),
      }),
      adDisable: () => ({ code: 0, payload: { status: 'paused' } }),
      adBroadcast: () => ({ code: 0, payload: { pushId: 'push-1', devices: 3 } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advEdit, Perm.advPlan] }));
    const { router, tree } = renderApp('/advert');
    render(tree);
    const row = await screen.findByTestId('ad-row-Spring sale', {}, { timeout: 25_000 });
    expect(within(row).getByText('Playing')).toBeTruthy();
    expect(within(screen.getByTestId('ad-row-Waiting')).getByText('Pending review')).toBeTruthy();
    expect((screen.getByTestId('ad-pause-Waiting') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(screen.getByTestId('ad-filter-name'), { target: { value: 'Spring' } });
    fireEvent.click(screen.getByTestId('ad-search'));
    await waitFor(() => expect(router.state.location.search).toBe('?name=Spring'));
    await waitFor(() =>
      expect(calls.some((c) => c.name === 'adList' && (c.data as { name?: string }).name === 'Spring')).toBe(true),
    );

    fireEvent.click(screen.getByTestId('ad-pause-Spring sale'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'adDisable')?.data).toEqual({ id: 'a-Spring sale' }));
    // A passed ad is sent to its screens at once, after a confirmation; one waiting for review is not.
    expect(screen.queryByTestId('ad-broadcast-Waiting')).toBeNull();
    fireEvent.click(screen.getByTestId('ad-broadcast-Spring sale'));
    // The pause's confirmation may still be closing: the newest one is the broadcast's.
    await waitFor(() =>
      expect(
        screen.getAllByText('Send “Spring sale” to its screens now? They fetch the current schedule at once.'),
      ).toHaveLength(1),
    );
    const oks = screen.getAllByTestId('confirm-ok');
    fireEvent.click(oks[oks.length - 1]);
    await waitFor(() => expect(calls.find((c) => c.name === 'adBroadcast')?.data).toEqual({ id: 'a-Spring sale' }));
    expect(await screen.findByText('Sent to 3 screens')).toBeTruthy();

    fireEvent.click(screen.getByTestId('ad-details-Spring sale'));
    const detail = await screen.findByTestId('ad-detail');
    expect(within(detail).getByTestId('ad-detail-content').textContent).toContain('Intro.mp4');
    // A target's name, and how many of its kind are gone from the enterprise.
    const devices = within(detail).getByTestId('ad-detail-target-deviceIds');
    expect(devices.textContent).toContain('Lobby 1');
    expect(devices.textContent).toContain('1 deleted');
    expect(within(detail).getByTestId('ad-detail-reviews').textContent).toContain(
      'Round 1, first review: approved by Bob',
    );
  });
});

describe('ad review (/advert/audit)', () => {
  it('approves, rejects with a required reason, shows a CONFLICT and saves the second-audit switch', async () => {
    let decidedFirst = false;
    const calls = fakeServer({
      ...shellAnswers,
      adList: () => ({
        code: 0,
        payload: {
          total: 3,
          data: [
            ad('First', decidedFirst ? { reviewState: 'passed', status: 'pendingPlay' } : {}),
            ad('Second', { id: 'a-2', reviewState: 'pendingSecond', reviewRound: 2 }),
            ad('Stale', { id: 'a-3' }),
          ],
        },
      }),
      adAuditPass: (data) => {
        if ((data as { id: string }).id === 'a-3') return { code: -10409, message: 'The ad was changed meanwhile' };
        decidedFirst = true;
        return { code: 0, payload: { reviewState: 'passed' } };
      },
      adSecondAuditFail: () => ({ code: 0, payload: { reviewState: 'failed' } }),
      adSettings: () => ({ code: 0, payload: { requireSecondAudit: false } }),
      adSaveSettings: () => ({ code: 0, payload: null }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advAudit] }));
    render(renderApp('/advert/audit').tree);
    await screen.findByTestId('audit-row-First', {}, { timeout: 25_000 });
    expect(within(screen.getByTestId('audit-row-Second')).getByText('Pending second review')).toBeTruthy();

    fireEvent.click(screen.getByTestId('audit-pass-First'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'adAuditPass')?.data).toEqual({ id: 'a-First', round: 1 }));
    await waitFor(() => expect((screen.getByTestId('audit-pass-First') as HTMLButtonElement).disabled).toBe(true));

    fireEvent.click(screen.getByTestId('audit-fail-Second'));
    fireEvent.click(await screen.findByTestId('audit-fail-submit'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    fireEvent.change(screen.getByTestId('audit-fail-reason'), { target: { value: 'Blurry' } });
    fireEvent.click(screen.getByTestId('audit-fail-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'adSecondAuditFail')?.data).toEqual({
        id: 'a-2',
        round: 2,
        reason: 'Blurry',
      }),
    );

    const listCalls = calls.filter((c) => c.name === 'adList').length;
    fireEvent.click(screen.getByTestId('audit-pass-Stale'));
    const oks = await screen.findAllByTestId('confirm-ok');
    fireEvent.click(oks[oks.length - 1]);
    expect(await screen.findByText('The ad was changed meanwhile')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.name === 'adList').length).toBeGreaterThan(listCalls));

    const toggle = await screen.findByTestId('audit-second-switch');
    await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'adSaveSettings')?.data).toEqual({ requireSecondAudit: true }),
    );
  });
});

describe('ad edit (/advert/edit)', () => {
  it('preselects the default plan, asks for the required fields and picks materials in order', async () => {
    fakeServer({
      ...shellAnswers,
      adTargetDevices: () => ({ code: 0, payload: { total: 0, data: [] } }),
      planList: () => ({
        code: 0,
        payload: { total: 2, data: [plan('Spring'), plan('Default plan', { id: 'p-def', isDefault: true })] },
      }),
      materialList: () => ({
        code: 0,
        payload: {
          total: 2,
          totalCapped: false,
          data: [
            { ...materialRow('Cover'), thumbUrl: '/files/c.jpg' },
            { ...materialRow('Banner'), thumbUrl: null },
          ],
        },
      }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advEdit, Perm.advPlan] }));
    render(renderApp('/advert/edit').tree);
    await screen.findByTestId('ad-edit-page', {}, { timeout: 25_000 });
    await waitFor(() => expect(screen.getByTestId('ad-edit-plan').textContent).toContain('Default plan'));

    fireEvent.click(screen.getByTestId('ad-edit-submit'));
    // The name and the period: antd shows each field's message once its own validation settles.
    await waitFor(() => expect(screen.getAllByText('This field is required').length).toBeGreaterThanOrEqual(2));

    fireEvent.click(screen.getByTestId('ad-materials-pick'));
    // The picker's first open loads the library's texts and folders: a cold start may take a while.
    fireEvent.click(await screen.findByTestId('material-picker-item-Banner', {}, { timeout: 15_000 }));
    fireEvent.click(screen.getByTestId('material-picker-item-Cover'));
    fireEvent.click(screen.getByTestId('material-picker-ok'));
    const picked = screen.getByTestId('ad-materials');
    await waitFor(() => expect(picked.textContent).toContain('1. Banner'));
    expect(picked.textContent).toContain('2. Cover');
  });

  it('loads the ad of ?id=, shows its targets of every kind, and sends the update', async () => {
    const targets = { deviceIds: ['d1', 'd2'], groupIds: ['g1'], tagIds: ['t1'], deptIds: ['dep1'], spliceIds: ['s1'] };
    const existing = info(
      ad('Spring sale', { periods: [{ start: '08:00', end: '12:00' }], monitorUrl: null, targets }),
    );
    const calls = fakeServer({
      ...shellAnswers,
      planList: () => ({
        code: 0,
        payload: { total: 1, data: [plan('Default plan', { id: 'p-def', isDefault: true })] },
      }),
      adInfo: () => ({ code: 0, payload: existing }),
      adUpdate: () => ({ code: 0, payload: { reviewRound: 2, status: 'pendingAudit' } }),
      adList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      adTargetDevices: () => ({ code: 0, payload: { total: 0, data: [] } }),
      deviceGroupOptions: () => ({ code: 0, payload: [{ id: 'g1', name: 'Lobby screens' }] }),
      deviceTagOptions: () => ({
        code: 0,
        payload: [{ id: 't1', name: 'Ground', categoryId: 'c1', categoryName: 'Floor' }],
      }),
      deptTree: () => ({
        code: 0,
        payload: [{ id: 'dep1', name: 'Sales', parentId: null, disabled: false, memberCount: 1, children: [] }],
      }),
      spliceList: () => ({ code: 0, payload: { total: 1, data: [spliceRow('s1', 'Hall wall')] } }),
    });
    useSession.getState().setLogin(
      loginResponse({
        permissionList: [Perm.adv, Perm.advEdit, Perm.advPlan, Perm.device, Perm.deviceSplice, Perm.userCompany],
      }),
    );
    const { router, tree } = renderApp('/advert/edit?id=a-Spring%20sale');
    render(tree);
    const name = (await screen.findByTestId('ad-edit-name', {}, { timeout: 25_000 })) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Spring sale'));
    // Each picker shows the kept ids by their names once its options arrive.
    // A kept device not among the searched rows keeps the name the ad's detail gives it.
    await waitFor(() => expect(screen.getByTestId('ad-edit-devices').textContent).toContain('Lobby 1'));
    await waitFor(() => expect(screen.getByTestId('ad-edit-groups').textContent).toContain('Lobby screens'));
    await waitFor(() => expect(screen.getByTestId('ad-edit-tags').textContent).toContain('Floor / Ground'));
    await waitFor(() => expect(screen.getByTestId('ad-edit-splices').textContent).toContain('Hall wall'));
    await waitFor(() => expect(document.body.textContent).toContain('Sales'));
    fireEvent.change(name, { target: { value: 'Spring sale 2' } });
    fireEvent.click(screen.getByTestId('ad-edit-submit'));
    await waitFor(() => expect(calls.some((c) => c.name === 'adUpdate')).toBe(true));
    const sent = calls.find((c) => c.name === 'adUpdate')?.data as Record<string, unknown>;
    expect(sent).toMatchObject({
      id: 'a-Spring sale',
      name: 'Spring sale 2',
      planId: 'p-def',
      periods: [{ start: '08:00', end: '12:00' }],
      materialIds: ['m1'],
      layoutId: null,
      monitorUrl: null,
      targets,
    });
    expect(Date.parse(sent.startAt as string)).toBe(Date.parse(existing.startAt));
    await waitFor(() => expect(router.state.location.pathname).toBe('/advert'));
  });
});

describe('ad edit: saving an invalid form and the periods (issue 25)', () => {
  const answers = (existing?: AdInfo) => ({
    ...shellAnswers,
    planList: () => ({
      code: 0,
      payload: { total: 1, data: [plan('Default plan', { id: 'p-def', isDefault: true })] },
    }),
    adTargetDevices: () => ({ code: 0, payload: { total: 0, data: [] } }),
    ...(existing ? { adInfo: () => ({ code: 0, payload: existing }) } : {}),
  });

  it('says why nothing was saved and names the period range by its date and time', async () => {
    const calls = fakeServer(answers());
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advEdit, Perm.advPlan] }));
    render(renderApp('/advert/edit').tree);
    await screen.findByTestId('ad-edit-page', {}, { timeout: 25_000 });
    const range = document.querySelector('.ant-picker-range') as HTMLElement;
    const inputs = [...range.querySelectorAll('input')];
    expect(inputs.map((i) => i.getAttribute('placeholder'))).toEqual(['Start date and time', 'End date and time']);
    fireEvent.click(screen.getByTestId('ad-edit-submit'));
    expect(await screen.findByText('Not saved: please correct the fields marked in red')).toBeTruthy();
    expect(calls.some((c) => c.name === 'adCreate')).toBe(false);
  });

  it('drops an overlap message once the overlapping periods are removed', async () => {
    const existing = info(
      ad('Spring sale', {
        periods: [
          { start: '08:00', end: '12:00' },
          { start: '10:00', end: '14:00' },
        ],
        monitorUrl: null,
      }),
    );
    const calls = fakeServer(answers(existing));
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.advEdit, Perm.advPlan] }));
    render(renderApp('/advert/edit?id=a-Spring%20sale').tree);
    const name = (await screen.findByTestId('ad-edit-name', {}, { timeout: 25_000 })) as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('Spring sale'));
    fireEvent.click(screen.getByTestId('ad-edit-submit'));
    expect((await screen.findByTestId('ad-edit-period-issue')).textContent).toBe('Time periods overlap');
    expect(await screen.findByText('Not saved: please correct the fields marked in red')).toBeTruthy();
    expect(calls.some((c) => c.name === 'adUpdate')).toBe(false);
    fireEvent.click(screen.getByTestId('ad-edit-period-remove-1'));
    await waitFor(() => expect(screen.queryByTestId('ad-edit-period-issue')).toBeNull());
    // Both removed: still none.
    fireEvent.click(screen.getByTestId('ad-edit-period-remove-0'));
    await waitFor(() => expect(screen.queryByTestId('ad-edit-period-remove-0')).toBeNull());
    expect(screen.queryByTestId('ad-edit-period-issue')).toBeNull();
  });

  it('plays the end day whole', () => {
    expect(dayjs('2026-12-01 08:00', RANGE_FORMAT, true).isValid()).toBe(true);
    const range = wholeEndDay([dayjs('2026-12-01 00:00'), dayjs('2026-12-05 00:00')]);
    expect(range?.map((d) => d?.format('YYYY-MM-DD HH:mm'))).toEqual(['2026-12-01 00:00', '2026-12-05 23:59']);
    // An end with a time of its own is kept.
    const kept = wholeEndDay([dayjs('2026-12-01 08:00'), dayjs('2026-12-05 18:30')]);
    expect(kept?.[1]?.format('HH:mm')).toBe('18:30');
  });
});

function spliceRow(id: string, name: string) {
  return {
    id,
    name,
    rows: 1,
    cols: 2,
    deptId: null,
    deptName: '',
    scaling: false,
    rotation: 0,
    tileCount: 2,
    onlineCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

function materialRow(name: string) {
  return {
    id: `m-${name}`,
    name,
    type: 'image',
    mime: 'image/png',
    size: 1536,
    width: 1920,
    height: 1080,
    duration: null,
    codec: null,
    pages: null,
    sha256: null,
    url: '/files/x',
    thumbUrl: null,
    status: 'ready',
    invalidReason: null,
    folderId: 'f1',
    folderName: 'Spring',
    categoryId: null,
    categoryName: '',
    uploaderId: 'u1',
    uploaderName: 'Ann',
    deptId: null,
    duplicateCount: 0,
    hasPermission: true,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}
