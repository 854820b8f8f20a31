import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import {
  OFFLINE_PACKAGE_INDEX,
  type OfflinePackageIndex,
  offlinePackageIndexSchema,
  parseTarHeader,
  TAR_BLOCK,
  tarPadding,
} from '@marquee/protocol';

/** The index is small (a manifest); a bigger one is not a package of ours. */
const MAX_INDEX_BYTES = 16 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/**
 * Reads an offline package (docs/device-protocol.md 2.11) from `path` without holding it in
 * memory: each entry's header, its content hashed in 1 MiB reads. Answers the index once every
 * file of its manifest is present with its size and SHA-256; throws (naming the first problem)
 * for a truncated or altered archive, a file missing or changed, or an index that is not one.
 */
export async function readOfflinePackage(path: string): Promise<OfflinePackageIndex> {
  const file = await open(path, 'r');
  try {
    let pos = 0;
    let index: OfflinePackageIndex | null = null;
    const entries = new Map<string, { size: number; sha256: string }>();
    const read = async (length: number, at: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, at);
      if (bytesRead < length) throw new Error('offline package: the archive is truncated');
      return buffer;
    };
    for (;;) {
      const header = parseTarHeader(await read(TAR_BLOCK, pos));
      if (!header) break;
      pos += TAR_BLOCK;
      if (header.type === '0') {
        if (header.name === OFFLINE_PACKAGE_INDEX) {
          if (header.size > MAX_INDEX_BYTES) throw new Error('offline package: the index is too large');
          const text = (await read(header.size, pos)).toString('utf8');
          const parsed = offlinePackageIndexSchema.safeParse(JSON.parse(text));
          if (!parsed.success) throw new Error('offline package: the index is not an offline package index');
          index = parsed.data;
        } else {
          const hash = createHash('sha256');
          for (let done = 0; done < header.size; done += CHUNK) {
            hash.update(await read(Math.min(CHUNK, header.size - done), pos + done));
          }
          entries.set(header.name, { size: header.size, sha256: hash.digest('hex') });
        }
      }
      pos += header.size + tarPadding(header.size);
    }
    if (!index) throw new Error(`offline package: no ${OFFLINE_PACKAGE_INDEX}`);
    for (const f of index.manifest.files) {
      const got = entries.get(f.url);
      if (!got) throw new Error(`offline package: the file of material ${f.materialId} is missing`);
      if (got.size !== f.size || got.sha256 !== f.sha256) {
        throw new Error(`offline package: the file of material ${f.materialId} does not match its checksum`);
      }
    }
    return index;
  } finally {
    await file.close();
  }
}
