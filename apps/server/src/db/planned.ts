import { createHash } from 'node:crypto';

/**
 * A query builder that can become a named prepared statement (drizzle's select builders):
 * both methods are drizzle's public API.
 */
interface Preparable<T> {
  toSQL(): { sql: string };
  prepare(name: string): Prepared<T>;
}

/**
 * The query as a named prepared statement (drizzle's `.prepare(name)`; what varies per call is
 * a `sql.placeholder`, filled by `execute`), named by a hash of its text (`toSQL()`): the
 * same shape with other values reuses the statement and, on `Database.planned`'s PostgreSQL
 * connections (`plan_cache_mode=force_generic_plan`), its one generic plan; node-postgres
 * prepares a name once per connection. For a query whose planning costs more than its
 * execution (a merged list page, db/mergedPage.ts) and whose shapes are few; a query whose
 * best plan depends on its values belongs on the ordinary pool. The text is rendered twice
 * (the name, then `prepare`): keep the result (PlannedStatements) rather than prepare per call.
 */
export function preparePlanned<T>(query: Preparable<T>): Prepared<T> {
  const name = `mq_${createHash('sha1').update(query.toSQL().sql).digest('base64url').slice(0, 24)}`;
  return query.prepare(name);
}

/** A prepared statement: `values` fill its placeholders (sql.placeholder). */
export interface Prepared<T> {
  execute(values?: Record<string, unknown>): Promise<T>;
}

/**
 * Statements prepared once per shape and kept (least recently used out past `max`): for a
 * query whose building and rendering cost more JavaScript than its run (a region's device
 * page: 26,000 characters, 3-5 ms a call). The key must name everything the statement's text
 * and fixed values depend on; what varies per call is a placeholder.
 */
export class PlannedStatements<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string, make: () => V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const made = make();
    this.set(key, made);
    return made;
  }

  /** The value kept for `key`, if any (its use is not recorded). */
  peek(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` for `key`, replacing what was kept (most recently used). */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}

const kept = new WeakMap<object, Map<string, PlannedStatements<unknown>>>();

/**
 * The statements kept under `name` for the database `db` (Database.planned): a statement is
 * prepared on one database's pool and stays with it (two databases in one process, as the
 * tests and a restart make, never share one).
 */
export function plannedStatements<V>(db: object, name: string, max: number): PlannedStatements<V> {
  let byName = kept.get(db);
  if (!byName) {
    byName = new Map();
    kept.set(db, byName);
  }
  let statements = byName.get(name);
  if (!statements) {
    statements = new PlannedStatements<unknown>(max);
    byName.set(name, statements);
  }
  return statements as PlannedStatements<V>;
}
