import { ADVERTISER_ROLE_CODES, type Advertiser, BUILTIN_NAMES, ErrorCode } from '@marquee/protocol';
import { hashPassword } from '../../auth/passwords.js';
import type { Executor } from '../../db/client.js';
import { pgErrorCode } from '../../db/errors.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { loginNameTaken } from '../accounts/repository.js';
import { createAccount, setAccountStatus } from '../accounts/service.js';
import { checkDictionaryValue, findCode } from '../dictionaries/service.js';
import { conflict, OrgText } from '../org/messages.js';
import { createRole } from '../roles/repository.js';
import {
  type AdvertiserFilter,
  type AdvertiserRow,
  type AdvertiserSort,
  addAssignments,
  deleteAdvertiserAccount,
  findAdvertiserRole,
  insertAdvertiser,
  listAdvertisers,
  listStaff,
  removeAssignments,
  staffOf,
  updateAdvertiserAccount,
  updateAdvertiserIndustry,
  visibleAdvertisers,
} from './repository.js';
import { advertiserScopeWhere } from './scope.js';

const STILL_REFERENCED = {
  'zh-CN': '该广告主仍有关联数据，无法删除，请先暂停',
  'en-US': 'This advertiser still has data attached and cannot be deleted; pause it instead',
  ja: 'この広告主には関連データがあるため削除できません。停止してください',
};

function present(row: AdvertiserRow, staff: Advertiser['staff']): Advertiser {
  return {
    id: row.id,
    loginName: row.loginName,
    realName: row.realName,
    phone: row.phone,
    email: row.email,
    status: row.status,
    deptId: row.deptId,
    deptName: row.deptName ?? '',
    createdAt: row.createdAt.toISOString(),
    industry: row.industry,
    staff,
  };
}

/** Advertisers the caller sees (scope + assignments), with their assigned staff. */
export async function listVisibleAdvertisers(
  input: AdvertiserFilter & { page: number; size: number } & AdvertiserSort,
  ctx: CallContext,
) {
  const { page, size, sort, order, ...filter } = input;
  const user = ctx.user;
  // An industry filter names a code of the dictionary (issue 31; a disabled one too: advertisers keep it).
  if (filter.industry) await findCode(ctx.db, 'industry', 'industry', filter.industry);
  const { total, rows } = await listAdvertisers(ctx.db, user.entId, advertiserScopeWhere(user), filter, {
    page,
    size,
    sort,
    order,
  });
  const staff = await staffOf(
    ctx.db,
    user.entId,
    rows.map((r) => r.id),
  );
  return { total, data: rows.map((r) => present(r, staff.get(r.id) ?? [])) };
}

/** The advertiser's login name and industry; NOT_FOUND outside the caller's scope (other tenants included). */
async function findVisible(ctx: CallContext, id: string): Promise<{ loginName: string; industry: string | null }> {
  const rows = await visibleAdvertisers(ctx.db, ctx.user.entId, advertiserScopeWhere(ctx.user), [id]);
  if (rows.length !== 1) throw new AppError(ErrorCode.NOT_FOUND);
  return rows[0];
}

/** The advertiser's login name; NOT_FOUND outside the caller's scope. */
async function requireVisible(ctx: CallContext, id: string): Promise<string> {
  return (await findVisible(ctx, id)).loginName;
}

const blankToNull = (v: string | undefined) => (v?.trim() ? v.trim() : null);

async function advertiserRoleId(db: Executor, entId: string): Promise<string> {
  const existing = await findAdvertiserRole(db, entId);
  if (existing) return existing;
  const role = await createRole(db, {
    entId,
    name: BUILTIN_NAMES.advertiser['en-US'],
    type: 'advertiser',
    dataScope: 'self',
    permissionCodes: ADVERTISER_ROLE_CODES,
    builtinKey: 'advertiser',
  });
  return role.id;
}

export interface NewAdvertiser {
  loginName: string;
  password: string;
  realName: string;
  phone?: string;
  email?: string;
  /** A code of the dictionary `industry`; null or absent: not given. */
  industry?: string | null;
}

/**
 * Creates an advertiser account of the caller's enterprise in the caller's current
 * department, with the enterprise's advertiser role. The password hash comes from prepare().
 */
export async function addAdvertiser(input: NewAdvertiser, ctx: CallContext, passwordHash: string) {
  const user = ctx.user;
  if (await loginNameTaken(ctx.db, input.loginName)) throw conflict(OrgText.loginNameTaken);
  // The industry, when given, is an enabled entry of the dictionary `industry` (issue 31).
  if (input.industry) await checkDictionaryValue(ctx.db, 'industry', 'industry', input.industry);
  const id = await createAdvertiser(ctx.db, {
    entId: user.entId,
    deptId: user.deptId,
    createdBy: user.accountId,
    passwordHash,
    ...input,
  });
  // Staff who are not administrators look after what they add: assigning it to them keeps it
  // in their view whatever their data scope.
  if (user.dataScope !== 'all') await addAssignments(ctx.db, user.entId, [id], [user.accountId]);
  await ctx.audit({
    module: 'advertiser',
    action: 'add',
    targetType: 'account',
    targetId: id,
    targetName: input.loginName,
    detail: { loginName: input.loginName, ...(input.industry ? { industry: input.industry } : {}) },
  });
  return { id };
}

/** Creates the account and marks it an advertiser (also used by the demo seed). */
export async function createAdvertiser(
  db: Executor,
  input: NewAdvertiser & { entId: string; deptId: string | null; createdBy: string | null; passwordHash?: string },
): Promise<string> {
  const roleId = await advertiserRoleId(db, input.entId);
  const account = await createAccount(db, {
    entId: input.entId,
    loginName: input.loginName,
    password: input.password,
    passwordHash: input.passwordHash ?? (await hashPassword(input.password)),
    realName: input.realName,
    phone: blankToNull(input.phone),
    email: blankToNull(input.email),
    accountType: 'individual',
    deptIds: input.deptId ? [input.deptId] : [],
    roleIds: [roleId],
  });
  await insertAdvertiser(db, {
    accountId: account.id,
    entId: input.entId,
    createdBy: input.createdBy,
    industry: input.industry ?? null,
  });
  return account.id;
}

export async function updateAdvertiser(
  input: { id: string; realName: string; phone?: string; email?: string; industry?: string | null },
  ctx: CallContext,
) {
  const { loginName, industry } = await findVisible(ctx, input.id);
  // The industry is a code of the dictionary (issue 31): an enabled one, or the one it already has.
  if (input.industry) await checkDictionaryValue(ctx.db, 'industry', 'industry', input.industry, industry);
  await updateAdvertiserAccount(
    ctx.db,
    ctx.user.entId,
    input.id,
    { realName: input.realName, phone: blankToNull(input.phone), email: blankToNull(input.email) },
    ctx.now,
  );
  // Left out: kept; null: cleared.
  if (input.industry !== undefined && input.industry !== industry) {
    await updateAdvertiserIndustry(ctx.db, ctx.user.entId, input.id, input.industry);
  }
  await ctx.audit({
    module: 'advertiser',
    action: 'update',
    targetType: 'account',
    targetId: input.id,
    targetName: loginName,
  });
  return null;
}

/** Enables or pauses an advertiser; pausing ends its sessions (their next call answers -10008). */
export async function setAdvertiserStatus(input: { id: string; status: 'enabled' | 'paused' }, ctx: CallContext) {
  const loginName = await requireVisible(ctx, input.id);
  await setAccountStatus(
    ctx.db,
    ctx.services.sessions,
    { entId: ctx.user.entId, accountId: input.id },
    input.status,
    ctx.now,
    (fn) => ctx.afterCommit(fn),
  );
  await ctx.audit({
    module: 'advertiser',
    action: input.status === 'paused' ? 'pause' : 'enable',
    targetType: 'account',
    targetId: input.id,
    targetName: loginName,
  });
  return null;
}

export async function deleteAdvertiser(input: { id: string }, ctx: CallContext) {
  const loginName = await requireVisible(ctx, input.id);
  const ref = { entId: ctx.user.entId, accountId: input.id };
  await ctx.services.sessions.endAllForAccount(ctx.db, ref, 'kicked', ctx.now, (fn) => ctx.afterCommit(fn));
  try {
    await ctx.db.transaction(async (tx) => deleteAdvertiserAccount(tx as unknown as Executor, ref.entId, input.id));
  } catch (error) {
    // Rows of other modules that keep the account (notices it wrote...): refuse, do not 500.
    if (pgErrorCode(error) === '23503') throw new AppError(ErrorCode.CONFLICT, STILL_REFERENCED);
    throw error;
  }
  await ctx.audit({
    module: 'advertiser',
    action: 'delete',
    targetType: 'account',
    targetId: input.id,
    targetName: loginName,
  });
  return null;
}

export async function staffOptions(ctx: CallContext) {
  const rows = await listStaff(ctx.db, ctx.user.entId);
  return rows.map((r) => ({
    value: r.id,
    label: r.realName && r.realName !== r.loginName ? `${r.realName} (${r.loginName})` : r.loginName,
  }));
}

async function checkAssignment(input: { advertiserIds: string[]; staffIds: string[] }, ctx: CallContext) {
  const advertiserIds = [...new Set(input.advertiserIds)];
  const staffIds = [...new Set(input.staffIds)];
  const visible = await visibleAdvertisers(ctx.db, ctx.user.entId, advertiserScopeWhere(ctx.user), advertiserIds);
  const staff = await listStaff(ctx.db, ctx.user.entId, staffIds);
  if (visible.length !== advertiserIds.length || staff.length !== staffIds.length) {
    throw new AppError(ErrorCode.NOT_FOUND);
  }
  return { advertiserIds, staffIds, names: joinTargetNames(visible.map((r) => r.loginName)) };
}

export async function assignAdvertisers(input: { advertiserIds: string[]; staffIds: string[] }, ctx: CallContext) {
  const { advertiserIds, staffIds, names } = await checkAssignment(input, ctx);
  const assigned = await addAssignments(ctx.db, ctx.user.entId, advertiserIds, staffIds);
  await ctx.audit({
    module: 'advertiser',
    action: 'assign',
    targetType: 'account',
    targetId: advertiserIds.length === 1 ? advertiserIds[0] : undefined,
    targetName: names,
    detail: { advertiserIds, staffIds, assigned },
  });
  return { assigned };
}

export async function unassignAdvertisers(input: { advertiserIds: string[]; staffIds: string[] }, ctx: CallContext) {
  const { advertiserIds, staffIds, names } = await checkAssignment(input, ctx);
  const removed = await removeAssignments(ctx.db, ctx.user.entId, advertiserIds, staffIds);
  await ctx.audit({
    module: 'advertiser',
    action: 'unassign',
    targetType: 'account',
    targetId: advertiserIds.length === 1 ? advertiserIds[0] : undefined,
    targetName: names,
    detail: { advertiserIds, staffIds, removed },
  });
  return { removed };
}
