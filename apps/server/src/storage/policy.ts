import type { UploadSignature } from '@marquee/protocol';

/**
 * What the server asks of one direct upload (contracts: `Files.createUpload`): the exact key
 * (made with `enterpriseKey(entId, ...)`), the size range, the accepted content types (exact,
 * or a prefix ending in '/', e.g. 'image/'), how long the policy lives and the callback the
 * storage runs once the file is stored (`Files.onUploaded`).
 */
export interface UploadPolicyRequest {
  entId: string;
  key: string;
  minBytes: number;
  maxBytes: number;
  contentTypes: string[];
  /**
   * The type the client says this file has (one of `contentTypes`): when given, the policy
   * pins it and `fields` carries it as `Content-Type` (S3 can only express one type or a prefix).
   */
  contentType?: string;
  /** Default UPLOAD_POLICY_TTL_SEC. */
  expiresInSec?: number;
  callback?: { name: string; body: Record<string, string> };
}

export type { UploadSignature };

/** A policy is accepted this long by default. */
export const UPLOAD_POLICY_TTL_SEC = 15 * 60;
/** ...and at most this long. */
export const UPLOAD_POLICY_MAX_TTL_SEC = 24 * 3600;

/** What a registered callback handler is given after the file is stored. */
export interface UploadedFile {
  entId: string;
  key: string;
  size: number;
  contentType: string;
  body: Record<string, string>;
}

/**
 * A callback handler (`Files.onUploaded(name, handler)`): registers the stored file (a
 * material...). Throwing refuses the upload: the object is deleted and the client gets the
 * error (an AppError's code, else UPLOAD_FAILED). Its return value is the answer's `callback`.
 */
export type UploadHandler = (file: UploadedFile) => Promise<unknown> | unknown;

/**
 * The local policy document (base64 JSON in the `policy` field): every term the storage
 * checks, signed as a whole, so no term can change without breaking the signature.
 */
export interface LocalPolicy {
  v: 1;
  /** Expiry, ms since the epoch. */
  exp: number;
  ent: string;
  key: string;
  min: number;
  max: number;
  types: string[];
  /** The callback field's exact value ('' for none). */
  callback: string;
}

/** The callback field: base64 JSON `{ name, body }`, or '' for none. */
export function encodeCallback(callback: UploadPolicyRequest['callback']): string {
  return callback ? Buffer.from(JSON.stringify({ name: callback.name, body: callback.body })).toString('base64') : '';
}

/** The callback a field names, or null (none, or not one we made: the signature covers it anyway). */
export function decodeCallback(field: string): { name: string; body: Record<string, string> } | null {
  if (!field) return null;
  try {
    const value = JSON.parse(Buffer.from(field, 'base64').toString('utf8')) as unknown;
    if (
      value &&
      typeof value === 'object' &&
      typeof (value as { name?: unknown }).name === 'string' &&
      typeof (value as { body?: unknown }).body === 'object'
    ) {
      return value as { name: string; body: Record<string, string> };
    }
  } catch {
    // not JSON
  }
  return null;
}

/** The policy a `policy` field carries, or null when it is not one (malformed: refused as invalid). */
export function decodeLocalPolicy(field: string): LocalPolicy | null {
  if (!field || field.length > 16_384 || !/^[A-Za-z0-9+/=]+$/.test(field)) return null;
  try {
    const p = JSON.parse(Buffer.from(field, 'base64').toString('utf8')) as Partial<LocalPolicy>;
    if (
      p.v === 1 &&
      Number.isSafeInteger(p.exp) &&
      typeof p.ent === 'string' &&
      typeof p.key === 'string' &&
      Number.isSafeInteger(p.min) &&
      Number.isSafeInteger(p.max) &&
      Array.isArray(p.types) &&
      p.types.every((t) => typeof t === 'string') &&
      typeof p.callback === 'string'
    ) {
      return p as LocalPolicy;
    }
  } catch {
    // not JSON
  }
  return null;
}
