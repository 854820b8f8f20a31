import { type EndpointDef, ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { monitorApplications, notices, operationLogs } from '../src/db/schema/index.js';
import { createMonitorApplication } from '../src/modules/notice/service.js';
import { AppError } from '../src/protocol/appError.js';
import { defineHandler } from '../src/protocol/handlers.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

// A mutation that writes, logs, and then fails: everything must roll back.
const writeThenFail = {
  name: 'test.writeThenFail',
  path: '/api/test/writeThenFail.shtm',
  auth: 'session',
  mutation: true,
  request: z.object({ title: z.string() }),
  response: z.null(),
} satisfies EndpointDef;

describe.each(BACKENDS)('operation log on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, {
      extraEndpoints: [
        defineHandler(writeThenFail, {
          handle: async (input, ctx) => {
            await ctx.db.insert(notices).values({ entId: ctx.user.entId, title: input.title });
            await ctx.audit({ module: 'notice', action: 'create', targetType: 'notice', targetName: input.title });
            throw new AppError(ErrorCode.CONFLICT);
          },
        }),
      ],
    });
  });
  afterAll(() => t.close());

  const logsOf = (entId: string) => t.db.select().from(operationLogs).where(eq(operationLogs.entId, entId));

  it('a login writes one row with who, what, when and from where', async () => {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent);
    const client = t.client({ ip: '203.0.113.7' });
    const res = await client.call(endpoints.login, { loginName: user.loginName, password: user.password });
    expect(res.envelope.code).toBe(0);
    const logs = await logsOf(ent.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      entId: ent.id,
      accountId: user.id,
      loginName: user.loginName,
      module: 'auth',
      action: 'login',
      targetType: 'account',
      targetId: user.id,
      targetName: user.loginName,
      ip: '203.0.113.7',
      endpoint: 'auth.login',
      result: 'success',
    });
    expect(logs[0].traceKey).toMatch(/^trace-/);
    expect(logs[0].createdAt.getTime()).toBe(t.clock.now());
    expect(JSON.stringify(logs[0])).not.toContain(user.password);
  });

  it('a mutation writes exactly one row in its transaction', async () => {
    const { ent, admin, client } = await t.tenant();
    const monitorEnt = await createEnterprise(t.db);
    const monitor = await createUser(t.db, monitorEnt);
    const { noticeId, applicationId } = await createMonitorApplication(t.db, {
      entId: ent.id,
      applicantAccountId: monitor.id,
      title: 'x',
      content: '',
    });
    expect((await client.call(endpoints.monitorApply, { noticeId, status: 1 })).envelope.code).toBe(0);
    const logs = (await logsOf(ent.id)).filter((l) => l.module === 'notice');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      accountId: admin.id,
      action: 'monitorApply.agree',
      targetType: 'monitor_application',
      targetId: applicationId,
      detail: { noticeId, monitorAccountId: monitor.id },
    });
  });

  it('a failing mutation writes nothing', async () => {
    const { ent, client } = await t.tenant();
    const monitorEnt = await createEnterprise(t.db);
    const monitor = await createUser(t.db, monitorEnt);
    const { noticeId, applicationId } = await createMonitorApplication(t.db, {
      entId: ent.id,
      applicantAccountId: monitor.id,
      title: 'x',
      content: '',
    });
    await t.db.update(monitorApplications).set({ status: 'refused' }).where(eq(monitorApplications.id, applicationId));
    const before = (await logsOf(ent.id)).length;
    expect((await client.call(endpoints.monitorApply, { noticeId, status: 1 })).envelope.code).toBe(ErrorCode.CONFLICT);
    expect((await client.call(endpoints.monitorApply, { noticeId: 'missing', status: 1 })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect(await logsOf(ent.id)).toHaveLength(before);
  });

  it('rolls back the writes and the log row of a mutation that fails after writing', async () => {
    const { ent, client } = await t.tenant();
    const before = (await logsOf(ent.id)).length;
    const res = await client.call(writeThenFail, { title: 'must not stay' });
    expect(res.envelope.code).toBe(ErrorCode.CONFLICT);
    expect(await t.db.select().from(notices).where(eq(notices.entId, ent.id))).toHaveLength(0);
    expect(await logsOf(ent.id)).toHaveLength(before);
  });

  it('names a target as it was when the entry was written, through later renames and deletion', async () => {
    const { ent, client } = await t.tenant();
    const add = await client.call(endpoints.roleAdd, {
      name: 'Shop managers',
      deptId: ent.depts.a,
      dataScope: 'dept_only',
      permissionCodes: [Perm.user],
    });
    expect(add.envelope.code).toBe(0);
    const id = (add.envelope.payload as { id: string }).id;
    const rename = { id, name: 'Store managers', deptId: ent.depts.a, dataScope: 'dept_only', permissionCodes: [] };
    expect((await client.call(endpoints.roleUpdate, rename)).envelope.code).toBe(0);
    expect((await client.call(endpoints.roleDelete, { id })).envelope.code).toBe(0);
    const names = (await logsOf(ent.id))
      .filter((l) => l.module === 'role')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.action.localeCompare(b.action))
      .map((l) => [l.action, l.targetId, l.targetName]);
    expect(names).toEqual([
      ['add', id, 'Shop managers'],
      ['delete', id, 'Store managers'],
      ['update', id, 'Store managers'],
    ]);
    // The log page and its export read the stored name: the role no longer exists.
    const list = await client.call(endpoints.operationLogList, { page: 1, size: 50, module: 'role' });
    expect((list.envelope.payload as { data: { targetName: string }[] }).data.map((r) => r.targetName).sort()).toEqual([
      'Shop managers',
      'Store managers',
      'Store managers',
    ]);
  });

  it('a failed login writes nothing', async () => {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent);
    await t
      .client({ ip: '198.51.100.9' })
      .call(endpoints.login, { loginName: user.loginName, password: 'Wrong@Pass1' });
    expect(await logsOf(ent.id)).toHaveLength(0);
  });
});
