import { DEFAULT_TIME_ZONE, type ENTERPRISE_SORT_KEYS } from '@marquee/protocol';
import { and, asc, count, desc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { accounts, enterprises, sessions } from '../../db/schema/index.js';
import { listOrder, type SortRequest } from '../../db/sort.js';

/** A new enterprise; it has no plays yet, so its rollups are keyed in its own zone from the start (issue 31). */
export async function insertEnterprise(db: Executor, values: typeof enterprises.$inferInsert): Promise<{ id: string }> {
  const timeZone = values.timeZone ?? DEFAULT_TIME_ZONE;
  const [row] = await db
    .insert(enterprises)
    .values({ ...values, timeZone, rollupZone: values.rollupZone ?? timeZone })
    .returning({ id: enterprises.id });
  return row;
}

const parent = alias(enterprises, 'parent_enterprise');

const enterpriseColumns = {
  id: enterprises.id,
  kind: enterprises.kind,
  parentId: enterprises.parentId,
  parentName: parent.name,
  name: enterprises.name,
  socialCreditCode: enterprises.socialCreditCode,
  contact: enterprises.contact,
  phone: enterprises.phone,
  accountType: enterprises.accountType,
  status: enterprises.status,
  welcomeSpeech: enterprises.welcomeSpeech,
  timeZone: enterprises.timeZone,
  createdAt: enterprises.createdAt,
  adminLoginName: sql<
    string | null
  >`(select ${accounts.loginName} from ${accounts} where ${accounts.entId} = ${enterprises.id} and ${accounts.isEntAdmin} order by ${accounts.createdAt} limit 1)`,
  accountCount: sql<number>`(select count(*)::int from ${accounts} where ${accounts.entId} = ${enterprises.id})`,
};

export type EnterpriseRecord = Awaited<ReturnType<typeof selectEnterprises>>['rows'][number];

/** Enterprises matching `where`, newest first unless the page asks for one of ENTERPRISE_SORT_KEYS. */
export async function selectEnterprises(
  db: Executor,
  where: SQL,
  page: ({ page: number; size: number } & SortRequest<(typeof ENTERPRISE_SORT_KEYS)[number]>) | null,
) {
  const order = listOrder(
    page,
    { name: enterprises.name, accountCount: enterpriseColumns.accountCount, createdAt: enterprises.createdAt },
    enterprises.id,
    [desc(enterprises.createdAt), asc(enterprises.id)],
  );
  const query = db
    .select(enterpriseColumns)
    .from(enterprises)
    .leftJoin(parent, eq(parent.id, enterprises.parentId))
    .where(where)
    .orderBy(...order);
  const rows = page ? await query.limit(page.size).offset((page.page - 1) * page.size) : await query;
  let total = rows.length;
  if (page) {
    const [{ n }] = await db.select({ n: count() }).from(enterprises).where(where);
    total = Number(n);
  }
  return { total, rows: rows.map((r) => ({ ...r, accountCount: Number(r.accountCount) })) };
}

export function nameFilter(name: string): SQL {
  return ilike(enterprises.name, `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

export async function creditCodeTaken(db: Executor, code: string, exceptId?: string): Promise<boolean> {
  const rows = await db
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(and(eq(enterprises.socialCreditCode, code), exceptId ? sql`${enterprises.id} <> ${exceptId}` : undefined))
    .limit(1);
  return rows.length > 0;
}

export async function updateEnterpriseRow(db: Executor, id: string, values: Partial<typeof enterprises.$inferInsert>) {
  await db.update(enterprises).set(values).where(eq(enterprises.id, id));
}

/** Ends every open session of the enterprise's accounts (the enterprise was paused). */
export async function endEnterpriseSessions(db: Executor, entId: string, at: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ endedAt: at, endedReason: 'paused' })
    .where(and(eq(sessions.entId, entId), sql`${sessions.endedAt} is null`));
}
