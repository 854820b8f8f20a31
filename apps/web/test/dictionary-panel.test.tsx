import { type DictionaryEntry, type EnterpriseRow, Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import DictionaryPanel from '../src/features/dictionaries/DictionaryPanel';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, renderPages, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 60_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const entry = (code: string, en: string, sort: number, usage: number, enabled = true): DictionaryEntry => ({
  id: `id-${code}`,
  kind: 'deviceType',
  code,
  labels: { 'zh-CN': `${en} 屏`, 'en-US': en, ja: `${en} スクリーン` },
  sort,
  enabled,
  usage,
});

const deviceTypes = [
  entry('lcd', 'LCD screen', 0, 3),
  entry('led', 'LED screen', 1, 0),
  entry('kiosk', 'Kiosk', 2, 0, false),
];
const venueTypes: DictionaryEntry[] = [
  { ...entry('retail.malls', 'Shopping malls', 0, 1), kind: 'venueType' },
  { ...entry('transit.airports', 'Airports', 1, 0), kind: 'venueType' },
];

describe('the dictionaries tab (issue 31)', () => {
  it('lists entries with their labels and use, reorders, disables, adds with a checked code; a fixed kind takes no new entry', async () => {
    const calls = fakeServer({
      dictionaryManageList: (data) =>
        (data as { kind: string }).kind === 'venueType'
          ? { code: 0, payload: { fixed: true, data: venueTypes } }
          : { code: 0, payload: { fixed: false, data: deviceTypes } },
      dictionaryReorder: () => ({ code: 0, payload: null }),
      dictionarySetEnabled: () => ({ code: 0, payload: null }),
      dictionarySave: () => ({ code: 0, payload: { id: 'new' } }),
    });
    renderPages('/user/company', { '/user/company': <DictionaryPanel /> }, [Perm.userCompany, Perm.dictionaryManage]);

    const lcd = await screen.findByTestId('dictionary-row-lcd', {}, { timeout: 25_000 });
    expect(lcd.textContent).toContain('LCD screen');
    expect(lcd.textContent).toContain('LCD screen スクリーン');
    // A used entry is disabled rather than deleted; an unused one can go.
    expect(within(lcd).getByTestId('dictionary-inuse-lcd')).toBeTruthy();
    expect(within(lcd).queryByTestId('dictionary-delete-lcd')).toBeNull();
    expect(screen.getByTestId('dictionary-delete-led')).toBeTruthy();
    expect(screen.getByTestId('dictionary-add')).toBeTruthy();

    fireEvent.click(screen.getByTestId('dictionary-down-0'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'dictionaryReorder')?.data).toEqual({
        kind: 'deviceType',
        ids: ['id-led', 'id-lcd', 'id-kiosk'],
      }),
    );

    fireEvent.click(screen.getByTestId('dictionary-enabled-led'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'dictionarySetEnabled')?.data).toEqual({ id: 'id-led', enabled: false }),
    );

    fireEvent.click(screen.getByTestId('dictionary-add'));
    const code = await screen.findByTestId('dictionary-code');
    fireEvent.change(code, { target: { value: 'Video Wall' } });
    fireEvent.change(screen.getByTestId('dictionary-label-zh-CN'), { target: { value: '拼接屏' } });
    fireEvent.change(screen.getByTestId('dictionary-label-en-US'), { target: { value: 'Video wall' } });
    fireEvent.change(screen.getByTestId('dictionary-label-ja'), { target: { value: 'マルチ画面' } });
    fireEvent.click(screen.getByTestId('dictionary-submit'));
    expect(await screen.findByText(/A code starts with a lower-case letter/)).toBeTruthy();
    expect(calls.find((c) => c.name === 'dictionarySave')).toBeUndefined();
    fireEvent.change(code, { target: { value: 'video_wall' } });
    fireEvent.click(screen.getByTestId('dictionary-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'dictionarySave')?.data).toEqual({
        code: 'video_wall',
        kind: 'deviceType',
        labels: { 'zh-CN': '拼接屏', 'en-US': 'Video wall', ja: 'マルチ画面' },
      }),
    );

    // Venue types: the codes are OpenOOH's, so no add and no delete; labels stay editable.
    fireEvent.click(screen.getByTestId('dictionary-kind-venueType'));
    const malls = await screen.findByTestId('dictionary-row-retail.malls');
    expect(malls.textContent).toContain('Shopping malls');
    expect(screen.queryByTestId('dictionary-add')).toBeNull();
    expect(screen.queryByTestId('dictionary-delete-transit.airports')).toBeNull();
    expect(screen.getByTestId('dictionary-edit-transit.airports')).toBeTruthy();
    expect(screen.getByTestId('dictionary-hint').textContent).toContain('OpenOOH');
  });
});

const company = (kind: EnterpriseRow['kind']): EnterpriseRow => ({
  id: 'ent-1',
  kind,
  parentId: null,
  parentName: null,
  name: 'Marquee Platform',
  socialCreditCode: '91310000MA1PROVID',
  contact: 'Operations Desk',
  phone: '4008001000',
  accountType: 'enterprise',
  status: 'enabled',
  welcomeSpeech: '',
  timeZone: 'Asia/Shanghai',
  adminLoginName: 'operator',
  accountCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('/user/company?tab=dictionaries', () => {
  const permissions = [Perm.user, Perm.userCompany, Perm.dictionaryManage];

  it('is a tab for the platform operator', async () => {
    fakeServer({
      ...shellAnswers,
      enterpriseDetail: () => ({ code: 0, payload: company('provider') }),
      enterpriseList: () => ({ code: 0, payload: { total: 0, data: [] } }),
      dictionaryManageList: () => ({ code: 0, payload: { fixed: false, data: deviceTypes } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: permissions }));
    render(renderApp('/user/company?tab=dictionaries').tree);
    expect(await screen.findByTestId('dictionary-row-lcd', {}, { timeout: 45_000 })).toBeTruthy();
    expect(screen.getByTestId('company-tab-dictionaries').textContent).toBe('Dictionaries');
  });

  it('is not there for an enterprise, even one whose role names the code', async () => {
    fakeServer({ ...shellAnswers, enterpriseDetail: () => ({ code: 0, payload: company('enterprise') }) });
    useSession.getState().setLogin(loginResponse({ permissionList: permissions }));
    render(renderApp('/user/company?tab=dictionaries').tree);
    expect(await screen.findByTestId('company-tab-departments', {}, { timeout: 45_000 })).toBeTruthy();
    expect(screen.queryByTestId('company-tab-dictionaries')).toBeNull();
    expect(screen.queryByTestId('dictionary-panel')).toBeNull();
  });
});
