import type { WeatherConfig } from '../../config.js';

/** What a weather provider answers for a city (temperatures in °C), or null when it knows none. */
export interface ProviderReading {
  city: string;
  temperature: number;
  /** WMO weather interpretation code (0 clear ... 99 thunderstorm with hail). */
  code: number;
  high: number | null;
  low: number | null;
  humidity: number | null;
  observedAt: string;
}

/**
 * A source of weather data. Providers are outside services: a failure or an unknown city is
 * null (the component then says the data is unavailable), never a made-up reading.
 */
export interface WeatherProvider {
  readonly name: string;
  current(city: string, signal: AbortSignal): Promise<ProviderReading | null>;
}

async function getJson(url: URL, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`weather service answered HTTP ${res.status}`);
  return res.json();
}

/** Open-Meteo (no key): its geocoding finds the city, its forecast gives current and daily values. */
export function openMeteoProvider(config: WeatherConfig): WeatherProvider {
  return {
    name: 'open-meteo',
    async current(city, signal) {
      const geo = new URL('/v1/search', config.geocodingUrl);
      geo.searchParams.set('name', city);
      geo.searchParams.set('count', '1');
      const place = (
        (await getJson(geo, signal)) as { results?: { latitude: number; longitude: number; name: string }[] }
      ).results?.[0];
      if (!place) return null;
      const url = new URL('/v1/forecast', config.url);
      url.searchParams.set('latitude', String(place.latitude));
      url.searchParams.set('longitude', String(place.longitude));
      url.searchParams.set('current', 'temperature_2m,relative_humidity_2m,weather_code');
      url.searchParams.set('daily', 'temperature_2m_max,temperature_2m_min');
      url.searchParams.set('forecast_days', '1');
      url.searchParams.set('timezone', 'auto');
      const body = (await getJson(url, signal)) as {
        current?: { time?: string; temperature_2m?: number; relative_humidity_2m?: number; weather_code?: number };
        daily?: { temperature_2m_max?: number[]; temperature_2m_min?: number[] };
      };
      const c = body.current;
      if (!c || typeof c.temperature_2m !== 'number') return null;
      return {
        city: place.name,
        temperature: c.temperature_2m,
        code: c.weather_code ?? -1,
        high: body.daily?.temperature_2m_max?.[0] ?? null,
        low: body.daily?.temperature_2m_min?.[0] ?? null,
        humidity: c.relative_humidity_2m ?? null,
        observedAt: c.time ?? new Date().toISOString(),
      };
    },
  };
}

/** The provider the configuration names, or null for 'none'. */
export function providerFor(config: WeatherConfig): WeatherProvider | null {
  return config.provider === 'open-meteo' ? openMeteoProvider(config) : null;
}
