import { deviceHttpCalls, ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openMeteoProvider } from '../src/modules/weather/provider.js';
import { setWeatherProvider } from '../src/modules/weather/service.js';
import type { HeadlessPlayer } from '../src/player/player.js';
import { activatePlayer } from './devices/helpers.js';
import { listeningApp } from './devices/suite.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';
import { type ProviderServer, startProviderServer } from './helpers/providerServer.js';

vi.setConfig({ hookTimeout: 180_000, testTimeout: 60_000 });

describe('weather configuration', () => {
  it('defaults to no provider and refuses an unknown one', () => {
    expect(loadConfig({}).weather.provider).toBe('none');
    expect(loadConfig({ WEATHER_PROVIDER: 'open-meteo' }).weather.provider).toBe('open-meteo');
    expect(() => loadConfig({ WEATHER_PROVIDER: 'oracle' })).toThrow(/WEATHER_PROVIDER/);
  });
});

/** The Open-Meteo provider against a local service answering its geocoding and forecast shapes. */
describe('the open-meteo provider against a local weather service', () => {
  let weatherService: ProviderServer;
  beforeAll(async () => {
    weatherService = await startProviderServer((u) => {
      if (u.pathname === '/v1/search') {
        return u.searchParams.get('name') === 'Atlantis'
          ? {}
          : { results: [{ name: 'Sapporo', latitude: 43.06, longitude: 141.35 }] };
      }
      if (u.pathname === '/v1/forecast') {
        return {
          current: { time: '2026-11-28T08:00', temperature_2m: 3.5, relative_humidity_2m: 80, weather_code: 71 },
          daily: { temperature_2m_max: [5], temperature_2m_min: [-1] },
        };
      }
      return undefined;
    });
  });
  afterAll(() => weatherService.close());
  afterEach(() => weatherService.reset());
  const provider = () =>
    openMeteoProvider(
      loadConfig({
        WEATHER_PROVIDER: 'open-meteo',
        WEATHER_URL: weatherService.base,
        WEATHER_GEOCODING_URL: weatherService.base,
      }).weather,
    );

  it('finds the city, then reads its current and daily values', async () => {
    expect(await provider().current('Sapporo', AbortSignal.timeout(2000))).toEqual({
      city: 'Sapporo',
      temperature: 3.5,
      code: 71,
      high: 5,
      low: -1,
      humidity: 80,
      observedAt: '2026-11-28T08:00',
    });
    expect(weatherService.requests.map((r) => r.url.pathname)).toEqual(['/v1/search', '/v1/forecast']);
    expect(weatherService.requests[1].url.searchParams.get('latitude')).toBe('43.06');
  });

  it('answers null for a city the service does not know, and fails when the service does', async () => {
    expect(await provider().current('Atlantis', AbortSignal.timeout(2000))).toBeNull();
    expect(weatherService.requests).toHaveLength(1);
    weatherService.status = 503;
    await expect(provider().current('Sapporo', AbortSignal.timeout(2000))).rejects.toThrow(/503/);
  });
});

describe.each(BACKENDS)('weather.current on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());
  afterEach(() => setWeatherProvider(undefined));

  it('answers null readings without a configured provider: never invented data', async () => {
    const ent = await createEnterprise(t.db);
    const client = await t.loginAs(await createUser(t.db, ent, { permissions: [Perm.template] }));
    const answer = await client.call(endpoints.weatherCurrent, { cities: ['Shanghai', 'Tokyo'] });
    expect(answer.envelope).toMatchObject({
      code: 0,
      payload: { provider: null, readings: { Shanghai: null, Tokyo: null } },
    });
  });

  it("answers a provider's readings in the caller's language, null for a city it does not know or when it fails", async () => {
    const asked: string[] = [];
    setWeatherProvider({
      name: 'stand-in',
      async current(city) {
        asked.push(city);
        if (city === 'Atlantis') return null;
        if (city === 'Broken') throw new Error('service down');
        return { city, temperature: 21.5, code: 3, high: 24, low: 17, humidity: 60, observedAt: '2026-11-23T12:00' };
      },
    });
    const ent = await createEnterprise(t.db);
    const client = await t.loginAs(await createUser(t.db, ent, { permissions: [Perm.template] }));
    const answer = await client.call(endpoints.weatherCurrent, { cities: ['Osaka', 'Atlantis', 'Broken'] });
    expect(answer.envelope.code).toBe(0);
    expect(answer.envelope.payload).toEqual({
      provider: 'stand-in',
      readings: {
        Osaka: {
          city: 'Osaka',
          temperature: 21.5,
          condition: 'Overcast',
          high: 24,
          low: 17,
          humidity: 60,
          observedAt: '2026-11-23T12:00',
        },
        Atlantis: null,
        Broken: null,
      },
    });
    // cached: a second ask within the TTL does not call the provider again
    await client.call(endpoints.weatherCurrent, { cities: ['Osaka'] });
    expect(asked.filter((c) => c === 'Osaka')).toHaveLength(1);
    const noPerm = await t.loginAs(await createUser(t.db, ent, { permissions: [Perm.adv] }));
    expect((await noPerm.call(endpoints.weatherCurrent, { cities: ['Osaka'] })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
  });
});

/**
 * The players' readings (docs/device-protocol.md 2.7.6): a paired device asks for its layout's
 * cities over the device API and gets the provider's readings in its language; a caller without
 * the device's credentials gets nothing.
 */
describe.each(BACKENDS)('the device weather call on %s', (backend) => {
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
  afterEach(() => setWeatherProvider(undefined));

  const ask = (authorization: string | null, body: unknown, language = 'ja') =>
    fetch(`${server}${deviceHttpCalls.weather.path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'accept-language': language,
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify(body),
    }).then((r) => r.json()) as Promise<{ code: number; payload: unknown }>;

  it('answers a paired screen its cities’ readings in its language, and nobody else', async () => {
    setWeatherProvider({
      name: 'stand-in',
      async current(city) {
        return city === 'Atlantis'
          ? null
          : { city, temperature: 8, code: 61, high: 10, low: 4, humidity: 90, observedAt: '2026-11-28T08:00' };
      },
    });
    const { client } = await t.tenant();
    const player = await activatePlayer(server, client, { name: 'Weather screen', connect: false });
    players.push(player);
    const c = player.credentials!;
    const basic = `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;
    const answer = await ask(basic, { cities: ['Sapporo', 'Atlantis'] });
    expect(answer).toMatchObject({
      code: 0,
      payload: {
        provider: 'stand-in',
        readings: { Sapporo: { city: 'Sapporo', temperature: 8, condition: '雨' }, Atlantis: null },
      },
    });
    expect((await ask(null, { cities: ['Sapporo'] })).code).not.toBe(0);
    expect(
      (await ask(`Basic ${Buffer.from(`${c.username}:wrong`).toString('base64')}`, { cities: ['Sapporo'] })).code,
    ).not.toBe(0);
    expect((await ask(basic, { cities: [] })).code).toBe(ErrorCode.INVALID_PARAMS);
  });
});
