import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { throttleEvents } from '../db/schema/index.js';

/** Failures allowed inside the window before logins are refused (per login name, per IP). */
export const THROTTLE_LIMITS = { perLoginName: 5, perIp: 20, windowMs: 15 * 60 * 1000 } as const;

/** Verification codes sent per target and per IP address in an hour (the 60 s resend wait is per code). */
export const CODE_SEND_LIMITS = { perTarget: 10, perIp: 30, windowMs: 60 * 60 * 1000 } as const;

/** The longest window: rows older than this count for nothing (the `prune-throttle` job). */
export const THROTTLE_KEEP_MS = Math.max(THROTTLE_LIMITS.windowMs, CODE_SEND_LIMITS.windowMs);

type Bucket = 'login-name' | 'login-ip' | 'send-target' | 'send-ip';

interface Window {
  bucket: Bucket;
  key: string;
  limit: number;
  windowMs: number;
}

/**
 * Login throttling: 5 failures per login name and 20 per IP address in 15 minutes; sending
 * codes: 10 per target and 30 per IP address in an hour. Attempts are rows of
 * `throttle_events`, so every instance on the database counts the same attempts.
 *
 * Failures are recorded on the root database (they must outlive the failed call);
 * `recordSuccess` takes the call's transaction, so the counter resets only if the call commits.
 */
export class LoginThrottle {
  constructor(private readonly db: Executor) {}

  /** Milliseconds to wait before trying again, 0 when the attempt may go ahead. */
  retryAfter(loginName: string, ip: string, now: number): Promise<number> {
    return this.wait(
      [
        {
          bucket: 'login-name',
          key: loginName.toLowerCase(),
          limit: THROTTLE_LIMITS.perLoginName,
          windowMs: THROTTLE_LIMITS.windowMs,
        },
        { bucket: 'login-ip', key: ip, limit: THROTTLE_LIMITS.perIp, windowMs: THROTTLE_LIMITS.windowMs },
      ],
      now,
    );
  }

  async recordFailure(loginName: string, ip: string, now: number): Promise<void> {
    await this.db.insert(throttleEvents).values([
      { bucket: 'login-name', key: loginName.toLowerCase(), at: now },
      { bucket: 'login-ip', key: ip, at: now },
    ]);
  }

  /** A successful login clears the account's counter (not the address's), in `db` (the call's transaction). */
  async recordSuccess(loginName: string, db: Executor = this.db): Promise<void> {
    await db
      .delete(throttleEvents)
      .where(and(eq(throttleEvents.bucket, 'login-name'), eq(throttleEvents.key, loginName.toLowerCase())));
  }

  // Verification codes: code logins and code checks count as login attempts under the key
  // `code:<target>` (retryAfter / recordFailure / recordSuccess); sending codes has its own
  // windows so a flood of sends cannot lock a real login name out, nor spam a phone.

  /** Milliseconds before another code may be sent to `target` from `ip`, 0 when allowed now. */
  retryAfterCodeSend(target: string, ip: string, now: number): Promise<number> {
    return this.wait(
      [
        { bucket: 'send-target', key: target, limit: CODE_SEND_LIMITS.perTarget, windowMs: CODE_SEND_LIMITS.windowMs },
        { bucket: 'send-ip', key: ip, limit: CODE_SEND_LIMITS.perIp, windowMs: CODE_SEND_LIMITS.windowMs },
      ],
      now,
    );
  }

  async recordCodeSend(target: string, ip: string, now: number): Promise<void> {
    await this.db.insert(throttleEvents).values([
      { bucket: 'send-target', key: target, at: now },
      { bucket: 'send-ip', key: ip, at: now },
    ]);
  }

  /** The longest wait among the windows: each allows `limit` attempts in `windowMs`. */
  private async wait(windows: Window[], now: number): Promise<number> {
    const waits = await Promise.all(
      windows.map(async (w) => {
        // The newest `limit` attempts inside the window; allowed again when the oldest of them leaves it.
        const recent = await this.db
          .select({ at: throttleEvents.at })
          .from(throttleEvents)
          .where(
            and(
              eq(throttleEvents.bucket, w.bucket),
              eq(throttleEvents.key, w.key),
              gt(throttleEvents.at, now - w.windowMs),
            ),
          )
          .orderBy(desc(throttleEvents.at))
          .limit(w.limit);
        if (recent.length < w.limit) return 0;
        return Math.max(0, Number(recent[w.limit - 1].at) + w.windowMs - now);
      }),
    );
    return Math.max(...waits);
  }
}

/** The throttle key of code attempts for a target (kept apart from login names). */
export function codeThrottleKey(target: string): string {
  return `code:${target}`;
}

/** Deletes attempts older than every window (the `prune-throttle` job); returns how many. */
export async function pruneThrottle(db: Executor, now: number): Promise<number> {
  const deleted = await db
    .delete(throttleEvents)
    .where(lt(throttleEvents.at, now - THROTTLE_KEEP_MS))
    .returning({ at: sql`1` });
  return deleted.length;
}
