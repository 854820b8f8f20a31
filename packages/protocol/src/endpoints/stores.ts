import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { listPageSize, optionalPhoneSchema, sortFields } from '../validation.js';
import { endpoint, ok } from './common.js';
import {
  bothOrNeither,
  coordinatesTogether,
  geoIdSchema as id,
  locatedAnswer,
  locationInput,
  regionCodeSchema,
} from './geo.js';

/**
 * Stores (the spec's 'users, departments and stores' group): the places screens stand in,
 * each with its address and point (geocoded like a device's location, geo.ts), its
 * department and contact; a device stands in at most one store.
 */

export const STORE_SORT_KEYS = ['name', 'deviceCount', 'createdAt'] as const;
export const STORE_NAME_MAX = 50;

const pageSize = listPageSize();

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

export const storeEndpoints = {
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
