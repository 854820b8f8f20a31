import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ErrorCode, endpoints, OFFLINE_PACKAGE_INDEX } from '@marquee/protocol';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materials } from '../../src/db/schema/index.js';
import { loadLayout } from '../../src/modules/content/layouts.js';
import { registerLayoutProvider } from '../../src/modules/content/sources.js';
import { ContentPlayer } from '../../src/player/content.js';
import type { HeadlessPlayer } from '../../src/player/player.js';
import { enterpriseKey } from '../../src/storage/storage.js';
import { activatePlayer } from '../devices/helpers.js';
import { listeningApp } from '../devices/suite.js';
import { insertFolder, png } from '../fixtures/materials.js';
import { type ApiClient, BACKENDS, type TestApp, type TestEnterprise, type TestUser } from '../helpers/index.js';

/**
 * Offline packages (issue 31): the console's call answers a signed link to a tar of the
 * device's manifest and files; the headless player verifies every file, plays it with no
 * network, keeps the plays and uploads them when the server answers again; an altered archive
 * or another device's package is refused.
 */
const sha256Hex = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe.each(BACKENDS)('offline packages on %s', (backend) => {
  let t: TestApp;
  let server: string;
  let client: ApiClient;
  let ent: TestEnterprise;
  let admin: TestUser;
  let dir: string;
  const players: HeadlessPlayer[] = [];
  const layouts = new Map<string, { entId: string; materialIds: string[] }>();
  const files = new Map<string, { sha256: string; size: number }>();

  beforeAll(async () => {
    ({ t, server } = await listeningApp(backend, {}));
    ({ client, ent, admin } = await t.tenant());
    dir = await mkdtemp(join(tmpdir(), 'mq-offline-'));
    // A stand-in layout provider: a playlist of the materials named, a second each.
    registerLayoutProvider({
      load: async (_db, entId, id) => {
        const layout = layouts.get(id);
        if (!layout || layout.entId !== entId) return null;
        return {
          id,
          name: `Offline ${id}`,
          document: { v: 1, pages: [] },
          materialIds: layout.materialIds,
          files: layout.materialIds.map((materialId) => ({
            materialId,
            url: `/unused/${materialId}`,
            ...files.get(materialId)!,
            type: 'image',
            duration: 1,
          })),
        };
      },
    });
  });
  afterAll(async () => {
    registerLayoutProvider({ load: loadLayout });
    for (const p of players) await p.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
    await t.close();
  });

  /** A picture stored in the enterprise's storage and its material row. */
  async function storedPicture(color: string) {
    const body = await png(48, 32, color);
    const folder = await insertFolder(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id });
    const key = enterpriseKey(ent.id, 'materials', `${randomBytes(6).toString('hex')}.png`);
    await t.services.files.storage.put(key, Readable.from([body]), { contentType: 'image/png' });
    const [row] = await t.db
      .insert(materials)
      .values({
        entId: ent.id,
        deptId: ent.depts.root,
        ownerId: admin.id,
        folderId: folder.id,
        name: `Picture ${color}`,
        type: 'image',
        mime: 'image/png',
        fileKey: key,
        sha256: sha256Hex(body),
        size: body.length,
        bytes: body.length,
        status: 'ready',
      })
      .returning({ id: materials.id });
    files.set(row.id, { sha256: sha256Hex(body), size: body.length });
    return { id: row.id, key };
  }

  /** A paired device (not connected) playing a layout of these materials. */
  async function screen(name: string, materialIds: string[]) {
    const device = await activatePlayer(server, client, { name, connect: false });
    players.push(device);
    const layoutId = `L-${randomBytes(4).toString('hex')}`;
    layouts.set(layoutId, { entId: ent.id, materialIds });
    const assigned = await client.call(endpoints.deviceAssignLayout, { ids: [device.deviceId], layoutId });
    expect(assigned.envelope.code).toBe(0);
    return device;
  }

  async function download(deviceId: string, as = client) {
    const made = await as.call(endpoints.deviceOfflinePackage, { id: deviceId });
    expect(made.envelope.code).toBe(0);
    const answer = made.envelope.payload!;
    const response = await fetch(`${server}${answer.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-tar');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(answer.size);
    const path = join(dir, `${deviceId}-${randomBytes(3).toString('hex')}.tar`);
    await writeFile(path, bytes);
    return { answer, path, bytes };
  }

  const countPlays = async (deviceId: string) =>
    Number(
      (
        (await t.db.execute(sql`select count(*)::int as n from plays where device_id = ${deviceId}`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0].n,
    );

  it('plays a package with no network, keeps its plays and uploads them once the server answers', async () => {
    const a = await storedPicture('#aa3333');
    const b = await storedPicture('#33aa33');
    const device = await screen('Basement screen', [a.id, b.id]);
    const { answer, path, bytes } = await download(device.deviceId);
    expect(answer).toMatchObject({ files: 2, items: 1 });
    expect(answer.fileName).toMatch(/^offline-Basement-screen-\d{4}-\d{2}-\d{2}\.tar$/);
    // The archive's first entry is the index.
    expect(bytes.subarray(0, OFFLINE_PACKAGE_INDEX.length).toString()).toBe(OFFLINE_PACKAGE_INDEX);

    // No network: the server's address answers nothing.
    const player = new ContentPlayer({
      server: 'http://127.0.0.1:9',
      credentials: () => device.credentials,
      uploadEverySec: 3600,
      manifestPollSec: 0,
    });
    const index = await player.loadPackage(path);
    expect(index).toMatchObject({ deviceId: device.deviceId, deviceName: 'Basement screen' });
    expect(player.report()).toMatchObject({ manifestVersion: answer.manifestVersion, pendingVersion: null });
    player.start();
    await expect.poll(() => player.journal.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await player.stop();
    const kept = player.journal.length;
    expect(new Set(player.journal.map((p) => p.materialId))).toEqual(new Set([a.id, b.id]));
    expect(await countPlays(device.deviceId)).toBe(0);

    // Online again: the kept plays reach the server, once.
    (player.options as { server: string }).server = server;
    await player.upload();
    expect(player.journal).toHaveLength(0);
    expect(await countPlays(device.deviceId)).toBe(kept);
  });

  it('refuses an altered archive and a package made for another device', async () => {
    const a = await storedPicture('#3333aa');
    const device = await screen('Kiosk A', [a.id]);
    const other = await screen('Kiosk B', [a.id]);
    const { path, bytes } = await download(device.deviceId);
    const altered = Buffer.from(bytes);
    // The last byte of the picture's content (just before its padding and the two end blocks).
    const size = files.get(a.id)!.size;
    // The entry header (the name appears in the index too: the last occurrence is the header).
    const at = altered.lastIndexOf(Buffer.from(`files/${files.get(a.id)!.sha256}`)) + 512 + size - 1;
    altered[at] ^= 0xff;
    const alteredPath = `${path}.altered`;
    await writeFile(alteredPath, altered);
    const mine = new ContentPlayer({ server, credentials: () => device.credentials, manifestPollSec: 0 });
    await expect(mine.loadPackage(alteredPath)).rejects.toThrow(/does not match its checksum/);
    await writeFile(`${path}.short`, bytes.subarray(0, bytes.length - 2048));
    await expect(mine.loadPackage(`${path}.short`)).rejects.toThrow(/truncated|missing/);
    expect(mine.manifest).toBeNull();

    const theirs = new ContentPlayer({ server, credentials: () => other.credentials, manifestPollSec: 0 });
    await expect(theirs.loadPackage(path)).rejects.toThrow(/made for device/);
    expect(await readFile(path)).toEqual(bytes);
  });

  it('answers NOT_FOUND for a device the caller does not manage, 403 for a forged link, and names a missing file', async () => {
    const a = await storedPicture('#999999');
    const device = await screen('Lobby', [a.id]);
    const stranger = await t.tenant();
    const refused = await stranger.client.call(endpoints.deviceOfflinePackage, { id: device.deviceId });
    expect(refused.envelope.code).toBe(ErrorCode.NOT_FOUND);

    const made = await client.call(endpoints.deviceOfflinePackage, { id: device.deviceId });
    const url = made.envelope.payload!.url;
    const forged = url.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await fetch(`${server}${forged}`)).status).toBe(403);
    const otherDevice = url.replace(device.deviceId, players[0].deviceId);
    expect((await fetch(`${server}${otherDevice}`)).status).toBe(403);

    await t.services.files.storage.delete(a.key);
    const missing = await client.call(endpoints.deviceOfflinePackage, { id: device.deviceId });
    expect(missing.envelope.code).toBe(ErrorCode.OFFLINE_FILE_MISSING);
    expect((await fetch(`${server}${url}`)).status).toBe(404);
    await t.db.update(materials).set({ fileKey: null }).where(eq(materials.id, a.id));
  });
});
