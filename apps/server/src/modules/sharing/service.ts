import { type AllocateEntry, type AllocateInfo, ErrorCode } from '@marquee/protocol';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { toAllocateInfos, toDeptTree } from './presenter.js';
import { shareableType } from './registry.js';
import {
  accountDisplayName,
  accountNames,
  addOwnAllocations,
  existingAccountIds,
  existingDeptIds,
  listAllocations,
  listEnterpriseAccounts,
  listEnterpriseDepartments,
  removeOwnAllocations,
  replaceOwnAllocations,
} from './repository.js';

/** Spec section 7 'Permission sub-account dropdown': the enterprise's enabled accounts. */
export async function subAccounts(ctx: CallContext) {
  const rows = await listEnterpriseAccounts(ctx.db, ctx.user.entId);
  return rows.map((r) => ({ id: r.id, name: accountDisplayName(r) }));
}

/** Spec section 7 'Permission department tree': trees and dept-child-map. */
export async function deptTree(ctx: CallContext) {
  return toDeptTree(await listEnterpriseDepartments(ctx.db, ctx.user.entId));
}

/** The registered ref-type, or NOT_FOUND (no object of an unknown type exists). */
function typeOf(refType: string) {
  const type = shareableType(refType);
  if (!type) throw new AppError(ErrorCode.NOT_FOUND);
  return type;
}

/** Spec section 7 'Permission allocation': own and inherited allocations of one visible object. */
export async function allocation(
  input: { refType: string; refId: string },
  ctx: CallContext,
): Promise<{ allocateInfos: AllocateInfo[] }> {
  const user = ctx.user;
  const type = typeOf(input.refType);
  if (!(await type.visibleIds(ctx.db, user, [input.refId])).has(input.refId)) throw new AppError(ErrorCode.NOT_FOUND);
  const containers = (await type.containersOf?.(ctx.db, user.entId, input.refId)) ?? [];
  const [rows, departments] = await Promise.all([
    listAllocations(ctx.db, user.entId, [{ refType: input.refType, refId: input.refId }, ...containers]),
    listEnterpriseDepartments(ctx.db, user.entId),
  ]);
  const own = rows.filter((r) => r.refType === input.refType && r.refId === input.refId && !r.inheritedFromType);
  const inherited = rows
    .filter((r) => !own.includes(r))
    .map((r) => ({
      ...r,
      origin: r.inheritedFromType ? `${r.inheritedFromType}:${r.inheritedFromId}` : `${r.refType}:${r.refId}`,
    }));
  const names = await accountNames(
    ctx.db,
    user.entId,
    rows.filter((r) => r.targetType === 2).map((r) => r.targetId),
  );
  return { allocateInfos: toAllocateInfos({ own, inherited, departments, accountNames: names }) };
}

/**
 * Spec section 7 'Permission refresh': replaces the own allocations of every ref id with the
 * given entries, in the call's transaction, with one operation-log row. Every object must be
 * visible (else NOT_FOUND) and shareable by the caller (else NO_PERMISSION); every target
 * must be a department or an account of the enterprise (else NOT_FOUND).
 */
export async function refresh(
  input: { refType: string; refIds: string[]; allocateInfos: AllocateEntry[] },
  ctx: CallContext,
): Promise<null> {
  const user = ctx.user;
  const type = typeOf(input.refType);
  const refIds = [...new Set(input.refIds)];
  const visible = await type.visibleIds(ctx.db, user, refIds);
  if (refIds.some((id) => !visible.has(id))) throw new AppError(ErrorCode.NOT_FOUND);
  const manageable = await type.manageableIds(ctx.db, user, refIds);
  if (refIds.some((id) => !manageable.has(id))) throw new AppError(ErrorCode.NO_PERMISSION);

  const entries = await checkedEntries(ctx, input.allocateInfos);
  await replaceOwnAllocations(ctx.db, {
    entId: user.entId,
    refType: input.refType,
    refIds,
    entries,
    createdBy: user.accountId,
    at: ctx.now,
  });
  await ctx.audit({
    module: 'sharing',
    action: 'refresh',
    targetType: `ref:${input.refType}`,
    targetId: refIds.length === 1 ? refIds[0] : undefined,
    targetName: joinTargetNames(refIds.map((id) => visible.get(id) ?? id)),
    detail: {
      refType: input.refType,
      refIds,
      allocateInfos: entries.map((e) => ({ id: e.targetId, type: e.targetType, deptDataType: e.deptDataType })),
    },
  });
  return null;
}

type Entry = { targetType: 1 | 2; targetId: string; deptDataType: 1 | 2 };

/**
 * One entry per target (accounts are always data type 2, the account alone); every target
 * must be a department or an account of the caller's enterprise, else NOT_FOUND.
 */
async function checkedEntries(ctx: CallContext, infos: readonly AllocateEntry[]): Promise<Entry[]> {
  const byTarget = new Map<string, Entry>();
  for (const e of infos) {
    byTarget.set(`${e.type}:${e.id}`, {
      targetType: e.type,
      targetId: e.id,
      deptDataType: e.type === 2 ? 2 : (e.deptDataType ?? 1),
    });
  }
  const entries = [...byTarget.values()];
  const deptIds = entries.filter((e) => e.targetType === 1).map((e) => e.targetId);
  const accountIds = entries.filter((e) => e.targetType === 2).map((e) => e.targetId);
  const [depts, accounts] = await Promise.all([
    existingDeptIds(ctx.db, ctx.user.entId, deptIds),
    existingAccountIds(ctx.db, ctx.user.entId, accountIds),
  ]);
  if (deptIds.some((id) => !depts.has(id)) || accountIds.some((id) => !accounts.has(id))) {
    throw new AppError(ErrorCode.NOT_FOUND);
  }
  return entries;
}

/**
 * Bulk allocation and recycling (spec section 6: by tag, group, department or table import):
 * the same allocations as `refresh`, but added to (allocate) or removed from (recycle) each
 * object's own ones instead of replacing them. Every object must be visible (else NOT_FOUND)
 * and shareable by the caller (else NO_PERMISSION). The caller writes the operation log
 * (it names how the objects were chosen); answers the objects' names.
 */
export async function changeAllocations(
  ctx: CallContext,
  input: { refType: string; refIds: readonly string[]; action: 'allocate' | 'recycle'; allocateInfos: AllocateEntry[] },
): Promise<{ names: string[]; entries: Entry[] }> {
  const user = ctx.user;
  const type = typeOf(input.refType);
  const refIds = [...new Set(input.refIds)];
  const visible = await type.visibleIds(ctx.db, user, refIds);
  if (refIds.some((id) => !visible.has(id))) throw new AppError(ErrorCode.NOT_FOUND);
  const manageable = await type.manageableIds(ctx.db, user, refIds);
  if (refIds.some((id) => !manageable.has(id))) throw new AppError(ErrorCode.NO_PERMISSION);
  const entries = await checkedEntries(ctx, input.allocateInfos);
  if (input.action === 'allocate') {
    await addOwnAllocations(ctx.db, {
      entId: user.entId,
      refType: input.refType,
      refIds,
      entries,
      createdBy: user.accountId,
      at: ctx.now,
    });
  } else {
    await removeOwnAllocations(ctx.db, { entId: user.entId, refType: input.refType, refIds, targets: entries });
  }
  return { names: refIds.map((id) => visible.get(id) ?? id), entries };
}
