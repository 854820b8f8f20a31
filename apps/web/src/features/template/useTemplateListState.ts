import { PAGE_SIZES, TEMPLATE_PAGE_SIZE } from '@marquee/protocol';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The template list's state in the URL (guide convention 7): name, page and size, written
 * with replace so Back leaves the page. Page 1 and the default size 20 (spec section 9) are
 * left out of the URL.
 */
export function useTemplateListState() {
  const [params, setParams] = useSearchParams();
  const pageRaw = Number(params.get('page'));
  const sizeRaw = Number(params.get('size'));
  const page = Number.isInteger(pageRaw) && pageRaw >= 1 ? pageRaw : 1;
  const size = (PAGE_SIZES as readonly number[]).includes(sizeRaw) ? sizeRaw : TEMPLATE_PAGE_SIZE;
  const name = params.get('name') ?? '';

  const update = useCallback(
    (next: { page?: number; size?: number; name?: string }) => {
      setParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          const n = next.name ?? prev.get('name') ?? '';
          if (n) out.set('name', n);
          else out.delete('name');
          const p = next.page ?? page;
          const s = next.size ?? size;
          if (p > 1) out.set('page', String(p));
          else out.delete('page');
          if (s !== TEMPLATE_PAGE_SIZE) out.set('size', String(s));
          else out.delete('size');
          return out;
        },
        { replace: true },
      );
    },
    [page, size, setParams],
  );
  return { page, size, name, update };
}
