import { type AccountRow, type EnterpriseRow, Perm } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

// The first visit compiles the lazy page with antd's table, popover and checkbox in the test run.
vi.setConfig({ testTimeout: 60_000 });

const ent: EnterpriseRow = {
  id: 'ent-1',
  kind: 'enterprise',
  parentId: null,
  parentName: null,
  name: 'Demo Media Co., Ltd.',
  socialCreditCode: '91310000MA1DEMO001',
  contact: 'Chen Jie',
  phone: '13800000001',
  accountType: 'enterprise',
  status: 'enabled',
  welcomeSpeech: '',
  timeZone: 'Asia/Shanghai',
  adminLoginName: 'entadmin',
  accountCount: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
};

const account = (loginName: string, extra: Partial<AccountRow> = {}): AccountRow => ({
  id: `id-${loginName}`,
  userNo: 10001,
  loginName,
  realName: loginName,
  phone: '',
  email: '',
  status: 'enabled',
  accountType: 'enterprise',
  isEntAdmin: false,
  roles: [{ id: 'r-1', name: 'Staff' }],
  departments: [{ id: 'd-1', name: 'Head office' }],
  currentDeptId: 'd-1',
  lastLoginAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const orgAnswers = {
  ...shellAnswers,
  enterpriseDetail: () => ({ code: 0, payload: ent }),
  deptTree: () => ({
    code: 0,
    payload: [{ id: 'd-1', name: 'Head office', parentId: null, disabled: false, memberCount: 2, children: [] }],
  }),
  roleOptions: () => ({ code: 0, payload: [{ value: 'r-1', label: 'Staff' }] }),
  accountList: () => ({
    code: 0,
    payload: { total: 2, data: [account('entadmin', { id: 'acc-1', isEntAdmin: true }), account('alice_w')] },
  }),
};

// Lazy pages compile in the test run: the wait covers their first visit.
setUpConsoleTests({ asyncUtilTimeout: 20_000 });

const manager = [Perm.user, Perm.userCompany, Perm.userAccountManage, Perm.userDeptManage];

describe('/user/company for an enterprise administrator', () => {
  it('lists the accounts with their actions; the own account cannot be paused or deleted', async () => {
    fakeServer(orgAnswers);
    useSession.getState().setLogin(loginResponse({ permissionList: manager }));
    render(renderApp('/user/company?tab=accounts').tree);
    // The file's first visit compiles the lazy page.
    await screen.findByTestId('account-row-alice_w', {}, { timeout: 45_000 });
    expect(screen.getByTestId('company-info').textContent).toContain('Chen Jie');
    expect((screen.getByTestId('account-pause-alice_w') as HTMLButtonElement).disabled).toBe(false);
    expect((screen.getByTestId('account-pause-entadmin') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('account-delete-entadmin') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('account-batch-roles') as HTMLButtonElement).disabled).toBe(true);
  });

  it('add by hand: one password message at a time, and nothing is sent until the form is valid', async () => {
    const calls = fakeServer(orgAnswers);
    useSession.getState().setLogin(loginResponse({ permissionList: manager }));
    render(renderApp('/user/company?tab=accounts').tree);
    fireEvent.click(await screen.findByTestId('account-add'));
    const password = await screen.findByTestId('account-dialog-password');
    // Empty: the rule as help.
    expect(screen.getAllByText(/10 to 15 characters with at least three/)).toHaveLength(1);
    fireEvent.change(password, { target: { value: 'lowercase1' } });
    // Typed: only what the password misses, once; the help is gone.
    await screen.findByText(
      'The password must mix at least three of upper-case letters, lower-case letters, digits and symbols',
    );
    expect(screen.queryAllByText(/10 to 15 characters with at least three/)).toHaveLength(0);
    fireEvent.change(password, { target: { value: 'Ab1!' } });
    await screen.findByText('The password must have 10 to 15 characters');
    fireEvent.click(screen.getByTestId('account-dialog-submit'));
    await waitFor(() => expect(screen.getAllByText('This field is required').length).toBeGreaterThan(0));
    expect(calls.some((c) => c.name === 'accountAdd')).toBe(false);
  });

  it("takes the URL's filters into the account request; a pause refreshes the accounts and the department tree", async () => {
    const calls = fakeServer({ ...orgAnswers, accountSetStatus: () => ({ code: 0, payload: null }) });
    useSession.getState().setLogin(loginResponse({ permissionList: manager }));
    render(renderApp('/user/company?tab=accounts&loginName=ali&status=enabled').tree);
    await screen.findByTestId('account-row-alice_w');
    const named = (name: string) => calls.filter((c) => c.name === name);
    expect(named('accountList')[0].data).toMatchObject({ page: 1, size: 50, loginName: 'ali', status: 'enabled' });
    expect((screen.getByTestId('account-filter-login') as HTMLInputElement).value).toBe('ali');
    const lists = named('accountList').length;
    const trees = named('deptTree').length;
    fireEvent.click(screen.getByTestId('account-pause-alice_w'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() =>
      expect(named('accountSetStatus')).toEqual([
        { name: 'accountSetStatus', data: { id: 'id-alice_w', status: 'paused' } },
      ]),
    );
    await waitFor(() => expect(named('accountList').length).toBe(lists + 1));
    await waitFor(() => expect(named('deptTree').length).toBe(trees + 1));
  });

  it('hides the management buttons without the account-management code', async () => {
    fakeServer(orgAnswers);
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.user, Perm.userCompany] }));
    render(renderApp('/user/company?tab=accounts').tree);
    await screen.findByTestId('account-row-alice_w');
    expect(screen.queryByTestId('account-add')).toBeNull();
    expect(screen.queryByTestId('account-pause-alice_w')).toBeNull();
  });

  it('/user opens the first user page the account may open', async () => {
    fakeServer(orgAnswers);
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.user, Perm.userCompany] }));
    const { router, tree } = renderApp('/user');
    render(tree);
    await screen.findByTestId('company-page');
    expect(router.state.location.pathname).toBe('/user/company');
  });
});
