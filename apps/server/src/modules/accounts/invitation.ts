import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { displayName } from '../../db/builtinNames.js';
import type { Executor } from '../../db/client.js';
import { departments, enterprises, invitations, roles } from '../../db/schema/index.js';
import type { CallContext } from '../../protocol/handlers.js';
import { loadVisibleDept } from '../dept/manage.js';
import { conflict, notFound, OrgText } from '../org/messages.js';
import { assertMayGrant, loadVisibleRoles } from '../roles/service.js';
import { loginNameTaken } from './repository.js';
import { createAccount } from './service.js';

/**
 * QR invitations. The token is `<invitation id>.<HMAC-SHA256 of the id>` keyed with the
 * server secret (auth/secret.ts), so a link cannot be forged or altered; the row carries the
 * enterprise, expiry and the preset department and role.
 */
const sign = (secret: string, id: string) =>
  createHmac('sha256', secret).update(`invitation:${id}`).digest('base64url');

export function invitationToken(secret: string, id: string): string {
  return `${id}.${sign(secret, id)}`;
}

/** The invitation id of a well-signed token, or null. */
export function verifyInvitationToken(secret: string, token: string): string | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const id = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(sign(secret, id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

async function enterpriseName(db: Executor, entId: string): Promise<string> {
  const [row] = await db.select({ name: enterprises.name }).from(enterprises).where(eq(enterprises.id, entId));
  return row?.name ?? '';
}

export const invitationPath = (token: string) => `/login/register?invite=${encodeURIComponent(token)}`;

export async function invitationCreate(
  input: { deptId?: string | null; roleId?: string | null; days: number },
  ctx: CallContext,
) {
  const user = ctx.user;
  // Someone without the whole enterprise invites into their own department by default.
  const deptId = input.deptId ?? (user.dataScope === 'all' ? null : user.deptId);
  const dept = deptId ? await loadVisibleDept(ctx, deptId) : null;
  if (input.roleId) {
    const [role] = await loadVisibleRoles(ctx, [input.roleId]);
    assertMayGrant(user, role.permissionCodes);
  }
  const expiresAt = new Date(ctx.now.getTime() + input.days * 86_400_000);
  const [row] = await ctx.db
    .insert(invitations)
    .values({
      entId: user.entId,
      deptId,
      roleId: input.roleId ?? null,
      createdBy: user.accountId,
      expiresAt,
      createdAt: ctx.now,
    })
    .returning({ id: invitations.id });
  const token = invitationToken(ctx.services.secret, row.id);
  await ctx.audit({
    module: 'account',
    action: 'invite',
    targetType: 'invitation',
    targetId: row.id,
    // An invitation has no name of its own: it is named by the department it invites into.
    targetName: dept?.name ?? (await enterpriseName(ctx.db, user.entId)),
    detail: { deptId, roleId: input.roleId ?? null, expiresAt: expiresAt.toISOString() },
  });
  return {
    id: row.id,
    token,
    path: invitationPath(token),
    expiresAt: expiresAt.toISOString(),
    deptId,
    roleId: input.roleId ?? null,
  };
}

/** A valid invitation of a token: signed, known, not revoked or expired, enterprise enabled. */
async function loadInvitation(db: Executor, secret: string, token: string, now: Date, language: string) {
  const id = verifyInvitationToken(secret, token);
  if (!id) throw notFound(OrgText.invitationInvalid);
  const [row] = await db
    .select({
      id: invitations.id,
      entId: invitations.entId,
      deptId: invitations.deptId,
      roleId: invitations.roleId,
      expiresAt: invitations.expiresAt,
      revokedAt: invitations.revokedAt,
      enterpriseName: enterprises.name,
      entStatus: enterprises.status,
      deptName: departments.name,
      roleName: displayName(roles, language),
    })
    .from(invitations)
    .innerJoin(enterprises, eq(enterprises.id, invitations.entId))
    .leftJoin(departments, and(eq(departments.id, invitations.deptId), eq(departments.entId, invitations.entId)))
    .leftJoin(roles, and(eq(roles.id, invitations.roleId), eq(roles.entId, invitations.entId)))
    .where(eq(invitations.id, id))
    .limit(1);
  if (!row || row.revokedAt || row.entStatus !== 'enabled') throw notFound(OrgText.invitationInvalid);
  if (row.expiresAt.getTime() <= now.getTime()) throw conflict(OrgText.invitationExpired);
  return row;
}

export async function invitationInspect(input: { token: string }, ctx: CallContext) {
  const row = await loadInvitation(ctx.db, ctx.services.secret, input.token, ctx.now, ctx.language);
  return {
    enterpriseName: row.enterpriseName,
    deptName: row.deptName ?? null,
    roleName: row.roleName ?? null,
    expiresAt: row.expiresAt.toISOString(),
  };
}

export async function invitationAccept(
  input: { token: string; loginName: string; realName: string; phone?: string },
  ctx: CallContext,
  passwordHash: string,
) {
  const row = await loadInvitation(ctx.db, ctx.services.secret, input.token, ctx.now, ctx.language);
  if (await loginNameTaken(ctx.db, input.loginName)) throw conflict(OrgText.loginNameTaken);
  let deptId = row.deptId;
  if (!deptId) {
    const [top] = await ctx.db
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.entId, row.entId), isNull(departments.parentId)))
      .orderBy(asc(departments.sort), asc(departments.createdAt))
      .limit(1);
    deptId = top?.id ?? null;
  }
  const account = await createAccount(ctx.db, {
    entId: row.entId,
    loginName: input.loginName,
    password: '',
    passwordHash,
    realName: input.realName,
    phone: input.phone || null,
    deptIds: deptId ? [deptId] : [],
    roleIds: row.roleId ? [row.roleId] : [],
  });
  await ctx.audit({
    module: 'account',
    action: 'acceptInvitation',
    targetType: 'account',
    targetId: account.id,
    targetName: input.loginName,
    detail: { invitationId: row.id, deptId, roleId: row.roleId },
    actor: { entId: row.entId, accountId: account.id, loginName: input.loginName },
  });
  return { loginName: input.loginName };
}
