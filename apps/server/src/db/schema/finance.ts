import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.js';
import { ledgerAccounts } from './ledger.js';

/** Invoices a wallet's owner asks for and the platform operator issues or refuses (issue 26). */
export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    walletId: text('wallet_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    entId: text('ent_id').notNull(),
    title: text('title').notNull(),
    taxNo: text('tax_no').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    email: text('email').notNull().default(''),
    remark: text('remark').notNull().default(''),
    state: text('state').$type<'requested' | 'issued' | 'refused'>().notNull(),
    invoiceNo: text('invoice_no').notNull().default(''),
    reason: text('reason').notNull().default(''),
    requestedBy: text('requested_by').notNull(),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('invoices_amount_check', sql`${t.amount} > 0`),
    check('invoices_state_check', sql`${t.state} in ('requested', 'issued', 'refused')`),
    index('invoices_wallet_created_idx').on(t.walletId, t.createdAt.desc()),
    index('invoices_state_created_idx').on(t.state, t.createdAt.desc()),
  ],
);
export type InvoiceRow = typeof invoices.$inferSelect;
