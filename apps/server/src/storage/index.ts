import type { Config } from '../config.js';
import { Files } from './files.js';
import { LocalDiskStorage } from './local.js';
import { S3Storage } from './s3.js';
import type { FileStorage } from './storage.js';

export { FILE_ROUTE_PREFIX, Files, SIGNED_URL_TTL_SEC, UPLOAD_PATH } from './files.js';
export * from './policy.js';
export * from './storage.js';

/** The configured back end: local disk under STORAGE_DIR (default <DATA_DIR>/files), or an S3 bucket (STORAGE=s3). */
export function createStorage(config: Config): FileStorage {
  return config.storage.kind === 's3' ? new S3Storage(config.storage) : new LocalDiskStorage(config.storage.dir);
}

/** The storage service of an app instance. */
export function createFiles(config: Config, secret: string, clock: () => number): Files {
  return new Files(createStorage(config), secret, clock);
}
