import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accounts, enterprises, marketOrderLines, marketOrders, payOrders } from '../../db/schema/index.js';

/** The market's reads of one order (issue 27); lists are lists.ts's. */

/** The buyer's name as people read it (null for the renewal job's orders): join `accounts` on the creator. */
export const buyerName = sql<string | null>`coalesce(nullif(${accounts.realName}, ''), ${accounts.loginName})`;

/** An order of the enterprise with its payment order's state and method and the enterprise's name. */
export async function findOrder(db: Executor, entId: string, id: string) {
  const [row] = await db
    .select({
      order: marketOrders,
      pay: { state: payOrders.state, method: payOrders.method },
      entName: enterprises.name,
      buyerName,
    })
    .from(marketOrders)
    .innerJoin(payOrders, eq(payOrders.id, marketOrders.payOrderId))
    .innerJoin(enterprises, eq(enterprises.id, marketOrders.entId))
    .leftJoin(accounts, eq(accounts.id, marketOrders.createdBy))
    .where(and(eq(marketOrders.id, id), eq(marketOrders.entId, entId)));
  return row ?? null;
}

/** The order locked for a change, with its payment order's state. */
export async function lockMarketOrder(db: Executor, entId: string, id: string) {
  const [row] = await db
    .select({ order: marketOrders, payState: payOrders.state })
    .from(marketOrders)
    .innerJoin(payOrders, eq(payOrders.id, marketOrders.payOrderId))
    .where(and(eq(marketOrders.id, id), eq(marketOrders.entId, entId)))
    .for('update');
  return row ?? null;
}

export function orderLines(db: Executor, orderId: string) {
  return db
    .select()
    .from(marketOrderLines)
    .where(eq(marketOrderLines.orderId, orderId))
    .orderBy(marketOrderLines.subjectName, marketOrderLines.id);
}
