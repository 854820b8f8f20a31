import { ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { and, count, eq, ilike, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathIds, scopeWhere } from '../src/auth/scope.js';
import type { DataScope } from '../src/db/schema/index.js';
import { allocations, departments, templates } from '../src/db/schema/index.js';
import {
  countVisibleTemplates,
  insertTemplate,
  templatePageQueries,
  templateScope,
} from '../src/modules/templates/repository.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

describe.each(BACKENDS)('template page on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it('lists by data scope, with owner, department and hasPermission', async () => {
    const ent = await createEnterprise(t.db);
    const owner = await createUser(t.db, ent, { deptIds: [ent.depts.a1], dataScope: 'self' });
    const base = Date.now() - 10 * 60_000;
    const made: Record<string, string> = {};
    for (const [i, [name, dept]] of (
      [
        ['root tpl', ent.depts.root],
        ['a tpl', ent.depts.a],
        ['a1 tpl', ent.depts.a1],
        ['b tpl', ent.depts.b],
      ] as const
    ).entries()) {
      made[name] = (
        await insertTemplate(t.db, {
          entId: ent.id,
          deptId: dept,
          ownerId: owner.id,
          name,
          at: new Date(base + i * 1000),
        })
      ).id;
    }
    const names = async (scope: DataScope | 'admin', dept: string) => {
      const user = await createUser(t.db, ent, {
        permissions: [Perm.template],
        dataScope: scope === 'admin' ? undefined : scope,
        isEntAdmin: scope === 'admin',
        deptIds: [dept],
      });
      const res = await (await t.loginAs(user)).call(endpoints.templatePage, {});
      expect(res.envelope.code).toBe(0);
      return res.envelope.payload.data.map((r) => `${r.name}${r.hasPermission ? '+' : ''}`);
    };
    expect(await names('self', ent.depts.a)).toEqual([]);
    expect(await names('dept_only', ent.depts.a)).toEqual(['a tpl']);
    expect(await names('dept_and_below', ent.depts.a)).toEqual(['a1 tpl+', 'a tpl+']);
    expect(await names('admin', ent.depts.b)).toEqual(['b tpl+', 'a1 tpl+', 'a tpl+', 'root tpl+']);
    const ownerPage = (await (await t.loginAs(owner)).call(endpoints.templatePage, { name: 'A1' })).envelope.payload;
    expect(ownerPage).toMatchObject({
      total: 1,
      data: [{ id: made['a1 tpl'], ownerName: owner.loginName, deptName: 'Dept A1', hasPermission: true }],
    });
  });

  it('pages 20 by default, filters by name literally and refuses odd sizes', async () => {
    const { ent, admin, client } = await t.tenant();
    for (let i = 0; i < 25; i++) {
      await insertTemplate(t.db, {
        entId: ent.id,
        deptId: ent.depts.a,
        ownerId: admin.id,
        name: `Tpl ${i}%`,
        at: new Date(Date.now() - i * 1000),
      });
    }
    const first = (await client.call(endpoints.templatePage, {})).envelope.payload;
    expect(first.total).toBe(25);
    expect(first.data).toHaveLength(20);
    expect(first.data[0].name).toBe('Tpl 0%');
    const second = (await client.call(endpoints.templatePage, { page: 2, size: 20 })).envelope.payload;
    expect(second.data.map((r) => r.name)).toEqual(['Tpl 20%', 'Tpl 21%', 'Tpl 22%', 'Tpl 23%', 'Tpl 24%']);
    expect((await client.call(endpoints.templatePage, { name: '1%' })).envelope.payload.total).toBe(3);
    expect((await client.call(endpoints.templatePage, { name: '%' })).envelope.payload.total).toBe(25);
    expect((await client.call(endpoints.templatePage, { name: '_' })).envelope.payload.total).toBe(0);
    expect((await client.call(endpoints.templatePage, { size: 7 })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('filters names as ILIKE does, by scanning and through the trigram index', async () => {
    const { ent, admin, client } = await t.tenant();
    const names = ['Écran Été', 'ÉCRAN été', 'ecran ete', 'STRASSE 5', 'Straße 5', 'Ärger', 'ärger', 'Tpl_1', 'Tpl%1'];
    const made = [];
    for (const name of names) {
      made.push(await insertTemplate(t.db, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id, name }));
    }
    const caller = {
      entId: ent.id,
      accountId: admin.id,
      deptId: ent.depts.a,
      deptPath: null,
      dataScope: 'all' as const,
    };
    // The stored lower(name) follows a rename.
    await t.db.update(templates).set({ name: 'RENAMED Ärger' }).where(eq(templates.id, made[5].id));
    for (const term of ['écran', 'ÉTÉ', 'ecran', 'straße', 'SSE 5', 'ärger', 'renamed', 'ÄR', '_1', '%1', 'l_', 'zz']) {
      const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const [expected] = await t.db
        .select({ n: count() })
        .from(templates)
        .where(and(eq(templates.entId, ent.id), ilike(templates.name, like)));
      const page = (await client.call(endpoints.templatePage, { name: term })).envelope.payload;
      expect(page.total, term).toBe(expected.n);
      expect(page.data, term).toHaveLength(expected.n);
      if (term === 'renamed') expect(page.data.map((r) => r.id)).toEqual([made[5].id]);
      // Both ways of running the filter (the call above scans: the tenant is small).
      for (const scopeSize of [0, Number.POSITIVE_INFINITY]) {
        const q = templatePageQueries(t.db, caller, { page: 1, size: 50, name: term }, scopeSize);
        const [rows, [{ total }]] = await Promise.all([q.rows, q.total]);
        expect(total, `${term} ${scopeSize}`).toBe(expected.n);
        expect(rows.map((r) => r.id)).toEqual(page.data.map((r) => r.id));
      }
    }
    // The index exists wherever pg_trgm does (PGlite loads it; the migration skips it elsewhere).
    const probe = await t.db.execute(
      sql`select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as available,
                 exists (select 1 from pg_indexes where indexname = 'templates_name_lower_trgm_idx') as indexed`,
    );
    const [row] = (probe as unknown as { rows: { available: boolean; indexed: boolean }[] }).rows;
    expect(row.indexed).toBe(row.available);
    if (backend === 'pglite') expect(row.indexed).toBe(true);
  });

  it('counts totals from the department counts exactly as the scope filter does', async () => {
    const ent = await createEnterprise(t.db);
    const me = await createUser(t.db, ent, { deptIds: [ent.depts.a] });
    const other = await createUser(t.db, ent, { deptIds: [ent.depts.b] });
    const made: string[] = [];
    const spots = [ent.depts.root, ent.depts.a, ent.depts.a1, ent.depts.b, null] as const;
    for (let i = 0; i < 20; i++) {
      const owner = i % 3 === 0 ? me : other;
      made.push(
        (await insertTemplate(t.db, { entId: ent.id, deptId: spots[i % 5], ownerId: owner.id, name: `C${i}` })).id,
      );
    }
    await t.db.insert(allocations).values([
      { entId: ent.id, refType: '9', refId: made[3], targetType: 2, targetId: me.id, deptDataType: 2 },
      { entId: ent.id, refType: '9', refId: made[8], targetType: 1, targetId: ent.depts.a, deptDataType: 2 },
    ]);
    // Moves and deletes go through the trigger too.
    await t.db.update(templates).set({ deptId: ent.depts.a1 }).where(eq(templates.id, made[4]));
    await t.db.update(templates).set({ deptId: null }).where(eq(templates.id, made[1]));
    await t.db.delete(templates).where(eq(templates.id, made[13]));
    const [deptA] = await t.db.select().from(departments).where(eq(departments.id, ent.depts.a));
    expect(pathIds(deptA.path)).toEqual([ent.depts.root, ent.depts.a]);
    for (const dataScope of ['self', 'dept_only', 'dept_and_below', 'all'] as const) {
      const caller = { entId: ent.id, accountId: me.id, deptId: ent.depts.a, deptPath: deptA.path, dataScope };
      const [expected] = await t.db.select({ n: count() }).from(templates).where(scopeWhere(caller, templateScope));
      expect(await countVisibleTemplates(t.db, caller), dataScope).toBe(expected.n);
    }
  });

  it('guards the call', async () => {
    const ent = await createEnterprise(t.db);
    const none = await createUser(t.db, ent, { permissions: [Perm.dataAllocation] });
    expect((await (await t.loginAs(none)).call(endpoints.templatePage, {})).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
    expect((await t.client().call(endpoints.templatePage, {}, { token: null })).envelope.code).toBe(
      ErrorCode.TOKEN_INVALID,
    );
    const { client } = await t.tenant();
    expect((await client.call(endpoints.templatePage, { page: 0 })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect((await client.call(endpoints.templatePage, { extra: 1 })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
  });
});
