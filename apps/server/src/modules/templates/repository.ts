import { type LayoutDocument, materialIdsOf } from '@marquee/layout/schema';
import { RefType } from '@marquee/protocol';
import { and, arrayOverlaps, asc, count, eq, ilike, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import { inDeptSubtree, manageWhere, type ScopeSubject, scopeWhere, sharedWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { accounts, departments, templateDeptCounts, templates } from '../../db/schema/index.js';

/** The scoped columns of templates (auth/scope.ts): owner, department, and sharing as ref-type '9'. */
export const templateScope = {
  entId: templates.entId,
  deptId: templates.deptId,
  ownerId: templates.ownerId,
  share: { refType: RefType.template, id: templates.id },
};

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Up to this many templates in the caller's scope (deptScopeSize), a name filter tests the
 * scope's rows one by one; above it, it searches the trigram index on name_lower. The index
 * pays for a wide scope, but its cost grows with the whole table (a common trigram lists
 * every row of every enterprise), so for a few thousand rows reading them is cheaper: on the
 * scoped-list bench's data the two meet between 2,000 and 4,000 rows.
 */
export const NAME_SCAN_LIMIT = 3000;

/**
 * The name filter, `%name%` case-insensitively. Both forms return the same rows: ILIKE in a
 * UTF-8 database is `lower(name) LIKE lower(pattern)` (PostgreSQL lowers both sides for
 * multibyte encodings), and name_lower is lower(name). `scan` keeps the plain ILIKE, which no
 * index serves, so the scope's own indexes drive the plan; `index` lets the planner use
 * templates_name_lower_trgm_idx and compares bytes instead of lowering each candidate.
 */
function nameFilter(name: string, how: 'scan' | 'index'): SQL {
  const pattern = `%${escapeLike(name)}%`;
  return how === 'scan' ? ilike(templates.name, pattern) : like(templates.nameLower, sql`lower(${pattern})`);
}

/**
 * The two queries of a template page: the page itself, cut from templates alone (its order
 * matches templates_ent_updated_idx) and only then joined to owner and department, and the
 * total. `scopeSize` (deptScopeSize) chooses how a name filter runs (NAME_SCAN_LIMIT);
 * unknown means the index. Exported for the scoped-list bench, which explains them.
 */
export function templatePageQueries(
  db: Executor,
  caller: ScopeSubject,
  query: { page: number; size: number; name?: string },
  scopeSize = Number.POSITIVE_INFINITY,
) {
  const conds: SQL[] = [scopeWhere(caller, templateScope)];
  const name = query.name?.trim();
  if (name) conds.push(nameFilter(name, scopeSize <= NAME_SCAN_LIMIT ? 'scan' : 'index'));
  const where = and(...conds);
  const page = db
    .select({
      id: templates.id,
      entId: templates.entId,
      name: templates.name,
      width: templates.width,
      height: templates.height,
      ownerId: templates.ownerId,
      deptId: templates.deptId,
      hasPermission: sql<boolean>`${manageWhere(caller, templateScope)}`.as('has_permission'),
      updatedAt: templates.updatedAt,
      isDefault: templates.isDefault,
      version: templates.version,
      // Only the first page travels to the list (its thumbnail).
      firstPage: sql<unknown>`${templates.document}->'pages'->0`.as('first_page'),
    })
    .from(templates)
    .where(where)
    // `desc nulls last`: the order of templates_ent_updated_idx (plain desc means nulls first).
    .orderBy(sql`${templates.updatedAt} desc nulls last`, asc(templates.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size)
    .as('page');
  return {
    rows: db
      .select({
        id: page.id,
        name: page.name,
        width: page.width,
        height: page.height,
        ownerId: page.ownerId,
        ownerLogin: accounts.loginName,
        ownerReal: accounts.realName,
        deptId: page.deptId,
        deptName: departments.name,
        hasPermission: page.hasPermission,
        updatedAt: page.updatedAt,
        isDefault: page.isDefault,
        version: page.version,
        firstPage: page.firstPage,
      })
      .from(page)
      .leftJoin(accounts, and(eq(accounts.id, page.ownerId), eq(accounts.entId, page.entId)))
      .leftJoin(departments, and(eq(departments.id, page.deptId), eq(departments.entId, page.entId)))
      .orderBy(sql`${page.updatedAt} desc nulls last`, asc(page.id)),
    total: db.select({ total: count() }).from(templates).where(where),
  };
}

/** A page of the templates the caller can see, newest first; `hasPermission`: may share it. */
export async function listTemplates(
  db: Executor,
  caller: ScopeSubject,
  query: { page: number; size: number; name?: string },
) {
  const name = query.name?.trim();
  // A name filter first reads how wide the scope is (deptScopeSize): it decides how the filter runs.
  const q = templatePageQueries(db, caller, query, name ? await deptScopeSize(db, caller) : undefined);
  const [rows, total] = await Promise.all([
    q.rows,
    name ? q.total.then(([r]) => r.total) : countVisibleTemplates(db, caller),
  ]);
  return { total, rows: rows.map((r) => ({ ...r, hasPermission: Boolean(r.hasPermission) })) };
}

/**
 * The departments whose templates the caller's role scope covers whole: every department
 * ('all'), one, or a subtree, as conditions on template_dept_counts and on templates;
 * undefined for 'self' (or a caller without a department).
 */
function coveredDepartments(caller: ScopeSubject): { counts: SQL; rows: SQL } | undefined {
  if (caller.dataScope === 'all') return { counts: sql`true`, rows: sql`true` };
  if (caller.deptId && caller.dataScope === 'dept_only') {
    return { counts: eq(templateDeptCounts.deptId, caller.deptId), rows: eq(templates.deptId, caller.deptId) };
  }
  if (caller.deptId && caller.dataScope === 'dept_and_below') {
    const path = caller.deptPath ?? '\u0000';
    return {
      counts: inDeptSubtree(templateDeptCounts.deptId, caller.entId, path),
      rows: inDeptSubtree(templates.deptId, caller.entId, path),
    };
  }
  return undefined;
}

/** The templates of the caller's enterprise in the departments `counts` selects, from template_dept_counts. */
async function deptCountsSum(db: Executor, caller: ScopeSubject, counts: SQL): Promise<number> {
  const [row] = await db
    .select({ n: sql<string | null>`sum(${templateDeptCounts.n})` })
    .from(templateDeptCounts)
    .where(and(eq(templateDeptCounts.entId, caller.entId), counts));
  return Number(row?.n ?? 0);
}

/**
 * How many templates the role scope covers through departments: one read of a few rows of
 * template_dept_counts, none for 'self'. It leaves out the caller's own and shared templates
 * elsewhere, so it is a lower bound of the visible count, which is all the choice of a name
 * filter's plan (NAME_SCAN_LIMIT) needs to be cheap and right for wide scopes.
 */
export async function deptScopeSize(db: Executor, caller: ScopeSubject): Promise<number> {
  const covered = coveredDepartments(caller);
  return covered ? deptCountsSum(db, caller, covered.counts) : 0;
}

/**
 * The number of templates the caller can see, without a name filter. It equals the count of
 * scopeWhere, computed in parts: whole departments covered by the role's scope come from
 * template_dept_counts (a trigger keeps it), and only the caller's own and shared templates
 * outside those departments are counted row by row, so the total of a wide scope costs a
 * sum over departments instead of a scan of every visible template.
 */
export async function countVisibleTemplates(db: Executor, caller: ScopeSubject): Promise<number> {
  // The administrator's scope is every department: their sum is the count.
  if (caller.dataScope === 'all') return deptScopeSize(db, caller);
  const covered = coveredDepartments(caller);
  const ownOrShared = or(eq(templates.ownerId, caller.accountId), sharedWhere(caller, templateScope.share)) as SQL;
  const [[rest], inCovered] = await Promise.all([
    db
      .select({ n: count() })
      .from(templates)
      .where(
        and(
          eq(templates.entId, caller.entId),
          ownOrShared,
          covered ? sql`(${templates.deptId} is null or not (${covered.rows}))` : undefined,
        ),
      ),
    covered ? deptCountsSum(db, caller, covered.counts) : 0,
  ]);
  return inCovered + rest.n;
}

/** The templates among `ids` the caller can see, id to name. */
export async function visibleTemplateIds(db: Executor, caller: ScopeSubject, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: templates.id, name: templates.name })
    .from(templates)
    .where(and(scopeWhere(caller, templateScope), inArray(templates.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.name]));
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

/** Creates a template (the editor's save, copies, seed, tests); width and height follow the document. */
export async function insertTemplate(
  db: Executor,
  values: {
    entId: string;
    deptId: string | null;
    ownerId: string;
    name: string;
    width?: number;
    height?: number;
    document?: LayoutDocument;
    isDefault?: boolean;
    at?: Date;
  },
): Promise<{ id: string; version: number }> {
  const [row] = await db
    .insert(templates)
    .values({
      entId: values.entId,
      deptId: values.deptId,
      ownerId: values.ownerId,
      name: values.name,
      width: values.document?.width ?? values.width ?? 1920,
      height: values.document?.height ?? values.height ?? 1080,
      document: values.document ?? null,
      materialIds: values.document ? materialIdsOf(values.document) : [],
      isDefault: values.isDefault ?? false,
      createdAt: values.at,
      updatedAt: values.at,
    })
    .returning({ id: templates.id, version: templates.version });
  return row;
}

/** One template the caller can see, with owner and department names and whether it may manage it. */
export async function findVisibleTemplate(db: Executor, caller: ScopeSubject, id: string) {
  const [row] = await db
    .select({
      template: templates,
      ownerLogin: accounts.loginName,
      ownerReal: accounts.realName,
      deptName: departments.name,
      canManage: sql<boolean>`${manageWhere(caller, templateScope)}`,
    })
    .from(templates)
    .leftJoin(accounts, and(eq(accounts.id, templates.ownerId), eq(accounts.entId, templates.entId)))
    .leftJoin(departments, and(eq(departments.id, templates.deptId), eq(departments.entId, templates.entId)))
    .where(and(scopeWhere(caller, templateScope), eq(templates.id, id)));
  return row ? { ...row, canManage: Boolean(row.canManage) } : undefined;
}

/**
 * Writes a new document if the row is still at `expectedVersion`, bumping it; undefined when
 * another save came first (one statement: two editors cannot both win).
 */
export async function updateTemplateDocument(
  db: Executor,
  values: { id: string; entId: string; name: string; document: LayoutDocument; expectedVersion: number; at: Date },
): Promise<{ version: number } | undefined> {
  const [row] = await db
    .update(templates)
    .set({
      name: values.name,
      width: values.document.width,
      height: values.document.height,
      document: values.document,
      materialIds: materialIdsOf(values.document),
      version: sql`${templates.version} + 1`,
      updatedAt: values.at,
    })
    .where(
      and(
        eq(templates.id, values.id),
        eq(templates.entId, values.entId),
        eq(templates.version, values.expectedVersion),
      ),
    )
    .returning({ version: templates.version });
  return row;
}

export async function deleteTemplateRow(db: Executor, entId: string, id: string): Promise<void> {
  await db.delete(templates).where(and(eq(templates.id, id), eq(templates.entId, entId)));
}

/** The templates of an enterprise whose documents refer to any of `materialIds` (the material library's in-use check). */
export async function templatesUsingMaterials(db: Executor, entId: string, materialIds: readonly string[]) {
  if (materialIds.length === 0) return [];
  return db
    .select({ id: templates.id, name: templates.name, materialIds: templates.materialIds })
    .from(templates)
    .where(and(eq(templates.entId, entId), arrayOverlaps(templates.materialIds, [...materialIds])));
}

/** Templates shared with the caller (its account, its department, or a department above it with sub-departments). */
export async function countSharedTemplates(db: Executor, caller: ScopeSubject): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(templates)
    .where(and(eq(templates.entId, caller.entId), sharedWhere(caller, templateScope.share)));
  return row.n;
}
