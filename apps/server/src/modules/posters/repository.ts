import { RefType } from '@marquee/protocol';
import { and, count, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import { manageWhere, type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { accounts, departments, posters, posterTemplates } from '../../db/schema/index.js';
import { newestFirst } from '../../db/sort.js';

/** The scoped columns of poster templates (auth/scope.ts): owner, department, sharing as ref-type '6'. */
export const posterTemplateScope = {
  entId: posterTemplates.entId,
  deptId: posterTemplates.deptId,
  ownerId: posterTemplates.ownerId,
  share: { refType: RefType.poster, id: posterTemplates.id },
};

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The last made poster's image key of a template (the list's thumbnail). */
const lastImageKey = sql<string | null>`(select ${posters.fileKey} from ${posters}
  where ${posters.templateId} = ${posterTemplates.id} and ${posters.status} = 'done'
  order by ${posters.madeAt} desc nulls last, ${posters.id} limit 1)`;
const madeCount = sql<number>`(select count(*)::int from ${posters}
  where ${posters.templateId} = ${posterTemplates.id} and ${posters.status} = 'done')`;

function selectTemplates(db: Executor, caller: ScopeSubject, withDocument: boolean) {
  return db
    .select({
      id: posterTemplates.id,
      name: posterTemplates.name,
      width: posterTemplates.width,
      height: posterTemplates.height,
      fieldCount: posterTemplates.fieldCount,
      version: posterTemplates.version,
      ownerId: posterTemplates.ownerId,
      ownerLogin: accounts.loginName,
      ownerReal: accounts.realName,
      deptId: posterTemplates.deptId,
      deptName: departments.name,
      hasPermission: sql<boolean>`${manageWhere(caller, posterTemplateScope)}`,
      lastImageKey,
      madeCount,
      updatedAt: posterTemplates.updatedAt,
      document: withDocument ? posterTemplates.document : sql<null>`null`,
    })
    .from(posterTemplates)
    .leftJoin(accounts, eq(accounts.id, posterTemplates.ownerId))
    .leftJoin(departments, eq(departments.id, posterTemplates.deptId));
}

export type PosterTemplateListRow = Awaited<ReturnType<typeof selectTemplates>>[number];

/** A page of the templates the caller sees, newest change first. */
export async function listPosterTemplates(
  db: Executor,
  caller: ScopeSubject,
  query: { page: number; size: number; name?: string },
) {
  const conds: SQL[] = [scopeWhere(caller, posterTemplateScope)];
  const name = query.name?.trim();
  if (name) conds.push(ilike(posterTemplates.name, `%${escapeLike(name)}%`));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    selectTemplates(db, caller, false)
      .where(where)
      .orderBy(...newestFirst(posterTemplates.updatedAt, posterTemplates.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ total: count() }).from(posterTemplates).where(where),
  ]);
  return { total, rows };
}

/** One template the caller sees, with its document. */
export async function findPosterTemplate(db: Executor, caller: ScopeSubject, id: string) {
  const [row] = await selectTemplates(db, caller, true).where(
    and(scopeWhere(caller, posterTemplateScope), eq(posterTemplates.id, id)),
  );
  return row;
}

/** Locks a template row the caller sees (`manage`: one it may manage) for a change. */
export async function lockPosterTemplate(db: Executor, caller: ScopeSubject, id: string, manage = false) {
  const [row] = await db
    .select()
    .from(posterTemplates)
    .where(
      and(
        manage ? manageWhere(caller, posterTemplateScope) : scopeWhere(caller, posterTemplateScope),
        eq(posterTemplates.id, id),
      ),
    )
    .for('update');
  return row;
}

/** The templates among `ids` the caller sees, id to name (sharing registry). */
export async function visiblePosterTemplateIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: posterTemplates.id, name: posterTemplates.name })
    .from(posterTemplates)
    .where(and(scopeWhere(caller, posterTemplateScope), inArray(posterTemplates.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The ids among `ids` the caller may share (sharing registry). */
export async function manageablePosterTemplateIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: posterTemplates.id })
    .from(posterTemplates)
    .where(and(manageWhere(caller, posterTemplateScope), inArray(posterTemplates.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** The made posters of the templates the caller sees (optionally one template), newest first. */
export async function listPostersMade(
  db: Executor,
  caller: ScopeSubject,
  query: { page: number; size: number; templateId?: string },
) {
  const conds: SQL[] = [
    eq(posters.entId, caller.entId),
    eq(posters.status, 'done'),
    scopeWhere(caller, posterTemplateScope),
  ];
  if (query.templateId) conds.push(eq(posters.templateId, query.templateId));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ poster: posters, makerLogin: accounts.loginName, makerReal: accounts.realName })
      .from(posters)
      .innerJoin(posterTemplates, eq(posterTemplates.id, posters.templateId))
      .leftJoin(accounts, eq(accounts.id, posters.accountId))
      .where(where)
      .orderBy(...newestFirst(posters.madeAt, posters.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db
      .select({ total: count() })
      .from(posters)
      .innerJoin(posterTemplates, eq(posterTemplates.id, posters.templateId))
      .where(where),
  ]);
  return { total, rows };
}

/** The image keys of a template's posters (deleted with it). */
export async function posterImageKeys(db: Executor, templateId: string): Promise<string[]> {
  const rows = await db.select({ key: posters.fileKey }).from(posters).where(eq(posters.templateId, templateId));
  return rows.map((r) => r.key);
}
