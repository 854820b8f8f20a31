import { Button, Space, Table, type TableProps, Tooltip, theme } from 'antd';
import type { ColumnType, SorterResult } from 'antd/es/table/interface';
import { type HTMLAttributes, type ReactNode, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../session/useCan';
import { ColumnSettings, useColumnOverrides } from './ColumnSettings';
import { ConfirmAction } from './ConfirmAction';
import { ListEmpty } from './ListEmpty';
import { listPagination, type PageState } from './listState';
import { useIsMonitor } from './MonitorGuard';
import {
  allowedOperations,
  columnWidth,
  formatThousands,
  operationsWidth,
  rowOperations,
  SELECTION_COLUMN_WIDTH,
  shownColumns,
  type TableConfig,
  type TableOperation,
  tableScrollX,
  textMeasure,
} from './tableConfig';
import './listTable.css';

/**
 * What the table needs of a list query (TanStack Query's result over a `{ data, total }` page;
 * `totalCapped`: the server stopped counting at `total` and more rows match).
 */
export interface ListQuery<T> {
  data?: { data: readonly T[]; total: number; totalCapped?: boolean };
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

export type ListTableProps<T extends object> = Omit<TableProps<T>, 'dataSource' | 'pagination' | 'columns'> & {
  /** The table config (spec section 3): columns, row operations, the id of the user's column choice. */
  config: TableConfig<T>;
  /** The list query: its rows, total, loading and failure. */
  query: ListQuery<T>;
  /** The page, size and sort in the URL (useUrlListState). */
  state: PageState;
  /** The pagination's total text; `capped`: more than `total` match (the server's count stopped there). */
  showTotal: (total: number, capped: boolean) => string;
  /** The page's buttons for the list (add, batch actions), left of the column settings. */
  toolbar?: ReactNode;
  /** The empty list's text (antd Empty); without it, `locale.emptyText` or antd's default. */
  empty?: string;
  /** The empty state's picture instead of antd's default one. */
  emptyImage?: ReactNode;
  /** When given, a failed load shows this text and a retry button instead of the empty text. */
  failed?: { description: string; retryLabel: string };
  /** The `data-testid` of each row. */
  rowTestId?: (row: T) => string;
};

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';

/** The shell's scrolling content area (MainLayout's <main>), or the window outside the shell. */
const STICKY = {
  getContainer: (): HTMLElement | Window => document.querySelector<HTMLElement>('.mq-content') ?? window,
};

/**
 * The table of a list page, rendered from its table config (spec section 3): the columns
 * the user chose to show (column settings, remembered per account), sorters on sortable
 * columns kept in the URL, numbers with thousands separators, and the row operations the
 * user may use (authCode) that apply to the row (isShow). Layout rule: the table is as wide
 * as its columns (scroll.x) and scrolls horizontally when the page is narrower, with the
 * first column and the operations column fixed, so a fixed column never covers another;
 * the operations column is as wide as its widest row of buttons in the current language.
 * Also: loading while fetching (the previous page stays visible), the empty and failed
 * states and the shared pagination written to the URL (guide convention 7). Any other
 * Table prop passes through; `loading`, `locale`, `rowKey` ("id") and `size` ("middle")
 * given by the page win.
 */
export function ListTable<T extends object>({
  config,
  query,
  state,
  showTotal,
  toolbar,
  empty,
  emptyImage,
  failed,
  rowTestId,
  onRow,
  rowSelection,
  ...table
}: ListTableProps<T>) {
  const { t, i18n } = useTranslation(['table', 'common']);
  const { token } = theme.useToken();
  const can = useCan();
  const isMonitor = useIsMonitor();
  const { overrides, setShown, reset } = useColumnOverrides(config.id, config.columns);
  const rows = query.data?.data ?? [];
  const locale = i18n.language;

  const measure = useMemo(
    () => textMeasure(`${token.fontSize}px ${token.fontFamily}`, token.fontSize),
    [token.fontSize, token.fontFamily],
  );
  // Widths in the current language: a header never wraps under its sorter.
  const shown = shownColumns(config.columns, overrides).map((c) => ({ ...c, width: columnWidth(c, measure) }));
  const allowed = useMemo(
    () => allowedOperations(config.operations, can, isMonitor),
    [config.operations, can, isMonitor],
  );
  const operationsTitle = config.operationsLabel ?? t('table:actions');
  const opsWidth = allowed.length > 0 ? operationsWidth(allowed, rows, operationsTitle, measure) : 0;

  const columns = shown.map((column, index): ColumnType<T> => {
    const sortable = Boolean(column.sortable && state.setSort);
    return {
      key: column.prop,
      dataIndex: column.prop,
      title: column.label,
      width: column.width,
      align: column.align ?? (column.showThousands ? 'right' : undefined),
      ellipsis: column.ellipsis,
      fixed: index === 0 ? 'left' : undefined,
      sorter: sortable,
      sortOrder: !sortable
        ? undefined
        : state.sort?.key === column.prop
          ? state.sort.order === 'asc'
            ? 'ascend'
            : 'descend'
          : null,
      render: (value: unknown, row: T) => {
        if (column.slot) return column.slot(value as never, row);
        if (column.showThousands) return formatThousands(value, locale);
        return isEmpty(value) ? '-' : (value as ReactNode);
      },
    };
  });
  if (allowed.length > 0) {
    columns.push({
      key: 'actions',
      title: operationsTitle,
      width: opsWidth,
      fixed: 'right',
      render: (_: unknown, row: T) => (
        <Space size={0} className="mq-row-actions">
          {rowOperations(allowed, row).map((op) => (
            <OperationButton key={op.key} op={op} row={row} cancelText={t('common:action.cancel')} />
          ))}
        </Space>
      ),
    });
  }
  const scrollX = tableScrollX(shown, { selection: Boolean(rowSelection), operations: opsWidth });

  const emptyText =
    empty === undefined ? undefined : (
      <ListEmpty
        description={empty}
        image={emptyImage}
        failed={failed && query.isError && { ...failed, onRetry: () => query.refetch() }}
      />
    );
  const rowProps = rowTestId
    ? (row: T, index?: number) => {
        const props: HTMLAttributes<HTMLElement> & { 'data-testid': string } = {
          ...onRow?.(row, index),
          'data-testid': rowTestId(row),
        };
        return props;
      }
    : onRow;
  const onChange: TableProps<T>['onChange'] = (_p, _f, sorter, extra) => {
    if (extra.action !== 'sort' || !state.setSort) return;
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const key = s?.columnKey === undefined ? undefined : String(s.columnKey);
    state.setSort(key && s?.order ? { key, order: s.order === 'ascend' ? 'asc' : 'desc' } : undefined);
  };
  // A table wider than the page scrolls in its own region: keyboard users reach it with Tab
  // and scroll it with the arrow keys (WCAG 2.1.1; axe scrollable-region-focusable).
  const wrapper = useRef<HTMLDivElement>(null);
  const regionLabel = t('table:scrollRegion');
  useEffect(() => {
    for (const el of wrapper.current?.querySelectorAll<HTMLElement>('.ant-table-body, .ant-table-content') ?? []) {
      el.tabIndex = 0;
      el.setAttribute('role', 'region');
      el.setAttribute('aria-label', regionLabel);
    }
    // The hidden row antd measures column widths with repeats the headers, the selection's
    // "select all" checkbox too: keep its copy out of the tab order (axe aria-hidden-focus).
    for (const el of wrapper.current?.querySelectorAll<HTMLElement>(
      '.ant-table-measure-row input, .ant-table-measure-row button',
    ) ?? []) {
      el.tabIndex = -1;
    }
  });
  return (
    <div ref={wrapper} className="mq-list-table">
      <div className="mq-list-tools">
        <div className="mq-list-tools-main">{toolbar}</div>
        <ColumnSettings
          tableId={config.id}
          columns={config.columns}
          overrides={overrides}
          onShownChange={setShown}
          onReset={reset}
        />
      </div>
      <Table<T>
        rowKey="id"
        size="middle"
        dataSource={rows as T[]}
        loading={query.isFetching}
        locale={emptyText === undefined ? undefined : { emptyText }}
        onRow={rowProps}
        columns={columns}
        scroll={{ x: scrollX }}
        // The header and the horizontal scrollbar stay in view while the page scrolls, so a
        // wide table shows that it scrolls even when its bottom is below the fold.
        sticky={STICKY}
        rowSelection={rowSelection && { fixed: true, columnWidth: SELECTION_COLUMN_WIDTH, ...rowSelection }}
        showSorterTooltip={false}
        onChange={onChange}
        pagination={listPagination(state, query.data?.total ?? 0, (total) =>
          showTotal(total, query.data?.totalCapped === true),
        )}
        {...table}
      />
    </div>
  );
}

/** One row operation: a small link button, asking first when the operation says so. */
function OperationButton<T>({ op, row, cancelText }: { op: TableOperation<T>; row: T; cancelText: string }) {
  const disabled = op.disabled?.(row) ?? false;
  const testId = op.testId?.(row);
  if (op.confirm && !disabled) {
    const { title, description } = op.confirm(row);
    return (
      <ConfirmAction
        label={op.label}
        title={title}
        description={description}
        cancelText={cancelText}
        danger={op.danger}
        testId={testId ?? op.key}
        onConfirm={async () => op.handler(row)}
      />
    );
  }
  const button = (
    <Button
      type="link"
      size="small"
      danger={op.danger}
      icon={op.icon}
      disabled={Boolean(disabled)}
      onClick={() => void op.handler(row)}
      data-testid={testId}
    >
      {op.label}
    </Button>
  );
  return typeof disabled === 'string' ? <Tooltip title={disabled}>{button}</Tooltip> : button;
}
