import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthProviderConfig } from '../../src/config.js';

/**
 * A small OAuth2 provider for tests: /authorize issues a code for the user named by the
 * test (`test_user`) and redirects to redirect_uri; /token checks client, secret, code and
 * redirect_uri; /userinfo answers the user's openid and nickname.
 */
export class FakeOAuthProvider {
  private server: Server | null = null;
  private readonly codes = new Map<string, { user: string; redirectUri: string }>();
  private readonly tokens = new Map<string, string>();
  readonly clientId = `client-${randomBytes(4).toString('hex')}`;
  readonly clientSecret = randomBytes(16).toString('hex');
  origin = '';
  /** Token requests seen (to check the exchange happened server-side). */
  tokenRequests = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.origin);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && url.pathname === '/authorize') {
        const redirectUri = url.searchParams.get('redirect_uri') ?? '';
        const state = url.searchParams.get('state') ?? '';
        if (url.searchParams.get('client_id') !== this.clientId || url.searchParams.get('response_type') !== 'code') {
          return json(400, { error: 'invalid_request' });
        }
        const target = new URL(redirectUri);
        if (url.searchParams.get('deny')) target.searchParams.set('error', 'access_denied');
        else {
          const code = randomBytes(8).toString('hex');
          this.codes.set(code, { user: url.searchParams.get('test_user') ?? 'anonymous', redirectUri });
          target.searchParams.set('code', code);
        }
        target.searchParams.set('state', state);
        res.writeHead(302, { location: target.toString() });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/token') {
        let body = '';
        req.on('data', (chunk) => {
          body += chunk;
        });
        req.on('end', () => {
          this.tokenRequests++;
          const form = new URLSearchParams(body);
          const grant = this.codes.get(form.get('code') ?? '');
          if (
            !grant ||
            form.get('client_id') !== this.clientId ||
            form.get('client_secret') !== this.clientSecret ||
            form.get('redirect_uri') !== grant.redirectUri ||
            form.get('grant_type') !== 'authorization_code'
          ) {
            return json(400, { error: 'invalid_grant' });
          }
          this.codes.delete(form.get('code') ?? '');
          const token = randomBytes(12).toString('hex');
          this.tokens.set(token, grant.user);
          json(200, { access_token: token, openid: grant.user, expires_in: 7200 });
        });
        return;
      }
      if (req.method === 'GET' && url.pathname === '/userinfo') {
        const auth = req.headers.authorization?.replace(/^Bearer /, '') ?? url.searchParams.get('access_token') ?? '';
        const user = this.tokens.get(auth);
        if (!user) return json(401, { error: 'invalid_token' });
        return json(200, { openid: user, nickname: `Nick ${user}` });
      }
      json(404, { error: 'not_found' });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  config(): OAuthProviderConfig {
    return {
      authorizeUrl: `${this.origin}/authorize`,
      tokenUrl: `${this.origin}/token`,
      userinfoUrl: `${this.origin}/userinfo`,
      clientId: this.clientId,
      clientSecret: this.clientSecret,
      scope: 'snsapi_login',
    };
  }

  /**
   * What the user's phone does after scanning: opens the authorization URL as `user` and
   * follows the redirect to the console's callback. Returns the callback's path and query.
   */
  async scan(authorizeUrl: string, user: string, options: { deny?: boolean } = {}): Promise<string> {
    const url = new URL(authorizeUrl);
    url.searchParams.set('test_user', user);
    if (options.deny) url.searchParams.set('deny', '1');
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}`);
    const callback = new URL(location);
    return `${callback.pathname}${callback.search}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
