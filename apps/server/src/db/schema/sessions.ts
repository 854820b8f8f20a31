import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id } from './columns.js';
import { enterprises } from './tenancy.js';

/** Why a session ended: the user logged out, an administrator paused the account or ended it. */
export type SessionEndReason = 'logout' | 'paused' | 'kicked';

/** Console sessions. Only the sha256 of the token is stored, never the token. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedReason: text('ended_reason').$type<SessionEndReason>(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The browser's stored device id (the call's `uuid`). */
    deviceUuid: text('device_uuid'),
    /**
     * The enterprise the session acts for ('change enterprise': an agent's account for one of
     * its customers); null for the account's own enterprise (`ent_id`).
     */
    actingEntId: text('acting_ent_id').references(() => enterprises.id),
  },
  (t) => [
    check('sessions_ended_reason_check', sql`${t.endedReason} in ('logout', 'paused', 'kicked')`),
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_ent_account_idx').on(t.entId, t.accountId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);
