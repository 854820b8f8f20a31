import type { LayoutDocument, SharesLookup } from '@marquee/layout';

/** How often a layout's share quotes are asked again (the server keeps a symbol's quote as long). */
export const SHARES_REFRESH_MS = 60_000;
/** A quote struck longer ago than this is not shown (docs/device-protocol.md 2.7.7). */
export const SHARES_STALE_MS = 15 * 60_000;
/** The device call takes at most this many symbols. */
export const MAX_SHARE_SYMBOLS = 20;

/** The symbols of a layout's share-price components, upper-cased, each once, in the order they appear. */
export function shareSymbols(doc: LayoutDocument): string[] {
  const out = new Set<string>();
  for (const page of doc.pages) {
    for (const c of page.components) {
      if (c.type !== 'shares') continue;
      for (const s of c.props.symbols) if (s.trim()) out.add(s.trim().toUpperCase());
    }
  }
  return [...out].slice(0, MAX_SHARE_SYMBOLS);
}

/**
 * The quotes to draw at `now`: the last answer kept while the server cannot be reached, each
 * quote marked stale once its price is older than SHARES_STALE_MS (the renderer leaves those
 * out), so a screen cut off from the server stops showing prices instead of showing old ones.
 */
export function quotesAt(last: SharesLookup | undefined, now: number): SharesLookup | undefined {
  if (!last) return undefined;
  const out: Record<string, SharesLookup[string]> = {};
  for (const [symbol, q] of Object.entries(last)) {
    out[symbol] = q ? { ...q, stale: q.stale || now - Date.parse(q.time) > SHARES_STALE_MS } : null;
  }
  return out;
}
