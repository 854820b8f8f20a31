import type { DOMPurify, WindowLike } from 'dompurify';

let purifier: Promise<DOMPurify> | undefined;

/**
 * Notice HTML is sanitised on write with DOMPurify on a jsdom window. Both load on first
 * use (about 200 ms), which keeps them off the server's start path.
 */
export async function sanitizeHtml(html: string): Promise<string> {
  purifier ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    return createDOMPurify(new JSDOM('').window as unknown as WindowLike);
  })();
  return (await purifier).sanitize(html, { USE_PROFILES: { html: true } });
}
