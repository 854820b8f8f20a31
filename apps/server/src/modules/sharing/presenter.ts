import type { AllocateInfo, DeptTreeNode } from '@marquee/protocol';
import type { AllocationRow, DeptRow } from './repository.js';

/** The department tree (spec: trees) and, per department, the ids of all its descendants. */
export function toDeptTree(rows: readonly DeptRow[]): {
  trees: DeptTreeNode[];
  deptChildMap: Record<string, string[]>;
} {
  const nodes = new Map<string, DeptTreeNode>();
  for (const r of rows) nodes.set(r.id, { id: r.id, name: r.name, children: [], disabled: false });
  const trees: DeptTreeNode[] = [];
  // Rows come upper levels first, so a parent's node exists before its children attach.
  for (const r of rows) {
    const node = nodes.get(r.id) as DeptTreeNode;
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    if (parent) parent.children.push(node);
    else trees.push(node);
  }
  return { trees, deptChildMap: descendantsMap(rows) };
}

/** Department id -> ids of every department below it, from the materialized paths. */
export function descendantsMap(rows: readonly Pick<DeptRow, 'id' | 'path'>[]): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const r of rows) map[r.id] = [];
  for (const r of rows) {
    const lineage = r.path.split('/').filter(Boolean);
    for (const ancestor of lineage.slice(0, -1)) map[ancestor]?.push(r.id);
  }
  return map;
}

/**
 * The allocation infos of one object, own and inherited (spec: allocate-infos). The rule:
 *
 * 1. Own rows (stored for this object, no origin) are editable: isExtends false.
 * 2. Container rows (allocations of a container the object is in, and rows a module
 *    materialised with an origin) are inherited: isExtends true, extendsFrom `<type>:<id>`.
 *    They win over an own row for the same target, which is then redundant.
 * 3. Every department entry of data type 1 (own or inherited) covers the departments below it:
 *    each such sub-department that has no entry of its own comes back inherited, data type 1,
 *    extendsFrom the covering department's id (the nearest one listed first wins).
 *
 * Accounts (allocate-type 2) carry data type 2. Entries are ordered: inherited first in
 * department-tree order, then own in department-tree order, accounts last by name.
 */
export function toAllocateInfos(input: {
  own: readonly AllocationRow[];
  inherited: readonly (AllocationRow & { origin: string })[];
  departments: readonly DeptRow[];
  accountNames: ReadonlyMap<string, string>;
}): AllocateInfo[] {
  const deptById = new Map(input.departments.map((d) => [d.id, d]));
  const deptOrder = new Map(input.departments.map((d, i) => [d.id, i]));
  const key = (type: number, id: string) => `${type}:${id}`;
  const entries = new Map<string, AllocateInfo>();
  const nameOf = (type: number, id: string) => (type === 1 ? deptById.get(id)?.name : input.accountNames.get(id)) ?? id;

  for (const row of input.inherited) {
    if (row.targetType === 1 && !deptById.has(row.targetId)) continue;
    entries.set(key(row.targetType, row.targetId), {
      id: row.targetId,
      name: nameOf(row.targetType, row.targetId),
      isExtends: true,
      allocateType: row.targetType,
      allocateDeptDataType: row.targetType === 1 ? row.deptDataType : 2,
      extendsFrom: row.origin,
    });
  }
  for (const row of input.own) {
    const k = key(row.targetType, row.targetId);
    if (entries.has(k)) continue;
    if (row.targetType === 1 && !deptById.has(row.targetId)) continue;
    entries.set(k, {
      id: row.targetId,
      name: nameOf(row.targetType, row.targetId),
      isExtends: false,
      allocateType: row.targetType,
      allocateDeptDataType: row.targetType === 1 ? row.deptDataType : 2,
      extendsFrom: null,
    });
  }
  // Rule 3, deeper departments first so each sub-department records its nearest covering one.
  const covering = [...entries.values()]
    .filter((e) => e.allocateType === 1 && e.allocateDeptDataType === 1)
    .sort((a, b) => (deptById.get(b.id)?.depth ?? 0) - (deptById.get(a.id)?.depth ?? 0));
  for (const parent of covering) {
    const parentPath = deptById.get(parent.id)?.path;
    if (!parentPath) continue;
    for (const d of input.departments) {
      if (d.id === parent.id || !d.path.startsWith(parentPath)) continue;
      const k = key(1, d.id);
      if (entries.has(k)) continue;
      entries.set(k, {
        id: d.id,
        name: d.name,
        isExtends: true,
        allocateType: 1,
        allocateDeptDataType: 1,
        extendsFrom: parent.id,
      });
    }
  }
  const rank = (e: AllocateInfo) => (e.isExtends ? 0 : 2) + (e.allocateType === 2 ? 4 : 0);
  return [...entries.values()].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.allocateType === 1 ? (deptOrder.get(a.id) ?? 0) - (deptOrder.get(b.id) ?? 0) : a.name.localeCompare(b.name)),
  );
}
