import { type DeviceGroupRow, Perm, RefType, type TagRow } from '@marquee/protocol';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

vi.setConfig({ testTimeout: 120_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const group = (name: string, hasPermission: boolean): DeviceGroupRow => ({
  id: `g-${name}`,
  name,
  remark: '',
  deptId: 'd1',
  deptName: 'East',
  ownerName: 'Owner',
  deviceCount: 1234,
  hasPermission,
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const tag = (name: string, categoryId: string): TagRow => ({
  id: `t-${name}`,
  name,
  categoryId,
  categoryName: categoryId === 'c1' ? 'Region' : 'Floor',
  deviceCount: 3,
  updatedAt: '2026-01-01T00:00:00.000Z',
});

function serve() {
  return fakeServer({
    ...shellAnswers,
    deviceGroupList: () => ({ code: 0, payload: { total: 2, data: [group('Lobby', true), group('Shared', false)] } }),
    deviceGroupCreate: () => ({ code: 0, payload: { id: 'g-new' } }),
    deviceList: () => ({ code: 0, payload: { total: 0, data: [] } }),
    tagCategoryList: () => ({
      code: 0,
      payload: [
        { id: 'c1', name: 'Region', tagCount: 1 },
        { id: 'c2', name: 'Floor', tagCount: 1 },
      ],
    }),
    deviceTagList: (data) => ({
      code: 0,
      payload: {
        total: 1,
        data: (data as { categoryId?: string }).categoryId === 'c2' ? [tag('Ground', 'c2')] : [tag('North', 'c1')],
      },
    }),
    permissionSubAccounts: () => ({ code: 0, payload: [] }),
    permissionDeptTree: () => ({ code: 0, payload: { trees: [], deptChildMap: {} } }),
    permissionAllocation: () => ({ code: 0, payload: { allocateInfos: [] } }),
  });
}

const PERMS = [Perm.device, Perm.deviceGroup, Perm.deviceTags, Perm.dataAllocation];

describe('device group and tag pages (issue 9)', () => {
  it('lists groups with counts; a group shared with the caller is read-only; share opens the dialog on ref-type 2', async () => {
    const calls = serve();
    useSession.getState().setLogin(loginResponse({ permissionList: PERMS }));
    const { tree } = renderApp('/device/group');
    render(tree);
    await screen.findByTestId('group-row-Lobby', {}, { timeout: 60_000 });
    expect(screen.getByTestId('group-row-Lobby').textContent).toContain('1,234');
    expect((screen.getByTestId('group-edit-Shared') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('group-share-Shared') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('group-share-Lobby'));
    await screen.findByTestId('permission-dialog');
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'permissionAllocation')?.data).toEqual({
        refType: RefType.deviceGroup,
        refId: 'g-Lobby',
      }),
    );
  });

  it('creates a group from the add page with the server rules', async () => {
    const calls = serve();
    useSession.getState().setLogin(loginResponse({ permissionList: PERMS }));
    const { router, tree } = renderApp('/device/group/addView');
    render(tree);
    const name = await screen.findByTestId('group-form-name', {}, { timeout: 60_000 });
    fireEvent.change(name, { target: { value: 'x'.repeat(31) } });
    fireEvent.click(screen.getByTestId('group-form-save'));
    expect(await screen.findByText(/30/)).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Lobby' } });
    fireEvent.click(screen.getByTestId('group-form-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'deviceGroupCreate')?.data).toEqual({
        name: 'Lobby',
        remark: '',
        deviceIds: [],
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/device/group'));
  });

  it('lists tag categories and filters the tags by the one chosen', async () => {
    const calls = serve();
    useSession.getState().setLogin(loginResponse({ permissionList: PERMS }));
    const { router, tree } = renderApp('/device/tags');
    render(tree);
    await screen.findByTestId('tag-row-North', {}, { timeout: 60_000 });
    fireEvent.click(screen.getByTestId('category-Floor').querySelector('button') as HTMLButtonElement);
    await screen.findByTestId('tag-row-Ground');
    expect(router.state.location.search).toBe('?categoryId=c2');
    expect(
      calls.some((c) => c.name === 'deviceTagList' && (c.data as { categoryId?: string }).categoryId === 'c2'),
    ).toBe(true);
  });
});
