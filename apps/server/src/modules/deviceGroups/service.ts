import { type DeviceGroupRow, ErrorCode, type MemberDevice, RefType } from '@marquee/protocol';
import { and, asc, count, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import { manageWhere, scopeWhere } from '../../auth/scope.js';
import { accounts, departments, deviceGroups, devices } from '../../db/schema/index.js';
import { newestFirst } from '../../db/sort.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { loadVisibleDept } from '../dept/manage.js';
import { deviceGroupScope } from '../devices/groupScope.js';
import { registerShareable } from '../sharing/registry.js';
import { deleteAllocationsOf } from '../sharing/repository.js';
import {
  groupDeviceCounts,
  manageableDeviceIds,
  manageableGroupIds,
  nameTaken,
  visibleDeviceIds,
  visibleDevicesWhere,
  visibleGroupIds,
} from './repository.js';
import { GroupText } from './texts.js';

// Devices ('1') and device groups ('2') are shared through the permission dialog's calls; a
// device inherits the allocations of its group (the container, shown locked on the device).
registerShareable({
  refType: RefType.device,
  visibleIds: visibleDeviceIds,
  manageableIds: manageableDeviceIds,
  async containersOf(db, entId, id) {
    const [row] = await db
      .select({ groupId: devices.groupId })
      .from(devices)
      .where(and(eq(devices.entId, entId), eq(devices.id, id)));
    return row?.groupId ? [{ refType: RefType.deviceGroup, refId: row.groupId }] : [];
  },
});
registerShareable({ refType: RefType.deviceGroup, visibleIds: visibleGroupIds, manageableIds: manageableGroupIds });

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Selects the group rows the list and the detail answer (without device counts). */
function groupRows(ctx: CallContext, where: SQL) {
  return ctx.db
    .select({
      id: deviceGroups.id,
      name: deviceGroups.name,
      remark: deviceGroups.remark,
      deptId: deviceGroups.deptId,
      deptName: departments.name,
      ownerLogin: accounts.loginName,
      ownerReal: accounts.realName,
      hasPermission: sql<boolean>`${manageWhere(ctx.user, deviceGroupScope)}`,
      updatedAt: deviceGroups.updatedAt,
    })
    .from(deviceGroups)
    .leftJoin(departments, eq(departments.id, deviceGroups.deptId))
    .leftJoin(accounts, eq(accounts.id, deviceGroups.ownerId))
    .where(where);
}

type GroupSelect = Awaited<ReturnType<typeof groupRows>>[number];

function toRow(r: GroupSelect, deviceCount: number): DeviceGroupRow {
  return {
    id: r.id,
    name: r.name,
    remark: r.remark,
    deptId: r.deptId,
    deptName: r.deptName ?? '',
    ownerName: (r.ownerReal ?? '').trim() || (r.ownerLogin ?? ''),
    deviceCount,
    hasPermission: Boolean(r.hasPermission),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** A page of the groups the caller can see, newest first, with their visible device counts. */
export async function listGroups(input: { page: number; size: number; name?: string }, ctx: CallContext) {
  const conds: SQL[] = [scopeWhere(ctx.user, deviceGroupScope)];
  if (input.name) conds.push(ilike(deviceGroups.name, `%${escapeLike(input.name)}%`));
  const where = and(...conds) as SQL;
  const [rows, [{ total }]] = await Promise.all([
    groupRows(ctx, where)
      .orderBy(...newestFirst(deviceGroups.updatedAt, deviceGroups.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(deviceGroups).where(where),
  ]);
  const counts = await groupDeviceCounts(
    ctx.db,
    ctx.user,
    rows.map((r) => r.id),
  );
  return { total, data: rows.map((r) => toRow(r, counts.get(r.id) ?? 0)) };
}

/** Every group the caller can see (id, name), by name: pickers and the device list's filter. */
export async function groupOptions(ctx: CallContext) {
  return ctx.db
    .select({ id: deviceGroups.id, name: deviceGroups.name })
    .from(deviceGroups)
    .where(scopeWhere(ctx.user, deviceGroupScope))
    .orderBy(asc(deviceGroups.name), asc(deviceGroups.id))
    .limit(5000);
}

/** One visible group with its visible devices; NOT_FOUND otherwise. */
export async function groupDetail(input: { id: string }, ctx: CallContext) {
  const [row] = await groupRows(ctx, and(scopeWhere(ctx.user, deviceGroupScope), eq(deviceGroups.id, input.id)) as SQL);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, GroupText.groupNotFound);
  const members: MemberDevice[] = await visibleDevicesWhere(ctx.db, ctx.user, eq(devices.groupId, input.id));
  return { ...toRow(row, members.length), devices: members };
}

/** The visible group the caller may change, else NOT_FOUND / NO_PERMISSION. */
async function loadManagedGroup(ctx: CallContext, id: string) {
  const visible = await visibleGroupIds(ctx.db, ctx.user, [id]);
  if (!visible.has(id)) throw new AppError(ErrorCode.NOT_FOUND, GroupText.groupNotFound);
  if (!(await manageableGroupIds(ctx.db, ctx.user, [id])).has(id)) {
    throw new AppError(ErrorCode.NO_PERMISSION, GroupText.groupNotManaged);
  }
  return { id, name: visible.get(id) as string };
}

/**
 * Devices the caller may put in a group: visible (else NOT_FOUND) and its own to manage
 * (else NO_PERMISSION; a device shared with the caller is not the caller's to pass on,
 * and a group passes its devices on to whoever it is shared with).
 */
async function checkAddable(ctx: CallContext, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const visible = await visibleDeviceIds(ctx.db, ctx.user, unique);
  if (unique.some((id) => !visible.has(id))) throw new AppError(ErrorCode.NOT_FOUND);
  const managed = await manageableDeviceIds(ctx.db, ctx.user, unique);
  if (unique.some((id) => !managed.has(id))) throw new AppError(ErrorCode.NO_PERMISSION, GroupText.deviceNotManaged);
  return visible;
}

async function checkName(ctx: CallContext, name: string, exceptId?: string) {
  if (await nameTaken(ctx.db, deviceGroups, ctx.user.entId, name, exceptId)) {
    throw new AppError(ErrorCode.CONFLICT, GroupText.groupNameTaken);
  }
}

async function setGroup(ctx: CallContext, groupId: string | null, ids: readonly string[]) {
  for (let i = 0; i < ids.length; i += 1000) {
    await ctx.db
      .update(devices)
      .set({ groupId, updatedAt: ctx.now })
      .where(and(eq(devices.entId, ctx.user.entId), inArray(devices.id, ids.slice(i, i + 1000))));
  }
}

/** Creates a group in a department of the caller's scope (default its own), optionally with devices. */
export async function createGroup(
  input: { name: string; remark: string; deptId?: string; deviceIds?: string[] },
  ctx: CallContext,
) {
  const deptId = input.deptId ?? ctx.user.deptId;
  if (deptId && deptId !== ctx.user.deptId) await loadVisibleDept(ctx, deptId);
  await checkName(ctx, input.name);
  const members = await checkAddable(ctx, input.deviceIds ?? []);
  const [group] = await ctx.db
    .insert(deviceGroups)
    .values({
      entId: ctx.user.entId,
      deptId: deptId ?? null,
      ownerId: ctx.user.accountId,
      name: input.name,
      remark: input.remark,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: deviceGroups.id });
  await setGroup(ctx, group.id, [...members.keys()]);
  await ctx.audit({
    module: 'deviceGroup',
    action: 'create',
    targetType: 'deviceGroup',
    targetId: group.id,
    targetName: input.name,
    detail: { name: input.name, deptId: deptId ?? null, devices: members.size },
  });
  return { id: group.id };
}

/**
 * Renames a group; with `deviceIds`, its devices the caller can see become exactly those
 * (devices moved in leave their former group; devices the caller cannot see stay).
 */
export async function updateGroup(
  input: { id: string; name: string; remark: string; deviceIds?: string[] },
  ctx: CallContext,
): Promise<null> {
  const group = await loadManagedGroup(ctx, input.id);
  await checkName(ctx, input.name, input.id);
  let change: { added: number; removed: number } | undefined;
  if (input.deviceIds) {
    const wanted = [...new Set(input.deviceIds)];
    const current = await visibleDevicesWhere(ctx.db, ctx.user, eq(devices.groupId, input.id));
    const currentIds = new Set(current.map((d) => d.id));
    const added = wanted.filter((id) => !currentIds.has(id));
    await checkAddable(ctx, added);
    const removed = current.map((d) => d.id).filter((id) => !wanted.includes(id));
    await setGroup(ctx, input.id, added);
    await setGroup(ctx, null, removed);
    change = { added: added.length, removed: removed.length };
  }
  await ctx.db
    .update(deviceGroups)
    .set({ name: input.name, remark: input.remark, updatedAt: ctx.now })
    .where(eq(deviceGroups.id, input.id));
  await ctx.audit({
    module: 'deviceGroup',
    action: 'update',
    targetType: 'deviceGroup',
    targetId: input.id,
    targetName: input.name,
    detail: { from: group.name, name: input.name, ...change },
  });
  return null;
}

/** Deletes groups: their devices stay, ungrouped; what was shared through a group is no longer. */
export async function deleteGroups(input: { ids: string[] }, ctx: CallContext): Promise<null> {
  const ids = [...new Set(input.ids)];
  const visible = await visibleGroupIds(ctx.db, ctx.user, ids);
  if (ids.some((id) => !visible.has(id))) throw new AppError(ErrorCode.NOT_FOUND, GroupText.groupNotFound);
  const managed = await manageableGroupIds(ctx.db, ctx.user, ids);
  if (ids.some((id) => !managed.has(id))) throw new AppError(ErrorCode.NO_PERMISSION, GroupText.groupNotManaged);
  await ctx.db
    .update(devices)
    .set({ groupId: null, updatedAt: ctx.now })
    .where(and(eq(devices.entId, ctx.user.entId), inArray(devices.groupId, ids)));
  await deleteAllocationsOf(ctx.db, ctx.user.entId, RefType.deviceGroup, ids);
  await ctx.db.delete(deviceGroups).where(and(eq(deviceGroups.entId, ctx.user.entId), inArray(deviceGroups.id, ids)));
  await ctx.audit({
    module: 'deviceGroup',
    action: 'delete',
    targetType: 'deviceGroup',
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames(ids.map((id) => visible.get(id) as string)),
    detail: { ids },
  });
  return null;
}

/** Adds devices to a group (moving them out of any other) or removes them from it. */
export async function assignGroup(
  input: { id: string; action: 'add' | 'remove'; deviceIds: string[] },
  ctx: CallContext,
): Promise<{ devices: number }> {
  const group = await loadManagedGroup(ctx, input.id);
  const ids = [...new Set(input.deviceIds)];
  let names: Map<string, string>;
  if (input.action === 'add') {
    names = await checkAddable(ctx, ids);
    await setGroup(ctx, input.id, ids);
  } else {
    names = await visibleDeviceIds(ctx.db, ctx.user, ids);
    if (ids.some((id) => !names.has(id))) throw new AppError(ErrorCode.NOT_FOUND);
    await ctx.db
      .update(devices)
      .set({ groupId: null, updatedAt: ctx.now })
      .where(and(eq(devices.groupId, input.id), inArray(devices.id, ids)));
  }
  await ctx.audit({
    module: 'deviceGroup',
    action: input.action === 'add' ? 'addDevices' : 'removeDevices',
    targetType: 'deviceGroup',
    targetId: input.id,
    targetName: group.name,
    detail: { devices: ids, names: joinTargetNames([...names.values()]) },
  });
  return { devices: ids.length };
}
