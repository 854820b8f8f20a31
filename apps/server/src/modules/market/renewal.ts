import { randomUUID } from 'node:crypto';
import { RENEWAL_LEAD_DAYS, type RenewalFailure } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { marketOrderLines, marketOrders, marketRenewals, payOrders } from '../../db/schema/index.js';
import { lapseCards } from '../flow/effects.js';
import { ensureEnterpriseWallet } from '../ledger/accounts.js';
import { markPaid, nextOrderNo } from '../payments/settle.js';
import { createStationLetter } from '../stationLetter/service.js';
import { addMonths, dayOf, later, nextDayStart } from './calendar.js';
import './effects.js';
import { RENEWAL_FAILED_LETTER_KIND } from './letters.js';
import { MarketText, packName } from './texts.js';

/**
 * The market's jobs (issue 27, spec section 9; docs/ARCHITECTURE.md "The market"). Time is
 * their input. `runRenewals` tries each due item once per UTC+8 day; per enterprise, in one
 * transaction, it locks the wallet, takes the due items soonest expiry first while the
 * available balance (frozen money excluded) covers them, pays them by balance and records
 * every attempt. Every write is one statement for many rows. `expireItems` ends the items
 * past expiry (packs give their bytes back, cards lapse).
 */

export const RENEWAL_JOB = 'market-renewals';
/** 00:10 UTC+8. */
export const RENEWAL_CRON = '10 16 * * *';
export const EXPIRE_ITEMS_JOB = 'market-expire-items';
export const EXPIRE_ITEMS_CRON = '5 * * * *';

const DAY_MS = 86_400_000;
type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;
const toDate = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

interface DueItem {
  id: string;
  kind: 'devicePoints' | 'storagePack' | 'dataCard';
  subjectId: string | null;
  productId: string;
  productName: string;
  months: number;
  expiresAt: Date;
  storageBytes: number | null;
  price: number | null;
  gone: boolean;
  subjectName: string;
}

export interface RenewalRun {
  enterprises: number;
  succeeded: number;
  failed: number;
}

/** The day's renewals (spec section 9), enterprises `concurrency` at a time. */
export async function runRenewals(
  root: Executor,
  now: Date,
  options: { concurrency?: number } = {},
): Promise<RenewalRun> {
  const day = dayOf(now);
  const lead = new Date(now.getTime() + RENEWAL_LEAD_DAYS * DAY_MS);
  const ents = rowsOf(
    await root.execute(sql`
      select distinct i.ent_id from market_items i
      where i.auto_renew and i.state = 'active'
        and i.expires_at > ${now.toISOString()}::timestamptz and i.expires_at <= ${lead.toISOString()}::timestamptz
        and not exists (select 1 from market_renewals r where r.item_id = i.id and r.day = ${day})`),
  ).map((r) => String(r.ent_id));
  const run: RenewalRun = { enterprises: 0, succeeded: 0, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < ents.length) {
      const entId = ents[next++];
      const result = await root.transaction((tx) => renewEnterprise(tx, entId, now, day, lead));
      run.enterprises++;
      run.succeeded += result.succeeded;
      run.failed += result.failed;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  return run;
}

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

/** One enterprise's due items of the day, in the caller's transaction. */
export async function renewEnterprise(
  db: Executor,
  entId: string,
  now: Date,
  day: string,
  lead: Date,
): Promise<{ succeeded: number; failed: number }> {
  const walletId = await ensureEnterpriseWallet(db, entId);
  // The wallet locked for the day's renewals, and its available balance (frozen money excluded).
  const [wallet] = rowsOf(
    await db.execute(sql`
      select credits_posted - debits_posted - debits_pending as available
      from ledger_accounts where id = ${walletId} for update`),
  );
  const available = Number(wallet?.available ?? 0);
  const due: DueItem[] = rowsOf(
    await db.execute(sql`
      select i.id, i.kind, i.subject_id, i.product_id, i.months, i.expires_at, i.storage_bytes,
             p.name as product_name, p.state as product_state, p.prices,
             coalesce(d.name, c.iccid) as subject_name,
             case when i.kind = 'devicePoints' then d.id is null
                  when i.kind = 'dataCard' then c.id is null or c.state = 'cancelled'
                  else false end as gone
      from market_items i
      join market_products p on p.id = i.product_id
      left join devices d on i.kind = 'devicePoints' and d.id = i.subject_id
      left join iot_cards c on i.kind = 'dataCard' and c.id = i.subject_id
      where i.ent_id = ${entId} and i.auto_renew and i.state = 'active'
        and i.expires_at > ${now.toISOString()}::timestamptz and i.expires_at <= ${lead.toISOString()}::timestamptz
        and not exists (select 1 from market_renewals r where r.item_id = i.id and r.day = ${day})
      order by i.expires_at, i.id
      for update of i`),
  ).map((r) => {
    const prices = (typeof r.prices === 'string' ? JSON.parse(r.prices) : r.prices) as {
      months: number;
      price: number;
    }[];
    const months = Number(r.months);
    const price = r.product_state === 'onSale' ? (prices.find((p) => p.months === months)?.price ?? null) : null;
    const storageBytes = r.storage_bytes == null ? null : Number(r.storage_bytes);
    return {
      id: String(r.id),
      kind: r.kind as DueItem['kind'],
      subjectId: r.subject_id == null ? null : String(r.subject_id),
      productId: String(r.product_id),
      productName: String(r.product_name),
      months,
      expiresAt: toDate(r.expires_at),
      storageBytes,
      price,
      gone: r.gone === true || r.gone === 't',
      subjectName:
        r.kind === 'storagePack' ? packName(storageBytes ?? 0) : String(r.subject_name ?? r.subject_id ?? ''),
    };
  });
  if (due.length === 0) return { succeeded: 0, failed: 0 };

  const failed: { item: DueItem; reason: RenewalFailure }[] = [];
  const taken: DueItem[] = [];
  let spent = 0;
  let short = false;
  for (const item of due) {
    if (item.price === null) failed.push({ item, reason: 'offShelf' });
    else if (item.gone) failed.push({ item, reason: 'subjectGone' });
    else if (!short && spent + item.price <= available) {
      taken.push(item);
      spent += item.price;
    } else {
      // Soonest expiry first: once one does not fit, the later ones wait for a recharge.
      short = true;
      failed.push({ item, reason: 'insufficientBalance' });
    }
  }

  const renewals: (typeof marketRenewals.$inferInsert)[] = [];
  const toPay: string[] = [];
  if (taken.length > 0) {
    // The schema keeps one product and term per order: one renewal order per product and term, paid together.
    const groups = new Map<string, DueItem[]>();
    for (const item of taken) {
      const key = `${item.productId}:${item.months}`;
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    const [buyer] = rowsOf(
      await db.execute(
        sql`select id from accounts where ent_id = ${entId} order by is_ent_admin desc, created_at, id limit 1`,
      ),
    );
    if (!buyer) throw new Error(`enterprise ${entId} has no account to own its renewal orders`);
    const orders = [];
    for (const items of groups.values()) {
      const first = items[0];
      const payNo = await nextOrderNo(db, now);
      const amount = items.reduce((s, i) => s + (i.price as number), 0);
      orders.push({ id: randomUUID(), payNo, items, first, amount });
    }
    toPay.push(...orders.map((o) => o.id));
    await db.insert(payOrders).values(
      orders.map((o) => ({
        id: o.id,
        no: o.payNo,
        purpose: 'market',
        title: MarketText.renewalTitle(o.first.productName, o.first.months)['zh-CN'],
        amount: o.amount,
        state: 'unpaid' as const,
        walletId,
        entId,
        createdBy: String(buyer.id),
        expiresAt: null,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await db.insert(marketOrders).values(
      orders.map((o) => ({
        id: o.id,
        no: `M${o.payNo.slice(1)}`,
        entId,
        productId: o.first.productId,
        kind: o.first.kind,
        productName: o.first.productName,
        months: o.first.months,
        unitPrice: o.first.price as number,
        quantity: o.items.length,
        amount: o.amount,
        state: 'unpaid' as const,
        source: 'renewal' as const,
        autoRenew: true,
        payOrderId: o.id,
        createdBy: null,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await db.insert(marketOrderLines).values(
      orders.flatMap((o) =>
        o.items.map((i) => ({
          orderId: o.id,
          subjectType:
            i.kind === 'devicePoints'
              ? ('device' as const)
              : i.kind === 'dataCard'
                ? ('card' as const)
                : ('pack' as const),
          subjectId: i.subjectId,
          itemId: i.id,
          subjectName: i.subjectName,
          amount: i.price as number,
          expiresBefore: i.expiresAt,
          // What the payment will write (effects.ts): then it need not write the lines again.
          expiresAfter: addMonths(later(now, i.expiresAt), i.months),
        })),
      ),
    );
    // The succeeded attempts straight from the paid lines: one statement, nothing read back.
    await db.execute(sql`
      insert into market_renewals (id, item_id, ent_id, day, at, outcome, reason, amount, order_id, effective_at,
                                   expires_before, expires_after)
      select gen_random_uuid()::text, l.item_id, ${entId}, ${day}, ${now.toISOString()}::timestamptz, 'succeeded', null,
             l.amount, l.order_id, ${nextDayStart(now).toISOString()}::timestamptz, l.expires_before, l.expires_after
      from market_order_lines l
      where l.order_id in (${sql.join(
        orders.map((o) => sql`${o.id}`),
        sql`, `,
      )})
      on conflict do nothing`);
  }
  for (const f of failed) {
    renewals.push({
      itemId: f.item.id,
      entId,
      day,
      at: now,
      outcome: 'failed',
      reason: f.reason,
      amount: f.item.price ?? 0,
      orderId: null,
      effectiveAt: null,
      expiresBefore: f.item.expiresAt,
      expiresAfter: null,
    });
  }
  if (renewals.length > 0) await db.insert(marketRenewals).values(renewals).onConflictDoNothing();
  if (failed.length > 0) {
    const countOf = (reason: RenewalFailure) => failed.filter((f) => f.reason === reason).length;
    await createStationLetter(db, {
      entId,
      kind: RENEWAL_FAILED_LETTER_KIND,
      params: {
        day,
        insufficientBalance: countOf('insufficientBalance'),
        offShelf: countOf('offShelf'),
        subjectGone: countOf('subjectGone'),
      },
      expiresAt: new Date(now.getTime() + DAY_MS),
      createdAt: now,
    });
  }
  // The payments come last: each locks the platform's revenue account until this transaction
  // commits, and every enterprise's renewals pay into it, so the lock is held only for the
  // transfer and the commit (one transaction: a refused payment still rolls everything back).
  for (const id of toPay) await markPaid(db, id, { method: 'balance', now, actorId: null });
  return { succeeded: taken.length, failed: failed.length };
}

/** The hourly job: items past expiry expire; packs give their bytes back, cards lapse. */
export async function expireItems(root: Executor, now: Date, batch = 5000): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await root.transaction(async (tx) => {
      const rows = rowsOf(
        await tx.execute(sql`
          with due as (
            select id from market_items
            where state = 'active' and expires_at <= ${now.toISOString()}::timestamptz
            order by expires_at, id limit ${batch}
            for update skip locked
          )
          update market_items i set state = 'expired', updated_at = ${now.toISOString()}::timestamptz
          from due where i.id = due.id
          returning i.id, i.ent_id, i.kind, i.subject_id, i.storage_bytes`),
      );
      const bytesByEnt = new Map<string, number>();
      const cards: string[] = [];
      for (const r of rows) {
        if (r.kind === 'storagePack') {
          const ent = String(r.ent_id);
          bytesByEnt.set(ent, (bytesByEnt.get(ent) ?? 0) + Number(r.storage_bytes ?? 0));
        } else if (r.kind === 'dataCard' && r.subject_id) cards.push(String(r.subject_id));
      }
      if (bytesByEnt.size > 0) {
        await tx.execute(sql`
          update storage_quotas q set quota_bytes = greatest(0, q.quota_bytes - v.b::bigint), updated_at = ${now.toISOString()}::timestamptz
          from (values ${values([...bytesByEnt].map(([ent, b]) => [ent, String(b)]))}) as v(ent, b)
          where q.ent_id = v.ent`);
      }
      if (cards.length > 0) await lapseCards(tx, cards, now);
      return rows.length;
    });
    total += done;
    if (done < batch) return total;
  }
}
