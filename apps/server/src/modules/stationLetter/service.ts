import type { Executor } from '../../db/client.js';
import type { CallContext } from '../../protocol/handlers.js';
import { insertStationLetter, listActiveLetters } from './repository.js';

/** The banner's messages: the texts of the caller's non-expired letters. */
export async function stationLetterList(ctx: CallContext): Promise<string[]> {
  const rows = await listActiveLetters(ctx.db, ctx.user.entId, ctx.user.accountId, ctx.now);
  return rows.map((r) => r.content);
}

/** Sends a letter to an enterprise, or to one of its accounts (seed, tests, later modules). */
export function createStationLetter(
  db: Executor,
  letter: { entId: string; accountId?: string | null; content: string; expiresAt?: Date | null; createdAt?: Date },
): Promise<{ id: string }> {
  return insertStationLetter(db, {
    entId: letter.entId,
    accountId: letter.accountId ?? null,
    content: letter.content,
    expiresAt: letter.expiresAt ?? null,
    createdAt: letter.createdAt,
  });
}
