import { ErrorCode, type PromotionPlan } from '@marquee/protocol';
import { and, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { manageWhere, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { accounts, ads, departments, promotionPlans } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { adScope, planScope, planVisibleWhere } from './scope.js';
import { AdText } from './texts.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const toCents = (budget: number | null | undefined) => (budget == null ? null : Math.round(budget * 100));

/**
 * The enterprise's default promotion plan, made on first need (idempotent: a partial unique
 * index keeps one per enterprise, and a racing insert does nothing). Its stored name is empty:
 * it is answered in the caller's language.
 */
export async function ensureDefaultPlan(db: Executor, entId: string): Promise<string> {
  const find = () =>
    db
      .select({ id: promotionPlans.id })
      .from(promotionPlans)
      .where(and(eq(promotionPlans.entId, entId), eq(promotionPlans.isDefault, true)));
  const [found] = await find();
  if (found) return found.id;
  await db.insert(promotionPlans).values({ entId, name: '', isDefault: true }).onConflictDoNothing();
  const [made] = await find();
  return made.id;
}

type PlanRow = typeof promotionPlans.$inferSelect & {
  ownerLogin: string | null;
  ownerReal: string | null;
  deptName: string | null;
  hasPermission: boolean;
};

async function selectPlans(ctx: CallContext, where: SQL, page?: { size: number; offset: number }) {
  let q = ctx.db
    .select({
      plan: promotionPlans,
      ownerLogin: accounts.loginName,
      ownerReal: accounts.realName,
      deptName: departments.name,
      hasPermission: sql<boolean>`${manageWhere(ctx.user, planScope)}`,
    })
    .from(promotionPlans)
    .leftJoin(accounts, eq(accounts.id, promotionPlans.ownerId))
    .leftJoin(departments, eq(departments.id, promotionPlans.deptId))
    .where(where)
    .orderBy(desc(promotionPlans.isDefault), desc(promotionPlans.createdAt), desc(promotionPlans.id))
    .$dynamic();
  if (page) q = q.limit(page.size).offset(page.offset);
  const rows = await q;
  return rows.map(
    (r): PlanRow => ({
      ...r.plan,
      ownerLogin: r.ownerLogin,
      ownerReal: r.ownerReal,
      deptName: r.deptName,
      hasPermission: Boolean(r.hasPermission) && !r.plan.isDefault,
    }),
  );
}

/** Ads (not deleted) the caller sees per plan. */
async function adCounts(ctx: CallContext, planIds: readonly string[]): Promise<Map<string, number>> {
  if (planIds.length === 0) return new Map();
  const rows = await ctx.db
    .select({ planId: ads.planId, n: count() })
    .from(ads)
    .where(and(scopeWhere(ctx.user, adScope), isNull(ads.deletedAt), inArray(ads.planId, [...planIds])))
    .groupBy(ads.planId);
  return new Map(rows.map((r) => [r.planId, r.n]));
}

function present(ctx: CallContext, row: PlanRow, adCount: number): PromotionPlan {
  const lang = ctx.language === 'en-US' || ctx.language === 'ja' ? ctx.language : 'zh-CN';
  return {
    id: row.id,
    name: row.isDefault ? AdText.defaultPlanName[lang] : row.name,
    budget: row.budgetCents == null ? null : row.budgetCents / 100,
    startDate: row.startDate,
    endDate: row.endDate,
    isDefault: row.isDefault,
    adCount,
    ownerName: row.ownerReal?.trim() || row.ownerLogin || '',
    deptName: row.deptName ?? '',
    hasPermission: row.hasPermission,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A page of the plans the caller sees, the default plan first. */
export async function listPlans(input: { page: number; size: number; name?: string }, ctx: CallContext) {
  await ensureDefaultPlan(ctx.db, ctx.user.entId);
  const conds: SQL[] = [planVisibleWhere(ctx.user)];
  if (input.name) {
    const byName = ilike(promotionPlans.name, `%${escapeLike(input.name)}%`);
    // The default plan is found by the name it is answered with (the caller's language).
    const lang = ctx.language === 'en-US' || ctx.language === 'ja' ? ctx.language : 'zh-CN';
    const matchesDefault = AdText.defaultPlanName[lang].toLowerCase().includes(input.name.toLowerCase());
    conds.push(matchesDefault ? (or(byName, eq(promotionPlans.isDefault, true)) as SQL) : byName);
  }
  const where = and(...conds) as SQL;
  const [rows, [{ total }]] = await Promise.all([
    selectPlans(ctx, where, { size: input.size, offset: (input.page - 1) * input.size }),
    ctx.db.select({ total: count() }).from(promotionPlans).where(where),
  ]);
  const counts = await adCounts(
    ctx,
    rows.map((r) => r.id),
  );
  return { total, data: rows.map((r) => present(ctx, r, counts.get(r.id) ?? 0)) };
}

async function loadPlan(ctx: CallContext, id: string): Promise<PlanRow> {
  const [row] = await selectPlans(ctx, and(planVisibleWhere(ctx.user), eq(promotionPlans.id, id)) as SQL);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, AdText.planNotFound);
  return row;
}

export async function planInfo(input: { id: string }, ctx: CallContext): Promise<PromotionPlan> {
  const row = await loadPlan(ctx, input.id);
  const counts = await adCounts(ctx, [row.id]);
  return present(ctx, row, counts.get(row.id) ?? 0);
}

interface PlanBody {
  name: string;
  budget?: number | null;
  startDate?: string | null;
  endDate?: string | null;
}

const auditPlan = (ctx: CallContext, action: string, id: string, name: string, detail?: Record<string, unknown>) =>
  ctx.audit({ module: 'ad', action, targetType: 'adPlan', targetId: id, targetName: name, detail });

export async function savePlan(input: PlanBody, ctx: CallContext) {
  const [row] = await ctx.db
    .insert(promotionPlans)
    .values({
      entId: ctx.user.entId,
      deptId: ctx.user.deptId,
      ownerId: ctx.user.accountId,
      name: input.name,
      budgetCents: toCents(input.budget),
      startDate: input.startDate ?? null,
      endDate: input.endDate ?? null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: promotionPlans.id });
  await auditPlan(ctx, 'planAdd', row.id, input.name, { budget: input.budget ?? null });
  return { id: row.id };
}

/** A plan the caller may change: visible (else NOT_FOUND), not the default plan, manageable. */
async function lockEditablePlan(ctx: CallContext, id: string) {
  const [row] = await ctx.db
    .select()
    .from(promotionPlans)
    .where(and(planVisibleWhere(ctx.user), eq(promotionPlans.id, id)))
    .for('update');
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, AdText.planNotFound);
  if (row.isDefault) throw new AppError(ErrorCode.AD_PLAN_NOT_EDITABLE);
  const [may] = await ctx.db
    .select({ id: promotionPlans.id })
    .from(promotionPlans)
    .where(and(manageWhere(ctx.user, planScope), eq(promotionPlans.id, id)));
  if (!may) throw new AppError(ErrorCode.NO_PERMISSION, AdText.planNotManaged);
  return row;
}

export async function updatePlan(input: PlanBody & { id: string }, ctx: CallContext) {
  const current = await lockEditablePlan(ctx, input.id);
  await ctx.db
    .update(promotionPlans)
    .set({
      name: input.name,
      budgetCents: toCents(input.budget),
      startDate: input.startDate ?? null,
      endDate: input.endDate ?? null,
      updatedAt: ctx.now,
    })
    .where(eq(promotionPlans.id, input.id));
  await auditPlan(ctx, 'planUpdate', input.id, input.name, { from: current.name });
  return null;
}

/** Deletes a plan without ads (deleted ads move to the default plan); one with ads is refused. */
export async function deletePlan(input: { id: string }, ctx: CallContext) {
  const plan = await lockEditablePlan(ctx, input.id);
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(ads)
    .where(and(eq(ads.entId, plan.entId), eq(ads.planId, plan.id), isNull(ads.deletedAt)));
  if (n > 0) throw new AppError(ErrorCode.AD_PLAN_IN_USE);
  const fallback = await ensureDefaultPlan(ctx.db, plan.entId);
  await ctx.db
    .update(ads)
    .set({ planId: fallback })
    .where(and(eq(ads.entId, plan.entId), eq(ads.planId, plan.id)));
  await ctx.db.delete(promotionPlans).where(eq(promotionPlans.id, plan.id));
  await auditPlan(ctx, 'planDelete', plan.id, plan.name);
  return null;
}
