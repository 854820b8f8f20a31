import { ErrorCode, type Profile } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { findAccountByTarget } from '../../auth/loginRepository.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import type { Executor } from '../../db/client.js';
import { accounts, enterprises } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { replacePassword } from '../auth/service.js';
import { listAccountDepartments } from '../dept/repository.js';
import { bindingsOf } from '../oauth/service.js';
import { accessMessages } from '../verification/messages.js';
import { checkCode, codeDeps, issueCode, useCode } from '../verification/service.js';

/** The personal centre of the caller: own account only, so no data scope beyond the tenant. */
export async function loadProfile(db: Executor, ctx: CallContext): Promise<Profile> {
  const user = ctx.user;
  const [row] = await db
    .select({
      loginName: accounts.loginName,
      realName: accounts.realName,
      phone: accounts.phone,
      email: accounts.email,
      entName: enterprises.name,
    })
    .from(accounts)
    .innerJoin(enterprises, eq(enterprises.id, accounts.entId))
    .where(and(eq(accounts.entId, user.homeEntId), eq(accounts.id, user.accountId)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  return {
    id: user.accountId,
    loginName: row.loginName,
    realName: row.realName,
    phone: row.phone ?? '',
    email: row.email ?? '',
    entName: row.entName,
    departments: await listAccountDepartments(db, user.homeEntId, user.accountId),
    bindings: await bindingsOf(db, user.homeEntId, user.accountId),
    providers: {
      wechat: ctx.services.config.oauth.wechat !== null,
      dingtalk: ctx.services.config.oauth.dingtalk !== null,
    },
  };
}

export async function updateProfile(ctx: CallContext, input: { realName: string; email: string }): Promise<Profile> {
  const user = ctx.user;
  await ctx.db
    .update(accounts)
    .set({ realName: input.realName, email: input.email || null, updatedAt: ctx.now })
    .where(and(eq(accounts.entId, user.homeEntId), eq(accounts.id, user.accountId)));
  // The header shows the real name: the cached principal reloads.
  ctx.afterCommit(() => ctx.services.sessions.cache.invalidateAccount(user.accountId));
  await ctx.audit({
    module: 'profile',
    action: 'update',
    targetType: 'account',
    targetId: user.accountId,
    targetName: user.loginName,
    detail: { realName: input.realName, email: input.email },
  });
  return loadProfile(ctx.db, ctx);
}

/** A bind-phone code for the caller; refused when another account has the number. */
export async function sendPhoneCode(ctx: CallContext, phone: string) {
  const owner = await findAccountByTarget(ctx.services.db, phone);
  if (owner && owner.accountId !== ctx.user.accountId)
    throw new AppError(ErrorCode.CONFLICT, accessMessages.phoneTaken);
  return issueCode(codeDeps(ctx), {
    purpose: 'bind_phone',
    target: phone,
    accountId: ctx.user.accountId,
    ip: ctx.ip,
    now: ctx.now,
    language: ctx.language,
  });
}

export function checkPhoneCode(ctx: CallContext, input: { phone: string; code: string }): Promise<string> {
  return checkCode(
    { db: ctx.services.db, throttle: ctx.services.throttle, secret: ctx.services.secret },
    {
      purpose: 'bind_phone',
      target: input.phone,
      code: input.code,
      accountId: ctx.user.accountId,
      ip: ctx.ip,
      now: ctx.now,
    },
  );
}

export async function bindPhone(ctx: CallContext, input: { phone: string }, codeId: string): Promise<Profile> {
  const user = ctx.user;
  await useCode(ctx.db, ctx.services.throttle, codeId, input.phone, ctx.now);
  const owner = await findAccountByTarget(ctx.db, input.phone);
  if (owner && owner.accountId !== user.accountId) throw new AppError(ErrorCode.CONFLICT, accessMessages.phoneTaken);
  await ctx.db
    .update(accounts)
    .set({ phone: input.phone, updatedAt: ctx.now })
    .where(and(eq(accounts.entId, user.homeEntId), eq(accounts.id, user.accountId)));
  await ctx.audit({
    module: 'profile',
    action: 'bindPhone',
    targetType: 'account',
    targetId: user.accountId,
    targetName: user.loginName,
  });
  return loadProfile(ctx.db, ctx);
}

/** Outside the transaction: the current password (throttled like a login) and the new hash. */
export async function checkChangePassword(
  ctx: CallContext,
  input: { oldPassword: string; password: string },
): Promise<string> {
  const user = ctx.user;
  const { throttle } = ctx.services;
  const now = ctx.now.getTime();
  const wait = await throttle.retryAfter(user.loginName, ctx.ip, now);
  if (wait > 0) throw new AppError(ErrorCode.RATE_LIMITED);
  const [row] = await ctx.services.db
    .select({ passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(and(eq(accounts.entId, user.homeEntId), eq(accounts.id, user.accountId)));
  if (!row || !(await verifyPassword(row.passwordHash, input.oldPassword))) {
    await throttle.recordFailure(user.loginName, ctx.ip, now);
    throw new AppError(ErrorCode.LOGIN_FAILED, accessMessages.wrongOldPassword);
  }
  if (input.oldPassword === input.password) throw new AppError(ErrorCode.CONFLICT, accessMessages.samePassword);
  return hashPassword(input.password);
}

/** Sets the password, clears updatePwd, ends the account's other sessions (this one stays). */
export async function changePassword(ctx: CallContext, passwordHash: string): Promise<null> {
  const user = ctx.user;
  const ended = await replacePassword(
    ctx,
    { entId: user.homeEntId, accountId: user.accountId },
    passwordHash,
    user.sessionId,
  );
  await ctx.services.throttle.recordSuccess(user.loginName, ctx.db);
  await ctx.audit({
    module: 'profile',
    action: 'changePassword',
    targetType: 'account',
    targetId: user.accountId,
    targetName: user.loginName,
    detail: { otherSessionsEnded: ended },
  });
  return null;
}
