import { and, eq, inArray, like, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { departments } from '../db/schema/index.js';
import type { Principal } from './principal.js';

/** The columns of a table that data scope filters on. */
export interface ScopedColumns {
  /** The tenant column; every query starts from it. */
  entId: AnyPgColumn;
  /** The department the row belongs to (for the department scopes). */
  deptId?: AnyPgColumn;
  /** The account that owns the row (for "self", and as a fallback). */
  ownerId?: AnyPgColumn;
}

type ScopeSubject = Pick<Principal, 'entId' | 'accountId' | 'deptId' | 'deptPath' | 'dataScope'>;

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
 * The WHERE of a query restricted to what the principal may see (guide convention 3):
 * the enterprise always; then by data scope, self (rows the caller owns), department only
 * (rows of the current department) or department and below (its subtree). The enterprise
 * administrator sees the whole enterprise. A table without the column a scope needs falls
 * back to the narrower rule it can express; with neither column only the tenant applies to
 * the administrator and nothing to others.
 */
export function scopeWhere(principal: ScopeSubject, columns: ScopedColumns): SQL {
  const tenant = tenantWhere(principal, columns.entId);
  if (principal.dataScope === 'all') return tenant;
  const own = columns.ownerId ? eq(columns.ownerId, principal.accountId) : undefined;
  let scoped: SQL | undefined;
  if (principal.dataScope !== 'self' && columns.deptId && principal.deptId) {
    scoped =
      principal.dataScope === 'dept_only'
        ? eq(columns.deptId, principal.deptId)
        : inArray(columns.deptId, deptSubtreeIds(principal.entId, principal.deptPath ?? '\u0000'));
  }
  const visible = scoped && own ? sql`(${scoped} or ${own})` : (scoped ?? own ?? sql`false`);
  return and(tenant, visible) as SQL;
}
