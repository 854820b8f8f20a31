/** Failures allowed inside the window before logins are refused (per login name, per IP). */
export const THROTTLE_LIMITS = { perLoginName: 5, perIp: 20, windowMs: 15 * 60 * 1000 } as const;

/** Verification codes sent per target and per IP address in an hour (the 60 s resend wait is per code). */
export const CODE_SEND_LIMITS = { perTarget: 10, perIp: 30, windowMs: 60 * 60 * 1000 } as const;

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

  // Verification codes: code logins and code checks count as login attempts under the key
  // `code:<target>` (retryAfter / recordFailure / recordSuccess); sending codes has its own
  // windows so a flood of sends cannot lock a real login name out, nor spam a phone.
  private readonly sendsByTarget = new FailureWindow(CODE_SEND_LIMITS.perTarget, CODE_SEND_LIMITS.windowMs);
  private readonly sendsByIp = new FailureWindow(CODE_SEND_LIMITS.perIp, CODE_SEND_LIMITS.windowMs);

  /** Milliseconds before another code may be sent to `target` from `ip`, 0 when allowed now. */
  retryAfterCodeSend(target: string, ip: string, now: number): number {
    return Math.max(this.sendsByTarget.retryAfter(target, now), this.sendsByIp.retryAfter(ip, now));
  }

  recordCodeSend(target: string, ip: string, now: number): void {
    this.sendsByTarget.record(target, now);
    this.sendsByIp.record(ip, now);
  }
}

/** The throttle key of code attempts for a target (kept apart from login names). */
export function codeThrottleKey(target: string): string {
  return `code:${target}`;
}
