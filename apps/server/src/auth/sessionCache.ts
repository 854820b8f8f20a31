import type { Principal, SessionState } from './principal.js';

interface Entry {
  state: SessionState;
  principal: Principal;
  loadedAt: number;
}

/**
 * What a token lookup needs, kept in memory for a short time so an authenticated call
 * costs no query. Logout, pausing and department changes invalidate explicitly (by token,
 * account or enterprise) in this process; other processes see them within the TTL.
 */
export class SessionCache {
  private readonly byToken = new Map<string, Entry>();
  private readonly byAccount = new Map<string, Set<string>>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 20_000,
  ) {}

  get(tokenHash: string, now: number): Entry | undefined {
    const entry = this.byToken.get(tokenHash);
    if (!entry) return undefined;
    if (now - entry.loadedAt > this.ttlMs) {
      this.invalidateToken(tokenHash);
      return undefined;
    }
    return entry;
  }

  set(tokenHash: string, state: SessionState, principal: Principal, now: number): void {
    this.invalidateToken(tokenHash);
    if (this.byToken.size >= this.maxEntries) {
      const oldest = this.byToken.keys().next().value;
      if (oldest !== undefined) this.invalidateToken(oldest);
    }
    this.byToken.set(tokenHash, { state, principal, loadedAt: now });
    let tokens = this.byAccount.get(state.accountId);
    if (!tokens) {
      tokens = new Set();
      this.byAccount.set(state.accountId, tokens);
    }
    tokens.add(tokenHash);
  }

  invalidateToken(tokenHash: string): void {
    const entry = this.byToken.get(tokenHash);
    if (!entry) return;
    this.byToken.delete(tokenHash);
    const tokens = this.byAccount.get(entry.state.accountId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byAccount.delete(entry.state.accountId);
  }

  /** Every session of the account reloads on its next call. */
  invalidateAccount(accountId: string): void {
    for (const tokenHash of [...(this.byAccount.get(accountId) ?? [])]) this.invalidateToken(tokenHash);
  }

  /** Every session of the enterprise reloads (enterprise paused, roles changed...). */
  invalidateEnterprise(entId: string): void {
    for (const [tokenHash, entry] of [...this.byToken]) {
      if (entry.state.entId === entId) this.invalidateToken(tokenHash);
    }
  }

  get size(): number {
    return this.byToken.size;
  }
}
