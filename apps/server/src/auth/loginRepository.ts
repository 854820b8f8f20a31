import { eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { accounts, enterprises } from '../db/schema/index.js';

// The account lookups of signing in, beneath the modules: by login name (auth/login.ts) and by
// mobile number or e-mail address (code login, password retrieval, registration, profile).

export interface LoginCandidate {
  accountId: string;
  entId: string;
  loginName: string;
  passwordHash: string;
  /** The account or its enterprise is paused. */
  paused: boolean;
}

/** An account found by a contact (no password hash). */
export type TargetAccount = Omit<LoginCandidate, 'passwordHash'>;

/** The first account matching `where`, in `order`, with whether it or its enterprise is paused. */
async function findAccount(db: Executor, where: SQL, order: SQL[]): Promise<LoginCandidate | null> {
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
    .where(where)
    .orderBy(...order)
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

/** The account of a login name (case-insensitive, across tenants: login names are unique). */
export function findLoginCandidate(db: Executor, loginName: string): Promise<LoginCandidate | null> {
  return findAccount(db, sql`lower(${accounts.loginName}) = lower(${loginName})`, []);
}

/**
 * The account a mobile number or e-mail address belongs to. Numbers are compared without
 * spaces and dashes, addresses without case. When several accounts share one, the most
 * recently used enabled account wins.
 */
export async function findAccountByTarget(db: Executor, target: string): Promise<TargetAccount | null> {
  const match = target.includes('@')
    ? sql`lower(${accounts.email}) = ${target}`
    : sql`regexp_replace(${accounts.phone}, '[[:space:]-]', '', 'g') = ${target}`;
  const found = await findAccount(db, match, [
    sql`case when ${accounts.status} = 'enabled' and ${enterprises.status} = 'enabled' then 0 else 1 end`,
    sql`${accounts.lastLoginAt} desc nulls last`,
    sql`${accounts.createdAt}`,
  ]);
  if (!found) return null;
  const { passwordHash: _hash, ...account } = found;
  return account;
}
