import type { Readable } from 'node:stream';
import type { UploadPolicyRequest, UploadSignature } from './policy.js';

/**
 * The one file storage of the product (screenshots now; materials, thumbnails, exports and
 * poster images with issue 10). A back end stores bytes under keys; keys are chosen by the
 * server, never by clients, and always start with the owning enterprise (`enterpriseKey`), so
 * a read on behalf of an enterprise refuses any other's file as not found (`Files`, files.ts).
 * Local disk is the default back end (local.ts); an S3-compatible one is one more class
 * implementing this interface.
 */
export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
}

/** An inclusive byte range of an object (HTTP Range semantics). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutOptions {
  contentType: string;
  /** Refuse (FileTooLargeError, nothing stored) when the body is longer. */
  maxBytes?: number;
}

export interface FileStorage {
  /** 'local', 's3'... (logs, readiness). */
  readonly kind: string;
  /** Streams `body` to `key`; the object appears whole or not at all (a failed put leaves nothing). */
  put(key: string, body: Readable, options: PutOptions): Promise<StoredObject>;
  /** The object's size and type, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /** A stream of the object (or of one range of it), or null when there is none. */
  get(key: string, range?: ByteRange): Promise<{ object: StoredObject; body: Readable } | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** The object's own file on this machine (local disk), when the back end has one. */
  localPath?(key: string): string;
  /**
   * A direct upload the store itself checks (S3 POST policy); back ends without one use the
   * server's `POST /upload` (Files.createUpload).
   */
  createPost?(req: UploadPolicyRequest, times: { now: number; expiresAt: number }, callback: string): UploadSignature;
  /** A URL that serves the object straight from the store until `ttlSec` from now (S3: presigned GET). */
  presignGet?(key: string, ttlSec: number): Promise<string>;
}

/** A put whose body exceeded `maxBytes`: nothing was stored. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`file larger than ${maxBytes} bytes`);
  }
}

/** A key that is not one the server makes (traversal, empty segment, odd characters). */
export class InvalidKeyError extends Error {
  constructor(key: string) {
    super(`invalid storage key: ${JSON.stringify(key).slice(0, 200)}`);
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Checks a key: 1-12 segments of `[A-Za-z0-9._-]` separated by '/', no '.' or '..' segment. */
export function checkKey(key: string): string {
  const parts = key.split('/');
  if (parts.length < 1 || parts.length > 12 || !parts.every((p) => SEGMENT.test(p) && !/^\.+$/.test(p))) {
    throw new InvalidKeyError(key);
  }
  return key;
}

/** The key of an enterprise's file: `e/<entId>/<area>/<name...>`. */
export function enterpriseKey(entId: string, area: string, ...name: string[]): string {
  return checkKey(['e', entId, area, ...name].join('/'));
}

/** The enterprise a key belongs to (null for a key outside `e/<entId>/`). */
export function keyEnterprise(key: string): string | null {
  const parts = key.split('/');
  return parts[0] === 'e' && parts.length >= 3 ? parts[1] : null;
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  pdf: 'application/pdf',
  zip: 'application/zip',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
};

/** The content type a key's extension names (the local back end keeps no metadata beside the bytes). */
export function contentTypeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

/** The file extension the server gives a stored file of `contentType`. */
export function extensionOf(contentType: string): string {
  const found = Object.entries(TYPES).find(([, type]) => type === contentType);
  return found ? found[0] : 'bin';
}
