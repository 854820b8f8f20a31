import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { endpoint } from './common.js';

/**
 * Geography (issue 9): China's administrative regions (GB/T 2260 codes, province > city >
 * district), geocoding of an address through a pluggable provider, where each device stands
 * (device.setLocation) and the device map by province, city and district. The stores
 * (stores.ts) are located with the same fields.
 */

export const REGION_LEVELS = ['province', 'city', 'district'] as const;
export type RegionLevel = (typeof REGION_LEVELS)[number];
/**
 * How precise a coordinate is: `exact` from a provider's point for the address itself, else
 * the centre of the smallest region known (`district`, `city`, `province`): approximate.
 */
export const GEO_PRECISIONS = ['exact', 'district', 'city', 'province'] as const;
export type GeoPrecision = (typeof GEO_PRECISIONS)[number];

/** A six-digit region code of GB/T 2260 (440305: Nanshan, Shenzhen, Guangdong). */
export const regionCodeSchema = z.string().regex(/^\d{6}$/);
export const latitudeSchema = z.number().min(-90).max(90);
export const longitudeSchema = z.number().min(-180).max(180);
export const ADDRESS_MAX = 200;
export const POI_MAX = 100;

/** An object's id in the geography calls (a device's, a store's). */
export const geoIdSchema = z.string().min(1).max(64);
const id = geoIdSchema;

export const regionSchema = z.object({
  code: z.string(),
  name: z.string(),
  level: z.enum(REGION_LEVELS),
  /** Whether the region has regions below it (a district has none). */
  hasChildren: z.boolean(),
});
export type Region = z.infer<typeof regionSchema>;

/** Where an address is: the point, how precise, and its region codes. */
export const geoPointSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  /** True unless the point is the address's own (a region's centre, a provider's coarse match). */
  approximate: z.boolean(),
  precision: z.enum(GEO_PRECISIONS),
  provinceCode: z.string().nullable(),
  cityCode: z.string().nullable(),
  districtCode: z.string().nullable(),
  /** The region path in words ('广东省 深圳市 南山区'). */
  regionName: z.string(),
  /** Who answered: 'offline' (the region data set), or the configured provider's name. */
  source: z.string(),
});
export type GeoPoint = z.infer<typeof geoPointSchema>;

/**
 * An address with, optionally, what the user picked: a region (it wins over the region read
 * from the text) and a point (both coordinates or neither; given, it is stored as exact).
 */
/** A place's location fields (a device's, a store's): address, POI, region, coordinates. */
export const locationInput = {
  address: z.string().trim().min(1).max(ADDRESS_MAX),
  poi: z.string().trim().max(POI_MAX).optional(),
  regionCode: regionCodeSchema.optional(),
  latitude: latitudeSchema.optional(),
  longitude: longitudeSchema.optional(),
};
export const bothOrNeither = (v: { latitude?: number; longitude?: number }) =>
  (v.latitude === undefined) === (v.longitude === undefined);
export const coordinatesTogether = { message: 'latitudeLongitudeTogether', path: ['latitude'] };

export const deviceLocationSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  poi: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  approximate: z.boolean(),
  provinceCode: z.string().nullable(),
  cityCode: z.string().nullable(),
  districtCode: z.string().nullable(),
  regionName: z.string(),
  storeId: z.string().nullable(),
  storeName: z.string().nullable(),
});
export type DeviceLocation = z.infer<typeof deviceLocationSchema>;

export const regionStatSchema = z.object({
  code: z.string(),
  name: z.string(),
  devices: z.number(),
  online: z.number(),
  /** online / devices, 0 to 1 (0 when there is no device). */
  onlineShare: z.number(),
});
export type RegionStat = z.infer<typeof regionStatSchema>;

/** What a located write answers: the point and how precisely the address placed it. */
export const locatedAnswer = z.object({
  id: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  approximate: z.boolean(),
  precision: z.enum(GEO_PRECISIONS),
  regionName: z.string(),
});

export const geoEndpoints = {
  regionChildren: endpoint({
    name: 'region.children',
    path: '/api/region/children.shtm',
    auth: 'session',
    unscoped: 'the national region data set, the same for everyone',
    errors: [ErrorCode.NOT_FOUND],
    /** The provinces, or the regions directly below `parentCode`. */
    request: z.object({ parentCode: regionCodeSchema.optional() }).strict(),
    response: z.array(regionSchema),
  }),
  geoGeocode: endpoint({
    name: 'geo.geocode',
    path: '/api/geo/geocode.shtm',
    auth: 'session',
    permission: `${Perm.device},${Perm.userStoreManage}`,
    unscoped: 'answers about the address in the request, no enterprise data',
    errors: [ErrorCode.GEO_NO_COORDINATES],
    request: z.object({ address: locationInput.address, regionCode: regionCodeSchema.optional() }).strict(),
    response: geoPointSchema,
  }),
  deviceLocation: endpoint({
    name: 'device.location',
    path: '/api/device/location.shtm',
    auth: 'session',
    permission: Perm.device,
    scope: { object: 'device', kind: 'detail' },
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ id }).strict(),
    response: deviceLocationSchema,
  }),
  deviceSetLocation: endpoint({
    name: 'device.setLocation',
    path: '/api/device/setLocation.shtm',
    auth: 'session',
    permission: Perm.device,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.GEO_NO_COORDINATES],
    /** The address is geocoded unless the user picked the point. */
    request: z
      .object({ id, ...locationInput })
      .strict()
      .refine(bothOrNeither, coordinatesTogether),
    response: locatedAnswer,
  }),
  deviceRegionStats: endpoint({
    name: 'device.regionStats',
    path: '/api/device/map/region.shtm',
    auth: 'session',
    permission: Perm.device,
    scope: { object: 'device', kind: 'count', figure: 'total' },
    errors: [ErrorCode.NOT_FOUND],
    /**
     * Devices and their online share per region: the provinces, or the regions below
     * `parentCode` (a province's cities, a city's districts), of the caller's devices.
     */
    request: z
      .object({
        parentCode: regionCodeSchema.optional(),
        storeId: id.optional(),
      })
      .strict(),
    response: z.object({
      /** The level of `regions`. */
      level: z.enum(REGION_LEVELS),
      /** From the province down to `parentCode` (breadcrumbs). */
      path: z.array(z.object({ code: z.string(), name: z.string() })),
      /** The caller's devices under `parentCode` (all of them without it), located or not. */
      total: z.number(),
      online: z.number(),
      /** Of `total`, those whose region at `level` is not known. */
      unlocated: z.number(),
      regions: z.array(regionStatSchema),
    }),
  }),
} as const;
