import type { MessagePurpose } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id } from './columns.js';
import { enterprises } from './tenancy.js';

export type CodeChannel = 'sms' | 'email';
export type VerificationPurpose = 'login' | 'register' | 'reset_password' | 'bind_phone';

/**
 * Verification codes (issue 3 "every way in"). Only an HMAC of the code is stored; a code is
 * valid for 5 minutes, verifies once (`consumed_at`), and is burned after 5 wrong attempts.
 * `account_id` ties a bind-phone code to the account that asked for it.
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    purpose: text('purpose').$type<VerificationPurpose>().notNull(),
    channel: text('channel').$type<CodeChannel>().notNull(),
    /** Normalised mobile number or lower-case e-mail address. */
    target: text('target').notNull(),
    accountId: text('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Used, burned after too many attempts, or replaced by a newer code. */
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    ip: text('ip'),
  },
  (t) => [
    check(
      'verification_codes_purpose_check',
      sql`${t.purpose} in ('login', 'register', 'reset_password', 'bind_phone')`,
    ),
    check('verification_codes_channel_check', sql`${t.channel} in ('sms', 'email')`),
    index('verification_codes_target_idx').on(t.purpose, t.target, t.createdAt),
  ],
);

/**
 * Development outbox: what the default sender "sent" (spec: works with no SMS or mail
 * provider). The platform operator reads it at /dev/outbox.
 */
export const devOutbox = pgTable(
  'dev_outbox',
  {
    id: id(),
    channel: text('channel').$type<CodeChannel>().notNull(),
    target: text('target').notNull(),
    purpose: text('purpose').$type<MessagePurpose>().notNull(),
    code: text('code').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('dev_outbox_created_idx').on(t.createdAt), index('dev_outbox_target_idx').on(t.target, t.createdAt)],
);

export type OAuthProviderName = 'wechat' | 'dingtalk';
export type OAuthPurpose = 'login' | 'bind';
export type OAuthStateStatus = 'pending' | 'ready' | 'unbound' | 'scanned' | 'conflict' | 'failed' | 'used';

/**
 * OAuth2 states of scan login and binding: the sha256 of the random state is stored, the
 * state sent to the provider is signed; a state completes once (`used`).
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    id: id(),
    stateHash: text('state_hash').notNull(),
    provider: text('provider').$type<OAuthProviderName>().notNull(),
    purpose: text('purpose').$type<OAuthPurpose>().notNull(),
    status: text('status').$type<OAuthStateStatus>().notNull().default('pending'),
    /** For a bind: who asked; for a login: the bound account found at the callback. */
    entId: text('ent_id').references(() => enterprises.id),
    accountId: text('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    providerUserId: text('provider_user_id'),
    nickname: text('nickname'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    ip: text('ip'),
  },
  (t) => [
    check('oauth_states_provider_check', sql`${t.provider} in ('wechat', 'dingtalk')`),
    check('oauth_states_purpose_check', sql`${t.purpose} in ('login', 'bind')`),
    check(
      'oauth_states_status_check',
      sql`${t.status} in ('pending', 'ready', 'unbound', 'scanned', 'conflict', 'failed', 'used')`,
    ),
    uniqueIndex('oauth_states_state_hash_key').on(t.stateHash),
    index('oauth_states_expires_idx').on(t.expiresAt),
  ],
);

/** A WeChat or DingTalk identity bound to an account: one per provider per account, one account per identity. */
export const oauthBindings = pgTable(
  'oauth_bindings',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<OAuthProviderName>().notNull(),
    providerUserId: text('provider_user_id').notNull(),
    nickname: text('nickname').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    check('oauth_bindings_provider_check', sql`${t.provider} in ('wechat', 'dingtalk')`),
    uniqueIndex('oauth_bindings_identity_key').on(t.provider, t.providerUserId),
    uniqueIndex('oauth_bindings_account_key').on(t.accountId, t.provider),
    index('oauth_bindings_ent_account_idx').on(t.entId, t.accountId),
  ],
);
