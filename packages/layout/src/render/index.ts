export { ComponentView, sanitizeLayoutHtml } from './components.js';
export { countdownParts, formatClock } from './format.js';
export { defaultLocale, fitScale, LayoutPage, type LayoutPageProps, resolvePage } from './LayoutPage.js';
export { LayoutPlayer, type LayoutPlayerProps } from './LayoutPlayer.js';
export type {
  MaterialLookup,
  RenderContext,
  RenderMaterial,
  ShareQuote,
  SharesLookup,
  WeatherLookup,
  WeatherReading,
} from './types.js';
export { lookupMaterial } from './types.js';
export { type WatermarkPlace, watermarkPlacement } from './watermark.js';
