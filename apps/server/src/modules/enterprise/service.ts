import { allowedCodes, BUILTIN_NAMES, type ENTERPRISE_SORT_KEYS, type EnterpriseRow, Perm } from '@marquee/protocol';
import { and, eq, ne, type SQL } from 'drizzle-orm';
import type { Principal } from '../../auth/principal.js';
import type { Executor } from '../../db/client.js';
import { type EnterpriseKind, enterprises } from '../../db/schema/index.js';
import type { SortRequest } from '../../db/sort.js';
import type { CallContext } from '../../protocol/handlers.js';
import { loginNameTaken } from '../accounts/repository.js';
import { createAccount } from '../accounts/service.js';
import { REZONE_JOB } from '../content/rollups.js';
import { insertDepartment } from '../dept/repository.js';
import { conflict, noPermission, notFound, OrgText } from '../org/messages.js';
import { createRole } from '../roles/repository.js';
import { ADMIN_ROLE_TYPE } from '../roles/service.js';
import {
  creditCodeTaken,
  type EnterpriseRecord,
  endEnterpriseSessions,
  insertEnterprise,
  nameFilter,
  selectEnterprises,
  updateEnterpriseRow,
} from './repository.js';

/**
 * The codes of a new enterprise's built-in administrator role: every code its kind may hold
 * (allowedCodes), less company management for a plain enterprise (agents manage enterprises).
 */
export function adminRoleCodes(kind: EnterpriseKind): string[] {
  const codes = allowedCodes(kind);
  return kind === 'enterprise' ? codes.filter((c) => c !== Perm.userCompanyManage) : [...codes];
}

export interface NewEnterprise {
  kind: EnterpriseKind;
  parentId?: string | null;
  name: string;
  socialCreditCode: string | null;
  contact?: string;
  phone?: string;
  accountType?: 'individual' | 'enterprise';
  welcomeSpeech?: string;
  /** IANA zone; default the database's (Asia/Shanghai): callers pass the configured DEFAULT_TIME_ZONE. */
  timeZone?: string;
  admin: { loginName: string; passwordHash: string; realName: string; phone?: string | null; email?: string | null };
  now?: Date;
}

/**
 * Creates an enterprise with its top department (named after it), its built-in
 * administrator role and its administrator account. Used by /user/company and by company
 * self-registration. The caller checks that the login name and credit code are free.
 */
export async function createEnterpriseWithAdmin(db: Executor, input: NewEnterprise) {
  const ent = await insertEnterprise(db, {
    kind: input.kind,
    parentId: input.parentId ?? null,
    name: input.name,
    socialCreditCode: input.socialCreditCode,
    contact: input.contact ?? '',
    phone: input.phone ?? '',
    accountType: input.accountType ?? 'enterprise',
    welcomeSpeech: input.welcomeSpeech ?? '',
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    ...(input.now ? { createdAt: input.now, updatedAt: input.now } : {}),
  });
  const dept = await insertDepartment(db, { entId: ent.id, name: input.name.slice(0, 20) });
  const role = await createRole(db, {
    entId: ent.id,
    name: BUILTIN_NAMES.enterprise_admin['en-US'],
    type: ADMIN_ROLE_TYPE,
    dataScope: 'dept_and_below',
    permissionCodes: adminRoleCodes(input.kind),
    builtin: true,
    builtinKey: 'enterprise_admin',
  });
  const admin = await createAccount(db, {
    entId: ent.id,
    loginName: input.admin.loginName,
    password: '',
    passwordHash: input.admin.passwordHash,
    realName: input.admin.realName,
    phone: input.admin.phone ?? null,
    email: input.admin.email ?? null,
    accountType: input.accountType ?? 'enterprise',
    isEntAdmin: true,
    deptIds: [dept.id],
    roleIds: [role.id],
  });
  return { id: ent.id, adminId: admin.id, rootDeptId: dept.id, adminRoleId: role.id };
}

/**
 * The enterprises the caller manages: the platform operator every customer enterprise and
 * agent; an agent the enterprises under it; an enterprise none (NO_PERMISSION).
 */
function managedEnterprises(principal: Principal): SQL {
  if (principal.entKind === 'provider') return ne(enterprises.kind, 'provider');
  if (principal.entKind === 'agent') return eq(enterprises.parentId, principal.entId);
  throw noPermission(OrgText.operatorOnly);
}

function toEnterpriseRow(row: EnterpriseRecord): EnterpriseRow {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    adminLoginName: row.adminLoginName ?? null,
    parentName: row.parentName ?? null,
  };
}

export async function enterpriseList(
  input: SortRequest<(typeof ENTERPRISE_SORT_KEYS)[number]> & {
    page: number;
    size: number;
    name?: string;
    socialCreditCode?: string;
    kind?: 'enterprise' | 'agent';
    status?: 'enabled' | 'paused';
  },
  ctx: CallContext,
) {
  const where = and(
    managedEnterprises(ctx.user),
    input.name ? nameFilter(input.name) : undefined,
    input.socialCreditCode ? eq(enterprises.socialCreditCode, input.socialCreditCode) : undefined,
    input.kind ? eq(enterprises.kind, input.kind) : undefined,
    input.status ? eq(enterprises.status, input.status) : undefined,
  ) as SQL;
  const { total, rows } = await selectEnterprises(ctx.db, where, input);
  return { total, data: rows.map(toEnterpriseRow) };
}

/** The caller's own enterprise, or one they manage; NOT_FOUND otherwise. */
async function loadEnterprise(ctx: CallContext, id: string | undefined): Promise<EnterpriseRecord & { own: boolean }> {
  const own = !id || id === ctx.user.entId;
  let where: SQL;
  if (own) where = eq(enterprises.id, ctx.user.entId);
  else {
    if (ctx.user.entKind === 'enterprise') throw notFound();
    where = and(managedEnterprises(ctx.user), eq(enterprises.id, id)) as SQL;
  }
  const { rows } = await selectEnterprises(ctx.db, where, null);
  if (!rows[0]) throw notFound();
  return { ...rows[0], own };
}

export async function enterpriseDetail(input: { id?: string }, ctx: CallContext) {
  const { own: _own, ...row } = await loadEnterprise(ctx, input.id);
  return toEnterpriseRow(row);
}

export async function enterpriseAdd(
  input: {
    kind: 'enterprise' | 'agent';
    name: string;
    socialCreditCode: string;
    contact: string;
    phone: string;
    accountType: 'individual' | 'enterprise';
    timeZone?: string;
    admin: { loginName: string; realName: string };
  },
  ctx: CallContext,
  passwordHash: string,
) {
  managedEnterprises(ctx.user);
  // Only the platform operator makes agents; an agent's enterprises hang under it.
  if (input.kind === 'agent' && ctx.user.entKind !== 'provider') throw noPermission(OrgText.operatorOnly);
  if (await creditCodeTaken(ctx.db, input.socialCreditCode)) throw conflict(OrgText.creditCodeTaken);
  if (await loginNameTaken(ctx.db, input.admin.loginName)) throw conflict(OrgText.loginNameTaken);
  const created = await createEnterpriseWithAdmin(ctx.db, {
    kind: input.kind,
    parentId: ctx.user.entKind === 'agent' ? ctx.user.entId : null,
    name: input.name,
    socialCreditCode: input.socialCreditCode,
    contact: input.contact,
    phone: input.phone,
    accountType: input.accountType,
    welcomeSpeech: '',
    timeZone: input.timeZone ?? ctx.services.config.defaultTimeZone,
    admin: { loginName: input.admin.loginName, passwordHash, realName: input.admin.realName },
    now: ctx.now,
  });
  await ctx.audit({
    module: 'enterprise',
    action: 'add',
    targetType: 'enterprise',
    targetId: created.id,
    targetName: input.name,
    detail: { name: input.name, kind: input.kind, adminLoginName: input.admin.loginName },
  });
  return { id: created.id, adminId: created.adminId };
}

export async function enterpriseUpdate(
  input: {
    id: string;
    name: string;
    socialCreditCode: string;
    contact: string;
    phone: string;
    accountType: 'individual' | 'enterprise';
    welcomeSpeech?: string;
    timeZone?: string;
  },
  ctx: CallContext,
) {
  const ent = await loadEnterprise(ctx, input.id);
  if (ent.own && ctx.user.dataScope !== 'all') throw noPermission();
  if (await creditCodeTaken(ctx.db, input.socialCreditCode, ent.id)) throw conflict(OrgText.creditCodeTaken);
  await updateEnterpriseRow(ctx.db, ent.id, {
    name: input.name,
    socialCreditCode: input.socialCreditCode,
    contact: input.contact,
    phone: input.phone,
    accountType: input.accountType,
    ...(input.welcomeSpeech !== undefined ? { welcomeSpeech: input.welcomeSpeech } : {}),
    // A new zone reaches the screens that follow it with their next manifest (at most a minute: players poll).
    ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
    updatedAt: ctx.now,
  });
  await ctx.audit({
    module: 'enterprise',
    action: 'update',
    targetType: 'enterprise',
    targetId: ent.id,
    targetName: input.name,
    detail: {
      name: input.name,
      ...(input.timeZone !== undefined && input.timeZone !== ent.timeZone
        ? { timeZone: input.timeZone, previousTimeZone: ent.timeZone }
        : {}),
    },
  });
  // Sessions of the enterprise show the new welcome text on their next call.
  const entId = ent.id;
  ctx.afterCommit(() => ctx.services.sessions.cache.invalidateEnterprise(entId));
  // A new zone: the reports' days follow once its rollups are rebuilt in it (rollups-rezone).
  if (input.timeZone !== undefined && input.timeZone !== ent.timeZone) {
    ctx.afterCommit(() => ctx.services.jobs.wake(REZONE_JOB));
  }
  return null;
}

export async function enterpriseSetStatus(input: { id: string; status: 'enabled' | 'paused' }, ctx: CallContext) {
  managedEnterprises(ctx.user);
  if (input.id === ctx.user.entId) throw conflict(OrgText.ownEnterprise);
  const ent = await loadEnterprise(ctx, input.id);
  await updateEnterpriseRow(ctx.db, ent.id, { status: input.status, updatedAt: ctx.now });
  if (input.status === 'paused') await endEnterpriseSessions(ctx.db, ent.id, ctx.now);
  await ctx.audit({
    module: 'enterprise',
    action: input.status === 'paused' ? 'pause' : 'enable',
    targetType: 'enterprise',
    targetId: ent.id,
    targetName: ent.name,
    detail: { name: ent.name, from: ent.status, to: input.status },
  });
  const entId = ent.id;
  ctx.afterCommit(() => ctx.services.sessions.cache.invalidateEnterprise(entId));
  return null;
}
