import { type SQL, sql } from 'drizzle-orm';
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
 * through many rows the branch's other conditions drop.
 */
export interface MergeBranch {
  where: SQL;
  few?: boolean;
}

const direction = (k: MergeKey) => sql.raw(`${k.desc ? 'desc' : 'asc'} nulls ${k.nullsFirst ? 'first' : 'last'}`);
const alias = (prefix: string, i: number) => sql.raw(`${prefix}k${i}`);

/** The ids of a page, in the keys' order, from the union of the branches (a subquery for `id in (...)`). */
export function mergedPageIds(
  table: PgTable,
  id: AnyPgColumn,
  keys: readonly MergeKey[],
  branches: readonly MergeBranch[],
  page: number,
  size: number,
): SQL {
  const end = page * size;
  const columns = sql.join(
    keys.map((k, i) => sql`${k.column} as ${alias('', i)}`),
    sql`, `,
  );
  const orderOf = (prefix: string) =>
    sql.join(
      keys.map((k, i) => sql`${alias(prefix, i)} ${direction(k)}`),
      sql`, `,
    );
  const direct = sql.join(
    keys.map((k) => sql`${k.column} ${direction(k)}`),
    sql`, `,
  );
  const branch = (b: MergeBranch) =>
    b.few
      ? sql`(select f.* from (select ${id} as id, ${columns} from ${table} where ${b.where} offset 0) as f order by ${orderOf('f.')} limit ${end})`
      : sql`(select ${id} as id, ${columns} from ${table} where ${b.where} order by ${direct} limit ${end})`;
  return sql`select u.id from (${sql.join(branches.map(branch), sql` union all `)}) as u order by ${orderOf('u.')} limit ${size} offset ${(page - 1) * size}`;
}

/**
 * The rows of the union bounded by `cap` + 1, as a FROM item (`select count(*) from ...`): an
 * Append of the branches, unordered, that stops at cap + 1 rows.
 */
export function mergedUpTo(table: PgTable, id: AnyPgColumn, branches: readonly MergeBranch[], cap: number): SQL {
  const union = sql.join(
    branches.map((b) => sql`(select ${id} as id from ${table} where ${b.where})`),
    sql` union all `,
  );
  return sql`(select 1 from (${union}) as u limit ${cap + 1}) as up_to`;
}
