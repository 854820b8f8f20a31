import { ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../src/db/schema/index.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

describe.each(BACKENDS)('departments on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function staff() {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent, {
      permissions: [Perm.deptSwitch, Perm.notice],
      deptIds: [ent.depts.a, ent.depts.b],
    });
    return { ent, user, client: await t.loginAs(user) };
  }

  it("dept.userList answers the caller's departments as options", async () => {
    const { ent, client } = await staff();
    const res = await client.call(endpoints.deptUserList);
    expect(res.envelope.code).toBe(0);
    expect(res.envelope.payload).toEqual(
      expect.arrayContaining([
        { value: ent.depts.a, label: 'Dept A' },
        { value: ent.depts.b, label: 'Dept B' },
      ]),
    );
    expect(res.envelope.payload).toHaveLength(2);
  });

  it('dept.change switches the current department for every session of the account', async () => {
    const { ent, user, client } = await staff();
    const otherSession = await t.loginAs(user);
    expect((await otherSession.call(endpoints.authInfo)).envelope.payload.deptId).toBe(ent.depts.a);
    const res = await client.call(endpoints.deptChange, { deptId: ent.depts.b });
    expect(res.envelope.code).toBe(0);
    expect(res.envelope.payload).toMatchObject({ deptId: ent.depts.b, deptName: 'Dept B', id: user.id });
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, user.id));
    expect(row.currentDeptId).toBe(ent.depts.b);
    // The cached principal of both sessions was dropped.
    expect((await client.call(endpoints.authInfo)).envelope.payload.deptName).toBe('Dept B');
    expect((await otherSession.call(endpoints.authInfo)).envelope.payload.deptName).toBe('Dept B');
  });

  it('dept.change to the current department is allowed and changes nothing', async () => {
    const { ent, user, client } = await staff();
    const before = await t.db.select().from(accounts).where(eq(accounts.id, user.id));
    const res = await client.call(endpoints.deptChange, { deptId: ent.depts.a });
    expect(res.envelope.code).toBe(0);
    expect(res.envelope.payload.deptId).toBe(ent.depts.a);
    const after = await t.db.select().from(accounts).where(eq(accounts.id, user.id));
    expect(after[0].updatedAt).toEqual(before[0].updatedAt);
  });

  it('dept.change answers NOT_FOUND for a department the caller is not in', async () => {
    const { ent, user, client } = await staff();
    const res = await client.call(endpoints.deptChange, { deptId: ent.depts.a1 });
    expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, user.id));
    expect(row.currentDeptId).toBe(ent.depts.a);
  });

  it("dept.change answers NOT_FOUND for another enterprise's department", async () => {
    const { client } = await staff();
    const other = await createEnterprise(t.db);
    expect((await client.call(endpoints.deptChange, { deptId: other.depts.root })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect((await client.call(endpoints.deptChange, { deptId: 'not-a-uuid' })).envelope.code).toBe(ErrorCode.NOT_FOUND);
  });
});
