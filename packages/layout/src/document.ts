/**
 * The document half of the package (schema, rules, factories, upgrade, messages) without the
 * React renderer: `@marquee/layout/schema`, what the protocol package and the server import.
 */
export * from './factory.js';
export * from './messages.js';
export type {
  MaterialLookup,
  RenderMaterial,
  ShareQuote,
  SharesLookup,
  WeatherLookup,
  WeatherReading,
} from './render/types.js';
export * from './rules.js';
export * from './schema.js';
export * from './upgrade.js';
