import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type ByteRange, checkKey, type FileStorage, keyEnterprise, type StoredObject } from './storage.js';

/** Where signed file URLs are served (routes.ts). */
export const FILE_ROUTE_PREFIX = '/files/';
/** A signed URL is valid this long by default... */
export const SIGNED_URL_TTL_SEC = 15 * 60;
/**
 * ...and its expiry is rounded up to this step, so the same file signed again within a few
 * minutes gets the same URL (the browser's cache keeps the image across a page's refreshes).
 */
const EXPIRY_STEP_SEC = 5 * 60;

/**
 * The storage as the rest of the server uses it: the back end, plus short-lived signed URLs
 * (HMAC-SHA256 of the key and expiry under a key derived from the server secret) and reads on
 * behalf of an enterprise, which find only that enterprise's files.
 */
export class Files {
  private readonly key: Buffer;

  constructor(
    readonly storage: FileStorage,
    secret: string,
    private readonly clock: () => number,
  ) {
    this.key = createHmac('sha256', secret).update('marquee-file-url-v1').digest();
  }

  private signature(key: string, exp: number): Buffer {
    return createHmac('sha256', this.key).update(`${key}\n${exp}`).digest();
  }

  /** A URL path (with query) that serves `key` until about `ttlSec` from now. */
  signedUrl(key: string, ttlSec = SIGNED_URL_TTL_SEC): string {
    checkKey(key);
    const now = Math.floor(this.clock() / 1000);
    const exp = Math.ceil((now + ttlSec) / EXPIRY_STEP_SEC) * EXPIRY_STEP_SEC;
    const sig = this.signature(key, exp).toString('base64url');
    const path = key.split('/').map(encodeURIComponent).join('/');
    return `${FILE_ROUTE_PREFIX}${path}?exp=${exp}&sig=${sig}`;
  }

  /** Whether `sig` signs `key` until `exp` (seconds) and that time has not passed. */
  verify(key: string, exp: string | undefined, sig: string | undefined): boolean {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
    const expires = Number(exp);
    if (expires * 1000 <= this.clock()) return false;
    const given = Buffer.from(sig, 'base64url');
    const expected = this.signature(key, expires);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Reads a file of `entId`: another enterprise's key (or a missing file) is null, not found. */
  async open(entId: string, key: string, range?: ByteRange): Promise<{ object: StoredObject; body: Readable } | null> {
    if (keyEnterprise(key) !== entId) return null;
    return this.storage.get(key, range);
  }

  /** Deletes files, ignoring missing ones; returns how many keys were given. */
  async deleteMany(keys: readonly string[]): Promise<number> {
    for (const key of keys) await this.storage.delete(key);
    return keys.length;
  }
}
