import type { MaterialFileType } from '@marquee/protocol';
import type { MediaFacts } from './checks';

/** How long the browser may take to read a file's dimensions or duration before the upload goes without them. */
const READ_TIMEOUT_MS = 5000;

/**
 * What the browser can read of a file before it is uploaded: an image's width and height,
 * a video's width, height and duration, an audio's duration. Nothing for other kinds or
 * when the browser cannot decode the file (the server probes it anyway).
 */
export function readMediaFacts(file: File, kind: MaterialFileType | null): Promise<MediaFacts> {
  if (kind !== 'image' && kind !== 'video' && kind !== 'audio') return Promise.resolve({});
  const url = URL.createObjectURL(file);
  return new Promise<MediaFacts>((resolve) => {
    let settled = false;
    const done = (facts: MediaFacts) => {
      if (settled) return;
      settled = true;
      URL.revokeObjectURL(url);
      resolve(facts);
    };
    setTimeout(() => done({}), READ_TIMEOUT_MS);
    if (kind === 'image') {
      const img = new Image();
      img.onload = () => done({ width: img.naturalWidth, height: img.naturalHeight });
      img.onerror = () => done({});
      img.src = url;
      return;
    }
    const media = document.createElement(kind);
    media.preload = 'metadata';
    media.onloadedmetadata = () => {
      const facts: MediaFacts = Number.isFinite(media.duration) ? { duration: media.duration } : {};
      if (media instanceof HTMLVideoElement && media.videoWidth > 0) {
        facts.width = media.videoWidth;
        facts.height = media.videoHeight;
      }
      done(facts);
    };
    media.onerror = () => done({});
    media.src = url;
  });
}

/** The SHA-256 of a file in hex (for the duplicate check before the upload). */
export async function sha256Hex(file: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
