import { and, desc, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  enterprises,
  type MonitorApplicationStatus,
  monitorApplications,
  monitorGrants,
  NOTICE_TYPE_SYSTEM,
  notices,
} from '../../db/schema/index.js';

/** Notices an enterprise sees: its own and the platform-wide ones, for one platform. */
function visibleTo(entId: string, pushPlatform: number): SQL {
  return and(eq(notices.pushPlatform, pushPlatform), or(eq(notices.entId, entId), isNull(notices.entId))) as SQL;
}

export interface NoticeRow {
  id: string;
  type: string;
  title: string;
  content: string;
  createdAt: Date;
  monitorStatus: MonitorApplicationStatus | null;
}

export async function listNotices(
  db: Executor,
  entId: string,
  query: { pushPlatform: number; page: number; size: number },
): Promise<{ total: number; rows: NoticeRow[] }> {
  const where = visibleTo(entId, query.pushPlatform);
  // The latest application of this enterprise on the notice, if any. Columns are written
  // qualified: drizzle leaves them bare in a single-table select, which would make the
  // correlated reference ambiguous.
  const ma = (column: AnyPgColumn) => sql`${monitorApplications}.${sql.identifier(column.name)}`;
  const monitorStatus = sql<MonitorApplicationStatus | null>`(select ${ma(monitorApplications.status)}
    from ${monitorApplications}
    where ${ma(monitorApplications.entId)} = ${entId}
      and ${ma(monitorApplications.noticeId)} = ${notices}.${sql.identifier(notices.id.name)}
    order by ${ma(monitorApplications.createdAt)} desc limit 1)`;
  const [countRows, rows] = await Promise.all([
    db.select({ total: sql<number>`count(*)::int` }).from(notices).where(where),
    db
      .select({
        id: notices.id,
        type: notices.type,
        title: notices.title,
        content: notices.content,
        createdAt: notices.createdAt,
        monitorStatus,
      })
      .from(notices)
      .where(where)
      .orderBy(desc(notices.createdAt), desc(notices.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
  ]);
  return { total: countRows[0]?.total ?? 0, rows };
}

export async function insertNotice(db: Executor, values: typeof notices.$inferInsert): Promise<{ id: string }> {
  const [row] = await db.insert(notices).values(values).returning({ id: notices.id });
  return row;
}

export async function insertMonitorApplication(
  db: Executor,
  values: typeof monitorApplications.$inferInsert,
): Promise<{ id: string }> {
  const [row] = await db.insert(monitorApplications).values(values).returning({ id: monitorApplications.id });
  return row;
}

/**
 * The application behind a system notice that the enterprise must answer, locked for the
 * decision: a pending one first, else the latest decided one (to answer CONFLICT).
 */
export async function findApplicationForUpdate(db: Executor, entId: string, noticeId: string) {
  const rows = await db
    .select({
      id: monitorApplications.id,
      status: monitorApplications.status,
      applicantAccountId: monitorApplications.applicantAccountId,
      noticeTitle: notices.title,
    })
    .from(monitorApplications)
    .innerJoin(notices, eq(notices.id, monitorApplications.noticeId))
    .where(
      and(
        eq(monitorApplications.entId, entId),
        eq(monitorApplications.noticeId, noticeId),
        eq(notices.type, NOTICE_TYPE_SYSTEM),
        or(eq(notices.entId, entId), isNull(notices.entId)),
      ),
    )
    .orderBy(sql`${monitorApplications.status} = 'pending' desc`, desc(monitorApplications.createdAt))
    .limit(1)
    .for('update', { of: monitorApplications });
  return rows[0] ?? null;
}

/** Records the decision if the application is still pending; false when it was not. */
export async function decideApplication(
  db: Executor,
  entId: string,
  applicationId: string,
  decision: { status: 'agreed' | 'refused'; decidedBy: string; decidedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(monitorApplications)
    .set(decision)
    .where(
      and(
        eq(monitorApplications.entId, entId),
        eq(monitorApplications.id, applicationId),
        eq(monitorApplications.status, 'pending'),
      ),
    )
    .returning({ id: monitorApplications.id });
  return rows.length === 1;
}

/** Lets a monitor account into an enterprise (re-granting a revoked access). */
export async function grantMonitorAccess(
  db: Executor,
  grant: { entId: string; monitorAccountId: string; applicationId: string; grantedBy: string; at: Date },
): Promise<void> {
  await db
    .insert(monitorGrants)
    .values({
      entId: grant.entId,
      monitorAccountId: grant.monitorAccountId,
      applicationId: grant.applicationId,
      grantedBy: grant.grantedBy,
      createdAt: grant.at,
    })
    .onConflictDoUpdate({
      target: [monitorGrants.entId, monitorGrants.monitorAccountId],
      set: { applicationId: grant.applicationId, grantedBy: grant.grantedBy, createdAt: grant.at, revokedAt: null },
    });
}

/** Monitor applications of the enterprise still waiting for a decision, with the applicant's enterprise, oldest first. */
export async function pendingApplications(db: Executor, entId: string, limit: number) {
  return db
    .select({ id: monitorApplications.id, applicant: enterprises.name })
    .from(monitorApplications)
    .innerJoin(accounts, eq(accounts.id, monitorApplications.applicantAccountId))
    .innerJoin(enterprises, eq(enterprises.id, accounts.entId))
    .where(and(eq(monitorApplications.entId, entId), eq(monitorApplications.status, 'pending')))
    .orderBy(monitorApplications.createdAt, monitorApplications.id)
    .limit(limit);
}
