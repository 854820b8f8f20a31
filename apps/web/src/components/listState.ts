import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@marquee/protocol';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** The page of a list and how to move it (what the table's pagination needs). */
export interface PageState {
  page: number;
  size: number;
  update: (next: { page?: number; size?: number }) => void;
}

/**
 * List state kept in the URL (guide convention 7): page, size and the given filter keys,
 * read from and written to the query string (replace, so Back leaves the page instead of
 * stepping through searches). Page 1 and the default size (50 unless the list says
 * otherwise) are left out of the URL. Filter values are trimmed; a blank one is removed.
 * `applyFilters` and `clearFilters` are the filter bar's search and reset: both go to page 1.
 */
export function useUrlListState<K extends string>(keys: readonly K[], options?: { defaultSize?: number }) {
  const defaultSize = options?.defaultSize ?? DEFAULT_PAGE_SIZE;
  const [params, setParams] = useSearchParams();
  const pageRaw = Number(params.get('page'));
  const sizeRaw = Number(params.get('size'));
  const page = Number.isInteger(pageRaw) && pageRaw >= 1 ? pageRaw : 1;
  const size = (PAGE_SIZES as readonly number[]).includes(sizeRaw) ? sizeRaw : defaultSize;
  const filterKey = keys.map((k) => params.get(k) ?? '').join('\u0000');
  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey is the dependency that matters
  const filters = useMemo(() => {
    const out = {} as Record<K, string | undefined>;
    for (const k of keys) out[k] = params.get(k) || undefined;
    return out;
  }, [filterKey]);

  const update = useCallback(
    (next: { page?: number; size?: number; filters?: Partial<Record<K, string | undefined>> }) => {
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
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
  const applyFilters = useCallback(
    (next: Partial<Record<K, string | undefined>>) => update({ page: 1, filters: next }),
    [update],
  );
  const clearFilters = useCallback(() => update({ page: 1, filters: {} }), [update]);
  return { page, size, filters, update, applyFilters, clearFilters };
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
