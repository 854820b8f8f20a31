import { type ManifestItem, QR_LINK_PATH } from '@marquee/protocol';
import { encodeQrToken, isLinkTarget, qrLinkKey } from './qrToken.js';

/**
 * The manifest's QR links (docs/ARCHITECTURE.md "QR code events"): a layout's QR component whose
 * content is a web address shows, on a device, the server's short link for that device, ad,
 * layout and component instead, so a scan is counted before the browser goes on. Both players
 * draw what the manifest says and need no change; the layout editor's preview keeps the target.
 */

/** The layout schema's longest QR content (MAX_QR_LENGTH of @marquee/layout, which the server does not load). */
const MAX_QR_LENGTH = 1000;

let signer: { key: Buffer; origin: string } | null = null;

/** The key and the public origin of the links (buildApp, from the server secret and PUBLIC_URL). */
export function configureQrLinks(secret: string, publicUrl: string): void {
  signer = { key: qrLinkKey(secret), origin: publicUrl.replace(/\/+$/, '') };
}

export function qrLinkOrigin(): string | null {
  return signer?.origin ?? null;
}

interface DocComponent {
  id?: unknown;
  type?: unknown;
  props?: { content?: unknown } & Record<string, unknown>;
}
interface Doc {
  pages?: { components?: DocComponent[] }[];
}

/** The short link of one QR component on one device, or null when it cannot be made (no signer, not a link, too long). */
export function qrLinkOf(
  device: { id: string },
  item: { layoutId: string | null; adId: string | null },
  componentId: string,
  target: string,
): string | null {
  if (!signer || !item.layoutId || !isLinkTarget(target)) return null;
  try {
    const token = encodeQrToken(signer.key, {
      deviceId: device.id,
      layoutId: item.layoutId,
      adId: item.adId ?? '',
      componentId,
      target,
    });
    const link = `${signer.origin}${QR_LINK_PATH}${token}`;
    return link.length <= MAX_QR_LENGTH ? link : null;
  } catch {
    return null;
  }
}

/**
 * The items with their layouts' QR links made for the device. A document is copied where it
 * changes (the layout provider's documents are shared); items without a QR link are kept as they are.
 */
export function withQrLinks(items: ManifestItem[], device: { id: string }): ManifestItem[] {
  if (!signer) return items;
  return items.map((item) => {
    const doc = item.document as Doc | null | undefined;
    if (!doc || !Array.isArray(doc.pages) || !item.layoutId) return item;
    let changed = false;
    const pages = doc.pages.map((page) => {
      if (!Array.isArray(page.components)) return page;
      let pageChanged = false;
      const components = page.components.map((c) => {
        if (c.type !== 'qrCode' || typeof c.id !== 'string' || typeof c.props?.content !== 'string') return c;
        const link = qrLinkOf(device, item, c.id, c.props.content);
        if (!link) return c;
        pageChanged = true;
        return { ...c, props: { ...c.props, content: link } };
      });
      if (!pageChanged) return page;
      changed = true;
      return { ...page, components };
    });
    return changed ? { ...item, document: { ...doc, pages } } : item;
  });
}
