import {
  HELP_IMAGE_ATTR,
  HELP_IMAGE_MAX_BYTES,
  HELP_IMAGE_TYPES,
  HELP_LANGUAGES,
  type HelpLanguage,
} from '@marquee/protocol';
import { call } from '../../api/client';
import { fileProblem, uploadSigned } from '../../components/upload';

/** Why the editor refuses a picture before asking the server: 'type' or 'size', or null. */
export function imageProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  return fileProblem(file, HELP_IMAGE_TYPES, HELP_IMAGE_MAX_BYTES);
}

/** One picture into storage (help.imageApply, then the direct POST): its id and a URL to show it now. */
export async function uploadHelpImage(file: File, language: string): Promise<{ id: string; url: string }> {
  const signature = await uploadSigned(
    () => call('helpImageApply', { size: file.size, contentType: file.type }),
    file,
    language,
  );
  return { id: signature.imageId, url: signature.src };
}

/** The HTML the editor inserts for an uploaded picture (the server keeps the id and signs src on read). */
export function imageHtml(image: { id: string; url: string }, alt: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<img src="${esc(image.url)}" ${HELP_IMAGE_ATTR}="${esc(image.id)}" alt="${esc(alt)}">`;
}

export interface DraftVersion {
  title: string;
  body: string;
}

/** Whether an editor's body holds nothing a reader would see (no text, no picture). */
export function bodyIsEmpty(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim() === ''
  );
}

/**
 * The versions the editor saves: zh-CN always (the server answers HELP_ZH_CN_REQUIRED when it
 * is empty), the other languages only when they have a title or a body; in HELP_LANGUAGES order.
 */
export function versionsToSave(
  drafts: Partial<Record<HelpLanguage, DraftVersion>>,
): { language: HelpLanguage; title: string; body: string }[] {
  return HELP_LANGUAGES.flatMap((language) => {
    const d = drafts[language];
    const title = d?.title.trim() ?? '';
    const body = d?.body ?? '';
    if (language !== 'zh-CN' && !title && bodyIsEmpty(body)) return [];
    return [{ language, title, body: bodyIsEmpty(body) ? '' : body }];
  });
}

/** The optional languages whose title is missing while the body is written (the form marks them). */
export function untitled(drafts: Partial<Record<HelpLanguage, DraftVersion>>): HelpLanguage[] {
  return HELP_LANGUAGES.filter((l) => {
    const d = drafts[l];
    if (!d) return l === 'zh-CN';
    return !d.title.trim() && (l === 'zh-CN' || !bodyIsEmpty(d.body));
  });
}
