import { type Advertiser, Perm, type RoleRow } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

// The first visit compiles the lazy page with antd's table in the test run.
vi.setConfig({ testTimeout: 60_000 });
setUpConsoleTests({ asyncUtilTimeout: 20_000 });

const role = (name: string, extra: Partial<RoleRow> = {}): RoleRow => ({
  id: `role-${name}`,
  name,
  type: 'custom',
  deptId: null,
  deptName: null,
  dataScope: 'self',
  permissionCodes: [Perm.device],
  builtin: false,
  accountCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

const advertiser = (loginName: string): Advertiser => ({
  id: `adv-${loginName}`,
  loginName,
  realName: loginName,
  phone: null,
  email: null,
  status: 'enabled',
  deptId: null,
  deptName: 'Head office',
  createdAt: '2026-01-01T00:00:00.000Z',
  industry: null,
  staff: [],
});

describe('roles and advertiser allocation as list-page declarations', () => {
  it("/user/companyRole takes the URL's filters into the request; a delete refreshes the list", async () => {
    const calls = fakeServer({
      ...shellAnswers,
      deptTree: () => ({ code: 0, payload: [] }),
      roleList: () => ({ code: 0, payload: { total: 1, data: [role('Reviewers')] } }),
      roleDelete: () => ({ code: 0, payload: null }),
    });
    useSession
      .getState()
      .setLogin(loginResponse({ permissionList: [Perm.user, Perm.userCompanyRole, Perm.userRoleManage] }));
    render(renderApp('/user/companyRole?name=Rev&type=custom&sort=accountCount&order=desc').tree);
    await screen.findByTestId('role-row-Reviewers', {}, { timeout: 45_000 });
    const named = (name: string) => calls.filter((c) => c.name === name);
    expect(named('roleList')[0].data).toEqual({
      page: 1,
      size: 50,
      sort: 'accountCount',
      order: 'desc',
      name: 'Rev',
      type: 'custom',
    });
    expect(screen.getByTestId('role-add')).toBeTruthy();
    const lists = named('roleList').length;
    fireEvent.click(screen.getByTestId('role-delete-Reviewers'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(named('roleDelete').map((c) => c.data)).toEqual([{ id: 'role-Reviewers' }]));
    await waitFor(() => expect(named('roleList').length).toBe(lists + 1));
  });

  it('/user/allot assigns the selected advertisers to the chosen staff, then clears the selection', async () => {
    const calls = fakeServer({
      ...shellAnswers,
      advertiserStaffOptions: () => ({ code: 0, payload: [{ value: 'staff-1', label: 'Zhang Wei' }] }),
      advertiserAllotList: () => ({ code: 0, payload: { total: 1, data: [advertiser('acme')] } }),
      advertiserAssign: () => ({ code: 0, payload: { assigned: 1 } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.user, Perm.userAllot] }));
    render(renderApp('/user/allot?staffId=staff-1').tree);
    const row = await screen.findByTestId('allot-row-acme', {}, { timeout: 45_000 });
    const named = (name: string) => calls.filter((c) => c.name === name);
    expect(named('advertiserAllotList')[0].data).toEqual({ page: 1, size: 50, staffId: 'staff-1' });
    expect((screen.getByTestId('allot-assign') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(row).getByRole('checkbox'));
    fireEvent.mouseDown(within(screen.getByTestId('allot-staff-select')).getByRole('combobox'));
    // The staff filter shows the same name: the option is the dropdown's.
    const option = await waitFor(() => {
      const found = screen.getAllByTitle('Zhang Wei').find((el) => el.classList.contains('ant-select-item-option'));
      expect(found).toBeTruthy();
      return found as HTMLElement;
    });
    fireEvent.click(option);
    await waitFor(() => expect((screen.getByTestId('allot-assign') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('allot-assign'));
    await waitFor(() =>
      expect(named('advertiserAssign').map((c) => c.data)).toEqual([
        { advertiserIds: ['adv-acme'], staffIds: ['staff-1'] },
      ]),
    );
    await waitFor(() => expect((screen.getByTestId('allot-assign') as HTMLButtonElement).disabled).toBe(true));
  });
});
