import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { type ListQuery, ListTable } from '../src/components/ListTable';
import { useUrlListState } from '../src/components/listState';
import {
  allowedOperations,
  columnStorageKey,
  estimateTextWidth,
  formatThousands,
  isColumnShown,
  loadColumnOverrides,
  operationsWidth,
  rowOperations,
  saveColumnOverrides,
  type TableColumn,
  type TableConfig,
  type TableOperation,
  tableScrollX,
  withColumnShown,
} from '../src/components/tableConfig';
import { useSession } from '../src/session/session';
import { setUpConsoleTests } from './harness';

vi.setConfig({ testTimeout: 30_000 });
setUpConsoleTests({ asyncUtilTimeout: 8000 });

interface Row {
  id: string;
  name: string;
  status: 'on' | 'off';
  plays: number;
  note: string;
}

const COLUMNS: TableColumn<Row>[] = [
  { prop: 'name', label: 'Name', width: 160, sortable: true },
  { prop: 'status', label: 'Status', width: 100 },
  { prop: 'plays', label: 'Plays', width: 120, showThousands: true, sortable: true },
  { prop: 'note', label: 'Note', show: false },
];

describe('table config rules (pure)', () => {
  it('shows the defaults, keeps the first column, and stores only what differs from them', () => {
    expect(COLUMNS.map((c) => isColumnShown(COLUMNS, c.prop, {}))).toEqual([true, true, true, false]);
    let o = withColumnShown(COLUMNS, {}, 'status', false);
    expect(o).toEqual({ status: false });
    o = withColumnShown(COLUMNS, o, 'note', true);
    expect(o).toEqual({ status: false, note: true });
    // Back to the default: the entry goes, so a later change of the default reaches this user.
    expect(withColumnShown(COLUMNS, o, 'status', true)).toEqual({ note: true });
    // The first column cannot be hidden.
    expect(withColumnShown(COLUMNS, {}, 'name', false)).toEqual({});
    expect(isColumnShown(COLUMNS, 'name', { name: false })).toBe(true);
  });

  it('persists per account and per table; reset removes the entry; junk reads as none', () => {
    localStorage.clear();
    saveColumnOverrides('acc-1', 'devices', { status: false });
    expect(loadColumnOverrides('acc-1', 'devices')).toEqual({ status: false });
    expect(loadColumnOverrides('acc-2', 'devices')).toEqual({});
    expect(loadColumnOverrides('acc-1', 'accounts')).toEqual({});
    saveColumnOverrides('acc-1', 'devices', {});
    expect(localStorage.getItem(columnStorageKey('acc-1', 'devices'))).toBeNull();
    localStorage.setItem(columnStorageKey('acc-1', 'x'), '{"a":true,"b":"yes"}');
    expect(loadColumnOverrides('acc-1', 'x')).toEqual({ a: true });
    localStorage.setItem(columnStorageKey('acc-1', 'y'), 'not json');
    expect(loadColumnOverrides('acc-1', 'y')).toEqual({});
  });

  it('formats thousands by locale', () => {
    expect(formatThousands(1234567, 'en-US')).toBe('1,234,567');
    expect(formatThousands(1234567, 'zh-CN')).toBe('1,234,567');
    expect(formatThousands(1234567, 'ja')).toBe('1,234,567');
    expect(formatThousands(1234567.5, 'de-DE')).toBe('1.234.567,5');
    expect(formatThousands('9876', 'en-US')).toBe('9,876');
    expect(formatThousands(null, 'en-US')).toBe('-');
    expect(formatThousands('n/a', 'en-US')).toBe('n/a');
  });

  it('offers operations by authCode and monitor flag, per row by isShow', () => {
    const ops: TableOperation<Row>[] = [
      { key: 'view', label: 'View', handler: () => undefined },
      { key: 'edit', label: 'Edit', authCode: 'code_edit', handler: () => undefined },
      { key: 'stop', label: 'Stop', isShow: (r) => r.status === 'on', handler: () => undefined },
      { key: 'export', label: 'Export', notForMonitor: true, handler: () => undefined },
    ];
    const can = (code?: string | null) => !code || code === 'code_edit';
    expect(allowedOperations(ops, can, false).map((o) => o.key)).toEqual(['view', 'edit', 'stop', 'export']);
    expect(allowedOperations(ops, () => false, true).map((o) => o.key)).toEqual(['view', 'stop']);
    const off: Row = { id: '1', name: 'a', status: 'off', plays: 0, note: '' };
    expect(rowOperations(ops, off).map((o) => o.key)).toEqual(['view', 'edit', 'export']);
  });

  it('sizes the operations column to its widest row, CJK labels wider than Latin, and the scroll width', () => {
    const measure = (s: string) => estimateTextWidth(s);
    expect(estimateTextWidth('重置密码')).toBe(56);
    expect(estimateTextWidth('Reset password')).toBeLessThan(estimateTextWidth('パスワードをリセット'));
    const ops: TableOperation<Row>[] = [
      { key: 'edit', label: 'Edit', handler: () => undefined },
      { key: 'stop', label: 'Stop', isShow: (r) => r.status === 'on', handler: () => undefined },
      { key: 'start', label: 'Start now', isShow: (r) => r.status === 'off', handler: () => undefined },
    ];
    const on: Row = { id: '1', name: 'a', status: 'on', plays: 0, note: '' };
    const off: Row = { ...on, status: 'off' };
    const both = operationsWidth(ops, [on, off], 'Actions', measure);
    expect(both).toBe(operationsWidth(ops, [off], 'Actions', measure));
    expect(both).toBeGreaterThan(operationsWidth(ops, [on], 'Actions', measure));
    // Without rows: the operations without isShow plus the widest alternative.
    expect(operationsWidth(ops, [], 'Actions', measure)).toBe(both);
    expect(tableScrollX(COLUMNS.slice(0, 2), { selection: true, operations: 100 })).toBe(160 + 100 + 48 + 100);
    expect(tableScrollX([COLUMNS[3]], {})).toBe(160);
  });
});

const rows: Row[] = [
  { id: '1', name: 'Alpha', status: 'on', plays: 1234567, note: 'n1' },
  { id: '2', name: 'Beta', status: 'off', plays: 42, note: 'n2' },
];
const query: ListQuery<Row> = {
  data: { data: rows, total: 2 },
  isFetching: false,
  isError: false,
  refetch: () => undefined,
};
const SORT_KEYS = ['name', 'plays'] as const;
const handled: string[] = [];

function renderTable(initial = '/list') {
  function Page() {
    const state = useUrlListState([] as const, { sortKeys: SORT_KEYS });
    const config: TableConfig<Row> = {
      id: 'demo',
      columns: COLUMNS,
      operations: [
        { key: 'edit', label: 'Edit', handler: (r) => handled.push(`edit ${r.name}`), testId: (r) => `edit-${r.name}` },
        {
          key: 'delete',
          label: 'Delete',
          authCode: 'demo_manage',
          handler: () => undefined,
          testId: (r) => `delete-${r.name}`,
        },
        {
          key: 'stop',
          label: 'Stop',
          isShow: (r) => r.status === 'on',
          handler: () => undefined,
          testId: (r) => `stop-${r.name}`,
        },
      ],
    };
    return (
      <>
        <span data-testid="request">{JSON.stringify(state.pageRequest)}</span>
        <ListTable<Row>
          config={config}
          query={query}
          state={state}
          rowTestId={(r) => `row-${r.name}`}
          showTotal={(total) => `${total} in total`}
        />
      </>
    );
  }
  const router = createMemoryRouter([{ path: '/list', element: <Page /> }], { initialEntries: [initial] });
  const view = render(
    <App>
      <RouterProvider router={router} />
    </App>,
  );
  return { router, view };
}

const headers = () => [...document.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent ?? '');

describe('ListTable from a table config', () => {
  it('renders shown columns, thousands, operations by code and isShow, and remembers hidden columns per account', async () => {
    localStorage.clear();
    useSession.setState({ id: 'acc-1', permissionList: [] });
    const first = renderTable();
    await screen.findByTestId('row-Alpha');
    expect(headers()).toEqual(expect.arrayContaining(['Name', 'Status', 'Plays', 'Actions']));
    expect(headers()).not.toContain('Note');
    expect(within(screen.getByTestId('row-Alpha')).getByText('1,234,567')).toBeTruthy();
    // No 'demo_manage': no delete anywhere; 'stop' only on the row it applies to.
    expect(screen.queryByTestId('delete-Alpha')).toBeNull();
    expect(screen.getByTestId('stop-Alpha')).toBeTruthy();
    expect(screen.queryByTestId('stop-Beta')).toBeNull();
    fireEvent.click(screen.getByTestId('edit-Beta'));
    expect(handled).toContain('edit Beta');

    // Hide 'Status' and show 'Note' in the column settings.
    fireEvent.click(screen.getByTestId('columns-demo'));
    const panel = await screen.findByTestId('columns-panel-demo');
    expect((within(panel).getByTestId('column-toggle-name') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(panel).getByTestId('column-toggle-status'));
    fireEvent.click(within(panel).getByTestId('column-toggle-note'));
    await waitFor(() => expect(headers()).not.toContain('Status'));
    expect(headers()).toContain('Note');
    expect(JSON.parse(localStorage.getItem(columnStorageKey('acc-1', 'demo')) ?? '{}')).toEqual({
      status: false,
      note: true,
    });
    first.view.unmount();

    // Mounted again (a reload): the same choice.
    const second = renderTable();
    await screen.findByTestId('row-Alpha');
    expect(headers()).not.toContain('Status');
    expect(headers()).toContain('Note');
    second.view.unmount();

    // Another account on this browser: the defaults; with the code, the delete shows.
    act(() => useSession.setState({ id: 'acc-2', permissionList: ['demo_manage'] }));
    const third = renderTable();
    await screen.findByTestId('row-Alpha');
    expect(headers()).toContain('Status');
    expect(headers()).not.toContain('Note');
    expect(screen.getByTestId('delete-Alpha')).toBeTruthy();
    third.view.unmount();

    // Reset brings back the defaults for acc-1.
    act(() => useSession.setState({ id: 'acc-1', permissionList: [] }));
    renderTable();
    await screen.findByTestId('row-Alpha');
    fireEvent.click(screen.getByTestId('columns-demo'));
    fireEvent.click(await screen.findByTestId('columns-reset-demo'));
    await waitFor(() => expect(headers()).toContain('Status'));
    expect(localStorage.getItem(columnStorageKey('acc-1', 'demo'))).toBeNull();
  });

  it('keeps the sort in the URL, ignores keys the list does not sort by, and sends it with the page', async () => {
    localStorage.clear();
    useSession.setState({ id: 'acc-1', permissionList: [] });
    const { router } = renderTable('/list?sort=plays&order=desc&page=2');
    await screen.findByTestId('row-Alpha');
    const plays = [...document.querySelectorAll('.ant-table-thead th')].find((th) => th.textContent === 'Plays');
    expect(plays?.getAttribute('aria-sort')).toBe('descending');
    expect(JSON.parse(screen.getByTestId('request').textContent ?? '')).toEqual({
      page: 2,
      size: 50,
      sort: 'plays',
      order: 'desc',
    });

    // Clicking another sortable header sorts by it, ascending, from page 1.
    const name = [...document.querySelectorAll('.ant-table-thead th')].find((th) => th.textContent === 'Name');
    fireEvent.click(name as Element);
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&order=asc'));
    fireEvent.click(name as Element);
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&order=desc'));
    // A third click goes back to the list's own order.
    fireEvent.click(name as Element);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    // Not sortable: no sorter.
    const status = [...document.querySelectorAll('.ant-table-thead th')].find((th) => th.textContent === 'Status');
    expect(status?.classList.contains('ant-table-column-has-sorters')).toBe(false);

    await act(() => router.navigate('/list?sort=status&order=desc'));
    await waitFor(() =>
      expect(JSON.parse(screen.getByTestId('request').textContent ?? '')).toEqual({ page: 1, size: 50 }),
    );
  });
});
