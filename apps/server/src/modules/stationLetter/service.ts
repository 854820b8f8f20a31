import type { Executor } from '../../db/client.js';
import type { CallContext } from '../../protocol/handlers.js';
import { insertStationLetter, listActiveLetters } from './repository.js';
import { type LetterParams, letterRule, letterRules, renderLetter } from './rules.js';

/**
 * The banner's messages in the caller's language: letters the rules compute from the facts
 * now, then the caller's stored, non-expired letters, newest first. A stored letter whose
 * kind no module registers any more is left out.
 */
export async function stationLetterList(ctx: CallContext): Promise<string[]> {
  const user = ctx.user;
  const computed = await Promise.all(
    letterRules().map(async (rule) =>
      rule.compute ? (await rule.compute(ctx.db, user, ctx.now)).map((p) => renderLetter(rule, p, ctx.language)) : [],
    ),
  );
  const rows = await listActiveLetters(ctx.db, user.entId, user.accountId, ctx.now);
  const stored = rows.flatMap((row) => {
    const rule = letterRule(row.kind);
    return rule ? [renderLetter(rule, row.params, ctx.language)] : [];
  });
  return [...computed.flat(), ...stored];
}

/**
 * Sends a letter of a registered kind to an enterprise, or to one of its accounts (the
 * modules whose events call for one). Throws for a kind nobody registered: a letter is
 * never free text.
 */
export function createStationLetter(
  db: Executor,
  letter: {
    entId: string;
    accountId?: string | null;
    kind: string;
    params?: LetterParams;
    expiresAt?: Date | null;
    createdAt?: Date;
  },
): Promise<{ id: string }> {
  if (!letterRule(letter.kind)) throw new Error(`no rule renders station letters of kind ${letter.kind}`);
  return insertStationLetter(db, {
    entId: letter.entId,
    accountId: letter.accountId ?? null,
    kind: letter.kind,
    params: letter.params ?? {},
    expiresAt: letter.expiresAt ?? null,
    createdAt: letter.createdAt,
  });
}
