import { ErrorCode, endpoints, errorMessage, Perm } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/tokens.js';
import type { Executor } from '../src/db/client.js';
import { accounts, sessions } from '../src/db/schema/index.js';
import { kickAccountSessions, setAccountStatus } from '../src/modules/accounts/service.js';
import {
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  HOUR,
  MINUTE,
  TEST_PASSWORD,
  type TestApp,
} from './helpers/index.js';

describe.each(BACKENDS)('login and sessions on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, { config: { sessionIdleHours: 12, sessionMaxDays: 2 } });
  });
  afterAll(() => t.close());

  /** Runs an account service in its own transaction, as an administrator's call will. */
  async function inTransaction(fn: (tx: Executor, afterCommit: (f: () => void) => void) => Promise<unknown>) {
    const hooks: (() => void)[] = [];
    await t.db.transaction(async (tx) => {
      await fn(tx as unknown as Executor, (f) => hooks.push(f));
    });
    for (const hook of hooks) hook();
  }

  describe('login', () => {
    it('answers the token and the user info', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent, { permissions: [Perm.device, Perm.deviceGroup, Perm.notice] });
      const res = await t.client().call(endpoints.login, { loginName: user.loginName, password: user.password });
      expect(res.envelope.code).toBe(0);
      const info = res.envelope.payload;
      expect(info.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(info).toMatchObject({
        id: user.id,
        entId: ent.id,
        loginName: user.loginName,
        deptId: ent.depts.root,
        deptName: 'Root',
        welcomeSpeech: `Welcome to ${ent.name}`,
        isYXF: false,
        openWxLogin: 'N',
        thirdMonitorUser: false,
        updatePwd: false,
        weakPassword: false,
        expiresIn: 12 * 3600,
      });
      expect(info.userId).toMatch(/^\d+$/);
      expect(info.permissionList).toEqual([Perm.device, Perm.deviceGroup, Perm.notice].sort());
      expect(info.folderMenuList.map((m) => m.url)).toEqual(['/', '/device', '/skin']);
      expect(info.folderMenuList[1].children?.map((c) => c.url)).toEqual(['/device/group']);
    });

    it('stores only the hash of the token', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = await t.loginAs(user);
      const rows = await t.db.select().from(sessions).where(eq(sessions.accountId, user.id));
      expect(rows).toHaveLength(1);
      expect(rows[0].tokenHash).toBe(hashToken(client.token as string));
      expect(JSON.stringify(rows[0])).not.toContain(client.token);
    });

    it('accepts the login name in any case and flags a weak password', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent, { password: 'abcdef' });
      const res = await t
        .client()
        .call(endpoints.login, { loginName: user.loginName.toUpperCase(), password: 'abcdef' });
      expect(res.envelope.code).toBe(0);
      expect(res.envelope.payload.weakPassword).toBe(true);
    });

    it('answers LOGIN_FAILED alike for a wrong password and an unknown account', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = t.client({ ip: '10.0.0.1' });
      const wrong = await client.call(endpoints.login, { loginName: user.loginName, password: 'Wrong@Pass1' });
      const unknown = await client.call(endpoints.login, { loginName: 'nobody_here', password: 'Wrong@Pass1' });
      expect(wrong.envelope).toEqual({
        code: ErrorCode.LOGIN_FAILED,
        message: 'Wrong account or password',
        payload: null,
      });
      expect(unknown.envelope).toEqual(wrong.envelope);
    });

    it('answers ACCOUNT_PAUSED for a paused account with the right password only', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent, { status: 'paused' });
      const client = t.client({ ip: '10.0.0.2' });
      const right = await client.call(endpoints.login, { loginName: user.loginName, password: user.password });
      expect(right.envelope.code).toBe(ErrorCode.ACCOUNT_PAUSED);
      const wrong = await client.call(endpoints.login, { loginName: user.loginName, password: 'Wrong@Pass1' });
      expect(wrong.envelope.code).toBe(ErrorCode.LOGIN_FAILED);
    });

    it('refuses a malformed login name or short password as INVALID_PARAMS', async () => {
      const res = await t.client().call(endpoints.login, { loginName: 'a b', password: '123' });
      expect(res.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect(res.envelope.message).toContain('loginName');
    });
  });

  describe('throttling', () => {
    it('refuses a login name after 5 failures in 15 minutes, even with the right password', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = t.client({ ip: '10.1.0.1' });
      for (let i = 0; i < 5; i++) {
        const res = await client.call(endpoints.login, { loginName: user.loginName, password: 'Wrong@Pass1' });
        expect(res.envelope.code).toBe(ErrorCode.LOGIN_FAILED);
      }
      const blocked = await client.call(endpoints.login, { loginName: user.loginName, password: user.password });
      expect(blocked.envelope.code).toBe(ErrorCode.RATE_LIMITED);
      expect(blocked.envelope.message).toBe('Too many attempts. Please try again in 15 minutes');
      const zh = await client.call(
        endpoints.login,
        { loginName: user.loginName, password: user.password },
        { language: 'zh-CN' },
      );
      expect(zh.envelope.message).toBe('尝试次数过多，请 15 分钟后再试');
      // Another address is refused too: the limit is per login name.
      const elsewhere = await t
        .client({ ip: '10.1.0.2' })
        .call(endpoints.login, { loginName: user.loginName, password: user.password });
      expect(elsewhere.envelope.code).toBe(ErrorCode.RATE_LIMITED);
      t.clock.advance(10 * MINUTE);
      const later = await client.call(endpoints.login, { loginName: user.loginName, password: user.password });
      expect(later.envelope.message).toBe('Too many attempts. Please try again in 5 minutes');
      t.clock.advance(5 * MINUTE + 1000);
      const ok = await client.call(endpoints.login, { loginName: user.loginName, password: user.password });
      expect(ok.envelope.code).toBe(0);
    });

    it('resets the account counter on success', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = t.client({ ip: '10.2.0.1' });
      const fail = () => client.call(endpoints.login, { loginName: user.loginName, password: 'Wrong@Pass1' });
      for (let i = 0; i < 4; i++) await fail();
      await client.login(user.loginName, user.password);
      for (let i = 0; i < 4; i++) expect((await fail()).envelope.code).toBe(ErrorCode.LOGIN_FAILED);
      expect(
        (await client.call(endpoints.login, { loginName: user.loginName, password: user.password })).envelope.code,
      ).toBe(0);
    });

    it('refuses an address after 20 failures in 15 minutes', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = t.client({ ip: '10.3.0.1' });
      for (let i = 0; i < 20; i++) {
        const res = await client.call(endpoints.login, { loginName: `guess_${i}_name`, password: 'Wrong@Pass1' });
        expect(res.envelope.code).toBe(ErrorCode.LOGIN_FAILED);
      }
      const blocked = await client.call(endpoints.login, { loginName: user.loginName, password: user.password });
      expect(blocked.envelope.code).toBe(ErrorCode.RATE_LIMITED);
      const otherAddress = await t.client({ ip: '10.3.0.2' }).call(endpoints.login, {
        loginName: user.loginName,
        password: user.password,
      });
      expect(otherAddress.envelope.code).toBe(0);
    });
  });

  describe('sessions', () => {
    it('answers TOKEN_INVALID for a missing, unknown or malformed token', async () => {
      const client = t.client();
      for (const token of [null, 'A'.repeat(43), 'short']) {
        const res = await client.call(endpoints.authInfo, {}, { token });
        expect(res.envelope.code).toBe(ErrorCode.TOKEN_INVALID);
        expect(res.envelope.message).toBe(errorMessage(ErrorCode.TOKEN_INVALID, 'en-US'));
      }
    });

    it('ends the session on logout', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = await t.loginAs(user);
      expect((await client.call(endpoints.authInfo)).envelope.code).toBe(0);
      expect((await client.call(endpoints.logout)).envelope).toEqual({
        code: 0,
        message: 'Operation successful',
        payload: null,
      });
      expect((await client.call(endpoints.authInfo)).envelope.code).toBe(-11004);
      const [row] = await t.db.select().from(sessions).where(eq(sessions.accountId, user.id));
      expect(row.endedReason).toBe('logout');
    });

    it('expires after the idle time, sliding with use', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = await t.loginAs(user);
      t.clock.advance(11 * HOUR);
      expect((await client.call(endpoints.authInfo)).envelope.code).toBe(0);
      t.clock.advance(11 * HOUR);
      expect((await client.call(endpoints.authInfo)).envelope.code).toBe(0);
      t.clock.advance(12 * HOUR + MINUTE);
      expect((await client.call(endpoints.authInfo)).envelope.code).toBe(-11004);
    });

    it('expires at the absolute limit however it is used', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = await t.loginAs(user);
      for (let i = 0; i < 4; i++) {
        t.clock.advance(11 * HOUR);
        expect((await client.call(endpoints.authInfo)).envelope.code).toBe(0);
      }
      t.clock.advance(5 * HOUR);
      expect((await client.call(endpoints.authInfo)).envelope.code).toBe(-11004);
    });

    it('expires a session found expired in the database (cold cache)', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = await t.loginAs(user);
      await t.db
        .update(sessions)
        .set({ lastSeenAt: new Date(t.clock.now() - 13 * HOUR) })
        .where(eq(sessions.accountId, user.id));
      expect((await client.call(endpoints.authInfo)).envelope.code).toBe(-11004);
    });

    it('writes last_seen_at at most once a minute', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = await t.loginAs(user);
      const seen = async () =>
        (await t.db.select().from(sessions).where(eq(sessions.accountId, user.id)))[0].lastSeenAt.getTime();
      const loginAt = await seen();
      t.clock.advance(30_000);
      await client.call(endpoints.authInfo);
      expect(await seen()).toBe(loginAt);
      t.clock.advance(31_000);
      await client.call(endpoints.authInfo);
      expect(await seen()).toBe(t.clock.now());
    });

    it('answers SESSION_ENDED after the account is paused, even with a warm cache', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = await t.loginAs(user);
      expect((await client.call(endpoints.noticeList, {})).envelope.code).toBe(0);
      expect(t.services.sessions.cache.size).toBeGreaterThan(0);
      await inTransaction((tx, afterCommit) =>
        setAccountStatus(
          tx,
          t.services.sessions,
          { entId: ent.id, accountId: user.id },
          'paused',
          new Date(),
          afterCommit,
        ),
      );
      const res = await client.call(endpoints.noticeList, {});
      expect(res.envelope.code).toBe(ErrorCode.SESSION_ENDED);
      const [row] = await t.db.select().from(sessions).where(eq(sessions.accountId, user.id));
      expect(row.endedReason).toBe('paused');
      // And the paused account cannot log in again.
      const again = await t.client().call(endpoints.login, { loginName: user.loginName, password: TEST_PASSWORD });
      expect(again.envelope.code).toBe(ErrorCode.ACCOUNT_PAUSED);
    });

    it('answers SESSION_ENDED when an administrator ended the session, even with a warm cache', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const first = await t.loginAs(user);
      const second = await t.loginAs(user);
      expect((await first.call(endpoints.authInfo)).envelope.code).toBe(0);
      expect((await second.call(endpoints.authInfo)).envelope.code).toBe(0);
      await inTransaction((tx, afterCommit) =>
        kickAccountSessions(tx, t.services.sessions, { entId: ent.id, accountId: user.id }, new Date(), afterCommit),
      );
      expect((await first.call(endpoints.authInfo)).envelope.code).toBe(ErrorCode.SESSION_ENDED);
      expect((await second.call(endpoints.authInfo)).envelope.code).toBe(ErrorCode.SESSION_ENDED);
      // The account itself is fine: it may log in again.
      const fresh = await t.loginAs(user);
      expect((await fresh.call(endpoints.authInfo)).envelope.code).toBe(0);
    });

    it('answers SESSION_ENDED when the account was paused behind the service (cold cache)', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const client = await t.loginAs(user);
      await t.db.update(accounts).set({ status: 'paused' }).where(eq(accounts.id, user.id));
      expect((await client.call(endpoints.authInfo)).envelope.code).toBe(ErrorCode.SESSION_ENDED);
    });

    it('answers the same user info from auth.info as at login (without the token)', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent, { thirdMonitor: true, permissions: [Perm.report] });
      const client = t.client();
      const login = await client.login(user.loginName, user.password);
      const info = await client.call(endpoints.authInfo);
      const { token: _token, expiresIn: _expiresIn, weakPassword: _weak, ...userInfo } = login;
      expect(info.envelope.payload).toEqual(userInfo);
      expect(info.envelope.payload.thirdMonitorUser).toBe(true);
    });

    it('marks the provider users as isYXF', async () => {
      const ent = await createEnterprise(t.db, { kind: 'provider' });
      const user = await createUser(t.db, ent);
      expect((await t.client().login(user.loginName, user.password)).isYXF).toBe(true);
    });
  });
});
