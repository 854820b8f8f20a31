import { and, count, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { manageWhere, type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { deviceGroups, devices, deviceTags, type tagCategories, type tags } from '../../db/schema/index.js';
import { deviceGroupScope } from '../devices/groupScope.js';
import { deviceScope } from '../devices/repository.js';

/** The groups among `ids` the caller can see, id to name. */
export async function visibleGroupIds(
  db: Executor,
  caller: ScopeSubject,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: deviceGroups.id, name: deviceGroups.name })
    .from(deviceGroups)
    .where(and(scopeWhere(caller, deviceGroupScope), inArray(deviceGroups.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The groups among `ids` the caller may change and share (auth/scope.ts manageWhere). */
export async function manageableGroupIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: deviceGroups.id })
    .from(deviceGroups)
    .where(and(manageWhere(caller, deviceGroupScope), inArray(deviceGroups.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** The devices among `ids` the caller can see, id to name. */
export async function visibleDeviceIds(
  db: Executor,
  caller: ScopeSubject,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = await db
      .select({ id: devices.id, name: devices.name })
      .from(devices)
      .where(and(scopeWhere(caller, deviceScope), inArray(devices.id, ids.slice(i, i + 5000))));
    for (const r of rows) out.set(r.id, r.name);
  }
  return out;
}

/** The devices among `ids` the caller may share and regroup (owner, administrator, department-and-below). */
export async function manageableDeviceIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += 5000) {
    const rows = await db
      .select({ id: devices.id })
      .from(devices)
      .where(and(manageWhere(caller, deviceScope), inArray(devices.id, ids.slice(i, i + 5000))));
    for (const r of rows) out.add(r.id);
  }
  return out;
}

/** Per group, how many of its devices the caller can see. */
export async function groupDeviceCounts(db: Executor, caller: ScopeSubject, groupIds: readonly string[]) {
  if (groupIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ groupId: devices.groupId, n: count() })
    .from(devices)
    .where(and(scopeWhere(caller, deviceScope), inArray(devices.groupId, [...groupIds])))
    .groupBy(devices.groupId);
  return new Map(rows.map((r) => [r.groupId as string, r.n]));
}

/** Per tag, how many devices carrying it the caller can see. */
export async function tagDeviceCounts(db: Executor, caller: ScopeSubject, tagIds: readonly string[]) {
  if (tagIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ tagId: deviceTags.tagId, n: count() })
    .from(deviceTags)
    .innerJoin(devices, eq(devices.id, deviceTags.deviceId))
    .where(and(scopeWhere(caller, deviceScope), inArray(deviceTags.tagId, [...tagIds])))
    .groupBy(deviceTags.tagId);
  return new Map(rows.map((r) => [r.tagId, r.n]));
}

/** The visible devices matching `where`, by name (the member lists of the add/edit pages). */
export function visibleDevicesWhere(db: Executor, caller: ScopeSubject, where: SQL) {
  return db
    .select({ id: devices.id, name: devices.name, number: devices.number })
    .from(devices)
    .where(and(scopeWhere(caller, deviceScope), where))
    .orderBy(devices.name, devices.id)
    .limit(5000);
}

/** Whether another object of the enterprise already has the name (case-insensitive). */
export async function nameTaken(
  db: Executor,
  table: typeof deviceGroups | typeof tags | typeof tagCategories,
  entId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const conds: SQL[] = [eq(table.entId, entId), sql`lower(${table.name}) = lower(${name})`];
  if (exceptId) conds.push(ne(table.id, exceptId));
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(and(...conds))
    .limit(1);
  return Boolean(row);
}
