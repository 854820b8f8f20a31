import { deviceHttpCalls, ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { SharesProvider } from '../src/modules/shares/provider.js';
import { httpSharesProvider } from '../src/modules/shares/provider.js';
import { SHARES_STALE_MS, SHARES_TTL_MS, setSharesProvider, shareQuotes } from '../src/modules/shares/service.js';
import type { HeadlessPlayer } from '../src/player/player.js';
import { activatePlayer } from './devices/helpers.js';
import { listeningApp } from './devices/suite.js';
import { BACKENDS, createEnterprise, createUser, type TestApp } from './helpers/index.js';
import { type ProviderServer, startProviderServer } from './helpers/providerServer.js';

vi.setConfig({ hookTimeout: 180_000, testTimeout: 60_000 });

describe('shares configuration', () => {
  it('defaults to no provider, needs a URL for http and refuses an unknown one', () => {
    expect(loadConfig({}).shares).toEqual({ provider: 'none', url: '', key: '', timeoutMs: 5000 });
    expect(loadConfig({ SHARES_PROVIDER: 'http', SHARES_URL: 'http://q.example/', SHARES_KEY: 'k' }).shares).toEqual({
      provider: 'http',
      url: 'http://q.example',
      key: 'k',
      timeoutMs: 5000,
    });
    expect(() => loadConfig({ SHARES_PROVIDER: 'http' })).toThrow(/SHARES_URL/);
    expect(() => loadConfig({ SHARES_PROVIDER: 'oracle' })).toThrow(/SHARES_PROVIDER/);
    expect(() => loadConfig({ SHARES_PROVIDER: 'http', SHARES_URL: 'ftp://x' })).toThrow(/SHARES_URL/);
  });
});

/** A local quote service answering the generic shape (docs/operations.md "Share-price provider"). */
describe('the http quote provider against a local quote service', () => {
  let quoteService: ProviderServer;
  const struck = '2026-11-28T07:00:00.000Z';
  beforeAll(async () => {
    quoteService = await startProviderServer((u) => {
      const symbols = (u.searchParams.get('symbols') ?? '').split(',');
      const quotes = symbols
        .filter((s) => s !== 'NOPE')
        .map((s) =>
          s === 'BAD'
            ? { symbol: s, price: 'n/a', time: struck }
            : {
                symbol: s.toLowerCase(),
                name: `Name ${s}`,
                price: '1700.5',
                change: -3.5,
                changePercent: -0.2,
                currency: 'CNY',
                time: struck,
              },
        );
      return { quotes };
    });
  });
  afterAll(() => quoteService.close());
  afterEach(() => {
    setSharesProvider(undefined);
    quoteService.reset();
  });
  const requests = () => quoteService.requests.map((r) => ({ url: r.path, authorization: r.authorization }));

  const config = () =>
    loadConfig({ SHARES_PROVIDER: 'http', SHARES_URL: quoteService.base, SHARES_KEY: 'secret' }).shares;

  it('asks /quotes with the key and keeps well-formed quotes only', async () => {
    const quotes = await httpSharesProvider(config()).quotes(['600519.SH', 'NOPE', 'BAD'], AbortSignal.timeout(2000));
    expect(requests()[0]).toEqual({ url: '/quotes?symbols=600519.SH%2CNOPE%2CBAD', authorization: 'Bearer secret' });
    expect([...quotes.keys()]).toEqual(['600519.SH']);
    expect(quotes.get('600519.SH')).toEqual({
      symbol: '600519.SH',
      name: 'Name 600519.SH',
      price: 1700.5,
      change: -3.5,
      changePercent: -0.2,
      currency: 'CNY',
      time: struck,
    });
  });

  it('serves quotes cached 60 s, marks old ones stale, and answers null, never invented prices', async () => {
    setSharesProvider(httpSharesProvider(config()));
    let now = Date.parse(struck) + 60_000;
    const services = { config: loadConfig({}), clock: () => now };
    const first = await shareQuotes(services, ['600519.sh', 'NOPE']);
    expect(first.provider).toBe('http');
    expect(first.quotes['600519.SH']).toMatchObject({ price: 1700.5, stale: false, time: struck });
    expect(first.quotes.NOPE).toBeNull();
    await shareQuotes(services, ['600519.SH']);
    expect(requests()).toHaveLength(1); // cached
    now += SHARES_STALE_MS;
    quoteService.status = 503; // the service fails after the cache expired: unavailable, not an error
    expect(now - Date.parse(struck)).toBeGreaterThan(SHARES_TTL_MS);
    const later = await shareQuotes(services, ['600519.SH']);
    expect(later.quotes['600519.SH']).toBeNull();
    quoteService.status = 200;
    now += SHARES_TTL_MS;
    const stale = await shareQuotes(services, ['600519.SH']);
    expect(stale.quotes['600519.SH']).toMatchObject({ price: 1700.5, stale: true });
  });

  it('answers null quotes without a configured provider', async () => {
    const answer = await shareQuotes({ config: loadConfig({}), clock: () => Date.now() }, ['AAPL', '0700.HK']);
    expect(answer).toEqual({ provider: null, quotes: { AAPL: null, '0700.HK': null } });
    expect(requests()).toHaveLength(0);
  });
});

const standIn: SharesProvider = {
  name: 'stand-in',
  async quotes(symbols) {
    return new Map(
      symbols
        .filter((s) => s !== 'NOPE')
        .map((s) => [
          s,
          {
            symbol: s,
            name: null,
            price: 42,
            change: 1,
            changePercent: 2.4,
            currency: 'HKD',
            time: new Date().toISOString(),
          },
        ]),
    );
  },
};

/**
 * The console's shares.quotes and the players' device call (docs/device-protocol.md 2.7.7): a
 * paired device asks for its layout's symbols over the device API; a caller without the
 * device's credentials gets nothing.
 */
describe.each(BACKENDS)('shares.quotes and the device shares call on %s', (backend) => {
  let t: TestApp;
  let server: string;
  const players: HeadlessPlayer[] = [];
  beforeAll(async () => {
    ({ t, server } = await listeningApp(backend, {}));
  });
  afterAll(async () => {
    for (const p of players) await p.stop().catch(() => {});
    await t.close();
  });
  afterEach(() => setSharesProvider(undefined));

  it("answers the console the provider's quotes, null for unknown symbols, and only with the template permission", async () => {
    const ent = await createEnterprise(t.db);
    const client = await t.loginAs(await createUser(t.db, ent, { permissions: [Perm.template] }));
    expect((await client.call(endpoints.sharesQuotes, { symbols: ['AAPL'] })).envelope).toMatchObject({
      code: 0,
      payload: { provider: null, quotes: { AAPL: null } },
    });
    setSharesProvider(standIn);
    const answer = await client.call(endpoints.sharesQuotes, { symbols: ['0700.hk', 'NOPE'] });
    expect(answer.envelope).toMatchObject({
      code: 0,
      payload: { provider: 'stand-in', quotes: { '0700.HK': { price: 42, stale: false }, NOPE: null } },
    });
    expect((await client.call(endpoints.sharesQuotes, { symbols: ['no spaces'] })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    const noPerm = await t.loginAs(await createUser(t.db, ent, { permissions: [Perm.adv] }));
    expect((await noPerm.call(endpoints.sharesQuotes, { symbols: ['AAPL'] })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
  });

  it('answers a paired screen its symbols’ quotes, and nobody else', async () => {
    setSharesProvider(standIn);
    const ask = (authorization: string | null, body: unknown) =>
      fetch(`${server}${deviceHttpCalls.shares.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(body),
      }).then((r) => r.json()) as Promise<{ code: number; payload: unknown }>;
    const { client } = await t.tenant();
    const player = await activatePlayer(server, client, { name: 'Shares screen', connect: false });
    players.push(player);
    const c = player.credentials!;
    const basic = `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;
    expect(await ask(basic, { symbols: ['600519.SH', 'NOPE'] })).toMatchObject({
      code: 0,
      payload: { provider: 'stand-in', quotes: { '600519.SH': { price: 42, currency: 'HKD' }, NOPE: null } },
    });
    expect((await ask(null, { symbols: ['AAPL'] })).code).not.toBe(0);
    expect(
      (await ask(`Basic ${Buffer.from(`${c.username}:wrong`).toString('base64')}`, { symbols: ['AAPL'] })).code,
    ).not.toBe(0);
    expect((await ask(basic, { symbols: [] })).code).toBe(ErrorCode.INVALID_PARAMS);
  });
});
