import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { stationLetters } from '../../db/schema/index.js';

/** Letters of the enterprise for everyone or for this account, not yet expired, newest first. */
export async function listActiveLetters(db: Executor, entId: string, accountId: string, now: Date) {
  return db
    .select({ kind: stationLetters.kind, params: stationLetters.params })
    .from(stationLetters)
    .where(
      and(
        eq(stationLetters.entId, entId),
        or(isNull(stationLetters.accountId), eq(stationLetters.accountId, accountId)),
        or(isNull(stationLetters.expiresAt), gt(stationLetters.expiresAt, now)),
      ),
    )
    .orderBy(desc(stationLetters.createdAt), desc(stationLetters.id))
    .limit(100);
}

export async function insertStationLetter(
  db: Executor,
  values: typeof stationLetters.$inferInsert,
): Promise<{ id: string }> {
  const [row] = await db.insert(stationLetters).values(values).returning({ id: stationLetters.id });
  return row;
}
