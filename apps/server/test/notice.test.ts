import { ErrorCode, endpoints, type Notice } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorApplications, monitorGrants, notices } from '../src/db/schema/index.js';
import { sanitizeHtml } from '../src/modules/notice/sanitize.js';
import { createMonitorApplication, createNotice } from '../src/modules/notice/service.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, MINUTE, type TestApp } from './helpers/index.js';

describe.each(BACKENDS)('notices on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function monitorAccount() {
    const ent = await createEnterprise(t.db);
    return createUser(t.db, ent, { thirdMonitor: true });
  }

  describe('notice.list', () => {
    it('lists the enterprise notices and platform-wide ones, newest first, never another tenant', async () => {
      const { ent, client } = await t.tenant();
      const other = await createEnterprise(t.db);
      const base = t.clock.now() + 1000 * MINUTE; // newer than any other test's platform notices
      const at = (m: number) => new Date(base + m * MINUTE);
      await createNotice(t.db, { entId: ent.id, title: 'own old', content: '<p>a</p>', createdAt: at(1) });
      await createNotice(t.db, { entId: null, title: 'platform', content: '<p>b</p>', createdAt: at(2) });
      await createNotice(t.db, { entId: other.id, title: 'other tenant', content: '<p>c</p>', createdAt: at(3) });
      await createNotice(t.db, { entId: ent.id, title: 'own new', content: '<p>d</p>', createdAt: at(4) });
      await createNotice(t.db, { entId: ent.id, title: 'app only', content: '', pushPlatform: 2, createdAt: at(5) });
      const res = await client.call(endpoints.noticeList, { page: 1, size: 3, pushPlatform: 1 });
      expect(res.envelope.code).toBe(0);
      const titles = res.envelope.payload.data.map((n: Notice) => n.title);
      expect(titles).toEqual(['own new', 'platform', 'own old']);
      const platformCount = (await t.db.select().from(notices).where(eq(notices.pushPlatform, 1))).filter(
        (n) => n.entId === null,
      ).length;
      expect(res.envelope.payload.total).toBe(2 + platformCount);
      const page2 = await client.call(endpoints.noticeList, { page: 2, size: 3, pushPlatform: 1 });
      expect(page2.envelope.payload.data.map((n: Notice) => n.title)).not.toContain('other tenant');
    });

    it('defaults to page 1, size 10, push platform 1', async () => {
      const { ent, client } = await t.tenant();
      await createNotice(t.db, { entId: ent.id, title: 'only console', content: '' });
      await createNotice(t.db, { entId: ent.id, title: 'only app', content: '', pushPlatform: 2 });
      const res = await client.call(endpoints.noticeList, {});
      const titles = res.envelope.payload.data.map((n: Notice) => n.title);
      expect(titles).toContain('only console');
      expect(titles).not.toContain('only app');
      expect(res.envelope.payload.data.length).toBeLessThanOrEqual(10);
    });

    it('answers an empty page far past the end, never a server error', async () => {
      const { client } = await t.tenant();
      const res = await client.call(endpoints.noticeList, { page: Number.MAX_SAFE_INTEGER, size: 100 });
      expect(res.envelope.code).toBe(0);
      expect(res.envelope.payload.data).toEqual([]);
      const unsafe = await client.call(endpoints.noticeList, { page: 2 ** 60 });
      expect(unsafe.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    });

    it('shows the monitor application status of system notices', async () => {
      const { ent, client } = await t.tenant();
      const monitor = await monitorAccount();
      const { noticeId } = await createMonitorApplication(t.db, {
        entId: ent.id,
        applicantAccountId: monitor.id,
        title: 'May we monitor?',
        content: '<p>Please</p>',
        createdAt: new Date(t.clock.now() + 5000 * MINUTE),
      });
      await createNotice(t.db, { entId: ent.id, title: 'plain', content: '' });
      const before = await client.call(endpoints.noticeList, {});
      const system = before.envelope.payload.data.find((n: Notice) => n.id === noticeId);
      expect(system).toMatchObject({ type: 'system', monitorStatus: 'pending' });
      expect(before.envelope.payload.data.find((n: Notice) => n.title === 'plain')?.monitorStatus).toBeNull();
      expect((await client.call(endpoints.monitorApply, { noticeId, status: 1 })).envelope.code).toBe(0);
      const after = await client.call(endpoints.noticeList, {});
      expect(after.envelope.payload.data.find((n: Notice) => n.id === noticeId)?.monitorStatus).toBe('agreed');
    });

    it('sanitises notice HTML on write, keeping images', async () => {
      const { ent } = await t.tenant();
      const { id } = await createNotice(t.db, {
        entId: ent.id,
        title: 'html',
        content:
          '<p onclick="steal()">Hi<script>alert(1)</script><img src="https://cdn.example/a.png" onerror="x()"></p>',
      });
      const [row] = await t.db.select().from(notices).where(eq(notices.id, id));
      expect(row.content).toBe('<p>Hi<img src="https://cdn.example/a.png"></p>');
      expect(await sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    });
  });

  describe('notice.monitorApply', () => {
    it('agrees: the application is decided and the monitor account is granted access', async () => {
      const { ent, admin, client } = await t.tenant();
      const monitor = await monitorAccount();
      const { noticeId, applicationId } = await createMonitorApplication(t.db, {
        entId: ent.id,
        applicantAccountId: monitor.id,
        title: 'May we monitor?',
        content: '',
      });
      const res = await client.call(endpoints.monitorApply, { noticeId, status: 1 });
      expect(res.envelope).toEqual({ code: 0, message: 'Operation successful', payload: null });
      const [application] = await t.db
        .select()
        .from(monitorApplications)
        .where(eq(monitorApplications.id, applicationId));
      expect(application).toMatchObject({ status: 'agreed', decidedBy: admin.id });
      const grants = await t.db.select().from(monitorGrants).where(eq(monitorGrants.entId, ent.id));
      expect(grants).toHaveLength(1);
      expect(grants[0]).toMatchObject({ monitorAccountId: monitor.id, applicationId, revokedAt: null });
    });

    it('refuses: decided without a grant', async () => {
      const { ent, client } = await t.tenant();
      const monitor = await monitorAccount();
      const { noticeId, applicationId } = await createMonitorApplication(t.db, {
        entId: ent.id,
        applicantAccountId: monitor.id,
        title: 'May we monitor?',
        content: '',
      });
      expect((await client.call(endpoints.monitorApply, { noticeId, status: 0 })).envelope.code).toBe(0);
      const [application] = await t.db
        .select()
        .from(monitorApplications)
        .where(eq(monitorApplications.id, applicationId));
      expect(application.status).toBe('refused');
      expect(await t.db.select().from(monitorGrants).where(eq(monitorGrants.entId, ent.id))).toHaveLength(0);
    });

    it('answers CONFLICT for a decided application: review decisions cannot be changed', async () => {
      const { ent, client } = await t.tenant();
      const monitor = await monitorAccount();
      const { noticeId } = await createMonitorApplication(t.db, {
        entId: ent.id,
        applicantAccountId: monitor.id,
        title: 'May we monitor?',
        content: '',
      });
      await client.call(endpoints.monitorApply, { noticeId, status: 0 });
      const again = await client.call(endpoints.monitorApply, { noticeId, status: 1 });
      expect(again.envelope).toEqual({
        code: ErrorCode.CONFLICT,
        message: 'Review decisions cannot be changed',
        payload: null,
      });
      expect(await t.db.select().from(monitorGrants).where(eq(monitorGrants.entId, ent.id))).toHaveLength(0);
    });

    it("answers NOT_FOUND for another tenant's notice, a plain notice or an unknown id", async () => {
      const { client } = await t.tenant();
      const other = await createEnterprise(t.db);
      const monitor = await monitorAccount();
      const { noticeId: othersNotice, applicationId } = await createMonitorApplication(t.db, {
        entId: other.id,
        applicantAccountId: monitor.id,
        title: 'For the other tenant',
        content: '',
      });
      const res = await client.call(endpoints.monitorApply, { noticeId: othersNotice, status: 1 });
      expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
      const [application] = await t.db
        .select()
        .from(monitorApplications)
        .where(eq(monitorApplications.id, applicationId));
      expect(application.status).toBe('pending');

      const { ent: mine, client: mineClient } = await t.tenant();
      const plain = await createNotice(t.db, { entId: mine.id, title: 'plain', content: '' });
      expect((await mineClient.call(endpoints.monitorApply, { noticeId: plain.id, status: 1 })).envelope.code).toBe(
        ErrorCode.NOT_FOUND,
      );
      expect((await mineClient.call(endpoints.monitorApply, { noticeId: 'no-such-id', status: 1 })).envelope.code).toBe(
        ErrorCode.NOT_FOUND,
      );
    });

    it('needs the notice permission', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent, { permissions: ['yxf_new_device'] });
      const client = await t.loginAs(user);
      const monitor = await monitorAccount();
      const { noticeId } = await createMonitorApplication(t.db, {
        entId: ent.id,
        applicantAccountId: monitor.id,
        title: 'x',
        content: '',
      });
      expect((await client.call(endpoints.monitorApply, { noticeId, status: 1 })).envelope.code).toBe(
        ErrorCode.NO_PERMISSION,
      );
      const pending = await t.db
        .select()
        .from(monitorApplications)
        .where(and(eq(monitorApplications.entId, ent.id), eq(monitorApplications.status, 'pending')));
      expect(pending).toHaveLength(1);
    });
  });
});
