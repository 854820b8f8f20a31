import { HELP_IMAGE_ATTR } from '@marquee/protocol';
import { sanitizeHtml } from '../notice/sanitize.js';

/**
 * A help document's body (issue 31): HTML written in the console's editor, kept sanitised
 * (notice/sanitize.ts, the one sanitiser of user HTML). Its pictures are help images named by
 * id (`<img data-help-image="id">`); the stored body carries no src for them (a signed URL
 * expires), and every read signs a fresh one.
 */

const IMG = /<img\b[^>]*>/gi;
const IMAGE_ID = new RegExp(`\\s${HELP_IMAGE_ATTR}="([^"]*)"`, 'i');
const SRC = /\ssrc="[^"]*"/i;

export interface CleanBody {
  html: string;
  /** The plain text (search looks in it). */
  text: string;
  /** The help images the body names. */
  imageIds: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** The text a reader sees in `html` (tags dropped, the common entities decoded, spaces folded). */
export function plainText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h\d)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENTITIES[e])
    .replace(/\s+/g, ' ')
    .trim();
}

/** Sanitises a body from the editor and drops the src of its help images (signed on read). */
export async function cleanBody(html: string): Promise<CleanBody> {
  const safe = await sanitizeHtml(html);
  const imageIds: string[] = [];
  const out = safe.replace(IMG, (tag) => {
    const id = IMAGE_ID.exec(tag)?.[1];
    if (!id) return tag;
    imageIds.push(id);
    return tag.replace(SRC, '');
  });
  return { html: out, text: plainText(out), imageIds: [...new Set(imageIds)] };
}

/** The body as a reader gets it: each help image with `src` from `urlOf` (a signed URL). */
export async function withImageUrls(html: string, urlOf: (id: string) => Promise<string | null>): Promise<string> {
  const tags = html.match(IMG) ?? [];
  const urls = new Map<string, string | null>();
  for (const tag of tags) {
    const id = IMAGE_ID.exec(tag)?.[1];
    if (id && !urls.has(id)) urls.set(id, await urlOf(id));
  }
  return html.replace(IMG, (tag) => {
    const id = IMAGE_ID.exec(tag)?.[1];
    const url = id ? urls.get(id) : null;
    if (!url) return tag;
    return tag.replace(/^<img\b/i, `<img src="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`);
  });
}
