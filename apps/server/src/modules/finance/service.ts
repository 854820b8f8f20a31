import {
  ErrorCode,
  type ExportStatus,
  type endpoints,
  formatFen,
  type Invoice,
  type MovementFilter,
  type StatementMonth,
  type Wallet,
} from '@marquee/protocol';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { invoices, ledgerAccounts } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { statementMonth } from '../ledger/ledger.js';
import { isPlatformFinance, requireWallet, walletView, walletWhere } from '../ledger/walletScope.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';
import { MOVEMENT_EXPORT_KIND, type MovementExportSpec } from './exportSource.js';
import { causeOf, counterpartyName, toInvoice, toMovement, toWallet } from './presenter.js';
import {
  accountMonths,
  causeNumbers,
  countMovements,
  findInvoice,
  findWallet,
  listInvoices,
  listWallets,
  lockWallet,
  movementPage,
  movementPageUnfiltered,
  movementWhere,
  setThreshold,
  walletMoneyFacts,
  walletNames,
} from './repository.js';
import { FinanceText } from './texts.js';

/**
 * The finance centre (issue 26, /my/finance): reads of the ledger for the wallets the caller
 * sees (walletScope.ts), the low-balance threshold, the movement export and invoices.
 */

type In<E extends keyof typeof endpoints> = z.infer<(typeof endpoints)[E]['request']>;

/** The wallet the caller may see (default: its own) as presented, or NOT_FOUND. */
async function visibleWallet(ctx: CallContext, walletId: string | undefined) {
  const view = await walletView(ctx.db, ctx.user);
  const row = await requireWallet(ctx.db, view, walletId);
  const wallet = await findWallet(ctx.db, row.id);
  if (!wallet) throw new AppError(ErrorCode.NOT_FOUND);
  return { view, wallet };
}

/** The wallets the caller sees, its own first, then by name. */
export async function financeWallets(input: In<'financeWallets'>, ctx: CallContext) {
  const view = await walletView(ctx.db, ctx.user);
  const { total, rows } = await listWallets(
    ctx.db,
    walletWhere(view, ledgerAccounts.id),
    { kind: input.kind, keyword: input.keyword || undefined, low: input.low },
    view.ownWalletId,
    input,
  );
  return { total, data: rows.map(toWallet) };
}

/** One wallet with what can still be invoiced and the orders awaiting payment. */
export async function financeSummary(input: In<'financeSummary'>, ctx: CallContext) {
  const { wallet } = await visibleWallet(ctx, input.walletId);
  const facts = await walletMoneyFacts(ctx.db, wallet.id);
  return { wallet: toWallet(wallet), invoiceable: Math.max(0, facts.invoiceable), unpaidOrders: facts.unpaidOrders };
}

/**
 * A wallet's statement lines, newest first: one query for the page (the index
 * `(account_id, created_at desc, seq desc)`); the total from the account's months when
 * unfiltered, else a count capped at 10,000; then the page's counterparties and its payment
 * orders' numbers. Amount bounds and the direction read the posted change (`amount`): a hold
 * or its release (posted 0) is found by its kind, not by them.
 */
export async function financeMovements(input: In<'financeMovements'>, ctx: CallContext) {
  const { page, size, ...filter } = input;
  const { wallet } = await visibleWallet(ctx, filter.walletId);
  const where = movementWhere(wallet.id, filter);
  const unfiltered = Object.entries(filter).every(([key, value]) => key === 'walletId' || value === undefined);
  const { total, capped, rows } = unfiltered
    ? await movementPageUnfiltered(ctx.db, wallet.id, where, { page, size })
    : await movementPage(ctx.db, where, { page, size });
  const names = await walletNames(
    ctx.db,
    rows.map((r) => r.counterpartyId),
  );
  const orders = await causeNumbers(ctx.db, rows);
  return {
    total,
    capped,
    data: rows.map((r) =>
      toMovement(r, counterpartyName(names.get(r.counterpartyId), r.counterpartyId), causeOf(r, orders)),
    ),
  };
}

/** 'YYYY-MM' shifted by `delta` months. */
function addMonths(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number);
  const index = y * 12 + (m - 1) + delta;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The last `months` monthly statements (UTC+8 calendar), oldest first, from the months the
 * transfers keep; a month without movement carries the previous closing.
 */
export async function financeStatement(input: In<'financeStatement'>, ctx: CallContext) {
  const { wallet } = await visibleWallet(ctx, input.walletId);
  const last = statementMonth(ctx.now);
  const first = addMonths(last, -(input.months - 1));
  const { before, months } = await accountMonths(ctx.db, wallet.id, first, last);
  const byMonth = new Map(months.map((m) => [m.month, m]));
  const out: StatementMonth[] = [];
  let opening = before;
  for (let i = 0; i < input.months; i++) {
    const month = addMonths(first, i);
    const m = byMonth.get(month);
    const row = m
      ? { month, opening, credits: m.credits, debits: m.debits, closing: m.closing, movements: m.movements }
      : { month, opening, credits: 0, debits: 0, closing: opening, movements: 0 };
    out.push(row);
    opening = row.closing;
  }
  return { months: out };
}

/**
 * Sets the threshold below which the low-balance letter shows (null: never). Whoever sees the
 * wallet may set it: its enterprise's finance users, the enterprise administrator for its
 * advertisers' wallets, the advertiser for its own, and the platform operator for any (it
 * answers the enterprise's support calls).
 */
export async function financeSetLowBalance(input: In<'financeSetLowBalance'>, ctx: CallContext): Promise<Wallet> {
  const { wallet } = await visibleWallet(ctx, input.walletId);
  await setThreshold(ctx.db, wallet.id, input.threshold);
  const presented = toWallet({ ...wallet, lowBalanceThreshold: input.threshold });
  await ctx.audit({
    module: 'finance',
    action: 'setLowBalance',
    targetType: 'wallet',
    targetId: wallet.id,
    targetName: presented.name,
    detail: { before: wallet.lowBalanceThreshold, threshold: input.threshold },
  });
  return presented;
}

// ---- The movement export ----

/** Starts a background export of a wallet's movements with the list's filters. */
export async function startMovementExport(input: MovementFilter, ctx: CallContext): Promise<ExportStatus> {
  const { wallet } = await visibleWallet(ctx, input.walletId);
  const spec: MovementExportSpec = {
    walletId: wallet.id,
    filter: { ...input, walletId: wallet.id },
    until: ctx.now.toISOString(),
    language: ctx.language,
  };
  return beginExport(ctx, {
    kind: MOVEMENT_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName('wallet-movements', ctx.now),
    count: () => countMovements(ctx.db, movementWhere(wallet.id, spec.filter, ctx.now), 1_000_000),
    module: 'finance',
    detail: { walletId: wallet.id, filter: input },
  });
}

export const movementExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, MOVEMENT_EXPORT_KIND);
export const movementExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, MOVEMENT_EXPORT_KIND);

// ---- Invoices ----

/** Invoices of the wallets the caller sees, newest first. */
export async function invoiceList(input: In<'invoiceList'>, ctx: CallContext) {
  const view = await walletView(ctx.db, ctx.user);
  const { total, rows } = await listInvoices(
    ctx.db,
    walletWhere(view, sql`${invoices.walletId}`),
    { walletId: input.walletId, state: input.state, keyword: input.keyword || undefined },
    input,
  );
  return { total, data: rows.map(toInvoice) };
}

/**
 * Asks for an invoice of what the wallet paid (recharges) and has not had invoiced. The
 * wallet's row is locked first, so two requests at once cannot both take the same amount.
 */
export async function invoiceRequest(input: In<'invoiceRequest'>, ctx: CallContext): Promise<Invoice> {
  const { wallet } = await visibleWallet(ctx, input.walletId);
  await lockWallet(ctx.db, wallet.id);
  const { invoiceable } = await walletMoneyFacts(ctx.db, wallet.id);
  if (input.amount > invoiceable || !wallet.entId) {
    throw new AppError(
      ErrorCode.INVOICE_AMOUNT_EXCEEDED,
      FinanceText.invoiceExceeded(formatFen(Math.max(0, invoiceable), localeTag(ctx.language))),
    );
  }
  const [row] = await ctx.db
    .insert(invoices)
    .values({
      walletId: wallet.id,
      entId: wallet.entId,
      title: input.title,
      taxNo: input.taxNo,
      amount: input.amount,
      email: input.email,
      remark: input.remark,
      state: 'requested',
      requestedBy: ctx.user.accountId,
      createdAt: ctx.now,
    })
    .returning({ id: invoices.id });
  await ctx.audit({
    module: 'finance',
    action: 'invoiceRequest',
    targetType: 'invoice',
    targetId: row.id,
    targetName: input.title,
    detail: { walletId: wallet.id, amount: input.amount, taxNo: input.taxNo },
  });
  return toInvoice((await findInvoice(ctx.db, row.id)) as NonNullable<Awaited<ReturnType<typeof findInvoice>>>);
}

const localeTag = (language: string) => (language === 'en-US' || language === 'ja' ? language : 'zh-CN');

/** Issues (with its number) or refuses (with a reason) a requested invoice: the platform operator. */
async function decideInvoice(
  ctx: CallContext,
  id: string,
  decision: { state: 'issued'; invoiceNo: string } | { state: 'refused'; reason: string },
): Promise<Invoice> {
  if (!isPlatformFinance(ctx.user)) throw new AppError(ErrorCode.NOT_FOUND, FinanceText.invoiceNotFound);
  const [claimed] = await ctx.db
    .update(invoices)
    .set({
      state: decision.state,
      ...(decision.state === 'issued' ? { invoiceNo: decision.invoiceNo } : { reason: decision.reason }),
      reviewedBy: ctx.user.accountId,
      reviewedAt: ctx.now,
    })
    .where(and(eq(invoices.id, id), eq(invoices.state, 'requested')) as SQL)
    .returning({ id: invoices.id, title: invoices.title, amount: invoices.amount, walletId: invoices.walletId });
  if (!claimed) {
    const existing = await findInvoice(ctx.db, id);
    if (!existing) throw new AppError(ErrorCode.NOT_FOUND, FinanceText.invoiceNotFound);
    throw new AppError(ErrorCode.CONFLICT, FinanceText.invoiceDecided);
  }
  await ctx.audit({
    module: 'finance',
    action: decision.state === 'issued' ? 'invoiceIssue' : 'invoiceRefuse',
    targetType: 'invoice',
    targetId: claimed.id,
    targetName: claimed.title,
    detail: { walletId: claimed.walletId, amount: Number(claimed.amount), ...decision },
  });
  return toInvoice((await findInvoice(ctx.db, claimed.id)) as NonNullable<Awaited<ReturnType<typeof findInvoice>>>);
}

export const invoiceIssue = (input: In<'invoiceIssue'>, ctx: CallContext) =>
  decideInvoice(ctx, input.id, { state: 'issued', invoiceNo: input.invoiceNo });
export const invoiceRefuse = (input: In<'invoiceRefuse'>, ctx: CallContext) =>
  decideInvoice(ctx, input.id, { state: 'refused', reason: input.reason });
