import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  CONSOLE_APP,
  canonicalString,
  ErrorCode,
  isSafeText,
  SEQUENCE_PATTERN,
  SIGNED_QUERY_FIELDS,
  type SignedQueryField,
  TIMESTAMP_WINDOW_MS,
} from '@marquee/protocol';
import { AppError } from './appError.js';
import { messages } from './messages.js';
import type { ReplayGuard } from './replayGuard.js';

/** Applications allowed to call, by appid, with their signing keys. */
export const KNOWN_APPS: ReadonlyMap<string, string> = new Map([[CONSOLE_APP.appid, CONSOLE_APP.key]]);

export type CallFields = Record<SignedQueryField, string> & { sign: string };

const MAX_FIELD_LENGTH = 512;

/** The caller's language as sent (even on a malformed call), for the answer's message. */
export function languageOf(query: unknown): string | undefined {
  const language = (query as Record<string, unknown> | undefined)?.language;
  return typeof language === 'string' ? language : undefined;
}

/** Marker the API's catch-all content-type parser yields for bodies that are not forms. */
export const NOT_A_FORM: unique symbol = Symbol('not a form');

/**
 * Reads the query fields and the payload field of a call; throws BAD_ENVELOPE naming the
 * first field that is missing, repeated or malformed (too long, a NUL or a lone surrogate,
 * a sequence outside SEQUENCE_PATTERN).
 */
export function readEnvelope(query: unknown, body: unknown): { fields: CallFields; payload: string } {
  const q = (query ?? {}) as Record<string, unknown>;
  const fields = {} as CallFields;
  for (const name of [...SIGNED_QUERY_FIELDS, 'sign'] as const) {
    const value = q[name];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_FIELD_LENGTH || !isSafeText(value)) {
      throw new AppError(ErrorCode.BAD_ENVELOPE, messages.badEnvelope(name));
    }
    fields[name] = value;
  }
  if (!SEQUENCE_PATTERN.test(fields.sequence)) throw new AppError(ErrorCode.BAD_ENVELOPE, messages.badSequence);
  if (!/^\d{1,16}$/.test(fields.timestamp))
    throw new AppError(ErrorCode.BAD_ENVELOPE, messages.badEnvelope('timestamp'));
  if (!KNOWN_APPS.has(fields.appid)) throw new AppError(ErrorCode.BAD_ENVELOPE, messages.badEnvelope('appid'));
  if (!(body instanceof URLSearchParams)) throw new AppError(ErrorCode.BAD_ENVELOPE, messages.badEnvelope('payload'));
  const payloads = body.getAll('payload');
  if (payloads.length !== 1) throw new AppError(ErrorCode.BAD_ENVELOPE, messages.badEnvelope('payload'));
  return { fields, payload: payloads[0] };
}

/**
 * Signature, timestamp window and replay checks, in that order, each with its own code. A
 * mutation passes no replay guard: its sequence is its idempotency key (idempotency.ts).
 */
export async function verifyCall(
  fields: CallFields,
  payload: string,
  now: number,
  replay: ReplayGuard | null,
): Promise<void> {
  const key = KNOWN_APPS.get(fields.appid) as string;
  const expected = createHmac('sha256', key).update(canonicalString(fields, payload), 'utf8').digest();
  // Buffer.from(hex) silently stops at the first non-hex pair, so check the shape first.
  const given = /^[0-9a-f]{64}$/i.test(fields.sign) ? Buffer.from(fields.sign, 'hex') : null;
  if (!given || !timingSafeEqual(given, expected)) {
    throw new AppError(ErrorCode.BAD_SIGNATURE);
  }
  const timestamp = Number(fields.timestamp);
  if (Math.abs(now - timestamp) > TIMESTAMP_WINDOW_MS) throw new AppError(ErrorCode.STALE_TIMESTAMP);
  if (replay && !(await replay.accept(`${fields.appid}\n${fields.uuid}\n${fields.sequence}`, timestamp, now))) {
    throw new AppError(ErrorCode.REPLAYED_SEQUENCE);
  }
}
