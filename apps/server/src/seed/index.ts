import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { meta } from '../db/schema/index.js';
import { seedDemo } from './demo.js';

export { DEMO_LOGINS, DEMO_PASSWORD, demoLoginLines } from './demoLogins.js';
export { seedDemoHelp } from './help.js';
export { seedDemoMarket } from './market.js';
export { seedDemoMoney } from './money.js';
export { seedDemoSales } from './sales.js';

const SEED_KEY = 'seed';
// Any constant works; it only serialises concurrent first starts against one PostgreSQL.
const SEED_LOCK = 727_001;

/**
 * Seeds the demo data once. The common case (already seeded) costs one query; the first
 * start seeds in one transaction under an advisory lock and writes the marker last.
 * Returns whether it seeded now.
 */
export async function seedIfNeeded(db: Executor): Promise<boolean> {
  const marker = await db.select({ key: meta.key }).from(meta).where(eq(meta.key, SEED_KEY));
  if (marker.length > 0) return false;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const again = await tx.select({ key: meta.key }).from(meta).where(eq(meta.key, SEED_KEY));
    if (again.length > 0) return false;
    await seedDemo(tx as unknown as Executor);
    await tx.insert(meta).values({ key: SEED_KEY, value: { version: 1, at: new Date().toISOString() } });
    return true;
  });
}
