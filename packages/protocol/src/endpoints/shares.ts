import { z } from 'zod';
import { Perm } from '../permissions.js';
import { endpoint } from './common.js';

/** A symbol as screens write it: 600519.SH, 0700.HK, AAPL, BRK.B. */
export const shareSymbolSchema = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9][A-Za-z0-9.^=-]*$/);

/** A quote of the configured share-price provider (the layout renderer's ShareQuote). */
export const shareQuoteSchema = z.object({
  symbol: z.string(),
  name: z.string().nullable(),
  price: z.number(),
  /** Change against the previous close (null when the provider has none). */
  change: z.number().nullable(),
  changePercent: z.number().nullable(),
  currency: z.string().nullable(),
  /** When the price was struck (ISO 8601). */
  time: z.string(),
  /** The quote is older than 15 minutes: screens mark it so. */
  stale: z.boolean(),
});

export const shareQuotesRequestSchema = z.object({ symbols: z.array(shareSymbolSchema).min(1).max(20) }).strict();
export const shareQuotesAnswerSchema = z.object({
  provider: z.string().nullable(),
  /** By upper-cased symbol; null for a symbol the provider has no quote of, each null without a provider. */
  quotes: z.record(z.string(), shareQuoteSchema.nullable()),
});

/**
 * Share prices for layouts' share-price components (issue 31): quotes from the provider the
 * server is configured with (SHARES_PROVIDER). Without one, `provider` is null and every quote
 * null: the component shows nothing, never invented prices.
 */
export const sharesEndpoints = {
  sharesQuotes: endpoint({
    name: 'shares.quotes',
    path: '/api/template/shares/quotes.shtm',
    auth: 'session',
    permission: Perm.template,
    unscoped: 'quotes of an outside share-price service by symbol: no enterprise data',
    request: shareQuotesRequestSchema,
    response: shareQuotesAnswerSchema,
  }),
} as const;
