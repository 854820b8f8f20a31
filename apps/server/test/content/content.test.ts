import { randomUUID } from 'node:crypto';
import {
  type DeviceManifest,
  ErrorCode,
  endpoints,
  MANIFEST_PATH,
  MAX_PLAYS_PER_BATCH,
  PLAYS_PATH,
  type PlayEvent,
} from '@marquee/protocol';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, devices, operationLogs } from '../../src/db/schema/index.js';
import { JOBS } from '../../src/jobs/index.js';
import { loadLayout } from '../../src/modules/content/layouts.js';
import { ensurePartitions, partitionDays } from '../../src/modules/content/plays.js';
import { type LoadedLayout, registerLayoutProvider } from '../../src/modules/content/sources.js';
import type { HeadlessPlayer } from '../../src/player/player.js';
import { activatePlayer } from '../devices/helpers.js';
import { listeningApp } from '../devices/suite.js';
import { type ApiClient, BACKENDS, DAY, type TestApp } from '../helpers/index.js';

/**
 * The player's content calls: the manifest of the layout assigned in the console (a stand-in
 * layout provider until the layouts module registers its own) and proof of play, idempotent
 * by event id, on a table partitioned by day.
 */
describe.each(BACKENDS)('player content on %s', (backend) => {
  let t: TestApp;
  let server: string;
  let client: ApiClient;
  let entId: string;
  let other: ApiClient;
  const players: HeadlessPlayer[] = [];
  const layouts = new Map<string, LoadedLayout & { entId: string }>();

  const auth = (p: HeadlessPlayer, password?: string) => {
    const c = p.credentials!;
    return `Basic ${Buffer.from(`${c.username}:${password ?? c.password}`).toString('base64')}`;
  };
  const manifest = async (p: HeadlessPlayer, password?: string) =>
    (await fetch(`${server}${MANIFEST_PATH}`, { headers: { authorization: auth(p, password) } }).then((r) =>
      r.json(),
    )) as { code: number; payload: DeviceManifest | null };
  const plays = async (p: HeadlessPlayer, body: unknown, raw?: string) =>
    (await fetch(`${server}${PLAYS_PATH}`, {
      method: 'POST',
      headers: { authorization: auth(p), 'content-type': 'application/json' },
      body: raw ?? JSON.stringify(body),
    }).then((r) => r.json())) as {
      code: number;
      payload: { accepted: string[]; duplicate: string[]; rejected: string[] } | null;
    };
  const event = (start = t.clock.now() - 60_000, extra: Partial<PlayEvent> = {}): PlayEvent => ({
    id: randomUUID(),
    materialId: 'm1',
    layoutId: 'L1',
    componentId: 'c1',
    adId: null,
    start,
    durationMs: 10_000,
    outcome: 'completed',
    ...extra,
  });
  const countPlays = async (deviceId: string) => {
    const result = (await t.db.execute(
      sql`select count(*)::int as n from plays where device_id = ${deviceId}`,
    )) as unknown as {
      rows: { n: number }[];
    };
    return Number(result.rows[0].n);
  };

  beforeAll(async () => {
    ({ t, server } = await listeningApp(backend, {}));
    const tenant = await t.tenant();
    client = tenant.client;
    entId = tenant.ent.id;
    ({ client: other } = await t.tenant());
    layouts.set('L1', {
      id: 'L1',
      entId,
      name: 'Lobby loop',
      document: { v: 1, pages: [] },
      materialIds: ['m1', 'm2'],
      files: [
        { materialId: 'm1', url: '/files/a.png', sha256: 'a'.repeat(64), size: 10, type: 'image' },
        { materialId: 'm2', url: '/files/b.mp4', sha256: 'b'.repeat(64), size: 20, type: 'video', duration: 5 },
      ],
    });
    registerLayoutProvider({
      load: async (_db, ent, id) => {
        const layout = layouts.get(id);
        return layout && layout.entId === ent ? layout : null;
      },
    });
  });
  afterAll(async () => {
    registerLayoutProvider({ load: loadLayout });
    for (const p of players) await p.stop().catch(() => {});
    await t.close();
  });

  const device = async (c: ApiClient, name: string) => {
    const player = await activatePlayer(server, c, { name, connect: false });
    players.push(player);
    return player;
  };

  it('answers an empty manifest, then the assigned layout with its files; a new version each change', async () => {
    const player = await device(client, 'Manifest screen');
    const empty = await manifest(player);
    expect(empty.code).toBe(0);
    expect(empty.payload).toMatchObject({ items: [], files: [] });
    expect((await manifest(player)).payload?.version).toBe(empty.payload?.version);

    const assigned = await client.call(endpoints.deviceAssignLayout, { ids: [player.deviceId], layoutId: 'L1' });
    expect(assigned.envelope).toMatchObject({ code: 0, payload: { changed: 1 } });
    const full = (await manifest(player)).payload!;
    expect(full.version).not.toBe(empty.payload?.version);
    expect(full.items).toEqual([
      expect.objectContaining({ id: 'layout:L1', source: 'layout', layoutId: 'L1', materialIds: ['m1', 'm2'] }),
    ]);
    expect(full.files.map((f) => f.sha256)).toEqual(['a'.repeat(64), 'b'.repeat(64)]);
    // The device is told to sync at once, and the change is in the operation log once.
    const commands = await t.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.deviceId, player.deviceId), eq(deviceCommands.kind, 'syncContent')));
    expect(commands).toHaveLength(1);
    const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.action, 'assignLayout'));
    expect(logs.some((l) => l.targetId === player.deviceId)).toBe(true);

    const cleared = await client.call(endpoints.deviceAssignLayout, { ids: [player.deviceId], layoutId: null });
    expect(cleared.envelope.code).toBe(0);
    expect((await manifest(player)).payload?.version).toBe(empty.payload?.version);
  });

  it("answers an expired device's manifest empty with the reason, and full again once its expiry moves (issue 27)", async () => {
    const player = await device(client, 'Licensed screen');
    expect(
      (await client.call(endpoints.deviceAssignLayout, { ids: [player.deviceId], layoutId: 'L1' })).envelope.code,
    ).toBe(0);
    const [paired] = await t.db
      .select({ expireAt: devices.expireAt })
      .from(devices)
      .where(eq(devices.id, player.deviceId));
    const full = (await manifest(player)).payload!;
    // A newly paired device is on trial until its expiry.
    expect(full.licence).toEqual({ state: 'trial', expiresAt: paired.expireAt?.getTime() });
    expect(full.items).toHaveLength(1);
    expect(full.files).toHaveLength(2);

    // The market (or time) ends the service: the player gets no new content and is told why.
    const setExpiry = (at: Date | null) =>
      t.db.update(devices).set({ expireAt: at }).where(eq(devices.id, player.deviceId));
    const lapsed = new Date(t.clock.now() - 60_000);
    await setExpiry(lapsed);
    const expired = (await manifest(player)).payload!;
    expect(expired).toMatchObject({ items: [], files: [], licence: { state: 'expired', expiresAt: lapsed.getTime() } });
    expect(expired.wall).toBeUndefined();
    expect(expired.version).not.toBe(full.version);
    expect((await manifest(player)).payload?.version).toBe(expired.version);

    // Points bought: the expiry moves on and the content comes back, under a new version.
    const renewed = new Date(t.clock.now() + 365 * DAY);
    await setExpiry(renewed);
    const back = (await manifest(player)).payload!;
    expect(back.licence).toEqual({ state: 'trial', expiresAt: renewed.getTime() });
    expect(back.items.map((i) => i.id)).toEqual(['layout:L1']);
    expect(back.files).toEqual(full.files);
    expect(back.version).not.toBe(expired.version);
    expect(back.version).not.toBe(full.version);
    // No expiry (a device made before licences): never gated.
    await setExpiry(null);
    expect((await manifest(player)).payload).toMatchObject({ licence: { state: 'trial', expiresAt: null } });
    expect((await manifest(player)).payload?.items).toHaveLength(1);
  });

  it('refuses a layout of another enterprise, and devices the caller cannot see', async () => {
    const player = await device(client, 'Refusing screen');
    const unknown = await client.call(endpoints.deviceAssignLayout, { ids: [player.deviceId], layoutId: 'nope' });
    expect(unknown.envelope.code).toBe(ErrorCode.LAYOUT_NOT_AVAILABLE);
    const foreign = await other.call(endpoints.deviceAssignLayout, { ids: [player.deviceId], layoutId: null });
    expect(foreign.envelope.code).toBe(ErrorCode.NOT_FOUND);
    const theirs = await device(other, 'Other screen');
    // L1 belongs to the first enterprise.
    const cross = await other.call(endpoints.deviceAssignLayout, { ids: [theirs.deviceId], layoutId: 'L1' });
    expect(cross.envelope.code).toBe(ErrorCode.LAYOUT_NOT_AVAILABLE);
  });

  it('refuses the content calls without the right credentials', async () => {
    const player = await device(client, 'Auth screen');
    expect((await manifest(player, 'wrong')).code).toBe(ErrorCode.DEVICE_AUTH_FAILED);
    const none = await fetch(`${server}${PLAYS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [event()] }),
    }).then((r) => r.json());
    expect(none.code).toBe(ErrorCode.DEVICE_AUTH_FAILED);
  });

  it('stores plays once: a replayed batch is all duplicates, nothing counted twice', async () => {
    const player = await device(client, 'Plays screen');
    // Across two days (two partitions), one event twice in the same batch.
    const batch = [event(), event(t.clock.now() - DAY), event(t.clock.now() - 2 * DAY, { outcome: 'interrupted' })];
    const first = await plays(player, { events: [...batch, batch[0]] });
    expect(first.code).toBe(0);
    expect(first.payload?.accepted.sort()).toEqual(batch.map((e) => e.id).sort());
    expect(first.payload?.duplicate).toEqual([]);
    const again = await plays(player, { events: batch });
    expect(again.payload).toEqual({ accepted: [], duplicate: batch.map((e) => e.id), rejected: [] });
    const fresh = event();
    const mixed = await plays(player, { events: [batch[1], fresh] });
    expect(mixed.payload).toEqual({ accepted: [fresh.id], duplicate: [batch[1].id], rejected: [] });
    expect(await countPlays(player.deviceId)).toBe(4);
  });

  it('rolls new plays up within seconds of their upload, without waiting for the minute schedule', async () => {
    const player = await device(client, 'Rollup screen');
    const batch = [event(), event(), event(t.clock.now() - 120_000, { outcome: 'interrupted' })];
    expect((await plays(player, { events: batch })).payload?.accepted).toHaveLength(3);
    const rolled = async () =>
      (
        (await t.db.execute(
          sql`select coalesce(sum(plays), 0)::int as n from play_rollups_daily where device_id = ${player.deviceId}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0].n;
    const deadline = Date.now() + 20_000;
    while ((await rolled()) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(await rolled()).toBe(3);
  });

  it("rejects another device's event ids and starts out of range, without storing them", async () => {
    const a = await device(client, 'Device A');
    const b = await device(client, 'Device B');
    const shared = event();
    expect((await plays(a, { events: [shared] })).payload?.accepted).toEqual([shared.id]);
    const old = event(t.clock.now() - 400 * DAY);
    const future = event(t.clock.now() + 3 * DAY);
    const answer = await plays(b, { events: [shared, old, future] });
    expect(answer.payload).toMatchObject({ accepted: [], duplicate: [] });
    expect(answer.payload?.rejected.sort()).toEqual([shared.id, old.id, future.id].sort());
    expect(await countPlays(b.deviceId)).toBe(0);
    expect(await countPlays(a.deviceId)).toBe(1);
  });

  it('answers INVALID_PARAMS for bad input, never a server error', async () => {
    const player = await device(client, 'Bad input screen');
    const bad: unknown[] = [
      {},
      { events: [] },
      { events: [{ ...event(), id: 'not-a-uuid' }] },
      { events: [{ ...event(), outcome: 'maybe' }] },
      { events: [{ ...event(), durationMs: -1 }] },
      { events: [{ ...event(), extra: 1 }] },
      { events: Array.from({ length: MAX_PLAYS_PER_BATCH + 1 }, () => event()) },
    ];
    for (const body of bad) expect((await plays(player, body)).code).toBe(ErrorCode.INVALID_PARAMS);
    expect((await plays(player, null, '{not json')).code).toBe(ErrorCode.INVALID_PARAMS);
    expect(await countPlays(player.deviceId)).toBe(0);
  });

  it('creates the partitions ahead in a job', async () => {
    const job = JOBS.find((j) => j.id === 'plays-partitions');
    expect(job?.schedule).toBeTruthy();
    const days = partitionDays(t.clock.now(), 1, 7);
    await ensurePartitions(t.db, days);
    const result = (await t.db.execute(
      sql`select count(*)::int as n from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'plays'`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(result.rows[0].n)).toBeGreaterThanOrEqual(days.length);
  });
});
