import { z } from 'zod';
import { deviceManifestSchema } from './http.js';

/**
 * An offline package (docs/device-protocol.md 2.11): what a screen without a network plays,
 * exported from the console and carried to it. A POSIX tar archive (ustar) of regular files:
 *
 *   offline.json         first: OfflinePackageIndex (the device, when it was made, the manifest)
 *   files/<sha256>       each file of the manifest once, named by its content's SHA-256
 *
 * In the index's manifest every file's `url` is its entry's name (`files/<sha256>`). A player
 * checks each entry's size and SHA-256 against the manifest before it plays anything, keeps its
 * plays and uploads them (2.8) once it is online again.
 */
export const OFFLINE_PACKAGE_FORMAT = 1;
export const OFFLINE_PACKAGE_INDEX = 'offline.json';
export const OFFLINE_FILES_DIR = 'files/';

export const offlinePackageIndexSchema = z.object({
  format: z.literal(OFFLINE_PACKAGE_FORMAT),
  deviceId: z.string(),
  deviceName: z.string(),
  /** When the package was made (epoch ms). */
  generatedAt: z.number(),
  manifest: deviceManifestSchema,
});
export type OfflinePackageIndex = z.infer<typeof offlinePackageIndexSchema>;

/** The entry name of a file of the manifest. */
export const offlineFileEntry = (sha256: string) => `${OFFLINE_FILES_DIR}${sha256}`;

/** Tar's block size: headers and file contents are padded to it; two zero blocks end the archive. */
export const TAR_BLOCK = 512;

const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, '0')}\0`;

/** The ustar header of a regular file `name` (at most 100 bytes of ASCII) of `size` bytes. */
export function tarHeader(name: string, size: number, mtimeSec: number): Uint8Array {
  const header = new Uint8Array(TAR_BLOCK);
  const put = (text: string, offset: number) => {
    for (let i = 0; i < text.length; i++) header[offset + i] = text.charCodeAt(i) & 0xff;
  };
  if (name.length > 100 || !/^[\x20-\x7e]+$/.test(name)) throw new Error(`tar entry name not supported: ${name}`);
  put(name, 0);
  put(octal(0o644, 8), 100);
  put(octal(0, 8), 108);
  put(octal(0, 8), 116);
  put(octal(size, 12), 124);
  put(octal(Math.floor(mtimeSec), 12), 136);
  put('        ', 148); // the checksum counts itself as spaces
  header[156] = '0'.charCodeAt(0);
  put('ustar\x0000', 257);
  let sum = 0;
  for (const b of header) sum += b;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
}

/** A header block read back: null for a zero block (the archive's end); throws on a bad checksum. */
export function parseTarHeader(block: Uint8Array): { name: string; size: number; type: string } | null {
  if (block.every((b) => b === 0)) return null;
  const text = (offset: number, length: number) => {
    let s = '';
    for (let i = offset; i < offset + length && block[i] !== 0; i++) s += String.fromCharCode(block[i]);
    return s;
  };
  let sum = 0;
  for (let i = 0; i < TAR_BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
  if (Number.parseInt(text(148, 8).trim(), 8) !== sum) throw new Error('not a tar archive (header checksum)');
  const prefix = text(345, 155);
  const name = text(0, 100);
  return {
    name: prefix ? `${prefix}/${name}` : name,
    size: Number.parseInt(text(124, 12).trim() || '0', 8),
    type: String.fromCharCode(block[156] || 48),
  };
}

/** How many padding bytes follow `size` bytes of content. */
export const tarPadding = (size: number) => (TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK;
