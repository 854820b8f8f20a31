import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * State every instance of the server shares through the database (docs/operations.md): the
 * replay guard's seen calls and the login and code-send throttle's counted attempts. Both
 * hold only what a time window needs and are pruned by scheduled jobs (src/jobs). Times
 * are epoch milliseconds of the server clock that wrote them.
 */

/** One row per accepted call (`appid \n uuid \n sequence`), kept until its timestamp leaves the window. */
export const replayKeys = pgTable('replay_keys', {
  key: text('key').primaryKey(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
});

/**
 * The stored answer of a mutation (docs/protocol.md "Retries"), keyed like the replay guard:
 * SHA-256 of `appid \n uuid \n sequence`. The row is claimed first thing in the mutation's
 * transaction and given its answer last thing in it, so a committed mutation always has its
 * answer and a rolled-back one leaves nothing. A logged table (unlike `replay_keys`): the
 * answer must survive whatever the mutation survives. Pruned by `prune-idempotent-calls`.
 */
export const idempotentCalls = pgTable('idempotent_calls', {
  key: text('key').primaryKey(),
  /** HMAC (server secret) of identity, token, endpoint and payload: a retry must match it. */
  requestHash: text('request_hash').notNull(),
  /** The answer's code; null only inside the claiming transaction. */
  code: integer('code'),
  /** The answer's envelope, AES-256-GCM under a key derived from the request (base64). */
  answer: text('answer'),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
});

/** One row per counted attempt: a failed login or code check, or a code sent. */
export const throttleEvents = pgTable(
  'throttle_events',
  {
    /** What is counted and by what: login-name, login-ip, send-target, send-ip. */
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    at: bigint('at', { mode: 'number' }).notNull(),
  },
  (t) => [index('throttle_events_lookup').on(t.bucket, t.key, t.at), index('throttle_events_at').on(t.at)],
);
