import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints } from '@marquee/protocol';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, REPO_ROOT } from '../src/config.js';
import { ads, devices, operationLogs } from '../src/db/schema/index.js';
import { type DemoFleet, startDemoFleet } from '../src/demo/fleet.js';
import type { FleetEvent } from '../src/player/fleetProtocol.js';
import { DEMO_PASSWORD, seedIfNeeded } from '../src/seed/index.js';
import { waitFor } from './devices/helpers.js';
import { listeningApp } from './devices/suite.js';
import { type ApiClient, BACKENDS, type TestApp } from './helpers/index.js';

const PLAYERS = 2;

describe('DEMO_PLAYERS', () => {
  it('is 4 on the embedded database, off with DATABASE_URL unless set, and checked', () => {
    expect(loadConfig({}).demoPlayers).toBe(4);
    expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/y' }).demoPlayers).toBe(0);
    expect(loadConfig({ DEMO_PLAYERS: 'off' }).demoPlayers).toBe(0);
    expect(loadConfig({ DEMO_PLAYERS: '0' }).demoPlayers).toBe(0);
    expect(loadConfig({ DEMO_PLAYERS: '2', DATABASE_URL: 'postgres://x@localhost/y' }).demoPlayers).toBe(2);
    expect(() => loadConfig({ DEMO_PLAYERS: '9' })).toThrow(/DEMO_PLAYERS/);
    expect(() => loadConfig({ DEMO_PLAYERS: 'lots' })).toThrow(/DEMO_PLAYERS/);
  });
});

describe.each(BACKENDS)('demo fleet on %s', (backend) => {
  let t: TestApp;
  let server: string;
  let admin: ApiClient;
  let dataDir: string;
  let fleet: DemoFleet | null = null;

  beforeAll(async () => {
    ({ t, server } = await listeningApp(backend, {}));
    await seedIfNeeded(t.db);
    admin = t.client();
    await admin.login('entadmin', DEMO_PASSWORD);
    dataDir = await mkdtemp(join(tmpdir(), 'marquee-demo-fleet-'));
  }, 60_000);
  afterAll(async () => {
    await fleet?.stop();
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The demo devices as the administrator's device list shows them. */
  async function demoRows() {
    const list = await admin.call(endpoints.deviceList, { size: 500 });
    return (list.envelope.payload?.data ?? []).filter((d) => d.demo);
  }

  it('starts nothing when turned off', async () => {
    expect(await startDemoFleet({ app: t.app, config: { dataDir, demoPlayers: 0 }, server })).toBeNull();
    expect(existsSync(join(dataDir, 'demo-players'))).toBe(false);
  });

  it('pairs its players through device.add, which come online, play the approved demo ads and upload plays', async () => {
    fleet = await startDemoFleet({ app: t.app, config: { dataDir, demoPlayers: PLAYERS }, server, uploadEverySec: 1 });
    expect(fleet).not.toBeNull();
    const online = await waitFor(
      `${PLAYERS} demo devices online`,
      async () => {
        const rows = await demoRows();
        return rows.length === PLAYERS && rows.every((r) => r.status === 'online') ? rows : undefined;
      },
      60_000,
    );
    // Placed where an operator would put them (device.setLocation), so the map shows them.
    for (const row of online) expect(row.latitude).not.toBeNull();
    // They report only what they measure: no invented address or MAC, the disk's storage.
    const reported = await waitFor('the demo devices’ heartbeats', async () => {
      const rows = await demoRows();
      return rows.every((r) => r.storageFree !== null) ? rows : undefined;
    });
    for (const row of reported) {
      expect(row.mac).toBeNull();
      expect(row.ip).not.toBe('10.0.0.23');
      expect(row.storageFree).toBeGreaterThan(0);
    }
    const ids = online.map((r) => r.id);
    // Added and placed by the administrator's own calls: the operation log says so.
    const logged = await t.db
      .select({ action: operationLogs.action, targetId: operationLogs.targetId })
      .from(operationLogs)
      .where(and(eq(operationLogs.module, 'device'), inArray(operationLogs.targetId, ids)));
    expect(
      logged
        .filter((l) => l.action === 'add')
        .map((l) => l.targetId)
        .sort(),
    ).toEqual([...ids].sort());

    // The demo ads, approved and aimed at the demo screens, reach them and come back as plays.
    const demoAds = await waitFor(
      'the demo ads',
      async () => {
        const rows = await t.db.select({ id: ads.id }).from(ads);
        return rows.length === 3 ? rows : undefined;
      },
      120_000,
    );
    expect(demoAds).toHaveLength(3);
    const played = await waitFor(
      'plays of the demo ads from every demo device',
      async () => {
        const rows = (await t.db.execute(
          sql`select device_id, count(*)::int as n from plays where ad_id is not null group by device_id`,
        )) as unknown as { rows: { device_id: string; n: number }[] };
        const byDevice = new Map(rows.rows.map((r) => [r.device_id, Number(r.n)]));
        return ids.every((id) => (byDevice.get(id) ?? 0) > 0) ? byDevice : undefined;
      },
      120_000,
    );
    expect([...played.keys()].sort()).toEqual([...ids].sort());
    const files = await readdir(join(dataDir, 'demo-players'));
    expect(files.sort()).toEqual(['demo-1.json', 'demo-2.json']);
  }, 300_000);

  it('lets its child process end when the parent’s channel closes (the parent died)', async () => {
    const child = fork(join(REPO_ROOT, 'apps/server/src/player/fleet.ts'), [], {
      cwd: REPO_ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const pairing = new Promise<FleetEvent>((resolve) =>
      child.on('message', (event: FleetEvent) => event.type === 'pairing' && resolve(event)),
    );
    child.send({
      type: 'start',
      server,
      stateDir: join(dataDir, 'orphan'),
      players: [{ key: 'orphan-1', number: 'DEMO-0999' }],
    });
    // Running: its player asked for a code and waits (long polls) to be added.
    expect((await pairing).type).toBe('pairing');
    child.disconnect();
    expect(await exited).toBe(0);
  }, 60_000);

  it('reuses the stored credentials after a restart instead of pairing anew', async () => {
    const before = (await demoRows()).map((r) => r.id).sort();
    await fleet?.stop();
    // The players said offline as they stopped.
    await waitFor(
      'demo devices offline',
      async () => {
        const rows = await demoRows();
        return rows.every((r) => r.status === 'offline') ? rows : undefined;
      },
      30_000,
    );
    const pairings: string[] = [];
    fleet = await startDemoFleet({ app: t.app, config: { dataDir, demoPlayers: PLAYERS }, server, uploadEverySec: 1 });
    fleet?.events.on('pairing', (event: { key: string }) => pairings.push(event.key));
    await waitFor(
      'demo devices online again',
      async () => {
        const rows = await demoRows();
        return rows.length === PLAYERS && rows.every((r) => r.status === 'online') ? rows : undefined;
      },
      60_000,
    );
    expect((await demoRows()).map((r) => r.id).sort()).toEqual(before);
    expect(pairings).toEqual([]);
    const all = await t.db.select({ id: devices.id }).from(devices).where(eq(devices.demo, true));
    expect(all).toHaveLength(PLAYERS);
  }, 120_000);

  it('retires a demo player whose device the operator deleted, and never pairs it again', async () => {
    const [gone] = await demoRows();
    const key = [...(fleet?.devices.entries() ?? [])].find(([, id]) => id === gone.id)?.[0];
    expect(key).toBeDefined();
    const pairings: string[] = [];
    fleet?.events.on('pairing', (event: { key: string }) => pairings.push(event.key));
    const removed = new Promise<{ key: string }>((resolve) => fleet?.events.once('removed', resolve));
    const deleted = await admin.call(endpoints.deviceDelete, { ids: [gone.id] });
    expect(deleted.envelope.code).toBe(0);
    expect((await removed).key).toBe(key);
    const files = await readdir(join(dataDir, 'demo-players'));
    expect(files).toContain(`${key}.removed.json`);
    expect(files).not.toContain(`${key}.json`);
    expect(pairings).toEqual([]);
    expect((await demoRows()).map((r) => r.id)).not.toContain(gone.id);
  }, 60_000);
});
