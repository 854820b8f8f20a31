import { RefType } from '@marquee/protocol';
import { and, count, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { manageWhere, type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { accounts, departments, templates } from '../../db/schema/index.js';

/** The scoped columns of templates (auth/scope.ts): owner, department, and sharing as ref-type '9'. */
export const templateScope = {
  entId: templates.entId,
  deptId: templates.deptId,
  ownerId: templates.ownerId,
  share: { refType: RefType.template, id: templates.id },
};

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of the templates the caller can see, newest first; `hasPermission`: may share it. */
export async function listTemplates(
  db: Executor,
  caller: ScopeSubject,
  query: { page: number; size: number; name?: string },
) {
  const conds: SQL[] = [scopeWhere(caller, templateScope)];
  const name = query.name?.trim();
  if (name) conds.push(ilike(templates.name, `%${escapeLike(name)}%`));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: templates.id,
        name: templates.name,
        width: templates.width,
        height: templates.height,
        ownerId: templates.ownerId,
        ownerLogin: accounts.loginName,
        ownerReal: accounts.realName,
        deptId: templates.deptId,
        deptName: departments.name,
        hasPermission: manageWhere(caller, templateScope).mapWith(Boolean),
        updatedAt: templates.updatedAt,
      })
      .from(templates)
      .leftJoin(accounts, and(eq(accounts.id, templates.ownerId), eq(accounts.entId, templates.entId)))
      .leftJoin(departments, and(eq(departments.id, templates.deptId), eq(departments.entId, templates.entId)))
      .where(where)
      .orderBy(desc(templates.updatedAt), desc(templates.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ total: count() }).from(templates).where(where),
  ]);
  return { total, rows };
}

/** The ids among `ids` the caller can see. */
export async function visibleTemplateIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: templates.id })
    .from(templates)
    .where(and(scopeWhere(caller, templateScope), inArray(templates.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** The ids among `ids` the caller may share. */
export async function manageableTemplateIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: templates.id })
    .from(templates)
    .where(and(manageWhere(caller, templateScope), inArray(templates.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** Creates a template (seed, tests; the editor's save comes with the editor). */
export async function insertTemplate(
  db: Executor,
  values: {
    entId: string;
    deptId: string | null;
    ownerId: string;
    name: string;
    width?: number;
    height?: number;
    at?: Date;
  },
): Promise<{ id: string }> {
  const [row] = await db
    .insert(templates)
    .values({
      entId: values.entId,
      deptId: values.deptId,
      ownerId: values.ownerId,
      name: values.name,
      width: values.width ?? 1920,
      height: values.height ?? 1080,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning({ id: templates.id });
  return row;
}
