import { ErrorCode, endpoints } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../src/modules/roles/repository.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

/**
 * Server-side sorting of the lists whose table config marks columns sortable (`sort` and
 * `order` of the request, spec section 3's table config): each sortable key in both
 * directions, the default order without one, and INVALID_PARAMS for a key the list does not
 * sort by.
 */
describe.each(BACKENDS)('list sorting on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const sorted = (values: string[], order: 'asc' | 'desc') => {
    const out = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return order === 'asc' ? out : out.reverse();
  };

  it('sorts accounts by login name both ways, newest first by default, and refuses an unknown key', async () => {
    const ent = await createEnterprise(t.db);
    const admin = await createUser(t.db, ent, { isEntAdmin: true, loginName: 'sort_admin' });
    for (const name of ['sort_charlie', 'sort_alpha', 'sort_bravo']) await createUser(t.db, ent, { loginName: name });
    const client = await t.loginAs(admin);
    const names = async (req: object) => {
      const res = await client.call(endpoints.accountList, { page: 1, size: 50, ...req });
      expect(res.envelope.code, res.body).toBe(0);
      return (res.envelope.payload as { data: { loginName: string }[] }).data.map((r) => r.loginName);
    };
    const all = ['sort_admin', 'sort_alpha', 'sort_bravo', 'sort_charlie'];
    expect(await names({ sort: 'loginName' })).toEqual(sorted(all, 'asc'));
    expect(await names({ sort: 'loginName', order: 'desc' })).toEqual(sorted(all, 'desc'));
    // Default: newest first (the last one created comes first).
    expect((await names({}))[0]).toBe('sort_bravo');
    // Only the admin has logged in: never-logged-in accounts come last both ways.
    expect((await names({ sort: 'lastLoginAt', order: 'desc' }))[0]).toBe('sort_admin');
    expect((await names({ sort: 'lastLoginAt', order: 'asc' }))[0]).toBe('sort_admin');

    const bad = await client.call(endpoints.accountList, { page: 1, size: 50, sort: 'password' });
    expect(bad.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const badOrder = await client.call(endpoints.accountList, { page: 1, size: 50, sort: 'loginName', order: 'up' });
    expect(badOrder.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('sorts roles by account count and by name', async () => {
    const ent = await createEnterprise(t.db);
    const admin = await createUser(t.db, ent, { isEntAdmin: true });
    const role = (name: string) =>
      createRole(t.db, { entId: ent.id, name, deptId: ent.depts.root, dataScope: 'self', permissionCodes: [] });
    await role('r_empty');
    await role('r_busy');
    // The admin's own role holds one account; the two above hold none.
    const busy = await t.loginAs(admin);
    const list = async (req: object) => {
      const res = await busy.call(endpoints.roleList, { page: 1, size: 50, ...req });
      expect(res.envelope.code, res.body).toBe(0);
      return (res.envelope.payload as { data: { name: string; accountCount: number }[] }).data;
    };
    const byName = (await list({ sort: 'name', order: 'desc' })).map((r) => r.name);
    expect(byName).toEqual(sorted(byName, 'desc'));
    const counts = (await list({ sort: 'accountCount', order: 'desc' })).map((r) => r.accountCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(counts[0]).toBeGreaterThan(0);
    const up = (await list({ sort: 'accountCount' })).map((r) => r.accountCount);
    expect(up).toEqual([...up].sort((a, b) => a - b));
  });

  it('sorts advertisers by real name both ways', async () => {
    const { client } = await t.tenant();
    for (const realName of ['Mango ads', 'Apple ads', 'Zebra ads']) {
      const added = await client.call(endpoints.advertiserAdd, {
        loginName: `adv_${realName.slice(0, 5).toLowerCase()}_${Math.random().toString(36).slice(2, 8)}`,
        password: 'Strong#Pass1',
        realName,
      });
      expect(added.envelope.code, added.body).toBe(0);
    }
    const names = async (order: 'asc' | 'desc') => {
      const res = await client.call(endpoints.advertiserList, { page: 1, size: 50, sort: 'realName', order });
      expect(res.envelope.code, res.body).toBe(0);
      return res.envelope.payload.data.map((r) => r.realName);
    };
    expect(await names('asc')).toEqual(['Apple ads', 'Mango ads', 'Zebra ads']);
    expect(await names('desc')).toEqual(['Zebra ads', 'Mango ads', 'Apple ads']);
  });

  it('sorts enterprises by name for the platform operator', async () => {
    const provider = await createEnterprise(t.db, { kind: 'provider' });
    const operator = await createUser(t.db, provider, { isEntAdmin: true });
    for (const name of ['Zeta sort co', 'Alpha sort co', 'Mu sort co']) await createEnterprise(t.db, { name });
    const client = await t.loginAs(operator);
    const res = await client.call(endpoints.enterpriseList, { page: 1, size: 500, name: 'sort co', sort: 'name' });
    expect(res.envelope.code, res.body).toBe(0);
    const names = (res.envelope.payload as { data: { name: string }[] }).data.map((r) => r.name);
    expect(names).toEqual(['Alpha sort co', 'Mu sort co', 'Zeta sort co']);
    const desc = await client.call(endpoints.enterpriseList, {
      page: 1,
      size: 500,
      name: 'sort co',
      sort: 'createdAt',
      order: 'desc',
    });
    expect((desc.envelope.payload as { data: { name: string }[] }).data.map((r) => r.name)).toEqual([
      'Mu sort co',
      'Alpha sort co',
      'Zeta sort co',
    ]);
  });
});
