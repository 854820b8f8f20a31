import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { listPageSize, optionalPhoneSchema, sortFields } from '../validation.js';
import { endpoint, ok } from './common.js';

/**
 * Geography (issue 9): China's administrative regions (GB/T 2260 codes, province > city >
 * district), geocoding of an address through a pluggable provider, where each device stands
 * (device.setLocation), the stores screens stand in (the spec's 'users, departments and
 * stores' group) and the device map by province, city and district.
 */

export const REGION_LEVELS = ['province', 'city', 'district'] as const;
export type RegionLevel = (typeof REGION_LEVELS)[number];
/**
 * How precise a coordinate is: `exact` from a provider's point for the address itself, else
 * the centre of the smallest region known (`district`, `city`, `province`): approximate.
 */
export const GEO_PRECISIONS = ['exact', 'district', 'city', 'province'] as const;
export type GeoPrecision = (typeof GEO_PRECISIONS)[number];
export const STORE_SORT_KEYS = ['name', 'deviceCount', 'createdAt'] as const;

/** A six-digit region code of GB/T 2260 (440305: Nanshan, Shenzhen, Guangdong). */
export const regionCodeSchema = z.string().regex(/^\d{6}$/);
export const latitudeSchema = z.number().min(-90).max(90);
export const longitudeSchema = z.number().min(-180).max(180);
export const ADDRESS_MAX = 200;
export const POI_MAX = 100;
export const STORE_NAME_MAX = 50;

const id = z.string().min(1).max(64);
const pageSize = listPageSize();

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
const locationInput = {
  address: z.string().trim().min(1).max(ADDRESS_MAX),
  poi: z.string().trim().max(POI_MAX).optional(),
  regionCode: regionCodeSchema.optional(),
  latitude: latitudeSchema.optional(),
  longitude: longitudeSchema.optional(),
};
const bothOrNeither = (v: { latitude?: number; longitude?: number }) =>
  (v.latitude === undefined) === (v.longitude === undefined);
const coordinatesTogether = { message: 'latitudeLongitudeTogether', path: ['latitude'] };

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

export const storeSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  poi: z.string(),
  provinceCode: z.string().nullable(),
  cityCode: z.string().nullable(),
  districtCode: z.string().nullable(),
  regionName: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  approximate: z.boolean(),
  deptId: z.string().nullable(),
  deptName: z.string(),
  contactName: z.string(),
  contactPhone: z.string(),
  deviceCount: z.number(),
  createdAt: z.string(),
});
export type Store = z.infer<typeof storeSchema>;

const storeFields = {
  name: z.string().trim().min(1, 'validation.required').max(STORE_NAME_MAX),
  ...locationInput,
  /** The store's department (within the caller's scope); default the caller's current one. */
  deptId: id.optional(),
  contactName: z.string().trim().max(30).optional(),
  contactPhone: optionalPhoneSchema,
};

const locatedAnswer = z.object({
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

  // Stores
  storeList: endpoint({
    name: 'store.list',
    path: '/api/store/list.shtm',
    auth: 'session',
    permission: Perm.userCompany,
    scope: { object: 'store', kind: 'list' },
    request: z
      .object({
        page: z.number().int().min(1).default(1),
        size: pageSize,
        /** Name, address, POI or contact contains. */
        keyword: z.string().trim().max(64).optional(),
        /** A province, city or district: the stores within it. */
        regionCode: regionCodeSchema.optional(),
        /** The stores of this department (and below when the caller's scope includes them). */
        deptId: id.optional(),
        ...sortFields(STORE_SORT_KEYS),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(storeSchema) }),
  }),
  storeAdd: endpoint({
    name: 'store.add',
    path: '/api/store/add.shtm',
    auth: 'session',
    permission: Perm.userStoreManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.GEO_NO_COORDINATES],
    request: z.object(storeFields).strict().refine(bothOrNeither, coordinatesTogether),
    response: locatedAnswer,
  }),
  storeUpdate: endpoint({
    name: 'store.update',
    path: '/api/store/update.shtm',
    auth: 'session',
    permission: Perm.userStoreManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.GEO_NO_COORDINATES],
    request: z
      .object({ id, ...storeFields })
      .strict()
      .refine(bothOrNeither, coordinatesTogether),
    response: locatedAnswer,
  }),
  storeDelete: endpoint({
    name: 'store.delete',
    path: '/api/store/delete.shtm',
    auth: 'session',
    permission: Perm.userStoreManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    /** Refused while devices stand in the store. */
    request: z.object({ id }).strict(),
    response: ok,
  }),
  storeAssignDevices: endpoint({
    name: 'store.assignDevices',
    path: '/api/store/assignDevices.shtm',
    auth: 'session',
    permission: Perm.userStoreManage,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    /**
     * Places the devices in the store (each device stands in one store: it leaves its
     * previous one) and gives them the store's address and point; `storeId` null takes them
     * out of their store.
     */
    request: z.object({ storeId: id.nullable(), deviceIds: z.array(id).min(1).max(500) }).strict(),
    response: z.object({ moved: z.number() }),
  }),
} as const;
