import type { AllocateEntry, AllocateInfo } from '@marquee/protocol';

/**
 * The permission dialog's rules (spec section 4), as pure functions over the dialog's state,
 * so the component only renders and the rules are unit-tested.
 *
 * - Allocations are sorted into inherited (locked: shown with the inherited suffix, never
 *   removable, their tree nodes disabled) and own (editable).
 * - Checking a department adds it with data type 1 and checks every non-locked descendant.
 * - Unchecking removes it and, if its type was 1, its descendants.
 * - Changing a department's type to 1 checks its descendants; to 2 unchecks them.
 * - Selecting accounts adds type-2 (account) entries. Tags can be deleted, inherited ones not.
 *
 * An inherited entry the server derived from one of the object's own department entries
 * (extendsFrom = that department's id: a type-1 department covers the ones below it) lives
 * only as long as that entry covers it: removing the entry, or changing it to type 2, drops it.
 */

export interface Entry {
  id: string;
  name: string;
  /** 1 department, 2 account. */
  allocateType: 1 | 2;
  /** 1 with sub-departments, 2 this department alone (accounts: 2). */
  deptDataType: 1 | 2;
  locked: boolean;
  /** For inherited entries: the covering department's id or the container `<refType>:<refId>`. */
  extendsFrom: string | null;
}

export interface DialogState {
  inherited: Entry[];
  own: Entry[];
}

/** The department tree's facts the rules need. */
export interface TreeFacts {
  /** Department id -> ids of all its descendants (the server's deptChildMap). */
  deptChildMap: Readonly<Record<string, readonly string[]>>;
  /** Department id -> name. */
  deptNames: ReadonlyMap<string, string>;
}

export const EMPTY_STATE: DialogState = { inherited: [], own: [] };

/** Sorts the server's allocation infos into inherited (locked) and own entries. */
export function splitAllocations(infos: readonly AllocateInfo[]): DialogState {
  const inherited: Entry[] = [];
  const own: Entry[] = [];
  for (const info of infos) {
    const entry: Entry = {
      id: info.id,
      name: info.name,
      allocateType: info.allocateType,
      deptDataType: info.allocateType === 2 ? 2 : info.allocateDeptDataType,
      locked: info.isExtends,
      extendsFrom: info.isExtends ? (info.extendsFrom ?? null) : null,
    };
    (info.isExtends ? inherited : own).push(entry);
  }
  return { inherited, own };
}

const isDept = (e: Entry) => e.allocateType === 1;

/** Departments that cannot be checked or unchecked: the inherited ones. */
export function lockedDeptIds(state: DialogState): Set<string> {
  return new Set(state.inherited.filter(isDept).map((e) => e.id));
}

/** The checked departments of the tree: own and inherited. */
export function checkedDeptIds(state: DialogState): string[] {
  return [...new Set([...state.own, ...state.inherited].filter(isDept).map((e) => e.id))];
}

/** The own department entry of an id, if any. */
export function ownDept(state: DialogState, id: string): Entry | undefined {
  return state.own.find((e) => isDept(e) && e.id === id);
}

function deptEntry(id: string, facts: TreeFacts, deptDataType: 1 | 2 = 1): Entry {
  return { id, name: facts.deptNames.get(id) ?? id, allocateType: 1, deptDataType, locked: false, extendsFrom: null };
}

/** Adds the non-locked descendants of a department as own type-1 entries (those not there yet). */
function addDescendants(state: DialogState, id: string, facts: TreeFacts): DialogState {
  const locked = lockedDeptIds(state);
  const present = new Set(state.own.filter(isDept).map((e) => e.id));
  const added = (facts.deptChildMap[id] ?? [])
    .filter((d) => !locked.has(d) && !present.has(d))
    .map((d) => deptEntry(d, facts));
  return added.length ? { ...state, own: [...state.own, ...added] } : state;
}

/** Removes own descendants of a department, and inherited entries derived from what goes. */
function removeDescendants(state: DialogState, id: string, facts: TreeFacts): DialogState {
  const below = new Set(facts.deptChildMap[id] ?? []);
  const own = state.own.filter((e) => !(isDept(e) && below.has(e.id)));
  return dropDerived({ ...state, own }, new Set([id, ...below]));
}

/** Drops inherited entries derived from departments that no longer cover with type 1. */
function dropDerived(state: DialogState, candidates: Set<string>): DialogState {
  const stillCovering = new Set(state.own.filter((e) => isDept(e) && e.deptDataType === 1).map((e) => e.id));
  const inherited = state.inherited.filter(
    (e) => !(e.extendsFrom && candidates.has(e.extendsFrom) && !stillCovering.has(e.extendsFrom)),
  );
  return inherited.length === state.inherited.length ? state : { ...state, inherited };
}

/** Checking a department: it is added with type 1 and its non-locked descendants are checked. */
export function checkDept(state: DialogState, id: string, facts: TreeFacts): DialogState {
  if (lockedDeptIds(state).has(id)) return state;
  const existing = ownDept(state, id);
  const own = existing
    ? state.own.map((e) => (e === existing ? { ...e, deptDataType: 1 as const } : e))
    : [...state.own, deptEntry(id, facts)];
  return addDescendants({ ...state, own }, id, facts);
}

/** Unchecking a department: it is removed and, if its type was 1, so are its descendants. */
export function uncheckDept(state: DialogState, id: string, facts: TreeFacts): DialogState {
  const existing = ownDept(state, id);
  if (!existing) return state;
  const next = { ...state, own: state.own.filter((e) => e !== existing) };
  return existing.deptDataType === 1 ? removeDescendants(next, id, facts) : dropDerived(next, new Set([id]));
}

/** Changing a department's type: 1 checks its descendants, 2 unchecks them. */
export function setDeptType(state: DialogState, id: string, type: 1 | 2, facts: TreeFacts): DialogState {
  const existing = ownDept(state, id);
  if (!existing) return state;
  const own = state.own.map((e) => (e === existing ? { ...e, deptDataType: type } : e));
  const next = { ...state, own };
  return type === 1 ? addDescendants(next, id, facts) : removeDescendants(next, id, facts);
}

/** The account select's value: the own account entries become exactly `accounts` (type 2). */
export function setAccounts(state: DialogState, accounts: readonly { id: string; name: string }[]): DialogState {
  const lockedAccounts = new Set(state.inherited.filter((e) => !isDept(e)).map((e) => e.id));
  const seen = new Set<string>();
  const chosen: Entry[] = [];
  for (const a of accounts) {
    if (lockedAccounts.has(a.id) || seen.has(a.id)) continue;
    seen.add(a.id);
    chosen.push({ id: a.id, name: a.name, allocateType: 2, deptDataType: 2, locked: false, extendsFrom: null });
  }
  return { ...state, own: [...state.own.filter(isDept), ...chosen] };
}

/** Deleting a tag: a department is unchecked (with its rules), an account removed; inherited tags stay. */
export function removeTag(
  state: DialogState,
  entry: Pick<Entry, 'id' | 'allocateType'>,
  facts: TreeFacts,
): DialogState {
  if (entry.allocateType === 1) return uncheckDept(state, entry.id, facts);
  const own = state.own.filter((e) => !(e.allocateType === 2 && e.id === entry.id));
  return own.length === state.own.length ? state : { ...state, own };
}

/** The own account ids (the account select's value). */
export function selectedAccountIds(state: DialogState): string[] {
  return state.own.filter((e) => !isDept(e)).map((e) => e.id);
}

/** What permission.refresh receives: the own entries (inherited ones are not the object's to set). */
export function toRefreshEntries(state: DialogState): AllocateEntry[] {
  return state.own.map((e) => ({
    id: e.id,
    type: e.allocateType,
    deptDataType: e.allocateType === 2 ? 2 : e.deptDataType,
  }));
}

/** The tags in display order: inherited first, then own; departments before accounts. */
export function tags(state: DialogState): Entry[] {
  const order = (e: Entry) => (e.locked ? 0 : 2) + (isDept(e) ? 0 : 1);
  return [...state.inherited, ...state.own]
    .map((e, i) => ({ e, i }))
    .sort((a, b) => order(a.e) - order(b.e) || a.i - b.i)
    .map(({ e }) => e);
}
