import type { InvalidationBus, SharedCache } from '../db/invalidation.js';
import type { Principal, SessionState } from './principal.js';

interface Entry {
  state: SessionState;
  principal: Principal;
  loadedAt: number;
}

type Kind = 'token' | 'account' | 'enterprise';

/**
 * What a token lookup needs, kept in memory for a short time so an authenticated call
 * costs no query. Logout, pausing and department changes invalidate explicitly (by token,
 * account or enterprise) here and, through the invalidation bus (LISTEN/NOTIFY), on every
 * other instance of the database within a round trip; the TTL bounds what a lost
 * notification could leave.
 */
export class SessionCache implements SharedCache {
  private readonly byToken = new Map<string, Entry>();
  private readonly byAccount = new Map<string, Set<string>>();
  private bus: InvalidationBus | null = null;
  /**
   * Bumped by every invalidation: a lookup that started before one may have read the old
   * state, so its result is not cached (see `set`).
   */
  generation = 0;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 20_000,
  ) {}

  get(tokenHash: string, now: number): Entry | undefined {
    const entry = this.byToken.get(tokenHash);
    if (!entry) return undefined;
    if (now - entry.loadedAt > this.ttlMs) {
      this.drop(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** Shares invalidations with the other instances on the database. */
  connect(bus: InvalidationBus): void {
    this.bus = bus;
    bus.subscribe('sessions', this);
  }

  /** Caches a lookup unless an invalidation happened since it began (`generation` read before it). */
  set(tokenHash: string, state: SessionState, principal: Principal, now: number, generation = this.generation): void {
    if (generation !== this.generation) return;
    this.drop(tokenHash);
    if (this.byToken.size >= this.maxEntries) {
      const oldest = this.byToken.keys().next().value;
      if (oldest !== undefined) this.drop(oldest);
    }
    this.byToken.set(tokenHash, { state, principal, loadedAt: now });
    let tokens = this.byAccount.get(state.accountId);
    if (!tokens) {
      tokens = new Set();
      this.byAccount.set(state.accountId, tokens);
    }
    tokens.add(tokenHash);
  }

  /** The session of this token reloads on its next call, on every instance. */
  invalidateToken(tokenHash: string): void {
    this.evict('token', tokenHash);
    this.bus?.publish('sessions', 'token', tokenHash);
  }

  /** Every session of the account reloads on its next call, on every instance. */
  invalidateAccount(accountId: string): void {
    this.evict('account', accountId);
    this.bus?.publish('sessions', 'account', accountId);
  }

  /** Every session of the enterprise reloads (enterprise paused, roles changed...), on every instance. */
  invalidateEnterprise(entId: string): void {
    this.evict('enterprise', entId);
    this.bus?.publish('sessions', 'enterprise', entId);
  }

  /** Applies an invalidation here only (this instance's or one received from another). */
  evict(kind: string, id: string): void {
    this.generation++;
    if ((kind as Kind) === 'token') this.drop(id);
    else if ((kind as Kind) === 'account') {
      for (const tokenHash of [...(this.byAccount.get(id) ?? [])]) this.drop(tokenHash);
    } else if ((kind as Kind) === 'enterprise') {
      for (const [tokenHash, entry] of [...this.byToken]) {
        if (entry.state.entId === id) this.drop(tokenHash);
      }
    }
  }

  evictAll(): void {
    this.generation++;
    this.byToken.clear();
    this.byAccount.clear();
  }

  private drop(tokenHash: string): void {
    const entry = this.byToken.get(tokenHash);
    if (!entry) return;
    this.byToken.delete(tokenHash);
    const tokens = this.byAccount.get(entry.state.accountId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byAccount.delete(entry.state.accountId);
  }

  get size(): number {
    return this.byToken.size;
  }
}
