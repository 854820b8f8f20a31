import type { PlatformAccount } from '@marquee/protocol';
import { inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { ledgerAccounts } from '../../db/schema/index.js';

/**
 * The ledger's accounts (issue 26). Ids are derived from what they belong to, so finding an
 * account and making it on first use is one idempotent INSERT:
 * - `ent:<entId>` an enterprise's wallet, `adv:<accountId>` an advertiser's wallet: both
 *   refuse to let debits exceed credits (no overdraft);
 * - `platform:<key>` the platform's own accounts (PLATFORM_ACCOUNTS), which may go negative
 *   (a provider's clearing account is what the provider owes us: debited on every recharge).
 */

export const enterpriseWalletId = (entId: string) => `ent:${entId}`;
export const advertiserWalletId = (accountId: string) => `adv:${accountId}`;
export const platformAccountId = (key: PlatformAccount) => `platform:${key}`;

/** The enterprise's wallet, made on first use. */
export async function ensureEnterpriseWallet(db: Executor, entId: string): Promise<string> {
  const id = enterpriseWalletId(entId);
  await db.execute(sql`
    insert into ledger_accounts (id, kind, ent_id, no_overdraft)
    values (${id}, 'enterprise', ${entId}, true)
    on conflict do nothing`);
  return id;
}

/** An advertiser's wallet (the advertiser's account in its enterprise), made on first use. */
export async function ensureAdvertiserWallet(db: Executor, entId: string, accountId: string): Promise<string> {
  const id = advertiserWalletId(accountId);
  await db.execute(sql`
    insert into ledger_accounts (id, kind, ent_id, account_id, no_overdraft)
    values (${id}, 'advertiser', ${entId}, ${accountId}, true)
    on conflict do nothing`);
  return id;
}

/** One of the platform's accounts, made on first use. */
export async function ensurePlatformAccount(db: Executor, key: PlatformAccount): Promise<string> {
  const id = platformAccountId(key);
  await db.execute(sql`
    insert into ledger_accounts (id, kind, platform_key, no_overdraft)
    values (${id}, 'platform', ${key}, false)
    on conflict do nothing`);
  return id;
}

export interface AccountBalance {
  id: string;
  balance: number;
  frozen: number;
  available: number;
  creditsPending: number;
}

/** Balances of accounts (missing ids are absent from the map). */
export async function accountBalances(db: Executor, ids: readonly string[]): Promise<Map<string, AccountBalance>> {
  const out = new Map<string, AccountBalance>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      id: ledgerAccounts.id,
      balance: sql<string>`${ledgerAccounts.creditsPosted} - ${ledgerAccounts.debitsPosted}`,
      frozen: ledgerAccounts.debitsPending,
      creditsPending: ledgerAccounts.creditsPending,
    })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, [...ids]));
  for (const r of rows) {
    const balance = Number(r.balance);
    const frozen = Number(r.frozen);
    out.set(String(r.id), {
      id: String(r.id),
      balance,
      frozen,
      available: balance - frozen,
      creditsPending: Number(r.creditsPending),
    });
  }
  return out;
}
