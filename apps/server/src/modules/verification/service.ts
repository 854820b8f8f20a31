import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { type CodePurpose, ErrorCode, isEmailTarget, VERIFICATION_RULES } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { codeThrottleKey, type LoginThrottle } from '../../auth/throttle.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { messages } from '../../protocol/messages.js';
import { accessMessages } from './messages.js';
import { activeCode, consumeCode, insertCode, latestCode, recordWrongAttempt, supersedeCodes } from './repository.js';
import { type CodeSender, codeText } from './sender.js';

export interface CodeDeps {
  db: Executor;
  throttle: LoginThrottle;
  sender: CodeSender;
  secret: string;
}

/** The code dependencies of a call (root database: codes commit even when a later step fails). */
export function codeDeps(ctx: CallContext): CodeDeps {
  return {
    db: ctx.services.db,
    throttle: ctx.services.throttle,
    sender: ctx.services.codeSender,
    secret: ctx.services.secret,
  };
}

/** A new 6-digit code from the CSPRNG. */
export function newCode(): string {
  return String(randomInt(0, 10 ** VERIFICATION_RULES.digits)).padStart(VERIFICATION_RULES.digits, '0');
}

/** What the table stores: an HMAC bound to purpose and target, so a hash reveals nothing alone. */
export function hashCode(secret: string, purpose: CodePurpose, target: string, code: string): string {
  return createHmac('sha256', secret).update(`${purpose}\n${target}\n${code}`).digest('hex');
}

function rateLimited(waitMs: number): AppError {
  return new AppError(ErrorCode.RATE_LIMITED, messages.rateLimited(Math.max(1, Math.ceil(waitMs / 60_000))));
}

/**
 * Makes and sends a code: refused within 60 s of the previous code for the same purpose and
 * target (RATE_LIMITED with the wait), and by the send throttle; a new code replaces the
 * open ones. The code row commits before the sender runs.
 */
export async function issueCode(
  deps: CodeDeps,
  input: { purpose: CodePurpose; target: string; accountId?: string | null; ip: string; now: Date; language: string },
): Promise<{ expiresIn: number; resendIn: number }> {
  const now = input.now.getTime();
  const wait = await deps.throttle.retryAfterCodeSend(input.target, input.ip, now);
  if (wait > 0) throw rateLimited(wait);
  const code = newCode();
  await deps.db.transaction(async (tx) => {
    // Serialises sends to one target, so two quick requests cannot both pass the resend wait.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`code:${input.purpose}:${input.target}`}))`);
    const previous = await latestCode(tx as unknown as Executor, input.purpose, input.target, input.accountId ?? null);
    const since = previous ? now - previous.createdAt.getTime() : Number.POSITIVE_INFINITY;
    if (since < VERIFICATION_RULES.resendSeconds * 1000) {
      throw new AppError(
        ErrorCode.RATE_LIMITED,
        accessMessages.resendWait(Math.ceil((VERIFICATION_RULES.resendSeconds * 1000 - since) / 1000)),
      );
    }
    await supersedeCodes(tx as unknown as Executor, input.purpose, input.target, input.now);
    await insertCode(tx as unknown as Executor, {
      purpose: input.purpose,
      channel: isEmailTarget(input.target) ? 'email' : 'sms',
      target: input.target,
      accountId: input.accountId ?? null,
      codeHash: hashCode(deps.secret, input.purpose, input.target, code),
      createdAt: input.now,
      expiresAt: new Date(now + VERIFICATION_RULES.ttlSeconds * 1000),
      ip: input.ip,
    });
  });
  await deps.throttle.recordCodeSend(input.target, input.ip, now);
  await deps.sender.send({
    channel: isEmailTarget(input.target) ? 'email' : 'sms',
    target: input.target,
    purpose: input.purpose,
    code,
    text: codeText(input.language, code, VERIFICATION_RULES.ttlSeconds / 60),
  });
  return { expiresIn: VERIFICATION_RULES.ttlSeconds, resendIn: VERIFICATION_RULES.resendSeconds };
}

/**
 * Checks a code on the root database, before the mutation's transaction, so a wrong
 * attempt is counted even though the call fails: 5 wrong attempts burn the code, and code
 * attempts share the login throttle (per target and per IP). Returns the code's id; the
 * mutation then uses it once with `useCode` in its transaction.
 */
export async function checkCode(
  deps: Pick<CodeDeps, 'db' | 'throttle' | 'secret'>,
  input: { purpose: CodePurpose; target: string; code: string; accountId?: string | null; ip: string; now: Date },
): Promise<string> {
  const now = input.now.getTime();
  const key = codeThrottleKey(input.target);
  const wait = await deps.throttle.retryAfter(key, input.ip, now);
  if (wait > 0) throw rateLimited(wait);
  const active = await activeCode(deps.db, input.purpose, input.target, input.accountId ?? null, input.now);
  const expected = active ? Buffer.from(active.codeHash, 'hex') : null;
  const given = Buffer.from(hashCode(deps.secret, input.purpose, input.target, input.code), 'hex');
  if (!active || !expected || !timingSafeEqual(expected, given)) {
    if (active) await recordWrongAttempt(deps.db, active.id, VERIFICATION_RULES.attemptsPerCode, input.now);
    await deps.throttle.recordFailure(key, input.ip, now);
    throw new AppError(ErrorCode.CODE_INVALID);
  }
  return active.id;
}

/** Uses a checked code in the mutation's transaction (single use even under concurrency). */
export async function useCode(tx: Executor, throttle: LoginThrottle, codeId: string, target: string, now: Date) {
  if (!(await consumeCode(tx, codeId, now))) throw new AppError(ErrorCode.CODE_INVALID);
  await throttle.recordSuccess(codeThrottleKey(target), tx);
}
