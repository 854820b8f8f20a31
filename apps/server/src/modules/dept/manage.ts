import type { DeptNode } from '@marquee/protocol';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal.js';
import { scopeWhere } from '../../auth/scope.js';
import { departments } from '../../db/schema/index.js';
import type { CallContext } from '../../protocol/handlers.js';
import { registerStat } from '../home/stats.js';
import { conflict, isForeignKeyViolation, noPermission, notFound, OrgText } from '../org/messages.js';
import {
  childCount,
  type DeptRow,
  deleteDepartmentRow,
  insertDepartment,
  memberCounts,
  moveSubtree,
  renameDepartment,
  selectDepartments,
  siblingNameTaken,
} from './repository.js';

/**
 * Department management (issue 3). Every query starts from the caller's enterprise and
 * data scope (scope.ts): the administrator manages the whole tree, a "department and
 * below" role its subtree, "department only" its current department.
 */

/** The departments the principal may see and manage. */
export function visibleDepartments(principal: Principal): SQL {
  return scopeWhere(principal, { entId: departments.entId, deptId: departments.id });
}

// Home page figure (issue 8): the departments of the caller's department tree.
registerStat({
  key: 'departments',
  async count(db, caller) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(departments)
      .where(visibleDepartments(caller));
    return row.n;
  },
});

/** One department within the caller's scope, or NOT_FOUND (also for another tenant's id). */
export async function loadVisibleDept(ctx: CallContext, id: string): Promise<DeptRow> {
  const [row] = await selectDepartments(ctx.db, and(visibleDepartments(ctx.user), eq(departments.id, id)) as SQL);
  if (!row) throw notFound();
  return row;
}

/** Builds the forest of `rows` (upper levels first): a row whose parent is absent is a root. */
export function buildForest(rows: DeptRow[], members: Map<string, number>): DeptNode[] {
  const nodes = new Map<string, DeptNode>();
  const roots: DeptNode[] = [];
  for (const row of rows) {
    const node: DeptNode = {
      id: row.id,
      name: row.name,
      parentId: row.parentId,
      disabled: false,
      memberCount: members.get(row.id) ?? 0,
      children: [],
    };
    nodes.set(row.id, node);
    const parent = row.parentId ? nodes.get(row.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

export async function deptTree(ctx: CallContext): Promise<DeptNode[]> {
  const rows = await selectDepartments(ctx.db, visibleDepartments(ctx.user));
  const members = await memberCounts(
    ctx.db,
    ctx.user.entId,
    rows.map((r) => r.id),
  );
  return buildForest(rows, members);
}

/** Children of a department (default: the caller's current one), within scope. */
export async function deptSubList(input: { parentId?: string }, ctx: CallContext) {
  const parentId = input.parentId ?? ctx.user.deptId;
  if (!parentId) return [];
  await loadVisibleDept(ctx, parentId);
  const rows = await selectDepartments(
    ctx.db,
    and(visibleDepartments(ctx.user), eq(departments.parentId, parentId)) as SQL,
  );
  const withChildren = await Promise.all(rows.map((r) => childCount(ctx.db, ctx.user.entId, r.id)));
  return rows.map((r, i) => ({ id: r.id, name: r.name, parentId: r.parentId, hasChildren: withChildren[i] > 0 }));
}

function requireTopLevelRights(principal: Principal) {
  if (principal.dataScope !== 'all') throw noPermission(OrgText.rootDeptAdminOnly);
}

/** Paths and names of the enterprise's principals change: cached principals reload. */
function invalidateEnterprise(ctx: CallContext) {
  const entId = ctx.user.entId;
  ctx.afterCommit(() => ctx.services.sessions.cache.invalidateEnterprise(entId));
}

export async function deptAdd(input: { parentId: string | null; name: string }, ctx: CallContext) {
  const entId = ctx.user.entId;
  if (input.parentId === null) requireTopLevelRights(ctx.user);
  else await loadVisibleDept(ctx, input.parentId);
  if (await siblingNameTaken(ctx.db, entId, input.parentId, input.name)) throw conflict(OrgText.deptNameTaken);
  const sort = input.parentId ? await childCount(ctx.db, entId, input.parentId) : 0;
  const dept = await insertDepartment(ctx.db, { entId, parentId: input.parentId, name: input.name, sort: sort + 1 });
  await ctx.audit({
    module: 'dept',
    action: 'add',
    targetType: 'department',
    targetId: dept.id,
    targetName: input.name,
    detail: { name: input.name, parentId: input.parentId },
  });
  return { id: dept.id };
}

export async function deptUpdate(input: { id: string; name: string }, ctx: CallContext) {
  const dept = await loadVisibleDept(ctx, input.id);
  if (await siblingNameTaken(ctx.db, ctx.user.entId, dept.parentId, input.name, dept.id)) {
    throw conflict(OrgText.deptNameTaken);
  }
  await renameDepartment(ctx.db, ctx.user.entId, dept.id, input.name, ctx.now);
  await ctx.audit({
    module: 'dept',
    action: 'update',
    targetType: 'department',
    targetId: dept.id,
    targetName: input.name,
    detail: { from: dept.name, to: input.name },
  });
  invalidateEnterprise(ctx);
  return null;
}

export async function deptMove(input: { id: string; parentId: string | null }, ctx: CallContext) {
  const dept = await loadVisibleDept(ctx, input.id);
  let parent: DeptRow | null = null;
  if (input.parentId === null) requireTopLevelRights(ctx.user);
  else {
    parent = await loadVisibleDept(ctx, input.parentId);
    if (parent.path.startsWith(dept.path)) throw conflict(OrgText.deptIntoOwnSubtree);
  }
  const changed = (parent?.id ?? null) !== dept.parentId;
  if (changed) {
    if (await siblingNameTaken(ctx.db, ctx.user.entId, parent?.id ?? null, dept.name, dept.id)) {
      throw conflict(OrgText.deptNameTaken);
    }
    await moveSubtree(ctx.db, ctx.user.entId, dept, parent, ctx.now);
    invalidateEnterprise(ctx);
  }
  await ctx.audit({
    module: 'dept',
    action: 'move',
    targetType: 'department',
    targetId: dept.id,
    targetName: dept.name,
    detail: { from: dept.parentId, to: parent?.id ?? null, changed },
  });
  return null;
}

export async function deptDelete(input: { id: string }, ctx: CallContext) {
  const entId = ctx.user.entId;
  const dept = await loadVisibleDept(ctx, input.id);
  if ((await childCount(ctx.db, entId, dept.id)) > 0) throw conflict(OrgText.deptHasChildren);
  if (((await memberCounts(ctx.db, entId, [dept.id])).get(dept.id) ?? 0) > 0) throw conflict(OrgText.deptHasMembers);
  try {
    // A savepoint: data of other modules may still point at the department.
    await ctx.db.transaction((sp) => deleteDepartmentRow(sp, entId, dept.id));
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict(OrgText.deptInUse);
    throw error;
  }
  await ctx.audit({
    module: 'dept',
    action: 'delete',
    targetType: 'department',
    targetId: dept.id,
    targetName: dept.name,
    detail: { name: dept.name, parentId: dept.parentId },
  });
  invalidateEnterprise(ctx);
  return null;
}
