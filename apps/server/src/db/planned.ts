import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';

/** A query builder that can become a named prepared statement (drizzle's select builders). */
interface Preparable<T> {
  getSQL(): SQL;
  prepare(name: string): Prepared<T>;
}

/** The part of drizzle's builder that renders its text (internal: not in its types). */
interface Rendering {
  dialect: { sqlToQuery(sql: SQL): { sql: string; params: unknown[] } };
}

/**
 * Runs a query built on `Database.planned` as a named prepared statement, named by a hash of
 * its text: the same shape with other values (another department, page or status of the
 * same count of branches) reuses the statement and, on PostgreSQL, its one generic plan.
 * For a query whose planning costs more than its execution (a merged list page,
 * db/mergedPage.ts) and whose shapes are few; a query whose best plan depends on its values
 * belongs on the ordinary pool.
 */
export function runPlanned<T>(query: Preparable<T>): Promise<T> {
  return preparePlanned(query).execute();
}

/** A named prepared statement of the query, as runPlanned runs it; `execute` fills its placeholders. */
export function preparePlanned<T>(query: Preparable<T>): Prepared<T> {
  const { dialect } = query as unknown as Rendering;
  const rendered = dialect.sqlToQuery(query.getSQL());
  const name = `mq_${createHash('sha1').update(rendered.sql).digest('base64url').slice(0, 24)}`;
  // prepare() renders the query again (a merged page's text costs milliseconds of JavaScript
  // to render): it gets this rendering instead, within the same synchronous call.
  const own = dialect as Partial<Rendering['dialect']>;
  own.sqlToQuery = () => rendered;
  try {
    return query.prepare(name);
  } finally {
    delete own.sqlToQuery;
  }
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
