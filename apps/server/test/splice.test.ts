import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AudienceFigures, ErrorCode, type ExportStatus, endpoints } from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deviceAudienceHourly, devices, operationLogs, spliceTiles } from '../src/db/schema/index.js';
import { startPairing } from '../src/modules/devices/pairing.js';
import { recordAudience } from '../src/modules/gather/repository.js';
import type { HeadlessPlayer } from '../src/player/player.js';
import { activatePlayer, waitFor } from './devices/helpers.js';
import { listeningApp } from './devices/suite.js';
import { deviceSheet, insertDevice } from './fixtures/splice.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  HOUR,
  type TestApp,
  type TestEnterprise,
  type TestUser,
  uniqueName,
} from './helpers/index.js';

// Building an app and starting a broker take long on a loaded machine.
vi.setConfig({ hookTimeout: 180_000, testTimeout: 120_000 });

const sn = () => uniqueName('SN').replace(/[^A-Za-z0-9_-]/g, '');

async function readSheet(buffer: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))));
  });
  return rows;
}

describe.each(BACKENDS)('split screens, device import/export and gather on %s', (backend) => {
  let t: TestApp;
  let dataDir: string;
  let ent: TestEnterprise;
  let admin: TestUser;
  let client: ApiClient;
  const caller = () => ({ ent, user: admin });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mq-splice-'));
    t = await createTestApp(backend, { config: { dataDir } });
    ent = await createEnterprise(t.db);
    admin = await createUser(t.db, ent, { isEntAdmin: true });
    client = await t.loginAs(admin);
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('split screens', () => {
    it('builds a 2 x 2 wall of four devices and shows its grid', async () => {
      const ids = await Promise.all([1, 2, 3, 4].map((i) => insertDevice(t, caller(), `Tile ${i}`)));
      const tiles = ids.map((deviceId, i) => ({ row: Math.floor(i / 2), col: i % 2, deviceId }));
      const created = await client.call(endpoints.spliceCreate, { name: 'Lobby wall', rows: 2, cols: 2, tiles });
      expect(created.envelope.code).toBe(0);
      const id = created.envelope.payload?.id as string;
      const detail = await client.call(endpoints.spliceDetail, { id });
      expect(detail.envelope.payload).toMatchObject({
        name: 'Lobby wall',
        rows: 2,
        cols: 2,
        scaling: false,
        rotation: 0,
        tileCount: 4,
        deptName: 'Root',
      });
      expect(detail.envelope.payload?.tiles.map((x) => [x.row, x.col, x.deviceName])).toEqual([
        [0, 0, 'Tile 1'],
        [0, 1, 'Tile 2'],
        [1, 0, 'Tile 3'],
        [1, 1, 'Tile 4'],
      ]);
      const list = await client.call(endpoints.spliceList, { keyword: 'lobby w' });
      expect(list.envelope.payload?.data.map((w) => [w.id, w.tileCount])).toEqual([[id, 4]]);
      const [entry] = await t.db
        .select()
        .from(operationLogs)
        .where(and(eq(operationLogs.endpoint, 'splice.create'), eq(operationLogs.targetId, id)));
      expect(entry).toMatchObject({ module: 'device', action: 'spliceCreate', targetName: 'Lobby wall' });
    });

    it('refuses screen rotation without tile scaling, in the caller language', async () => {
      const payload = { name: uniqueName('Rotated'), rows: 1, cols: 2, rotation: 90 as const };
      for (const [language, text] of [
        ['en-US', 'Screen rotation needs tile scaling'],
        ['zh-CN', '屏幕旋转需要先开启分屏缩放'],
        ['ja', '画面の回転にはタイルのスケーリングが必要です'],
      ]) {
        const res = await client.call(endpoints.spliceCreate, payload, { language });
        expect(res.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
        expect(res.envelope.message).toContain(text);
      }
      const ok = await client.call(endpoints.spliceCreate, { ...payload, scaling: true });
      expect(ok.envelope.code).toBe(0);
      const detail = await client.call(endpoints.spliceDetail, { id: ok.envelope.payload?.id as string });
      expect(detail.envelope.payload).toMatchObject({ scaling: true, rotation: 90 });
      // Turning scaling off keeps the rule on update too.
      const off = await client.call(endpoints.spliceUpdate, {
        id: ok.envelope.payload?.id as string,
        ...payload,
        scaling: false,
      });
      expect(off.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    });

    it('keeps tiles inside the grid, one device per position and one position per device', async () => {
      const [d1, d2] = await Promise.all([insertDevice(t, caller()), insertDevice(t, caller())]);
      const base = { name: uniqueName('Grid'), rows: 2, cols: 2 };
      const outside = await client.call(endpoints.spliceCreate, { ...base, tiles: [{ row: 2, col: 0, deviceId: d1 }] });
      expect(outside.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect(outside.envelope.message).toContain('outside the rows and columns');
      const samePosition = await client.call(endpoints.spliceCreate, {
        ...base,
        tiles: [
          { row: 0, col: 0, deviceId: d1 },
          { row: 0, col: 0, deviceId: d2 },
        ],
      });
      expect(samePosition.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      const sameDevice = await client.call(endpoints.spliceCreate, {
        ...base,
        tiles: [
          { row: 0, col: 0, deviceId: d1 },
          { row: 0, col: 1, deviceId: d1 },
        ],
      });
      expect(sameDevice.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      const created = await client.call(endpoints.spliceCreate, { ...base, tiles: [{ row: 1, col: 1, deviceId: d1 }] });
      const id = created.envelope.payload?.id as string;
      // Shrinking the grid past a tile is refused; moving the tile first is fine.
      const shrink = await client.call(endpoints.spliceUpdate, {
        id,
        ...base,
        rows: 1,
        cols: 1,
        tiles: [{ row: 1, col: 1, deviceId: d1 }],
      });
      expect(shrink.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      const moved = await client.call(endpoints.spliceUpdate, {
        id,
        ...base,
        rows: 1,
        cols: 1,
        tiles: [{ row: 0, col: 0, deviceId: d1 }],
      });
      expect(moved.envelope.code).toBe(0);
    });

    it('puts a device in at most one wall, and only devices the caller can see', async () => {
      const d = await insertDevice(t, caller(), 'Shared tile');
      const first = await client.call(endpoints.spliceCreate, {
        name: uniqueName('First'),
        rows: 1,
        cols: 1,
        tiles: [{ row: 0, col: 0, deviceId: d }],
      });
      expect(first.envelope.code).toBe(0);
      const second = await client.call(endpoints.spliceCreate, {
        name: uniqueName('Second'),
        rows: 1,
        cols: 1,
        tiles: [{ row: 0, col: 0, deviceId: d }],
      });
      expect(second.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(second.envelope.message).toContain('Shared tile');
      // The same wall may keep its own device on update.
      const same = await client.call(endpoints.spliceUpdate, {
        id: first.envelope.payload?.id as string,
        name: 'First renamed',
        rows: 1,
        cols: 2,
        tiles: [{ row: 0, col: 1, deviceId: d }],
      });
      expect(same.envelope.code).toBe(0);
      const other = await createEnterprise(t.db);
      const otherUser = await createUser(t.db, other, { isEntAdmin: true });
      const foreign = await insertDevice(t, { ent: other, user: otherUser });
      const res = await client.call(endpoints.spliceCreate, {
        name: uniqueName('Foreign'),
        rows: 1,
        cols: 1,
        tiles: [{ row: 0, col: 0, deviceId: foreign }],
      });
      expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
      // A department outside the caller's scope is not found either.
      const dept = await client.call(endpoints.spliceCreate, {
        name: uniqueName('Dept'),
        rows: 1,
        cols: 1,
        deptId: other.depts.root,
      });
      expect(dept.envelope.code).toBe(ErrorCode.NOT_FOUND);
    });

    it('deletes a wall with its tiles; a deleted device leaves its tile', async () => {
      const [d1, d2] = await Promise.all([insertDevice(t, caller()), insertDevice(t, caller())]);
      const created = await client.call(endpoints.spliceCreate, {
        name: uniqueName('Gone'),
        rows: 1,
        cols: 2,
        tiles: [
          { row: 0, col: 0, deviceId: d1 },
          { row: 0, col: 1, deviceId: d2 },
        ],
      });
      const id = created.envelope.payload?.id as string;
      await t.db.delete(devices).where(eq(devices.id, d2));
      const detail = await client.call(endpoints.spliceDetail, { id });
      expect(detail.envelope.payload?.tiles.map((x) => x.deviceId)).toEqual([d1]);
      expect((await client.call(endpoints.spliceDelete, { id })).envelope.code).toBe(0);
      expect((await client.call(endpoints.spliceDetail, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
      expect(await t.db.select().from(spliceTiles).where(eq(spliceTiles.wallId, id))).toEqual([]);
      expect((await client.call(endpoints.spliceDelete, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    });

    it('shows a department-only account the walls of its department only', async () => {
      const inB = await createUser(t.db, ent, { deptIds: [ent.depts.b], dataScope: 'dept_only' });
      const bClient = await t.loginAs(inB);
      const mine = await bClient.call(endpoints.spliceCreate, { name: uniqueName('B wall'), rows: 1, cols: 1 });
      expect(mine.envelope.code).toBe(0);
      const list = await bClient.call(endpoints.spliceList, {});
      expect(list.envelope.payload?.data.map((w) => w.id)).toEqual([mine.envelope.payload?.id]);
      const adminList = await client.call(endpoints.spliceList, { size: 100 });
      expect(adminList.envelope.payload?.data.map((w) => w.id)).toContain(mine.envelope.payload?.id);
    });
  });

  describe('device import', () => {
    const countNumbers = async (numbers: string[]) =>
      (await t.db.select({ id: devices.id }).from(devices).where(inArray(devices.number, numbers))).length;

    it('answers a template in the caller language with the columns and an example row', async () => {
      const res = await client.call(endpoints.deviceImportTemplate, {}, { language: 'ja' });
      expect(res.status).toBe(200);
      const rows = await readSheet(res.rawPayload);
      expect(rows[0]).toEqual(['デバイス番号', 'デバイス名', '部署']);
      expect(rows[1][0]).toBe('EXAMPLE-0001');
      // The template uploaded as it is holds no device (the example row is skipped).
      const file = res.rawPayload.toString('base64');
      const imported = await client.call(endpoints.deviceImport, { fileName: 'template.xlsx', file });
      expect(imported.envelope.payload?.imported).toBe(0);
      expect(imported.envelope.payload?.errors).toHaveLength(1);
    });

    it('writes nothing when one row is invalid and answers the row error', async () => {
      const numbers = [sn(), sn(), sn()];
      const file = await deviceSheet([
        [numbers[0], 'Entrance', 'Dept A'],
        [numbers[1], 'Elevator', null],
        ['bad number!', 'Cafe', 'Dept B'],
        [numbers[2], 'Parking', 'Dept A1'],
      ]);
      const res = await client.call(endpoints.deviceImport, { fileName: 'devices.xlsx', file });
      expect(res.envelope.code).toBe(0);
      expect(res.envelope.payload).toEqual({
        imported: 0,
        rows: 4,
        errors: [{ row: 4, column: 'number', message: expect.stringContaining('letters, digits') }],
      });
      expect(await countNumbers(numbers)).toBe(0);
      // The attempt is logged as a failure; no device was written.
      const [entry] = await t.db
        .select()
        .from(operationLogs)
        .where(
          and(
            eq(operationLogs.endpoint, 'device.import'),
            eq(operationLogs.accountId, admin.id),
            eq(operationLogs.targetName, 'devices.xlsx'),
          ),
        );
      expect(entry).toMatchObject({ result: 'failure', module: 'device', action: 'import' });

      // Fixed, the same sheet pre-registers every device in its department.
      const fixed = await deviceSheet([
        [numbers[0], 'Entrance', 'Dept A'],
        [numbers[1], 'Elevator', null],
        [numbers[2], 'Parking', 'Dept A1'],
      ]);
      const ok = await client.call(endpoints.deviceImport, { fileName: 'devices.xlsx', file: fixed });
      expect(ok.envelope.payload).toEqual({ imported: 3, rows: 3, errors: [] });
      const rows = await t.db.select().from(devices).where(inArray(devices.number, numbers)).orderBy(devices.number);
      expect(rows.map((r) => r.status)).toEqual(['activating', 'activating', 'activating']);
      const byNumber = new Map(rows.map((r) => [r.number, r]));
      expect(byNumber.get(numbers[0])?.deptId).toBe(ent.depts.a);
      expect(byNumber.get(numbers[1])?.deptId).toBe(ent.depts.root);
      expect(byNumber.get(numbers[2])?.deptId).toBe(ent.depts.a1);
    });

    it('checks every rule and answers each error in the caller language', async () => {
      const existing = sn();
      await t.db.insert(devices).values({ entId: ent.id, name: 'Existing', number: existing });
      const dup = sn();
      const file = await deviceSheet([
        [dup, 'One', null],
        [dup, 'Two', null],
        [existing, 'Three', null],
        [sn(), 'x'.repeat(65), null],
        [sn(), null, 'No such department'],
        [null, 'Four', null],
      ]);
      const res = await client.call(endpoints.deviceImport, { fileName: 'rules.xlsx', file }, { language: 'zh-CN' });
      expect(res.envelope.payload?.imported).toBe(0);
      expect(res.envelope.payload?.errors).toEqual([
        { row: 3, column: 'number', message: '与第 2 行的设备编号重复' },
        { row: 4, column: 'number', message: '该设备编号已被其他设备使用' },
        { row: 5, column: 'name', message: '最多 64 个字符' },
        { row: 6, column: 'name', message: '必填' },
        { row: 6, column: 'department', message: '部门“No such department”不存在或不在您的可见范围内' },
        { row: 7, column: 'number', message: '必填' },
      ]);
      // A department outside the caller's scope is unknown to it.
      const inB = await createUser(t.db, ent, { deptIds: [ent.depts.b], dataScope: 'dept_only' });
      const bClient = await t.loginAs(inB);
      const scoped = await bClient.call(
        endpoints.deviceImport,
        { fileName: 'b.xlsx', file: await deviceSheet([[sn(), 'In A', 'Dept A']]) },
        { language: 'ja' },
      );
      expect(scoped.envelope.payload?.errors).toEqual([
        { row: 2, column: 'department', message: '部署「Dept A」が存在しないか、表示範囲外です' },
      ]);
      // Headers in another language and another order are read too; a missing column is named.
      const zhHeaders = await deviceSheet([['名称', sn()]], ['设备名称', '设备编号']);
      const zh = await client.call(endpoints.deviceImport, { fileName: 'zh.xlsx', file: zhHeaders });
      expect(zh.envelope.payload).toMatchObject({ imported: 1, errors: [] });
      const noName = await client.call(endpoints.deviceImport, {
        fileName: 'n.xlsx',
        file: await deviceSheet([[sn()]], ['Device number']),
      });
      expect(noName.envelope.payload?.errors).toEqual([
        { row: 1, column: 'name', message: 'The column "Device name" is missing' },
      ]);
      const garbage = await client.call(endpoints.deviceImport, {
        fileName: 'x.xlsx',
        file: Buffer.from('not a workbook').toString('base64'),
      });
      expect(garbage.envelope.payload?.errors[0]).toMatchObject({ row: 1, column: null });
    });

    it('binds a player that pairs with a pre-registered number to its row', async () => {
      const number = sn();
      const file = await deviceSheet([[number, 'Pre-registered', 'Dept A']]);
      expect((await client.call(endpoints.deviceImport, { fileName: 'p.xlsx', file })).envelope.payload?.imported).toBe(
        1,
      );
      const [row] = await t.db.select().from(devices).where(eq(devices.number, number));
      await startPairing(t.services, { number }, '127.0.0.1');
      const added = await client.call(endpoints.deviceAdd, { number, name: 'Paired screen' });
      expect(added.envelope).toMatchObject({ code: 0, payload: { id: row.id } });
      const rows = await t.db.select().from(devices).where(eq(devices.number, number));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: 'Paired screen', deptId: ent.depts.a, status: 'activating' });
      // Once bound, the number is taken for any other pairing.
      await startPairing(t.services, { number }, '127.0.0.1');
      const again = await client.call(endpoints.deviceAdd, { number, name: 'Second' });
      expect(again.envelope.code).toBe(ErrorCode.CONFLICT);
      // Another enterprise cannot take a pre-registered number.
      const other = await createEnterprise(t.db);
      const otherClient = await t.loginAs(await createUser(t.db, other, { isEntAdmin: true }));
      const theirs = sn();
      await client.call(endpoints.deviceImport, {
        fileName: 'q.xlsx',
        file: await deviceSheet([[theirs, 'Ours', null]]),
      });
      await startPairing(t.services, { number: theirs }, '127.0.0.1');
      const stolen = await otherClient.call(endpoints.deviceAdd, { number: theirs, name: 'Stolen' });
      expect(stolen.envelope.code).toBe(ErrorCode.CONFLICT);
    });
  });

  describe('device export', () => {
    async function waitDone(c: ApiClient, exportId: string): Promise<ExportStatus> {
      for (let i = 0; i < 400; i++) {
        const res = await c.call(endpoints.deviceExportStatus, { exportId });
        const status = res.envelope.payload as ExportStatus;
        if (status.status === 'done' || status.status === 'failed') return status;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('export did not finish');
    }

    it('exports the filtered device list in the background and downloads it', async () => {
      const tag = uniqueName('Exported');
      await insertDevice(t, caller(), `${tag} one`);
      await insertDevice(t, caller(), `${tag} two`);
      await insertDevice(t, caller(), 'Not this one');
      const started = await client.call(endpoints.deviceExportStart, { keyword: tag }, { language: 'zh-CN' });
      expect(started.envelope.payload).toMatchObject({ status: 'pending', total: 2 });
      const exportId = started.envelope.payload?.exportId as string;
      const done = await waitDone(client, exportId);
      expect(done).toMatchObject({ status: 'done', processed: 2, total: 2 });
      const file = await client.call(endpoints.deviceExportDownload, { exportId });
      expect(file.status).toBe(200);
      expect(String(file.headers['content-disposition'])).toMatch(/devices-\d{14}\.xlsx/);
      const rows = await readSheet(file.rawPayload);
      expect(rows[0].slice(0, 4)).toEqual(['设备编号', '设备名称', '状态', '部门']);
      // Both were added at the test clock's one instant: their order is the id's.
      expect(
        rows
          .slice(1)
          .map((r) => [r[1], r[2]])
          .sort(),
      ).toEqual([
        [`${tag} one`, '激活中'],
        [`${tag} two`, '激活中'],
      ]);
      // A device export is not an operation-log export, nor another account's.
      expect((await client.call(endpoints.operationLogExportStatus, { exportId })).envelope.code).toBe(
        ErrorCode.NOT_FOUND,
      );
      const someone = await t.loginAs(await createUser(t.db, ent, { isEntAdmin: true }));
      expect((await someone.call(endpoints.deviceExportStatus, { exportId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    });

    it('exports only what the caller sees', async () => {
      const tag = uniqueName('Scoped');
      await insertDevice(t, caller(), `${tag} root`);
      const inB = await createUser(t.db, ent, { deptIds: [ent.depts.b], dataScope: 'dept_only' });
      const bClient = await t.loginAs(inB);
      const started = await bClient.call(endpoints.deviceExportStart, { keyword: tag });
      expect(started.envelope.payload?.total).toBe(0);
      const done = await waitDone(bClient, started.envelope.payload?.exportId as string);
      expect(done.processed).toBe(0);
    });
  });

  describe('gather', () => {
    it('adds reported audience counts per hour and shows them per age band', async () => {
      const d = await insertDevice(t, caller(), 'Counting screen');
      const device = { id: d, entId: ent.id };
      // Two reports a minute apart in one hour (the test clock's hour starts them: from the clock
      // itself, a run in an hour's last minute split them over two hours).
      const at = new Date(Math.floor(t.clock.now() / HOUR) * HOUR);
      await recordAudience(t.db, device, at, [
        { band: '20-25', gender: 'female', count: 3 },
        { band: '20-25', gender: 'female', count: 2 },
        { band: '56+', gender: 'unknown', count: 1 },
        { band: '1-19', gender: 'male', count: 0 },
      ]);
      await recordAudience(t.db, device, new Date(at.getTime() + 60_000), [
        { band: '20-25', gender: 'female', count: 4 },
      ]);
      const rows = await t.db.select().from(deviceAudienceHourly).where(eq(deviceAudienceHourly.deviceId, d));
      expect(rows.map((r) => [r.band, r.gender, r.count]).sort()).toEqual([
        ['20-25', 'female', 9],
        ['56+', 'unknown', 1],
      ]);
      const one = await client.call(endpoints.gatherAudience, { deviceId: d, days: 1 });
      const figures = one.envelope.payload as AudienceFigures;
      expect(figures.total).toBe(10);
      expect(figures.devices).toBe(1);
      expect(figures.bands.map((b) => b.band)).toEqual(['1-19', '20-25', '26-35', '36-45', '46-55', '56+']);
      expect(figures.bands[1]).toEqual({ band: '20-25', male: 0, female: 9, unknown: 0 });
      const all = await client.call(endpoints.gatherAudience, {});
      expect((all.envelope.payload as AudienceFigures).total).toBeGreaterThanOrEqual(10);
      const list = await client.call(endpoints.gatherList, { keyword: 'Counting screen', withAudience: true });
      expect(list.envelope.payload?.data).toMatchObject([{ id: d, audience24h: 10 }]);
      // A department-only account of another department sees neither the device nor its figures.
      const inB = await createUser(t.db, ent, { deptIds: [ent.depts.b], dataScope: 'dept_only' });
      const bClient = await t.loginAs(inB);
      expect((await bClient.call(endpoints.gatherAudience, { deviceId: d })).envelope.code).toBe(ErrorCode.NOT_FOUND);
      expect(((await bClient.call(endpoints.gatherAudience, {})).envelope.payload as AudienceFigures).total).toBe(0);
    });
  });
});

describe.each(BACKENDS)('audience over the device channel on %s', (backend) => {
  let t: TestApp;
  let server: string;
  const players: HeadlessPlayer[] = [];
  beforeAll(async () => {
    ({ t, server } = await listeningApp(backend, {}));
  });
  afterAll(async () => {
    for (const p of players) p.kill();
    await t.close();
  });

  it('stores what a player reports with its heartbeats, and nothing for a player that reports none', async () => {
    const { client } = await t.tenant();
    const counting = await activatePlayer(server, client, {
      name: 'Counting player',
      audience: () => [
        { band: '26-35', gender: 'male', count: 2 },
        { band: '1-19', gender: 'unknown', count: 1 },
      ],
    });
    const silent = await activatePlayer(server, client, { name: 'Silent player' });
    players.push(counting, silent);
    const countingId = counting.credentials?.deviceId as string;
    const silentId = silent.credentials?.deviceId as string;
    const figures = await waitFor('audience figures', async () => {
      const res = await client.call(endpoints.gatherAudience, { deviceId: countingId, days: 1 });
      const f = res.envelope.payload as AudienceFigures;
      return f.total >= 6 ? f : undefined;
    });
    expect(figures.bands.find((b) => b.band === '26-35')?.male).toBeGreaterThanOrEqual(4);
    const list = await client.call(endpoints.gatherList, { keyword: 'player' });
    const rows = new Map(list.envelope.payload?.data.map((r) => [r.id, r]));
    expect(rows.get(countingId)).toMatchObject({ status: 'online', volume: 50, screenWidth: 1920 });
    expect(rows.get(countingId)?.uptimeSec).toEqual(expect.any(Number));
    expect(rows.get(silentId)?.audience24h).toBeNull();
    const none = await client.call(endpoints.gatherAudience, { deviceId: silentId, days: 1 });
    expect((none.envelope.payload as AudienceFigures).total).toBe(0);
  });
});
