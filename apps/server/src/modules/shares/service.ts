import type { SharesConfig } from '../../config.js';
import type { AppServices } from '../../services.js';
import { normalizeSymbol, type ProviderQuote, type SharesProvider, sharesProviderFor } from './provider.js';

/** Quotes are kept this long per symbol: screens ask every minute, many screens the same symbols. */
export const SHARES_TTL_MS = 60_000;
/** A quote struck longer ago than this is marked stale on screen (markets closed, feed stopped). */
export const SHARES_STALE_MS = 15 * 60_000;

interface Entry {
  at: number;
  quote: ProviderQuote | null;
}

const providers = new WeakMap<SharesConfig, { provider: SharesProvider | null; cache: Map<string, Entry> }>();
let override: SharesProvider | null | undefined;
const overrideCache = new Map<string, Entry>();

/** Tests (and embedders) may install a provider instead of the configured one; undefined restores it. */
export function setSharesProvider(provider: SharesProvider | null | undefined): void {
  override = provider;
  overrideCache.clear();
}

function current(config: SharesConfig) {
  if (override !== undefined) return { provider: override, cache: overrideCache };
  let entry = providers.get(config);
  if (!entry) {
    entry = { provider: sharesProviderFor(config), cache: new Map() };
    providers.set(config, entry);
  }
  return entry;
}

export interface ShareQuote extends ProviderQuote {
  /** The quote's time is older than SHARES_STALE_MS at the moment of answering. */
  stale: boolean;
}

/**
 * The configured provider's quotes by symbol (null each without a provider, for a symbol it does
 * not know, or when it fails): the console's shares.quotes and the players' device call
 * (docs/device-protocol.md 2.7.7) share them, cached SHARES_TTL_MS a symbol.
 */
export async function shareQuotes(services: Pick<AppServices, 'config' | 'clock'>, symbols: readonly string[]) {
  const config = services.config.shares;
  const { provider, cache } = current(config);
  const unique = [...new Set(symbols.map(normalizeSymbol))];
  if (!provider) return { provider: null, quotes: Object.fromEntries(unique.map((s) => [s, null])) };
  const now = services.clock();
  const missing = unique.filter((s) => {
    const hit = cache.get(s);
    return !hit || now - hit.at >= SHARES_TTL_MS;
  });
  if (missing.length > 0) {
    let got = new Map<string, ProviderQuote>();
    try {
      got = await provider.quotes(missing, AbortSignal.timeout(config.timeoutMs));
    } catch {
      got = new Map(); // an outside service failing is 'unavailable', not our error
    }
    for (const s of missing) cache.set(s, { at: now, quote: got.get(s) ?? null });
  }
  return {
    provider: provider.name,
    quotes: Object.fromEntries(
      unique.map((s) => {
        const q = cache.get(s)?.quote ?? null;
        return [s, q ? { ...q, stale: now - Date.parse(q.time) > SHARES_STALE_MS } : null];
      }),
    ),
  };
}
