import { Table, type TableProps } from 'antd';
import type { HTMLAttributes, ReactNode } from 'react';
import { ListEmpty } from './ListEmpty';
import { listPagination, type PageState } from './listState';

/** What the table needs of a list query (TanStack Query's result over a `{ data, total }` page). */
export interface ListQuery<T> {
  data?: { data: readonly T[]; total: number };
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

export type ListTableProps<T extends object> = Omit<TableProps<T>, 'dataSource' | 'pagination'> & {
  /** The list query: its rows, total, loading and failure. */
  query: ListQuery<T>;
  /** The page and size in the URL (useUrlListState). */
  state: PageState;
  /** The pagination's total text. */
  showTotal: (total: number) => string;
  /** The empty list's text (antd Empty); without it, `locale.emptyText` or antd's default. */
  empty?: string;
  /** The empty state's picture instead of antd's default one. */
  emptyImage?: ReactNode;
  /** When given, a failed load shows this text and a retry button instead of the empty text. */
  failed?: { description: string; retryLabel: string };
  /** The `data-testid` of each row. */
  rowTestId?: (row: T) => string;
};

/**
 * The table of a list page: the rows of the current page, loading while fetching (the
 * previous page stays visible), the empty and failed states and the shared pagination
 * written to the URL (guide convention 7). Any other Table prop passes through; `loading`,
 * `locale`, `rowKey` ("id") and `size` ("middle") given by the page win.
 */
export function ListTable<T extends object>({
  query,
  state,
  showTotal,
  empty,
  emptyImage,
  failed,
  rowTestId,
  onRow,
  ...table
}: ListTableProps<T>) {
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
  return (
    <Table<T>
      rowKey="id"
      size="middle"
      dataSource={query.data?.data ?? []}
      loading={query.isFetching}
      locale={emptyText === undefined ? undefined : { emptyText }}
      onRow={rowProps}
      pagination={listPagination(state, query.data?.total ?? 0, showTotal)}
      {...table}
    />
  );
}
