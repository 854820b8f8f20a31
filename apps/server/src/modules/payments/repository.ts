import type { OfflineState, PayMethod, PayPurpose, PayState } from '@marquee/protocol';
import { and, count, desc, eq, gte, ilike, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  enterprises,
  ledgerAccounts,
  type OfflinePaymentRow,
  offlinePayments,
  type PayOrderRow,
  payOrders,
  payVouchers,
} from '../../db/schema/index.js';

/**
 * The payments module's reads (issue 26): payment orders and offline transfers with the names
 * a page shows (the wallet's and its enterprise's, the people who acted). Visibility is the
 * caller's `where` (walletWhere on pay_orders.wallet_id); nothing here decides who sees what.
 */

/** pay_orders.wallet_id, for walletWhere (ledger/walletScope.ts). */
export const orderWalletColumn = sql`${payOrders.walletId}`;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (value: string) => `%${escapeLike(value.trim())}%`;

const walletOwner = alias(accounts, 'wallet_owner');
const creator = alias(accounts, 'pay_creator');
const submitter = alias(accounts, 'offline_submitter');
const reviewer = alias(accounts, 'offline_reviewer');

const personName = (a: { realName: PgColumn; loginName: PgColumn }) =>
  sql<string | null>`coalesce(nullif(${a.realName}, ''), ${a.loginName})`;

export interface PayOrderView {
  order: PayOrderRow;
  walletName: string | null;
  entName: string | null;
  creatorName: string | null;
}

const orderColumns = {
  order: payOrders,
  walletName: sql<string | null>`case ${ledgerAccounts.kind}
    when 'enterprise' then ${enterprises.name}
    when 'advertiser' then coalesce(nullif(${walletOwner.realName}, ''), ${walletOwner.loginName})
    else ${ledgerAccounts.platformKey} end`,
  entName: enterprises.name,
  creatorName: personName(creator),
};

function orderQuery(db: Executor) {
  return db
    .select(orderColumns)
    .from(payOrders)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, payOrders.walletId))
    .leftJoin(enterprises, eq(enterprises.id, payOrders.entId))
    .leftJoin(walletOwner, eq(walletOwner.id, ledgerAccounts.accountId))
    .leftJoin(creator, eq(creator.id, payOrders.createdBy));
}

/** One order with its names, if `visible` lets the caller see it. */
export async function findOrderView(db: Executor, id: string, visible: SQL): Promise<PayOrderView | null> {
  const [row] = await orderQuery(db)
    .where(and(eq(payOrders.id, id), visible))
    .limit(1);
  return row ?? null;
}

/** The order row locked for the caller's change, if `visible` lets the caller see it. */
export async function lockOrder(db: Executor, id: string, visible: SQL): Promise<PayOrderRow | null> {
  const [row] = await db
    .select()
    .from(payOrders)
    .where(and(eq(payOrders.id, id), visible))
    .for('update');
  return row ?? null;
}

export interface OrderFilter {
  walletId?: string;
  purpose?: PayPurpose;
  state?: PayState;
  method?: PayMethod;
  keyword?: string;
  from?: string;
  to?: string;
}

/** A page of the visible orders, newest first, and how many match. */
export async function listOrderViews(
  db: Executor,
  visible: SQL,
  filter: OrderFilter,
  page: { page: number; size: number },
): Promise<{ total: number; rows: PayOrderView[] }> {
  const conds: (SQL | undefined)[] = [
    visible,
    filter.walletId ? eq(payOrders.walletId, filter.walletId) : undefined,
    filter.purpose ? eq(payOrders.purpose, filter.purpose) : undefined,
    filter.state ? eq(payOrders.state, filter.state) : undefined,
    filter.method ? eq(payOrders.method, filter.method) : undefined,
    filter.keyword?.trim()
      ? or(ilike(payOrders.no, contains(filter.keyword)), ilike(payOrders.title, contains(filter.keyword)))
      : undefined,
    filter.from ? gte(payOrders.createdAt, new Date(filter.from)) : undefined,
    filter.to ? lt(payOrders.createdAt, new Date(filter.to)) : undefined,
  ];
  const where = and(...conds);
  const [{ total }] = await db.select({ total: count() }).from(payOrders).where(where);
  const rows = await orderQuery(db)
    .where(where)
    .orderBy(desc(payOrders.createdAt), desc(payOrders.id))
    .limit(page.size)
    .offset((page.page - 1) * page.size);
  return { total: Number(total), rows };
}

export interface OfflineView {
  offline: OfflinePaymentRow;
  orderNo: string;
  amount: number;
  entName: string | null;
  submitterName: string | null;
  reviewerName: string | null;
}

const offlineColumns = {
  offline: offlinePayments,
  orderNo: payOrders.no,
  amount: payOrders.amount,
  entName: enterprises.name,
  submitterName: personName(submitter),
  reviewerName: personName(reviewer),
};

function offlineQuery(db: Executor) {
  return db
    .select(offlineColumns)
    .from(offlinePayments)
    .innerJoin(payOrders, eq(payOrders.id, offlinePayments.orderId))
    .leftJoin(enterprises, eq(enterprises.id, offlinePayments.entId))
    .leftJoin(submitter, eq(submitter.id, offlinePayments.submittedBy))
    .leftJoin(reviewer, eq(reviewer.id, offlinePayments.reviewedBy));
}

/** An offline transfer with its order's number and amount, if `visible` (on pay_orders) lets the caller see it. */
export async function findOfflineView(db: Executor, id: string, visible: SQL): Promise<OfflineView | null> {
  const [row] = await offlineQuery(db)
    .where(and(eq(offlinePayments.id, id), visible))
    .limit(1);
  return row ?? null;
}

/** The latest offline transfer submitted for the order. */
export async function latestOfflineView(db: Executor, orderId: string): Promise<OfflineView | null> {
  const [row] = await offlineQuery(db)
    .where(eq(offlinePayments.orderId, orderId))
    .orderBy(desc(offlinePayments.createdAt), desc(offlinePayments.id))
    .limit(1);
  return row ?? null;
}

/** A page of the visible offline transfers, newest first. */
export async function listOfflineViews(
  db: Executor,
  visible: SQL,
  filter: { state?: OfflineState; keyword?: string },
  page: { page: number; size: number },
): Promise<{ total: number; rows: OfflineView[] }> {
  const keyword = filter.keyword?.trim();
  const where = and(
    visible,
    filter.state ? eq(offlinePayments.state, filter.state) : undefined,
    keyword
      ? or(
          ilike(payOrders.no, contains(keyword)),
          ilike(offlinePayments.payerName, contains(keyword)),
          ilike(offlinePayments.transferNo, contains(keyword)),
          ilike(enterprises.name, contains(keyword)),
        )
      : undefined,
  );
  const [{ total }] = await db
    .select({ total: count() })
    .from(offlinePayments)
    .innerJoin(payOrders, eq(payOrders.id, offlinePayments.orderId))
    .leftJoin(enterprises, eq(enterprises.id, offlinePayments.entId))
    .where(where);
  const rows = await offlineQuery(db)
    .where(where)
    .orderBy(desc(offlinePayments.createdAt), desc(offlinePayments.id))
    .limit(page.size)
    .offset((page.page - 1) * page.size);
  return { total: Number(total), rows };
}

export interface VoucherRow {
  id: string;
  offlineId: string | null;
  fileKey: string;
  fileName: string;
  contentType: string;
}

/** The vouchers of offline transfers, by transfer id, in upload order. */
export async function vouchersOf(db: Executor, offlineIds: readonly string[]): Promise<Map<string, VoucherRow[]>> {
  const out = new Map<string, VoucherRow[]>();
  if (offlineIds.length === 0) return out;
  const rows = await db
    .select({
      id: payVouchers.id,
      offlineId: payVouchers.offlineId,
      fileKey: payVouchers.fileKey,
      fileName: payVouchers.fileName,
      contentType: payVouchers.contentType,
    })
    .from(payVouchers)
    .where(inArray(payVouchers.offlineId, [...offlineIds]))
    .orderBy(payVouchers.createdAt, payVouchers.id);
  for (const r of rows) {
    const list = out.get(r.offlineId as string) ?? [];
    list.push(r);
    out.set(r.offlineId as string, list);
  }
  return out;
}

/** The order's vouchers not yet named by a submission, among `ids`, locked. */
export async function freeVouchers(db: Executor, orderId: string, ids: readonly string[]): Promise<VoucherRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: payVouchers.id,
      offlineId: payVouchers.offlineId,
      fileKey: payVouchers.fileKey,
      fileName: payVouchers.fileName,
      contentType: payVouchers.contentType,
    })
    .from(payVouchers)
    .where(and(eq(payVouchers.orderId, orderId), inArray(payVouchers.id, [...ids]), isNull(payVouchers.offlineId)))
    .for('update');
}
