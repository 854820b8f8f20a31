import { ErrorCode, type MaterialCategory } from '@marquee/protocol';
import { and, asc, count, eq, ne, type SQL, sql } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import { materialCategories, materials } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { materialScope } from './scope.js';
import { MaterialText } from './texts.js';

/** Material categories: the enterprise's vocabulary; counts are of the caller's visible materials. */
export async function listCategories(ctx: CallContext): Promise<MaterialCategory[]> {
  const rows = await ctx.db
    .select({ id: materialCategories.id, name: materialCategories.name })
    .from(materialCategories)
    .where(eq(materialCategories.entId, ctx.user.entId))
    .orderBy(asc(materialCategories.name), asc(materialCategories.id))
    .limit(1000);
  const counts = await ctx.db
    .select({ categoryId: materials.categoryId, n: count() })
    .from(materials)
    .where(and(scopeWhere(ctx.user, materialScope), sql`${materials.categoryId} is not null`))
    .groupBy(materials.categoryId);
  const byId = new Map(counts.map((c) => [c.categoryId, c.n]));
  return rows.map((r) => ({ ...r, materialCount: byId.get(r.id) ?? 0 }));
}

/** A category of the caller's enterprise, else NOT_FOUND. */
export async function loadCategory(ctx: CallContext, id: string) {
  const [row] = await ctx.db
    .select()
    .from(materialCategories)
    .where(and(eq(materialCategories.entId, ctx.user.entId), eq(materialCategories.id, id)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, MaterialText.categoryNotFound);
  return row;
}

async function checkName(ctx: CallContext, name: string, exceptId?: string) {
  const conds: SQL[] = [
    eq(materialCategories.entId, ctx.user.entId),
    sql`lower(${materialCategories.name}) = lower(${name})`,
  ];
  if (exceptId) conds.push(ne(materialCategories.id, exceptId));
  const [row] = await ctx.db
    .select({ id: materialCategories.id })
    .from(materialCategories)
    .where(and(...conds))
    .limit(1);
  if (row) throw new AppError(ErrorCode.CONFLICT, MaterialText.categoryNameTaken);
}

export async function createCategory(input: { name: string }, ctx: CallContext) {
  await checkName(ctx, input.name);
  const [row] = await ctx.db
    .insert(materialCategories)
    .values({ entId: ctx.user.entId, name: input.name, createdAt: ctx.now })
    .returning({ id: materialCategories.id });
  await ctx.audit({
    module: 'material',
    action: 'categoryCreate',
    targetType: 'materialCategory',
    targetId: row.id,
    targetName: input.name,
  });
  return { id: row.id };
}

export async function updateCategory(input: { id: string; name: string }, ctx: CallContext) {
  const category = await loadCategory(ctx, input.id);
  await checkName(ctx, input.name, category.id);
  await ctx.db.update(materialCategories).set({ name: input.name }).where(eq(materialCategories.id, category.id));
  await ctx.audit({
    module: 'material',
    action: 'categoryUpdate',
    targetType: 'materialCategory',
    targetId: category.id,
    targetName: input.name,
    detail: { from: category.name },
  });
  return null;
}

/** Deletes a category; its materials stay, without a category. */
export async function deleteCategory(input: { id: string }, ctx: CallContext) {
  const category = await loadCategory(ctx, input.id);
  await ctx.db.update(materials).set({ categoryId: null }).where(eq(materials.categoryId, category.id));
  await ctx.db.delete(materialCategories).where(eq(materialCategories.id, category.id));
  await ctx.audit({
    module: 'material',
    action: 'categoryDelete',
    targetType: 'materialCategory',
    targetId: category.id,
    targetName: category.name,
  });
  return null;
}
