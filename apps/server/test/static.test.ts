import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestApp, type TestApp } from './helpers/index.js';

describe.each(BACKENDS)('static console on %s', (backend) => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'mq-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Marquee</title>');
    writeFileSync(join(dist, 'assets', 'index-Bx3k2Qd9.js'), 'console.log(1)');
    writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
    t = await createTestApp(backend, { config: { webDist: dist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves index.html without caching', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Marquee</title>');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('falls back to index.html for page routes (history mode)', async () => {
    for (const url of ['/advert/audit', '/login', '/no/such/page?x=1']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Marquee</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache and others briefly', async () => {
    const asset = await get('/assets/index-Bx3k2Qd9.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await get('/favicon.svg');
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers 404 for a missing file and JSON 404 under /api', async () => {
    expect((await get('/assets/missing-abcdefgh.js')).statusCode).toBe(404);
    const api = await get('/api/nothing/here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: ErrorCode.NOT_FOUND });
  });
});
