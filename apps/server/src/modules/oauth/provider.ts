import type { OAuthProvider } from '@marquee/protocol';
import type { OAuthProviderConfig } from '../../config.js';

/**
 * The OAuth2 authorization-code flow against a configured provider (WeChat or DingTalk
 * "scan to log in"). Standard parameters; the userinfo answer is read leniently because the
 * two providers name their fields differently (WeChat: openid/unionid/nickname, DingTalk:
 * openId/unionId/nick, OpenID Connect: sub/name).
 */
export function authorizeUrl(cfg: OAuthProviderConfig, redirectUri: string, state: string): string {
  const url = new URL(cfg.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', cfg.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', cfg.scope);
  url.searchParams.set('state', state);
  return url.toString();
}

export interface ProviderIdentity {
  providerUserId: string;
  nickname: string;
}

const TIMEOUT_MS = 8000;

function pick(obj: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = obj[name];
    if (typeof value === 'string' && value.length > 0) return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

async function readJson(res: Response, what: string): Promise<Record<string, unknown>> {
  if (!res.ok) throw new Error(`${what} answered HTTP ${res.status}`);
  const body = (await res.json()) as unknown;
  if (!body || typeof body !== 'object') throw new Error(`${what} answered no JSON object`);
  return body as Record<string, unknown>;
}

/** Exchanges the authorization code for a token, then reads who the user is. */
export async function fetchIdentity(
  provider: OAuthProvider,
  cfg: OAuthProviderConfig,
  code: string,
  redirectUri: string,
): Promise<ProviderIdentity> {
  const tokenRes = await fetch(cfg.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: cfg.clientId,
      client_secret: cfg.clientSecret,
    }).toString(),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const token = await readJson(tokenRes, `${provider} token endpoint`);
  const accessToken = pick(token, ['access_token', 'accessToken']);
  if (!accessToken) throw new Error(`${provider} token endpoint gave no access token`);
  const url = new URL(cfg.userinfoUrl);
  url.searchParams.set('access_token', accessToken);
  const openid = pick(token, ['openid', 'openId']);
  if (openid) url.searchParams.set('openid', openid);
  const infoRes = await fetch(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const info = await readJson(infoRes, `${provider} userinfo endpoint`);
  const providerUserId =
    pick(info, ['unionid', 'unionId', 'openid', 'openId', 'sub', 'userid', 'id']) ??
    pick(token, ['unionid', 'unionId']) ??
    openid;
  if (!providerUserId) throw new Error(`${provider} userinfo gave no user id`);
  return { providerUserId, nickname: (pick(info, ['nickname', 'nick', 'name']) ?? '').slice(0, 64) };
}
