import { and, asc, eq, isNull, ne, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { departments, type EnterpriseKind, enterprises } from '../db/schema/index.js';

/**
 * 'Change enterprise' (spec section 7, account and auth): the enterprises an account may act
 * for besides its own, decided by its own enterprise: the platform operator acts for every
 * customer enterprise and agent, an agent for the enterprises under it, a plain enterprise
 * for none. Only enabled enterprises. The same rule decides at every authentication, so an
 * enterprise that was paused or moved to another agent stops being acted for.
 */
export function actableWhere(home: { entId: string; entKind: EnterpriseKind }): SQL | null {
  const enabled = eq(enterprises.status, 'enabled');
  if (home.entKind === 'provider') return and(ne(enterprises.kind, 'provider'), enabled) as SQL;
  if (home.entKind === 'agent') return and(eq(enterprises.parentId, home.entId), enabled) as SQL;
  return null;
}

/** The enterprise a session acts for, with the department its data scope starts from (its top department). */
export interface ActingEnterprise {
  id: string;
  kind: EnterpriseKind;
  name: string;
  welcomeSpeech: string;
  logo: string;
  deptId: string | null;
  deptPath: string | null;
  deptName: string | null;
}

/** The enterprise `entId` when the account of `home` may act for it, else null. */
export async function loadActingEnterprise(
  db: Executor,
  home: { entId: string; entKind: EnterpriseKind },
  entId: string,
): Promise<ActingEnterprise | null> {
  const where = actableWhere(home);
  if (!where || entId === home.entId) return null;
  const [ent] = await db
    .select({
      id: enterprises.id,
      kind: enterprises.kind,
      name: enterprises.name,
      welcomeSpeech: enterprises.welcomeSpeech,
      logo: enterprises.logo,
    })
    .from(enterprises)
    .where(and(eq(enterprises.id, entId), where))
    .limit(1);
  if (!ent) return null;
  const [top] = await db
    .select({ id: departments.id, path: departments.path, name: departments.name })
    .from(departments)
    .where(and(eq(departments.entId, ent.id), isNull(departments.parentId)))
    .orderBy(asc(departments.sort), asc(departments.createdAt))
    .limit(1);
  return { ...ent, deptId: top?.id ?? null, deptPath: top?.path ?? null, deptName: top?.name ?? null };
}

/** The enterprises the account of `home` may act for (its own first, then by name), for the header's switch. */
export async function actableEnterprises(
  db: Executor,
  home: { entId: string; entKind: EnterpriseKind },
): Promise<{ id: string; name: string }[]> {
  const [own] = await db
    .select({ id: enterprises.id, name: enterprises.name })
    .from(enterprises)
    .where(eq(enterprises.id, home.entId));
  const where = actableWhere(home);
  const others = where
    ? await db
        .select({ id: enterprises.id, name: enterprises.name })
        .from(enterprises)
        .where(where)
        .orderBy(asc(enterprises.name), asc(enterprises.id))
        .limit(1000)
    : [];
  return [...(own ? [own] : []), ...others];
}
