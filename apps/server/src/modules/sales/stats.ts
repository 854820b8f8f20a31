import { and, count, eq, isNull } from 'drizzle-orm';
import { adSlots, salesGoods } from '../../db/schema/index.js';
import { registerStat } from '../home/stats.js';

// The quick statistics' sales figures (home page, /operate): enterprise-wide objects, as their lists show them.
registerStat({
  key: 'slots',
  count: async (db, caller) => {
    const [row] = await db
      .select({ n: count() })
      .from(adSlots)
      .where(and(eq(adSlots.entId, caller.entId), isNull(adSlots.deletedAt)));
    return Number(row?.n ?? 0);
  },
});

registerStat({
  key: 'goodsListed',
  count: async (db, caller) => {
    const [row] = await db
      .select({ n: count() })
      .from(salesGoods)
      .where(and(eq(salesGoods.entId, caller.entId), eq(salesGoods.state, 'onSale'), isNull(salesGoods.deletedAt)));
    return Number(row?.n ?? 0);
  },
});
