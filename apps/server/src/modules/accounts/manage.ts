import type { ACCOUNT_SORT_KEYS, AccountRow } from '@marquee/protocol';
import { and, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal.js';
import { scopeWhere, tenantWhere } from '../../auth/scope.js';
import { accountDepartments, accountRoles, accounts, departments, roles } from '../../db/schema/index.js';
import type { SortRequest } from '../../db/sort.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { visibleDepartments } from '../dept/manage.js';
import { selectDepartments } from '../dept/repository.js';
import { registerStat } from '../home/stats.js';
import { conflict, isForeignKeyViolation, noPermission, notFound, OrgText } from '../org/messages.js';
import { selectRoles } from '../roles/repository.js';
import { assertMayGrant, loadVisibleRoles, visibleRoles } from '../roles/service.js';
import {
  type AccountRecord,
  deleteAccountRow,
  loginNameTaken,
  membershipsOf,
  otherAdminCount,
  replaceAccountDepartments,
  replaceAccountRoles,
  selectAccounts,
  updateAccountRow,
} from './repository.js';
import { createAccount, kickAccountSessions, setAccountStatus } from './service.js';

/**
 * Accounts (sub-accounts) of the caller's enterprise. The caller sees themselves and the
 * accounts that belong to a department in their data scope (scope.ts applied to the
 * account's memberships); the administrator sees the whole enterprise.
 */
export function visibleAccounts(principal: Principal): SQL {
  const tenant = tenantWhere(principal, accounts.entId);
  if (principal.dataScope === 'all') return tenant;
  const member = sql`exists (select 1 from ${accountDepartments} where ${accountDepartments.accountId} = ${accounts.id} and ${scopeWhere(
    principal,
    { entId: accountDepartments.entId, deptId: accountDepartments.deptId },
  )})`;
  return and(tenant, or(eq(accounts.id, principal.accountId), member)) as SQL;
}

// Home page figure (issue 8): the accounts the caller's account list shows.
registerStat({
  key: 'accounts',
  async count(db, caller) {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts).where(visibleAccounts(caller));
    return row.n;
  },
});

const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

function toAccountRow(
  row: AccountRecord,
  m: { roles: Map<string, { id: string; name: string }[]>; depts: Map<string, { id: string; name: string }[]> },
): AccountRow {
  return {
    id: row.id,
    userNo: row.userNo,
    loginName: row.loginName,
    realName: row.realName,
    phone: row.phone ?? '',
    email: row.email ?? '',
    status: row.status,
    accountType: row.accountType,
    isEntAdmin: row.isEntAdmin,
    roles: m.roles.get(row.id) ?? [],
    departments: m.depts.get(row.id) ?? [],
    currentDeptId: row.currentDeptId,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface AccountFilters extends SortRequest<(typeof ACCOUNT_SORT_KEYS)[number]> {
  page: number;
  size: number;
  loginName?: string;
  realName?: string;
  roleId?: string;
  deptId?: string;
  phone?: string;
  status?: 'enabled' | 'paused';
}

export async function accountList(input: AccountFilters, ctx: CallContext) {
  const entId = ctx.user.entId;
  const where = and(
    visibleAccounts(ctx.user),
    input.loginName ? ilike(accounts.loginName, `%${escapeLike(input.loginName)}%`) : undefined,
    input.realName ? ilike(accounts.realName, `%${escapeLike(input.realName)}%`) : undefined,
    input.phone ? ilike(accounts.phone, `%${escapeLike(input.phone)}%`) : undefined,
    input.status ? eq(accounts.status, input.status) : undefined,
    input.roleId
      ? sql`exists (select 1 from ${accountRoles} where ${accountRoles.accountId} = ${accounts.id} and ${accountRoles.entId} = ${entId} and ${accountRoles.roleId} = ${input.roleId})`
      : undefined,
    input.deptId
      ? sql`exists (select 1 from ${accountDepartments} where ${accountDepartments.accountId} = ${accounts.id} and ${accountDepartments.entId} = ${entId} and ${accountDepartments.deptId} = ${input.deptId})`
      : undefined,
  ) as SQL;
  const { total, rows } = await selectAccounts(ctx.db, where, input);
  const m = await membershipsOf(
    ctx.db,
    entId,
    rows.map((r) => r.id),
    ctx.language,
  );
  return { total, data: rows.map((r) => toAccountRow(r, m)) };
}

/** One account in the caller's scope, or NOT_FOUND (also for another tenant's id). */
export async function loadVisibleAccount(ctx: CallContext, id: string): Promise<AccountRecord> {
  const { rows } = await selectAccounts(ctx.db, and(visibleAccounts(ctx.user), eq(accounts.id, id)) as SQL, null);
  if (!rows[0]) throw notFound();
  return rows[0];
}

/** Loads the accounts for a change: in scope, and an administrator account only for an administrator. */
async function loadForChange(ctx: CallContext, id: string): Promise<AccountRecord> {
  const account = await loadVisibleAccount(ctx, id);
  if (account.isEntAdmin && ctx.user.dataScope !== 'all') throw noPermission();
  return account;
}

export async function accountDetail(input: { id: string }, ctx: CallContext) {
  const row = await loadVisibleAccount(ctx, input.id);
  return toAccountRow(row, await membershipsOf(ctx.db, ctx.user.entId, [row.id], ctx.language));
}

/** Departments in the caller's scope, all of them or NOT_FOUND. */
async function checkDepts(ctx: CallContext, deptIds: string[]): Promise<string[]> {
  const unique = [...new Set(deptIds)];
  if (unique.length === 0) return [];
  const rows = await selectDepartments(
    ctx.db,
    and(visibleDepartments(ctx.user), inArray(departments.id, unique)) as SQL,
  );
  if (rows.length !== unique.length) throw notFound();
  return deptIds.filter((d, i) => deptIds.indexOf(d) === i);
}

/** Roles in the caller's scope whose codes the caller may hand out. */
async function checkRoles(ctx: CallContext, roleIds: string[]): Promise<string[]> {
  const rows = await loadVisibleRoles(ctx, roleIds);
  for (const role of rows) assertMayGrant(ctx.user, role.permissionCodes);
  return rows.map((r) => r.id);
}

/** Held role ids the caller may see: an edit replaces only those, keeping roles beyond the caller's scope. */
async function replaceableRoles(ctx: CallContext, accountId: string): Promise<string[]> {
  const held = ctx.db
    .select({ roleId: accountRoles.roleId })
    .from(accountRoles)
    .where(and(eq(accountRoles.entId, ctx.user.entId), eq(accountRoles.accountId, accountId)));
  const { rows } = await selectRoles(
    ctx.db,
    and(visibleRoles(ctx.user), inArray(roles.id, held)) as SQL,
    null,
    ctx.language,
  );
  return rows.map((r) => r.id);
}

async function setRoles(ctx: CallContext, account: AccountRecord, roleIds: string[]) {
  await replaceAccountRoles(ctx.db, ctx.user.entId, account.id, await replaceableRoles(ctx, account.id), roleIds);
}

async function setDepts(ctx: CallContext, account: AccountRecord, deptIds: string[]) {
  const remaining = await replaceAccountDepartments(
    ctx.db,
    ctx.user.entId,
    account.id,
    visibleDepartments(ctx.user),
    deptIds,
  );
  const current =
    account.currentDeptId && remaining.includes(account.currentDeptId)
      ? account.currentDeptId
      : (deptIds[0] ?? remaining[0] ?? null);
  if (current !== account.currentDeptId) {
    await updateAccountRow(ctx.db, ctx.user.entId, account.id, { currentDeptId: current, updatedAt: ctx.now });
  }
}

function invalidate(ctx: CallContext, accountIds: string[]) {
  const cache = ctx.services.sessions.cache;
  ctx.afterCommit(() => {
    for (const id of accountIds) cache.invalidateAccount(id);
  });
}

export interface AccountFields {
  realName: string;
  phone?: string;
  email?: string;
  accountType: 'individual' | 'enterprise';
  roleIds: string[];
  deptIds: string[];
}

export async function accountAdd(input: AccountFields & { loginName: string }, ctx: CallContext, passwordHash: string) {
  const deptIds = await checkDepts(ctx, input.deptIds);
  const roleIds = await checkRoles(ctx, input.roleIds);
  if (await loginNameTaken(ctx.db, input.loginName)) throw conflict(OrgText.loginNameTaken);
  const account = await createAccount(ctx.db, {
    entId: ctx.user.entId,
    loginName: input.loginName,
    password: '',
    passwordHash,
    realName: input.realName,
    phone: input.phone || null,
    email: input.email || null,
    accountType: input.accountType,
    deptIds,
    roleIds,
  });
  await ctx.audit({
    module: 'account',
    action: 'add',
    targetType: 'account',
    targetId: account.id,
    targetName: input.loginName,
    detail: { loginName: input.loginName, roleIds, deptIds },
  });
  return { id: account.id };
}

export async function accountUpdate(input: AccountFields & { id: string }, ctx: CallContext) {
  const account = await loadForChange(ctx, input.id);
  const deptIds = await checkDepts(ctx, input.deptIds);
  const roleIds = await checkRoles(ctx, input.roleIds);
  await updateAccountRow(ctx.db, ctx.user.entId, account.id, {
    realName: input.realName,
    phone: input.phone || null,
    email: input.email || null,
    accountType: input.accountType,
    updatedAt: ctx.now,
  });
  await setRoles(ctx, account, roleIds);
  await setDepts(ctx, account, deptIds);
  await ctx.audit({
    module: 'account',
    action: 'update',
    targetType: 'account',
    targetId: account.id,
    targetName: account.loginName,
    detail: { loginName: account.loginName, roleIds, deptIds },
  });
  invalidate(ctx, [account.id]);
  return null;
}

export async function accountSetStatus(input: { id: string; status: 'enabled' | 'paused' }, ctx: CallContext) {
  if (input.id === ctx.user.accountId) throw conflict(OrgText.notYourself);
  const account = await loadForChange(ctx, input.id);
  await setAccountStatus(
    ctx.db,
    ctx.services.sessions,
    { entId: ctx.user.entId, accountId: account.id },
    input.status,
    ctx.now,
    ctx.afterCommit,
  );
  await ctx.audit({
    module: 'account',
    action: input.status === 'paused' ? 'pause' : 'enable',
    targetType: 'account',
    targetId: account.id,
    targetName: account.loginName,
    detail: { loginName: account.loginName, from: account.status, to: input.status },
  });
  return null;
}

export async function accountResetPassword(input: { id: string }, ctx: CallContext, passwordHash: string) {
  const account = await loadForChange(ctx, input.id);
  await updateAccountRow(ctx.db, ctx.user.entId, account.id, { passwordHash, updatePwd: true, updatedAt: ctx.now });
  // Sessions opened with the old password end; the account must change the password at next login.
  if (account.id !== ctx.user.accountId) {
    await kickAccountSessions(
      ctx.db,
      ctx.services.sessions,
      { entId: ctx.user.entId, accountId: account.id },
      ctx.now,
      ctx.afterCommit,
    );
  } else invalidate(ctx, [account.id]);
  await ctx.audit({
    module: 'account',
    action: 'resetPassword',
    targetType: 'account',
    targetId: account.id,
    targetName: account.loginName,
    detail: { loginName: account.loginName },
  });
  return null;
}

export async function accountDelete(input: { id: string }, ctx: CallContext) {
  if (input.id === ctx.user.accountId) throw conflict(OrgText.notYourself);
  const account = await loadForChange(ctx, input.id);
  if (account.isEntAdmin && (await otherAdminCount(ctx.db, ctx.user.entId, account.id)) === 0) {
    throw conflict(OrgText.lastAdmin);
  }
  try {
    // A savepoint: data of other modules may still belong to the account.
    await ctx.db.transaction((sp) => deleteAccountRow(sp, ctx.user.entId, account.id));
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict(OrgText.ownsData);
    throw error;
  }
  await ctx.audit({
    module: 'account',
    action: 'delete',
    targetType: 'account',
    targetId: account.id,
    targetName: account.loginName,
    detail: { loginName: account.loginName },
  });
  invalidate(ctx, [account.id]);
  return null;
}

async function loadBatch(ctx: CallContext, ids: string[]): Promise<AccountRecord[]> {
  const unique = [...new Set(ids)];
  const { rows } = await selectAccounts(
    ctx.db,
    and(visibleAccounts(ctx.user), inArray(accounts.id, unique)) as SQL,
    null,
  );
  if (rows.length !== unique.length) throw notFound();
  if (ctx.user.dataScope !== 'all' && rows.some((r) => r.isEntAdmin)) throw noPermission();
  return rows;
}

export async function accountBatchRoles(input: { ids: string[]; roleIds: string[] }, ctx: CallContext) {
  const rows = await loadBatch(ctx, input.ids);
  const roleIds = await checkRoles(ctx, input.roleIds);
  for (const account of rows) await setRoles(ctx, account, roleIds);
  await ctx.audit({
    module: 'account',
    action: 'batchRoles',
    targetType: 'account',
    targetName: joinTargetNames(rows.map((r) => r.loginName)),
    detail: { ids: rows.map((r) => r.id), roleIds },
  });
  invalidate(
    ctx,
    rows.map((r) => r.id),
  );
  return null;
}

export async function accountBatchDepts(input: { ids: string[]; deptIds: string[] }, ctx: CallContext) {
  const rows = await loadBatch(ctx, input.ids);
  const deptIds = await checkDepts(ctx, input.deptIds);
  for (const account of rows) await setDepts(ctx, account, deptIds);
  await ctx.audit({
    module: 'account',
    action: 'batchDepts',
    targetType: 'account',
    targetName: joinTargetNames(rows.map((r) => r.loginName)),
    detail: { ids: rows.map((r) => r.id), deptIds },
  });
  invalidate(
    ctx,
    rows.map((r) => r.id),
  );
  return null;
}
