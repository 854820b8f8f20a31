import { ErrorCode } from '@marquee/protocol';
import type { Executor } from '../db/client.js';
import { AppError } from '../protocol/appError.js';
import { messages } from '../protocol/messages.js';
import { findLoginCandidate, type LoginCandidate } from './loginRepository.js';
import { verifyAgainstDummy, verifyPassword } from './passwords.js';
import type { LoginThrottle } from './throttle.js';

/**
 * Checks a login: throttling first (RATE_LIMITED, even for the right password), then the
 * password (LOGIN_FAILED for a wrong name or password alike), then the account status
 * (ACCOUNT_PAUSED, only told to someone who knows the password).
 */
export async function verifyCredentials(
  db: Executor,
  throttle: LoginThrottle,
  input: { loginName: string; password: string; ip: string; now: number },
): Promise<LoginCandidate> {
  const wait = await throttle.retryAfter(input.loginName, input.ip, input.now);
  if (wait > 0) throw new AppError(ErrorCode.RATE_LIMITED, messages.rateLimited(Math.max(1, Math.ceil(wait / 60_000))));
  const candidate = await findLoginCandidate(db, input.loginName);
  const ok = candidate
    ? await verifyPassword(candidate.passwordHash, input.password)
    : await verifyAgainstDummy(input.password).then(() => false);
  if (!candidate || !ok) {
    await throttle.recordFailure(input.loginName, input.ip, input.now);
    throw new AppError(ErrorCode.LOGIN_FAILED);
  }
  if (candidate.paused) throw new AppError(ErrorCode.ACCOUNT_PAUSED);
  await throttle.recordSuccess(input.loginName);
  return candidate;
}
