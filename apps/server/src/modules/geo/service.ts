import {
  type DeviceLocation,
  ErrorCode,
  type GeoPoint,
  MISSED_HEARTBEATS_OFFLINE,
  type Region,
  type RegionLevel,
  type RegionStat,
} from '@marquee/protocol';
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import { devices, stores } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { deviceScope } from '../devices/repository.js';
import { resolveDeviceTargets } from '../devices/targets.js';
import { childrenOf, codesOf, type Division, pathOf, regionByCode, regionName } from './divisions.js';
import { type GeocodeQuery, geocode } from './geocoder.js';

/** Regions for pickers: the provinces, or the regions below a code. */
export function regionChildren(input: { parentCode?: string }): Region[] {
  const list = childrenOf(input.parentCode);
  if (!list) throw new AppError(ErrorCode.NOT_FOUND);
  return list.map((r) => ({ code: r.code, name: r.name, level: r.level, hasChildren: r.children.length > 0 }));
}

/** Geocodes through the configured provider, else the region data set (run before the transaction). */
export function geocodeFor(query: GeocodeQuery, ctx: CallContext): Promise<GeoPoint | null> {
  return geocode(ctx.services.config.geocoder, query, ctx.log);
}

/** The geocoding answer, or the spec's 'address has no latitude and longitude'. */
export function requirePoint(point: GeoPoint | null): GeoPoint {
  if (!point) throw new AppError(ErrorCode.GEO_NO_COORDINATES);
  return point;
}

/**
 * The point a location input resolves to: the user's own pick (exact, with the picked or
 * written region), else the geocoding done in prepare(); undefined when neither.
 */
export function resolveLocation(
  input: { address: string; regionCode?: string; latitude?: number; longitude?: number },
  geocoded: GeoPoint | null,
): GeoPoint {
  if (input.latitude !== undefined && input.longitude !== undefined) {
    const region = input.regionCode ? regionByCode(input.regionCode) : geocoded ? regionFromCodes(geocoded) : undefined;
    return {
      latitude: input.latitude,
      longitude: input.longitude,
      approximate: false,
      precision: 'exact',
      ...codesOf(region),
      regionName: regionName(region),
      source: 'user',
    };
  }
  return requirePoint(geocoded);
}

function regionFromCodes(p: { provinceCode: string | null; cityCode: string | null; districtCode: string | null }) {
  const code = p.districtCode ?? p.cityCode ?? p.provinceCode;
  return code ? regionByCode(code) : undefined;
}

/** Geocoding only when the user did not pick the point (prepare(): outside the transaction). */
export async function prepareLocation(
  input: { address: string; regionCode?: string; latitude?: number; longitude?: number },
  ctx: CallContext,
): Promise<GeoPoint | null> {
  if (input.latitude !== undefined && input.longitude !== undefined) {
    // The region still comes from the text when none was picked.
    return input.regionCode ? null : geocodeFor({ address: input.address }, ctx);
  }
  return geocodeFor({ address: input.address, regionCode: input.regionCode }, ctx);
}

/** geo.geocode: the point found in prepare(), or the spec's message. */
export function geocodeAddress(input: { regionCode?: string }, geocoded: GeoPoint | null): GeoPoint {
  if (input.regionCode && !regionByCode(input.regionCode)) throw new AppError(ErrorCode.NOT_FOUND);
  return requirePoint(geocoded);
}

/** Where a visible device stands. */
export async function deviceLocation(input: { id: string }, ctx: CallContext): Promise<DeviceLocation> {
  const [row] = await ctx.db
    .select({ d: devices, storeName: stores.name })
    .from(devices)
    .leftJoin(stores, eq(stores.id, devices.storeId))
    .where(and(scopeWhere(ctx.user, deviceScope), eq(devices.id, input.id)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  const d = row.d;
  return {
    id: d.id,
    name: d.name,
    address: d.address,
    poi: d.poi,
    latitude: d.latitude,
    longitude: d.longitude,
    approximate: d.coordApproximate,
    provinceCode: d.provinceCode,
    cityCode: d.cityCode,
    districtCode: d.districtCode,
    regionName: regionName(regionFromCodes(d)),
    storeId: d.storeId,
    storeName: row.storeName,
  };
}

/** Sets where a device stands: the geocoded address, or the point the user picked. */
export async function setDeviceLocation(
  input: { id: string; address: string; poi?: string; regionCode?: string; latitude?: number; longitude?: number },
  ctx: CallContext,
  geocoded: GeoPoint | null,
) {
  const [device] = await resolveDeviceTargets(ctx, { deviceIds: [input.id] });
  if (input.regionCode && !regionByCode(input.regionCode)) throw new AppError(ErrorCode.NOT_FOUND);
  const point = resolveLocation(input, geocoded);
  await ctx.db
    .update(devices)
    .set({
      address: input.address,
      poi: input.poi ?? '',
      latitude: point.latitude,
      longitude: point.longitude,
      coordApproximate: point.approximate,
      provinceCode: point.provinceCode,
      cityCode: point.cityCode,
      districtCode: point.districtCode,
      updatedAt: ctx.now,
    })
    .where(eq(devices.id, device.id));
  await ctx.audit({
    module: 'device',
    action: 'setLocation',
    targetType: 'device',
    targetId: device.id,
    targetName: device.name,
    detail: {
      address: input.address,
      latitude: point.latitude,
      longitude: point.longitude,
      approximate: point.approximate,
      source: point.source,
    },
  });
  return {
    id: device.id,
    latitude: point.latitude,
    longitude: point.longitude,
    approximate: point.approximate,
    precision: point.precision,
    regionName: point.regionName,
  };
}

const LEVEL_COLUMN = { province: devices.provinceCode, city: devices.cityCode, district: devices.districtCode };
const BELOW: Record<RegionLevel, RegionLevel | null> = { province: 'city', city: 'district', district: null };

/**
 * The device map: per region at one level (the provinces, a province's cities, a city's
 * districts), the caller's devices and how many are online (effectiveStatus: online with
 * missed heartbeats counts offline), in one grouped query.
 */
export async function regionStats(input: { parentCode?: string; storeId?: string }, ctx: CallContext) {
  let parent: Division | undefined;
  if (input.parentCode) {
    parent = regionByCode(input.parentCode);
    if (!parent) throw new AppError(ErrorCode.NOT_FOUND);
  }
  const level: RegionLevel = parent ? (BELOW[parent.level] ?? 'district') : 'province';
  const conds: SQL[] = [scopeWhere(ctx.user, deviceScope)];
  if (parent) conds.push(eq(LEVEL_COLUMN[parent.level], parent.code));
  if (input.storeId) conds.push(eq(devices.storeId, input.storeId));
  // A district has nothing below: its own devices form the one row.
  const groupColumn = parent?.level === 'district' ? devices.districtCode : LEVEL_COLUMN[level];
  const stale = sql`greatest(coalesce(${devices.lastSeenAt}, ${devices.statusAt}), ${devices.statusAt}) < ${ctx.now}::timestamptz - make_interval(secs => ${devices.heartbeatSec} * ${MISSED_HEARTBEATS_OFFLINE})`;
  const online = sql<number>`count(*) filter (where ${devices.status} = 'online' and not (${stale}))`.mapWith(Number);
  const rows = await ctx.db
    .select({ code: groupColumn, devices: count(), online })
    .from(devices)
    .where(and(...conds))
    .groupBy(groupColumn);
  const regions: RegionStat[] = [];
  let total = 0;
  let onlineTotal = 0;
  let unlocated = 0;
  for (const r of rows) {
    total += r.devices;
    onlineTotal += r.online;
    const region = r.code ? regionByCode(r.code) : undefined;
    if (!region) {
      unlocated += r.devices;
      continue;
    }
    regions.push({
      code: region.code,
      name: region.name,
      devices: r.devices,
      online: r.online,
      onlineShare: r.devices > 0 ? r.online / r.devices : 0,
    });
  }
  regions.sort((a, b) => b.devices - a.devices || a.code.localeCompare(b.code));
  return {
    level: parent?.level === 'district' ? ('district' as const) : level,
    path: parent ? pathOf(parent).map((r) => ({ code: r.code, name: r.name })) : [],
    total,
    online: onlineTotal,
    unlocated,
    regions,
  };
}
