import { ErrorCode, isWeakPassword, type LoginResponse, type UserInfo } from '@marquee/protocol';
import { verifyCredentials } from '../../auth/login.js';
import { loadPrincipal } from '../../auth/principal.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { toUserInfo } from './presenter.js';
import type { LoginCandidate } from './repository.js';
import { markLoggedIn } from './repository.js';

export interface LoginInput {
  loginName: string;
  password: string;
}

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
export async function login(input: LoginInput, ctx: CallContext, account: LoginCandidate): Promise<LoginResponse> {
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
    module: 'auth',
    action: 'login',
    targetType: 'account',
    targetId: account.accountId,
    detail: { sessionId: session.sessionId, deviceUuid: ctx.deviceUuid },
    actor: { entId: account.entId, accountId: account.accountId, loginName: account.loginName },
  });
  return {
    ...toUserInfo(principal),
    token: session.token,
    expiresIn: ctx.services.sessions.expiresInSeconds,
    weakPassword: isWeakPassword(input.password),
  };
}

export async function logout(ctx: CallContext): Promise<null> {
  const user = ctx.user;
  await ctx.services.sessions.end(
    ctx.db,
    { entId: user.entId, sessionId: user.sessionId, tokenHash: user.tokenHash },
    'logout',
    ctx.now,
    ctx.afterCommit,
  );
  await ctx.audit({ module: 'auth', action: 'logout', targetType: 'session', targetId: user.sessionId });
  return null;
}

export function info(ctx: CallContext): UserInfo {
  return toUserInfo(ctx.user);
}
