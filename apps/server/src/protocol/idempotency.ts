import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { ErrorCode, TIMESTAMP_WINDOW_MS } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { AppError } from './appError.js';
import type { CallFields } from './envelope.js';

/**
 * Idempotent retries of mutations (docs/protocol.md "Retries", issue 25). A mutation's
 * (appid, uuid, sequence) names its answer for as long as the replay window lasts: the call
 * claims the row of `idempotent_calls` first thing in its transaction and writes its answer
 * last thing in it, so a committed mutation always has its answer and a rolled-back one has
 * none. A retry of the same request (same token, endpoint and payload) answers the stored
 * envelope without running the handler; another request under the same sequence answers
 * SEQUENCE_REUSED. A retry arriving while the first call runs waits on the first call's row
 * (PostgreSQL's unique index; PGlite runs one transaction at a time) and then reads its
 * answer, or runs itself when the first rolled back.
 *
 * What the table holds is as secret as the request: the request hash is an HMAC under the
 * server secret, and the answer (a login's token, say) is encrypted under a key derived from
 * identity, token and payload, which the database does not hold.
 */
export interface CallIdentity {
  /** SHA-256 (hex) of `appid \n uuid \n sequence`, the replay guard's key. */
  key: string;
  requestHash: string;
  answerKey: Buffer;
  /** Until when the answer is kept: the call's window, from its timestamp or arrival, the later. */
  expiresAt: number;
}

export function callIdentity(
  secret: string,
  fields: CallFields,
  payload: string,
  endpoint: string,
  now: number,
): CallIdentity {
  const identity = `${fields.appid}\n${fields.uuid}\n${fields.sequence}`;
  const request = `${identity}\n${fields.token}\n${endpoint}\n${payload}`;
  return {
    key: createHash('sha256').update(identity).digest('hex'),
    requestHash: createHmac('sha256', secret).update(`idempotent-request\n${request}`).digest('hex'),
    answerKey: createHmac('sha256', secret).update(`idempotent-answer\n${request}`).digest(),
    expiresAt: Math.max(Number(fields.timestamp), now) + TIMESTAMP_WINDOW_MS,
  };
}

/** A stored answer: the envelope exactly as the first call sent it. */
export interface StoredAnswer {
  stored: true;
  code: number;
  envelope: string;
}

export function isStoredAnswer(value: unknown): value is StoredAnswer {
  return !!value && typeof value === 'object' && (value as Partial<StoredAnswer>).stored === true;
}

interface Row {
  request_hash: string;
  code: number | null;
  answer: string | null;
}

function encrypt(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
}

function decrypt(key: Buffer, stored: string): string {
  const bytes = Buffer.from(stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

/** The stored answer of a row, or SEQUENCE_REUSED when the row is another request's. */
function answerOf(call: CallIdentity, row: Row): StoredAnswer {
  if (row.request_hash !== call.requestHash) throw new AppError(ErrorCode.SEQUENCE_REUSED);
  // A committed row always has its answer (claimed and answered in one transaction).
  if (row.code === null || row.answer === null) throw new Error('idempotent call committed without its answer');
  return { stored: true, code: row.code, envelope: decrypt(call.answerKey, row.answer) };
}

/**
 * The answer a committed earlier call left, if any (outside a transaction: before a
 * handler's `prepare`, whose checks may no longer hold once the first call committed).
 */
export async function findAnswer(db: Executor, call: CallIdentity, now: number): Promise<StoredAnswer | null> {
  const found = (await db.execute(sql`
    select request_hash, code, answer from idempotent_calls
    where key = ${call.key} and expires_at >= ${now}`)) as unknown as { rows: Row[] };
  const row = found.rows[0];
  return row ? answerOf(call, row) : null;
}

/**
 * Claims the call inside the mutation's transaction: null when this call is the one to run
 * (a new key, or one whose row expired); else the earlier call's answer. Waits while another
 * transaction holds the same key, as a unique index makes it.
 */
export async function claimCall(tx: Executor, call: CallIdentity, now: number): Promise<StoredAnswer | null> {
  const claimed = (await tx.execute(sql`
    insert into idempotent_calls (key, request_hash, expires_at)
    values (${call.key}, ${call.requestHash}, ${call.expiresAt})
    on conflict (key) do update
      set request_hash = excluded.request_hash, expires_at = excluded.expires_at, code = null, answer = null
      where idempotent_calls.expires_at < ${now}
    returning key`)) as unknown as { rows: unknown[] };
  if (claimed.rows.length > 0) return null;
  const found = (await tx.execute(sql`
    select request_hash, code, answer from idempotent_calls where key = ${call.key}`)) as unknown as {
    rows: Row[];
  };
  const row = found.rows[0];
  if (!row) throw new Error('idempotent call neither claimed nor found');
  return answerOf(call, row);
}

/** Writes the answer of the claimed call, in the same transaction as its mutation. */
export async function storeAnswer(tx: Executor, call: CallIdentity, code: number, envelope: string): Promise<void> {
  await tx.execute(sql`
    update idempotent_calls set code = ${code}, answer = ${encrypt(call.answerKey, envelope)}
    where key = ${call.key}`);
}

/** Deletes answers whose window has passed (the `prune-idempotent-calls` job); returns how many. */
export async function pruneIdempotentCalls(db: Executor, now: number): Promise<number> {
  const result = (await db.execute(sql`delete from idempotent_calls where expires_at < ${now}`)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return Number(result.rowCount ?? result.affectedRows ?? 0);
}
