import { ENTERPRISE_ADMIN_CODES, ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountRoles,
  accounts,
  departments,
  enterprises,
  operationLogs,
  roles,
  verificationCodes,
} from '../../src/db/schema/index.js';
import {
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  MINUTE,
  type TestApp,
  uniqueName,
} from '../helpers/index.js';
import { freshClient, outboxCode, setContact, uniquePhone, wrongCode } from './helpers.js';

const STRONG = 'Strong#Pass12';
const creditCode = () => `91${uniqueName('x').slice(2, 14).toUpperCase()}`.padEnd(18, 'Z').slice(0, 18);

describe.each(BACKENDS)('verification codes, code login, registration, password retrieval on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function userWithPhone(options: Parameters<typeof createUser>[2] = {}) {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent, options);
    const phone = uniquePhone();
    await setContact(t, user.id, { phone });
    return { ent, user, phone };
  }

  describe('verification.send', () => {
    it('refuses a bad payload', async () => {
      const c = freshClient(t);
      for (const bad of [
        { purpose: 'login', target: 'not a phone' },
        { purpose: 'bind_phone', target: '13800000000' },
        [],
      ]) {
        expect((await c.call(endpoints.codeSend, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      }
    });

    it('sends a 6-digit code through the development outbox and stores only its hash', async () => {
      const { phone } = await userWithPhone();
      const res = await freshClient(t).call(endpoints.codeSend, { purpose: 'login', target: phone });
      expect(res.envelope).toMatchObject({ code: 0, payload: { expiresIn: 300, resendIn: 60 } });
      const code = await outboxCode(t, phone, 'login');
      expect(code).toMatch(/^\d{6}$/);
      const [row] = await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, phone));
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(`"${code}"`);
      expect(row.channel).toBe('sms');
    });

    it("answers NOT_REGISTERED for a login code to an unknown number ('register first')", async () => {
      const res = await freshClient(t).call(endpoints.codeSend, { purpose: 'login', target: uniquePhone() });
      expect(res.envelope.code).toBe(ErrorCode.NOT_REGISTERED);
      expect(res.envelope.message).toBe('Not registered. Please register first');
    });

    it('refuses a registration code to a number that is already registered', async () => {
      const { phone } = await userWithPhone();
      const res = await freshClient(t).call(endpoints.codeSend, { purpose: 'register', target: phone });
      expect(res.envelope.code).toBe(ErrorCode.CONFLICT);
    });

    it('waits 60 seconds before another code to the same target', async () => {
      const { phone } = await userWithPhone();
      const c = freshClient(t);
      expect((await c.call(endpoints.codeSend, { purpose: 'login', target: phone })).envelope.code).toBe(0);
      t.clock.advance(30_000);
      const again = await c.call(endpoints.codeSend, { purpose: 'login', target: phone });
      expect(again.envelope.code).toBe(ErrorCode.RATE_LIMITED);
      expect(again.envelope.message).toContain('30 seconds');
      // Another purpose has its own wait.
      expect((await c.call(endpoints.codeSend, { purpose: 'reset_password', target: phone })).envelope.code).toBe(0);
      t.clock.advance(31_000);
      expect((await c.call(endpoints.codeSend, { purpose: 'login', target: phone })).envelope.code).toBe(0);
    });

    it('throttles sends to one target to 10 an hour', async () => {
      const { phone } = await userWithPhone();
      for (let i = 0; i < 10; i++) {
        const res = await freshClient(t).call(endpoints.codeSend, { purpose: 'login', target: phone });
        expect(res.envelope.code, `send ${i + 1}`).toBe(0);
        t.clock.advance(61_000);
      }
      const res = await freshClient(t).call(endpoints.codeSend, { purpose: 'login', target: phone });
      expect(res.envelope.code).toBe(ErrorCode.RATE_LIMITED);
      t.clock.advance(60 * MINUTE);
    });

    it('accepts an e-mail target (lower-cased) and sends by mail', async () => {
      const ent = await createEnterprise(t.db);
      const user = await createUser(t.db, ent);
      const email = `${uniqueName('u')}@example.com`;
      await setContact(t, user.id, { email });
      const res = await freshClient(t).call(endpoints.codeSend, { purpose: 'login', target: email.toUpperCase() });
      expect(res.envelope.code).toBe(0);
      const code = await outboxCode(t, email);
      const login = await freshClient(t).call(endpoints.codeLogin, { target: email, code });
      expect(login.envelope.code).toBe(0);
      expect(login.envelope.payload.id).toBe(user.id);
    });
  });

  describe('auth.codeLogin', () => {
    it('refuses a bad payload', async () => {
      const c = freshClient(t);
      for (const bad of [{ target: '13800000000', code: '12345' }, { target: 'x', code: '123456' }, {}]) {
        expect((await c.call(endpoints.codeLogin, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      }
    });

    it('logs in with the code: the same answer as auth.login, a working session, the log row', async () => {
      const { user, phone } = await userWithPhone({ permissions: [Perm.device] });
      const c = freshClient(t);
      await c.call(endpoints.codeSend, { purpose: 'login', target: phone });
      const res = await c.call(endpoints.codeLogin, { target: phone, code: await outboxCode(t, phone) });
      expect(res.envelope.code).toBe(0);
      expect(endpoints.login.response.safeParse(res.envelope.payload).success).toBe(true);
      expect(res.envelope.payload).toMatchObject({ id: user.id, permissionList: [Perm.device], weakPassword: false });
      c.token = res.envelope.payload.token;
      expect((await c.call(endpoints.authInfo, {})).envelope.payload.id).toBe(user.id);
      const [log] = await t.db
        .select()
        .from(operationLogs)
        .where(eq(operationLogs.accountId, user.id))
        .orderBy(desc(operationLogs.createdAt));
      expect(log).toMatchObject({
        module: 'auth',
        action: 'login',
        detail: expect.objectContaining({ method: 'code' }),
      });
    });

    it('uses a code once', async () => {
      const { phone } = await userWithPhone();
      const c = freshClient(t);
      await c.call(endpoints.codeSend, { purpose: 'login', target: phone });
      const code = await outboxCode(t, phone);
      expect((await c.call(endpoints.codeLogin, { target: phone, code })).envelope.code).toBe(0);
      expect((await c.call(endpoints.codeLogin, { target: phone, code })).envelope.code).toBe(ErrorCode.CODE_INVALID);
    });

    it('expires a code after 5 minutes', async () => {
      const { phone } = await userWithPhone();
      const c = freshClient(t);
      await c.call(endpoints.codeSend, { purpose: 'login', target: phone });
      const code = await outboxCode(t, phone);
      t.clock.advance(5 * MINUTE + 1000);
      expect((await c.call(endpoints.codeLogin, { target: phone, code })).envelope.code).toBe(ErrorCode.CODE_INVALID);
    });

    it('only verifies a code for its own purpose, and a newer code replaces the older', async () => {
      const { phone } = await userWithPhone();
      const c = freshClient(t);
      await c.call(endpoints.codeSend, { purpose: 'reset_password', target: phone });
      const resetCode = await outboxCode(t, phone);
      expect((await c.call(endpoints.codeLogin, { target: phone, code: resetCode })).envelope.code).toBe(
        ErrorCode.CODE_INVALID,
      );
      await c.call(endpoints.codeSend, { purpose: 'login', target: phone });
      const first = await outboxCode(t, phone, 'login');
      t.clock.advance(61_000);
      await c.call(endpoints.codeSend, { purpose: 'login', target: phone });
      const second = await outboxCode(t, phone, 'login');
      if (first !== second) {
        expect((await c.call(endpoints.codeLogin, { target: phone, code: first })).envelope.code).toBe(
          ErrorCode.CODE_INVALID,
        );
      }
      expect((await c.call(endpoints.codeLogin, { target: phone, code: second })).envelope.code).toBe(0);
    });

    it('burns a code after 5 wrong attempts, and throttles further attempts', async () => {
      const { phone } = await userWithPhone();
      await freshClient(t).call(endpoints.codeSend, { purpose: 'login', target: phone });
      const code = await outboxCode(t, phone);
      for (let i = 0; i < 5; i++) {
        const res = await freshClient(t).call(endpoints.codeLogin, { target: phone, code: wrongCode(code) });
        expect(res.envelope.code, `attempt ${i + 1}`).toBe(ErrorCode.CODE_INVALID);
      }
      const [row] = await t.db.select().from(verificationCodes).where(eq(verificationCodes.target, phone));
      expect(row.attempts).toBe(5);
      expect(row.consumedAt).not.toBeNull();
      // Even the right code is refused now: throttled first (5 failures for the target).
      const res = await freshClient(t).call(endpoints.codeLogin, { target: phone, code });
      expect(res.envelope.code).toBe(ErrorCode.RATE_LIMITED);
      // After the throttle window the burned code still does not work.
      t.clock.advance(15 * MINUTE + 1000);
      const later = await freshClient(t).call(endpoints.codeLogin, { target: phone, code });
      expect(later.envelope.code).toBe(ErrorCode.CODE_INVALID);
    });

    it('answers ACCOUNT_PAUSED for a paused account', async () => {
      const { phone } = await userWithPhone();
      const c = freshClient(t);
      await c.call(endpoints.codeSend, { purpose: 'login', target: phone });
      const code = await outboxCode(t, phone);
      await t.db.update(accounts).set({ status: 'paused' }).where(eq(accounts.phone, phone));
      expect((await c.call(endpoints.codeLogin, { target: phone, code })).envelope.code).toBe(ErrorCode.ACCOUNT_PAUSED);
    });
  });

  describe('registration.register', () => {
    async function registration(overrides: Record<string, unknown> = {}) {
      const phone = uniquePhone();
      const c = freshClient(t);
      expect((await c.call(endpoints.codeSend, { purpose: 'register', target: phone })).envelope.code).toBe(0);
      return {
        c,
        payload: {
          companyName: `Bright Screens ${uniqueName('co')}`,
          socialCreditCode: creditCode(),
          loginName: uniqueName('boss'),
          password: STRONG,
          confirmPassword: STRONG,
          phone,
          code: await outboxCode(t, phone),
          ...overrides,
        },
      };
    }

    it('refuses a bad payload (confirmation, strength, company name, credit code, login account)', async () => {
      const { c, payload } = await registration();
      for (const bad of [
        { ...payload, confirmPassword: 'Other#Pass12' },
        { ...payload, password: 'weakpassword', confirmPassword: 'weakpassword' },
        { ...payload, companyName: '123456' },
        { ...payload, socialCreditCode: '91310000中文字符0000000' },
        { ...payload, loginName: 'ab' },
      ]) {
        expect((await c.call(endpoints.register, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      }
      const mismatch = await c.call(endpoints.register, { ...payload, confirmPassword: 'Other#Pass12' });
      expect(mismatch.envelope.message).toContain('confirmPassword');
    });

    it('creates a working enterprise administrator and logs in', async () => {
      const { c, payload } = await registration();
      const res = await c.call(endpoints.register, payload);
      expect(res.envelope.code).toBe(0);
      const me = res.envelope.payload;
      expect(me.loginName).toBe(payload.loginName);
      // The same administrator role as a company the operator adds (adminRoleCodes).
      expect(me.permissionList).toEqual(ENTERPRISE_ADMIN_CODES.filter((c) => c !== Perm.userCompanyManage).sort());
      expect(me.permissionList).not.toContain(Perm.devOutbox);
      const [ent] = await t.db.select().from(enterprises).where(eq(enterprises.id, me.entId));
      expect(ent).toMatchObject({
        kind: 'enterprise',
        name: payload.companyName,
        socialCreditCode: payload.socialCreditCode,
      });
      const depts = await t.db.select().from(departments).where(eq(departments.entId, me.entId));
      expect(depts).toHaveLength(1);
      expect(depts[0].parentId).toBeNull();
      expect(me.deptId).toBe(depts[0].id);
      const [role] = await t.db
        .select()
        .from(roles)
        .innerJoin(accountRoles, eq(accountRoles.roleId, roles.id))
        .where(eq(accountRoles.accountId, me.id));
      expect(role.roles).toMatchObject({ builtin: true, type: 'admin', entId: me.entId });
      const [account] = await t.db.select().from(accounts).where(eq(accounts.id, me.id));
      expect(account).toMatchObject({ isEntAdmin: true, phone: payload.phone });
      const [log] = await t.db.select().from(operationLogs).where(eq(operationLogs.entId, me.entId));
      expect(log).toMatchObject({ module: 'registration', action: 'register', accountId: me.id });
      // The new administrator works: the session, and a password login.
      c.token = me.token;
      expect((await c.call(endpoints.authInfo, {})).envelope.code).toBe(0);
      const again = await freshClient(t).call(endpoints.login, { loginName: payload.loginName, password: STRONG });
      expect(again.envelope.code).toBe(0);
    });

    it('refuses a wrong code and creates nothing', async () => {
      const { c, payload } = await registration();
      const res = await c.call(endpoints.register, { ...payload, code: wrongCode(payload.code) });
      expect(res.envelope.code).toBe(ErrorCode.CODE_INVALID);
      const rows = await t.db
        .select()
        .from(enterprises)
        .where(eq(enterprises.socialCreditCode, payload.socialCreditCode));
      expect(rows).toHaveLength(0);
    });

    it('refuses a taken login account or social credit code without using the code', async () => {
      const ent = await createEnterprise(t.db);
      const existing = await createUser(t.db, ent);
      const { c, payload } = await registration();
      const taken = await c.call(endpoints.register, { ...payload, loginName: existing.loginName });
      expect(taken.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(taken.envelope.message).toBe('This login account already exists');
      expect((await c.call(endpoints.register, payload)).envelope.code).toBe(0);
      const { c: c2, payload: p2 } = await registration({ socialCreditCode: payload.socialCreditCode });
      const dup = await c2.call(endpoints.register, p2);
      expect(dup.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(dup.envelope.message).toBe('This social credit code is already registered');
    });
  });

  describe('auth.resetPassword', () => {
    it('refuses a bad payload', async () => {
      const c = freshClient(t);
      const base = { target: '13800000000', code: '123456', password: STRONG, confirmPassword: STRONG };
      for (const bad of [
        { ...base, confirmPassword: 'Other#Pass12' },
        { ...base, password: 'short', confirmPassword: 'short' },
        { ...base, code: 'abcdef' },
      ]) {
        expect((await c.call(endpoints.passwordReset, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      }
    });

    it('changes the password, clears updatePwd and ends every session of the account', async () => {
      const { user, phone } = await userWithPhone();
      await t.db.update(accounts).set({ updatePwd: true }).where(eq(accounts.id, user.id));
      const one = await t.loginAs(user, { ip: '10.200.0.1' });
      const two = await t.loginAs(user, { ip: '10.200.0.2' });
      const c = freshClient(t);
      expect((await c.call(endpoints.codeSend, { purpose: 'reset_password', target: phone })).envelope.code).toBe(0);
      const code = await outboxCode(t, phone, 'reset_password');
      const res = await c.call(endpoints.passwordReset, {
        target: phone,
        code,
        password: STRONG,
        confirmPassword: STRONG,
      });
      expect(res.envelope).toMatchObject({ code: 0, payload: null });
      for (const client of [one, two]) {
        expect((await client.call(endpoints.authInfo, {})).envelope.code).toBe(ErrorCode.SESSION_ENDED);
      }
      const old = await freshClient(t).call(endpoints.login, { loginName: user.loginName, password: user.password });
      expect(old.envelope.code).toBe(ErrorCode.LOGIN_FAILED);
      const fresh = await freshClient(t).call(endpoints.login, { loginName: user.loginName, password: STRONG });
      expect(fresh.envelope.code).toBe(0);
      expect(fresh.envelope.payload.updatePwd).toBe(false);
      const [log] = await t.db
        .select()
        .from(operationLogs)
        .where(and(eq(operationLogs.accountId, user.id), eq(operationLogs.action, 'resetPassword')));
      expect(log.detail).toMatchObject({ sessionsEnded: 2 });
      // Single use.
      const again = await c.call(endpoints.passwordReset, {
        target: phone,
        code,
        password: STRONG,
        confirmPassword: STRONG,
      });
      expect(again.envelope.code).toBe(ErrorCode.CODE_INVALID);
    });

    it('answers NOT_REGISTERED when asking a reset code for an unknown target', async () => {
      const res = await freshClient(t).call(endpoints.codeSend, {
        purpose: 'reset_password',
        target: 'nobody@example.com',
      });
      expect(res.envelope.code).toBe(ErrorCode.NOT_REGISTERED);
    });
  });
});
