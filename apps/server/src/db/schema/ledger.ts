import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt } from './columns.js';
import { enterprises } from './tenancy.js';

/**
 * The one double-entry ledger (issue 26; docs/ARCHITECTURE.md "The ledger"). Every amount is
 * fen in a bigint. An account keeps TigerBeetle's four counters; its balance is
 * credits_posted - debits_posted, its frozen amount debits_pending, its available amount the
 * balance minus the frozen. A transfer adds its amount to one account's debits and another's
 * credits, so the balances of all accounts always sum to zero. `no_overdraft` is TigerBeetle's
 * debits_must_not_exceed_credits, enforced by the conditional UPDATE that moves the money and,
 * as a backstop, by a CHECK constraint.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: text('id').primaryKey(),
    /** 'enterprise' | 'advertiser' wallets, or 'platform' accounts. */
    kind: text('kind').$type<'enterprise' | 'advertiser' | 'platform'>().notNull(),
    /** A platform account's key (PLATFORM_ACCOUNTS), unique. */
    platformKey: text('platform_key'),
    /** The wallet's enterprise (an advertiser's wallet: the enterprise the advertiser belongs to). */
    entId: text('ent_id').references(() => enterprises.id),
    /** An advertiser's wallet: the advertiser's account. */
    accountId: text('account_id').references(() => accounts.id),
    noOverdraft: boolean('no_overdraft').notNull(),
    debitsPending: bigint('debits_pending', { mode: 'number' }).notNull().default(0),
    debitsPosted: bigint('debits_posted', { mode: 'number' }).notNull().default(0),
    creditsPending: bigint('credits_pending', { mode: 'number' }).notNull().default(0),
    creditsPosted: bigint('credits_posted', { mode: 'number' }).notNull().default(0),
    /** Below this available balance the low-balance letter shows (null: never). */
    lowBalanceThreshold: bigint('low_balance_threshold', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('ledger_accounts_kind_check', sql`${t.kind} in ('enterprise', 'advertiser', 'platform')`),
    check(
      'ledger_accounts_counters_check',
      sql`${t.debitsPending} >= 0 and ${t.debitsPosted} >= 0 and ${t.creditsPending} >= 0 and ${t.creditsPosted} >= 0`,
    ),
    check(
      'ledger_accounts_no_overdraft_check',
      sql`not ${t.noOverdraft} or ${t.debitsPosted} + ${t.debitsPending} <= ${t.creditsPosted}`,
    ),
    uniqueIndex('ledger_accounts_platform_key').on(t.platformKey),
    uniqueIndex('ledger_accounts_enterprise_key').on(t.entId).where(sql`${t.kind} = 'enterprise'`),
    uniqueIndex('ledger_accounts_advertiser_key').on(t.accountId).where(sql`${t.kind} = 'advertiser'`),
  ],
);
export type LedgerAccountRow = typeof ledgerAccounts.$inferSelect;

/** single: moves at once; pending: holds; post / void: settle a pending one; expire: the job's void at its timeout. */
export type TransferPhase = 'single' | 'pending' | 'post' | 'void' | 'expire';
export type PendingState = 'pending' | 'posted' | 'voided' | 'expired';

/**
 * Transfers: never updated or deleted, except a pending transfer's `state` (pending -> posted,
 * voided or expired), which is how a post or void claims it exactly once.
 */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    /** Chosen by the caller (idempotent: the same id twice moves money once). */
    id: text('id').primaryKey(),
    debitAccountId: text('debit_account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    creditAccountId: text('credit_account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    phase: text('phase').$type<TransferPhase>().notNull(),
    /** A post, void or expire: the pending transfer it settles. */
    pendingId: text('pending_id'),
    /** A pending transfer's state. */
    state: text('state').$type<PendingState>(),
    timeoutAt: timestamp('timeout_at', { withTimezone: true }),
    /** What moved the money (MOVEMENT_CODES). */
    code: text('code').notNull(),
    causeType: text('cause_type').notNull(),
    causeId: text('cause_id').notNull(),
    note: text('note').notNull().default(''),
    actorId: text('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('ledger_transfers_amount_check', sql`${t.amount} > 0`),
    check('ledger_transfers_accounts_check', sql`${t.debitAccountId} <> ${t.creditAccountId}`),
    check('ledger_transfers_phase_check', sql`${t.phase} in ('single', 'pending', 'post', 'void', 'expire')`),
    index('ledger_transfers_cause_idx').on(t.causeType, t.causeId),
    index('ledger_transfers_timeout_idx')
      .on(t.timeoutAt)
      .where(sql`${t.state} = 'pending' and ${t.timeoutAt} is not null`),
    uniqueIndex('ledger_transfers_settles_key').on(t.pendingId).where(sql`${t.pendingId} is not null`),
  ],
);
export type LedgerTransferRow = typeof ledgerTransfers.$inferSelect;

/**
 * A bank statement per account: one line per transfer that touched it, with the balance and
 * frozen amount after it (running, in the order the account's row lock serialised them).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    accountId: text('account_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull().default(sql`nextval('ledger_entry_seq')`),
    transferId: text('transfer_id').notNull(),
    counterpartyId: text('counterparty_id').notNull(),
    /** Signed change of the posted balance. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /**
     * Signed change of the pending counter of this side: on a debit line the frozen amount
     * (debits_pending), on a credit line the money coming in on hold (credits_pending).
     */
    pendingChange: bigint('pending_change', { mode: 'number' }).notNull(),
    /** The account's posted balance and frozen amount (debits_pending) after this line. */
    balance: bigint('balance', { mode: 'number' }).notNull(),
    frozen: bigint('frozen', { mode: 'number' }).notNull(),
    code: text('code').notNull(),
    causeType: text('cause_type').notNull(),
    causeId: text('cause_id').notNull(),
    note: text('note').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.seq] }),
    index('ledger_entries_account_time_idx').on(t.accountId, t.createdAt.desc(), t.seq.desc()),
  ],
);
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;

/** Per account and month (UTC+8, 'YYYY-MM'): the sums of the statement, kept by each transfer. */
export const ledgerAccountMonths = pgTable(
  'ledger_account_months',
  {
    accountId: text('account_id').notNull(),
    month: text('month').notNull(),
    credits: bigint('credits', { mode: 'number' }).notNull(),
    debits: bigint('debits', { mode: 'number' }).notNull(),
    /** The posted balance after the month's last movement. */
    closing: bigint('closing', { mode: 'number' }).notNull(),
    movements: bigint('movements', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);
