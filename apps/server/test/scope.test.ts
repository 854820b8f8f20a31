import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrincipalScope } from '../src/auth/principal.js';
import { scopeWhere, tenantWhere } from '../src/auth/scope.js';
import { accounts, departments } from '../src/db/schema/index.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

describe.each(BACKENDS)('data scope on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it('filters rows by self, department only, department and below, and whole enterprise', async () => {
    const ent = await createEnterprise(t.db);
    const other = await createEnterprise(t.db);
    const inRoot = await createUser(t.db, ent, { deptIds: [ent.depts.root] });
    const inA = await createUser(t.db, ent, { deptIds: [ent.depts.a] });
    const inA1 = await createUser(t.db, ent, { deptIds: [ent.depts.a1] });
    const inB = await createUser(t.db, ent, { deptIds: [ent.depts.b] });
    await createUser(t.db, other, { deptIds: [other.depts.a] });
    const [deptA] = await t.db.select().from(departments).where(eq(departments.id, ent.depts.a));

    const visible = async (dataScope: PrincipalScope) => {
      const where = scopeWhere(
        { entId: ent.id, accountId: inA.id, deptId: ent.depts.a, deptPath: deptA.path, dataScope },
        { entId: accounts.entId, deptId: accounts.currentDeptId, ownerId: accounts.id },
      );
      const rows = await t.db.select({ id: accounts.id }).from(accounts).where(where);
      return rows.map((r) => r.id).sort();
    };
    expect(await visible('self')).toEqual([inA.id]);
    expect(await visible('dept_only')).toEqual([inA.id]);
    expect(await visible('dept_and_below')).toEqual([inA.id, inA1.id].sort());
    expect(await visible('all')).toEqual([inRoot.id, inA.id, inA1.id, inB.id].sort());
  });

  it('keeps own rows visible in a department scope, and nothing without the columns', async () => {
    const ent = await createEnterprise(t.db);
    const me = await createUser(t.db, ent, { deptIds: [ent.depts.b] });
    const principal = {
      entId: ent.id,
      accountId: me.id,
      deptId: ent.depts.a,
      deptPath: null,
      dataScope: 'dept_only' as const,
    };
    const rows = await t.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(scopeWhere(principal, { entId: accounts.entId, deptId: accounts.currentDeptId, ownerId: accounts.id }));
    expect(rows.map((r) => r.id)).toEqual([me.id]);
    const none = await t.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(scopeWhere(principal, { entId: accounts.entId }));
    expect(none).toEqual([]);
    const tenant = await t.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(tenantWhere(principal, accounts.entId)));
    expect(tenant.map((r) => r.id)).toEqual([me.id]);
  });

  it('stores materialized department paths', async () => {
    const ent = await createEnterprise(t.db);
    const rows = await t.db.select().from(departments).where(eq(departments.entId, ent.id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ent.depts.a1)?.path).toBe(`/${ent.depts.root}/${ent.depts.a}/${ent.depts.a1}/`);
    expect(byId.get(ent.depts.a1)?.depth).toBe(2);
  });
});
