import type { ADVERTISER_SORT_KEYS } from '@marquee/protocol';
import { and, asc, desc, eq, ilike, inArray, notExists, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accounts, advertiserAssignments, advertisers, departments, roles } from '../../db/schema/index.js';
import { listOrder, type SortRequest } from '../../db/sort.js';

export type AdvertiserSort = SortRequest<(typeof ADVERTISER_SORT_KEYS)[number]>;

export interface AdvertiserFilter {
  loginName?: string;
  realName?: string;
  phone?: string;
  status?: 'enabled' | 'paused';
  staffId?: string;
  /** A code of the dictionary `industry`. */
  industry?: string;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (value: string) => `%${escapeLike(value.trim())}%`;

function filterWhere(entId: string, filter: AdvertiserFilter): (SQL | undefined)[] {
  return [
    filter.loginName?.trim() ? ilike(accounts.loginName, contains(filter.loginName)) : undefined,
    filter.realName?.trim() ? ilike(accounts.realName, contains(filter.realName)) : undefined,
    filter.phone?.trim() ? ilike(accounts.phone, contains(filter.phone)) : undefined,
    filter.status ? eq(accounts.status, filter.status) : undefined,
    filter.industry ? eq(advertisers.industry, filter.industry) : undefined,
    filter.staffId
      ? sql`exists (select 1 from ${advertiserAssignments} where ${and(
          eq(advertiserAssignments.entId, entId),
          eq(advertiserAssignments.advertiserAccountId, accounts.id),
          eq(advertiserAssignments.staffAccountId, filter.staffId),
        )})`
      : undefined,
  ];
}

export interface AdvertiserRow {
  id: string;
  loginName: string;
  realName: string;
  phone: string | null;
  email: string | null;
  status: 'enabled' | 'paused';
  deptId: string | null;
  deptName: string | null;
  createdAt: Date;
  industry: string | null;
}

/** One page of the advertisers matching `scope` and `filter`, newest first unless the page asks for a sort. */
export async function listAdvertisers(
  db: Executor,
  entId: string,
  scope: SQL,
  filter: AdvertiserFilter,
  page: { page: number; size: number } & AdvertiserSort,
): Promise<{ total: number; rows: AdvertiserRow[] }> {
  const order = listOrder(
    page,
    { loginName: accounts.loginName, realName: accounts.realName, createdAt: advertisers.createdAt },
    accounts.id,
    [desc(advertisers.createdAt), desc(accounts.id)],
  );
  const where = and(eq(advertisers.entId, entId), scope, ...filterWhere(entId, filter));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: accounts.id,
        loginName: accounts.loginName,
        realName: accounts.realName,
        phone: accounts.phone,
        email: accounts.email,
        status: accounts.status,
        deptId: accounts.currentDeptId,
        deptName: departments.name,
        createdAt: advertisers.createdAt,
        industry: advertisers.industry,
      })
      .from(advertisers)
      .innerJoin(accounts, and(eq(accounts.id, advertisers.accountId), eq(accounts.entId, advertisers.entId)))
      .leftJoin(departments, eq(departments.id, accounts.currentDeptId))
      .where(where)
      .orderBy(...order)
      .limit(page.size)
      .offset((page.page - 1) * page.size),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(advertisers)
      .innerJoin(accounts, and(eq(accounts.id, advertisers.accountId), eq(accounts.entId, advertisers.entId)))
      .where(where),
  ]);
  return { total, rows };
}

/** Staff assigned to each of the advertisers. */
export async function staffOf(
  db: Executor,
  entId: string,
  advertiserIds: string[],
): Promise<Map<string, { id: string; loginName: string; realName: string }[]>> {
  const out = new Map<string, { id: string; loginName: string; realName: string }[]>();
  if (advertiserIds.length === 0) return out;
  const rows = await db
    .select({
      advertiserId: advertiserAssignments.advertiserAccountId,
      id: accounts.id,
      loginName: accounts.loginName,
      realName: accounts.realName,
    })
    .from(advertiserAssignments)
    .innerJoin(accounts, eq(accounts.id, advertiserAssignments.staffAccountId))
    .where(
      and(eq(advertiserAssignments.entId, entId), inArray(advertiserAssignments.advertiserAccountId, advertiserIds)),
    )
    .orderBy(asc(accounts.loginName));
  for (const { advertiserId, ...staff } of rows) {
    const list = out.get(advertiserId) ?? [];
    list.push(staff);
    out.set(advertiserId, list);
  }
  return out;
}

/** Ids among `ids` that are advertisers the caller sees (scope). */
/** The advertisers among `ids` within `scope`, with their login names (the log names them) and industries. */
export async function visibleAdvertisers(
  db: Executor,
  entId: string,
  scope: SQL,
  ids: string[],
): Promise<{ id: string; loginName: string; industry: string | null }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: accounts.id, loginName: accounts.loginName, industry: advertisers.industry })
    .from(advertisers)
    .innerJoin(accounts, and(eq(accounts.id, advertisers.accountId), eq(accounts.entId, advertisers.entId)))
    .where(and(eq(advertisers.entId, entId), scope, inArray(accounts.id, ids)));
}

/** Accounts of the enterprise that can look after advertisers: enabled, not advertisers, not monitors. */
export async function listStaff(db: Executor, entId: string, ids?: string[]) {
  return db
    .select({ id: accounts.id, loginName: accounts.loginName, realName: accounts.realName })
    .from(accounts)
    .where(
      and(
        eq(accounts.entId, entId),
        eq(accounts.status, 'enabled'),
        eq(accounts.thirdMonitor, false),
        ids ? inArray(accounts.id, ids) : undefined,
        notExists(db.select({ one: sql`1` }).from(advertisers).where(eq(advertisers.accountId, accounts.id))),
      ),
    )
    .orderBy(asc(accounts.loginName))
    .limit(1000);
}

/** The enterprise's advertiser role (type 'advertiser'), oldest first; null when it has none. */
export async function findAdvertiserRole(db: Executor, entId: string): Promise<string | null> {
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.entId, entId), eq(roles.type, 'advertiser')))
    .orderBy(asc(roles.createdAt))
    .limit(1);
  return rows[0]?.id ?? null;
}

export async function insertAdvertiser(db: Executor, values: typeof advertisers.$inferInsert) {
  await db.insert(advertisers).values(values);
}

export async function updateAdvertiserAccount(
  db: Executor,
  entId: string,
  accountId: string,
  values: { realName: string; phone: string | null; email: string | null },
  at: Date,
) {
  await db
    .update(accounts)
    .set({ ...values, updatedAt: at })
    .where(and(eq(accounts.entId, entId), eq(accounts.id, accountId)));
}

/** Sets or clears the advertiser's industry (a code of the dictionary `industry`). */
export async function updateAdvertiserIndustry(
  db: Executor,
  entId: string,
  accountId: string,
  industry: string | null,
) {
  await db
    .update(advertisers)
    .set({ industry })
    .where(and(eq(advertisers.entId, entId), eq(advertisers.accountId, accountId)));
}

export async function deleteAdvertiserAccount(db: Executor, entId: string, accountId: string) {
  await db.delete(accounts).where(and(eq(accounts.entId, entId), eq(accounts.id, accountId)));
}

export async function addAssignments(db: Executor, entId: string, advertiserIds: string[], staffIds: string[]) {
  const values = advertiserIds.flatMap((advertiserAccountId) =>
    staffIds.map((staffAccountId) => ({ entId, advertiserAccountId, staffAccountId })),
  );
  const rows = await db
    .insert(advertiserAssignments)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: advertiserAssignments.staffAccountId });
  return rows.length;
}

export async function removeAssignments(db: Executor, entId: string, advertiserIds: string[], staffIds: string[]) {
  const rows = await db
    .delete(advertiserAssignments)
    .where(
      and(
        eq(advertiserAssignments.entId, entId),
        inArray(advertiserAssignments.advertiserAccountId, advertiserIds),
        inArray(advertiserAssignments.staffAccountId, staffIds),
      ),
    )
    .returning({ id: advertiserAssignments.staffAccountId });
  return rows.length;
}
