import { DEFAULT_PAGE_SIZE, PAGE_SIZES, SORT_ORDERS, type SortOrder } from '@marquee/protocol';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';

/** A list sorted by one column: its prop (the table config's) and direction. */
export interface ListSort<S extends string = string> {
  key: S;
  order: SortOrder;
}

/** The page of a list and how to move it (what the table's pagination and sorters need). */
export interface PageState {
  page: number;
  size: number;
  update: (next: { page?: number; size?: number }) => void;
  /** The sort in the URL, when the list sorts (useUrlListState's `sortKeys`). */
  sort?: ListSort;
  /** Sorts by a column (none: the list's default order), from page 1. */
  setSort?: (sort: ListSort | undefined) => void;
}

/**
 * List state kept in the URL (guide convention 7): page, size, the sort and the given
 * filter keys, read from and written to the query string (replace, so Back leaves the page
 * instead of stepping through searches). Page 1, the default size (50 unless the list says
 * otherwise) and the default order are left out of the URL. Filter values are trimmed; a
 * blank one is removed. `applyFilters` and `clearFilters` are the filter bar's search and
 * reset: both go to page 1 and keep the sort. The sort (`sort=<prop>&order=asc|desc`) is
 * read only for the list's `sortKeys` (the props its endpoint sorts by); `pageRequest` is
 * the page, size and sort as the list endpoint takes them. `round` counts the Searches and
 * Resets: a list puts it in its query's key, so Search and Reset always fetch again, even with
 * the filters already shown (issue 25: the cache answered them), while `keepPreviousData`
 * keeps the rows shown until the new ones arrive.
 */
export function useUrlListState<K extends string, S extends string = never>(
  keys: readonly K[],
  options?: { defaultSize?: number; sortKeys?: readonly S[] },
) {
  const defaultSize = options?.defaultSize ?? DEFAULT_PAGE_SIZE;
  const sortKeys = options?.sortKeys;
  const [params, setParams] = useSearchParams();
  const pageRaw = Number(params.get('page'));
  const sizeRaw = Number(params.get('size'));
  const page = Number.isInteger(pageRaw) && pageRaw >= 1 ? pageRaw : 1;
  const size = (PAGE_SIZES as readonly number[]).includes(sizeRaw) ? sizeRaw : defaultSize;
  const sortRaw = params.get('sort');
  const orderRaw = params.get('order');
  const sortKey = sortKeys?.find((k) => k === sortRaw);
  const sortOrder: SortOrder = (SORT_ORDERS as readonly string[]).includes(orderRaw ?? '')
    ? (orderRaw as SortOrder)
    : 'asc';
  const sort = useMemo<ListSort<S> | undefined>(
    () => (sortKey ? { key: sortKey, order: sortOrder } : undefined),
    [sortKey, sortOrder],
  );
  const filterKey = keys.map((k) => params.get(k) ?? '').join('\u0000');
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey is the dependency that matters
  const filters = useMemo(() => {
    const out = {} as Record<K, string | undefined>;
    for (const k of keys) out[k] = params.get(k) || undefined;
    return out;
  }, [filterKey]);

  const update = useCallback(
    (next: {
      page?: number;
      size?: number;
      filters?: Partial<Record<K, string | undefined>>;
      /** null: back to the default order. */
      sort?: ListSort<S> | null;
    }) => {
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          if (next.sort !== undefined) {
            if (next.sort) {
              out.set('sort', next.sort.key);
              out.set('order', next.sort.order);
            } else {
              out.delete('sort');
              out.delete('order');
            }
          }
          if (next.filters) {
            for (const k of keys) {
              const v = next.filters[k]?.trim();
              if (v) out.set(k, v);
              else out.delete(k);
            }
          }
          const p = next.page ?? page;
          const s = next.size ?? size;
          if (p > 1) out.set('page', String(p));
          else out.delete('page');
          if (s !== defaultSize) out.set('size', String(s));
          else out.delete('size');
          return out;
        },
        { replace: true },
      );
    },
    [keys, page, size, defaultSize, setParams],
  );
  const [round, setRound] = useState(0);
  const applyFilters = useCallback(
    (next: Partial<Record<K, string | undefined>>) => {
      setRound((r) => r + 1);
      update({ page: 1, filters: next });
    },
    [update],
  );
  const clearFilters = useCallback(() => {
    setRound((r) => r + 1);
    update({ page: 1, filters: {} });
  }, [update]);
  const setSort = useCallback(
    (next: ListSort | undefined) =>
      update({ page: 1, sort: next && sortKeys?.includes(next.key as S) ? (next as ListSort<S>) : null }),
    [update, sortKeys],
  );
  const pageRequest = useMemo(
    () => ({ page, size, ...(sort ? { sort: sort.key, order: sort.order } : {}) }) as PageRequest<S>,
    [page, size, sort],
  );
  return {
    page,
    size,
    filters,
    update,
    applyFilters,
    clearFilters,
    sort,
    setSort: sortKeys ? setSort : undefined,
    pageRequest,
    round,
  };
}

/** The page, size and sort of a list request (the endpoint's pageSchema and sortFields). */
export interface PageRequest<S extends string> {
  page: number;
  size: number;
  sort?: S;
  order?: SortOrder;
}

/**
 * Table pagination of every list (spec section 9): sizes 10/20/50/100/500, total, jumper.
 * Changing the page size goes back to page 1; both live in the URL through `update`.
 */
export function listPagination(state: PageState, total: number, showTotal: (total: number) => string) {
  const { page, size, update } = state;
  return {
    current: page,
    pageSize: size,
    total,
    pageSizeOptions: PAGE_SIZES.map(String),
    showSizeChanger: true,
    showQuickJumper: true,
    showTotal,
    onChange: (p: number, s: number) => update({ page: s !== size ? 1 : p, size: s }),
  };
}
