import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, isNull, like, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accountDepartments, accounts, departments, roles } from '../../db/schema/index.js';
import { deleteAllocationsTargeting } from '../sharing/repository.js';

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

/** The department, when the account belongs to it; null otherwise. */
export async function accountDepartment(
  db: Executor,
  entId: string,
  accountId: string,
  deptId: string,
): Promise<{ name: string } | null> {
  const rows = await db
    .select({ name: departments.name })
    .from(accountDepartments)
    .innerJoin(departments, and(eq(departments.id, accountDepartments.deptId), eq(departments.entId, entId)))
    .where(
      and(
        eq(accountDepartments.entId, entId),
        eq(accountDepartments.accountId, accountId),
        eq(accountDepartments.deptId, deptId),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function setCurrentDepartment(db: Executor, entId: string, accountId: string, deptId: string, at: Date) {
  await db
    .update(accounts)
    .set({ currentDeptId: deptId, updatedAt: at })
    .where(and(eq(accounts.entId, entId), eq(accounts.id, accountId)));
}

// ---------------------------------------------------------------- department management (issue 3)

export interface DeptRow {
  id: string;
  parentId: string | null;
  name: string;
  path: string;
  depth: number;
  sort: number;
}

const deptColumns = {
  id: departments.id,
  parentId: departments.parentId,
  name: departments.name,
  path: departments.path,
  depth: departments.depth,
  sort: departments.sort,
};

/** Departments matching `where` (which starts from the tenant), upper levels first. */
export function selectDepartments(db: Executor, where: SQL): Promise<DeptRow[]> {
  return db
    .select(deptColumns)
    .from(departments)
    .where(where)
    .orderBy(asc(departments.depth), asc(departments.sort), asc(departments.name));
}

/** Member accounts per department of the enterprise. */
export async function memberCounts(db: Executor, entId: string, deptIds: string[]): Promise<Map<string, number>> {
  if (deptIds.length === 0) return new Map();
  const rows = await db
    .select({ deptId: accountDepartments.deptId, n: count() })
    .from(accountDepartments)
    .where(and(eq(accountDepartments.entId, entId), inArray(accountDepartments.deptId, deptIds)))
    .groupBy(accountDepartments.deptId);
  return new Map(rows.map((r) => [r.deptId, Number(r.n)]));
}

export async function childCount(db: Executor, entId: string, deptId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(departments)
    .where(and(eq(departments.entId, entId), eq(departments.parentId, deptId)));
  return Number(row?.n ?? 0);
}

/** Whether a sibling (same parent) other than `exceptId` already has this name. */
export async function siblingNameTaken(
  db: Executor,
  entId: string,
  parentId: string | null,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(
        eq(departments.entId, entId),
        parentId ? eq(departments.parentId, parentId) : isNull(departments.parentId),
        sql`lower(${departments.name}) = lower(${name})`,
        exceptId ? ne(departments.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function renameDepartment(db: Executor, entId: string, id: string, name: string, at: Date) {
  await db
    .update(departments)
    .set({ name, updatedAt: at })
    .where(and(eq(departments.entId, entId), eq(departments.id, id)));
}

/**
 * Moves a department and its whole subtree under `parent` (null: to the top level) in one
 * statement, rewriting every materialized path and depth so the subtree stays consistent.
 */
export async function moveSubtree(
  db: Executor,
  entId: string,
  dept: DeptRow,
  parent: DeptRow | null,
  at: Date,
): Promise<void> {
  const newPath = `${parent?.path ?? '/'}${dept.id}/`;
  const depthDelta = (parent ? parent.depth + 1 : 0) - dept.depth;
  await db
    .update(departments)
    .set({
      path: sql`${newPath} || substr(${departments.path}, ${dept.path.length + 1})`,
      depth: sql`${departments.depth} + ${depthDelta}`,
      updatedAt: at,
    })
    .where(and(eq(departments.entId, entId), like(departments.path, `${escapeLike(dept.path)}%`)));
  await db
    .update(departments)
    .set({ parentId: parent?.id ?? null })
    .where(and(eq(departments.entId, entId), eq(departments.id, dept.id)));
}

/** Escapes LIKE wildcards (paths are uuids and slashes, but be exact). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function deleteDepartmentRow(db: Executor, entId: string, id: string): Promise<void> {
  // Roles tied to the department become enterprise-wide; an account's current department
  // cannot point here because the department has no members.
  await db
    .update(roles)
    .set({ deptId: null })
    .where(and(eq(roles.entId, entId), eq(roles.deptId, id)));
  await db
    .update(accounts)
    .set({ currentDeptId: null })
    .where(and(eq(accounts.entId, entId), eq(accounts.currentDeptId, id)));
  await deleteAllocationsTargeting(db, entId, 1, id);
  await db.delete(departments).where(and(eq(departments.entId, entId), eq(departments.id, id)));
}
