import { ALL_PERMISSION_CODES, type endpoints, type ROLE_SORT_KEYS, type RoleRow } from '@marquee/protocol';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import { scopeWhere } from '../../auth/scope.js';
import { isBuiltinName } from '../../db/builtinNames.js';
import { type DataScope, roles } from '../../db/schema/index.js';
import type { SortRequest } from '../../db/sort.js';
import type { CallContext } from '../../protocol/handlers.js';
import { loadVisibleDept } from '../dept/manage.js';
import { conflict, noPermission, notFound, OrgText } from '../org/messages.js';
import { OTHER_GROUP } from './permissionTree.js';
import {
  accountsWithRoles,
  createRole,
  deleteRoleRow,
  type RoleRecord,
  roleNameFilter,
  roleNameTaken,
  selectRoles,
  updateRoleRow,
} from './repository.js';

/** The role type and flag of the enterprise administrator's built-in role. */
export const ADMIN_ROLE_TYPE = 'admin';
const isAdminRole = (role: Pick<RoleRecord, 'builtin' | 'type'>) => role.builtin && role.type === ADMIN_ROLE_TYPE;

const SCOPE_WIDTH: Record<DataScope, number> = { self: 0, dept_only: 1, dept_and_below: 2 };

/**
 * The roles the principal may see and assign: the administrator all of the enterprise's,
 * others those of the departments in their data scope.
 */
export function visibleRoles(principal: Principal): SQL {
  return scopeWhere(principal, { entId: roles.entId, deptId: roles.deptId });
}

export function toRoleRow(row: RoleRecord): RoleRow {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    deptId: row.deptId,
    deptName: row.deptName,
    dataScope: row.dataScope,
    permissionCodes: [...row.permissionCodes].sort(),
    builtin: row.builtin,
    accountCount: row.accountCount,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function loadVisibleRoles(ctx: CallContext, ids: string[]): Promise<RoleRecord[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const { rows } = await selectRoles(
    ctx.db,
    and(visibleRoles(ctx.user), inArray(roles.id, unique)) as SQL,
    null,
    ctx.language,
  );
  if (rows.length !== unique.length) throw notFound();
  return rows;
}

/**
 * A non-administrator may only hand out what they hold: roles whose codes they all have.
 * The administrator may assign any role of the enterprise.
 */
export function assertMayGrant(principal: Principal, codes: readonly string[]): void {
  if (principal.dataScope === 'all') return;
  if (codes.some((c) => !principal.permissions.has(c))) throw noPermission(OrgText.grantBeyondOwn);
}

export async function roleList(
  input: SortRequest<(typeof ROLE_SORT_KEYS)[number]> & {
    page: number;
    size: number;
    name?: string;
    type?: string;
    deptId?: string;
  },
  ctx: CallContext,
) {
  const where = and(
    visibleRoles(ctx.user),
    input.name ? roleNameFilter(input.name, ctx.language) : undefined,
    input.type ? eq(roles.type, input.type) : undefined,
    input.deptId ? eq(roles.deptId, input.deptId) : undefined,
  ) as SQL;
  const { total, rows } = await selectRoles(ctx.db, where, input, ctx.language);
  return { total, data: rows.map(toRoleRow) };
}

export async function roleDetail(input: { id: string }, ctx: CallContext) {
  const [role] = await loadVisibleRoles(ctx, [input.id]);
  return toRoleRow(role);
}

export async function roleOptions(ctx: CallContext) {
  const { rows } = await selectRoles(ctx.db, visibleRoles(ctx.user), null, ctx.language);
  return rows.map((r) => ({ value: r.id, label: r.name }));
}

type RoleInput = z.infer<typeof endpoints.roleAdd.request>;

/** Checks codes, department and rights of a role being saved; answers the clean code list. */
async function checkRoleInput(input: RoleInput, ctx: CallContext): Promise<string[]> {
  const codes = [...new Set(input.permissionCodes.filter((c) => c !== OTHER_GROUP))].sort();
  if (codes.some((c) => !ALL_PERMISSION_CODES.includes(c))) throw conflict(OrgText.unknownCode);
  assertMayGrant(ctx.user, codes);
  if (ctx.user.dataScope !== 'all' && SCOPE_WIDTH[input.dataScope] > SCOPE_WIDTH[ctx.user.dataScope as DataScope]) {
    throw noPermission(OrgText.grantBeyondOwn);
  }
  if (input.deptId) await loadVisibleDept(ctx, input.deptId);
  else if (ctx.user.dataScope !== 'all') throw noPermission(OrgText.rootDeptAdminOnly);
  return codes;
}

export async function roleAdd(input: RoleInput, ctx: CallContext) {
  const codes = await checkRoleInput(input, ctx);
  if (await roleNameTaken(ctx.db, ctx.user.entId, input.name)) throw conflict(OrgText.roleNameTaken);
  // Only the enterprise's own built-in role is the administrator role.
  const type = input.type === ADMIN_ROLE_TYPE ? 'custom' : input.type;
  const role = await createRole(ctx.db, {
    entId: ctx.user.entId,
    name: input.name,
    type,
    deptId: input.deptId ?? null,
    dataScope: input.dataScope,
    permissionCodes: codes,
  });
  await ctx.audit({
    module: 'role',
    action: 'add',
    targetType: 'role',
    targetId: role.id,
    targetName: input.name,
    detail: { name: input.name, dataScope: input.dataScope, codes: codes.length },
  });
  return { id: role.id };
}

/** Every session of the accounts holding the roles reloads its permissions on its next call. */
async function invalidateHolders(ctx: CallContext, roleIds: string[]) {
  const holders = await accountsWithRoles(ctx.db, ctx.user.entId, roleIds);
  const cache = ctx.services.sessions.cache;
  ctx.afterCommit(() => {
    for (const accountId of holders) cache.invalidateAccount(accountId);
  });
}

export async function roleUpdate(input: z.infer<typeof endpoints.roleUpdate.request>, ctx: CallContext) {
  const [role] = await loadVisibleRoles(ctx, [input.id]);
  const codes = await checkRoleInput(input, ctx);
  let type = input.type;
  if (isAdminRole(role)) {
    const kept = new Set(codes);
    if (role.permissionCodes.some((c) => !kept.has(c)) || SCOPE_WIDTH[input.dataScope] < SCOPE_WIDTH[role.dataScope]) {
      throw conflict(OrgText.adminRoleReduce);
    }
    type = ADMIN_ROLE_TYPE;
  } else if (type === ADMIN_ROLE_TYPE) type = 'custom';
  if (await roleNameTaken(ctx.db, ctx.user.entId, input.name, role.id)) throw conflict(OrgText.roleNameTaken);
  // A built-in role saved under its own name (in any language) stays built-in and translated;
  // another name is the user's own from now on.
  const keepsBuiltinName = isBuiltinName(role.builtinKey, input.name);
  await updateRoleRow(ctx.db, ctx.user.entId, role.id, {
    ...(keepsBuiltinName ? {} : { name: input.name, builtinKey: null }),
    type,
    deptId: input.deptId ?? null,
    dataScope: input.dataScope,
    permissionCodes: codes,
    updatedAt: ctx.now,
  });
  const before = new Set(role.permissionCodes);
  await ctx.audit({
    module: 'role',
    action: 'update',
    targetType: 'role',
    targetId: role.id,
    targetName: input.name,
    detail: {
      name: input.name,
      dataScope: input.dataScope,
      added: codes.filter((c) => !before.has(c)),
      removed: role.permissionCodes.filter((c) => !codes.includes(c)),
    },
  });
  await invalidateHolders(ctx, [role.id]);
  return null;
}

export async function roleDelete(input: { id: string }, ctx: CallContext) {
  const [role] = await loadVisibleRoles(ctx, [input.id]);
  if (isAdminRole(role)) throw conflict(OrgText.adminRoleDelete);
  assertMayGrant(ctx.user, role.permissionCodes);
  await invalidateHolders(ctx, [role.id]);
  await deleteRoleRow(ctx.db, ctx.user.entId, role.id);
  await ctx.audit({
    module: 'role',
    action: 'delete',
    targetType: 'role',
    targetId: role.id,
    targetName: role.name,
    detail: { name: role.name, accounts: role.accountCount },
  });
  return null;
}
