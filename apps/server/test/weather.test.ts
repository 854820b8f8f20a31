import { ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { setWeatherProvider } from '../src/modules/weather/service.js';
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
