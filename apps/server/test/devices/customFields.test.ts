import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, type ExportStatus, endpoints } from '@marquee/protocol';
import { eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devices } from '../../src/db/schema/index.js';
import { startPairing } from '../../src/modules/devices/pairing.js';
import { deviceSheet } from '../fixtures/splice.js';
import {
  type ApiClient,
  BACKENDS,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
  uniqueName,
} from '../helpers/index.js';

/**
 * Device custom fields (issue 31): the enterprise-wide administrator defines them; values are
 * checked on update; the list filters by them; another enterprise sees none of them; deleting
 * a field clears its values.
 */
// Building an app takes long on a loaded machine.
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

describe.each(BACKENDS)('device custom fields on %s', (backend) => {
  let t: TestApp;
  let ent: TestEnterprise;
  let client: ApiClient;
  let adminId: string;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mq-cf-'));
    t = await createTestApp(backend, { config: { dataDir } });
    const tenant = await t.tenant();
    ent = tenant.ent;
    client = tenant.client;
    adminId = tenant.admin.id;
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const insertDevice = async (values: Partial<typeof devices.$inferInsert> = {}) => {
    const [row] = await t.db
      .insert(devices)
      .values({ entId: ent.id, deptId: ent.depts.a, ownerId: adminId, name: uniqueName('Screen'), ...values })
      .returning();
    return row;
  };
  const save = (request: Record<string, unknown>) => client.call(endpoints.customFieldSave, request as never);
  const update = (id: string, customFields: Record<string, string | number | null>) =>
    client.call(endpoints.deviceUpdate, { id, name: 'Screen', customFields });

  it('defines fields, checks values on update, lists and filters by them', async () => {
    const floor = await save({
      key: 'floor',
      label: '楼层',
      type: 'option',
      options: ['B1', 'F1', 'F2'],
      showInList: true,
    });
    expect(floor.envelope.code).toBe(0);
    expect((await save({ key: 'height', label: 'Height', type: 'number' })).envelope.code).toBe(0);
    expect((await save({ key: 'checked', label: 'Checked on', type: 'date' })).envelope.code).toBe(0);
    expect((await save({ key: 'note', label: 'Note', type: 'text' })).envelope.code).toBe(0);
    // The key is the enterprise's once.
    expect((await save({ key: 'floor', label: 'Again', type: 'text' })).envelope.code).toBe(
      ErrorCode.CUSTOM_FIELD_KEY_TAKEN,
    );
    // An option field needs options.
    expect((await save({ key: 'zone', label: 'Zone', type: 'option', options: [] })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );

    const a = await insertDevice();
    const b = await insertDevice();
    expect(
      (await update(a.id, { floor: 'F1', height: 2.5, checked: '2026-03-01', note: 'by the lift' })).envelope.code,
    ).toBe(0);
    expect((await update(b.id, { floor: 'B1', height: '3' as never })).envelope.code).toBe(0);

    const bad = await update(a.id, { floor: 'F9' });
    expect(bad.envelope.code).toBe(ErrorCode.CUSTOM_FIELD_VALUE_INVALID);
    expect(bad.envelope.message).toContain('楼层');
    expect((await update(a.id, { height: 'tall' })).envelope.code).toBe(ErrorCode.CUSTOM_FIELD_VALUE_INVALID);
    expect((await update(a.id, { checked: '2026-02-30' })).envelope.code).toBe(ErrorCode.CUSTOM_FIELD_VALUE_INVALID);
    expect((await update(a.id, { nokey: 'x' })).envelope.code).toBe(ErrorCode.CUSTOM_FIELD_VALUE_INVALID);

    const [stored] = await t.db.select().from(devices).where(eq(devices.id, b.id));
    expect(stored.customFields).toEqual({ floor: 'B1', height: 3 });

    const detail = await client.call(endpoints.deviceDetail, { id: a.id });
    expect(detail.envelope.payload.customFields).toEqual({
      floor: 'F1',
      height: 2.5,
      checked: '2026-03-01',
      note: 'by the lift',
    });

    const ids = async (key: string, value: string) => {
      const answer = await client.call(endpoints.deviceList, { size: 100, customField: { key, value } });
      expect(answer.envelope.code).toBe(0);
      return answer.envelope.payload.data.map((d) => d.id);
    };
    expect(await ids('floor', 'F1')).toEqual([a.id]);
    expect(await ids('floor', 'B1')).toEqual([b.id]);
    expect(await ids('height', '3')).toEqual([b.id]);
    expect(await ids('note', 'LIFT')).toEqual([a.id]);
    expect(await ids('checked', '2026-03-01')).toEqual([a.id]);
    expect(await ids('unknown', 'x')).toEqual([]);

    // The list says how many devices hold a value; the type is locked while any does.
    const list = await client.call(endpoints.customFieldList, {});
    const byKey = new Map(list.envelope.payload.data.map((f) => [f.key, f]));
    expect(byKey.get('floor')?.deviceCount).toBe(2);
    expect(byKey.get('note')?.deviceCount).toBe(1);
    const floorId = byKey.get('floor')?.id as string;
    expect((await save({ id: floorId, key: 'floor', label: '楼层', type: 'text' })).envelope.code).toBe(
      ErrorCode.CUSTOM_FIELD_TYPE_LOCKED,
    );

    // A required field must hold a value on the next save of the form.
    const heightId = byKey.get('height')?.id as string;
    expect(
      (await save({ id: heightId, key: 'height', label: 'Height', type: 'number', required: true })).envelope.code,
    ).toBe(0);
    expect((await update(a.id, { height: null })).envelope.code).toBe(ErrorCode.CUSTOM_FIELD_REQUIRED);
    expect((await save({ id: heightId, key: 'height', label: 'Height', type: 'number' })).envelope.code).toBe(0);

    // Clearing one value keeps the others.
    expect((await update(a.id, { note: null })).envelope.code).toBe(0);
    const [cleared] = await t.db.select().from(devices).where(eq(devices.id, a.id));
    expect(cleared.customFields).toEqual({ floor: 'F1', height: 2.5, checked: '2026-03-01' });

    // Deleting clears its values.
    const removed = await client.call(endpoints.customFieldDelete, { id: floorId });
    expect(removed.envelope.payload).toEqual({ cleared: 2 });
    const after = await t.db.select().from(devices).where(eq(devices.id, b.id));
    expect(after[0].customFields).toEqual({ height: 3 });
  });

  it('only the enterprise-wide administrator defines fields; another enterprise sees none', async () => {
    const staff = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_and_below' });
    const staffClient = await t.loginAs(staff);
    expect(
      (await staffClient.call(endpoints.customFieldSave, { key: 'x1', label: 'X', type: 'text' })).envelope.code,
    ).toBe(ErrorCode.NO_PERMISSION);
    // Staff read the definitions (the form and list use them).
    const mine = await save({ key: 'asset_no', label: 'Asset no.', type: 'text' });
    expect(mine.envelope.code).toBe(0);
    const read = await staffClient.call(endpoints.customFieldList, {});
    expect(read.envelope.payload.data.map((f) => f.key)).toContain('asset_no');

    const other = await t.tenant();
    const theirs = await other.client.call(endpoints.customFieldList, {});
    expect(theirs.envelope.payload.data).toEqual([]);
    // Nor edit or delete ours.
    expect(
      (
        await other.client.call(endpoints.customFieldSave, {
          id: mine.envelope.payload.id,
          key: 'asset_no',
          label: 'Mine now',
          type: 'text',
        })
      ).envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
    expect((await other.client.call(endpoints.customFieldDelete, { id: mine.envelope.payload.id })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    // Their own key of the same name is theirs.
    expect(
      (await other.client.call(endpoints.customFieldSave, { key: 'asset_no', label: 'Asset', type: 'text' })).envelope
        .code,
    ).toBe(0);
  });

  it('a device added by its pairing code carries its values; a required field left empty adds nothing', async () => {
    const own = await t.tenant();
    const field = await own.client.call(endpoints.customFieldSave, {
      key: 'site_code',
      label: 'Site code',
      type: 'text',
      required: true,
    });
    expect(field.envelope.code).toBe(0);
    const pairing = await startPairing(t.services, {}, '127.0.0.1');
    const countOwn = async () => (await t.db.select().from(devices).where(eq(devices.entId, own.ent.id))).length;
    const before = await countOwn();

    const missing = await own.client.call(endpoints.deviceAdd, { code: pairing.code, name: 'Lobby' });
    expect(missing.envelope.code).toBe(ErrorCode.CUSTOM_FIELD_REQUIRED);
    expect(missing.envelope.message).toContain('Site code');
    const unknown = await own.client.call(endpoints.deviceAdd, {
      code: pairing.code,
      name: 'Lobby',
      customFields: { site_code: 'SH-01', nope: 'x' },
    });
    expect(unknown.envelope.code).toBe(ErrorCode.CUSTOM_FIELD_VALUE_INVALID);
    // Nothing was written and the pairing is still open: the same code adds it once corrected.
    expect(await countOwn()).toBe(before);
    const added = await own.client.call(endpoints.deviceAdd, {
      code: pairing.code,
      name: 'Lobby',
      customFields: { site_code: 'SH-01' },
    });
    expect(added.envelope.code).toBe(0);
    const [row] = await t.db.select().from(devices).where(eq(devices.id, added.envelope.payload.id));
    expect(row.customFields).toEqual({ site_code: 'SH-01' });
  });

  it('imports values from the template columns with row errors, and exports them back', async () => {
    const other = await t.tenant();
    const oc = other.client;
    expect(
      (
        await oc.call(endpoints.customFieldSave, {
          key: 'zone',
          label: 'Zone',
          type: 'option',
          options: ['North', 'South'],
        })
      ).envelope.code,
    ).toBe(0);
    expect(
      (await oc.call(endpoints.customFieldSave, { key: 'since', label: 'Since', type: 'date', required: true }))
        .envelope.code,
    ).toBe(0);
    // The template carries the fields' columns.
    const template = await oc.call(endpoints.deviceImportTemplate, {}, { language: 'en-US' });
    const head = (await readSheet(template.rawPayload))[0];
    expect(head).toEqual(['Device number', 'Device name', 'Department', 'Zone', 'Since']);

    const headers = ['Device number', 'Device name', 'Department', 'Zone', 'Since'];
    const [a, b] = [sn(), sn()];
    const bad = await oc.call(
      endpoints.deviceImport,
      {
        fileName: 'd.xlsx',
        file: await deviceSheet(
          [
            [a, 'One', null, 'East', '2026-01-05'],
            [b, 'Two', null, 'North', null],
          ],
          headers,
        ),
      },
      { language: 'en-US' },
    );
    expect(bad.envelope.payload).toEqual({
      imported: 0,
      rows: 2,
      errors: [
        { row: 2, column: 'zone', message: '"Zone" must be one of: North, South' },
        { row: 3, column: 'since', message: 'Fill in "Since"' },
      ],
    });
    const ok = await oc.call(endpoints.deviceImport, {
      fileName: 'd.xlsx',
      file: await deviceSheet(
        [
          [a, 'One', null, 'South', '2026-01-05'],
          [b, 'Two', null, 'North', '2025-12-31'],
        ],
        headers,
      ),
    });
    expect(ok.envelope.payload).toEqual({ imported: 2, rows: 2, errors: [] });
    const rows = await t.db
      .select()
      .from(devices)
      .where(inArray(devices.number, [a, b]))
      .orderBy(devices.name);
    expect(rows.map((r) => r.customFields)).toEqual([
      { zone: 'South', since: '2026-01-05' },
      { zone: 'North', since: '2025-12-31' },
    ]);

    const started = await oc.call(endpoints.deviceExportStart, { keyword: a }, { language: 'en-US' });
    const exportId = started.envelope.payload?.exportId as string;
    let status: ExportStatus | undefined;
    for (let i = 0; i < 400; i++) {
      status = (await oc.call(endpoints.deviceExportStatus, { exportId })).envelope.payload as ExportStatus;
      if (status.status === 'done' || status.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(status?.status).toBe('done');
    const file = await oc.call(endpoints.deviceExportDownload, { exportId });
    const sheet = await readSheet(file.rawPayload);
    expect(sheet[0].slice(-2)).toEqual(['Zone', 'Since']);
    expect(sheet[1].slice(-2)).toEqual(['South', '2026-01-05']);
  });
});
