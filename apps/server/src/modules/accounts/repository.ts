import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type AccountStatus, accountDepartments, accountRoles, accounts, roles } from '../../db/schema/index.js';

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

export async function insertRole(db: Executor, values: typeof roles.$inferInsert): Promise<{ id: string }> {
  const [row] = await db.insert(roles).values(values).returning({ id: roles.id });
  return row;
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
