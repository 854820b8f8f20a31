import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { describe, expect, it } from 'vitest';
import { PlannedStatements, plannedStatements, preparePlanned } from '../src/db/planned.js';
import { devices } from '../src/db/schema/index.js';

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

  it('names a prepared statement by its text: other values of the same shape share it, another shape does not', () => {
    // drizzle's own builders, rendered with toSQL() (no connection needed); the name is what prepare() gets.
    const db = drizzle.mock();
    const nameOf = (query: { toSQL(): { sql: string } }) =>
      preparePlanned({
        toSQL: () => query.toSQL(),
        prepare: (name: string) => ({ execute: async () => name }),
      }).execute();
    const byId = (id: string) => db.select({ id: devices.id }).from(devices).where(eq(devices.id, id));
    const limited = db.select({ id: devices.id }).from(devices).limit(sql.placeholder('size'));
    return Promise.all([nameOf(byId('a')), nameOf(byId('b')), nameOf(limited)]).then(([a, b, other]) => {
      expect(a).toMatch(/^mq_[\w-]{24}$/);
      expect(b).toBe(a);
      expect(other).not.toBe(a);
    });
  });
});
