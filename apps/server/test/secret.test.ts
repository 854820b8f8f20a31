import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerSecret } from '../src/auth/secret.js';
import { BACKENDS, createTestApp, type TestApp } from './helpers/index.js';

describe.each(BACKENDS)('server secret on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it('is made once and kept in the database, so a restart signs and verifies with the same key', async () => {
    expect(t.services.secret).toMatch(/^[0-9a-f]{64}$/);
    // What the next start on this database loads.
    expect(await loadServerSecret(t.db, '')).toBe(t.services.secret);
  });

  it('is APP_SECRET when set', async () => {
    expect(await loadServerSecret(t.db, 'configured-secret')).toBe('configured-secret');
  });
});
