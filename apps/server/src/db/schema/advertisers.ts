import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt } from './columns.js';
import { enterprises } from './tenancy.js';

/**
 * Accounts of an operator enterprise that are advertisers (/user/adv). The account row keeps
 * login, name, phone and status; this row marks it as an advertiser of the enterprise.
 */
export const advertisers = pgTable(
  'advertisers',
  {
    accountId: text('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    /** The advertiser's industry: a code of the dictionary `industry` (issue 31, migration 0071); null: not given. */
    industry: text('industry'),
  },
  (t) => [
    index('advertisers_ent_created_idx').on(t.entId, t.createdAt),
    index('advertisers_ent_industry_idx').on(t.entId, t.industry),
  ],
);

/** Which operators and staff of the enterprise look after which advertisers (/user/allot). */
export const advertiserAssignments = pgTable(
  'advertiser_assignments',
  {
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    advertiserAccountId: text('advertiser_account_id')
      .notNull()
      .references(() => advertisers.accountId, { onDelete: 'cascade' }),
    staffAccountId: text('staff_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.entId, t.advertiserAccountId, t.staffAccountId] }),
    index('advertiser_assignments_ent_staff_idx').on(t.entId, t.staffAccountId),
  ],
);
