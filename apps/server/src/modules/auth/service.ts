import { ErrorCode, type endpoints, isWeakPassword, type LoginResponse, type UserInfo } from '@marquee/protocol';
import type { z } from 'zod';
import { actableEnterprises, loadActingEnterprise } from '../../auth/acting.js';
import { verifyCredentials } from '../../auth/login.js';
import type { LoginCandidate } from '../../auth/loginRepository.js';
import { findAccountByTarget, type TargetAccount } from '../../auth/loginRepository.js';
import { hashPassword } from '../../auth/passwords.js';
import { loadPrincipal } from '../../auth/principal.js';
import { AppError } from '../../protocol/appError.js';
import type { AuditEntry, CallContext } from '../../protocol/handlers.js';
import { checkCode, useCode } from '../verification/service.js';
import { toUserInfo } from './presenter.js';
import { markLoggedIn, setPasswordHash } from './repository.js';

export type LoginInput = z.infer<typeof endpoints.login.request>;

/** Outside the transaction: throttle and argon2 verification. */
export function checkLogin(input: LoginInput, ctx: CallContext): Promise<LoginCandidate> {
  return verifyCredentials(ctx.services.db, ctx.services.throttle, {
    loginName: input.loginName,
    password: input.password,
    ip: ctx.ip,
    now: ctx.now.getTime(),
  });
}

/** In the transaction: opens the session and answers the user info with the token. */
export function login(input: LoginInput, ctx: CallContext, account: LoginCandidate): Promise<LoginResponse> {
  return openSession(ctx, account, { method: 'password', weakPassword: isWeakPassword(input.password) });
}

/**
 * Every way in ends here (password, code, scan, registration): stamps the login, opens the
 * session, writes the operation-log row and answers the login response. ACCOUNT_PAUSED when
 * the account or its enterprise is paused.
 */
export async function openSession(
  ctx: CallContext,
  account: Pick<LoginCandidate, 'accountId' | 'entId' | 'loginName'>,
  how: { method: 'password' | 'code' | 'wechat' | 'dingtalk' | 'register'; weakPassword: boolean },
  /** Replaces the login row of the operation log (a registration logs itself instead). */
  auditAs?: Omit<AuditEntry, 'actor'>,
): Promise<LoginResponse> {
  if (!(await markLoggedIn(ctx.db, account.entId, account.accountId, ctx.now))) {
    throw new AppError(ErrorCode.ACCOUNT_PAUSED);
  }
  const session = await ctx.services.sessions.create(ctx.db, {
    entId: account.entId,
    accountId: account.accountId,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    deviceUuid: ctx.deviceUuid,
    now: ctx.now,
  });
  const principal = await loadPrincipal(ctx.db, account.entId, account.accountId, session);
  if (!principal) throw new Error('account vanished during login');
  await ctx.audit({
    ...(auditAs ?? {
      module: 'auth',
      action: 'login',
      targetType: 'account',
      targetId: account.accountId,
      targetName: account.loginName,
      detail: { sessionId: session.sessionId, deviceUuid: ctx.deviceUuid, method: how.method },
    }),
    actor: { entId: account.entId, accountId: account.accountId, loginName: account.loginName },
  });
  return {
    ...toUserInfo(principal),
    token: session.token,
    expiresIn: ctx.services.sessions.expiresInSeconds,
    weakPassword: how.weakPassword,
  };
}

export async function logout(ctx: CallContext): Promise<null> {
  const user = ctx.user;
  await ctx.services.sessions.end(
    ctx.db,
    { entId: user.homeEntId, sessionId: user.sessionId, tokenHash: user.tokenHash },
    'logout',
    ctx.now,
    ctx.afterCommit,
  );
  await ctx.audit({
    module: 'auth',
    action: 'logout',
    targetType: 'session',
    targetId: user.sessionId,
    // A session is read as the account it belonged to.
    targetName: user.loginName,
  });
  return null;
}

export function info(ctx: CallContext): UserInfo {
  return toUserInfo(ctx.user);
}

// ---------------------------------------------------------------- verification-code login

export type CodeLoginInput = z.infer<typeof endpoints.codeLogin.request>;

/**
 * Outside the transaction: the target must belong to an account (NOT_REGISTERED, 'register
 * first'), then the code is checked (wrong attempts count and throttle).
 */
export async function checkCodeLogin(
  input: CodeLoginInput,
  ctx: CallContext,
): Promise<{ codeId: string; account: TargetAccount }> {
  const codeId = await checkCode(
    { db: ctx.services.db, throttle: ctx.services.throttle, secret: ctx.services.secret },
    { purpose: 'login', target: input.target, code: input.code, ip: ctx.ip, now: ctx.now },
  );
  const account = await findAccountByTarget(ctx.services.db, input.target);
  if (!account) throw new AppError(ErrorCode.NOT_REGISTERED);
  if (account.paused) throw new AppError(ErrorCode.ACCOUNT_PAUSED);
  return { codeId, account };
}

export async function codeLogin(
  input: CodeLoginInput,
  ctx: CallContext,
  checked: { codeId: string; account: TargetAccount },
): Promise<LoginResponse> {
  await useCode(ctx.db, ctx.services.throttle, checked.codeId, input.target, ctx.now);
  return openSession(ctx, checked.account, { method: 'code', weakPassword: false });
}

// ---------------------------------------------------------------- password retrieval

export type ResetPasswordInput = z.infer<typeof endpoints.passwordReset.request>;

/** Outside the transaction: the code, the account, and the new password's hash (argon2 is slow). */
export async function checkResetPassword(
  input: ResetPasswordInput,
  ctx: CallContext,
): Promise<{ codeId: string; account: TargetAccount; passwordHash: string }> {
  const codeId = await checkCode(
    { db: ctx.services.db, throttle: ctx.services.throttle, secret: ctx.services.secret },
    { purpose: 'reset_password', target: input.target, code: input.code, ip: ctx.ip, now: ctx.now },
  );
  const account = await findAccountByTarget(ctx.services.db, input.target);
  if (!account) throw new AppError(ErrorCode.NOT_REGISTERED);
  return { codeId, account, passwordHash: await hashPassword(input.password) };
}

/** Sets the new password, clears updatePwd and ends every session of the account. */
/**
 * Sets an account's new password (clearing updatePwd) and ends its sessions, except
 * `keepSessionId` (the caller's own, when changing it while signed in); answers how many ended.
 */
export async function replacePassword(
  ctx: CallContext,
  ref: { entId: string; accountId: string },
  passwordHash: string,
  keepSessionId?: string,
): Promise<number> {
  await setPasswordHash(ctx.db, ref.entId, ref.accountId, passwordHash, ctx.now);
  return ctx.services.sessions.endAllForAccount(
    ctx.db,
    { entId: ref.entId, accountId: ref.accountId },
    'kicked',
    ctx.now,
    ctx.afterCommit,
    keepSessionId,
  );
}

export async function resetPassword(
  input: ResetPasswordInput,
  ctx: CallContext,
  checked: { codeId: string; account: TargetAccount; passwordHash: string },
): Promise<null> {
  await useCode(ctx.db, ctx.services.throttle, checked.codeId, input.target, ctx.now);
  const { account } = checked;
  const ended = await replacePassword(ctx, account, checked.passwordHash);
  await ctx.services.throttle.recordSuccess(account.loginName, ctx.db);
  await ctx.audit({
    module: 'auth',
    action: 'resetPassword',
    targetType: 'account',
    targetId: account.accountId,
    targetName: account.loginName,
    detail: { sessionsEnded: ended, via: input.target.includes('@') ? 'email' : 'sms' },
    actor: { entId: account.entId, accountId: account.accountId, loginName: account.loginName },
  });
  return null;
}

/** The enterprises the caller may act in (its own first), for the header's enterprise switch. */
export async function enterpriseOptions(ctx: CallContext): Promise<{ value: string; label: string }[]> {
  const user = ctx.user;
  const rows = await actableEnterprises(ctx.db, { entId: user.homeEntId, entKind: user.homeEntKind });
  return rows.map((r) => ({ value: r.id, label: r.name }));
}

/**
 * 'Change enterprise': the caller's session acts in `entId` from now on: its own enterprise,
 * or one its enterprise manages (auth/acting.ts; NOT_FOUND for any other, as if it did not
 * exist). Every scoped read of the session then starts from that enterprise; the account's
 * other sessions keep theirs. Logged in the account's own enterprise.
 */
export async function changeEnterprise(input: { entId: string }, ctx: CallContext): Promise<UserInfo> {
  const user = ctx.user;
  const home = { entId: user.homeEntId, entKind: user.homeEntKind };
  const acting = input.entId === home.entId ? null : await loadActingEnterprise(ctx.db, home, input.entId);
  if (input.entId !== home.entId && !acting) throw new AppError(ErrorCode.NOT_FOUND);
  const session = { entId: home.entId, sessionId: user.sessionId, tokenHash: user.tokenHash };
  await ctx.services.sessions.setActing(ctx.db, session, acting?.id ?? null, ctx.afterCommit);
  const principal = await loadPrincipal(ctx.db, home.entId, user.accountId, session, acting);
  if (!principal) throw new Error('account vanished during enterprise change');
  await ctx.audit({
    module: 'auth',
    action: 'changeEnterprise',
    targetType: 'enterprise',
    targetId: principal.entId,
    targetName: principal.entName,
    detail: { from: user.entId, to: principal.entId },
    actor: { entId: home.entId, accountId: user.accountId, loginName: user.loginName },
  });
  return toUserInfo(principal);
}
