import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accounts } from '../../db/schema/index.js';

/** Stamps the login; false when the account was paused meanwhile. */
export async function markLoggedIn(db: Executor, entId: string, accountId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(accounts)
    .set({ lastLoginAt: at })
    .where(and(eq(accounts.entId, entId), eq(accounts.id, accountId), eq(accounts.status, 'enabled')))
    .returning({ id: accounts.id });
  return rows.length === 1;
}

/** Replaces an account's password hash and clears the forced-change flag. */
export async function setPasswordHash(db: Executor, entId: string, accountId: string, passwordHash: string, at: Date) {
  await db
    .update(accounts)
    .set({ passwordHash, updatePwd: false, updatedAt: at })
    .where(and(eq(accounts.entId, entId), eq(accounts.id, accountId)));
}
