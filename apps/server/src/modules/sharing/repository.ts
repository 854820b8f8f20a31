import { and, asc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  type AllocationDeptDataType,
  type AllocationTargetType,
  accounts,
  allocations,
  departments,
} from '../../db/schema/index.js';
import type { RefKey } from './registry.js';

/** The enabled accounts of an enterprise, by name. */
export function listEnterpriseAccounts(db: Executor, entId: string) {
  return db
    .select({ id: accounts.id, loginName: accounts.loginName, realName: accounts.realName })
    .from(accounts)
    .where(and(eq(accounts.entId, entId), eq(accounts.status, 'enabled')))
    .orderBy(asc(accounts.realName), asc(accounts.loginName));
}

export interface DeptRow {
  id: string;
  parentId: string | null;
  name: string;
  path: string;
  depth: number;
}

/** Every department of an enterprise, upper levels first, then by sort order and name. */
export function listEnterpriseDepartments(db: Executor, entId: string): Promise<DeptRow[]> {
  return db
    .select({
      id: departments.id,
      parentId: departments.parentId,
      name: departments.name,
      path: departments.path,
      depth: departments.depth,
    })
    .from(departments)
    .where(eq(departments.entId, entId))
    .orderBy(asc(departments.depth), asc(departments.sort), asc(departments.name), asc(departments.id));
}

export interface AllocationRow {
  refType: string;
  refId: string;
  targetType: AllocationTargetType;
  targetId: string;
  deptDataType: AllocationDeptDataType;
  inheritedFromType: string | null;
  inheritedFromId: string | null;
}

const allocationColumns = {
  refType: allocations.refType,
  refId: allocations.refId,
  targetType: allocations.targetType,
  targetId: allocations.targetId,
  deptDataType: allocations.deptDataType,
  inheritedFromType: allocations.inheritedFromType,
  inheritedFromId: allocations.inheritedFromId,
};

/** Every allocation row of the given objects (own and materialised inherited ones). */
export async function listAllocations(db: Executor, entId: string, refs: readonly RefKey[]): Promise<AllocationRow[]> {
  if (refs.length === 0) return [];
  const byType = new Map<string, string[]>();
  for (const r of refs) byType.set(r.refType, [...(byType.get(r.refType) ?? []), r.refId]);
  const conds: SQL[] = [...byType].map(
    ([refType, ids]) => and(eq(allocations.refType, refType), inArray(allocations.refId, ids)) as SQL,
  );
  const rows = await Promise.all(
    conds.map((cond) =>
      db
        .select(allocationColumns)
        .from(allocations)
        .where(and(eq(allocations.entId, entId), cond))
        .orderBy(asc(allocations.createdAt), asc(allocations.id)),
    ),
  );
  return rows.flat();
}

/** Replaces the own allocations (not materialised inherited ones) of the objects. */
export async function replaceOwnAllocations(
  db: Executor,
  input: {
    entId: string;
    refType: string;
    refIds: readonly string[];
    entries: readonly { targetType: AllocationTargetType; targetId: string; deptDataType: AllocationDeptDataType }[];
    createdBy: string;
    at: Date;
  },
): Promise<void> {
  await db
    .delete(allocations)
    .where(
      and(
        eq(allocations.entId, input.entId),
        eq(allocations.refType, input.refType),
        inArray(allocations.refId, [...input.refIds]),
        isNull(allocations.inheritedFromType),
      ),
    );
  const values = input.refIds.flatMap((refId) =>
    input.entries.map((e) => ({
      entId: input.entId,
      refType: input.refType,
      refId,
      targetType: e.targetType,
      targetId: e.targetId,
      deptDataType: e.deptDataType,
      createdBy: input.createdBy,
      createdAt: input.at,
    })),
  );
  for (let i = 0; i < values.length; i += 1000) {
    await db.insert(allocations).values(values.slice(i, i + 1000));
  }
}

/** The ids among `ids` that are accounts of the enterprise. */
export async function existingAccountIds(db: Executor, entId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.entId, entId), inArray(accounts.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** The ids among `ids` that are departments of the enterprise. */
export async function existingDeptIds(db: Executor, entId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.entId, entId), inArray(departments.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** Names of accounts of the enterprise by id. */
export async function accountNames(db: Executor, entId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: accounts.id, loginName: accounts.loginName, realName: accounts.realName })
    .from(accounts)
    .where(and(eq(accounts.entId, entId), inArray(accounts.id, [...ids])));
  return new Map(rows.map((r) => [r.id, accountDisplayName(r)]));
}

/** How an account is named in the sharing lists: its real name, else its login name. */
export function accountDisplayName(row: { loginName: string; realName: string }): string {
  return row.realName.trim() || row.loginName;
}

/**
 * Removes the allocations that target an account (type 2) or a department (type 1) being
 * deleted, in the deleting transaction: what was shared with it is shared with nobody.
 */
export async function deleteAllocationsTargeting(
  db: Executor,
  entId: string,
  targetType: AllocationTargetType,
  targetId: string,
): Promise<void> {
  await db
    .delete(allocations)
    .where(
      and(eq(allocations.entId, entId), eq(allocations.targetType, targetType), eq(allocations.targetId, targetId)),
    );
}

/**
 * Adds own allocations (bulk allocation by tag, group, department or sheet): each object gains
 * each target; a target it already has keeps its row (and its data type).
 */
export async function addOwnAllocations(
  db: Executor,
  input: {
    entId: string;
    refType: string;
    refIds: readonly string[];
    entries: readonly { targetType: AllocationTargetType; targetId: string; deptDataType: AllocationDeptDataType }[];
    createdBy: string;
    at: Date;
  },
): Promise<void> {
  const values = input.refIds.flatMap((refId) =>
    input.entries.map((e) => ({
      entId: input.entId,
      refType: input.refType,
      refId,
      targetType: e.targetType,
      targetId: e.targetId,
      deptDataType: e.deptDataType,
      createdBy: input.createdBy,
      createdAt: input.at,
    })),
  );
  for (let i = 0; i < values.length; i += 1000) {
    await db
      .insert(allocations)
      .values(values.slice(i, i + 1000))
      .onConflictDoNothing();
  }
}

/** Removes the objects' own allocations to the given targets (bulk recycling). */
export async function removeOwnAllocations(
  db: Executor,
  input: {
    entId: string;
    refType: string;
    refIds: readonly string[];
    targets: readonly { targetType: AllocationTargetType; targetId: string }[];
  },
): Promise<void> {
  for (const type of [1, 2] as const) {
    const ids = input.targets.filter((t) => t.targetType === type).map((t) => t.targetId);
    if (ids.length === 0) continue;
    for (let i = 0; i < input.refIds.length; i += 1000) {
      await db
        .delete(allocations)
        .where(
          and(
            eq(allocations.entId, input.entId),
            eq(allocations.refType, input.refType),
            inArray(allocations.refId, input.refIds.slice(i, i + 1000)),
            eq(allocations.targetType, type),
            inArray(allocations.targetId, ids),
            isNull(allocations.inheritedFromType),
          ),
        );
    }
  }
}

/** Removes every allocation of the objects (they are being deleted). */
export async function deleteAllocationsOf(
  db: Executor,
  entId: string,
  refType: string,
  refIds: readonly string[],
): Promise<void> {
  if (refIds.length === 0) return;
  await db
    .delete(allocations)
    .where(
      and(eq(allocations.entId, entId), eq(allocations.refType, refType), inArray(allocations.refId, [...refIds])),
    );
}
