import type { SharesConfig } from '../../config.js';

/**
 * One quote as a provider answers it. `time` is when the price was struck (ISO 8601), not when
 * we asked: screens mark a quote older than STALE_MS as stale.
 */
export interface ProviderQuote {
  symbol: string;
  name: string | null;
  price: number;
  /** Change against the previous close, in the quote's currency (null when the provider has none). */
  change: number | null;
  /** Change against the previous close in percent. */
  changePercent: number | null;
  currency: string | null;
  time: string;
}

/**
 * A source of share prices. Providers are outside services: a failure or an unknown symbol is
 * absent from the answer (the component then shows nothing for it), never a made-up price.
 */
export interface SharesProvider {
  readonly name: string;
  quotes(symbols: readonly string[], signal: AbortSignal): Promise<Map<string, ProviderQuote>>;
}

/** Symbols as screens write them: exchange suffix upper case (600519.SH, 0700.HK, AAPL). */
export function normalizeSymbol(symbol: string): string {
  return symbol.trim().toUpperCase();
}

function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/**
 * The generic HTTP JSON quote service (SHARES_PROVIDER=http), documented in docs/operations.md:
 *
 *   GET {SHARES_URL}/quotes?symbols=600519.SH,0700.HK,AAPL
 *   Authorization: Bearer {SHARES_KEY}            (when SHARES_KEY is set)
 *   200 {"quotes":[{"symbol":"AAPL","name":"Apple","price":189.5,"change":-1.2,
 *                   "changePercent":-0.63,"currency":"USD","time":"2026-11-28T21:00:00Z"}]}
 *
 * Only `symbol`, `price` and `time` are required; a quote lacking one of them is dropped.
 */
export function httpSharesProvider(config: SharesConfig): SharesProvider {
  return {
    name: 'http',
    async quotes(symbols, signal) {
      const url = new URL(`${config.url}/quotes`);
      url.searchParams.set('symbols', symbols.join(','));
      const res = await fetch(url, {
        signal,
        headers: { accept: 'application/json', ...(config.key ? { authorization: `Bearer ${config.key}` } : {}) },
      });
      if (!res.ok) throw new Error(`quote service answered HTTP ${res.status}`);
      const body = (await res.json()) as { quotes?: unknown };
      const out = new Map<string, ProviderQuote>();
      if (!Array.isArray(body.quotes)) return out;
      for (const raw of body.quotes as Record<string, unknown>[]) {
        if (!raw || typeof raw !== 'object') continue;
        const price = num(raw.price);
        const time = typeof raw.time === 'string' ? new Date(raw.time) : null;
        if (typeof raw.symbol !== 'string' || price === null || !time || Number.isNaN(time.getTime())) continue;
        const symbol = normalizeSymbol(raw.symbol);
        out.set(symbol, {
          symbol,
          name: typeof raw.name === 'string' ? raw.name : null,
          price,
          change: num(raw.change),
          changePercent: num(raw.changePercent),
          currency: typeof raw.currency === 'string' ? raw.currency : null,
          time: time.toISOString(),
        });
      }
      return out;
    },
  };
}

/** The provider the configuration names, or null for 'none'. */
export function sharesProviderFor(config: SharesConfig): SharesProvider | null {
  return config.provider === 'http' ? httpSharesProvider(config) : null;
}
