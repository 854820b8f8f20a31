import { ErrorCode, endpoints } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthBindings, operationLogs } from '../../src/db/schema/index.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, MINUTE, type TestApp } from '../helpers/index.js';
import { FakeOAuthProvider } from './fakeOAuth.js';
import { freshClient } from './helpers.js';

describe.each(BACKENDS)('WeChat and DingTalk scan login on %s', (backend) => {
  let t: TestApp;
  let wechat: FakeOAuthProvider;
  let dingtalk: FakeOAuthProvider;
  let bare: TestApp;

  beforeAll(async () => {
    wechat = await new FakeOAuthProvider().start();
    dingtalk = await new FakeOAuthProvider().start();
    t = await createTestApp(backend, {
      config: { publicUrl: 'http://console.test', oauth: { wechat: wechat.config(), dingtalk: dingtalk.config() } },
    });
    bare = await createTestApp('pglite');
  });
  afterAll(async () => {
    await t.close();
    await bare.close();
    await wechat.stop();
    await dingtalk.stop();
  });

  const provider = (name: 'wechat' | 'dingtalk') => (name === 'wechat' ? wechat : dingtalk);

  /** The provider's redirect reaching the console's callback (what the phone's browser does). */
  async function callback(path: string) {
    const res = await t.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    return res.body;
  }

  async function userAndClient() {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent);
    return { ent, user, client: await t.loginAs(user, { ip: freshClient(t).ip }) };
  }

  async function bind(
    client: Awaited<ReturnType<typeof userAndClient>>['client'],
    name: 'wechat' | 'dingtalk',
    who: string,
  ) {
    const start = await client.call(endpoints.oauthBindStart, { provider: name });
    expect(start.envelope.code).toBe(0);
    await callback(await provider(name).scan(start.envelope.payload.authorizeUrl, who));
    expect((await client.call(endpoints.oauthPoll, { state: start.envelope.payload.state })).envelope.payload).toEqual({
      status: 'scanned',
    });
    return client.call(endpoints.oauthBind, { state: start.envelope.payload.state });
  }

  it("says 'feature not online' when a provider is not configured", async () => {
    const c = bare.client();
    expect((await c.call(endpoints.oauthProviders, {})).envelope.payload).toEqual({ wechat: false, dingtalk: false });
    const res = await c.call(endpoints.oauthStart, { provider: 'wechat' });
    expect(res.envelope.code).toBe(ErrorCode.FEATURE_NOT_ONLINE);
    expect(res.envelope.message).toBe('Feature not online');
  });

  it('refuses bad payloads', async () => {
    const c = freshClient(t);
    expect((await c.call(endpoints.oauthStart, { provider: 'qq' })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect((await c.call(endpoints.oauthPoll, { state: '' })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect((await c.call(endpoints.oauthLogin, {})).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('starts a scan with a signed state in the authorization URL', async () => {
    const res = await freshClient(t).call(endpoints.oauthStart, { provider: 'wechat' });
    expect(res.envelope.code).toBe(0);
    const { state, authorizeUrl, expiresIn } = res.envelope.payload;
    expect(expiresIn).toBe(300);
    const url = new URL(authorizeUrl);
    expect(url.origin).toBe(wechat.origin);
    expect(url.searchParams.get('state')).toBe(state);
    expect(url.searchParams.get('client_id')).toBe(wechat.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe('http://console.test/api/oauth/wechat/callback');
    expect((await freshClient(t).call(endpoints.oauthPoll, { state })).envelope.payload).toEqual({ status: 'pending' });
  });

  it("answers 'not registered, register first' for an identity bound to no account", async () => {
    const c = freshClient(t);
    const { state, authorizeUrl } = (await c.call(endpoints.oauthStart, { provider: 'dingtalk' })).envelope.payload;
    const page = await callback(await dingtalk.scan(authorizeUrl, 'dt-stranger'));
    expect(page).toContain('not registered');
    expect((await c.call(endpoints.oauthPoll, { state })).envelope.payload).toEqual({ status: 'unbound' });
    const res = await c.call(endpoints.oauthLogin, { state });
    expect(res.envelope.code).toBe(ErrorCode.NOT_REGISTERED);
    expect(res.envelope.message).toBe('This WeChat or DingTalk account is not registered. Please register first');
  });

  it('binds WeChat from the personal centre, then logs in by scan, once per state', async () => {
    const { user, client } = await userAndClient();
    const bound = await bind(client, 'wechat', 'wx-binder');
    expect(bound.envelope.code).toBe(0);
    expect(bound.envelope.payload).toEqual([
      { provider: 'wechat', nickname: 'Nick wx-binder', boundAt: expect.any(String) },
    ]);
    expect((await client.call(endpoints.authInfo, {})).envelope.payload.openWxLogin).toBe('Y');

    const c = freshClient(t);
    const { state, authorizeUrl } = (await c.call(endpoints.oauthStart, { provider: 'wechat' })).envelope.payload;
    expect((await c.call(endpoints.oauthLogin, { state })).envelope.code).toBe(ErrorCode.CONFLICT);
    await callback(await wechat.scan(authorizeUrl, 'wx-binder'));
    expect((await c.call(endpoints.oauthPoll, { state })).envelope.payload).toEqual({ status: 'ready' });
    const login = await c.call(endpoints.oauthLogin, { state });
    expect(login.envelope.code).toBe(0);
    expect(login.envelope.payload).toMatchObject({ id: user.id, openWxLogin: 'Y' });
    const [log] = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.accountId, user.id), eq(operationLogs.action, 'login')));
    expect(log).toBeDefined();
    // Single use: the state is spent; a replay of the callback does not revive it.
    expect((await c.call(endpoints.oauthLogin, { state })).envelope.code).toBe(ErrorCode.CONFLICT);
    expect((await c.call(endpoints.oauthPoll, { state })).envelope.payload).toEqual({ status: 'expired' });
  });

  it('unbinds, after which the identity is not registered any more', async () => {
    const { client } = await userAndClient();
    expect((await bind(client, 'dingtalk', 'dt-leaver')).envelope.code).toBe(0);
    const unbound = await client.call(endpoints.oauthUnbind, { provider: 'dingtalk' });
    expect(unbound.envelope).toMatchObject({ code: 0, payload: [] });
    expect((await client.call(endpoints.oauthUnbind, { provider: 'dingtalk' })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    const c = freshClient(t);
    const { state, authorizeUrl } = (await c.call(endpoints.oauthStart, { provider: 'dingtalk' })).envelope.payload;
    await callback(await dingtalk.scan(authorizeUrl, 'dt-leaver'));
    expect((await c.call(endpoints.oauthPoll, { state })).envelope.payload).toEqual({ status: 'unbound' });
  });

  it('refuses to bind an identity that belongs to another account', async () => {
    const a = await userAndClient();
    const b = await userAndClient();
    expect((await bind(a.client, 'wechat', 'wx-shared')).envelope.code).toBe(0);
    const start = await b.client.call(endpoints.oauthBindStart, { provider: 'wechat' });
    await callback(await wechat.scan(start.envelope.payload.authorizeUrl, 'wx-shared'));
    expect(
      (await b.client.call(endpoints.oauthPoll, { state: start.envelope.payload.state })).envelope.payload,
    ).toEqual({
      status: 'conflict',
    });
    const res = await b.client.call(endpoints.oauthBind, { state: start.envelope.payload.state });
    expect(res.envelope.code).toBe(ErrorCode.CONFLICT);
    const rows = await t.db.select().from(oauthBindings).where(eq(oauthBindings.providerUserId, 'wx-shared'));
    expect(rows.map((r) => r.accountId)).toEqual([a.user.id]);
  });

  it("does not let one account complete another account's bind state", async () => {
    const a = await userAndClient();
    const b = await userAndClient();
    const start = await a.client.call(endpoints.oauthBindStart, { provider: 'wechat' });
    await callback(await wechat.scan(start.envelope.payload.authorizeUrl, 'wx-a-only'));
    const res = await b.client.call(endpoints.oauthBind, { state: start.envelope.payload.state });
    expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('fails a tampered, denied or expired state', async () => {
    const c = freshClient(t);
    const { state, authorizeUrl } = (await c.call(endpoints.oauthStart, { provider: 'wechat' })).envelope.payload;
    const forged = `${state.slice(0, -2)}xx`;
    expect((await c.call(endpoints.oauthPoll, { state: forged })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const path = await wechat.scan(authorizeUrl, 'wx-someone');
    const page = await callback(path.replace(encodeURIComponent(state), encodeURIComponent(forged)));
    expect(page).toContain('data-status="failed"');
    // The other provider's callback does not accept this provider's state.
    expect(await callback(path.replace('/wechat/', '/dingtalk/'))).toContain('data-status="failed"');

    const denied = (await c.call(endpoints.oauthStart, { provider: 'wechat' })).envelope.payload;
    await callback(await wechat.scan(denied.authorizeUrl, 'wx-no', { deny: true }));
    expect((await c.call(endpoints.oauthPoll, { state: denied.state })).envelope.payload).toEqual({ status: 'failed' });

    const late = (await c.call(endpoints.oauthStart, { provider: 'wechat' })).envelope.payload;
    t.clock.advance(5 * MINUTE + 1000);
    expect((await c.call(endpoints.oauthPoll, { state: late.state })).envelope.payload).toEqual({ status: 'expired' });
    expect(await callback(await wechat.scan(late.authorizeUrl, 'wx-late'))).toContain('data-status="expired"');
  });

  describe('session endpoints', () => {
    it('oauth.bindStart, oauth.bind and oauth.unbind need a session', async () => {
      const anonymous = freshClient(t);
      for (const [def, payload] of [
        [endpoints.oauthBindStart, { provider: 'wechat' }],
        [endpoints.oauthBind, { state: 'x.y' }],
        [endpoints.oauthUnbind, { provider: 'wechat' }],
      ] as const) {
        expect((await anonymous.call(def, payload)).envelope.code).toBe(ErrorCode.TOKEN_INVALID);
      }
    });

    it('refuse bad payloads', async () => {
      const { client } = await userAndClient();
      expect((await client.call(endpoints.oauthBindStart, { provider: 'qq' })).envelope.code).toBe(
        ErrorCode.INVALID_PARAMS,
      );
      expect((await client.call(endpoints.oauthBind, { state: 1 })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect((await client.call(endpoints.oauthUnbind, {})).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    });
  });
});
