import type { LedgerAccountKind, MovementFilter, PlatformAccount } from '@marquee/protocol';
import { type AnyColumn, and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  enterprises,
  invoices,
  ledgerAccounts,
  ledgerEntries,
  payOrders,
  rtbCampaigns,
  rtbDsps,
  salesOrders,
} from '../../db/schema/index.js';

/**
 * The finance centre's reads (issue 26): wallets with their owners' names, one wallet's
 * statement lines, monthly sums, what a wallet may still have invoiced, and invoices.
 */

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (value: string) => `%${escapeLike(value.trim())}%`;

/** The total of a movement list is counted up to this (the page costs the same at 10,000,000). */
export const MOVEMENT_TOTAL_CAP = 10_000;

export interface WalletRow {
  id: string;
  kind: LedgerAccountKind;
  platformKey: PlatformAccount | null;
  entId: string | null;
  entName: string | null;
  accountId: string | null;
  ownerName: string | null;
  balance: number;
  frozen: number;
  lowBalanceThreshold: number | null;
}

const owner = alias(accounts, 'wallet_owner');

/** A wallet's name: its enterprise's, its advertiser's real (else login) name, or a platform account's key. */
const walletName = sql<string>`case ${ledgerAccounts.kind}
  when 'platform' then ${ledgerAccounts.platformKey}
  when 'enterprise' then ${enterprises.name}
  else coalesce(nullif(${owner.realName}, ''), ${owner.loginName}) end`;
const available = sql`(${ledgerAccounts.creditsPosted} - ${ledgerAccounts.debitsPosted} - ${ledgerAccounts.debitsPending})`;

function walletSelect(db: Executor) {
  return db
    .select({
      id: ledgerAccounts.id,
      kind: ledgerAccounts.kind,
      platformKey: ledgerAccounts.platformKey,
      entId: ledgerAccounts.entId,
      entName: enterprises.name,
      accountId: ledgerAccounts.accountId,
      ownerName: walletName,
      creditsPosted: ledgerAccounts.creditsPosted,
      debitsPosted: ledgerAccounts.debitsPosted,
      debitsPending: ledgerAccounts.debitsPending,
      lowBalanceThreshold: ledgerAccounts.lowBalanceThreshold,
    })
    .from(ledgerAccounts)
    .leftJoin(enterprises, eq(enterprises.id, ledgerAccounts.entId))
    .leftJoin(owner, eq(owner.id, ledgerAccounts.accountId));
}

type SelectedWallet = Awaited<ReturnType<ReturnType<typeof walletSelect>['execute']>>[number];

function toWalletRow(r: SelectedWallet): WalletRow {
  return {
    id: r.id,
    kind: r.kind,
    platformKey: (r.platformKey as PlatformAccount | null) ?? null,
    entId: r.entId,
    entName: r.entName,
    accountId: r.accountId,
    ownerName: r.ownerName,
    balance: Number(r.creditsPosted) - Number(r.debitsPosted),
    frozen: Number(r.debitsPending),
    lowBalanceThreshold: r.lowBalanceThreshold == null ? null : Number(r.lowBalanceThreshold),
  };
}

export interface WalletFilter {
  kind?: LedgerAccountKind;
  keyword?: string;
  low?: boolean;
}

/** Wallets matching `scope` and the filter: `ownId` first, then by name. */
export async function listWallets(
  db: Executor,
  scope: SQL,
  filter: WalletFilter,
  ownId: string,
  page: { page: number; size: number },
): Promise<{ total: number; rows: WalletRow[] }> {
  const where = and(
    scope,
    filter.kind ? eq(ledgerAccounts.kind, filter.kind) : undefined,
    filter.keyword ? sql`${walletName} ilike ${contains(filter.keyword)}` : undefined,
    filter.low === undefined
      ? undefined
      : filter.low
        ? sql`${ledgerAccounts.lowBalanceThreshold} is not null and ${available} < ${ledgerAccounts.lowBalanceThreshold}`
        : sql`(${ledgerAccounts.lowBalanceThreshold} is null or ${available} >= ${ledgerAccounts.lowBalanceThreshold})`,
  );
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(ledgerAccounts)
    .leftJoin(enterprises, eq(enterprises.id, ledgerAccounts.entId))
    .leftJoin(owner, eq(owner.id, ledgerAccounts.accountId))
    .where(where);
  const rows = await walletSelect(db)
    .where(where)
    .orderBy(sql`(${ledgerAccounts.id} = ${ownId}) desc`, walletName, ledgerAccounts.id)
    .limit(page.size)
    .offset((page.page - 1) * page.size);
  return { total: Number(n), rows: rows.map(toWalletRow) };
}

export async function findWallet(db: Executor, id: string): Promise<WalletRow | null> {
  const [row] = await walletSelect(db).where(eq(ledgerAccounts.id, id)).limit(1);
  return row ? toWalletRow(row) : null;
}

/** The display names of accounts (a movement's counterparties). */
export async function walletNames(db: Executor, ids: readonly string[]): Promise<Map<string, WalletRow>> {
  if (ids.length === 0) return new Map();
  const rows = await walletSelect(db).where(inArray(ledgerAccounts.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, toWalletRow(r)]));
}

/** Paid recharges minus invoices requested or issued, and the count of orders awaiting payment. */
export async function walletMoneyFacts(
  db: Executor,
  walletId: string,
): Promise<{ invoiceable: number; unpaidOrders: number }> {
  const [paid] = await db
    .select({
      recharged: sql<string>`coalesce(sum(${payOrders.amount}) filter (where ${payOrders.purpose} = 'recharge' and ${payOrders.state} = 'paid'), 0)`,
      unpaid: sql<string>`count(*) filter (where ${payOrders.state} in ('unpaid', 'review'))`,
    })
    .from(payOrders)
    .where(eq(payOrders.walletId, walletId));
  const [invoiced] = await db
    .select({ total: sql<string>`coalesce(sum(${invoices.amount}), 0)` })
    .from(invoices)
    .where(and(eq(invoices.walletId, walletId), inArray(invoices.state, ['requested', 'issued'])));
  return {
    invoiceable: Number(paid?.recharged ?? 0) - Number(invoiced?.total ?? 0),
    unpaidOrders: Number(paid?.unpaid ?? 0),
  };
}

/** Locks a wallet's account row (an invoice request's check holds under concurrency). */
export async function lockWallet(db: Executor, walletId: string): Promise<void> {
  await db.execute(sql`select id from ledger_accounts where id = ${walletId} for update`);
}

export async function setThreshold(db: Executor, walletId: string, threshold: number | null): Promise<void> {
  await db.update(ledgerAccounts).set({ lowBalanceThreshold: threshold }).where(eq(ledgerAccounts.id, walletId));
}

/** The condition of a wallet's movement list (the index `(account_id, created_at desc, seq desc)` serves it). */
export function movementWhere(walletId: string, filter: MovementFilter, until?: Date): SQL {
  const e = ledgerEntries;
  return and(
    eq(e.accountId, walletId),
    filter.code ? eq(e.code, filter.code) : undefined,
    filter.from ? sql`${e.createdAt} >= ${new Date(filter.from).toISOString()}::timestamptz` : undefined,
    filter.to ? sql`${e.createdAt} < ${new Date(filter.to).toISOString()}::timestamptz` : undefined,
    until ? sql`${e.createdAt} <= ${until.toISOString()}::timestamptz` : undefined,
    filter.minAmount !== undefined ? sql`abs(${e.amount}) >= ${filter.minAmount}` : undefined,
    filter.maxAmount !== undefined ? sql`abs(${e.amount}) <= ${filter.maxAmount}` : undefined,
    filter.direction === 'in' ? sql`${e.amount} > 0` : filter.direction === 'out' ? sql`${e.amount} < 0` : undefined,
  ) as SQL;
}

const newestFirst = [sql`${ledgerEntries.createdAt} desc nulls last`, sql`${ledgerEntries.seq} desc nulls last`];

export type EntryRow = typeof ledgerEntries.$inferSelect;

/** One page of a wallet's lines, newest first, and the total counted up to MOVEMENT_TOTAL_CAP. */
export async function movementPage(
  db: Executor,
  where: SQL,
  page: { page: number; size: number },
): Promise<{ total: number; capped: boolean; rows: EntryRow[] }> {
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(where)
    .orderBy(...newestFirst)
    .limit(page.size)
    .offset((page.page - 1) * page.size);
  const n = await countMovements(db, where, MOVEMENT_TOTAL_CAP + 1);
  return { total: Math.min(n, MOVEMENT_TOTAL_CAP), capped: n > MOVEMENT_TOTAL_CAP, rows };
}

/**
 * An unfiltered list's total without touching its lines: each line adds one to its month's
 * `movements` (ledger_account_months), so the account's months sum to its line count.
 */
export async function movementCountOf(db: Executor, accountId: string): Promise<number> {
  const counted = await db.execute(
    sql`select coalesce(sum(movements), 0)::bigint as n from ledger_account_months where account_id = ${accountId}`,
  );
  return Number((counted as unknown as { rows: { n: number | string }[] }).rows[0]?.n ?? 0);
}

/** One page of a wallet's unfiltered lines, its total from the months (no count over the lines). */
export async function movementPageUnfiltered(
  db: Executor,
  accountId: string,
  where: SQL,
  page: { page: number; size: number },
): Promise<{ total: number; capped: boolean; rows: EntryRow[] }> {
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(where)
    .orderBy(...newestFirst)
    .limit(page.size)
    .offset((page.page - 1) * page.size);
  const n = await movementCountOf(db, accountId);
  return { total: Math.min(n, MOVEMENT_TOTAL_CAP), capped: n > MOVEMENT_TOTAL_CAP, rows };
}

/** Counts a wallet's lines up to `cap`. */
export async function countMovements(db: Executor, where: SQL, cap: number): Promise<number> {
  const counted = await db.execute(
    sql`select count(*)::int as n from (select 1 from ${ledgerEntries} where ${where} limit ${cap}) t`,
  );
  return Number((counted as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

/** The next batch of lines after `after` (newest first, keyset): what the export walks. */
export async function nextMovementBatch(
  db: Executor,
  where: SQL,
  after: { createdAt: Date; seq: number } | null,
  limit: number,
): Promise<EntryRow[]> {
  const keyset = after
    ? sql`(${ledgerEntries.createdAt}, ${ledgerEntries.seq}) < (${after.createdAt.toISOString()}::timestamptz, ${after.seq}::bigint)`
    : undefined;
  return db
    .select()
    .from(ledgerEntries)
    .where(keyset ? and(where, keyset) : where)
    .orderBy(...newestFirst)
    .limit(limit);
}

/** The order numbers of payment orders (a movement's cause label). */
export async function payOrderNumbers(db: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: payOrders.id, no: payOrders.no })
    .from(payOrders)
    .where(inArray(payOrders.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.no]));
}

/**
 * The numbers a movement's cause shows, by cause id: payment orders' and airtime orders'
 * (issue 28, cause type 'salesOrder'), RTB campaigns' and DSPs' names (issue 29); other causes
 * show their id.
 */
export async function causeNumbers(
  db: Executor,
  rows: readonly { causeType: string; causeId: string }[],
): Promise<Map<string, string>> {
  const ids = (type: string) => [...new Set(rows.filter((r) => r.causeType === type).map((r) => r.causeId))];
  const sales = ids('salesOrder');
  const [pay, sold] = await Promise.all([
    payOrderNumbers(db, ids('payOrder')),
    sales.length > 0
      ? db.select({ id: salesOrders.id, no: salesOrders.no }).from(salesOrders).where(inArray(salesOrders.id, sales))
      : Promise.resolve([]),
  ]);
  for (const r of sold) pay.set(r.id, r.no);
  // RTB campaigns and DSPs (issue 29) are named by their names.
  const campaigns = ids('rtbCampaign');
  const dsps = ids('rtbDsp');
  const named = await Promise.all([
    campaigns.length > 0
      ? db
          .select({ id: rtbCampaigns.id, name: rtbCampaigns.name })
          .from(rtbCampaigns)
          .where(inArray(rtbCampaigns.id, campaigns))
      : Promise.resolve([]),
    dsps.length > 0
      ? db.select({ id: rtbDsps.id, name: rtbDsps.name }).from(rtbDsps).where(inArray(rtbDsps.id, dsps))
      : Promise.resolve([]),
  ]);
  for (const r of named.flat()) pay.set(r.id, r.name);
  return pay;
}

export interface MonthRow {
  month: string;
  credits: number;
  debits: number;
  closing: number;
  movements: number;
}

/** The account's months from `first` to `last` ('YYYY-MM'), and the closing balance before `first`. */
export async function accountMonths(
  db: Executor,
  accountId: string,
  first: string,
  last: string,
): Promise<{ before: number; months: MonthRow[] }> {
  const rows = (
    (await db.execute(sql`
      select month, credits, debits, closing, movements from ledger_account_months
      where account_id = ${accountId} and month >= ${first} and month <= ${last}
      order by month`)) as unknown as { rows: Record<string, unknown>[] }
  ).rows;
  const prior = (
    (await db.execute(sql`
      select closing from ledger_account_months
      where account_id = ${accountId} and month < ${first}
      order by month desc limit 1`)) as unknown as { rows: Record<string, unknown>[] }
  ).rows;
  return {
    before: prior[0] ? Number(prior[0].closing) : 0,
    months: rows.map((r) => ({
      month: String(r.month),
      credits: Number(r.credits),
      debits: Number(r.debits),
      closing: Number(r.closing),
      movements: Number(r.movements),
    })),
  };
}

// ---- Invoices ----

const requester = alias(accounts, 'invoice_requester');
const reviewer = alias(accounts, 'invoice_reviewer');
const personName = (a: { realName: AnyColumn; loginName: AnyColumn }) =>
  sql<string>`coalesce(nullif(${a.realName}, ''), ${a.loginName})`;

function invoiceSelect(db: Executor) {
  return db
    .select({
      invoice: invoices,
      entName: enterprises.name,
      requestedByName: personName(requester),
      reviewedByName: personName(reviewer),
    })
    .from(invoices)
    .leftJoin(enterprises, eq(enterprises.id, invoices.entId))
    .leftJoin(requester, eq(requester.id, invoices.requestedBy))
    .leftJoin(reviewer, eq(reviewer.id, invoices.reviewedBy));
}

export type InvoiceListRow = Awaited<ReturnType<ReturnType<typeof invoiceSelect>['execute']>>[number];

export interface InvoiceFilter {
  walletId?: string;
  state?: 'requested' | 'issued' | 'refused';
  keyword?: string;
}

export async function listInvoices(
  db: Executor,
  scope: SQL,
  filter: InvoiceFilter,
  page: { page: number; size: number },
): Promise<{ total: number; rows: InvoiceListRow[] }> {
  const where = and(
    scope,
    filter.walletId ? eq(invoices.walletId, filter.walletId) : undefined,
    filter.state ? eq(invoices.state, filter.state) : undefined,
    filter.keyword
      ? sql`(${invoices.title} ilike ${contains(filter.keyword)} or ${invoices.taxNo} ilike ${contains(filter.keyword)}
          or ${invoices.invoiceNo} ilike ${contains(filter.keyword)}
          or exists (select 1 from ${enterprises} where ${enterprises.id} = ${invoices.entId}
                     and ${enterprises.name} ilike ${contains(filter.keyword)}))`
      : undefined,
  );
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(invoices).where(where);
  const rows = await invoiceSelect(db)
    .where(where)
    .orderBy(sql`${invoices.createdAt} desc nulls last`, invoices.id)
    .limit(page.size)
    .offset((page.page - 1) * page.size);
  return { total: Number(n), rows };
}

export async function findInvoice(db: Executor, id: string): Promise<InvoiceListRow | null> {
  const [row] = await invoiceSelect(db).where(eq(invoices.id, id)).limit(1);
  return row ?? null;
}
