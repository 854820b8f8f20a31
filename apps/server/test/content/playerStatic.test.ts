import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/index.js';

/** The browser player's bundle under /player/: its own history fallback, a never-cached service worker. */
describe('the player is served at /player/', () => {
  let t: TestApp;
  let web: string;
  let player: string;
  beforeAll(async () => {
    web = mkdtempSync(join(tmpdir(), 'mq-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Console</title>');
    player = mkdtempSync(join(tmpdir(), 'mq-player-'));
    mkdirSync(join(player, 'assets'));
    writeFileSync(join(player, 'index.html'), '<!doctype html><title>Player</title>');
    writeFileSync(join(player, 'sw.js'), 'self.x = 1');
    writeFileSync(join(player, 'assets', 'index-Bx3k2Qd9.js'), 'console.log(1)');
    t = await createTestApp('pglite', { config: { webDist: web, playerDist: player } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
    rmSync(player, { recursive: true, force: true });
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('answers the player page, its routes and assets, and the console elsewhere', async () => {
    for (const url of ['/player/', '/player/status']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Player</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect((await get('/player')).statusCode).toBe(302);
    const asset = await get('/player/assets/index-Bx3k2Qd9.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/player/sw.js')).headers['cache-control']).toBe('no-cache');
    expect((await get('/device')).body).toContain('<title>Console</title>');
  });
});
