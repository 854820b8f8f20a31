import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The short link's token (docs/ARCHITECTURE.md "QR code events"): what a scan records and where
 * it goes, signed by the server, so the redirect needs no database and nobody can make a link
 * for another enterprise's device, layout or target without the key. Bytes (base64url):
 * version 1, then device, layout, ad and component ids (each: 0 empty; 1 and a UUID's 16 bytes;
 * 2, a length byte and UTF-8), then the target URL (UTF-8, to the end), then the first 12 bytes
 * of HMAC-SHA256 over everything before them. Deterministic: the same component on the same
 * device is the same link, so a manifest's version does not change from one build to the next.
 */

export interface QrLink {
  deviceId: string;
  layoutId: string;
  /** '' : the device's own layout. */
  adId: string;
  componentId: string;
  target: string;
}

const VERSION = 1;
const SIG_BYTES = 12;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The key of the links: derived from the server secret, so it is used for nothing else. */
export function qrLinkKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('marquee:qrcode-link:v1').digest();
}

function idBytes(value: string): Buffer {
  if (value === '') return Buffer.from([0]);
  if (UUID.test(value)) return Buffer.concat([Buffer.from([1]), Buffer.from(value.replaceAll('-', ''), 'hex')]);
  const text = Buffer.from(value, 'utf8');
  if (text.length > 255) throw new Error('id too long for a QR link');
  return Buffer.concat([Buffer.from([2, text.length]), text]);
}

function sign(key: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest().subarray(0, SIG_BYTES);
}

export function encodeQrToken(key: Buffer, link: QrLink): string {
  const body = Buffer.concat([
    Buffer.from([VERSION]),
    idBytes(link.deviceId),
    idBytes(link.layoutId),
    idBytes(link.adId),
    idBytes(link.componentId),
    Buffer.from(link.target, 'utf8'),
  ]);
  return Buffer.concat([body, sign(key, body)]).toString('base64url');
}

/** The link of a token, or null when it is malformed or its signature is not the server's. */
export function decodeQrToken(key: Buffer, token: string): QrLink | null {
  if (token.length < 20 || token.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const raw = Buffer.from(token, 'base64url');
  // One spelling per token: base64url's unused low bits of the last character are not free to vary.
  if (raw.length <= SIG_BYTES + 5 || raw.toString('base64url') !== token) return null;
  const body = raw.subarray(0, raw.length - SIG_BYTES);
  const sig = raw.subarray(raw.length - SIG_BYTES);
  if (!timingSafeEqual(sig, sign(key, body))) return null;
  if (body[0] !== VERSION) return null;
  let at = 1;
  const readId = (): string | null => {
    const tag = body[at++];
    if (tag === 0) return '';
    if (tag === 1) {
      if (at + 16 > body.length) return null;
      const hex = body.subarray(at, at + 16).toString('hex');
      at += 16;
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    if (tag === 2) {
      const n = body[at++];
      if (n === undefined || at + n > body.length) return null;
      const value = body.subarray(at, at + n).toString('utf8');
      at += n;
      return value;
    }
    return null;
  };
  const deviceId = readId();
  const layoutId = readId();
  const adId = readId();
  const componentId = readId();
  if (!deviceId || !layoutId || adId === null || !componentId) return null;
  const target = body.subarray(at).toString('utf8');
  if (!isLinkTarget(target)) return null;
  return { deviceId, layoutId, adId, componentId, target };
}

/** A QR component's content that becomes a short link: an absolute http(s) URL (other content, text or Wi-Fi, stays). */
export function isLinkTarget(content: string): boolean {
  if (!/^https?:\/\//i.test(content)) return false;
  try {
    new URL(content);
    return true;
  } catch {
    return false;
  }
}
