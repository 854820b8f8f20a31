import { RefType } from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { accounts, allocations, departments } from '../db/schema/index.js';
import { insertTemplate } from '../modules/templates/repository.js';

/** [name, department, owner login, width, height] of the demo enterprise's templates. */
const DEMO_TEMPLATES: readonly [string, string, string, number, number][] = [
  ['Brand wall 4K', 'Headquarters', 'entadmin', 3840, 2160],
  ['Lobby welcome', 'Headquarters', 'entadmin', 1920, 1080],
  ['Quarterly results', 'Headquarters', 'entadmin', 1920, 1080],
  ['East promotion', 'East Region', 'deptstaff', 1920, 1080],
  ['East weather and news', 'East Region', 'deptstaff', 1080, 1920],
  ['Shanghai storefront', 'Shanghai Store', 'deptstaff', 1080, 1920],
  ['Shanghai menu board', 'Shanghai Store', 'entadmin', 1920, 1080],
  ['Hangzhou window', 'Hangzhou Store', 'entadmin', 1080, 1920],
  ['Bright Drinks summer', 'East Region', 'advertiser', 1920, 1080],
  ['South promotion', 'South Region', 'deptstaff', 1920, 1080],
  ['Shenzhen countdown', 'Shenzhen Store', 'entadmin', 1920, 1080],
  ['Shenzhen live stream', 'Shenzhen Store', 'deptstaff', 1920, 1080],
];

/**
 * A dozen templates across the demo enterprise's departments (called from seedDemo), and two
 * shares: the lobby template with East Region and below, the Shenzhen countdown with deptstaff.
 */
export async function seedTemplates(db: Executor, entId: string, now: Date): Promise<void> {
  const depts = await db
    .select({ id: departments.id, name: departments.name })
    .from(departments)
    .where(eq(departments.entId, entId));
  const owners = await db
    .select({ id: accounts.id, loginName: accounts.loginName })
    .from(accounts)
    .where(and(eq(accounts.entId, entId), inArray(accounts.loginName, ['entadmin', 'deptstaff', 'advertiser'])));
  const deptId = new Map(depts.map((d) => [d.name, d.id]));
  const ownerId = new Map(owners.map((a) => [a.loginName, a.id]));
  const ids = new Map<string, string>();
  for (const [i, [name, dept, owner, width, height]] of DEMO_TEMPLATES.entries()) {
    const oid = ownerId.get(owner);
    if (!oid) continue;
    const row = await insertTemplate(db, {
      entId,
      deptId: deptId.get(dept) ?? null,
      ownerId: oid,
      name,
      width,
      height,
      at: new Date(now.getTime() - (DEMO_TEMPLATES.length - i) * 3_600_000),
    });
    ids.set(name, row.id);
  }
  const shares = [
    { ref: 'Lobby welcome', targetType: 1 as const, target: deptId.get('East Region'), deptDataType: 1 as const },
    { ref: 'Shenzhen countdown', targetType: 2 as const, target: ownerId.get('deptstaff'), deptDataType: 2 as const },
  ];
  for (const s of shares) {
    const refId = ids.get(s.ref);
    if (!refId || !s.target) continue;
    await db.insert(allocations).values({
      entId,
      refType: RefType.template,
      refId,
      targetType: s.targetType,
      targetId: s.target,
      deptDataType: s.deptDataType,
      createdBy: ownerId.get('entadmin') ?? null,
      createdAt: now,
    });
  }
}
