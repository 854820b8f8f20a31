import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devOutbox, type VerificationPurpose, verificationCodes } from '../../db/schema/index.js';

export interface ActiveCode {
  id: string;
  codeHash: string;
  attempts: number;
  createdAt: Date;
}

/** The newest code of a purpose and target (and account, for bind-phone), used or not. */
export async function latestCode(
  db: Executor,
  purpose: VerificationPurpose,
  target: string,
  accountId: string | null,
): Promise<{ createdAt: Date } | null> {
  const rows = await db
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.purpose, purpose),
        eq(verificationCodes.target, target),
        accountId ? eq(verificationCodes.accountId, accountId) : undefined,
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return rows[0] ?? null;
}

/** The newest code still usable (not consumed, not expired). */
export async function activeCode(
  db: Executor,
  purpose: VerificationPurpose,
  target: string,
  accountId: string | null,
  now: Date,
): Promise<ActiveCode | null> {
  const rows = await db
    .select({
      id: verificationCodes.id,
      codeHash: verificationCodes.codeHash,
      attempts: verificationCodes.attempts,
      createdAt: verificationCodes.createdAt,
    })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.purpose, purpose),
        eq(verificationCodes.target, target),
        accountId ? eq(verificationCodes.accountId, accountId) : isNull(verificationCodes.accountId),
        isNull(verificationCodes.consumedAt),
        gt(verificationCodes.expiresAt, now),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  return rows[0] ?? null;
}

/** Ends every open code of a purpose and target (a newer code replaces them). */
export async function supersedeCodes(db: Executor, purpose: VerificationPurpose, target: string, now: Date) {
  await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(verificationCodes.purpose, purpose),
        eq(verificationCodes.target, target),
        isNull(verificationCodes.consumedAt),
      ),
    );
}

export async function insertCode(db: Executor, values: typeof verificationCodes.$inferInsert): Promise<void> {
  await db.insert(verificationCodes).values(values);
}

/** Counts a wrong attempt; the code is burned when it reaches `limit`. */
export async function recordWrongAttempt(db: Executor, id: string, limit: number, now: Date): Promise<void> {
  await db
    .update(verificationCodes)
    .set({
      attempts: sql`${verificationCodes.attempts} + 1`,
      consumedAt: sql`case when ${verificationCodes.attempts} + 1 >= ${limit} then ${now.toISOString()}::timestamptz else null end`,
    })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)));
}

/** Uses a code once: false when it was used, burned or expired meanwhile. */
export async function consumeCode(db: Executor, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(
      and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt), gt(verificationCodes.expiresAt, now)),
    )
    .returning({ id: verificationCodes.id });
  return rows.length === 1;
}

export async function listOutbox(db: Executor, input: { page: number; size: number; target?: string }) {
  const where = input.target ? eq(devOutbox.target, input.target) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(devOutbox)
      .where(where)
      .orderBy(desc(devOutbox.createdAt), desc(devOutbox.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    db.select({ total: count() }).from(devOutbox).where(where),
  ]);
  return { total: Number(total), rows };
}

/**
 * Forgets codes older than a day (spent, superseded or expired: they can no longer verify)
 * and outbox messages older than a week (the `prune-verification` job); returns how many.
 */
export async function pruneCodes(db: Executor, now: Date): Promise<{ codes: number; outbox: number }> {
  const codes = await db
    .delete(verificationCodes)
    .where(lt(verificationCodes.createdAt, new Date(now.getTime() - 86_400_000)))
    .returning({ id: verificationCodes.id });
  const outbox = await db
    .delete(devOutbox)
    .where(lt(devOutbox.createdAt, new Date(now.getTime() - 7 * 86_400_000)))
    .returning({ id: devOutbox.id });
  return { codes: codes.length, outbox: outbox.length };
}
