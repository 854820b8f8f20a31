import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { devices } from './devices.js';

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

/**
 * The running server instances (several on one PostgreSQL, docs/operations.md): each one
 * registers at start, touches `seen_at` (the database's clock) every few seconds and
 * removes its row when it stops. `broker_urls`: where devices reach its embedded broker
 * directly (empty with an external broker); a device's credentials name every live
 * instance's, so it can fail over. A row not seen for a while is a dead instance: the
 * others resolve the presence of the devices it held (modules/devices/instances.ts).
 */
export const serverInstances = pgTable('server_instances', {
  id: text('id').primaryKey(),
  brokerUrls: jsonb('broker_urls').$type<string[]>().notNull().default([]),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The connection of a device to an instance's embedded broker: which instance saw it come
 * online, and the connection's session (the `ts` of its online state, devices.state_ts).
 * Written with the device's presence; when that instance stops or dies, the devices whose
 * row still names it and whose state is still that session go offline at once.
 */
export const deviceConnections = pgTable(
  'device_connections',
  {
    deviceId: text('device_id')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    instanceId: text('instance_id').notNull(),
    session: bigint('session', { mode: 'number' }).notNull(),
  },
  (t) => [index('device_connections_instance_idx').on(t.instanceId)],
);
