import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ErrorCode, type LoginResponse, type OAuthProvider } from '@marquee/protocol';
import type { OAuthProviderConfig } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import type { AppServices } from '../../services.js';
import { openSession } from '../auth/service.js';
import { accessMessages } from '../verification/messages.js';
import { authorizeUrl, fetchIdentity } from './provider.js';
import {
  deleteBinding,
  findBoundAccount,
  findState,
  insertBinding,
  insertState,
  listBindings,
  setOpenWxLogin,
  settleState,
  useState,
} from './repository.js';

/** Seconds a scan (state) stays valid. */
export const STATE_TTL_SECONDS = 300;

/** The provider's settings, or FEATURE_NOT_ONLINE when it is not configured. */
export function providerConfig(services: AppServices, provider: OAuthProvider): OAuthProviderConfig {
  const cfg = services.config.oauth[provider];
  if (!cfg) throw new AppError(ErrorCode.FEATURE_NOT_ONLINE);
  return cfg;
}

export function redirectUri(services: AppServices, provider: OAuthProvider): string {
  return `${services.config.publicUrl}/api/oauth/${provider}/callback`;
}

function sign(secret: string, provider: OAuthProvider, token: string): string {
  return createHmac('sha256', secret).update(`oauth-state\n${provider}\n${token}`).digest('base64url').slice(0, 22);
}

function stateHashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Reads a state `<token>.<signature>`: the hash of its token when the signature is the
 * server's for that provider (any provider when none is given), else null.
 */
export function verifyState(secret: string, state: string, provider?: OAuthProvider): { hash: string } | null {
  const [token, signature, ...rest] = state.split('.');
  if (!token || !signature || rest.length > 0 || !/^[A-Za-z0-9_-]{32}$/.test(token)) return null;
  const providers: OAuthProvider[] = provider ? [provider] : ['wechat', 'dingtalk'];
  const given = Buffer.from(signature);
  const ok = providers.some((p) => {
    const expected = Buffer.from(sign(secret, p, token));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  return ok ? { hash: stateHashOf(token) } : null;
}

/** A new random state for a provider: what the URL carries (signed) and what the table keeps (its hash). */
export function makeState(secret: string, provider: OAuthProvider): { state: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  return { state: `${token}.${sign(secret, provider, token)}`, hash: stateHashOf(token) };
}

/**
 * Starts a scan: a random single-use state (only its hash is stored), signed, valid five
 * minutes; the answer's authorization URL is what the console shows as a QR code.
 */
export async function startScan(
  ctx: CallContext,
  provider: OAuthProvider,
  bindFor: { entId: string; accountId: string } | null,
): Promise<{ state: string; authorizeUrl: string; expiresIn: number }> {
  const cfg = providerConfig(ctx.services, provider);
  const { state, hash } = makeState(ctx.services.secret, provider);
  await insertState(ctx.services.db, {
    stateHash: hash,
    provider,
    purpose: bindFor ? 'bind' : 'login',
    entId: bindFor?.entId ?? null,
    accountId: bindFor?.accountId ?? null,
    createdAt: ctx.now,
    expiresAt: new Date(ctx.now.getTime() + STATE_TTL_SECONDS * 1000),
    ip: ctx.ip,
  });
  return {
    state,
    authorizeUrl: authorizeUrl(cfg, redirectUri(ctx.services, provider), state),
    expiresIn: STATE_TTL_SECONDS,
  };
}

export type PollStatus = 'pending' | 'ready' | 'unbound' | 'scanned' | 'conflict' | 'failed' | 'expired';

/** Where a scan stands (the console polls this while it shows the QR code). */
export async function pollScan(ctx: CallContext, state: string): Promise<{ status: PollStatus }> {
  const verified = verifyState(ctx.services.secret, state);
  if (!verified) throw new AppError(ErrorCode.NOT_FOUND);
  const row = await findState(ctx.services.db, verified.hash);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  if (row.status === 'used' || row.expiresAt.getTime() <= ctx.now.getTime()) return { status: 'expired' };
  return { status: row.status };
}

/**
 * The provider's redirect: exchanges the code, reads the identity and settles the state.
 * Login: 'ready' when an account is bound to the identity, else 'unbound'. Bind: 'scanned',
 * or 'conflict' when the identity is bound to another account. Returns the outcome for the page.
 */
export async function completeCallback(
  services: AppServices,
  provider: OAuthProvider,
  query: { code?: string; state?: string; error?: string },
  log: { warn(obj: object, msg: string): void },
): Promise<PollStatus> {
  const cfg = services.config.oauth[provider];
  if (!cfg || !query.state) return 'failed';
  const verified = verifyState(services.secret, query.state, provider);
  if (!verified) return 'failed';
  const now = new Date(services.clock());
  const row = await findState(services.db, verified.hash);
  if (!row || row.provider !== provider) return 'failed';
  if (row.status !== 'pending' || row.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (query.error || !query.code) {
    await settleState(services.db, verified.hash, now, { status: 'failed' });
    return 'failed';
  }
  let identity: Awaited<ReturnType<typeof fetchIdentity>>;
  try {
    identity = await fetchIdentity(provider, cfg, query.code, redirectUri(services, provider));
  } catch (error) {
    log.warn({ err: error, provider }, 'oauth exchange failed');
    await settleState(services.db, verified.hash, now, { status: 'failed' });
    return 'failed';
  }
  const bound = await findBoundAccount(services.db, provider, identity.providerUserId);
  let status: PollStatus;
  if (row.purpose === 'login') status = bound ? 'ready' : 'unbound';
  else status = bound && bound.accountId !== row.accountId ? 'conflict' : 'scanned';
  const settled = await settleState(services.db, verified.hash, now, {
    status: status as 'ready' | 'unbound' | 'scanned' | 'conflict',
    providerUserId: identity.providerUserId,
    nickname: identity.nickname,
    ...(row.purpose === 'login' ? { accountId: bound?.accountId ?? null, entId: bound?.entId ?? null } : {}),
  });
  return settled ? status : 'expired';
}

/** Completes a scan login once (the state becomes 'used'), opening the session. */
export async function scanLogin(ctx: CallContext, state: string): Promise<LoginResponse> {
  const verified = verifyState(ctx.services.secret, state);
  if (!verified) throw new AppError(ErrorCode.CONFLICT, accessMessages.scanNotReady);
  const row = await findState(ctx.db, verified.hash);
  if (row?.purpose === 'login' && row.status === 'unbound' && row.expiresAt > ctx.now) {
    throw new AppError(ErrorCode.NOT_REGISTERED, accessMessages.scanNotRegistered);
  }
  const used = await useState(ctx.db, verified.hash, 'login', 'ready', ctx.now);
  if (!used?.providerUserId) throw new AppError(ErrorCode.CONFLICT, accessMessages.scanNotReady);
  // Looked up again: the binding or the account may have changed since the scan.
  const account = await findBoundAccount(ctx.db, used.provider, used.providerUserId);
  if (!account) throw new AppError(ErrorCode.NOT_REGISTERED, accessMessages.scanNotRegistered);
  if (account.paused) throw new AppError(ErrorCode.ACCOUNT_PAUSED);
  return openSession(ctx, account, { method: used.provider, weakPassword: false });
}

function presentBindings(rows: Awaited<ReturnType<typeof listBindings>>) {
  return rows.map((r) => ({ provider: r.provider, nickname: r.nickname, boundAt: r.createdAt.toISOString() }));
}

export async function bindingsOf(db: Executor, entId: string, accountId: string) {
  return presentBindings(await listBindings(db, entId, accountId));
}

/** Binds the scanned identity to the caller (replacing a previous binding of that provider). */
export async function bindScan(ctx: CallContext, state: string) {
  const user = ctx.user;
  const verified = verifyState(ctx.services.secret, state);
  if (!verified) throw new AppError(ErrorCode.CONFLICT, accessMessages.scanNotReady);
  const row = await findState(ctx.db, verified.hash);
  if (row?.purpose !== 'bind' || row.accountId !== user.accountId) throw new AppError(ErrorCode.NOT_FOUND);
  if (row.status === 'conflict') throw new AppError(ErrorCode.CONFLICT, accessMessages.identityTaken);
  const used = await useState(ctx.db, verified.hash, 'bind', 'scanned', ctx.now);
  if (!used?.providerUserId) throw new AppError(ErrorCode.CONFLICT, accessMessages.scanNotReady);
  const other = await findBoundAccount(ctx.db, used.provider, used.providerUserId);
  if (other && other.accountId !== user.accountId) throw new AppError(ErrorCode.CONFLICT, accessMessages.identityTaken);
  await deleteBinding(ctx.db, user.homeEntId, user.accountId, used.provider);
  await insertBinding(ctx.db, {
    entId: user.homeEntId,
    accountId: user.accountId,
    provider: used.provider,
    providerUserId: used.providerUserId,
    nickname: used.nickname ?? '',
    createdAt: ctx.now,
  });
  if (used.provider === 'wechat') await setOpenWxLogin(ctx.db, user.homeEntId, user.accountId, true, ctx.now);
  ctx.afterCommit(() => ctx.services.sessions.cache.invalidateAccount(user.accountId));
  await ctx.audit({
    module: 'profile',
    action: 'bind',
    targetType: 'account',
    targetId: user.accountId,
    targetName: user.loginName,
    detail: { provider: used.provider },
  });
  return bindingsOf(ctx.db, user.homeEntId, user.accountId);
}

export async function unbind(ctx: CallContext, provider: OAuthProvider) {
  const user = ctx.user;
  if (!(await deleteBinding(ctx.db, user.homeEntId, user.accountId, provider))) throw new AppError(ErrorCode.NOT_FOUND);
  if (provider === 'wechat') await setOpenWxLogin(ctx.db, user.homeEntId, user.accountId, false, ctx.now);
  ctx.afterCommit(() => ctx.services.sessions.cache.invalidateAccount(user.accountId));
  await ctx.audit({
    module: 'profile',
    action: 'unbind',
    targetType: 'account',
    targetId: user.accountId,
    targetName: user.loginName,
    detail: { provider },
  });
  return bindingsOf(ctx.db, user.homeEntId, user.accountId);
}
