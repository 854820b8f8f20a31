import { formatFen, hasPermission, Perm } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import type { Principal } from '../../auth/principal.js';
import type { Executor } from '../../db/client.js';
import { advertisers } from '../../db/schema/index.js';
import { advertiserWalletId, enterpriseWalletId, platformAccountId } from '../ledger/accounts.js';
import { isPlatformFinance } from '../ledger/walletScope.js';
import { registerLetterRule } from '../stationLetter/rules.js';
import { findWallet } from './repository.js';
import { LOW_BALANCE_LETTER } from './texts.js';

export const LOW_BALANCE_LETTER_KIND = 'finance.lowBalance';

/**
 * The reader's own wallet id (walletView's choice), without making it: a reader who never
 * opened the finance centre has no wallet and so no letter.
 */
async function ownWalletId(db: Executor, reader: Principal): Promise<string> {
  if (isPlatformFinance(reader)) return platformAccountId('revenue');
  const [adv] = await db
    .select({ accountId: advertisers.accountId })
    .from(advertisers)
    .where(and(eq(advertisers.entId, reader.entId), eq(advertisers.accountId, reader.accountId)))
    .limit(1);
  return adv ? advertiserWalletId(reader.accountId) : enterpriseWalletId(reader.entId);
}

/**
 * Station letter (issue 26): the reader's own wallet is below the threshold its owner set.
 * Computed from the ledger's counters when the letters are read, never stored, so it goes
 * away as soon as a recharge lifts the balance; only for readers who may see the wallet.
 */
registerLetterRule<{ available: number; threshold: number }>({
  kind: LOW_BALANCE_LETTER_KIND,
  render: ({ available, threshold }, language) =>
    LOW_BALANCE_LETTER[language](formatFen(available, language), formatFen(threshold, language)),
  async compute(db, reader) {
    if (!hasPermission(reader.permissions, Perm.myFinance)) return [];
    const wallet = await findWallet(db, await ownWalletId(db, reader));
    if (!wallet || wallet.lowBalanceThreshold == null) return [];
    const available = wallet.balance - wallet.frozen;
    return available < wallet.lowBalanceThreshold ? [{ available, threshold: wallet.lowBalanceThreshold }] : [];
  },
});
