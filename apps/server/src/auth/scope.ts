import { and, eq, gt, inArray, isNull, like, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { allocations, departments } from '../db/schema/index.js';
import type { Principal } from './principal.js';

/**
 * Data scope (guide convention 3): every repository query of a scoped object starts from the
 * caller's enterprise and data scope, plus what was shared with the caller. A module passes
 * its table's columns to `scopeWhere`; nothing else decides what a caller may read.
 *
 *   visible(row) = row.ent_id = caller.ent
 *                  and ( caller is the enterprise administrator                      -- 'all'
 *                        or row.owner_id = caller.account                            -- own rows, every scope
 *                        or row.dept_id = caller.dept                                -- 'dept_only'
 *                        or row.dept_id in subtree(caller.dept)                      -- 'dept_and_below'
 *                        or shared(row) )                                            -- allocations
 *
 *   shared(row)  = an allocation of (refType, row.id) -- or of (containerType, row.container) --
 *                  in the caller's enterprise whose target is
 *                    the caller's account                                   (target_type 2), or
 *                    the caller's current department                        (target_type 1, dept_data_type 2), or
 *                    the caller's current department or any ancestor of it  (target_type 1, dept_data_type 1).
 *
 * "Department" is always the caller's current department (the header's department switch),
 * the same one the role's data scope applies to.
 */

/** The columns of a table that data scope filters on. */
export interface ScopedColumns {
  /** The tenant column; every query starts from it. */
  entId: AnyPgColumn;
  /** The department the row belongs to (for the department scopes). */
  deptId?: AnyPgColumn;
  /** The account that owns the row (for "self", and as a fallback). */
  ownerId?: AnyPgColumn;
  /** The object's ref-type and id column: what was shared with the caller is visible too. */
  share?: ShareColumns;
}

export interface ShareColumns {
  refType: string;
  id: AnyPgColumn;
  /** Containers whose allocations the row inherits (e.g. a material's folder). */
  containers?: readonly { refType: string; id: AnyPgColumn }[];
}

export type ScopeSubject = Pick<Principal, 'entId' | 'accountId' | 'deptId' | 'deptPath' | 'dataScope'>;

/** The scope fields of a principal alone, as a plain object: what an export job keeps to read as its caller would. */
export function scopeSubjectOf(principal: ScopeSubject): ScopeSubject {
  const { entId, accountId, deptId, deptPath, dataScope } = principal;
  return { entId, accountId, deptId, deptPath, dataScope };
}

/** Only the caller's enterprise: the first condition of every tenant query. */
export function tenantWhere(principal: Pick<Principal, 'entId'>, entId: AnyPgColumn): SQL {
  return eq(entId, principal.entId);
}

/** Ids of a department and all departments below it, as a subquery. */
export function deptSubtreeIds(entId: string, deptPath: string) {
  return sql`(select ${departments.id} from ${departments} where ${and(
    eq(departments.entId, entId),
    like(departments.path, `${deptPath}%`),
  )})`;
}

/**
 * `column = any(array(<subquery>))`: unlike `in (subquery)`, PostgreSQL runs the subquery
 * once (an InitPlan) and can use the array as an index condition, so the branches of a
 * scope (department, owner, shared) combine as a BitmapOr of index scans instead of a
 * filter over the whole enterprise.
 */
function anyOf(column: AnyPgColumn, arraySubquery: SQL): SQL {
  return sql`${column} = any(array(${arraySubquery}))`;
}

/** `column` is in the subtree of a department (by materialized path). */
export function inDeptSubtree(column: AnyPgColumn, entId: string, deptPath: string): SQL {
  return anyOf(
    column,
    sql`select ${departments.id} from ${departments} where ${and(
      eq(departments.entId, entId),
      like(departments.path, `${deptPath}%`),
    )}`,
  );
}

/** The ids of a department and its ancestors, read from its materialized path `/root/../id/`. */
export function pathIds(deptPath: string | null | undefined): string[] {
  return deptPath ? deptPath.split('/').filter(Boolean) : [];
}

/**
 * Which allocation targets reach the caller (see the module comment): the account itself,
 * its current department alone (type 2), and its current department or an ancestor with
 * sub-departments (type 1).
 */
export function allocationTargetWhere(principal: ScopeSubject): SQL {
  const account = and(eq(allocations.targetType, 2), eq(allocations.targetId, principal.accountId)) as SQL;
  if (!principal.deptId) return account;
  const lineage = pathIds(principal.deptPath);
  const deptOnly = and(
    eq(allocations.targetType, 1),
    eq(allocations.deptDataType, 2),
    eq(allocations.targetId, principal.deptId),
  ) as SQL;
  const withChildren =
    lineage.length > 0
      ? (and(
          eq(allocations.targetType, 1),
          eq(allocations.deptDataType, 1),
          inArray(allocations.targetId, lineage),
        ) as SQL)
      : undefined;
  return or(account, deptOnly, withChildren) as SQL;
}

/** Ids of the objects of a ref-type shared with the caller, as a subquery (for `array(...)`). */
export function sharedRefIds(principal: ScopeSubject, refType: string): SQL {
  return sql`select ${allocations.refId} from ${allocations} where ${and(
    eq(allocations.entId, principal.entId),
    eq(allocations.refType, refType),
    allocationTargetWhere(principal),
  )}`;
}

/** The rows shared with the caller, directly or through a container. */
export function sharedWhere(principal: ScopeSubject, share: ShareColumns): SQL {
  const parts = [anyOf(share.id, sharedRefIds(principal, share.refType))];
  for (const c of share.containers ?? []) parts.push(anyOf(c.id, sharedRefIds(principal, c.refType)));
  return (parts.length === 1 ? parts[0] : or(...parts)) as SQL;
}

/** The rows the caller's role scope covers (without sharing); undefined when it covers none. */
function ownScopeWhere(principal: ScopeSubject, columns: ScopedColumns): SQL | undefined {
  const own = columns.ownerId ? eq(columns.ownerId, principal.accountId) : undefined;
  let scoped: SQL | undefined;
  if (principal.dataScope !== 'self' && principal.dataScope !== 'all' && columns.deptId && principal.deptId) {
    scoped =
      principal.dataScope === 'dept_only'
        ? eq(columns.deptId, principal.deptId)
        : inDeptSubtree(columns.deptId, principal.entId, principal.deptPath ?? '\u0000');
  }
  return scoped && own ? (or(scoped, own) as SQL) : (scoped ?? own);
}

/**
 * The WHERE of a query restricted to what the principal may see (guide convention 3):
 * the enterprise always; then by data scope, self (rows the caller owns), department only
 * (rows of the current department) or department and below (its subtree), plus the rows
 * shared with the caller when `columns.share` is given. The enterprise administrator sees
 * the whole enterprise. A table without the column a scope needs falls back to the narrower
 * rule it can express; with none of them only the tenant applies to the administrator and
 * nothing to others.
 */
export function scopeWhere(principal: ScopeSubject, columns: ScopedColumns): SQL {
  const tenant = tenantWhere(principal, columns.entId);
  if (principal.dataScope === 'all') return tenant;
  const scoped = ownScopeWhere(principal, columns);
  const shared = columns.share ? sharedWhere(principal, columns.share) : undefined;
  const visible = scoped && shared ? or(scoped, shared) : (scoped ?? shared ?? sql`false`);
  return and(tenant, visible) as SQL;
}

/**
 * The rows a department scope sees beyond the departments `deptIds` it covers (given in the
 * database's order of their ids): `own`, the caller's own rows outside them as one condition
 * per index range between them (so an (ent, owner, dept) index reads none of the caller's
 * own rows inside its departments: a store's staff may have added them all), and `shared`,
 * the rows shared with the caller outside both. Disjoint from each other and from the
 * departments' rows; with one condition per covered department (`dept_id = d`) they are the
 * rows `scopeWhere` lets the caller see: the merged plan of a list (db/mergedPage.ts).
 */
export function scopeOutsideBranches(
  principal: ScopeSubject,
  columns: Required<Pick<ScopedColumns, 'entId' | 'deptId' | 'ownerId' | 'share'>>,
  deptIds: readonly string[],
): { own: SQL[]; shared: SQL } {
  const tenant = tenantWhere(principal, columns.entId);
  const gaps: SQL[] = [isNull(columns.deptId)];
  deptIds.forEach((d, i) => {
    gaps.push(
      i === 0 ? lt(columns.deptId, d) : (and(gt(columns.deptId, deptIds[i - 1]), lt(columns.deptId, d)) as SQL),
    );
  });
  if (deptIds.length > 0) gaps.push(gt(columns.deptId, deptIds[deptIds.length - 1]));
  const own = eq(columns.ownerId, principal.accountId);
  const outside =
    deptIds.length > 0
      ? sql`(${columns.deptId} is null or ${columns.deptId} <> all(${`{${deptIds.join(',')}}`}::text[]))`
      : sql`true`;
  return {
    own: gaps.map((gap) => and(tenant, own, gap) as SQL),
    shared: and(
      tenant,
      sharedWhere(principal, columns.share),
      outside,
      or(isNull(columns.ownerId), ne(columns.ownerId, principal.accountId)),
    ) as SQL,
  };
}

/**
 * Whether the caller may manage (share, reassign) a visible row: its owner, the enterprise
 * administrator, or a department-and-below scope whose subtree holds the row's department.
 * Being shared an object lets one see it, not pass it on. A boolean SQL expression, for a
 * select list (`hasPermission`) or a WHERE.
 */
export function manageWhere(
  principal: ScopeSubject,
  columns: Pick<ScopedColumns, 'entId' | 'deptId' | 'ownerId'>,
): SQL {
  if (principal.dataScope === 'all') return tenantWhere(principal, columns.entId);
  const parts: SQL[] = [];
  if (columns.ownerId) parts.push(eq(columns.ownerId, principal.accountId));
  if (principal.dataScope === 'dept_and_below' && columns.deptId && principal.deptId) {
    parts.push(inArray(columns.deptId, deptSubtreeIds(principal.entId, principal.deptPath ?? '\u0000')));
  }
  if (parts.length === 0) return sql`false`;
  return and(tenantWhere(principal, columns.entId), parts.length === 1 ? parts[0] : or(...parts)) as SQL;
}
