import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';

/** A query builder that can become a named prepared statement (drizzle's select builders). */
interface Preparable<T> {
  getSQL(): SQL;
  prepare(name: string): { execute(): Promise<T> };
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
  const { dialect } = query as unknown as Rendering;
  const rendered = dialect.sqlToQuery(query.getSQL());
  const name = `mq_${createHash('sha1').update(rendered.sql).digest('base64url').slice(0, 24)}`;
  // prepare() renders the query again (a merged page's text costs milliseconds of JavaScript
  // to render): it gets this rendering instead, within the same synchronous call.
  const own = dialect as Partial<Rendering['dialect']>;
  own.sqlToQuery = () => rendered;
  let prepared: { execute(): Promise<T> };
  try {
    prepared = query.prepare(name);
  } finally {
    delete own.sqlToQuery;
  }
  return prepared.execute();
}
