import { isLocale, type Locale } from '@marquee/protocol';
import type { WeatherConfig } from '../../config.js';
import type { CallContext } from '../../protocol/handlers.js';
import type { AppServices } from '../../services.js';
import { type ProviderReading, providerFor, type WeatherProvider } from './provider.js';

/** WMO codes grouped into the conditions a screen shows, in the three languages. */
const CONDITIONS: { codes: number[]; text: Record<Locale, string> }[] = [
  { codes: [0], text: { 'zh-CN': '晴', 'en-US': 'Clear', ja: '晴れ' } },
  { codes: [1, 2], text: { 'zh-CN': '多云', 'en-US': 'Partly cloudy', ja: '晴れ時々曇り' } },
  { codes: [3], text: { 'zh-CN': '阴', 'en-US': 'Overcast', ja: '曇り' } },
  { codes: [45, 48], text: { 'zh-CN': '雾', 'en-US': 'Fog', ja: '霧' } },
  { codes: [51, 53, 55, 56, 57], text: { 'zh-CN': '毛毛雨', 'en-US': 'Drizzle', ja: '霧雨' } },
  { codes: [61, 63, 65, 66, 67, 80, 81, 82], text: { 'zh-CN': '雨', 'en-US': 'Rain', ja: '雨' } },
  { codes: [71, 73, 75, 77, 85, 86], text: { 'zh-CN': '雪', 'en-US': 'Snow', ja: '雪' } },
  { codes: [95, 96, 99], text: { 'zh-CN': '雷阵雨', 'en-US': 'Thunderstorm', ja: '雷雨' } },
];

export function conditionText(code: number, language: string): string {
  const locale: Locale = isLocale(language) ? language : 'zh-CN';
  return CONDITIONS.find((c) => c.codes.includes(code))?.text[locale] ?? '';
}

/** Readings are kept this long per city: screens ask often, the weather changes slowly. */
const TTL_MS = 10 * 60_000;

interface Entry {
  at: number;
  reading: ProviderReading | null;
}

const providers = new WeakMap<WeatherConfig, { provider: WeatherProvider | null; cache: Map<string, Entry> }>();
let override: WeatherProvider | null | undefined;

/** Tests (and embedders) may install a provider instead of the configured one; undefined restores it. */
export function setWeatherProvider(provider: WeatherProvider | null | undefined): void {
  override = provider;
  overrideCache.clear();
}
const overrideCache = new Map<string, Entry>();

function current(config: WeatherConfig) {
  if (override !== undefined) return { provider: override, cache: overrideCache };
  let entry = providers.get(config);
  if (!entry) {
    entry = { provider: providerFor(config), cache: new Map() };
    providers.set(config, entry);
  }
  return entry;
}

async function readCity(
  provider: WeatherProvider,
  cache: Map<string, Entry>,
  city: string,
  now: number,
  timeoutMs: number,
) {
  const key = city.toLowerCase();
  const hit = cache.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.reading;
  let reading: ProviderReading | null = null;
  try {
    reading = await provider.current(city, AbortSignal.timeout(timeoutMs));
  } catch {
    reading = null; // an outside service failing is 'unavailable', not our error
  }
  cache.set(key, { at: now, reading });
  return reading;
}

/**
 * The configured provider's readings by city in `language` (null each without a provider, or
 * for a city it knows nothing of): the console's weather.current and the players' device call
 * (docs/device-protocol.md 2.7.6) share them, cached TTL_MS a city.
 */
export async function weatherReadings(
  services: Pick<AppServices, 'config' | 'clock'>,
  cities: readonly string[],
  language: string,
) {
  const config = services.config.weather;
  const { provider, cache } = current(config);
  const unique = [...new Set(cities)];
  if (!provider) return { provider: null, readings: Object.fromEntries(unique.map((c) => [c, null])) };
  const now = services.clock();
  const readings = await Promise.all(unique.map((c) => readCity(provider, cache, c, now, config.timeoutMs)));
  return {
    provider: provider.name,
    readings: Object.fromEntries(
      unique.map((c, i) => {
        const r = readings[i];
        return [
          c,
          r
            ? {
                city: r.city,
                temperature: r.temperature,
                condition: conditionText(r.code, language),
                high: r.high,
                low: r.low,
                humidity: r.humidity,
                observedAt: r.observedAt,
              }
            : null,
        ];
      }),
    ),
  };
}

/** weather.current: the console's readings (the layout editor's preview, the weather page). */
export function currentWeather(input: { cities: string[] }, ctx: CallContext) {
  return weatherReadings(ctx.services, input.cities, ctx.language);
}
