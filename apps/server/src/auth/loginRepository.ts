import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { accounts, enterprises } from '../db/schema/index.js';

// The login lookup, beneath the modules: auth/login.ts verifies credentials through it.

export interface LoginCandidate {
  accountId: string;
  entId: string;
  loginName: string;
  passwordHash: string;
  paused: boolean;
}

/** The account of a login name (case-insensitive, across tenants: login names are unique). */
export async function findLoginCandidate(db: Executor, loginName: string): Promise<LoginCandidate | null> {
  const rows = await db
    .select({
      accountId: accounts.id,
      entId: accounts.entId,
      loginName: accounts.loginName,
      passwordHash: accounts.passwordHash,
      accountStatus: accounts.status,
      entStatus: enterprises.status,
    })
    .from(accounts)
    .innerJoin(enterprises, eq(enterprises.id, accounts.entId))
    .where(sql`lower(${accounts.loginName}) = lower(${loginName})`)
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  return {
    accountId: row.accountId,
    entId: row.entId,
    loginName: row.loginName,
    passwordHash: row.passwordHash,
    paused: row.accountStatus !== 'enabled' || row.entStatus !== 'enabled',
  };
}
