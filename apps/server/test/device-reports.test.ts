import { ErrorCode, endpoints } from '@marquee/protocol';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceDownloads,
  deviceManifestDownloads,
  deviceStatusHistory,
  devices,
  playRollupsDaily,
} from '../src/db/schema/index.js';
import { fullRate } from '../src/modules/deviceReports/fullRate.js';
import { onlineByDay } from '../src/modules/deviceReports/service.js';
import { runExport } from '../src/modules/operationLog/exportJob.js';
import { dateRange } from '../src/modules/scheduling/playlist.js';
import { insertFolder, insertMaterial } from './fixtures/materials.js';
import { BACKENDS, createTestApp, createUser, type TestApp } from './helpers/index.js';

const at = (iso: string) => new Date(`${iso}Z`);

describe('device report figures', () => {
  it.each([
    ['no valid day', [], 8, 0],
    ['full days', [8, 8], 8, 100],
    ['spec example', [4, 8, 6], 8, 75],
    ['a smaller full count', [3, 1], 4, 50],
    ['over full', [12], 8, 150],
  ])('fullRate: %s', (_name, counts, full, want) => {
    expect(fullRate(counts, full)).toBe(want);
  });

  it('online time: the intervals online, clipped to the range, split per UTC day', () => {
    const from = at('2026-03-01T00:00:00').getTime();
    const to = at('2026-03-03T00:00:00').getTime();
    // Online since before the range, offline at 02:00, online from 23:00 across midnight until 01:30.
    const byDay = onlineByDay(
      { status: 'online' },
      [
        { status: 'offline', at: at('2026-03-01T02:00:00') },
        { status: 'online', at: at('2026-03-01T23:00:00') },
        { status: 'offline', at: at('2026-03-02T01:30:00') },
      ],
      from,
      to,
    );
    expect(Object.fromEntries(byDay)).toEqual({ '2026-03-01': 3 * 3600, '2026-03-02': 1.5 * 3600 });
    // Still online at the end: counted to the end.
    expect(
      Object.fromEntries(onlineByDay(undefined, [{ status: 'online', at: at('2026-03-02T22:00:00') }], from, to)),
    ).toEqual({
      '2026-03-02': 2 * 3600,
    });
  });
});

describe.each(BACKENDS)('device reports on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    t.clock.set(at('2026-03-10T12:00:00').getTime());
  });
  afterAll(() => t.close());

  it('reads online time from the status history, plays from the rollups, downloads from the device’s reported download states', async () => {
    const { ent, admin, client } = await t.tenant();
    const [screen, other] = await t.db
      .insert(devices)
      .values([
        { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id, name: 'Lobby', number: `R${Date.now()}` },
        { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id, name: 'Hall' },
      ])
      .returning({ id: devices.id });
    await t.db.insert(deviceStatusHistory).values([
      { entId: ent.id, deviceId: screen.id, status: 'online', reason: 'connect', at: at('2026-03-07T08:00:00') },
      { entId: ent.id, deviceId: screen.id, status: 'offline', reason: 'will', at: at('2026-03-08T02:00:00') },
    ]);
    const rollup = (day: string, adId: string, plays: number) => ({
      day,
      entId: ent.id,
      deviceId: screen.id,
      adId,
      materialId: 'm',
      plays,
      completed: plays - 1,
      durationMs: plays * 10_000,
    });
    await t.db
      .insert(playRollupsDaily)
      .values([rollup('2026-03-07', 'ad1', 5), rollup('2026-03-07', 'ad2', 3), rollup('2026-03-08', 'ad1', 2)]);
    // The device's reported download states (one material done on the 7th, one failed on the 8th)
    // and a manifest it took 5 s to download.
    const folder = await insertFolder(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id });
    const material = (n: string) =>
      insertMaterial(t, {
        entId: ent.id,
        deptId: ent.depts.root,
        ownerId: admin.id,
        folderId: folder.id,
        sha256: n.repeat(64),
      });
    const [m1, m2] = [await material('a'), await material('b')];
    await t.db.insert(deviceDownloads).values([
      {
        deviceId: screen.id,
        materialId: m1,
        entId: ent.id,
        state: 'successful',
        bytesDone: 10,
        bytesTotal: 10,
        changedAt: at('2026-03-07T09:00:05'),
      },
      {
        deviceId: screen.id,
        materialId: m2,
        entId: ent.id,
        state: 'failed',
        bytesDone: 0,
        bytesTotal: 10,
        error: 'HTTP 404',
        changedAt: at('2026-03-08T09:00:00'),
      },
    ]);
    await t.db.insert(deviceManifestDownloads).values({
      deviceId: screen.id,
      manifestVersion: 'v1',
      entId: ent.id,
      startedAt: at('2026-03-07T09:00:00'),
      completedAt: at('2026-03-07T09:00:05'),
    });

    const res = await client.call(endpoints.reportDeviceList, {
      page: 1,
      size: 20,
      from: '2026-03-07',
      to: '2026-03-08',
    });
    expect(res.envelope.code).toBe(0);
    expect(res.envelope.payload.total).toBe(2);
    const row = res.envelope.payload.data.find((r) => r.deviceId === screen.id);
    expect(row).toMatchObject({
      name: 'Lobby',
      deptName: 'Dept A',
      onlineSec: 18 * 3600,
      plays: 10,
      completed: 7,
      playMs: 100_000,
      ads: 2,
      downloads: 1,
      downloadsFailed: 1,
      downloadSec: 5,
      // Days 2 and 1 distinct ads over 2 valid days, 8 a day.
      fullRate: 18.75,
    });
    expect(res.envelope.payload.data.find((r) => r.deviceId === other.id)).toMatchObject({ onlineSec: 0, plays: 0 });
    // A keyword and a department narrow it.
    const byDept = await client.call(endpoints.reportDeviceList, { page: 1, size: 20, deptId: ent.depts.b });
    expect(byDept.envelope.payload.data.map((r) => r.deviceId)).toEqual([other.id]);
    // A range outside the data: nothing.
    const before = await client.call(endpoints.reportDeviceList, {
      page: 1,
      size: 20,
      from: '2026-03-01',
      to: '2026-03-02',
    });
    expect(before.envelope.payload.data.find((r) => r.deviceId === screen.id)).toMatchObject({
      onlineSec: 0,
      plays: 0,
    });
    // A range ending before it starts is the client's mistake.
    const wrong = await client.call(endpoints.reportDeviceList, {
      page: 1,
      size: 20,
      from: '2026-03-08',
      to: '2026-03-01',
    });
    expect(wrong.envelope.code).not.toBe(0);
    expect(wrong.envelope.code).not.toBe(ErrorCode.SERVER_ERROR);

    const detail = await client.call(endpoints.reportDeviceDetail, {
      id: screen.id,
      from: '2026-03-07',
      to: '2026-03-08',
    });
    expect(detail.envelope.code).toBe(0);
    expect(detail.envelope.payload.days).toEqual([
      { day: '2026-03-07', onlineSec: 16 * 3600, plays: 8, playMs: 80_000, ads: 2, downloads: 1, downloadsFailed: 0 },
      { day: '2026-03-08', onlineSec: 2 * 3600, plays: 2, playMs: 20_000, ads: 1, downloads: 0, downloadsFailed: 1 },
    ]);
    expect(detail.envelope.payload.ads.map((a) => [a.adId, a.plays, a.days])).toEqual([
      ['ad1', 7, 2],
      ['ad2', 3, 1],
    ]);

    // Scope: a user of department B sees only Hall; another enterprise sees neither.
    const user = await createUser(t.db, ent, { deptIds: [ent.depts.b], dataScope: 'dept_and_below' });
    const scoped = await t.loginAs(user);
    const seen = await scoped.call(endpoints.reportDeviceList, { page: 1, size: 20 });
    expect(seen.envelope.payload.data.map((r) => r.deviceId)).toEqual([other.id]);
    expect((await scoped.call(endpoints.reportDeviceDetail, { id: screen.id })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    const stranger = await t.tenant();
    expect((await stranger.client.call(endpoints.reportDeviceList, { page: 1, size: 20 })).envelope.payload.total).toBe(
      0,
    );
  });

  it('exports the report as a workbook through the export jobs', async () => {
    const { ent, admin, client } = await t.tenant();
    await t.db.insert(devices).values({
      entId: ent.id,
      deptId: ent.depts.root,
      ownerId: admin.id,
      name: 'Export me',
      createdAt: new Date(t.clock.now() - 1000),
    });
    const start = await client.call(endpoints.reportDeviceExportStart, { from: '2026-03-01', to: '2026-03-07' });
    expect(start.envelope.code).toBe(0);
    expect(start.envelope.payload.total).toBe(1);
    const { exportId } = start.envelope.payload;
    await runExport(t.services, exportId, t.app.log, true);
    const status = await client.call(endpoints.reportDeviceExportStatus, { exportId });
    expect(status.envelope.payload).toMatchObject({ status: 'done', processed: 1, total: 1 });
    const file = await client.call(endpoints.reportDeviceExportDownload, { exportId });
    expect(file.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(2).value).toBe('Export me');
  });
});

describe('report and plan ranges (dateRange)', () => {
  it.each([
    ['a report by default: the 7 days up to today', {}, true, { from: '2026-03-04', to: '2026-03-10' }],
    ['a plan by default: the 7 days from today', {}, false, { from: '2026-03-10', to: '2026-03-16' }],
    ['only the start of a report: up to today', { from: '2026-03-08' }, true, { from: '2026-03-08', to: '2026-03-10' }],
    ['only the end: the 7 days before it', { to: '2026-02-07' }, true, { from: '2026-02-01', to: '2026-02-07' }],
    [
      'a start far back: cut to the longest range',
      { from: '2000-01-01' },
      true,
      { from: '2000-01-01', to: '2000-01-31' },
    ],
  ])('%s', (_name, input, back, want) => {
    expect(dateRange(input, '2026-03-10', { days: 7, max: 31, back })).toEqual(want);
  });
});
