import { ErrorCode, endpoints, Perm, RefType } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocations, operationLogs } from '../src/db/schema/index.js';
import { insertTemplate } from '../src/modules/templates/repository.js';
import {
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
} from './helpers/index.js';

const T = RefType.template;

describe.each(BACKENDS)('data sharing on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  /** An enterprise, its administrator and a template owned by the administrator in `dept`. */
  async function setup(dept: keyof TestEnterprise['depts'] = 'a') {
    const ent = await createEnterprise(t.db);
    const admin = await createUser(t.db, ent, { isEntAdmin: true });
    const client = await t.loginAs(admin);
    const tpl = await insertTemplate(t.db, {
      entId: ent.id,
      deptId: ent.depts[dept],
      ownerId: admin.id,
      name: 'Shared one',
    });
    return { ent, admin, client, tpl };
  }

  async function sees(ent: TestEnterprise, templateId: string, options: Parameters<typeof createUser>[2]) {
    const user = await createUser(t.db, ent, { permissions: [Perm.template], dataScope: 'self', ...options });
    const client = await t.loginAs(user);
    const res = await client.call(endpoints.templatePage, { page: 1, size: 100 });
    expect(res.envelope.code).toBe(0);
    return res.envelope.payload.data.some((r) => r.id === templateId);
  }

  it('permission.subAccounts lists the enterprise accounts by name', async () => {
    const { ent, admin, client } = await setup();
    const other = await createEnterprise(t.db);
    await createUser(t.db, other);
    const res = await client.call(endpoints.permissionSubAccounts, {});
    expect(res.envelope.code).toBe(0);
    expect(res.envelope.payload).toEqual([{ id: admin.id, name: admin.loginName }]);
    expect(ent.id).toBeTruthy();
  });

  it('permission.deptTree answers the tree and the descendants of each department', async () => {
    const { ent, client } = await setup();
    const res = await client.call(endpoints.permissionDeptTree, {});
    expect(res.envelope.code).toBe(0);
    const { trees, deptChildMap } = res.envelope.payload;
    expect(trees).toHaveLength(1);
    expect(trees[0]).toMatchObject({ id: ent.depts.root, name: 'Root', disabled: false });
    expect(trees[0].children.map((c) => c.name)).toEqual(['Dept A', 'Dept B']);
    expect(trees[0].children[0].children.map((c) => c.id)).toEqual([ent.depts.a1]);
    expect(deptChildMap[ent.depts.root].sort()).toEqual([ent.depts.a, ent.depts.a1, ent.depts.b].sort());
    expect(deptChildMap[ent.depts.a]).toEqual([ent.depts.a1]);
    expect(deptChildMap[ent.depts.b]).toEqual([]);
  });

  it('refresh replaces own allocations; allocation answers own and inherited entries', async () => {
    const { ent, admin, client, tpl } = await setup();
    const target = await createUser(t.db, ent, { deptIds: [ent.depts.b] });
    const res = await client.call(endpoints.permissionRefresh, {
      refType: T,
      refIds: [tpl.id],
      allocateInfos: [
        { id: ent.depts.root, type: 1, deptDataType: 1 },
        { id: target.id, type: 2, deptDataType: 1 },
      ],
    });
    expect(res.envelope.code).toBe(0);
    const got = await client.call(endpoints.permissionAllocation, { refType: T, refId: tpl.id });
    expect(got.envelope.code).toBe(0);
    const infos = got.envelope.payload.allocateInfos;
    const byId = new Map(infos.map((i) => [i.id, i]));
    expect(byId.get(ent.depts.root)).toMatchObject({
      name: 'Root',
      isExtends: false,
      allocateType: 1,
      allocateDeptDataType: 1,
    });
    expect(byId.get(target.id)).toMatchObject({
      name: target.loginName,
      isExtends: false,
      allocateType: 2,
      allocateDeptDataType: 2,
    });
    // Root with sub-departments covers A, A1 and B: inherited and locked.
    for (const d of [ent.depts.a, ent.depts.a1, ent.depts.b]) {
      expect(byId.get(d)).toMatchObject({
        isExtends: true,
        allocateType: 1,
        allocateDeptDataType: 1,
        extendsFrom: ent.depts.root,
      });
    }
    expect(infos).toHaveLength(5);
    // A second refresh replaces the first; A alone (type 2) covers nothing below it.
    await client.call(endpoints.permissionRefresh, {
      refType: T,
      refIds: [tpl.id],
      allocateInfos: [{ id: ent.depts.a, type: 1, deptDataType: 2 }],
    });
    const again = (await client.call(endpoints.permissionAllocation, { refType: T, refId: tpl.id })).envelope.payload;
    expect(again.allocateInfos).toEqual([
      {
        id: ent.depts.a,
        name: 'Dept A',
        isExtends: false,
        allocateType: 1,
        allocateDeptDataType: 2,
        extendsFrom: null,
      },
    ]);
    const logs = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.entId, ent.id), eq(operationLogs.module, 'sharing')));
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ action: 'refresh', accountId: admin.id, targetId: tpl.id });
  });

  it('refresh of several ref ids shares each of them; an empty list unshares', async () => {
    const { ent, admin, client, tpl } = await setup();
    const tpl2 = await insertTemplate(t.db, { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id, name: 'Two' });
    const res = await client.call(endpoints.permissionRefresh, {
      refType: T,
      refIds: [tpl.id, tpl2.id],
      allocateInfos: [{ id: ent.depts.b, type: 1, deptDataType: 2 }],
    });
    expect(res.envelope.code).toBe(0);
    const rows = await t.db.select().from(allocations).where(eq(allocations.entId, ent.id));
    expect(rows.map((r) => r.refId).sort()).toEqual([tpl.id, tpl2.id].sort());
    await client.call(endpoints.permissionRefresh, { refType: T, refIds: [tpl.id, tpl2.id], allocateInfos: [] });
    expect(await t.db.select().from(allocations).where(eq(allocations.entId, ent.id))).toEqual([]);
  });

  it('shared objects become visible to their targets through the data scope', async () => {
    const { ent, client, tpl } = await setup('root');
    const notShared = await sees(ent, tpl.id, { deptIds: [ent.depts.a1] });
    expect(notShared).toBe(false);
    const account = await createUser(t.db, ent, {
      permissions: [Perm.template],
      dataScope: 'self',
      deptIds: [ent.depts.b],
    });
    await client.call(endpoints.permissionRefresh, {
      refType: T,
      refIds: [tpl.id],
      allocateInfos: [
        { id: ent.depts.a, type: 1, deptDataType: 1 },
        { id: account.id, type: 2, deptDataType: 2 },
      ],
    });
    // A with sub-departments: members of A and A1 see it; B does not; the account does.
    expect(await sees(ent, tpl.id, { deptIds: [ent.depts.a] })).toBe(true);
    expect(await sees(ent, tpl.id, { deptIds: [ent.depts.a1] })).toBe(true);
    expect(await sees(ent, tpl.id, { deptIds: [ent.depts.b] })).toBe(false);
    const accountClient = await t.loginAs(account);
    const page = (await accountClient.call(endpoints.templatePage, {})).envelope.payload;
    expect(page.data.find((r) => r.id === tpl.id)).toMatchObject({ hasPermission: false });
    // A alone: A1's members no longer see it.
    await client.call(endpoints.permissionRefresh, {
      refType: T,
      refIds: [tpl.id],
      allocateInfos: [{ id: ent.depts.a, type: 1, deptDataType: 2 }],
    });
    expect(await sees(ent, tpl.id, { deptIds: [ent.depts.a] })).toBe(true);
    expect(await sees(ent, tpl.id, { deptIds: [ent.depts.a1] })).toBe(false);
    // A shared object may be seen, not passed on.
    const sharedMember = await createUser(t.db, ent, {
      permissions: [Perm.template, Perm.dataAllocation],
      dataScope: 'self',
      deptIds: [ent.depts.a],
    });
    const memberClient = await t.loginAs(sharedMember);
    expect((await memberClient.call(endpoints.permissionAllocation, { refType: T, refId: tpl.id })).envelope.code).toBe(
      0,
    );
    const denied = await memberClient.call(endpoints.permissionRefresh, {
      refType: T,
      refIds: [tpl.id],
      allocateInfos: [],
    });
    expect(denied.envelope.code).toBe(ErrorCode.NO_PERMISSION);
  });

  it('deleting an account or a department removes what was shared with it', async () => {
    const { ent, client, tpl } = await setup();
    const account = await createUser(t.db, ent, { deptIds: [ent.depts.b] });
    const dept = await client.call(endpoints.deptAdd, { parentId: ent.depts.b, name: 'Short-lived' });
    expect(dept.envelope.code).toBe(0);
    const deptId = dept.envelope.payload.id;
    const shared = await client.call(endpoints.permissionRefresh, {
      refType: T,
      refIds: [tpl.id],
      allocateInfos: [
        { id: account.id, type: 2, deptDataType: 1 },
        { id: deptId, type: 1, deptDataType: 2 },
        { id: ent.depts.a1, type: 1, deptDataType: 1 },
      ],
    });
    expect(shared.envelope.code).toBe(0);
    expect((await client.call(endpoints.accountDelete, { id: account.id })).envelope.code).toBe(0);
    expect((await client.call(endpoints.deptDelete, { id: deptId })).envelope.code).toBe(0);
    const left = await t.db
      .select({ targetId: allocations.targetId })
      .from(allocations)
      .where(and(eq(allocations.refType, T), eq(allocations.refId, tpl.id)));
    expect(left.map((r) => r.targetId)).toEqual([ent.depts.a1]);
    const listed = await client.call(endpoints.permissionAllocation, { refType: T, refId: tpl.id });
    expect(listed.envelope.payload.allocateInfos.map((i) => i.id)).toEqual([ent.depts.a1]);
  });

  it("answers NOT_FOUND for another enterprise's objects and targets, and for unregistered ref-types", async () => {
    const { ent, client, tpl } = await setup();
    const other = await setup();
    const otherUser = await createUser(t.db, other.ent);
    for (const res of [
      await other.client.call(endpoints.permissionAllocation, { refType: T, refId: tpl.id }),
      await other.client.call(endpoints.permissionRefresh, { refType: T, refIds: [tpl.id], allocateInfos: [] }),
      await client.call(endpoints.permissionRefresh, {
        refType: T,
        refIds: [tpl.id],
        allocateInfos: [{ id: other.ent.depts.root, type: 1, deptDataType: 1 }],
      }),
      await client.call(endpoints.permissionRefresh, {
        refType: T,
        refIds: [tpl.id],
        allocateInfos: [{ id: otherUser.id, type: 2, deptDataType: 2 }],
      }),
      await client.call(endpoints.permissionRefresh, {
        refType: T,
        refIds: [tpl.id],
        allocateInfos: [{ id: ent.depts.a, type: 2, deptDataType: 2 }],
      }),
      await client.call(endpoints.permissionAllocation, { refType: T, refId: 'not-an-id' }),
      await client.call(endpoints.permissionAllocation, { refType: RefType.device, refId: tpl.id }),
    ]) {
      expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
    }
    expect(await t.db.select().from(allocations).where(eq(allocations.refId, tpl.id))).toEqual([]);
  });

  it('guards every call: session, permission and payload', async () => {
    const { ent, client, tpl } = await setup();
    const bare = await createUser(t.db, ent, { permissions: [Perm.template] });
    const bareClient = await t.loginAs(bare);
    const calls = [
      [endpoints.permissionSubAccounts, {}, { all: 1 }],
      [endpoints.permissionDeptTree, {}, { all: 1 }],
      [endpoints.permissionAllocation, { refType: T, refId: tpl.id }, { refType: '99', refId: tpl.id }],
      [
        endpoints.permissionRefresh,
        { refType: T, refIds: [tpl.id], allocateInfos: [] },
        { refType: T, refIds: [], allocateInfos: [] },
      ],
    ] as const;
    for (const [def, good, bad] of calls) {
      expect((await t.client().call(def, good, { token: null })).envelope.code).toBe(ErrorCode.TOKEN_INVALID);
      expect((await bareClient.call(def, good)).envelope.code).toBe(ErrorCode.NO_PERMISSION);
      expect((await client.call(def, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect((await client.call(def, good)).envelope.code).toBe(0);
    }
    const badEntry = await client.call(endpoints.permissionRefresh, {
      refType: T,
      refIds: [tpl.id],
      allocateInfos: [{ id: ent.depts.a, type: 3, deptDataType: 1 }],
    });
    expect(badEntry.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
  });
});
