import { and, asc, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type SalesOrderRow, salesOrders, salesSettlements } from '../../db/schema/index.js';
import { dayIn, enterpriseTodaySql, enterpriseZone } from '../timeZones/service.js';
import { moveOrder } from './orderScope.js';
import { cancelLocked } from './orders.js';
import { computeSettlement } from './settlement.js';

/**
 * The order jobs of the airtime market (issue 28; registered in src/jobs). Time is their
 * input (`now`), so a test runs a simulated month; each is idempotent (every move is a
 * conditional UPDATE on the order's state, made under the order's row lock) and works in
 * batches, each order in its own transaction.
 * - `sales-hold-expiry` (every minute): unpaid orders past their hold are cancelled
 *   (holdExpired): their held rotations and coupon use are released; no money was taken.
 * - `sales-orders-advance` (every minute): paid orders whose first day has come and whose
 *   every sub-order's ad passed review start (inProgress); paid or toUpload orders whose last
 *   day is over without having started (no approved ad in time) are cancelled (notStarted) and
 *   their hold voided in full: nothing was delivered; orders in progress whose last day is over
 *   get their settlement computed (settlement.ts computeSettlement, toBePaid).
 */

export const HOLD_EXPIRY_JOB = 'sales-hold-expiry';
export const ORDERS_ADVANCE_JOB = 'sales-orders-advance';
export const SALES_ORDER_JOBS_CRON = '* * * * *';

const rowsOf = (result: unknown) => (result as { rows: { id: unknown }[] }).rows;
/** Today in the order's selling enterprise's zone (its dates are that enterprise's days), as SQL over `o`. */
const todaySql = (now: Date) => enterpriseTodaySql(sql`o.ent_id`, now);

/** Locks one order if it is still in `state` (skipping one another transaction holds: it is being changed). */
async function lockIn(tx: Executor, id: string, state: SalesOrderRow['state']): Promise<SalesOrderRow | null> {
  const [row] = await tx
    .select()
    .from(salesOrders)
    .where(and(eq(salesOrders.id, id), eq(salesOrders.state, state)))
    .for('update', { skipLocked: true });
  return row ?? null;
}

/** Cancels the unpaid orders whose hold lapsed at or before `now`; returns how many. */
export async function expireOrderHolds(root: Executor, now: Date, batch = 500): Promise<number> {
  let total = 0;
  let after: { holdUntil: Date; id: string } | null = null;
  for (;;) {
    const due: { id: string; holdUntil: Date | null }[] = await root
      .select({ id: salesOrders.id, holdUntil: salesOrders.holdUntil })
      .from(salesOrders)
      .where(
        and(
          eq(salesOrders.state, 'unpaid'),
          lte(salesOrders.holdUntil, now),
          after
            ? sql`(${salesOrders.holdUntil}, ${salesOrders.id}) > (${after.holdUntil.toISOString()}::timestamptz, ${after.id})`
            : undefined,
        ),
      )
      .orderBy(asc(salesOrders.holdUntil), asc(salesOrders.id))
      .limit(batch);
    for (const { id } of due) {
      const done = await root.transaction(async (tx) => {
        const order = await lockIn(tx, id, 'unpaid');
        if (!order?.holdUntil || order.holdUntil.getTime() > now.getTime()) return false;
        const result = await cancelLocked(tx, order, { actorId: null, reason: 'holdExpired', now });
        await result.pay();
        return true;
      });
      if (done) total++;
    }
    if (due.length < batch) return total;
    const last = due[due.length - 1];
    after = { holdUntil: last.holdUntil as Date, id: last.id };
  }
}

/**
 * Walks the orders a query finds due, by id in pages of `batch` (`page(afterId)` selects the
 * ids greater than `afterId`, ordered, limited to `batch`), handling each in a transaction of
 * its own (`handle` re-checks under the row lock and answers whether it acted); returns how
 * many it acted on. One order failing to lock leaves the others to go on.
 */
async function forEachDue(
  root: Executor,
  batch: number,
  page: (afterId: string) => SQL,
  handle: (tx: Executor, id: string) => Promise<boolean>,
): Promise<number> {
  let total = 0;
  let afterId = '';
  for (;;) {
    const rows = rowsOf(await root.execute(page(afterId)));
    for (const { id } of rows) {
      if (await root.transaction((tx) => handle(tx, String(id)))) total++;
    }
    if (rows.length < batch) return total;
    afterId = String(rows[rows.length - 1].id);
  }
}

/**
 * Paid orders whose first day is today or earlier and whose every sub-order has an ad that
 * passed review (not deleted) move to inProgress; returns how many.
 */
export async function startOrders(root: Executor, now: Date, batch = 500): Promise<number> {
  const today = todaySql(now);
  return forEachDue(
    root,
    batch,
    (afterId) => sql`
      select o.id from sales_orders o
      where o.state = 'paid' and o.start_date <= ${today} and o.id > ${afterId}
        and not exists (
          select 1 from sales_order_lines l left join ads a on a.id = l.ad_id
          where l.order_id = o.id
            and (a.id is null or a.deleted_at is not null or a.review_state <> 'passed'))
      order by o.id limit ${batch}`,
    async (tx, id) => {
      const order = await lockIn(tx, id, 'paid');
      if (!order) return false;
      await moveOrder(tx, order.id, 'paid', 'inProgress', null, now);
      return true;
    },
  );
}

/** Orders in progress whose last day is before today and that have no settlement yet get it computed; returns how many. */
export async function settleEndedOrders(root: Executor, now: Date, batch = 100): Promise<number> {
  const today = todaySql(now);
  return forEachDue(
    root,
    batch,
    (afterId) => sql`
      select o.id from sales_orders o
      where o.state = 'inProgress' and o.end_date < ${today} and o.id > ${afterId}
        and not exists (select 1 from sales_settlements s where s.order_id = o.id)
      order by o.id limit ${batch}`,
    async (tx, id) => {
      const order = await lockIn(tx, id, 'inProgress');
      if (!order) return false;
      const [existing] = await tx
        .select({ id: salesSettlements.id })
        .from(salesSettlements)
        .where(inArray(salesSettlements.orderId, [order.id]));
      if (existing) return false;
      await computeSettlement(tx, order.id, now);
      return true;
    },
  );
}

/**
 * Paid or toUpload orders whose last day is before today never started (their ads were not
 * approved, or not given, in time): cancelled (notStarted), their hold voided in full, their
 * rotations and coupon use released; returns how many. Their ads' periods are over with the
 * order's, so no device plays them.
 */
export async function lapseUnstartedOrders(root: Executor, now: Date, batch = 500): Promise<number> {
  const today = todaySql(now);
  return forEachDue(
    root,
    batch,
    (afterId) => sql`
      select o.id from sales_orders o
      where o.state in ('paid', 'toUpload') and o.end_date < ${today} and o.id > ${afterId}
      order by o.id limit ${batch}`,
    async (tx, id) => {
      const order = (await lockIn(tx, id, 'paid')) ?? (await lockIn(tx, id, 'toUpload'));
      if (!order || order.endDate >= dayIn(now, await enterpriseZone(tx, order.entId))) return false;
      const result = await cancelLocked(tx, order, { actorId: null, reason: 'notStarted', now });
      await result.pay();
      return true;
    },
  );
}

/** The `sales-orders-advance` job: starts what may start, refunds what can no longer start, then settles what ended. */
export async function advanceOrders(
  root: Executor,
  now: Date,
): Promise<{ started: number; lapsed: number; settled: number }> {
  const started = await startOrders(root, now);
  const lapsed = await lapseUnstartedOrders(root, now);
  const settled = await settleEndedOrders(root, now);
  return { started, lapsed, settled };
}
