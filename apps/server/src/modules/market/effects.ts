import { randomUUID } from 'node:crypto';
import { DEFAULT_STORAGE_QUOTA_BYTES } from '@marquee/protocol';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import {
  devices,
  iotCards,
  marketItems,
  marketOrderLines,
  marketOrders,
  marketProducts,
  type PayOrderRow,
} from '../../db/schema/index.js';
import { activateCards } from '../flow/effects.js';
import { registerPayable } from '../payments/payables.js';
import { addMonths, later } from './calendar.js';

/**
 * What a paid market order does (issue 27), in the transaction that marks its payment order
 * paid (payments' markPaid runs the payable's onPaid): the market order's conditional
 * `unpaid -> paid` UPDATE is the guard, so a second notification finds it paid and applies
 * nothing. Every write is one statement for all the order's lines.
 */

const iso = (d: Date) => d.toISOString();
const values = (rows: readonly (readonly unknown[])[]) =>
  sql.join(
    rows.map(
      (r) =>
        sql`(${sql.join(
          r.map((v) => sql`${v}`),
          sql`, `,
        )})`,
    ),
    sql`, `,
  );

/** Applies a paid order's effect once; nothing when the order is not unpaid (paid before, or cancelled). */
export async function applyPaidOrder(db: Executor, payOrder: Pick<PayOrderRow, 'id'>, now: Date): Promise<boolean> {
  const [order] = await db
    .update(marketOrders)
    .set({ state: 'paid', paidAt: now, updatedAt: now })
    .where(and(eq(marketOrders.id, payOrder.id), eq(marketOrders.state, 'unpaid')))
    .returning();
  if (!order) return false;
  // The lines with what each extends (the device's or card's expiry, the item's): one statement.
  const byId = alias(marketItems, 'item_by_id');
  const bySubject = alias(marketItems, 'item_by_subject');
  const joined = await db
    .select({
      line: marketOrderLines,
      deviceId: devices.id,
      deviceExpiry: devices.expireAt,
      cardId: iotCards.id,
      cardExpiry: iotCards.expiresAt,
      packExpiry: byId.expiresAt,
      itemExpiry: bySubject.expiresAt,
    })
    .from(marketOrderLines)
    .leftJoin(devices, and(eq(marketOrderLines.subjectType, 'device'), eq(devices.id, marketOrderLines.subjectId)))
    .leftJoin(iotCards, and(eq(marketOrderLines.subjectType, 'card'), eq(iotCards.id, marketOrderLines.subjectId)))
    .leftJoin(byId, and(eq(marketOrderLines.subjectType, 'pack'), eq(byId.id, marketOrderLines.itemId)))
    .leftJoin(bySubject, and(eq(bySubject.kind, order.kind), eq(bySubject.subjectId, marketOrderLines.subjectId)))
    .where(eq(marketOrderLines.orderId, order.id));
  if (joined.length === 0) return true;
  const lines = joined.map((j) => j.line);
  const current = new Map<string, Date | null>();
  const itemOfSubject = new Map<string, { expiresAt: Date }>();
  const packExpiry = new Map<string, Date>();
  for (const j of joined) {
    if (j.deviceId) current.set(j.deviceId, j.deviceExpiry);
    if (j.cardId) current.set(j.cardId, j.cardExpiry);
    if (j.line.subjectId && j.itemExpiry) itemOfSubject.set(j.line.subjectId, { expiresAt: j.itemExpiry });
    if (j.line.itemId && j.packExpiry) packExpiry.set(j.line.itemId, j.packExpiry);
  }
  const [product] =
    order.kind === 'devicePoints'
      ? [null]
      : await db
          .select({ storageBytes: marketProducts.storageBytes, dataMbPerMonth: marketProducts.dataMbPerMonth })
          .from(marketProducts)
          .where(eq(marketProducts.id, order.productId));

  // Each line's expiry before and after: the term counts from now, or from a later expiry.
  const planned = lines.map((l) => {
    const before =
      order.kind === 'storagePack'
        ? l.itemId
          ? (packExpiry.get(l.itemId) ?? null)
          : null
        : l.subjectId
          ? (current.get(l.subjectId) ?? itemOfSubject.get(l.subjectId)?.expiresAt ?? null)
          : null;
    const after = addMonths(later(now, before), order.months);
    return { line: l, before, after, itemId: l.itemId ?? (order.kind === 'storagePack' ? randomUUID() : null) };
  });

  if (order.kind === 'storagePack') {
    const fresh = planned.filter((p) => !p.line.itemId);
    const bytes = product?.storageBytes ?? 0;
    if (fresh.length > 0) {
      await db.insert(marketItems).values(
        fresh.map((p) => ({
          id: p.itemId as string,
          entId: order.entId,
          kind: 'storagePack' as const,
          subjectId: null,
          productId: order.productId,
          months: order.months,
          storageBytes: bytes,
          state: 'active' as const,
          startsAt: now,
          expiresAt: p.after,
          autoRenew: order.autoRenew,
          createdAt: now,
          updatedAt: now,
        })),
      );
      const added = bytes * fresh.length;
      await db.execute(sql`
        insert into storage_quotas (ent_id, quota_bytes, used_bytes)
        values (${order.entId}, ${DEFAULT_STORAGE_QUOTA_BYTES + added}, 0)
        on conflict (ent_id) do update set quota_bytes = storage_quotas.quota_bytes + ${added}, updated_at = now()`);
    }
    const renewed = planned.filter((p) => p.line.itemId);
    if (renewed.length > 0) {
      await db.execute(sql`
        update market_items i set expires_at = v.e::timestamptz, updated_at = ${iso(now)}::timestamptz
        from (values ${values(renewed.map((p) => [p.itemId, iso(p.after)]))}) as v(id, e)
        where i.id = v.id`);
    }
  } else {
    const withSubject = planned.filter((p) => p.line.subjectId);
    if (withSubject.length > 0) {
      const upserted = await db
        .insert(marketItems)
        .values(
          withSubject.map((p) => ({
            entId: order.entId,
            kind: order.kind,
            subjectId: p.line.subjectId,
            productId: order.productId,
            months: order.months,
            state: 'active' as const,
            startsAt: now,
            expiresAt: p.after,
            autoRenew: order.autoRenew,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: [marketItems.kind, marketItems.subjectId],
          targetWhere: sql`subject_id is not null`,
          set: {
            expiresAt: sql`excluded.expires_at`,
            months: sql`excluded.months`,
            productId: sql`excluded.product_id`,
            startsAt: sql`case when ${marketItems.state} = 'expired' then excluded.starts_at else ${marketItems.startsAt} end`,
            state: 'active',
            // A new order never turns an item's auto-renewal off.
            autoRenew: sql`${marketItems.autoRenew} or excluded.auto_renew`,
            updatedAt: now,
          },
        })
        .returning({ id: marketItems.id, subjectId: marketItems.subjectId });
      const bySubject = new Map(upserted.map((u) => [u.subjectId, u.id]));
      for (const p of withSubject) p.itemId = bySubject.get(p.line.subjectId) ?? null;
      if (order.kind === 'devicePoints') {
        const known = withSubject.filter((p) => current.has(p.line.subjectId as string));
        if (known.length > 0) {
          await db.execute(sql`
            update devices d set expire_at = v.e::timestamptz, updated_at = ${iso(now)}::timestamptz
            from (values ${values(known.map((p) => [p.line.subjectId, iso(p.after)]))}) as v(id, e)
            where d.id = v.id`);
        }
      } else {
        const known = withSubject.filter((p) => current.has(p.line.subjectId as string));
        if (known.length > 0) {
          await activateCards(
            db,
            known.map((p) => ({ id: p.line.subjectId as string, expiresAt: p.after })),
            { name: order.productName, mb: product?.dataMbPerMonth ?? 0 },
            now,
          );
        }
      }
    }
  }
  // Lines written with what the payment does (the renewal job's) need no second write.
  const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
  const changed = planned.filter(
    (p) => p.itemId !== p.line.itemId || !same(p.before, p.line.expiresBefore) || !same(p.after, p.line.expiresAfter),
  );
  if (changed.length > 0) {
    await db.execute(sql`
      update market_order_lines l
      set expires_before = v.b::timestamptz, expires_after = v.a::timestamptz, item_id = v.item
      from (values ${values(changed.map((p) => [p.line.id, p.before ? iso(p.before) : null, iso(p.after), p.itemId]))})
        as v(id, b, a, item)
      where l.id = v.id`);
  }
  return true;
}

/** A market order whose payment order closed unpaid (cancelled by the buyer, or expired). */
export async function cancelClosedOrder(db: Executor, payOrder: Pick<PayOrderRow, 'id'>, now: Date): Promise<void> {
  await db
    .update(marketOrders)
    .set({ state: 'cancelled', cancelledAt: now, updatedAt: now })
    .where(and(eq(marketOrders.id, payOrder.id), eq(marketOrders.state, 'unpaid')));
}

registerPayable({
  purpose: 'market',
  byBalance: true,
  payee: 'revenue',
  onPaid: async (db, order, now) => {
    await applyPaidOrder(db, order, now);
  },
  onClosed: (db, order, now) => cancelClosedOrder(db, order, now),
  route: (o) => `/shop/order?id=${o.id}`,
});
