import type { OperationLogFilter } from '@marquee/protocol';
import { and, desc, eq, gte, ilike, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '../../auth/principal.js';
import { scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { enterprises, type OperationResult, operationLogExports, operationLogs } from '../../db/schema/index.js';

/** Who reads the log: the fields of the principal its visibility depends on. */
export type LogReader = Pick<Principal, 'entId' | 'entKind' | 'accountId' | 'deptId' | 'deptPath' | 'dataScope'>;

/** The platform operator's administrators read every enterprise's log. */
export function readsAllEnterprises(reader: LogReader): boolean {
  return reader.entKind === 'provider' && reader.dataScope === 'all';
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The WHERE of what `reader` may see of the log, narrowed by `filter`: the enterprise and the
 * data scope (department of the actor; the caller's own entries for 'self'), or every
 * enterprise for the platform operator. `until` bounds an export to the entries that existed
 * when it started.
 */
export function logWhere(reader: LogReader, filter: OperationLogFilter, until?: Date): SQL {
  const conds: (SQL | undefined)[] = [];
  if (!readsAllEnterprises(reader)) {
    conds.push(
      scopeWhere(reader, {
        entId: operationLogs.entId,
        deptId: operationLogs.deptId,
        ownerId: operationLogs.accountId,
      }),
    );
  }
  if (filter.entId) conds.push(eq(operationLogs.entId, filter.entId));
  const account = filter.account?.trim();
  if (account) conds.push(ilike(operationLogs.loginName, `%${escapeLike(account)}%`));
  if (filter.module) conds.push(eq(operationLogs.module, filter.module));
  if (filter.action) conds.push(eq(operationLogs.action, filter.action));
  if (filter.from) conds.push(gte(operationLogs.createdAt, new Date(filter.from)));
  if (filter.to) conds.push(lt(operationLogs.createdAt, new Date(filter.to)));
  if (until) conds.push(lte(operationLogs.createdAt, until));
  return and(...conds) ?? sql`true`;
}

const listColumns = {
  id: operationLogs.id,
  createdAt: operationLogs.createdAt,
  accountId: operationLogs.accountId,
  loginName: operationLogs.loginName,
  entId: operationLogs.entId,
  entName: enterprises.name,
  module: operationLogs.module,
  action: operationLogs.action,
  targetType: operationLogs.targetType,
  targetId: operationLogs.targetId,
  targetName: operationLogs.targetName,
  ip: operationLogs.ip,
  result: operationLogs.result,
};

export type OperationLogListRow = {
  id: string;
  createdAt: Date;
  accountId: string | null;
  loginName: string;
  entId: string;
  entName: string;
  module: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  targetName: string | null;
  ip: string | null;
  result: OperationResult;
};

/** One page of the log, newest first. */
export async function listOperationLogs(
  db: Executor,
  where: SQL,
  page: { page: number; size: number },
): Promise<{ total: number; rows: OperationLogListRow[] }> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(listColumns)
      .from(operationLogs)
      .innerJoin(enterprises, eq(enterprises.id, operationLogs.entId))
      .where(where)
      .orderBy(desc(operationLogs.createdAt), desc(operationLogs.id))
      .limit(page.size)
      .offset((page.page - 1) * page.size),
    db.select({ total: sql<number>`count(*)::int` }).from(operationLogs).where(where),
  ]);
  return { total, rows };
}

export async function countOperationLogs(db: Executor, where: SQL): Promise<number> {
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(operationLogs).where(where);
  return total;
}

/**
 * The next batch after `after` in newest-first order (keyset pagination: constant cost per
 * batch however deep the export is).
 */
export function nextLogBatch(
  db: Executor,
  where: SQL,
  after: { createdAt: Date; id: string } | null,
  size: number,
): Promise<OperationLogListRow[]> {
  const cursor = after
    ? or(
        lt(operationLogs.createdAt, after.createdAt),
        and(eq(operationLogs.createdAt, after.createdAt), lt(operationLogs.id, after.id)),
      )
    : undefined;
  return db
    .select(listColumns)
    .from(operationLogs)
    .innerJoin(enterprises, eq(enterprises.id, operationLogs.entId))
    .where(cursor ? and(where, cursor) : where)
    .orderBy(desc(operationLogs.createdAt), desc(operationLogs.id))
    .limit(size);
}

/** Distinct modules and actions the reader can see, for the filter selects. */
export async function logOptions(db: Executor, where: SQL): Promise<{ modules: string[]; actions: string[] }> {
  const [modules, actions] = await Promise.all([
    db
      .selectDistinct({ v: operationLogs.module })
      .from(operationLogs)
      .where(where)
      .orderBy(operationLogs.module)
      .limit(500),
    db
      .selectDistinct({ v: operationLogs.action })
      .from(operationLogs)
      .where(where)
      .orderBy(operationLogs.action)
      .limit(500),
  ]);
  return { modules: modules.map((r) => r.v), actions: actions.map((r) => r.v) };
}

export async function enterpriseOptions(db: Executor): Promise<{ value: string; label: string }[]> {
  const rows = await db
    .select({ value: enterprises.id, label: enterprises.name })
    .from(enterprises)
    .orderBy(enterprises.name)
    .limit(1000);
  return rows;
}

export type ExportRow = typeof operationLogExports.$inferSelect;

export async function insertExport(db: Executor, values: typeof operationLogExports.$inferInsert): Promise<ExportRow> {
  const [row] = await db.insert(operationLogExports).values(values).returning();
  return row;
}

/** An export of the owner; null for anyone else (another account, another enterprise). */
export async function findOwnExport(
  db: Executor,
  owner: { entId: string; accountId: string },
  exportId: string,
  kind = 'operationLog',
): Promise<ExportRow | null> {
  const rows = await db
    .select()
    .from(operationLogExports)
    .where(
      and(
        eq(operationLogExports.id, exportId),
        eq(operationLogExports.entId, owner.entId),
        eq(operationLogExports.accountId, owner.accountId),
        eq(operationLogExports.kind, kind),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function findExport(db: Executor, exportId: string): Promise<ExportRow | null> {
  const rows = await db.select().from(operationLogExports).where(eq(operationLogExports.id, exportId)).limit(1);
  return rows[0] ?? null;
}

export async function updateExport(
  db: Executor,
  exportId: string,
  values: Partial<Pick<ExportRow, 'status' | 'processed' | 'total' | 'error' | 'finishedAt'>>,
): Promise<void> {
  await db
    .update(operationLogExports)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(operationLogExports.id, exportId));
}

/** Removes export rows created before `before`; returns their ids (their files go too). */
export async function deleteExportsBefore(db: Executor, before: Date): Promise<{ id: string; entId: string }[]> {
  return db
    .delete(operationLogExports)
    .where(lt(operationLogExports.createdAt, before))
    .returning({ id: operationLogExports.id, entId: operationLogExports.entId });
}

/** Entries under `where` per day (YYYY-MM-DD) of a clock `utcOffset` minutes east of UTC. */
export async function logCountsByDay(db: Executor, where: SQL, utcOffset: number): Promise<Map<string, number>> {
  const day = sql<string>`to_char((${operationLogs.createdAt} at time zone 'UTC') + make_interval(mins => ${utcOffset}::int), 'YYYY-MM-DD')`;
  const rows = await db.select({ day, n: sql<number>`count(*)::int` }).from(operationLogs).where(where).groupBy(sql`1`);
  return new Map(rows.map((r) => [r.day, r.n]));
}
