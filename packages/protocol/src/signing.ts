import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Request signing (spec section 7; canonical form in docs/protocol.md).
 *
 * The console's key is public (it ships in the browser), so the signature gives integrity
 * and replay protection, not authentication: the token authenticates.
 */
export const SIGNED_QUERY_FIELDS = [
  'appid',
  'language',
  'origin',
  'sequence',
  'timestamp',
  'token',
  'traceKey',
  'uuid',
  'version',
] as const;

export type SignedQueryField = (typeof SIGNED_QUERY_FIELDS)[number];
export type CallQuery = Record<SignedQueryField, string> & { sign: string };

/** The console's application id and its public signing key. */
export const CONSOLE_APP = { appid: 'marquee-console', key: 'mq-console-2026-public-signing-key' } as const;

/** Default token when not logged in, default user-id header, Platform header (spec section 9). */
export const DEFAULT_TOKEN = '-1';
export const DEFAULT_USER_ID = '86';
export const PLATFORM = '2';
export const ORIGIN = 'new';
export const VERSION_PREFIX = '1.3';

/**
 * The `sequence` query field: 8 to 64 characters of letters, digits, '_' and '-', unique per
 * call of one client (appid and uuid) inside the timestamp window.
 */
export const SEQUENCE_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** Accepted clock skew between client and server, both ways. */
export const TIMESTAMP_WINDOW_MS = 5 * 60 * 1000;

/**
 * The canonical string: the signed query fields sorted by name as `name=value` joined
 * with `&`, then `&payload=` and the payload exactly as sent in the body.
 */
export function canonicalString(query: Record<SignedQueryField, string>, payload: string): string {
  const parts = SIGNED_QUERY_FIELDS.map((field) => `${field}=${query[field] ?? ''}`);
  return `${parts.join('&')}&payload=${payload}`;
}

/** HMAC-SHA256 of the canonical string, lower-case hex. */
export function signCall(key: string, query: Record<SignedQueryField, string>, payload: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(canonicalString(query, payload))));
}

/** Trims every string in a JSON-like value, recursively (spec: "strings trimmed"). */
export function trimStrings<T>(value: T): T {
  if (typeof value === 'string') return value.trim() as T;
  if (Array.isArray(value)) return value.map((item) => trimStrings(item)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = trimStrings(v);
    return out as T;
  }
  return value;
}

export interface BuildCallOptions {
  token?: string | null;
  language: string;
  uuid: string;
  sequence: string;
  traceKey: string;
  now?: number;
  app?: { appid: string; key: string };
}

/**
 * Builds the signed query and the form body of one console call. The web client and the
 * tests use this, so both sign the same way the server verifies.
 */
export function buildSignedCall(
  data: unknown,
  options: BuildCallOptions,
): { query: CallQuery; body: string; payload: string } {
  const app = options.app ?? CONSOLE_APP;
  const timestamp = String(options.now ?? Date.now());
  const payload = JSON.stringify(trimStrings(data ?? {}));
  const fields: Record<SignedQueryField, string> = {
    appid: app.appid,
    language: options.language,
    origin: ORIGIN,
    sequence: options.sequence,
    timestamp,
    token: options.token || DEFAULT_TOKEN,
    traceKey: options.traceKey,
    uuid: options.uuid,
    version: `${VERSION_PREFIX}${timestamp}`,
  };
  const sign = signCall(app.key, fields, payload);
  return { query: { ...fields, sign }, body: `payload=${encodeURIComponent(payload)}`, payload };
}

/** Query string of a signed call. */
export function toQueryString(query: CallQuery): string {
  return Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}
