import { WARNING_KINDS, type Warning, type WarningFilter, type WarningKind } from '@marquee/protocol';
import { and, desc, eq, gte, ilike, lt, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accounts, warnings } from '../../db/schema/index.js';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The list's conditions: the enterprise, then the filters. */
export function warningWhere(entId: string, f: WarningFilter): SQL {
  const parts: (SQL | undefined)[] = [eq(warnings.entId, entId)];
  if (f.kind) parts.push(eq(warnings.kind, f.kind));
  if (f.level) parts.push(eq(warnings.level, f.level));
  if (f.state === 'live') parts.push(ne(warnings.state, 'resolved'));
  else if (f.state) parts.push(eq(warnings.state, f.state));
  if (f.keyword) parts.push(ilike(warnings.objectName, `%${escapeLike(f.keyword)}%`));
  if (f.from) parts.push(gte(warnings.openedAt, new Date(f.from)));
  if (f.to) parts.push(lte(warnings.openedAt, new Date(f.to)));
  return and(...parts) as SQL;
}

const columns = {
  id: warnings.id,
  kind: warnings.kind,
  level: warnings.level,
  objectType: warnings.objectType,
  objectId: warnings.objectId,
  objectName: warnings.objectName,
  detail: warnings.detail,
  since: warnings.since,
  openedAt: warnings.openedAt,
  state: warnings.state,
  acknowledgedBy: warnings.acknowledgedBy,
  acknowledgedByName: sql<string | null>`coalesce(nullif(${accounts.realName}, ''), ${accounts.loginName})`,
  acknowledgedAt: warnings.acknowledgedAt,
  resolvedAt: warnings.resolvedAt,
};

type Listed = Awaited<ReturnType<typeof pageOfWarnings>>[number];

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toWarning(r: Listed): Warning {
  return {
    ...r,
    detail: r.detail ?? {},
    since: iso(r.since) as string,
    openedAt: iso(r.openedAt) as string,
    acknowledgedAt: iso(r.acknowledgedAt),
    resolvedAt: iso(r.resolvedAt),
    acknowledgedByName: r.acknowledgedByName ?? null,
  };
}

/** One page (or batch) of warnings, newest first; `after` continues a batch read (the export). */
export function pageOfWarnings(
  db: Executor,
  where: SQL,
  limit: number,
  offset: number,
  after?: { openedAt: Date; id: string } | null,
) {
  const keyset = after
    ? or(lt(warnings.openedAt, after.openedAt), and(eq(warnings.openedAt, after.openedAt), lt(warnings.id, after.id)))
    : undefined;
  return db
    .select(columns)
    .from(warnings)
    .leftJoin(accounts, eq(accounts.id, warnings.acknowledgedBy))
    .where(keyset ? and(where, keyset) : where)
    .orderBy(desc(warnings.openedAt), desc(warnings.id))
    .limit(limit)
    .offset(offset);
}

export async function countWarnings(db: Executor, where: SQL): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(warnings).where(where);
  return Number(row?.n ?? 0);
}

/** The enterprise's live warnings per kind (warnings_ent_live_kind_idx), every kind present. */
export async function liveCounts(db: Executor, entId: string) {
  const rows = await db
    .select({
      kind: warnings.kind,
      open: sql<number>`count(*) filter (where ${warnings.state} = 'open')::int`,
      acknowledged: sql<number>`count(*) filter (where ${warnings.state} = 'acknowledged')::int`,
    })
    .from(warnings)
    .where(and(eq(warnings.entId, entId), ne(warnings.state, 'resolved')))
    .groupBy(warnings.kind);
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  return WARNING_KINDS.map((kind: WarningKind) => ({
    kind,
    open: Number(byKind.get(kind)?.open ?? 0),
    acknowledged: Number(byKind.get(kind)?.acknowledged ?? 0),
  }));
}
