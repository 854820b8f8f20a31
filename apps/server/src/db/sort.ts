import type { SortOrder } from '@marquee/protocol';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/** What a list request says of its order (`sortFields` of the protocol). */
export interface SortRequest<K extends string> {
  sort?: K;
  order?: SortOrder;
}

/**
 * The ORDER BY of a list sorted by one of its columns (the table config's sortable props):
 * the requested column in the requested direction with empty values last either way, then
 * `tieBreak` so pages never overlap. Without a requested sort: `fallback`, the list's own
 * default order. The request schema has already limited `sort` to the keys of `columns`.
 */
export function listOrder<K extends string>(
  request: SortRequest<K> | null | undefined,
  columns: Record<K, AnyColumn | SQL>,
  tieBreak: AnyColumn | SQL,
  fallback: SQL[],
): SQL[] {
  const key = request?.sort;
  if (!key || !(key in columns)) return fallback;
  const column = columns[key];
  return request.order === 'desc'
    ? [sql`${column} desc nulls last`, sql`${tieBreak} desc`]
    : [sql`${column} asc nulls last`, sql`${tieBreak} asc`];
}

/**
 * A list's newest-first order as its index holds it: drizzle's `.desc()` index columns are
 * `desc nulls last`, and the tie-break `id` ascending (`index(...).on(entId, createdAt.desc(), id)`).
 * A plain `desc` means nulls first, which such an index does not serve: PostgreSQL then sorts
 * every row of the scope for one page.
 */
export function newestFirst(column: AnyColumn, tieBreak: AnyColumn): SQL[] {
  return [sql`${column} desc nulls last`, sql`${tieBreak} asc`];
}
