import { WARNING_KINDS, type Warning, type WarningFilter, type WarningKind } from '@marquee/protocol';
import { and, desc, eq, gte, ilike, lt, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import { type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { accounts, ads, devices, warnings } from '../../db/schema/index.js';
import { adScope } from '../ads/scope.js';
import { deviceScope } from '../devices/repository.js';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The warnings a subject sees: with the 'all' data scope every one of its enterprise; with a
 * narrower scope those about the devices and ads that scope shows (their lists' own scopes).
 * Enterprise-wide facts (storage, renewals, IoT cards) are the whole enterprise's, seen only
 * with the 'all' scope.
 */
export function warningScopeWhere(subject: ScopeSubject): SQL {
  const tenant = eq(warnings.entId, subject.entId);
  if (subject.dataScope === 'all') return tenant;
  return and(
    tenant,
    or(
      and(
        eq(warnings.objectType, 'device'),
        sql`${warnings.objectId} in (select ${devices.id} from ${devices} where ${scopeWhere(subject, deviceScope)})`,
      ),
      and(
        eq(warnings.objectType, 'ad'),
        sql`${warnings.objectId} in (select ${ads.id} from ${ads} where ${scopeWhere(subject, adScope)})`,
      ),
    ),
  ) as SQL;
}

/** The list's conditions: what the subject sees, then the filters. */
export function warningWhere(subject: ScopeSubject, f: WarningFilter): SQL {
  const parts: (SQL | undefined)[] = [warningScopeWhere(subject)];
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

/** The live warnings the subject sees per kind (warnings_ent_live_kind_idx), every kind present. */
export async function liveCounts(db: Executor, subject: ScopeSubject) {
  const rows = await db
    .select({
      kind: warnings.kind,
      open: sql<number>`count(*) filter (where ${warnings.state} = 'open')::int`,
      acknowledged: sql<number>`count(*) filter (where ${warnings.state} = 'acknowledged')::int`,
    })
    .from(warnings)
    .where(and(warningScopeWhere(subject), ne(warnings.state, 'resolved')))
    .groupBy(warnings.kind);
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  return WARNING_KINDS.map((kind: WarningKind) => ({
    kind,
    open: Number(byKind.get(kind)?.open ?? 0),
    acknowledged: Number(byKind.get(kind)?.acknowledged ?? 0),
  }));
}
