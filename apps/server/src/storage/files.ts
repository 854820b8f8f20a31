import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { contentTypeAllowed, ErrorCode } from '@marquee/protocol';
import { AppError } from '../protocol/appError.js';
import {
  decodeCallback,
  decodeLocalPolicy,
  encodeCallback,
  type LocalPolicy,
  UPLOAD_POLICY_MAX_TTL_SEC,
  UPLOAD_POLICY_TTL_SEC,
  type UploadedFile,
  type UploadHandler,
  type UploadPolicyRequest,
  type UploadSignature,
} from './policy.js';
import { type ByteRange, checkKey, type FileStorage, keyEnterprise, type StoredObject } from './storage.js';

/** Where the browser POSTs a direct upload to the local back end (upload.ts). */
export const UPLOAD_PATH = '/upload';

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
  private readonly uploadKey: Buffer;
  /** The id of the local upload signing key (the `access-id` field). */
  readonly uploadAccessId: string;
  private readonly handlers = new Map<string, UploadHandler>();

  constructor(
    readonly storage: FileStorage,
    secret: string,
    private readonly clock: () => number,
  ) {
    this.key = createHmac('sha256', secret).update('marquee-file-url-v1').digest();
    this.uploadKey = createHmac('sha256', secret).update('marquee-upload-policy-v1').digest();
    this.uploadAccessId = `local-${createHmac('sha256', this.uploadKey).update('id').digest('hex').slice(0, 12)}`;
  }

  private signature(key: string, exp: number): Buffer {
    return createHmac('sha256', this.key).update(`${key}\n${exp}`).digest();
  }

  /**
   * A URL path (with query) that serves `key` until about `ttlSec` from now: the file route's,
   * or another route's that serves what a key names (`prefix`; it checks the same signature).
   */
  signedUrl(key: string, ttlSec = SIGNED_URL_TTL_SEC, prefix = FILE_ROUTE_PREFIX): string {
    checkKey(key);
    const now = Math.floor(this.clock() / 1000);
    const exp = Math.ceil((now + ttlSec) / EXPIRY_STEP_SEC) * EXPIRY_STEP_SEC;
    const sig = this.signature(key, exp).toString('base64url');
    const path = key.split('/').map(encodeURIComponent).join('/');
    return `${prefix}${path}?exp=${exp}&sig=${sig}`;
  }

  /**
   * A URL for a browser or player to fetch `key` until about `ttlSec` from now: presigned
   * straight from the bucket on S3 back ends (no traffic through the server), else signedUrl.
   */
  async directUrl(key: string, ttlSec = SIGNED_URL_TTL_SEC): Promise<string> {
    checkKey(key);
    return this.storage.presignGet ? this.storage.presignGet(key, ttlSec) : this.signedUrl(key, ttlSec);
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

  /**
   * Signs a direct upload of exactly `req.key` (an `enterpriseKey` of `req.entId`): the S3 POST
   * policy of an S3 back end, else a policy the local `POST /upload` checks (checkUpload).
   */
  createUpload(req: UploadPolicyRequest): UploadSignature {
    checkKey(req.key);
    if (keyEnterprise(req.key) !== req.entId)
      throw new Error(`upload key ${req.key} is not of enterprise ${req.entId}`);
    if (!Number.isSafeInteger(req.minBytes) || !Number.isSafeInteger(req.maxBytes) || req.minBytes < 0) {
      throw new Error('upload size range must be whole numbers');
    }
    if (req.maxBytes < req.minBytes) throw new Error('upload maxBytes below minBytes');
    if (req.contentTypes.length === 0) throw new Error('an upload needs at least one content type');
    if (req.callback && !this.handlers.has(req.callback.name))
      throw new Error(`no upload callback ${req.callback.name}`);
    const ttl = Math.min(Math.max(1, req.expiresInSec ?? UPLOAD_POLICY_TTL_SEC), UPLOAD_POLICY_MAX_TTL_SEC);
    if (req.contentType !== undefined && !contentTypeAllowed(req.contentType, req.contentTypes)) {
      throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
    }
    const now = this.clock();
    const expiresAt = now + ttl * 1000;
    const callback = encodeCallback(req.callback);
    if (this.storage.createPost) return this.storage.createPost(req, { now, expiresAt }, callback);
    const document: LocalPolicy = {
      v: 1,
      exp: expiresAt,
      ent: req.entId,
      key: req.key,
      min: req.minBytes,
      max: req.maxBytes,
      types: req.contentType ? [req.contentType.split(';')[0].trim().toLowerCase()] : req.contentTypes,
      callback,
    };
    const policy = Buffer.from(JSON.stringify(document)).toString('base64');
    const signature = this.policySignature(policy).toString('base64');
    return {
      accessId: this.uploadAccessId,
      policy,
      signature,
      key: req.key,
      callback,
      url: UPLOAD_PATH,
      fields: {
        'access-id': this.uploadAccessId,
        policy,
        key: req.key,
        signature,
        callback,
        ...(req.contentType ? { 'Content-Type': req.contentType } : {}),
        success_action_status: '200',
      },
      expiresAt,
    };
  }

  private policySignature(policy: string): Buffer {
    return createHmac('sha256', this.uploadKey).update(policy).digest();
  }

  /**
   * Checks the form fields of a local upload against their policy the way S3 does: the
   * signature (`signature`, or the spec's `sign`) of the exact policy text, the signing key's
   * id, the expiry, the exact key of the policy's enterprise, the callback it was signed with
   * and the file's content type (the `Content-Type` field when sent, else the part's type).
   * The size range is for the caller to enforce while it streams. Throws AppError.
   */
  checkUpload(fields: Record<string, string>, fileType: string): LocalPolicy {
    const policyField = fields.policy ?? '';
    const given = Buffer.from(fields.signature ?? fields.sign ?? '', 'base64');
    const expected = this.policySignature(policyField);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError(ErrorCode.UPLOAD_POLICY_INVALID);
    }
    const policy = decodeLocalPolicy(policyField);
    if (!policy) throw new AppError(ErrorCode.UPLOAD_POLICY_INVALID);
    if (fields['access-id'] !== undefined && fields['access-id'] !== this.uploadAccessId) {
      throw new AppError(ErrorCode.UPLOAD_POLICY_INVALID);
    }
    if (policy.exp <= this.clock()) throw new AppError(ErrorCode.UPLOAD_POLICY_EXPIRED);
    if (fields.key !== policy.key || keyEnterprise(policy.key) !== policy.ent) {
      throw new AppError(ErrorCode.UPLOAD_POLICY_INVALID);
    }
    if ((fields.callback ?? '') !== policy.callback) throw new AppError(ErrorCode.UPLOAD_POLICY_INVALID);
    const declared = fields['Content-Type'] ?? fields['content-type'];
    if (
      declared !== undefined &&
      declared.split(';')[0].trim().toLowerCase() !== fileType.split(';')[0].trim().toLowerCase()
    ) {
      // S3 stores the field's type; a part of another type than the one declared is not what was signed for.
      if (fileType && fileType !== 'application/octet-stream') throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
    }
    if (!contentTypeAllowed(declared ?? fileType, policy.types)) throw new AppError(ErrorCode.FILE_FORMAT_ERROR);
    return policy;
  }

  /** Registers the handler of callback `name` (one per name), run after a local upload is stored. */
  onUploaded(name: string, handler: UploadHandler): void {
    if (this.handlers.has(name)) throw new Error(`upload callback ${name} registered twice`);
    this.handlers.set(name, handler);
  }

  /**
   * Runs the callback a signed `callback` field names for a stored file (the local
   * `POST /upload` does it; for S3 back ends the verify call may). Undefined when none.
   */
  async runCallback(callbackField: string, file: Omit<UploadedFile, 'body'>): Promise<unknown> {
    const callback = decodeCallback(callbackField);
    if (!callback) return undefined;
    const handler = this.handlers.get(callback.name);
    if (!handler) throw new Error(`no upload callback ${callback.name}`);
    return handler({ ...file, body: callback.body });
  }

  /**
   * A file on local disk with the bytes of `key`, for tools that want a path (probing):
   * the file itself on local disk, else a temporary download; `release()` removes the latter.
   */
  async localCopy(key: string): Promise<{ path: string; release(): Promise<void> }> {
    checkKey(key);
    const direct = this.storage.localPath?.(key);
    if (direct) {
      if (!(await this.storage.exists(key))) throw new Error(`no stored file ${key}`);
      return { path: direct, release: async () => {} };
    }
    const opened = await this.storage.get(key);
    if (!opened) throw new Error(`no stored file ${key}`);
    const dir = join(tmpdir(), 'marquee-local-copies');
    await mkdir(dir, { recursive: true });
    const ext = key.includes('.') ? key.slice(key.lastIndexOf('.')) : '';
    const path = join(dir, `${randomUUID()}${ext}`);
    try {
      await pipeline(opened.body, createWriteStream(path, { flags: 'wx' }));
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
    return { path, release: () => rm(path, { force: true }) };
  }
}
