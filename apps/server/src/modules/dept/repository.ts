import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accountDepartments, accounts, departments } from '../../db/schema/index.js';

/** Creates a department under `parentId` (or a root), computing its materialized path. */
export async function insertDepartment(
  db: Executor,
  input: { entId: string; parentId?: string | null; name: string; sort?: number },
): Promise<{ id: string; path: string; depth: number }> {
  const id = randomUUID();
  let path = `/${id}/`;
  let depth = 0;
  if (input.parentId) {
    const [parent] = await db
      .select({ path: departments.path, depth: departments.depth })
      .from(departments)
      .where(and(eq(departments.entId, input.entId), eq(departments.id, input.parentId)));
    if (!parent) throw new Error(`parent department ${input.parentId} is not in enterprise ${input.entId}`);
    path = `${parent.path}${id}/`;
    depth = parent.depth + 1;
  }
  await db.insert(departments).values({
    id,
    entId: input.entId,
    parentId: input.parentId ?? null,
    name: input.name,
    path,
    depth,
    sort: input.sort ?? 0,
  });
  return { id, path, depth };
}

/** The departments an account belongs to, upper levels first, then by their sort order. */
export async function listAccountDepartments(db: Executor, entId: string, accountId: string) {
  return db
    .select({ id: departments.id, name: departments.name })
    .from(accountDepartments)
    .innerJoin(departments, and(eq(departments.id, accountDepartments.deptId), eq(departments.entId, entId)))
    .where(and(eq(accountDepartments.entId, entId), eq(accountDepartments.accountId, accountId)))
    .orderBy(asc(departments.depth), asc(departments.sort), asc(departments.name));
}

export async function isAccountInDepartment(
  db: Executor,
  entId: string,
  accountId: string,
  deptId: string,
): Promise<boolean> {
  const rows = await db
    .select({ deptId: accountDepartments.deptId })
    .from(accountDepartments)
    .where(
      and(
        eq(accountDepartments.entId, entId),
        eq(accountDepartments.accountId, accountId),
        eq(accountDepartments.deptId, deptId),
      ),
    )
    .limit(1);
  return rows.length === 1;
}

export async function setCurrentDepartment(db: Executor, entId: string, accountId: string, deptId: string, at: Date) {
  await db
    .update(accounts)
    .set({ currentDeptId: deptId, updatedAt: at })
    .where(and(eq(accounts.entId, entId), eq(accounts.id, accountId)));
}
