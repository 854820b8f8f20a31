import type { Placeholder, SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * The merged plan of a list page (issues 9 and 10). A list whose visible rows are the union
 * of disjoint branches, each of which an index holds in the list's order (one department's
 * rows, one folder's), reads each branch in that order bounded by the page's end; under the
 * outer ORDER BY ... LIMIT the UNION ALL is a Merge Append, so PostgreSQL reads about
 * offset + size rows whatever the scope's size, instead of every visible row and a sort (a
 * bitmap of the scope) or the enterprise's newest rows until enough of them are visible (a
 * walk of the tenant's index).
 */

/** One key of the list's order, written exactly as the branches' index holds it. */
export interface MergeKey {
  column: AnyPgColumn;
  desc: boolean;
  nullsFirst: boolean;
}

/**
 * A branch: disjoint from the others. `few`: its rows are few and found by an index of their
 * own (the caller's own rows outside the covered departments, the rows shared with it), so it
 * is read whole and then sorted: `offset 0` keeps PostgreSQL from walking an ordered index
 * through many rows the branch's other conditions drop. A list of conditions is one such
 * branch made of disjoint parts (the ranges of the caller's own rows between its
 * departments): one sort of their union instead of a sorted input per part, which halves
 * the planning and the merge of a region's list.
 */
export interface MergeBranch {
  where: SQL | readonly SQL[];
  few?: boolean;
  /** Another table holding the list's rows (a tag's rows of device_tags); by default the list's. */
  from?: MergeSource;
}

/** A table a branch reads: the list row's id in it, and the keys' columns (in the keys' order). */
export interface MergeSource {
  table: PgTable;
  id: AnyPgColumn;
  columns: readonly AnyPgColumn[];
}

/**
 * The rows of the page: the union's first `end` rows bound each branch, and the page is
 * `size` rows after `offset`. Numbers, or placeholders of a statement prepared once for every
 * page (filled when it runs).
 */
export interface PageWindow {
  end: number | Placeholder;
  size: number | Placeholder;
  offset: number | Placeholder;
}

/** The window of page `page` (from 1) of `size` rows. */
export const pageWindow = (page: number, size: number): PageWindow => ({
  end: page * size,
  size,
  offset: (page - 1) * size,
});

const direction = (k: MergeKey) => sql.raw(`${k.desc ? 'desc' : 'asc'} nulls ${k.nullsFirst ? 'first' : 'last'}`);
const alias = (prefix: string, i: number) => sql.raw(`${prefix}k${i}`);

/** The ids of a page, in the keys' order, from the union of the branches (a subquery for `id in (...)`). */
export function mergedPageIds(
  table: PgTable,
  id: AnyPgColumn,
  keys: readonly MergeKey[],
  branches: readonly MergeBranch[],
  window: PageWindow,
): SQL {
  const { end, size, offset } = window;
  const own: MergeSource = { table, id, columns: keys.map((k) => k.column) };
  const orderOf = (prefix: string) =>
    sql.join(
      keys.map((k, i) => sql`${alias(prefix, i)} ${direction(k)}`),
      sql`, `,
    );
  const select = (where: SQL, src: MergeSource) =>
    sql`select ${src.id} as id, ${sql.join(
      src.columns.map((c, i) => sql`${c} as ${alias('', i)}`),
      sql`, `,
    )} from ${src.table} where ${where}`;
  const branch = (b: MergeBranch) => {
    const src = b.from ?? own;
    if (Array.isArray(b.where)) {
      const parts = sql.join(
        (b.where as readonly SQL[]).map((w) => sql`(${select(w, src)} offset 0)`),
        sql` union all `,
      );
      return sql`(select f.* from (${parts}) as f order by ${orderOf('f.')} limit ${end})`;
    }
    const where = b.where as SQL;
    const direct = sql.join(
      keys.map((k, i) => sql`${src.columns[i]} ${direction(k)}`),
      sql`, `,
    );
    return b.few
      ? sql`(select f.* from (${select(where, src)} offset 0) as f order by ${orderOf('f.')} limit ${end})`
      : sql`(${select(where, src)} order by ${direct} limit ${end})`;
  };
  return sql`select u.id from (${sql.join(branches.map(branch), sql` union all `)}) as u order by ${orderOf('u.')} limit ${size} offset ${offset}`;
}

/**
 * The rows of the union bounded by `cap` + 1, as a FROM item (`select count(*) from ...`): an
 * Append of the branches, unordered, that stops at cap + 1 rows.
 */
export function mergedUpTo(table: PgTable, id: AnyPgColumn, branches: readonly MergeBranch[], cap: number): SQL {
  const union = sql.join(
    branches.flatMap((b) =>
      (Array.isArray(b.where) ? (b.where as readonly SQL[]) : [b.where as SQL]).map(
        (where) => sql`(select ${b.from?.id ?? id} as id from ${b.from?.table ?? table} where ${where})`,
      ),
    ),
    sql` union all `,
  );
  return sql`(select 1 from (${union}) as u limit ${cap + 1}) as up_to`;
}
