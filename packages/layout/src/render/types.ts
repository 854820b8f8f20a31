import type { ButtonAction, LayoutComponent } from '../schema.js';

/** What the host knows about a material the document refers to (resolved by the server). */
export interface RenderMaterial {
  url: string;
  type: string;
  width?: number | null;
  height?: number | null;
  /** Seconds (video, audio). */
  duration?: number | null;
  thumbUrl?: string | null;
  name?: string;
}

/** id -> material: a Map or a plain object. */
export type MaterialLookup = ReadonlyMap<string, RenderMaterial> | Readonly<Record<string, RenderMaterial>>;

/** A reading from the server's weather provider (never invented: absent when there is none). */
export interface WeatherReading {
  city: string;
  /** Degrees Celsius. */
  temperature: number;
  /** The provider's condition text, already in the viewer's language. */
  condition: string;
  high?: number | null;
  low?: number | null;
  humidity?: number | null;
  /** ISO time of the observation. */
  observedAt?: string;
}

/** City -> reading (null: the provider has none for that city). */
export type WeatherLookup = Readonly<Record<string, WeatherReading | null>>;

/** A quote of the server's share-price provider (docs/device-protocol.md 2.7.7; never invented). */
export interface ShareQuote {
  symbol: string;
  name: string | null;
  price: number;
  /** Change against the previous close (null when the provider has none). */
  change: number | null;
  changePercent: number | null;
  currency: string | null;
  /** When the price was struck (ISO 8601). */
  time: string;
  /** Older than 15 minutes: not shown. */
  stale: boolean;
}

/** Upper-cased symbol -> quote (null: the provider has none, or there is no provider). */
export type SharesLookup = Readonly<Record<string, ShareQuote | null>>;

export interface RenderContext {
  materials: MaterialLookup;
  locale: string;
  /** Fixed time (ms) for clocks and countdowns; undefined: they tick. */
  now?: number;
  /** Playing (screens, preview) or still (editor canvas, thumbnails). */
  playing: boolean;
  /** Thumbnail mode: no frames, videos or live streams are loaded (their placeholders or posters are drawn). */
  lite?: boolean;
  weather?: WeatherLookup;
  /** Share quotes; a symbol without a fresh quote is not shown (no invented prices). */
  shares?: SharesLookup;
  /** A button was pressed (or fired by itself). */
  onAction?: (action: ButtonAction, component: LayoutComponent) => void;
}

export function lookupMaterial(materials: MaterialLookup, id: string): RenderMaterial | undefined {
  if (typeof (materials as ReadonlyMap<string, RenderMaterial>).get === 'function') {
    return (materials as ReadonlyMap<string, RenderMaterial>).get(id);
  }
  return Object.hasOwn(materials, id) ? (materials as Record<string, RenderMaterial>)[id] : undefined;
}
