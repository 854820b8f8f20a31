import { deviceHttpCalls, ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { setWeatherProvider } from '../src/modules/weather/service.js';
import type { HeadlessPlayer } from '../src/player/player.js';
import { activatePlayer } from './devices/helpers.js';
import { listeningApp } from './devices/suite.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

vi.setConfig({ hookTimeout: 180_000, testTimeout: 60_000 });

describe('weather configuration', () => {
  it('defaults to no provider and refuses an unknown one', () => {
    expect(loadConfig({}).weather.provider).toBe('none');
    expect(loadConfig({ WEATHER_PROVIDER: 'open-meteo' }).weather.provider).toBe('open-meteo');
    expect(() => loadConfig({ WEATHER_PROVIDER: 'oracle' })).toThrow(/WEATHER_PROVIDER/);
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
