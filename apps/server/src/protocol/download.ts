import { toSafeText } from '@marquee/protocol';

/**
 * Content-Disposition for a download: an ASCII fallback `filename` and the exact name in
 * `filename*` (RFC 5987/6266), so non-ASCII names (Chinese report titles) survive.
 */
export function contentDisposition(name: string): string {
  // encodeURIComponent throws on a lone surrogate: the header names the file in well-formed text.
  const fileName = toSafeText(name);
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
