import { ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, departments, roles } from '../src/db/schema/index.js';
import { createNotice } from '../src/modules/notice/service.js';
import { createRole } from '../src/modules/roles/repository.js';
import { insertTemplate } from '../src/modules/templates/repository.js';
import {
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  DAY,
  type TestApp,
  uniqueName,
} from './helpers/index.js';

const STRONG = 'Strong#Pass1';

/** The rules of organisation management beyond each endpoint's basic answers. */
describe.each(BACKENDS)('organisation rules on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  describe('accounts', () => {
    it('pausing an account ends its open session with SESSION_ENDED; enabling lets it log in again', async () => {
      const { ent, client } = await t.tenant();
      const staff = await createUser(t.db, ent, { permissions: [Perm.my] });
      const staffClient = await t.loginAs(staff);
      expect((await staffClient.call(endpoints.authInfo)).envelope.code).toBe(0);
      const res = await client.call(endpoints.accountSetStatus, { id: staff.id, status: 'paused' });
      expect(res.envelope.code).toBe(0);
      expect((await staffClient.call(endpoints.authInfo)).envelope.code).toBe(ErrorCode.SESSION_ENDED);
      const relogin = await t.client().call(endpoints.login, { loginName: staff.loginName, password: staff.password });
      expect(relogin.envelope.code).toBe(ErrorCode.ACCOUNT_PAUSED);
      expect((await client.call(endpoints.accountSetStatus, { id: staff.id, status: 'enabled' })).envelope.code).toBe(
        0,
      );
      await t.loginAs(staff);
    });

    it('an administrator cannot pause or delete their own account, nor the last administrator', async () => {
      const { admin, client } = await t.tenant();
      const self = await client.call(endpoints.accountDelete, { id: admin.id });
      expect(self.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(self.envelope.message).toMatch(/your own account/);
      expect((await client.call(endpoints.accountSetStatus, { id: admin.id, status: 'paused' })).envelope.code).toBe(
        ErrorCode.CONFLICT,
      );
      // A second administrator deleting the first: allowed once, then the last one stays.
      const ent2 = await createEnterprise(t.db);
      const a1 = await createUser(t.db, ent2, { isEntAdmin: true });
      const a2 = await createUser(t.db, ent2, { isEntAdmin: true });
      const c2 = await t.loginAs(a2);
      expect((await c2.call(endpoints.accountDelete, { id: a1.id })).envelope.code).toBe(0);
      const a3 = await createUser(t.db, ent2, { isEntAdmin: false });
      expect((await c2.call(endpoints.accountDelete, { id: a3.id })).envelope.code).toBe(0);
      const rows = await t.db.select().from(accounts).where(eq(accounts.entId, ent2.id));
      expect(rows.map((r) => r.id)).toEqual([a2.id]);
    });

    it('the last administrator cannot be deleted by another administrator-scoped account either', async () => {
      const ent = await createEnterprise(t.db);
      const only = await createUser(t.db, ent, { isEntAdmin: true });
      const manager = await createUser(t.db, ent, { isEntAdmin: true });
      const c = await t.loginAs(manager);
      await t.db.update(accounts).set({ isEntAdmin: false }).where(eq(accounts.id, manager.id));
      t.services.sessions.cache.invalidateAccount(manager.id);
      // The manager is no longer an administrator: an administrator account is out of reach.
      expect((await c.call(endpoints.accountDelete, { id: only.id })).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    });

    it('delete is refused while the account still owns data (pause it instead)', async () => {
      const { ent, client } = await t.tenant();
      const author = await createUser(t.db, ent, { permissions: [] });
      await createNotice(t.db, { entId: ent.id, title: 'By the author', content: '<p>x</p>', createdBy: author.id });
      const res = await client.call(endpoints.accountDelete, { id: author.id });
      expect(res.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(res.envelope.message).toMatch(/pause it instead/);
      expect(await t.db.select().from(accounts).where(eq(accounts.id, author.id))).toHaveLength(1);
    });

    it('reset password sets update_pwd, ends the sessions and the new password logs in', async () => {
      const { ent, client } = await t.tenant();
      const staff = await createUser(t.db, ent, { permissions: [Perm.my] });
      const staffClient = await t.loginAs(staff);
      const res = await client.call(endpoints.accountResetPassword, {
        id: staff.id,
        password: 'New#Secret99',
        confirmPassword: 'New#Secret99',
      });
      expect(res.envelope.code).toBe(0);
      expect((await staffClient.call(endpoints.authInfo)).envelope.code).toBe(ErrorCode.SESSION_ENDED);
      const login = await t.client().login(staff.loginName, 'New#Secret99');
      expect(login.updatePwd).toBe(true);
      const old = await t.client().call(endpoints.login, { loginName: staff.loginName, password: staff.password });
      expect(old.envelope.code).toBe(ErrorCode.LOGIN_FAILED);
    });

    it('add refuses a taken login name and a confirmation that does not match', async () => {
      const { ent, admin, client } = await t.tenant();
      const taken = await client.call(endpoints.accountAdd, {
        loginName: admin.loginName.toUpperCase(),
        password: STRONG,
        confirmPassword: STRONG,
        realName: 'Dup',
        deptIds: [ent.depts.a],
      });
      expect(taken.envelope.code).toBe(ErrorCode.CONFLICT);
      const mismatch = await client.call(endpoints.accountAdd, {
        loginName: uniqueName('acc'),
        password: STRONG,
        confirmPassword: 'Strong#Pass2',
        realName: 'X',
        deptIds: [ent.depts.a],
      });
      expect(mismatch.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect(mismatch.envelope.message).toContain('confirmPassword');
      const weak = await client.call(endpoints.accountAdd, {
        loginName: uniqueName('acc'),
        password: 'alllowercase',
        confirmPassword: 'alllowercase',
        realName: 'X',
        deptIds: [ent.depts.a],
      });
      expect(weak.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    });

    it('the list filters by login account, real name, role, department, phone and status', async () => {
      const { ent, client } = await t.tenant();
      const role = await createRole(t.db, { entId: ent.id, name: 'Filter role', permissionCodes: [] });
      const add = async (realName: string, deptId: string, phone: string, roleIds: string[] = []) => {
        const res = await client.call(endpoints.accountAdd, {
          loginName: uniqueName('f'),
          password: STRONG,
          confirmPassword: STRONG,
          realName,
          phone,
          deptIds: [deptId],
          roleIds,
        });
        expect(res.envelope.code, res.body).toBe(0);
        return res.envelope.payload.id;
      };
      const alice = await add('Alice Chen', ent.depts.a1, '13811112222', [role.id]);
      const bob = await add('Bob Wang', ent.depts.b, '13933334444');
      await client.call(endpoints.accountSetStatus, { id: bob, status: 'paused' });
      const ids = async (filter: Record<string, unknown>) =>
        (await client.call(endpoints.accountList, { page: 1, size: 50, ...filter })).envelope.payload.data.map(
          (a) => a.id,
        );
      expect(await ids({ realName: 'alice' })).toEqual([alice]);
      expect(await ids({ roleId: role.id })).toEqual([alice]);
      expect(await ids({ deptId: ent.depts.b })).toEqual([bob]);
      expect(await ids({ phone: '3933' })).toEqual([bob]);
      expect(await ids({ status: 'paused' })).toEqual([bob]);
      const page = await client.call(endpoints.accountList, { page: 1, size: 1 });
      expect(page.envelope.payload).toMatchObject({ total: 3 });
      expect(page.envelope.payload.data).toHaveLength(1);
    });

    it('data scope: department-only staff see their department, not a sibling one', async () => {
      const ent = await createEnterprise(t.db);
      const inA = await createUser(t.db, ent, { permissions: [], deptIds: [ent.depts.a] });
      const inA1 = await createUser(t.db, ent, { permissions: [], deptIds: [ent.depts.a1] });
      const inB = await createUser(t.db, ent, { permissions: [], deptIds: [ent.depts.b] });
      const only = await createUser(t.db, ent, {
        permissions: [Perm.userCompany, Perm.userAccountManage],
        dataScope: 'dept_only',
        deptIds: [ent.depts.a],
      });
      const below = await createUser(t.db, ent, {
        permissions: [Perm.userCompany],
        dataScope: 'dept_and_below',
        deptIds: [ent.depts.a],
      });
      const list = async (user: typeof only) =>
        (await (await t.loginAs(user)).call(endpoints.accountList, { page: 1, size: 50 })).envelope.payload.data
          .map((a) => a.id)
          .sort();
      expect(await list(only)).toEqual([inA.id, only.id, below.id].sort());
      expect(await list(below)).toEqual([inA.id, inA1.id, only.id, below.id].sort());
      const c = await t.loginAs(only);
      expect((await c.call(endpoints.accountDetail, { id: inB.id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
      expect((await c.call(endpoints.accountSetStatus, { id: inB.id, status: 'paused' })).envelope.code).toBe(
        ErrorCode.NOT_FOUND,
      );
    });

    it('batch roles and departments replace them for every selected account and reload their sessions', async () => {
      const { ent, client } = await t.tenant();
      const u1 = await createUser(t.db, ent, { permissions: [] });
      const u2 = await createUser(t.db, ent, { permissions: [] });
      const c1 = await t.loginAs(u1);
      const role = await createRole(t.db, {
        entId: ent.id,
        name: 'Reporter',
        permissionCodes: [Perm.report, Perm.reportAd],
      });
      expect(
        (await client.call(endpoints.accountBatchRoles, { ids: [u1.id, u2.id], roleIds: [role.id] })).envelope.code,
      ).toBe(0);
      expect((await c1.call(endpoints.authInfo)).envelope.payload.permissionList).toEqual(
        [Perm.report, Perm.reportAd].sort(),
      );
      expect(
        (await client.call(endpoints.accountBatchDepts, { ids: [u1.id, u2.id], deptIds: [ent.depts.b, ent.depts.a] }))
          .envelope.code,
      ).toBe(0);
      const info = (await c1.call(endpoints.authInfo)).envelope.payload;
      expect(info.deptId).toBe(ent.depts.b);
      const detail = (await client.call(endpoints.accountDetail, { id: u2.id })).envelope.payload;
      expect(detail.departments.map((d) => d.id).sort()).toEqual([ent.depts.a, ent.depts.b].sort());
      expect(detail.roles).toEqual([{ id: role.id, name: 'Reporter' }]);
    });

    it('a manager who is not an administrator cannot hand out roles holding codes they lack', async () => {
      const ent = await createEnterprise(t.db);
      const manager = await createUser(t.db, ent, {
        permissions: [Perm.userCompany, Perm.userAccountManage],
        dataScope: 'dept_and_below',
      });
      const strong = await createRole(t.db, {
        entId: ent.id,
        name: 'Strong',
        deptId: ent.depts.root,
        permissionCodes: [Perm.userCompany, Perm.userRoleManage],
      });
      const target = await createUser(t.db, ent, { permissions: [], deptIds: [ent.depts.a] });
      const c = await t.loginAs(manager);
      const res = await c.call(endpoints.accountBatchRoles, { ids: [target.id], roleIds: [strong.id] });
      expect(res.envelope.code).toBe(ErrorCode.NO_PERMISSION);
    });
  });

  describe('roles', () => {
    async function adminRole(entId: string) {
      return createRole(t.db, {
        entId,
        name: 'Enterprise administrator',
        type: 'admin',
        dataScope: 'dept_and_below',
        permissionCodes: [Perm.user, Perm.userCompany, Perm.userCompanyRole],
        builtin: true,
      });
    }

    it('the built-in administrator role cannot be deleted or reduced, but can gain codes', async () => {
      const { ent, client } = await t.tenant();
      const role = await adminRole(ent.id);
      const del = await client.call(endpoints.roleDelete, { id: role.id });
      expect(del.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(del.envelope.message).toMatch(/cannot be deleted/);
      const base = { id: role.id, name: 'Enterprise administrator', type: 'admin', deptId: null };
      const reduce = await client.call(endpoints.roleUpdate, {
        ...base,
        dataScope: 'dept_and_below',
        permissionCodes: [Perm.user],
      });
      expect(reduce.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(reduce.envelope.message).toMatch(/cannot lose/);
      const narrower = await client.call(endpoints.roleUpdate, {
        ...base,
        dataScope: 'self',
        permissionCodes: [Perm.user, Perm.userCompany, Perm.userCompanyRole],
      });
      expect(narrower.envelope.code).toBe(ErrorCode.CONFLICT);
      const more = await client.call(endpoints.roleUpdate, {
        ...base,
        dataScope: 'dept_and_below',
        permissionCodes: [Perm.user, Perm.userCompany, Perm.userCompanyRole, Perm.report],
      });
      expect(more.envelope.code).toBe(0);
      const [row] = await t.db.select().from(roles).where(eq(roles.id, role.id));
      expect(row.permissionCodes).toContain(Perm.report);
      expect(row.type).toBe('admin');
    });

    it("a role change takes effect on its accounts' next call (menu shrinks)", async () => {
      const { ent, client } = await t.tenant();
      const role = await createRole(t.db, {
        entId: ent.id,
        name: 'Ops',
        deptId: ent.depts.root,
        permissionCodes: [Perm.device, Perm.deviceGroup, Perm.report, Perm.reportAd],
      });
      const staff = await createUser(t.db, ent, { permissions: [] });
      await client.call(endpoints.accountBatchRoles, { ids: [staff.id], roleIds: [role.id] });
      const staffClient = await t.loginAs(staff);
      const before = (await staffClient.call(endpoints.authInfo)).envelope.payload;
      expect(before.folderMenuList.map((m) => m.code)).toEqual(['home', 'device', 'report', 'skin']);
      const res = await client.call(endpoints.roleUpdate, {
        id: role.id,
        name: 'Ops',
        deptId: ent.depts.root,
        dataScope: 'self',
        permissionCodes: [Perm.report, Perm.reportAd],
      });
      expect(res.envelope.code).toBe(0);
      const after = (await staffClient.call(endpoints.authInfo)).envelope.payload;
      expect(after.folderMenuList.map((m) => m.code)).toEqual(['home', 'report', 'skin']);
      expect(after.permissionList).toEqual([Perm.report, Perm.reportAd].sort());
      // Deleting the role takes its codes away at once too.
      expect((await client.call(endpoints.roleDelete, { id: role.id })).envelope.code).toBe(0);
      expect((await staffClient.call(endpoints.authInfo)).envelope.payload.permissionList).toEqual([]);
    });

    it('refuses unknown codes, duplicate names and codes the caller lacks', async () => {
      const { ent, client } = await t.tenant();
      const payload = { name: 'Dup', deptId: ent.depts.a, dataScope: 'self', permissionCodes: [Perm.my] };
      expect((await client.call(endpoints.roleAdd, payload)).envelope.code).toBe(0);
      expect((await client.call(endpoints.roleAdd, payload)).envelope.code).toBe(ErrorCode.CONFLICT);
      const unknown = await client.call(endpoints.roleAdd, { ...payload, name: 'X', permissionCodes: ['nope'] });
      expect(unknown.envelope.code).toBe(ErrorCode.CONFLICT);
      const manager = await createUser(t.db, ent, {
        permissions: [Perm.userCompanyRole, Perm.userRoleManage],
        dataScope: 'dept_and_below',
      });
      const c = await t.loginAs(manager);
      const beyond = await c.call(endpoints.roleAdd, { ...payload, name: 'Y', permissionCodes: [Perm.device] });
      expect(beyond.envelope.code).toBe(ErrorCode.NO_PERMISSION);
      const within = await c.call(endpoints.roleAdd, {
        ...payload,
        name: 'Z',
        permissionCodes: [Perm.userCompanyRole],
      });
      expect(within.envelope.code).toBe(0);
    });

    it('the permission tree holds every code once, sections over pages over actions', async () => {
      const { client } = await t.tenant();
      const tree = (await client.call(endpoints.rolePermissionTree)).envelope.payload;
      const codes: string[] = [];
      const walk = (nodes: typeof tree) => {
        for (const n of nodes) {
          codes.push(n.code);
          walk(n.children ?? []);
        }
      };
      walk(tree);
      expect(new Set(codes).size).toBe(codes.length);
      const user = tree.find((n) => n.code === Perm.user);
      const company = user?.children?.find((n) => n.code === Perm.userCompany);
      expect(company?.title).toBe('menu:userCompany');
      expect(company?.children?.map((n) => n.code)).toContain(Perm.userAccountManage);
    });
  });

  describe('departments', () => {
    it('delete is refused while the department has members or children', async () => {
      const { ent, client } = await t.tenant();
      const withChildren = await client.call(endpoints.deptDelete, { id: ent.depts.a });
      expect(withChildren.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(withChildren.envelope.message).toMatch(/sub-departments/);
      await createUser(t.db, ent, { permissions: [], deptIds: [ent.depts.b] });
      const withMembers = await client.call(endpoints.deptDelete, { id: ent.depts.b });
      expect(withMembers.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(withMembers.envelope.message).toMatch(/member accounts/);
      expect((await client.call(endpoints.deptDelete, { id: ent.depts.a1 })).envelope.code).toBe(0);
      expect((await client.call(endpoints.deptDelete, { id: ent.depts.a })).envelope.code).toBe(0);
    });

    it('delete is refused, with a clear message and nothing changed, while other data belongs to the department', async () => {
      const { ent, admin, client } = await t.tenant();
      await insertTemplate(t.db, { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id, name: 'Kept template' });
      const res = await client.call(endpoints.deptDelete, { id: ent.depts.b });
      expect(res.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(res.envelope.message).toMatch(/Other data/);
      const rows = await t.db.select().from(departments).where(eq(departments.id, ent.depts.b));
      expect(rows).toHaveLength(1);
    });

    it('move refuses the department itself and its subtree, and rewrites the subtree paths', async () => {
      const { ent, client } = await t.tenant();
      for (const parentId of [ent.depts.a, ent.depts.a1]) {
        const res = await client.call(endpoints.deptMove, { id: ent.depts.a, parentId });
        expect(res.envelope.code).toBe(ErrorCode.CONFLICT);
        expect(res.envelope.message).toMatch(/under itself/);
      }
      expect((await client.call(endpoints.deptMove, { id: ent.depts.a, parentId: ent.depts.b })).envelope.code).toBe(0);
      const rows = await t.db
        .select()
        .from(departments)
        .where(and(eq(departments.entId, ent.id), like(departments.path, `/${ent.depts.root}/${ent.depts.b}/%`)));
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(ent.depts.a)).toMatchObject({
        parentId: ent.depts.b,
        depth: 2,
        path: `/${ent.depts.root}/${ent.depts.b}/${ent.depts.a}/`,
      });
      expect(byId.get(ent.depts.a1)).toMatchObject({
        depth: 3,
        path: `/${ent.depts.root}/${ent.depts.b}/${ent.depts.a}/${ent.depts.a1}/`,
      });
      const tree = (await client.call(endpoints.deptTree)).envelope.payload;
      expect(tree[0].children.map((c) => c.name)).toEqual(['Dept B']);
      expect(tree[0].children[0].children[0].children[0].name).toBe('Dept A1');
    });

    it('a moved department carries its members into the new scope of a manager', async () => {
      const { ent, client } = await t.tenant();
      const member = await createUser(t.db, ent, { permissions: [], deptIds: [ent.depts.a1] });
      const bManager = await createUser(t.db, ent, {
        permissions: [Perm.userCompany],
        dataScope: 'dept_and_below',
        deptIds: [ent.depts.b],
      });
      const c = await t.loginAs(bManager);
      expect((await c.call(endpoints.accountDetail, { id: member.id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
      await client.call(endpoints.deptMove, { id: ent.depts.a, parentId: ent.depts.b });
      expect((await c.call(endpoints.accountDetail, { id: member.id })).envelope.code).toBe(0);
    });

    it('names: at most 20 characters and unique among siblings', async () => {
      const { ent, client } = await t.tenant();
      const long = await client.call(endpoints.deptAdd, { parentId: ent.depts.root, name: 'x'.repeat(21) });
      expect(long.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      const dup = await client.call(endpoints.deptAdd, { parentId: ent.depts.root, name: 'dept a' });
      expect(dup.envelope.code).toBe(ErrorCode.CONFLICT);
      expect((await client.call(endpoints.deptAdd, { parentId: ent.depts.a, name: 'Dept B' })).envelope.code).toBe(0);
    });

    it('the sub-department list (code 2019103001273) answers children of the current department by default', async () => {
      const ent = await createEnterprise(t.db);
      const staff = await createUser(t.db, ent, {
        permissions: [],
        dataScope: 'dept_and_below',
        deptIds: [ent.depts.a],
      });
      const c = await t.loginAs(staff);
      const res = await c.call(endpoints.deptSubList, {});
      expect(res.envelope.payload).toEqual([
        { id: ent.depts.a1, name: 'Dept A1', parentId: ent.depts.a, hasChildren: false },
      ]);
      expect((await c.call(endpoints.deptSubList, { parentId: ent.depts.b })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    });
  });

  describe('invitations', () => {
    async function invite(days?: number) {
      const { ent, client } = await t.tenant();
      const role = await createRole(t.db, { entId: ent.id, name: 'Invited role', permissionCodes: [Perm.my] });
      const res = await client.call(endpoints.invitationCreate, { deptId: ent.depts.a, roleId: role.id, days });
      expect(res.envelope.code).toBe(0);
      return { ent, role, invitation: res.envelope.payload };
    }

    it('inspect shows the enterprise; accept creates an account in the preset department and role that can log in', async () => {
      const { ent, role, invitation } = await invite();
      const anon = t.client();
      const info = await anon.call(endpoints.invitationInspect, { token: invitation.token }, { token: null });
      expect(info.envelope.payload).toMatchObject({
        enterpriseName: ent.name,
        deptName: 'Dept A',
        roleName: 'Invited role',
      });
      const loginName = uniqueName('invitee');
      const accept = await anon.call(
        endpoints.invitationAccept,
        { token: invitation.token, loginName, password: STRONG, realName: 'Invitee', phone: '13812345678' },
        { token: null },
      );
      expect(accept.envelope.code, accept.body).toBe(0);
      const login = await t.client().login(loginName, STRONG);
      expect(login).toMatchObject({ entId: ent.id, deptId: ent.depts.a, permissionList: [Perm.my] });
      expect(login.id).toBeTruthy();
      expect(role.id).toBeTruthy();
      const again = await anon.call(
        endpoints.invitationAccept,
        { token: invitation.token, loginName, password: STRONG, realName: 'Again' },
        { token: null },
      );
      expect(again.envelope.code).toBe(ErrorCode.CONFLICT);
    });

    it('a tampered or unknown token is refused', async () => {
      const { invitation } = await invite();
      const [id, sig] = invitation.token.split('.');
      const flipped = `${id}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
      for (const token of [flipped, `${id[0] === '0' ? '1' : '0'}${id.slice(1)}.${sig}`, 'garbage', `${id}`]) {
        const res = await t.client().call(endpoints.invitationInspect, { token }, { token: null });
        expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
        const acc = await t
          .client()
          .call(
            endpoints.invitationAccept,
            { token, loginName: uniqueName('x'), password: STRONG, realName: 'X' },
            { token: null },
          );
        expect(acc.envelope.code).toBe(ErrorCode.NOT_FOUND);
      }
    });

    it('an expired invitation is refused', async () => {
      const { invitation } = await invite(1);
      t.clock.advance(DAY + 1000);
      try {
        const res = await t.client().call(endpoints.invitationInspect, { token: invitation.token }, { token: null });
        expect(res.envelope.code).toBe(ErrorCode.CONFLICT);
        expect(res.envelope.message).toMatch(/expired/);
        const acc = await t
          .client()
          .call(
            endpoints.invitationAccept,
            { token: invitation.token, loginName: uniqueName('x'), password: STRONG, realName: 'X' },
            { token: null },
          );
        expect(acc.envelope.code).toBe(ErrorCode.CONFLICT);
      } finally {
        t.clock.advance(-(DAY + 1000));
      }
    });
  });

  describe('enterprises', () => {
    async function operator() {
      const ent = await createEnterprise(t.db, { kind: 'provider' });
      const user = await createUser(t.db, ent, { isEntAdmin: true });
      return { ent, user, client: await t.loginAs(user) };
    }
    const creditCode = () =>
      `91${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`.toUpperCase().padEnd(18, '0').slice(0, 18);

    it('the operator adds a company with its administrator, who can log in and see it as their own', async () => {
      const op = await operator();
      const loginName = uniqueName('boss');
      const code = creditCode();
      const res = await op.client.call(endpoints.enterpriseAdd, {
        kind: 'enterprise',
        name: 'Sunrise Screens Ltd',
        socialCreditCode: code,
        contact: 'Wang Wu',
        phone: '13700000000',
        accountType: 'enterprise',
        admin: { loginName, password: STRONG, realName: 'Boss' },
      });
      expect(res.envelope.code, res.body).toBe(0);
      const boss = await t.client();
      await boss.login(loginName, STRONG);
      const own = (await boss.call(endpoints.enterpriseDetail, {})).envelope.payload;
      expect(own).toMatchObject({
        name: 'Sunrise Screens Ltd',
        contact: 'Wang Wu',
        adminLoginName: loginName,
        accountCount: 1,
      });
      const tree = (await boss.call(endpoints.deptTree)).envelope.payload;
      expect(tree).toHaveLength(1);
      // Duplicate credit code and login name are refused.
      const dup = await op.client.call(endpoints.enterpriseAdd, {
        kind: 'agent',
        name: 'Another Company',
        socialCreditCode: code,
        contact: 'X',
        phone: '13700000001',
        accountType: 'individual',
        admin: { loginName: uniqueName('b2'), password: STRONG, realName: 'B' },
      });
      expect(dup.envelope.code).toBe(ErrorCode.CONFLICT);
      // The new company's administrator does not manage enterprises.
      expect((await boss.call(endpoints.enterpriseList, {})).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    });

    it('company name and credit code follow the rules', async () => {
      const op = await operator();
      const base = {
        kind: 'enterprise',
        contact: 'C',
        phone: '13700000000',
        accountType: 'enterprise',
        admin: { loginName: uniqueName('a'), password: STRONG, realName: 'A' },
      };
      for (const bad of [
        { name: '123456789', socialCreditCode: creditCode() },
        { name: 'Abcd', socialCreditCode: creditCode() },
        { name: 'Fine Company', socialCreditCode: '91310000MA1中文0001' },
        { name: 'Fine Company', socialCreditCode: '91310000' },
      ]) {
        expect((await op.client.call(endpoints.enterpriseAdd, { ...base, ...bad })).envelope.code).toBe(
          ErrorCode.INVALID_PARAMS,
        );
      }
    });

    it("pausing an enterprise ends its accounts' sessions with SESSION_ENDED", async () => {
      const op = await operator();
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent, { permissions: [Perm.my] });
      const c = await t.loginAs(user);
      expect(
        (await op.client.call(endpoints.enterpriseSetStatus, { id: ent.id, status: 'paused' })).envelope.code,
      ).toBe(0);
      expect((await c.call(endpoints.authInfo)).envelope.code).toBe(ErrorCode.SESSION_ENDED);
      const list = await op.client.call(endpoints.enterpriseList, { status: 'paused', name: ent.name });
      expect(list.envelope.payload.data.map((e) => e.id)).toEqual([ent.id]);
      expect(
        (await op.client.call(endpoints.enterpriseSetStatus, { id: op.ent.id, status: 'paused' })).envelope.code,
      ).toBe(ErrorCode.CONFLICT);
    });

    it('an enterprise administrator edits their own enterprise; staff cannot', async () => {
      const { ent, client } = await t.tenant();
      const payload = {
        id: ent.id,
        name: 'My Own Company',
        socialCreditCode: creditCode(),
        contact: 'Me',
        phone: '13600000000',
        accountType: 'enterprise',
        welcomeSpeech: 'Hello team',
      };
      expect((await client.call(endpoints.enterpriseUpdate, payload)).envelope.code).toBe(0);
      expect((await client.call(endpoints.authInfo)).envelope.payload.welcomeSpeech).toBe('Hello team');
      const staff = await createUser(t.db, ent, { permissions: [Perm.userCompany] });
      const sc = await t.loginAs(staff);
      expect((await sc.call(endpoints.enterpriseUpdate, payload)).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    });
  });
});
