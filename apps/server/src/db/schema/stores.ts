import { boolean, doublePrecision, index, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { createdAt, id, updatedAt } from './columns.js';
import { departments, enterprises } from './tenancy.js';

/**
 * Stores (the spec's 'users, departments and stores' group, issue 9): the places screens
 * stand in. Data-scoped by `dept_id` and `owner_id` (the account that added it); a device
 * stands in at most one store (`devices.store_id`). The point is the address's geocoding
 * (modules/geo): `coord_approximate` when it is a region's centre or a provider's coarse match.
 */
export const stores = pgTable(
  'stores',
  {
    id: id(),
    entId: text('ent_id')
      .notNull()
      .references(() => enterprises.id),
    deptId: text('dept_id').references(() => departments.id),
    ownerId: text('owner_id').references(() => accounts.id),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    poi: text('poi').notNull().default(''),
    /** GB/T 2260 codes of the store's region (modules/geo/divisions.ts). */
    provinceCode: text('province_code'),
    cityCode: text('city_code'),
    districtCode: text('district_code'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    coordApproximate: boolean('coord_approximate').notNull().default(false),
    contactName: text('contact_name').notNull().default(''),
    contactPhone: text('contact_phone').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('stores_ent_created_idx').on(t.entId, t.createdAt.desc(), t.id),
    index('stores_ent_dept_idx').on(t.entId, t.deptId),
    index('stores_ent_region_idx').on(t.entId, t.provinceCode, t.cityCode, t.districtCode),
  ],
);
