/** Failures allowed inside the window before logins are refused (per login name, per IP). */
export const THROTTLE_LIMITS = { perLoginName: 5, perIp: 20, windowMs: 15 * 60 * 1000 } as const;

class FailureWindow {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Milliseconds until another attempt is allowed, 0 when allowed now. */
  retryAfter(key: string, now: number): number {
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return 0;
    // Allowed again when enough of the oldest failures leave the window.
    return recent[recent.length - this.limit] + this.windowMs - now;
  }

  record(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    if (recent.length > this.limit) recent.splice(0, recent.length - this.limit);
    this.failures.delete(key);
    this.failures.set(key, recent);
    if (this.failures.size > this.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const all = this.failures.get(key);
    if (!all) return [];
    return all.filter((t) => now - t < this.windowMs);
  }
}

/**
 * Login throttling: 5 failures per login name and 20 per IP address in 15 minutes. Kept in
 * memory: it protects one process; behind several instances each counts on its own.
 */
export class LoginThrottle {
  private readonly byName = new FailureWindow(THROTTLE_LIMITS.perLoginName, THROTTLE_LIMITS.windowMs);
  private readonly byIp = new FailureWindow(THROTTLE_LIMITS.perIp, THROTTLE_LIMITS.windowMs);

  /** Milliseconds to wait before trying again, 0 when the attempt may go ahead. */
  retryAfter(loginName: string, ip: string, now: number): number {
    return Math.max(this.byName.retryAfter(loginName.toLowerCase(), now), this.byIp.retryAfter(ip, now));
  }

  recordFailure(loginName: string, ip: string, now: number): void {
    this.byName.record(loginName.toLowerCase(), now);
    this.byIp.record(ip, now);
  }

  /** A successful login clears the account's counter (not the address's). */
  recordSuccess(loginName: string): void {
    this.byName.reset(loginName.toLowerCase());
  }
}
