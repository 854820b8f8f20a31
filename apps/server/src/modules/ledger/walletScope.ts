import { ErrorCode, Perm } from '@marquee/protocol';
import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal.js';
import type { Executor } from '../../db/client.js';
import { advertisers, ledgerAccounts } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import {
  advertiserWalletId,
  ensureAdvertiserWallet,
  ensureEnterpriseWallet,
  ensurePlatformAccount,
  enterpriseWalletId,
} from './repository.js';
import { LedgerText } from './texts.js';

/**
 * Who sees which wallet (the endpoints' audience 'wallet', issue 26). Every read of money
 * (wallets, movements, payment orders, invoices) filters by `walletWhere` or checks one
 * wallet with `requireWallet`:
 * - the platform operator (an account of the provider enterprise holding
 *   yxf_new_finance_manage): every wallet and the platform's accounts;
 * - an advertiser: only the advertiser's own wallet;
 * - anyone else of an enterprise (holding the endpoint's permission): the enterprise's
 *   wallet, and, for the enterprise administrator, the wallets of the enterprise's advertisers.
 */

export type WalletCaller = Pick<Principal, 'entId' | 'entKind' | 'accountId' | 'isEntAdmin' | 'permissions'>;

export interface WalletView {
  /** Every account (the platform operator). */
  platform: boolean;
  /** The caller is an advertiser: only its own wallet. */
  advertiser: boolean;
  /** The caller's own wallet (the platform operator's: the platform's revenue account). */
  ownWalletId: string;
  /** Wallets of the caller's enterprise's advertisers are visible too. */
  advertiserWallets: boolean;
  entId: string;
}

/** Whether the caller may act as the platform's finance (every wallet). */
export function isPlatformFinance(user: WalletCaller): boolean {
  return user.entKind === 'provider' && user.permissions.has(Perm.financeManage);
}

/** What the caller sees; makes the caller's own wallet on first use. */
export async function walletView(db: Executor, user: WalletCaller): Promise<WalletView> {
  if (isPlatformFinance(user)) {
    return {
      platform: true,
      advertiser: false,
      ownWalletId: await ensurePlatformAccount(db, 'revenue'),
      advertiserWallets: true,
      entId: user.entId,
    };
  }
  const [adv] = await db
    .select({ accountId: advertisers.accountId })
    .from(advertisers)
    .where(and(eq(advertisers.entId, user.entId), eq(advertisers.accountId, user.accountId)))
    .limit(1);
  if (adv) {
    return {
      platform: false,
      advertiser: true,
      ownWalletId: await ensureAdvertiserWallet(db, user.entId, user.accountId),
      advertiserWallets: false,
      entId: user.entId,
    };
  }
  return {
    platform: false,
    advertiser: false,
    ownWalletId: await ensureEnterpriseWallet(db, user.entId),
    advertiserWallets: user.isEntAdmin,
    entId: user.entId,
  };
}

/** The condition on a wallet id column (ledger_accounts.id, pay_orders.wallet_id...) of what the view sees. */
export function walletWhere(view: WalletView, walletIdColumn: SQL | typeof ledgerAccounts.id): SQL {
  if (view.platform) return sql`true`;
  if (view.advertiser) return sql`${walletIdColumn} = ${view.ownWalletId}`;
  const own = sql`${walletIdColumn} = ${enterpriseWalletId(view.entId)}`;
  if (!view.advertiserWallets) return own;
  return or(
    own,
    sql`${walletIdColumn} in (select ${ledgerAccounts.id} from ${ledgerAccounts}
      where ${ledgerAccounts.kind} = 'advertiser' and ${ledgerAccounts.entId} = ${view.entId})`,
  ) as SQL;
}

/** The wallet named (default: the caller's own), or NOT_FOUND when the caller may not see it. */
export async function requireWallet(
  db: Executor,
  view: WalletView,
  walletId: string | undefined,
): Promise<typeof ledgerAccounts.$inferSelect> {
  const id = walletId ?? view.ownWalletId;
  const [row] = await db
    .select()
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.id, id), walletWhere(view, ledgerAccounts.id)))
    .limit(1);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, LedgerText.walletNotFound);
  return row;
}

export { advertiserWalletId, enterpriseWalletId };
