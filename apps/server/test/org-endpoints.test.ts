import {
  accountEndpoints,
  deptEndpoints,
  type EndpointDef,
  ErrorCode,
  endpoints,
  enterpriseEndpoints,
  roleEndpoints,
} from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../src/modules/roles/repository.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
  type TestUser,
  uniqueName,
} from './helpers/index.js';

/**
 * Every organisation endpoint: without a session, without its permission, with another
 * tenant's ids, with a bad payload and on the happy path (guide convention 12).
 */
interface Caller {
  ent: TestEnterprise;
  user: TestUser;
  client: ApiClient;
}

const STRONG = 'Strong#Pass1';
const code18 = () =>
  `91${Math.random().toString(36).slice(2, 10).toUpperCase()}${Date.now().toString(36).toUpperCase()}`
    .padEnd(18, '0')
    .slice(0, 18);

interface Fixture {
  /** The caller is an administrator of the platform provider (enterprise management). */
  provider?: boolean;
  happy: (t: TestApp, c: Caller) => Promise<unknown>;
  /** A payload naming another tenant's object: answers NOT_FOUND. */
  otherTenant?: (t: TestApp, c: Caller) => Promise<unknown>;
  bad: unknown;
  check?: (payload: unknown, c: Caller) => void;
}

async function makeRole(t: TestApp, ent: TestEnterprise, deptId?: string) {
  return createRole(t.db, {
    entId: ent.id,
    name: uniqueName('role'),
    deptId: deptId ?? ent.depts.root,
    dataScope: 'self',
    permissionCodes: [],
  });
}

async function otherEnt(t: TestApp) {
  const ent = await createEnterprise(t.db);
  const user = await createUser(t.db, ent);
  return { ent, user };
}

const fixtures: Record<string, Fixture> = {
  'enterprise.list': {
    provider: true,
    happy: async (t) => {
      await createEnterprise(t.db);
      return { page: 1, size: 10 };
    },
    bad: { page: 1, size: 1000 },
    check: (p) => expect((p as { total: number }).total).toBeGreaterThan(0),
  },
  'enterprise.detail': {
    happy: async () => ({}),
    otherTenant: async (t) => ({ id: (await otherEnt(t)).ent.id }),
    bad: { id: 5 },
    check: (p, c) => expect(p).toMatchObject({ id: c.ent.id }),
  },
  'enterprise.add': {
    provider: true,
    happy: async () => ({
      kind: 'enterprise',
      name: uniqueName('Company'),
      socialCreditCode: code18(),
      contact: 'Zhang San',
      phone: '13800000000',
      accountType: 'enterprise',
      admin: { loginName: uniqueName('adm'), password: STRONG, realName: 'Admin' },
    }),
    bad: {
      kind: 'enterprise',
      name: '12345678',
      socialCreditCode: 'short',
      contact: 'x',
      phone: '1',
      accountType: 'enterprise',
      admin: {},
    },
  },
  'enterprise.update': {
    happy: async (_t, c) => ({
      id: c.ent.id,
      name: 'Renamed Company',
      socialCreditCode: code18(),
      contact: 'Li Si',
      phone: '13900000000',
      accountType: 'individual',
    }),
    otherTenant: async (t) => ({
      id: (await otherEnt(t)).ent.id,
      name: 'Renamed Company',
      socialCreditCode: code18(),
      contact: 'Li Si',
      phone: '13900000000',
      accountType: 'individual',
    }),
    bad: {
      id: 'x',
      name: '中文公司',
      socialCreditCode: '中文中文中文中文中文中文中文中文中文',
      contact: '',
      phone: '',
    },
  },
  'enterprise.setStatus': {
    provider: true,
    happy: async (t) => ({ id: (await createEnterprise(t.db)).id, status: 'paused' }),
    bad: { id: 'x', status: 'gone' },
  },
  'account.list': {
    happy: async () => ({ page: 1, size: 20 }),
    bad: { page: 1, size: 20, status: 'sleeping' },
    check: (p, c) =>
      expect((p as { data: { loginName: string }[] }).data.map((a) => a.loginName)).toContain(c.user.loginName),
  },
  'account.detail': {
    happy: async (t, c) => ({ id: (await createUser(t.db, c.ent, { permissions: [] })).id }),
    otherTenant: async (t) => ({ id: (await otherEnt(t)).user.id }),
    bad: {},
  },
  'account.add': {
    happy: async (_t, c) => ({
      loginName: uniqueName('new'),
      password: STRONG,
      confirmPassword: STRONG,
      realName: 'New Person',
      deptIds: [c.ent.depts.a],
    }),
    otherTenant: async (t) => ({
      loginName: uniqueName('new'),
      password: STRONG,
      confirmPassword: STRONG,
      realName: 'New Person',
      deptIds: [(await otherEnt(t)).ent.depts.a],
    }),
    bad: { loginName: 'abc', password: 'weak', confirmPassword: 'weak', realName: 'x', deptIds: [] },
  },
  'account.update': {
    happy: async (t, c) => ({
      id: (await createUser(t.db, c.ent, { permissions: [] })).id,
      realName: 'Changed',
      deptIds: [c.ent.depts.b],
      roleIds: [(await makeRole(t, c.ent)).id],
    }),
    otherTenant: async (t) => {
      const o = await otherEnt(t);
      return { id: o.user.id, realName: 'Changed', deptIds: [o.ent.depts.b] };
    },
    bad: { id: 'x', realName: '', deptIds: [] },
  },
  'account.setStatus': {
    happy: async (t, c) => ({ id: (await createUser(t.db, c.ent, { permissions: [] })).id, status: 'paused' }),
    otherTenant: async (t) => ({ id: (await otherEnt(t)).user.id, status: 'paused' }),
    bad: { id: 'x', status: 'off' },
  },
  'account.resetPassword': {
    happy: async (t, c) => ({
      id: (await createUser(t.db, c.ent, { permissions: [] })).id,
      password: STRONG,
      confirmPassword: STRONG,
    }),
    otherTenant: async (t) => ({ id: (await otherEnt(t)).user.id, password: STRONG, confirmPassword: STRONG }),
    bad: { id: 'x', password: STRONG, confirmPassword: 'Other#Pass1' },
  },
  'account.delete': {
    happy: async (t, c) => ({ id: (await createUser(t.db, c.ent, { permissions: [] })).id }),
    otherTenant: async (t) => ({ id: (await otherEnt(t)).user.id }),
    bad: { id: '' },
  },
  'account.batchRoles': {
    happy: async (t, c) => ({
      ids: [(await createUser(t.db, c.ent, { permissions: [] })).id],
      roleIds: [(await makeRole(t, c.ent)).id],
    }),
    otherTenant: async (t) => {
      const o = await otherEnt(t);
      return { ids: [o.user.id], roleIds: [] };
    },
    bad: { ids: [], roleIds: [] },
  },
  'account.batchDepts': {
    happy: async (t, c) => ({
      ids: [(await createUser(t.db, c.ent, { permissions: [] })).id],
      deptIds: [c.ent.depts.a1, c.ent.depts.b],
    }),
    otherTenant: async (t, c) => {
      const o = await otherEnt(t);
      return { ids: [(await createUser(t.db, c.ent, { permissions: [] })).id], deptIds: [o.ent.depts.a] };
    },
    bad: { ids: ['x'], deptIds: [] },
  },
  'invitation.create': {
    happy: async (t, c) => ({ deptId: c.ent.depts.a, roleId: (await makeRole(t, c.ent)).id }),
    otherTenant: async (t) => ({ deptId: (await otherEnt(t)).ent.depts.a }),
    bad: { days: 365 },
    check: (p) => expect((p as { path: string }).path).toMatch(/^\/login\/register\?invite=/),
  },
  'role.list': {
    happy: async (t, c) => {
      await makeRole(t, c.ent);
      return { page: 1, size: 50 };
    },
    bad: { page: 1, size: 50, type: 'emperor' },
    check: (p) => expect((p as { total: number }).total).toBeGreaterThan(0),
  },
  'role.detail': {
    happy: async (t, c) => ({ id: (await makeRole(t, c.ent)).id }),
    otherTenant: async (t) => ({ id: (await makeRole(t, (await otherEnt(t)).ent)).id }),
    bad: { id: null },
  },
  'role.add': {
    happy: async (_t, c) => ({
      name: uniqueName('Role'),
      deptId: c.ent.depts.a,
      dataScope: 'dept_only',
      permissionCodes: ['yxf_new_user', 'yxf_new_user_company'],
    }),
    otherTenant: async (t) => ({
      name: uniqueName('Role'),
      deptId: (await otherEnt(t)).ent.depts.a,
      dataScope: 'dept_only',
      permissionCodes: [],
    }),
    bad: { name: '', dataScope: 'everything', permissionCodes: 'all' },
  },
  'role.update': {
    happy: async (t, c) => ({
      id: (await makeRole(t, c.ent)).id,
      name: uniqueName('Role'),
      deptId: c.ent.depts.root,
      dataScope: 'self',
      permissionCodes: ['yxf_new_my'],
    }),
    otherTenant: async (t) => {
      const o = await otherEnt(t);
      return {
        id: (await makeRole(t, o.ent)).id,
        name: uniqueName('Role'),
        deptId: o.ent.depts.root,
        dataScope: 'self',
        permissionCodes: [],
      };
    },
    bad: { id: 'x', name: 'x'.repeat(100), dataScope: 'self', permissionCodes: [] },
  },
  'role.delete': {
    happy: async (t, c) => ({ id: (await makeRole(t, c.ent)).id }),
    otherTenant: async (t) => ({ id: (await makeRole(t, (await otherEnt(t)).ent)).id }),
    bad: { id: 1 },
  },
  'role.options': {
    happy: async (t, c) => {
      await makeRole(t, c.ent);
      return {};
    },
    bad: { all: true },
    check: (p) => expect((p as unknown[]).length).toBeGreaterThan(0),
  },
  'role.permissionTree': {
    happy: async () => ({}),
    bad: { depth: 1 },
    check: (p) => expect(JSON.stringify(p)).toContain('yxf_new_user_account_manage'),
  },
  'dept.tree': {
    happy: async () => ({}),
    bad: { x: 1 },
    check: (p, c) => expect(p).toMatchObject([{ id: c.ent.depts.root, children: expect.any(Array) }]),
  },
  'dept.subList': {
    happy: async (_t, c) => ({ parentId: c.ent.depts.root }),
    otherTenant: async (t) => ({ parentId: (await otherEnt(t)).ent.depts.root }),
    bad: { parentId: 7 },
    check: (p) => expect((p as { name: string }[]).map((d) => d.name).sort()).toEqual(['Dept A', 'Dept B']),
  },
  'dept.add': {
    happy: async (_t, c) => ({ parentId: c.ent.depts.a, name: 'Dept A2' }),
    otherTenant: async (t) => ({ parentId: (await otherEnt(t)).ent.depts.a, name: 'Dept A2' }),
    bad: { parentId: null, name: 'x'.repeat(21) },
  },
  'dept.update': {
    happy: async (_t, c) => ({ id: c.ent.depts.b, name: 'Dept B renamed' }),
    otherTenant: async (t) => ({ id: (await otherEnt(t)).ent.depts.b, name: 'Renamed' }),
    bad: { id: 'x', name: '' },
  },
  'dept.move': {
    happy: async (_t, c) => ({ id: c.ent.depts.b, parentId: c.ent.depts.a }),
    otherTenant: async (t, c) => ({ id: c.ent.depts.b, parentId: (await otherEnt(t)).ent.depts.a }),
    bad: { id: 'x' },
  },
  'dept.delete': {
    happy: async (_t, c) => ({ id: c.ent.depts.b }),
    otherTenant: async (t) => ({ id: (await otherEnt(t)).ent.depts.b }),
    bad: { id: ['x'] },
  },
};

const orgEndpoints = { ...enterpriseEndpoints, ...accountEndpoints, ...roleEndpoints, ...deptEndpoints };
const sessionDefs = Object.values(orgEndpoints).filter((d) => d.auth === 'session') as EndpointDef[];

describe.each(BACKENDS)('organisation endpoints on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  /** An enterprise administrator (or the provider's) whose only department is the root. */
  async function caller(fixture: Fixture, permissions?: readonly string[]): Promise<Caller> {
    const ent = await createEnterprise(t.db, { kind: fixture.provider ? 'provider' : 'enterprise' });
    const user = await createUser(t.db, ent, { isEntAdmin: true, permissions, deptIds: [ent.depts.root] });
    return { ent, user, client: await t.loginAs(user) };
  }

  it('has a fixture for every session endpoint of the organisation', () => {
    expect(Object.keys(fixtures).sort()).toEqual(sessionDefs.map((d) => d.name).sort());
  });

  describe.each(sessionDefs.map((def) => [def.name, def] as [string, EndpointDef]))('%s', (_name, def) => {
    const fixture = fixtures[def.name];

    it('answers TOKEN_INVALID without a session', async () => {
      const c = await caller(fixture);
      const res = await t.client().call(def, await fixture.happy(t, c), { token: null });
      expect(res.envelope.code).toBe(ErrorCode.TOKEN_INVALID);
    });

    if (def.permission && !/^\d+$/.test(def.permission)) {
      it(`answers NO_PERMISSION without ${def.permission}`, async () => {
        const c = await caller(fixture, []);
        const res = await c.client.call(def, await fixture.happy(t, c));
        expect(res.envelope.code).toBe(ErrorCode.NO_PERMISSION);
      });
    }

    it('answers INVALID_PARAMS for a bad payload', async () => {
      const c = await caller(fixture);
      expect((await c.client.call(def, fixture.bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect((await c.client.call(def, [])).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    });

    if (fixture.otherTenant) {
      it("answers NOT_FOUND for another tenant's ids", async () => {
        const c = await caller(fixture);
        const payload = await fixture.otherTenant?.(t, c);
        expect((await c.client.call(def, payload)).envelope.code).toBe(ErrorCode.NOT_FOUND);
      });
    }

    it('answers 0 on the happy path', async () => {
      const c = await caller(fixture);
      const res = await c.client.call(def, await fixture.happy(t, c));
      expect(res.envelope.code, res.body).toBe(0);
      expect(def.response.safeParse(res.envelope.payload).success).toBe(true);
      fixture.check?.(res.envelope.payload, c);
    });
  });

  it('enterprise management is refused to an ordinary enterprise', async () => {
    const c = await caller({ happy: async () => ({}), bad: {} });
    for (const def of [endpoints.enterpriseList, endpoints.enterpriseSetStatus]) {
      const payload =
        def === endpoints.enterpriseList ? {} : { id: (await createEnterprise(t.db)).id, status: 'paused' };
      expect((await c.client.call(def, payload)).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    }
  });
});
