import { describe, expect, it } from 'vitest';
import { PlannedStatements, plannedStatements } from '../src/db/planned.js';

/** The statements kept per shape (db/planned.ts): least recently used out, one set per database. */
describe('kept statements', () => {
  it('makes a statement once per key and drops the least recently used past the limit', () => {
    const kept = new PlannedStatements<string>(2);
    let made = 0;
    const get = (key: string) => kept.get(key, () => `${key}#${++made}`);
    expect(get('a')).toBe('a#1');
    expect(get('b')).toBe('b#2');
    expect(get('a')).toBe('a#1');
    // 'b' is now the least recently used: 'c' pushes it out, 'a' stays.
    expect(get('c')).toBe('c#3');
    expect(kept.size).toBe(2);
    expect(get('a')).toBe('a#1');
    expect(get('b')).toBe('b#4');
  });

  it('peeks without a use and sets a value in place of the one kept (the counts a scope saw last)', () => {
    const kept = new PlannedStatements<string>(2);
    kept.set('a', 'a1');
    kept.set('b', 'b1');
    // A peek is no use: 'a' stays the least recently used and goes first.
    expect(kept.peek('a')).toBe('a1');
    expect(kept.peek('z')).toBeUndefined();
    kept.set('c', 'c1');
    expect(kept.peek('a')).toBeUndefined();
    // A set replaces the value and counts as a use: 'c' goes before 'b'.
    kept.set('b', 'b2');
    expect(kept.size).toBe(2);
    kept.set('d', 'd1');
    expect(kept.peek('c')).toBeUndefined();
    expect(kept.peek('b')).toBe('b2');
  });

  it('keeps the statements of each database apart', () => {
    const one = {};
    const other = {};
    expect(plannedStatements(one, 'list', 4)).toBe(plannedStatements(one, 'list', 4));
    expect(plannedStatements(one, 'list', 4)).not.toBe(plannedStatements(other, 'list', 4));
    expect(plannedStatements(one, 'list', 4)).not.toBe(plannedStatements(one, 'counts', 4));
    plannedStatements<string>(one, 'list', 4).get('k', () => 'one');
    expect(plannedStatements<string>(other, 'list', 4).get('k', () => 'other')).toBe('other');
  });
});
