import type { ROLE_SORT_KEYS } from '@marquee/protocol';
import { and, asc, count, desc, eq, ilike, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accountRoles, type DataScope, departments, roles } from '../../db/schema/index.js';
import { listOrder, type SortRequest } from '../../db/sort.js';

export interface RoleRecord {
  id: string;
  name: string;
  type: string;
  deptId: string | null;
  deptName: string | null;
  dataScope: DataScope;
  permissionCodes: string[];
  builtin: boolean;
  accountCount: number;
  createdAt: Date;
}

const accountCount = sql<number>`(select count(*)::int from ${accountRoles} where ${accountRoles.entId} = ${roles.entId} and ${accountRoles.roleId} = ${roles.id})`;

const roleColumns = {
  id: roles.id,
  name: roles.name,
  type: roles.type,
  deptId: roles.deptId,
  deptName: departments.name,
  dataScope: roles.dataScope,
  permissionCodes: roles.permissionCodes,
  builtin: roles.builtin,
  accountCount,
  createdAt: roles.createdAt,
};

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Roles matching `where` (which starts from the tenant and scope), a page of them: built-in
 * first, then by name, unless the page asks for one of ROLE_SORT_KEYS.
 */
export async function selectRoles(
  db: Executor,
  where: SQL,
  page: ({ page: number; size: number } & SortRequest<(typeof ROLE_SORT_KEYS)[number]>) | null,
): Promise<{ total: number; rows: RoleRecord[] }> {
  const order = listOrder(page, { name: roles.name, accountCount, createdAt: roles.createdAt }, roles.id, [
    desc(roles.builtin),
    asc(roles.name),
    asc(roles.id),
  ]);
  const query = db
    .select(roleColumns)
    .from(roles)
    .leftJoin(departments, and(eq(departments.id, roles.deptId), eq(departments.entId, roles.entId)))
    .where(where)
    .orderBy(...order);
  const rows = page ? await query.limit(page.size).offset((page.page - 1) * page.size) : await query;
  if (!page) return { total: rows.length, rows: rows.map(normalize) };
  const [{ n }] = await db.select({ n: count() }).from(roles).where(where);
  return { total: Number(n), rows: rows.map(normalize) };
}

function normalize(row: Omit<RoleRecord, 'accountCount'> & { accountCount: number | string }): RoleRecord {
  return { ...row, accountCount: Number(row.accountCount) };
}

export function roleNameFilter(name: string): SQL {
  return ilike(roles.name, `%${escapeLike(name)}%`);
}

export async function roleNameTaken(db: Executor, entId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.entId, entId),
        sql`lower(${roles.name}) = lower(${name})`,
        exceptId ? ne(roles.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function updateRoleRow(
  db: Executor,
  entId: string,
  id: string,
  values: Partial<typeof roles.$inferInsert>,
): Promise<void> {
  await db
    .update(roles)
    .set(values)
    .where(and(eq(roles.entId, entId), eq(roles.id, id)));
}

export async function deleteRoleRow(db: Executor, entId: string, id: string): Promise<void> {
  await db.delete(roles).where(and(eq(roles.entId, entId), eq(roles.id, id)));
}

/** Accounts holding any of the roles (their cached principals must reload). */
export async function accountsWithRoles(db: Executor, entId: string, roleIds: string[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ accountId: accountRoles.accountId })
    .from(accountRoles)
    .where(and(eq(accountRoles.entId, entId), inArray(accountRoles.roleId, roleIds)));
  return rows.map((r) => r.accountId);
}
