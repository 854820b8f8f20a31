import type { AllocateInfo } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkDept,
  checkedDeptIds,
  EMPTY_STATE,
  lockedDeptIds,
  removeTag,
  selectedAccountIds,
  setAccounts,
  setDeptType,
  splitAllocations,
  type TreeFacts,
  tags,
  toRefreshEntries,
  uncheckDept,
} from '../src/components/permission-dialog/rules';

// root -> a -> a1 -> a1x ; root -> b
const facts: TreeFacts = {
  deptChildMap: { root: ['a', 'a1', 'a1x', 'b'], a: ['a1', 'a1x'], a1: ['a1x'], a1x: [], b: [] },
  deptNames: new Map([
    ['root', 'Root'],
    ['a', 'A'],
    ['a1', 'A1'],
    ['a1x', 'A1x'],
    ['b', 'B'],
  ]),
};

const info = (id: string, extra: Partial<AllocateInfo> = {}): AllocateInfo => ({
  id,
  name: id.toUpperCase(),
  isExtends: false,
  allocateType: 1,
  allocateDeptDataType: 1,
  extendsFrom: null,
  ...extra,
});

const own = (s: ReturnType<typeof splitAllocations>) =>
  s.own.map((e) => `${e.allocateType === 1 ? 'd' : 'u'}:${e.id}:${e.deptDataType}`).sort();

describe('permission dialog rules (spec section 4)', () => {
  it('sorts allocations into inherited (locked) and own', () => {
    const s = splitAllocations([
      info('a', { isExtends: true, extendsFrom: '4:folder' }),
      info('b', { allocateDeptDataType: 2 }),
      info('u1', { allocateType: 2, allocateDeptDataType: 1 }),
    ]);
    expect(s.inherited.map((e) => [e.id, e.locked, e.extendsFrom])).toEqual([['a', true, '4:folder']]);
    expect(own(s)).toEqual(['d:b:2', 'u:u1:2']);
    expect([...lockedDeptIds(s)]).toEqual(['a']);
    expect(checkedDeptIds(s).sort()).toEqual(['a', 'b']);
    expect(selectedAccountIds(s)).toEqual(['u1']);
  });

  it('checking a department adds it with type 1 and checks its non-locked descendants', () => {
    const start = splitAllocations([info('a1', { isExtends: true, extendsFrom: '4:folder' })]);
    const s = checkDept(start, 'a', facts);
    expect(own(s)).toEqual(['d:a1x:1', 'd:a:1']);
    expect(s.own.find((e) => e.id === 'a')?.name).toBe('A');
    // A locked department cannot be checked again as own.
    expect(checkDept(s, 'a1', facts)).toBe(s);
    // Checking an existing own type-2 department makes it type 1.
    const typed = checkDept(splitAllocations([info('b', { allocateDeptDataType: 2 })]), 'b', facts);
    expect(own(typed)).toEqual(['d:b:1']);
  });

  it('unchecking removes the department and, if it was type 1, its descendants', () => {
    const s = checkDept(EMPTY_STATE, 'a', facts);
    expect(own(uncheckDept(s, 'a', facts))).toEqual([]);
    const alone = setDeptType(checkDept(EMPTY_STATE, 'b', facts), 'b', 2, facts);
    const withA1 = checkDept(alone, 'a1', facts);
    expect(own(uncheckDept(withA1, 'b', facts))).toEqual(['d:a1:1', 'd:a1x:1']);
    expect(uncheckDept(withA1, 'root', facts)).toBe(withA1);
  });

  it('changing the type to 1 checks descendants, otherwise unchecks them', () => {
    const s = checkDept(EMPTY_STATE, 'a', facts);
    const two = setDeptType(s, 'a', 2, facts);
    expect(own(two)).toEqual(['d:a:2']);
    const one = setDeptType(two, 'a', 1, facts);
    expect(own(one)).toEqual(['d:a1:1', 'd:a1x:1', 'd:a:1']);
  });

  it('drops inherited entries derived from an own department that stops covering them', () => {
    const s = splitAllocations([
      info('a'),
      info('a1', { isExtends: true, extendsFrom: 'a' }),
      info('a1x', { isExtends: true, extendsFrom: 'a' }),
      info('b', { isExtends: true, extendsFrom: '4:folder' }),
    ]);
    expect([...lockedDeptIds(s)].sort()).toEqual(['a1', 'a1x', 'b']);
    const unchecked = uncheckDept(s, 'a', facts);
    expect(unchecked.inherited.map((e) => e.id)).toEqual(['b']);
    const typeTwo = setDeptType(s, 'a', 2, facts);
    expect(typeTwo.inherited.map((e) => e.id)).toEqual(['b']);
    expect(own(typeTwo)).toEqual(['d:a:2']);
  });

  it('selecting accounts adds type-2 entries; tags can be deleted, inherited ones not', () => {
    let s = splitAllocations([info('u0', { allocateType: 2, isExtends: true, extendsFrom: '2:group' })]);
    s = setAccounts(s, [
      { id: 'u1', name: 'Ann' },
      { id: 'u0', name: 'Locked' },
      { id: 'u2', name: 'Bob' },
      { id: 'u1', name: 'Ann' },
    ]);
    expect(own(s)).toEqual(['u:u1:2', 'u:u2:2']);
    s = checkDept(s, 'b', facts);
    expect(tags(s).map((e) => `${e.id}${e.locked ? '!' : ''}`)).toEqual(['u0!', 'b', 'u1', 'u2']);
    s = removeTag(s, { id: 'u1', allocateType: 2 }, facts);
    s = removeTag(s, { id: 'b', allocateType: 1 }, facts);
    expect(own(s)).toEqual(['u:u2:2']);
    expect(removeTag(s, { id: 'u0', allocateType: 2 }, facts)).toBe(s);
    expect(setAccounts(s, []).own).toEqual([]);
    expect(setAccounts(s, []).inherited).toHaveLength(1);
  });

  it('submits the own entries only', () => {
    let s = splitAllocations([info('b', { isExtends: true, extendsFrom: '4:f' })]);
    s = setDeptType(checkDept(s, 'a', facts), 'a', 2, facts);
    s = setAccounts(s, [{ id: 'u1', name: 'Ann' }]);
    expect(toRefreshEntries(s)).toEqual([
      { id: 'a', type: 1, deptDataType: 2 },
      { id: 'u1', type: 2, deptDataType: 2 },
    ]);
  });
});
