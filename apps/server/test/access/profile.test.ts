import { type EndpointDef, ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../src/db/schema/index.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestUser,
  uniqueName,
} from '../helpers/index.js';
import { freshClient, outboxCode, setContact, uniquePhone, wrongCode } from './helpers.js';

const STRONG = 'Strong#Pass12';

interface Caller {
  user: TestUser;
  client: ApiClient;
}

/** The usual matrix for the personal centre and the outbox (own data only: no other-tenant ids). */
const fixtures: Record<string, { happy: (t: TestApp, c: Caller) => Promise<unknown>; bad: unknown }> = {
  'profile.get': { happy: async () => ({}), bad: { id: 'x' } },
  'profile.update': {
    happy: async () => ({ realName: 'Ada Lovelace', email: 'ada@example.com' }),
    bad: { realName: '' },
  },
  'profile.sendPhoneCode': { happy: async () => ({ phone: uniquePhone() }), bad: { phone: 'abc' } },
  'profile.bindPhone': {
    happy: async (t, c) => {
      const phone = uniquePhone();
      await c.client.call(endpoints.profilePhoneCode, { phone });
      return { phone, code: await outboxCode(t, phone, 'bind_phone') };
    },
    bad: { phone: '13800000000', code: '12' },
  },
  'profile.changePassword': {
    happy: async (_t, c) => ({ oldPassword: c.user.password, password: STRONG, confirmPassword: STRONG }),
    bad: { oldPassword: 'x', password: STRONG, confirmPassword: 'Other#Pass12' },
  },
  'devOutbox.list': { happy: async () => ({ page: 1, size: 10 }), bad: { page: 0 } },
};

describe.each(BACKENDS)('personal centre and development outbox on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function caller(options: Parameters<typeof createUser>[2] = {}, kind?: 'provider'): Promise<Caller> {
    const ent = await createEnterprise(t.db, { kind: kind ?? 'enterprise' });
    const user = await createUser(t.db, ent, options);
    return { user, client: await t.loginAs(user, { ip: freshClient(t).ip }) };
  }

  describe.each(Object.keys(fixtures).map((name) => [name]))('%s', (name) => {
    const def = Object.values(endpoints).find((d) => d.name === name) as EndpointDef;
    const fixture = fixtures[name];
    const provider = name === 'devOutbox.list' ? 'provider' : undefined;

    it('answers TOKEN_INVALID without a session', async () => {
      const c = await caller({}, provider);
      const payload = await fixture.happy(t, c);
      expect((await freshClient(t).call(def, payload)).envelope.code).toBe(ErrorCode.TOKEN_INVALID);
    });

    it('answers INVALID_PARAMS for a bad payload', async () => {
      const c = await caller({}, provider);
      expect((await c.client.call(def, fixture.bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect((await c.client.call(def, [])).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    });

    if (def.permission) {
      it(`answers NO_PERMISSION without ${def.permission}`, async () => {
        const c = await caller({ permissions: [] }, provider);
        expect((await c.client.call(def, await fixture.happy(t, c))).envelope.code).toBe(ErrorCode.NO_PERMISSION);
      });
    }

    it('answers 0 on the happy path', async () => {
      const c = await caller({}, provider);
      const res = await c.client.call(def, await fixture.happy(t, c));
      expect(res.envelope.code).toBe(0);
      expect(def.response.safeParse(res.envelope.payload).success).toBe(true);
    });
  });

  it('profile.get shows the account, enterprise, departments and bindings', async () => {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent, { deptIds: [ent.depts.a, ent.depts.b] });
    await setContact(t, user.id, { phone: '13912345678', email: 'me@example.com' });
    const client = await t.loginAs(user);
    const res = await client.call(endpoints.profileGet, {});
    expect(res.envelope.payload).toMatchObject({
      id: user.id,
      loginName: user.loginName,
      phone: '13912345678',
      email: 'me@example.com',
      entName: ent.name,
      bindings: [],
      providers: { wechat: false, dingtalk: false },
    });
    expect(res.envelope.payload.departments.map((d) => d.name).sort()).toEqual(['Dept A', 'Dept B']);
  });

  it('profile.update changes real name and e-mail, and the header sees the new name', async () => {
    const { client } = await caller();
    const res = await client.call(endpoints.profileUpdate, { realName: 'Grace Hopper', email: '' });
    expect(res.envelope.payload).toMatchObject({ realName: 'Grace Hopper', email: '' });
    expect((await client.call(endpoints.authInfo, {})).envelope.payload.userName).toBe('Grace Hopper');
  });

  it('profile.bindPhone needs the code sent to that number, and refuses a number of another account', async () => {
    const { user, client } = await caller();
    const phone = uniquePhone();
    await client.call(endpoints.profilePhoneCode, { phone });
    const code = await outboxCode(t, phone, 'bind_phone');
    expect((await client.call(endpoints.profileBindPhone, { phone, code: wrongCode(code) })).envelope.code).toBe(
      ErrorCode.CODE_INVALID,
    );
    expect((await client.call(endpoints.profileBindPhone, { phone, code })).envelope.payload.phone).toBe(phone);
    // A code for one account does not bind for another.
    const other = await caller();
    const res = await other.client.call(endpoints.profilePhoneCode, { phone });
    expect(res.envelope.code).toBe(ErrorCode.CONFLICT);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, user.id));
    expect(row.phone).toBe(phone);
  });

  it('profile.changePassword checks the current password and ends the other sessions only', async () => {
    const { user, client } = await caller();
    const other = await t.loginAs(user, { ip: '10.201.0.1' });
    const wrong = await client.call(endpoints.changePassword, {
      oldPassword: 'Wrong#Pass12',
      password: STRONG,
      confirmPassword: STRONG,
    });
    expect(wrong.envelope.code).toBe(ErrorCode.LOGIN_FAILED);
    expect(wrong.envelope.message).toBe('The current password is wrong');
    const weak = await client.call(endpoints.changePassword, {
      oldPassword: user.password,
      password: 'weakweakweak',
      confirmPassword: 'weakweakweak',
    });
    expect(weak.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const ok = await client.call(endpoints.changePassword, {
      oldPassword: user.password,
      password: STRONG,
      confirmPassword: STRONG,
    });
    expect(ok.envelope.code).toBe(0);
    expect((await client.call(endpoints.authInfo, {})).envelope.code).toBe(0);
    expect((await other.call(endpoints.authInfo, {})).envelope.code).toBe(ErrorCode.SESSION_ENDED);
    expect(
      (await freshClient(t).call(endpoints.login, { loginName: user.loginName, password: STRONG })).envelope.code,
    ).toBe(0);
  });

  it('updatePwd allows nothing but the password change, logout and user info until it is done', async () => {
    const { user, client } = await caller();
    await t.db.update(accounts).set({ updatePwd: true }).where(eq(accounts.id, user.id));
    t.services.sessions.cache.invalidateAccount(user.id);
    const relogged = await t.loginAs(user, { ip: '10.202.0.1' });
    expect((await relogged.call(endpoints.authInfo, {})).envelope.payload.updatePwd).toBe(true);
    const blocked = await relogged.call(endpoints.noticeList, { page: 1, size: 10, pushPlatform: 1 });
    expect(blocked.envelope.code).toBe(ErrorCode.PASSWORD_CHANGE_REQUIRED);
    expect((await client.call(endpoints.profileGet, {})).envelope.code).toBe(ErrorCode.PASSWORD_CHANGE_REQUIRED);
    const changed = await relogged.call(endpoints.changePassword, {
      oldPassword: user.password,
      password: STRONG,
      confirmPassword: STRONG,
    });
    expect(changed.envelope.code).toBe(0);
    expect((await relogged.call(endpoints.authInfo, {})).envelope.payload.updatePwd).toBe(false);
    expect((await relogged.call(endpoints.noticeList, { page: 1, size: 10, pushPlatform: 1 })).envelope.code).toBe(0);
  });

  it('devOutbox.list shows the codes to the platform operator only', async () => {
    const target = `${uniqueName('o')}@example.com`;
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent);
    await setContact(t, user.id, { email: target });
    await freshClient(t).call(endpoints.codeSend, { purpose: 'login', target });
    const operator = await caller({ permissions: [Perm.devOutbox] }, 'provider');
    const res = await operator.client.call(endpoints.outboxList, { page: 1, size: 10, target });
    expect(res.envelope.payload.total).toBe(1);
    expect(res.envelope.payload.data[0]).toMatchObject({ channel: 'email', target, purpose: 'login' });
    expect(res.envelope.payload.data[0].text).toContain(res.envelope.payload.data[0].code);
    // An enterprise role holding the code by mistake still sees nothing.
    const tenantAdmin = await caller({ permissions: [Perm.devOutbox] });
    expect((await tenantAdmin.client.call(endpoints.outboxList, { page: 1, size: 10 })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
  });

  it('devOutbox.list answers notices without a code (a warning, an alarm) beside codes', async () => {
    const target = `${uniqueName('n')}@example.com`;
    for (const purpose of ['warning', 'alarm'] as const) {
      await t.services.codeSender.send({ channel: 'email', target, purpose, code: '', text: `A ${purpose} notice` });
    }
    const operator = await caller({ permissions: [Perm.devOutbox] }, 'provider');
    const res = await operator.client.call(endpoints.outboxList, { page: 1, size: 10, target });
    expect(res.envelope.code).toBe(0);
    expect(res.envelope.payload.data.map((m) => [m.purpose, m.code]).sort()).toEqual([
      ['alarm', ''],
      ['warning', ''],
    ]);
  });
});
