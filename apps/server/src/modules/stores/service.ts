import { ErrorCode, type endpoints, type GeoPoint, type Store } from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { scopeWhere } from '../../auth/scope.js';
import { devices, stores } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { loadVisibleDept } from '../dept/manage.js';
import { resolveDeviceTargets } from '../devices/targets.js';
import { regionByCode, regionName } from '../geo/divisions.js';
import { resolveLocation } from '../geo/service.js';
import {
  findVisibleStore,
  listStores,
  type StoreRow,
  type StoreSort,
  storeNameTaken,
  storeScope,
} from './repository.js';
import { fill, StoreText } from './texts.js';

function present(row: StoreRow): Store {
  const code = row.districtCode ?? row.cityCode ?? row.provinceCode;
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    poi: row.poi,
    provinceCode: row.provinceCode,
    cityCode: row.cityCode,
    districtCode: row.districtCode,
    regionName: regionName(code ? regionByCode(code) : undefined),
    latitude: row.latitude,
    longitude: row.longitude,
    approximate: row.coordApproximate,
    deptId: row.deptId,
    deptName: row.deptName ?? '',
    contactName: row.contactName,
    contactPhone: row.contactPhone,
    deviceCount: row.deviceCount,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The stores the caller sees (department scope and owner), filtered. */
export async function listVisibleStores(
  input: { page: number; size: number; keyword?: string; regionCode?: string; deptId?: string } & StoreSort,
  ctx: CallContext,
) {
  const { page, size, sort, order, keyword, regionCode, deptId } = input;
  const region = regionCode ? regionByCode(regionCode) : undefined;
  if (regionCode && !region) return { total: 0, data: [] };
  let dept: { entId: string; path: string } | undefined;
  if (deptId) {
    const row = await loadVisibleDept(ctx, deptId).catch(() => null);
    if (!row) return { total: 0, data: [] };
    dept = { entId: ctx.user.entId, path: row.path };
  }
  const { total, rows } = await listStores(
    ctx.db,
    scopeWhere(ctx.user, storeScope),
    { keyword, region: region ? { level: region.level, code: region.code } : undefined, dept },
    { page, size, sort, order },
  );
  return { total, data: rows.map(present) };
}

async function requireStore(ctx: CallContext, id: string) {
  const store = await findVisibleStore(ctx.db, scopeWhere(ctx.user, storeScope), id);
  if (!store) throw new AppError(ErrorCode.NOT_FOUND, StoreText.notFound);
  return store;
}

type StoreInput = z.infer<typeof endpoints.storeAdd.request>;

async function storeValues(input: StoreInput, ctx: CallContext, geocoded: GeoPoint | null, exceptId?: string) {
  if (input.regionCode && !regionByCode(input.regionCode))
    throw new AppError(ErrorCode.NOT_FOUND, StoreText.regionNotFound);
  if (await storeNameTaken(ctx.db, ctx.user.entId, input.name, exceptId)) {
    throw new AppError(ErrorCode.CONFLICT, StoreText.nameTaken);
  }
  const deptId = input.deptId ?? ctx.user.deptId;
  if (deptId && deptId !== ctx.user.deptId) await loadVisibleDept(ctx, deptId);
  const point = resolveLocation(input, geocoded);
  return {
    point,
    values: {
      name: input.name,
      address: input.address,
      poi: input.poi ?? '',
      provinceCode: point.provinceCode,
      cityCode: point.cityCode,
      districtCode: point.districtCode,
      latitude: point.latitude,
      longitude: point.longitude,
      coordApproximate: point.approximate,
      deptId: deptId ?? null,
      contactName: input.contactName ?? '',
      contactPhone: input.contactPhone ?? '',
      updatedAt: ctx.now,
    },
  };
}

const located = (id: string, p: GeoPoint) => ({
  id,
  latitude: p.latitude,
  longitude: p.longitude,
  approximate: p.approximate,
  precision: p.precision,
  regionName: p.regionName,
});

/** Adds a store of the caller's enterprise, located by its address (or the point picked). */
export async function addStore(input: StoreInput, ctx: CallContext, geocoded: GeoPoint | null) {
  const { point, values } = await storeValues(input, ctx, geocoded);
  const [row] = await ctx.db
    .insert(stores)
    .values({ ...values, entId: ctx.user.entId, ownerId: ctx.user.accountId, createdAt: ctx.now })
    .returning({ id: stores.id });
  await ctx.audit({
    module: 'store',
    action: 'add',
    targetType: 'store',
    targetId: row.id,
    targetName: input.name,
    detail: { address: input.address, approximate: point.approximate, source: point.source },
  });
  return located(row.id, point);
}

/** Edits a visible store; the devices standing in it move with its address. */
export async function updateStore(
  input: z.infer<typeof endpoints.storeUpdate.request>,
  ctx: CallContext,
  geocoded: GeoPoint | null,
) {
  const store = await requireStore(ctx, input.id);
  const { point, values } = await storeValues(input, ctx, geocoded, store.id);
  await ctx.db.update(stores).set(values).where(eq(stores.id, store.id));
  if (store.address !== values.address || store.latitude !== values.latitude || store.longitude !== values.longitude) {
    await ctx.db.update(devices).set(deviceLocationOf(values, ctx.now)).where(eq(devices.storeId, store.id));
  }
  await ctx.audit({
    module: 'store',
    action: 'update',
    targetType: 'store',
    targetId: store.id,
    targetName: input.name,
    detail: { address: input.address, approximate: point.approximate, source: point.source },
  });
  return located(store.id, point);
}

/** Deletes a visible store; refused while devices stand in it. */
export async function deleteStore(input: { id: string }, ctx: CallContext) {
  const store = await requireStore(ctx, input.id);
  if (store.deviceCount > 0) {
    throw new AppError(ErrorCode.CONFLICT, fill(StoreText.hasDevices, { count: store.deviceCount }));
  }
  await ctx.db.delete(stores).where(eq(stores.id, store.id));
  await ctx.audit({
    module: 'store',
    action: 'delete',
    targetType: 'store',
    targetId: store.id,
    targetName: store.name,
  });
  return null;
}

function deviceLocationOf(
  s: Pick<
    typeof stores.$inferSelect,
    'address' | 'poi' | 'latitude' | 'longitude' | 'coordApproximate' | 'provinceCode' | 'cityCode' | 'districtCode'
  >,
  now: Date,
) {
  return {
    address: s.address,
    poi: s.poi,
    latitude: s.latitude,
    longitude: s.longitude,
    coordApproximate: s.coordApproximate,
    provinceCode: s.provinceCode,
    cityCode: s.cityCode,
    districtCode: s.districtCode,
    updatedAt: now,
  };
}

/**
 * Places visible devices in a visible store (each device stands in one store, so it leaves
 * its previous one) and gives them the store's address and point; null takes them out.
 */
export async function assignDevices(input: { storeId: string | null; deviceIds: string[] }, ctx: CallContext) {
  const targets = await resolveDeviceTargets(ctx, { deviceIds: input.deviceIds });
  const ids = targets.map((d) => d.id);
  if (input.storeId === null) {
    await ctx.db
      .update(devices)
      .set({ storeId: null, updatedAt: ctx.now })
      .where(and(eq(devices.entId, ctx.user.entId), inArray(devices.id, ids)));
    await ctx.audit({
      module: 'store',
      action: 'removeDevices',
      targetType: 'device',
      targetId: ids.length === 1 ? ids[0] : undefined,
      targetName: joinTargetNames(targets.map((d) => d.name)),
      detail: { devices: ids },
    });
    return { moved: ids.length };
  }
  const store = await requireStore(ctx, input.storeId);
  await ctx.db
    .update(devices)
    .set({ storeId: store.id, ...deviceLocationOf(store, ctx.now) })
    .where(and(eq(devices.entId, ctx.user.entId), inArray(devices.id, ids)));
  await ctx.audit({
    module: 'store',
    action: 'assignDevices',
    targetType: 'store',
    targetId: store.id,
    targetName: store.name,
    detail: { devices: ids, deviceNames: targets.map((d) => d.name) },
  });
  return { moved: ids.length };
}
