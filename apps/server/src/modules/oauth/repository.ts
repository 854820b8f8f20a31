import { and, asc, eq, gt, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  enterprises,
  type OAuthProviderName,
  type OAuthPurpose,
  type OAuthStateStatus,
  oauthBindings,
  oauthStates,
} from '../../db/schema/index.js';

export async function insertState(db: Executor, values: typeof oauthStates.$inferInsert): Promise<void> {
  await db.insert(oauthStates).values(values);
}

export async function findState(db: Executor, stateHash: string) {
  const rows = await db.select().from(oauthStates).where(eq(oauthStates.stateHash, stateHash)).limit(1);
  return rows[0] ?? null;
}

/** Records what the provider said, only while the state is still pending and fresh. */
export async function settleState(
  db: Executor,
  stateHash: string,
  now: Date,
  values: {
    status: OAuthStateStatus;
    providerUserId?: string;
    nickname?: string;
    accountId?: string | null;
    entId?: string | null;
  },
): Promise<boolean> {
  const rows = await db
    .update(oauthStates)
    .set(values)
    .where(and(eq(oauthStates.stateHash, stateHash), eq(oauthStates.status, 'pending'), gt(oauthStates.expiresAt, now)))
    .returning({ id: oauthStates.id });
  return rows.length === 1;
}

/** Uses a settled state once (login: 'ready'; bind: 'scanned'); null when it is not there. */
export async function useState(
  db: Executor,
  stateHash: string,
  purpose: OAuthPurpose,
  from: OAuthStateStatus,
  now: Date,
) {
  const rows = await db
    .update(oauthStates)
    .set({ status: 'used', completedAt: now })
    .where(
      and(
        eq(oauthStates.stateHash, stateHash),
        eq(oauthStates.purpose, purpose),
        eq(oauthStates.status, from),
        gt(oauthStates.expiresAt, now),
      ),
    )
    .returning();
  return rows[0] ?? null;
}

/** The account bound to a provider identity, with what login needs. */
export async function findBoundAccount(db: Executor, provider: OAuthProviderName, providerUserId: string) {
  const rows = await db
    .select({
      accountId: accounts.id,
      entId: accounts.entId,
      loginName: accounts.loginName,
      accountStatus: accounts.status,
      entStatus: enterprises.status,
    })
    .from(oauthBindings)
    .innerJoin(accounts, and(eq(accounts.id, oauthBindings.accountId), eq(accounts.entId, oauthBindings.entId)))
    .innerJoin(enterprises, eq(enterprises.id, accounts.entId))
    .where(and(eq(oauthBindings.provider, provider), eq(oauthBindings.providerUserId, providerUserId)))
    .limit(1);
  const row = rows[0];
  return row
    ? {
        accountId: row.accountId,
        entId: row.entId,
        loginName: row.loginName,
        paused: row.accountStatus !== 'enabled' || row.entStatus !== 'enabled',
      }
    : null;
}

export async function listBindings(db: Executor, entId: string, accountId: string) {
  return db
    .select({ provider: oauthBindings.provider, nickname: oauthBindings.nickname, createdAt: oauthBindings.createdAt })
    .from(oauthBindings)
    .where(and(eq(oauthBindings.entId, entId), eq(oauthBindings.accountId, accountId)))
    .orderBy(asc(oauthBindings.provider));
}

export async function deleteBinding(db: Executor, entId: string, accountId: string, provider: OAuthProviderName) {
  const rows = await db
    .delete(oauthBindings)
    .where(
      and(eq(oauthBindings.entId, entId), eq(oauthBindings.accountId, accountId), eq(oauthBindings.provider, provider)),
    )
    .returning({ id: oauthBindings.id });
  return rows.length > 0;
}

export async function insertBinding(db: Executor, values: typeof oauthBindings.$inferInsert) {
  await db.insert(oauthBindings).values(values);
}

/** openWxLogin (session state): the account can log in by WeChat scan. */
export async function setOpenWxLogin(db: Executor, entId: string, accountId: string, value: boolean, at: Date) {
  await db
    .update(accounts)
    .set({ openWxLogin: value, updatedAt: at })
    .where(and(eq(accounts.entId, entId), eq(accounts.id, accountId)));
}

/** Forgets states that expired more than a day ago (the `prune-oauth-states` job); returns how many. */
export async function pruneStates(db: Executor, now: Date): Promise<number> {
  const deleted = await db
    .delete(oauthStates)
    .where(lt(oauthStates.expiresAt, new Date(now.getTime() - 86_400_000)))
    .returning({ stateHash: oauthStates.stateHash });
  return deleted.length;
}
