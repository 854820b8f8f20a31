import type { STORE_SORT_KEYS } from '@marquee/protocol';
import { and, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { inDeptSubtree, type ScopedColumns } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { departments, devices, stores } from '../../db/schema/index.js';
import { listOrder, newestFirst, type SortRequest } from '../../db/sort.js';

/** The scoped columns of stores (auth/scope.ts): department and owner; stores are not shared. */
export const storeScope: ScopedColumns = { entId: stores.entId, deptId: stores.deptId, ownerId: stores.ownerId };

export type StoreSort = SortRequest<(typeof STORE_SORT_KEYS)[number]>;
export type StoreRow = typeof stores.$inferSelect & { deptName: string | null; deviceCount: number };

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * How many devices stand in the store. The outer column is written out in full: drizzle
 * leaves columns unqualified in a one-table select, where `id` would read as the device's.
 */
export const deviceCountOf =
  sql<number>`(select count(*) from ${devices} where ${devices.storeId} = ${sql.identifier('stores')}.${sql.identifier('id')})`.mapWith(
    Number,
  );

export interface StoreFilter {
  keyword?: string;
  /** A region of any level and where it sits (province, city or district column). */
  region?: { level: 'province' | 'city' | 'district'; code: string };
  dept?: { entId: string; path: string };
}

const REGION_COLUMN = { province: stores.provinceCode, city: stores.cityCode, district: stores.districtCode };

/** One page of the stores matching `scope` and `filter`, newest first unless a sort is asked. */
export async function listStores(
  db: Executor,
  scope: SQL,
  filter: StoreFilter,
  page: { page: number; size: number } & StoreSort,
): Promise<{ total: number; rows: StoreRow[] }> {
  const conds: SQL[] = [scope];
  if (filter.keyword) {
    const p = `%${escapeLike(filter.keyword)}%`;
    conds.push(
      or(
        ilike(stores.name, p),
        ilike(stores.address, p),
        ilike(stores.poi, p),
        ilike(stores.contactName, p),
        ilike(stores.contactPhone, p),
      ) as SQL,
    );
  }
  if (filter.region) conds.push(eq(REGION_COLUMN[filter.region.level], filter.region.code));
  if (filter.dept) conds.push(inDeptSubtree(stores.deptId, filter.dept.entId, filter.dept.path));
  const where = and(...conds);
  const order = listOrder(
    page,
    { name: stores.name, deviceCount: deviceCountOf, createdAt: stores.createdAt },
    stores.id,
    newestFirst(stores.createdAt, stores.id),
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ store: stores, deptName: departments.name, deviceCount: deviceCountOf })
      .from(stores)
      .leftJoin(departments, eq(departments.id, stores.deptId))
      .where(where)
      .orderBy(...order)
      .limit(page.size)
      .offset((page.page - 1) * page.size),
    db.select({ total: count() }).from(stores).where(where),
  ]);
  return { total, rows: rows.map((r) => ({ ...r.store, deptName: r.deptName, deviceCount: r.deviceCount })) };
}

/** The store if `scope` lets the caller see it. */
export async function findVisibleStore(db: Executor, scope: SQL, id: string) {
  const [row] = await db
    .select({ store: stores, deviceCount: deviceCountOf })
    .from(stores)
    .where(and(scope, eq(stores.id, id)));
  return row ? { ...row.store, deviceCount: row.deviceCount } : undefined;
}

/** Whether another store of the enterprise already has this name. */
export async function storeNameTaken(db: Executor, entId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: stores.id })
    .from(stores)
    .where(and(eq(stores.entId, entId), sql`lower(${stores.name}) = lower(${name})`));
  return rows.some((r) => r.id !== exceptId);
}
