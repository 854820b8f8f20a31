import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type SalesPriceContractRow, salesPriceContracts } from '../../db/schema/index.js';

/**
 * Price contracts (issue 28): an advertiser's negotiated discount and slot prices for a
 * validity. Enabled contracts of one advertiser never overlap, so at most one is in force on
 * a day.
 */

/** The advertiser's enabled, not deleted price contract in force on `day` (YYYY-MM-DD), or null. */
export async function activePriceContract(
  db: Executor,
  entId: string,
  advertiserId: string,
  day: string,
): Promise<SalesPriceContractRow | null> {
  const [row] = await db
    .select()
    .from(salesPriceContracts)
    .where(
      and(
        eq(salesPriceContracts.entId, entId),
        eq(salesPriceContracts.advertiserId, advertiserId),
        eq(salesPriceContracts.enabled, true),
        isNull(salesPriceContracts.deletedAt),
        sql`${salesPriceContracts.validFrom} <= ${day}::date`,
        sql`${salesPriceContracts.validTo} >= ${day}::date`,
      ),
    )
    .orderBy(desc(salesPriceContracts.validFrom))
    .limit(1);
  return row ?? null;
}
