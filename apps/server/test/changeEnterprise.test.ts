import { ErrorCode, endpoints, type UserInfo } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, operationLogs } from '../src/db/schema/index.js';
import { insertTemplate } from '../src/modules/templates/repository.js';
import {
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
} from './helpers/index.js';

/** 'Change enterprise' (spec section 7, account and auth; issue 8). */
describe.each(BACKENDS)('change enterprise on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function customerOf(agent: TestEnterprise | null, name: string): Promise<TestEnterprise> {
    const ent = await createEnterprise(t.db, { name });
    if (agent) await t.db.update(enterprises).set({ parentId: agent.id }).where(eq(enterprises.id, ent.id));
    return ent;
  }

  /** An agent with an administrator, two customers, and a customer of another agent. */
  async function world() {
    const agent = await createEnterprise(t.db, { kind: 'agent', name: `Agent ${Math.random()}` });
    const admin = await createUser(t.db, agent, { isEntAdmin: true });
    const a = await customerOf(agent, `Customer A ${Math.random()}`);
    const b = await customerOf(agent, `Customer B ${Math.random()}`);
    const otherAgent = await createEnterprise(t.db, { kind: 'agent' });
    const foreign = await customerOf(otherAgent, `Foreign ${Math.random()}`);
    const aUser = await createUser(t.db, a);
    const agentUser = await createUser(t.db, agent);
    const { id: aTemplate } = await insertTemplate(t.db, {
      entId: a.id,
      deptId: a.depts.a1,
      ownerId: aUser.id,
      name: 'Customer template',
    });
    const client = await t.loginAs(admin);
    return { agent, admin, a, b, foreign, aUser, agentUser, aTemplate, client };
  }

  const loginNames = async (client: Awaited<ReturnType<TestApp['loginAs']>>) =>
    (
      (await client.call(endpoints.accountList, { page: 1, size: 100 })).envelope.payload as {
        data: { loginName: string }[];
      }
    ).data.map((r) => r.loginName);

  it("lists the agent's own enterprise first, then its customers, never another agent's", async () => {
    const w = await world();
    const res = await w.client.call(endpoints.enterpriseOptions);
    expect(res.envelope.code).toBe(0);
    const options = res.envelope.payload as { value: string; label: string }[];
    expect(options[0]).toEqual({ value: w.agent.id, label: w.agent.name });
    expect(options.map((o) => o.value).sort()).toEqual([w.agent.id, w.a.id, w.b.id].sort());
  });

  it('refuses an enterprise the account does not manage as not found, and changes nothing', async () => {
    const w = await world();
    for (const entId of [w.foreign.id, 'no-such-enterprise']) {
      expect((await w.client.call(endpoints.changeEnterprise, { entId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    }
    // A customer's administrator cannot act for its agent or a sibling customer.
    const customerAdmin = await t.loginAs(await createUser(t.db, w.a, { isEntAdmin: true }));
    for (const entId of [w.agent.id, w.b.id]) {
      expect((await customerAdmin.call(endpoints.changeEnterprise, { entId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    }
    expect(((await w.client.call(endpoints.authInfo)).envelope.payload as UserInfo).entId).toBe(w.agent.id);
  });

  it('after switching, every scoped read of the session is the new enterprise; switching back restores it', async () => {
    const w = await world();
    const res = await w.client.call(endpoints.changeEnterprise, { entId: w.a.id });
    expect(res.envelope.code).toBe(0);
    const info = res.envelope.payload as UserInfo;
    expect(info).toMatchObject({ entId: w.a.id, entName: w.a.name, homeEntId: w.agent.id, deptId: w.a.depts.root });
    expect(((await w.client.call(endpoints.authInfo)).envelope.payload as UserInfo).entId).toBe(w.a.id);

    const names = await loginNames(w.client);
    expect(names).toContain(w.aUser.loginName);
    expect(names).not.toContain(w.agentUser.loginName);
    expect(names).not.toContain(w.admin.loginName);
    const templates = await w.client.call(endpoints.templatePage, { page: 1, size: 20 });
    expect((templates.envelope.payload as { data: { id: string }[] }).data.map((r) => r.id)).toEqual([w.aTemplate]);
    // Another session of the same account stays in its own enterprise.
    const other = await t.loginAs(w.admin);
    expect(await loginNames(other)).toContain(w.agentUser.loginName);
    // The account's own things stay its own: its profile.
    expect((await w.client.call(endpoints.profileGet)).envelope.code).toBe(0);

    // The switch is logged in the account's own enterprise, naming the enterprise.
    const [entry] = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.entId, w.agent.id), eq(operationLogs.action, 'changeEnterprise')));
    expect(entry).toMatchObject({ accountId: w.admin.id, targetId: w.a.id, targetName: w.a.name });

    expect((await w.client.call(endpoints.changeEnterprise, { entId: w.agent.id })).envelope.payload).toMatchObject({
      entId: w.agent.id,
      homeEntId: w.agent.id,
    });
    const back = await loginNames(w.client);
    expect(back).toContain(w.agentUser.loginName);
    expect(back).not.toContain(w.aUser.loginName);
    expect((await w.client.call(endpoints.logout)).envelope.code).toBe(0);
  });

  it('stops acting for an enterprise that is paused, back in its own', async () => {
    const w = await world();
    expect((await w.client.call(endpoints.changeEnterprise, { entId: w.a.id })).envelope.code).toBe(0);
    const home = await t.loginAs(w.admin);
    expect((await home.call(endpoints.enterpriseSetStatus, { id: w.a.id, status: 'paused' })).envelope.code).toBe(0);
    t.services.sessions.cache.invalidateAccount(w.admin.id);
    expect(((await w.client.call(endpoints.authInfo)).envelope.payload as UserInfo).entId).toBe(w.agent.id);
    expect((await w.client.call(endpoints.changeEnterprise, { entId: w.a.id })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });
});
