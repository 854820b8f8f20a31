import { DEFAULT_TOKEN, ErrorCode } from '@marquee/protocol';
import { and, eq, isNull, lt, ne, or } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { type SessionEndReason, sessions } from '../db/schema/index.js';
import { AppError } from '../protocol/appError.js';
import { loadActingEnterprise } from './acting.js';
import { buildPrincipal, loadSessionByTokenHash, type Principal, type SessionState } from './principal.js';
import { SessionCache } from './sessionCache.js';
import { hashToken, isWellFormedToken, newToken } from './tokens.js';

/** last_seen_at is written at most this often per session (sliding idle expiry). */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

/** Queues work until the surrounding transaction commits (a call's ctx.afterCommit). */
export type AfterCommit = (fn: () => void) => void;

/** Creates, authenticates and ends console sessions; owns the token cache. */
export class SessionService {
  readonly cache: SessionCache;

  constructor(
    private readonly db: Executor,
    readonly policy: SessionPolicy,
    cacheTtlMs?: number,
  ) {
    this.cache = new SessionCache(cacheTtlMs);
  }

  /** Seconds a new token stays valid without use (the login answer's expiresIn). */
  get expiresInSeconds(): number {
    return Math.floor(Math.min(this.policy.idleMs, this.policy.maxMs) / 1000);
  }

  async create(
    tx: Executor,
    input: { entId: string; accountId: string; ip: string; userAgent?: string; deviceUuid?: string; now: Date },
  ): Promise<{ token: string; tokenHash: string; sessionId: string }> {
    const token = newToken();
    const tokenHash = hashToken(token);
    const [row] = await tx
      .insert(sessions)
      .values({
        tokenHash,
        entId: input.entId,
        accountId: input.accountId,
        createdAt: input.now,
        lastSeenAt: input.now,
        expiresAt: new Date(input.now.getTime() + this.policy.maxMs),
        ip: input.ip,
        userAgent: input.userAgent?.slice(0, 512),
        deviceUuid: input.deviceUuid?.slice(0, 128),
      })
      .returning({ id: sessions.id });
    return { token, tokenHash, sessionId: row.id };
  }

  /**
   * The principal of a token. TOKEN_INVALID for a missing, unknown, expired or logged-out
   * token; SESSION_ENDED when the account is paused or an administrator ended the session.
   */
  async authenticate(token: string, now: number): Promise<Principal> {
    if (!token || token === DEFAULT_TOKEN || !isWellFormedToken(token)) throw new AppError(ErrorCode.TOKEN_INVALID);
    const tokenHash = hashToken(token);
    let entry = this.cache.get(tokenHash, now);
    if (!entry) {
      const generation = this.cache.generation;
      const loaded = await loadSessionByTokenHash(this.db, tokenHash);
      if (!loaded) throw new AppError(ErrorCode.TOKEN_INVALID);
      this.check(loaded.state, now);
      // Acting for another enterprise: only while the account may still act for it.
      const acting = loaded.state.actingEntId
        ? await loadActingEnterprise(this.db, loaded.account, loaded.state.actingEntId)
        : null;
      const principal = await buildPrincipal(
        this.db,
        loaded.account,
        { sessionId: loaded.state.sessionId, tokenHash },
        acting,
      );
      this.cache.set(tokenHash, loaded.state, principal, now, generation);
      entry = { state: loaded.state, principal, loadedAt: now };
    }
    this.check(entry.state, now);
    if (now - entry.state.lastSeenAt >= LAST_SEEN_RESOLUTION_MS) {
      entry.state.lastSeenAt = now;
      await this.db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(and(eq(sessions.id, entry.state.sessionId), isNull(sessions.endedAt)));
    }
    return entry.principal;
  }

  private check(state: SessionState, now: number): void {
    if (state.endedReason === 'paused' || state.endedReason === 'kicked') throw new AppError(ErrorCode.SESSION_ENDED);
    if (state.endedReason) throw new AppError(ErrorCode.TOKEN_INVALID);
    if (state.paused) throw new AppError(ErrorCode.SESSION_ENDED);
    if (now >= state.expiresAt || now - state.lastSeenAt >= this.policy.idleMs) {
      throw new AppError(ErrorCode.TOKEN_INVALID);
    }
  }

  /** Ends one session; the cache forgets it once the transaction commits. */
  async end(
    tx: Executor,
    ref: { entId: string; sessionId: string; tokenHash: string },
    reason: SessionEndReason,
    now: Date,
    afterCommit: AfterCommit,
  ): Promise<void> {
    await tx
      .update(sessions)
      .set({ endedAt: now, endedReason: reason })
      .where(and(eq(sessions.entId, ref.entId), eq(sessions.id, ref.sessionId), isNull(sessions.endedAt)));
    afterCommit(() => this.cache.invalidateToken(ref.tokenHash));
  }

  /** Sets the enterprise a session acts for (null: the account's own); the cache reloads it after commit. */
  async setActing(
    tx: Executor,
    ref: { entId: string; sessionId: string; tokenHash: string },
    actingEntId: string | null,
    afterCommit: AfterCommit,
  ): Promise<void> {
    await tx
      .update(sessions)
      .set({ actingEntId })
      .where(and(eq(sessions.entId, ref.entId), eq(sessions.id, ref.sessionId), isNull(sessions.endedAt)));
    afterCommit(() => this.cache.invalidateToken(ref.tokenHash));
  }

  /** Ends every open session of an account (pause, kick), except `keepSessionId`; returns how many. */
  async endAllForAccount(
    tx: Executor,
    ref: { entId: string; accountId: string },
    reason: SessionEndReason,
    now: Date,
    afterCommit: AfterCommit,
    keepSessionId?: string,
  ): Promise<number> {
    const ended = await tx
      .update(sessions)
      .set({ endedAt: now, endedReason: reason })
      .where(
        and(
          eq(sessions.entId, ref.entId),
          eq(sessions.accountId, ref.accountId),
          isNull(sessions.endedAt),
          keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
        ),
      )
      .returning({ id: sessions.id });
    afterCommit(() => this.cache.invalidateAccount(ref.accountId));
    return ended.length;
  }
}

/** Ended or expired sessions are kept this long (who was logged in when), then deleted. */
export const SESSION_KEEP_MS = 30 * 86_400_000;

/** Deletes sessions that ended or expired more than SESSION_KEEP_MS ago (the `prune-sessions` job). */
export async function pruneSessions(db: Executor, now: Date): Promise<number> {
  const before = new Date(now.getTime() - SESSION_KEEP_MS);
  const deleted = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, before), lt(sessions.endedAt, before)))
    .returning({ id: sessions.id });
  return deleted.length;
}
