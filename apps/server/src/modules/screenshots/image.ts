/** An image's type and size as its first bytes say (PNG, JPEG), or null for anything else. */
export interface ImageInfo {
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** How many leading bytes `sniffImage` needs at most (a JPEG's frame header may follow EXIF). */
export const SNIFF_BYTES = 256 * 1024;

/**
 * Reads the format and dimensions from the head of an image file: PNG's IHDR, JPEG's first
 * start-of-frame marker. The content decides, never the declared type or a file name.
 */
export function sniffImage(head: Buffer): ImageInfo | null {
  if (head.length >= 24 && head.subarray(0, 8).equals(PNG_SIGNATURE) && head.toString('latin1', 12, 16) === 'IHDR') {
    const width = head.readUInt32BE(16);
    const height = head.readUInt32BE(20);
    return width > 0 && height > 0 ? { contentType: 'image/png', width, height } : null;
  }
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    let at = 2;
    while (at + 9 < head.length) {
      if (head[at] !== 0xff) return null;
      const marker = head[at + 1];
      if (marker === 0xff) {
        at++;
        continue;
      }
      const length = head.readUInt16BE(at + 2);
      // SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        const height = head.readUInt16BE(at + 5);
        const width = head.readUInt16BE(at + 7);
        return width > 0 && height > 0 ? { contentType: 'image/jpeg', width, height } : null;
      }
      at += 2 + length;
    }
  }
  return null;
}
