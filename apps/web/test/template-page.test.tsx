import { createComponent, createEmptyLayout } from '@marquee/layout';
import { Perm, type TemplateRow } from '@marquee/protocol';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSession } from '../src/session/session';
import { fakeServer, loginResponse, renderApp, setUpConsoleTests, shellAnswers } from './harness';

// The first visit compiles the lazy page with antd's table, popover and checkbox in the test run.
vi.setConfig({ testTimeout: 60_000 });

// Lazy pages compile in the test run: the wait covers their first visit.
setUpConsoleTests({ asyncUtilTimeout: 8000 });

const row = (name: string, hasPermission: boolean): TemplateRow => ({
  id: `id-${name}`,
  name,
  width: 1920,
  height: 1080,
  ownerId: 'o1',
  ownerName: 'Owner',
  deptId: 'd1',
  deptName: 'East',
  hasPermission,
  updatedAt: '2026-01-01T00:00:00.000Z',
  isDefault: false,
  version: 1,
  thumb: null,
});

function serve() {
  return fakeServer({
    ...shellAnswers,
    templatePage: () => ({ code: 0, payload: { total: 2, data: [row('Mine', true), row('Shared to me', false)] } }),
    permissionSubAccounts: () => ({ code: 0, payload: [{ id: 'u1', name: 'Ann' }] }),
    permissionDeptTree: () => ({
      code: 0,
      payload: {
        trees: [
          {
            id: 'd1',
            name: 'East',
            disabled: false,
            children: [{ id: 'd2', name: 'Shop', disabled: false, children: [] }],
          },
        ],
        deptChildMap: { d1: ['d2'], d2: [] },
      },
    }),
    permissionAllocation: () => ({ code: 0, payload: { allocateInfos: [] } }),
    permissionRefresh: () => ({ code: 0, payload: null }),
  });
}

describe('template page (spec section 2)', () => {
  it('lists with page size 20, locks rows without permission, shares the selection', async () => {
    const calls = serve();
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.template, Perm.dataAllocation] }));
    const { router, tree } = renderApp('/template');
    render(tree);
    // The first visit compiles the lazy page (antd included) inside the test run.
    await screen.findByTestId('template-row-Mine', {}, { timeout: 25_000 });
    expect(calls.find((c) => c.name === 'templatePage')?.data).toEqual({ page: 1, size: 20 });
    const share = screen.getByTestId('template-share');
    expect(share.closest('button')?.disabled).toBe(true);
    const locked = screen.getByTestId('template-select-Shared to me') as HTMLInputElement;
    expect(locked.disabled).toBe(true);
    expect((screen.getByTestId('template-share-Shared to me') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('template-select-Mine'));
    await waitFor(() => expect(share.closest('button')?.disabled).toBe(false));

    // The name filter goes to the URL and the call.
    fireEvent.change(screen.getByTestId('template-filter-name'), { target: { value: 'Mi' } });
    fireEvent.click(screen.getByTestId('template-filter-search'));
    await waitFor(() => expect(router.state.location.search).toBe('?name=Mi'));
    await waitFor(() =>
      expect(calls.some((c) => c.name === 'templatePage' && (c.data as { name?: string }).name === 'Mi')).toBe(true),
    );

    // Share one row: the dialog loads its three lists; checking East checks Shop too; submit refreshes.
    fireEvent.click(screen.getByTestId('template-share-Mine'));
    const dialog = await screen.findByTestId('permission-dialog');
    // The title names what is shared.
    expect(await screen.findByText('Data permission: Mine')).toBeTruthy();
    const east = await within(dialog).findByTestId('perm-dept-East');
    await waitFor(() =>
      expect(calls.map((c) => c.name)).toEqual(
        expect.arrayContaining(['permissionSubAccounts', 'permissionDeptTree', 'permissionAllocation']),
      ),
    );
    act(() => fireEvent.click(east));
    await within(dialog).findByTestId('perm-tag-Shop');
    fireEvent.click(within(dialog).getByTestId('permission-submit'));
    await waitFor(() =>
      expect(calls.find((c) => c.name === 'permissionRefresh')?.data).toEqual({
        refType: '9',
        refIds: ['id-Mine'],
        allocateInfos: [
          { id: 'd1', type: 1, deptDataType: 1 },
          { id: 'd2', type: 1, deptDataType: 1 },
        ],
      }),
    );
  });

  it('hides sharing without yxf_new_data_allocation', async () => {
    serve();
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.template] }));
    const { tree } = renderApp('/template');
    render(tree);
    await screen.findByTestId('template-row-Mine', {}, { timeout: 25_000 });
    expect(screen.queryByTestId('template-share')).toBeNull();
    expect(screen.queryByTestId('template-share-Mine')).toBeNull();
    expect(screen.queryByTestId('template-select-Mine')).toBeNull();
  });
  it('shows thumbnails, previews a layout, copies, deletes after confirming, and keeps default layouts unchanged', async () => {
    const doc = createEmptyLayout({ width: 1920, height: 1080 });
    doc.pages[0].components.push(createComponent('text', { id: 'hello', props: { content: 'Hello lobby' } }));
    const mine = { ...row('Mine', true), thumb: doc };
    const builtIn = { ...row('Built-in', true), isDefault: true };
    const calls = fakeServer({
      ...shellAnswers,
      templatePage: () => ({ code: 0, payload: { total: 2, data: [mine, builtIn] } }),
      templateInfo: () => ({
        code: 0,
        payload: { ...mine, version: 1, inUse: false, document: doc, materials: {}, thumb: undefined },
      }),
      templateCopy: () => ({ code: 0, payload: { id: 'copy-1' } }),
    });
    useSession.getState().setLogin(loginResponse({ permissionList: [Perm.adv, Perm.template, Perm.templateEdit] }));
    const { router, tree } = renderApp('/template');
    render(tree);
    await screen.findByTestId('template-row-Mine', {}, { timeout: 25_000 });
    // the thumbnail is the real renderer drawing the first page
    await waitFor(() => expect(document.querySelector('[data-component-id="hello"]')?.textContent).toBe('Hello lobby'));
    // a default layout is copied, never edited or deleted
    expect((screen.getByTestId('template-edit-Built-in') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('template-delete-Built-in') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('template-preview-Mine'));
    const preview = await screen.findByTestId('template-preview-page');
    expect(preview.textContent).toContain('1');
    await waitFor(() => expect(document.querySelectorAll('[data-component-id="hello"]').length).toBe(2));

    fireEvent.click(screen.getByTestId('template-copy-Mine'));
    await waitFor(() => expect(calls.find((c) => c.name === 'templateCopy')?.data).toEqual({ id: 'id-Mine' }));

    fireEvent.click(screen.getByTestId('template-delete-Mine'));
    expect(calls.some((c) => c.name === 'templateDelete')).toBe(false);
    expect(await screen.findByText('Delete the layout "Mine"? This cannot be undone.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(calls.find((c) => c.name === 'templateDelete')?.data).toEqual({ id: 'id-Mine' }));

    fireEvent.click(screen.getByTestId('template-create'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/template/new'));
  });
});
