import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type ByteRange,
  checkKey,
  contentTypeOfKey,
  type FileStorage,
  FileTooLargeError,
  type PutOptions,
  type StoredObject,
} from './storage.js';

/** Counts the bytes passing through and fails the stream once they exceed `max`. */
export function byteLimit(max: number, counted: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counted.bytes += chunk.length;
      if (counted.bytes > max) callback(new FileTooLargeError(max));
      else callback(null, chunk);
    },
  });
}

/**
 * Files on local disk under `root` (default `<DATA_DIR>/files`): a key is a relative path.
 * A put streams into a temporary file in `<root>/.tmp` and renames it into place, so a
 * reader never sees half a file and an interrupted or oversize upload leaves nothing.
 * The content type is the key's extension's.
 */
export class LocalDiskStorage implements FileStorage {
  readonly kind = 'local';

  constructor(readonly root: string) {}

  private path(key: string): string {
    return join(this.root, ...checkKey(key).split('/'));
  }

  localPath(key: string): string {
    return this.path(key);
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<StoredObject> {
    const target = this.path(key);
    const tmpDir = join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, `${randomUUID()}.part`);
    const counted = { bytes: 0 };
    try {
      const stages: (Readable | Transform)[] = [body];
      if (options.maxBytes !== undefined) stages.push(byteLimit(options.maxBytes, counted));
      else stages.push(byteLimit(Number.MAX_SAFE_INTEGER, counted));
      await pipeline([...stages, createWriteStream(tmp, { flags: 'wx', highWaterMark: 1024 * 1024 })]);
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
    } catch (error) {
      await rm(tmp, { force: true });
      body.resume?.();
      throw error;
    }
    return { key, size: counted.bytes, contentType: contentTypeOfKey(key) };
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { key, size: s.size, contentType: contentTypeOfKey(key) } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<{ object: StoredObject; body: Readable } | null> {
    const object = await this.stat(key);
    if (!object) return null;
    const body = createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
    return { object, body };
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
