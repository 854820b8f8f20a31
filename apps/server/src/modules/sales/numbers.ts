import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

/**
 * The numbers people quote in the sales module (issue 28). Slots, goods and price contracts
 * get 9 digits from one platform-wide sequence (sales_number_seq, 100000001..999999999, the
 * way ads number theirs), so each table's unique number index always holds. Orders and
 * contracts are 'S' / 'C' + the UTC+8 date + 6 digits of sales_doc_no_seq (like payments'
 * nextOrderNo).
 */

async function nextval(db: Executor, seq: 'sales_number_seq' | 'sales_doc_no_seq'): Promise<number> {
  const result = (await db.execute(sql`select nextval(${seq}::regclass) as n`)) as unknown as {
    rows: { n: string | number }[];
  };
  return Number(result.rows[0].n);
}

/** The next 9-digit number of a slot, goods item or price contract. */
export async function nextNumber9(
  db: Executor,
  _table: 'ad_slots' | 'sales_goods' | 'sales_price_contracts',
): Promise<string> {
  return String(await nextval(db, 'sales_number_seq')).padStart(9, '0');
}

/** The next order ('S') or contract ('C') number: prefix + UTC+8 date (YYYYMMDD) + 6 digits. */
export async function nextDocNo(db: Executor, prefix: 'S' | 'C', now: Date): Promise<string> {
  const day = new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
  const n = await nextval(db, 'sales_doc_no_seq');
  return `${prefix}${day}${String(n % 1_000_000).padStart(6, '0')}`;
}
