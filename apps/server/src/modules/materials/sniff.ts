import type { MaterialFileType } from '@marquee/protocol';

/**
 * The type of a file judged from its first bytes (spec section 8 'file format error' is
 * judged from the content, never the name): the magic numbers of the formats the library
 * accepts (materialRules MATERIAL_FORMATS). SVG and HTML are not accepted: they can carry
 * script that the console and players would run.
 */
export interface Sniffed {
  type: MaterialFileType;
  mime: string;
  /** The extension the stored file gets. */
  ext: string;
}

/** How many leading bytes sniffing needs (tar's magic is at 257). */
export const SNIFF_BYTES = 4100;

const ascii = (buf: Buffer, at: number, text: string) =>
  buf.length >= at + text.length && buf.toString('latin1', at, at + text.length) === text;
const bytes = (buf: Buffer, at: number, values: readonly number[]) =>
  buf.length >= at + values.length && values.every((v, i) => buf[at + i] === v);

function isoBmff(head: Buffer): Sniffed | null {
  if (!ascii(head, 4, 'ftyp')) return null;
  const brand = head.toString('latin1', 8, 12);
  if (brand === 'M4A ' || brand === 'M4B ') return { type: 'audio', mime: 'audio/mp4', ext: 'm4a' };
  if (brand === 'qt  ') return { type: 'video', mime: 'video/quicktime', ext: 'mov' };
  if (brand.startsWith('heic') || brand === 'mif1' || brand === 'avif') return null;
  return { type: 'video', mime: 'video/mp4', ext: 'mp4' };
}

function mp3(head: Buffer): boolean {
  if (ascii(head, 0, 'ID3')) return true;
  // An MPEG audio frame sync: 11 set bits, layer III/II (not the AAC ADTS sync, layer 00).
  return head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0 && (head[1] & 0x06) !== 0;
}

/** The Office Open XML kind of a zip, from its first entry names ([Content_Types].xml, word/...). */
function ooxml(head: Buffer): Sniffed | null {
  const text = head.toString('latin1');
  if (!text.includes('[Content_Types].xml') && !/(word|xl|ppt)\//.test(text)) return null;
  if (text.includes('word/')) {
    return {
      type: 'document',
      mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ext: 'docx',
    };
  }
  if (text.includes('xl/')) {
    return { type: 'document', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx' };
  }
  if (text.includes('ppt/')) {
    return {
      type: 'document',
      mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      ext: 'pptx',
    };
  }
  return null;
}

/** The accepted format the bytes are, or null (not a format the library takes). */
export function sniff(head: Buffer): Sniffed | null {
  if (bytes(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { type: 'image', mime: 'image/png', ext: 'png' };
  }
  if (bytes(head, 0, [0xff, 0xd8, 0xff])) return { type: 'image', mime: 'image/jpeg', ext: 'jpg' };
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return { type: 'image', mime: 'image/gif', ext: 'gif' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return { type: 'image', mime: 'image/webp', ext: 'webp' };
  if (ascii(head, 0, 'BM') && head.length > 14 && head.readUInt32LE(2) > 26) {
    return { type: 'image', mime: 'image/bmp', ext: 'bmp' };
  }
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'AVI ')) return { type: 'video', mime: 'video/x-msvideo', ext: 'avi' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return { type: 'audio', mime: 'audio/wav', ext: 'wav' };
  const mp4 = isoBmff(head);
  if (mp4) return mp4;
  if (bytes(head, 0, [0x1a, 0x45, 0xdf, 0xa3])) {
    const isWebm = head.toString('latin1', 0, 64).includes('webm');
    return isWebm
      ? { type: 'video', mime: 'video/webm', ext: 'webm' }
      : { type: 'video', mime: 'video/x-matroska', ext: 'mkv' };
  }
  if (ascii(head, 0, 'OggS')) return { type: 'audio', mime: 'audio/ogg', ext: 'ogg' };
  if (ascii(head, 0, 'fLaC')) return { type: 'audio', mime: 'audio/flac', ext: 'flac' };
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xf6) === 0xf0) {
    return { type: 'audio', mime: 'audio/aac', ext: 'aac' };
  }
  if (mp3(head)) return { type: 'audio', mime: 'audio/mpeg', ext: 'mp3' };
  if (ascii(head, 0, '%PDF-')) return { type: 'document', mime: 'application/pdf', ext: 'pdf' };
  if (bytes(head, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    // An OLE2 compound file: Word, Excel or PowerPoint 97-2003.
    return { type: 'document', mime: 'application/msword', ext: 'doc' };
  }
  if (bytes(head, 0, [0x50, 0x4b, 0x03, 0x04])) {
    return ooxml(head) ?? { type: 'archive', mime: 'application/zip', ext: 'zip' };
  }
  if (ascii(head, 0, 'Rar!\u001a\u0007')) return { type: 'archive', mime: 'application/vnd.rar', ext: 'rar' };
  if (bytes(head, 0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) {
    return { type: 'archive', mime: 'application/x-7z-compressed', ext: '7z' };
  }
  if (bytes(head, 0, [0x1f, 0x8b])) return { type: 'archive', mime: 'application/gzip', ext: 'gz' };
  if (ascii(head, 257, 'ustar')) return { type: 'archive', mime: 'application/x-tar', ext: 'tar' };
  return null;
}
