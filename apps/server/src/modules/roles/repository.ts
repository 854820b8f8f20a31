import type { BuiltinKey, ROLE_SORT_KEYS } from '@marquee/protocol';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { builtinKeysNamed, displayName } from '../../db/builtinNames.js';
import type { Executor } from '../../db/client.js';
import { accountRoles, type DataScope, departments, roles } from '../../db/schema/index.js';
import { listOrder, type SortRequest } from '../../db/sort.js';

export interface NewRole {
  entId: string;
  name: string;
  type?: string;
  deptId?: string | null;
  dataScope?: DataScope;
  permissionCodes: readonly string[];
  builtin?: boolean;
  /** A role the system creates: its name is BUILTIN_NAMES[builtinKey] in the reader's language. */
  builtinKey?: BuiltinKey;
}

/** Creates a role: custom, of no department and with the data scope 'self' unless told otherwise. */
export async function createRole(db: Executor, role: NewRole): Promise<{ id: string }> {
  const [row] = await db
    .insert(roles)
    .values({
      entId: role.entId,
      name: role.name,
      type: role.type ?? 'custom',
      deptId: role.deptId ?? null,
      dataScope: role.dataScope ?? 'self',
      permissionCodes: [...role.permissionCodes],
      builtin: role.builtin ?? false,
      builtinKey: role.builtinKey ?? null,
    })
    .returning({ id: roles.id });
  return row;
}

export interface RoleRecord {
  id: string;
  /** The name as the caller reads it (displayName: a built-in role's in the call's language). */
  name: string;
  builtinKey: BuiltinKey | null;
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

const roleColumns = (language: string) => ({
  id: roles.id,
  name: displayName(roles, language),
  builtinKey: roles.builtinKey,
  type: roles.type,
  deptId: roles.deptId,
  deptName: departments.name,
  dataScope: roles.dataScope,
  permissionCodes: roles.permissionCodes,
  builtin: roles.builtin,
  accountCount,
  createdAt: roles.createdAt,
});

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Roles matching `where` (which starts from the tenant and scope), a page of them: built-in
 * first, then by name, unless the page asks for one of ROLE_SORT_KEYS. Names read in `language`.
 */
export async function selectRoles(
  db: Executor,
  where: SQL,
  page: ({ page: number; size: number } & SortRequest<(typeof ROLE_SORT_KEYS)[number]>) | null,
  language: string,
): Promise<{ total: number; rows: RoleRecord[] }> {
  const name = displayName(roles, language);
  const order = listOrder(page, { name, accountCount, createdAt: roles.createdAt }, roles.id, [
    desc(roles.builtin),
    asc(name),
    asc(roles.id),
  ]);
  const query = db
    .select(roleColumns(language))
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

/** Roles whose name, as the caller reads it, contains `name`. */
export function roleNameFilter(name: string, language: string): SQL {
  return ilike(displayName(roles, language), `%${escapeLike(name)}%`);
}

/** A role of the enterprise has the name, or is a built-in role read so in some language. */
export async function roleNameTaken(db: Executor, entId: string, name: string, exceptId?: string): Promise<boolean> {
  const keys = builtinKeysNamed(name);
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.entId, entId),
        or(sql`lower(${roles.name}) = lower(${name})`, keys.length ? inArray(roles.builtinKey, keys) : undefined),
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
