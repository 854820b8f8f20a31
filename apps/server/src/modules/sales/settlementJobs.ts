import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { enterpriseTodaySql } from '../timeZones/service.js';
import { moveOrder } from './orderScope.js';

/**
 * `sales-settlements-complete` (hourly): settlements paid whose make-goods are over
 * (make_good_until before today, in the order's enterprise's zone) become completed and their order settled. Time is the
 * job's input; each settlement moves in its own transaction (the settlement row locked, a
 * conditional update), so a run is idempotent and a concurrent run moves each once.
 */

export const SETTLEMENTS_COMPLETE_JOB = 'sales-settlements-complete';
export const SETTLEMENTS_COMPLETE_CRON = '7 * * * *';
const BATCH = 200;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export async function completeSettlements(root: Executor, now: Date): Promise<number> {
  const today = enterpriseTodaySql(
    sql`(select o.ent_id from sales_orders o where o.id = sales_settlements.order_id)`,
    now,
  );
  let total = 0;
  let afterId = '';
  for (;;) {
    const rows = rowsOf<{ id: string }>(
      await root.execute(sql`
        select id from sales_settlements
        where state = 'paid' and make_good_until < ${today} and id > ${afterId}
        order by id limit ${BATCH}`),
    );
    for (const { id } of rows) {
      const done = await root.transaction(async (tx) => {
        const [s] = rowsOf<{ order_id: string }>(
          await tx.execute(sql`
            update sales_settlements set state = 'completed', completed_at = ${now.toISOString()}::timestamptz
            where id = ${id} and state = 'paid' and make_good_until < ${today}
            returning order_id`),
        );
        if (!s) return false;
        await moveOrder(tx as unknown as Executor, s.order_id, 'inProgress', 'settled', null, now, { settledAt: now });
        return true;
      });
      if (done) total++;
    }
    if (rows.length < BATCH) return total;
    afterId = rows[rows.length - 1].id;
  }
}
