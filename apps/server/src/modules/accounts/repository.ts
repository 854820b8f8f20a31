import type { ACCOUNT_SORT_KEYS } from '@marquee/protocol';
import { and, asc, count, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { displayName } from '../../db/builtinNames.js';
import type { Executor } from '../../db/client.js';
import {
  type AccountStatus,
  accountDepartments,
  accountRoles,
  accounts,
  departments,
  roles,
} from '../../db/schema/index.js';
import { listOrder, type SortRequest } from '../../db/sort.js';
import { deleteAllocationsTargeting } from '../sharing/repository.js';

export async function insertAccount(
  db: Executor,
  values: typeof accounts.$inferInsert,
): Promise<{ id: string; userNo: number }> {
  const [row] = await db.insert(accounts).values(values).returning({ id: accounts.id, userNo: accounts.userNo });
  return row;
}

export async function addAccountDepartments(db: Executor, entId: string, accountId: string, deptIds: string[]) {
  if (deptIds.length === 0) return;
  await db
    .insert(accountDepartments)
    .values(deptIds.map((deptId) => ({ entId, accountId, deptId })))
    .onConflictDoNothing();
}

export async function addAccountRoles(db: Executor, entId: string, accountId: string, roleIds: string[]) {
  if (roleIds.length === 0) return;
  await db
    .insert(accountRoles)
    .values(roleIds.map((roleId) => ({ entId, accountId, roleId })))
    .onConflictDoNothing();
}

/** Sets the status of an account of the enterprise; false when there is no such account. */
export async function updateAccountStatus(
  db: Executor,
  entId: string,
  accountId: string,
  status: AccountStatus,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(accounts)
    .set({ status, updatedAt: at })
    .where(and(eq(accounts.entId, entId), eq(accounts.id, accountId)))
    .returning({ id: accounts.id });
  return rows.length === 1;
}

// ---------------------------------------------------------------- account management (issue 3)

export interface AccountRecord {
  id: string;
  userNo: number;
  loginName: string;
  realName: string;
  phone: string | null;
  email: string | null;
  status: AccountStatus;
  accountType: 'individual' | 'enterprise';
  isEntAdmin: boolean;
  currentDeptId: string | null;
  lastLoginAt: Date | null;
  createdAt: Date;
}

const accountColumns = {
  id: accounts.id,
  userNo: accounts.userNo,
  loginName: accounts.loginName,
  realName: accounts.realName,
  phone: accounts.phone,
  email: accounts.email,
  status: accounts.status,
  accountType: accounts.accountType,
  isEntAdmin: accounts.isEntAdmin,
  currentDeptId: accounts.currentDeptId,
  lastLoginAt: accounts.lastLoginAt,
  createdAt: accounts.createdAt,
};

/**
 * A page of the accounts matching `where` (which starts from the tenant and scope), newest
 * first unless the page asks for one of ACCOUNT_SORT_KEYS.
 */
export async function selectAccounts(
  db: Executor,
  where: SQL,
  page: ({ page: number; size: number } & SortRequest<(typeof ACCOUNT_SORT_KEYS)[number]>) | null,
): Promise<{ total: number; rows: AccountRecord[] }> {
  const order = listOrder(
    page,
    { loginName: accounts.loginName, realName: accounts.realName, lastLoginAt: accounts.lastLoginAt },
    accounts.userNo,
    [desc(accounts.userNo)],
  );
  const query = db
    .select(accountColumns)
    .from(accounts)
    .where(where)
    .orderBy(...order);
  const rows = page ? await query.limit(page.size).offset((page.page - 1) * page.size) : await query;
  if (!page) return { total: rows.length, rows };
  const [{ n }] = await db.select({ n: count() }).from(accounts).where(where);
  return { total: Number(n), rows };
}

/** Roles and departments of the accounts, for the list's columns (role names read in `language`). */
export async function membershipsOf(db: Executor, entId: string, accountIds: string[], language: string) {
  if (accountIds.length === 0) return { roles: new Map(), depts: new Map() } as const;
  const roleName = displayName(roles, language);
  const [roleRows, deptRows] = await Promise.all([
    db
      .select({ accountId: accountRoles.accountId, id: roles.id, name: roleName })
      .from(accountRoles)
      .innerJoin(roles, and(eq(roles.id, accountRoles.roleId), eq(roles.entId, accountRoles.entId)))
      .where(and(eq(accountRoles.entId, entId), inArray(accountRoles.accountId, accountIds)))
      .orderBy(asc(roleName)),
    db
      .select({ accountId: accountDepartments.accountId, id: departments.id, name: departments.name })
      .from(accountDepartments)
      .innerJoin(
        departments,
        and(eq(departments.id, accountDepartments.deptId), eq(departments.entId, accountDepartments.entId)),
      )
      .where(and(eq(accountDepartments.entId, entId), inArray(accountDepartments.accountId, accountIds)))
      .orderBy(asc(departments.depth), asc(departments.sort), asc(departments.name)),
  ]);
  const group = (rows: { accountId: string; id: string; name: string }[]) => {
    const map = new Map<string, { id: string; name: string }[]>();
    for (const r of rows) {
      const list = map.get(r.accountId) ?? [];
      list.push({ id: r.id, name: r.name });
      map.set(r.accountId, list);
    }
    return map;
  };
  return { roles: group(roleRows), depts: group(deptRows) };
}

export async function loginNameTaken(db: Executor, loginName: string): Promise<boolean> {
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(sql`lower(${accounts.loginName}) = lower(${loginName})`)
    .limit(1);
  return rows.length > 0;
}

export async function updateAccountRow(
  db: Executor,
  entId: string,
  id: string,
  values: Partial<typeof accounts.$inferInsert>,
): Promise<void> {
  await db
    .update(accounts)
    .set(values)
    .where(and(eq(accounts.entId, entId), eq(accounts.id, id)));
}

/** Replaces the account's roles among `replaceable` (roles the caller may see) with `roleIds`. */
export async function replaceAccountRoles(
  db: Executor,
  entId: string,
  accountId: string,
  replaceable: string[],
  roleIds: string[],
) {
  if (replaceable.length > 0) {
    await db
      .delete(accountRoles)
      .where(
        and(
          eq(accountRoles.entId, entId),
          eq(accountRoles.accountId, accountId),
          inArray(accountRoles.roleId, replaceable),
        ),
      );
  }
  await addAccountRoles(db, entId, accountId, roleIds);
}

/** Replaces the account's departments among `replaceable` with `deptIds`; answers the remaining set. */
export async function replaceAccountDepartments(
  db: Executor,
  entId: string,
  accountId: string,
  replaceable: SQL,
  deptIds: string[],
): Promise<string[]> {
  await db
    .delete(accountDepartments)
    .where(
      and(
        eq(accountDepartments.entId, entId),
        eq(accountDepartments.accountId, accountId),
        inArray(accountDepartments.deptId, db.select({ id: departments.id }).from(departments).where(replaceable)),
      ),
    );
  await addAccountDepartments(db, entId, accountId, deptIds);
  const rows = await db
    .select({ deptId: accountDepartments.deptId })
    .from(accountDepartments)
    .where(and(eq(accountDepartments.entId, entId), eq(accountDepartments.accountId, accountId)));
  return rows.map((r) => r.deptId);
}

export async function otherAdminCount(db: Executor, entId: string, exceptId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(accounts)
    .where(and(eq(accounts.entId, entId), eq(accounts.isEntAdmin, true), ne(accounts.id, exceptId)));
  return Number(row?.n ?? 0);
}

export async function deleteAccountRow(db: Executor, entId: string, id: string): Promise<void> {
  await deleteAllocationsTargeting(db, entId, 2, id);
  await db.delete(accounts).where(and(eq(accounts.entId, entId), eq(accounts.id, id)));
}
