import type { GeoPoint, GeoPrecision } from '@marquee/protocol';
import type { GeocoderConfig } from '../../config.js';
import { centreOf, codesOf, type Division, regionByCode, regionName, regionOfAddress } from './divisions.js';

/**
 * Geocoding: an address to a point. A provider answers what it found, or null; `geocode`
 * asks the configured HTTP provider first (GEOCODER), and with none configured, a provider
 * that fails or finds nothing, answers what the region data set honestly gives: the centre
 * of the smallest region the address names (its district's when the data has it, else its
 * city's or province's), marked approximate. Null means no coordinate can be found (the
 * spec's 'address has no latitude and longitude').
 */
export interface GeocodeQuery {
  address: string;
  /** A region the user picked: it wins over the one read from the text. */
  regionCode?: string;
}

export interface ProviderAnswer {
  latitude: number;
  longitude: number;
  /** The provider's own match is coarser than the address (a district, a city). */
  approximate: boolean;
  /** A GB/T 2260 code the provider gives for the address (AMap's adcode), if any. */
  regionCode?: string;
}

export interface GeocodeProvider {
  readonly name: string;
  geocode(query: GeocodeQuery, signal: AbortSignal): Promise<ProviderAnswer | null>;
}

const finite = (v: unknown) => (typeof v === 'number' || typeof v === 'string') && Number.isFinite(Number(v));

async function getJson(url: URL, signal: AbortSignal, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(url, { signal, headers: { accept: 'application/json', ...headers } });
  if (!res.ok) throw new Error(`geocoder answered HTTP ${res.status}`);
  return res.json();
}

/**
 * AMap's geocoding web service (`/v3/geocode/geo`): a `location` "lng,lat" (GCJ-02, the
 * coordinate system of maps of China) and the `adcode` of the address's district; a match
 * at `level` province, city or district is approximate.
 */
export function amapProvider(config: GeocoderConfig): GeocodeProvider {
  return {
    name: 'amap',
    async geocode(query, signal) {
      const url = new URL('/v3/geocode/geo', config.url);
      url.searchParams.set('key', config.key);
      url.searchParams.set('address', query.address);
      url.searchParams.set('output', 'JSON');
      const region = query.regionCode ? regionByCode(query.regionCode) : undefined;
      if (region) url.searchParams.set('city', region.code);
      const body = (await getJson(url, signal)) as {
        status?: string;
        geocodes?: { location?: string; adcode?: string; level?: string }[];
      };
      if (body.status !== '1') throw new Error('geocoder refused the request');
      const first = body.geocodes?.[0];
      const [lng, lat] = (first?.location ?? '').split(',');
      if (!first || !finite(lng) || !finite(lat)) return null;
      return {
        latitude: Number(lat),
        longitude: Number(lng),
        approximate: ['国家', '省', '市', '区县', '开发区', '乡镇'].includes(first.level ?? ''),
        regionCode: /^\d{6}$/.test(first.adcode ?? '') ? first.adcode : undefined,
      };
    },
  };
}

/**
 * A Nominatim search service (`/search?format=jsonv2`): WGS-84 points; a match whose
 * `addresstype` is an area (city, county, state...) is approximate.
 */
export function nominatimProvider(config: GeocoderConfig): GeocodeProvider {
  const areas = ['country', 'state', 'province', 'region', 'county', 'city', 'district', 'municipality', 'town'];
  return {
    name: 'nominatim',
    async geocode(query, signal) {
      const url = new URL('/search', config.url);
      url.searchParams.set('q', query.address);
      url.searchParams.set('format', 'jsonv2');
      url.searchParams.set('limit', '1');
      if (config.key) url.searchParams.set('key', config.key);
      const body = (await getJson(url, signal, { 'user-agent': 'Marquee console geocoding' })) as {
        lat?: string;
        lon?: string;
        addresstype?: string;
      }[];
      const first = Array.isArray(body) ? body[0] : undefined;
      if (!first || !finite(first.lat) || !finite(first.lon)) return null;
      return {
        latitude: Number(first.lat),
        longitude: Number(first.lon),
        approximate: areas.includes(first.addresstype ?? ''),
      };
    },
  };
}

/** The configured HTTP provider, or null (GEOCODER=none). */
export function httpProvider(config: GeocoderConfig): GeocodeProvider | null {
  if (config.provider === 'amap') return amapProvider(config);
  if (config.provider === 'nominatim') return nominatimProvider(config);
  return null;
}

function answer(
  region: Division | undefined,
  point: { latitude: number; longitude: number },
  precision: GeoPrecision,
  source: string,
): GeoPoint {
  return {
    latitude: point.latitude,
    longitude: point.longitude,
    approximate: precision !== 'exact',
    precision,
    ...codesOf(region),
    regionName: regionName(region),
    source,
  };
}

/** What the region data set gives for an address: its smallest named region's nearest centre. */
export function offlineGeocode(query: GeocodeQuery): GeoPoint | null {
  const region = (query.regionCode && regionByCode(query.regionCode)) || regionOfAddress(query.address);
  if (!region) return null;
  const centre = centreOf(region);
  if (!centre) return null;
  return answer(region, { longitude: centre.point[0], latitude: centre.point[1] }, centre.level, 'offline');
}

export interface GeocodeLog {
  warn(obj: object, msg: string): void;
}

/**
 * The point of an address: the configured provider's (its region from the provider's code,
 * the user's pick or the text), else the offline answer; null when neither finds one.
 * A provider's failure (timeout, HTTP error, refusal) is logged and falls back offline.
 */
export async function geocode(
  config: GeocoderConfig,
  query: GeocodeQuery,
  log?: GeocodeLog,
  provider: GeocodeProvider | null = httpProvider(config),
): Promise<GeoPoint | null> {
  if (provider) {
    try {
      const found = await provider.geocode(query, AbortSignal.timeout(config.timeoutMs));
      if (found) {
        const region =
          (query.regionCode && regionByCode(query.regionCode)) ||
          (found.regionCode && regionByCode(found.regionCode)) ||
          regionOfAddress(query.address);
        const precision: GeoPrecision = found.approximate ? (region?.level ?? 'province') : 'exact';
        return answer(region, found, precision, provider.name);
      }
    } catch (error) {
      log?.warn({ err: error, provider: provider.name }, 'geocoding provider failed; using the region data set');
    }
  }
  return offlineGeocode(query);
}
