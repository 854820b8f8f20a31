import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { type EndpointDef, ErrorCode, type ExportStatus, endpoints } from '@marquee/protocol';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../src/db/client.js';
import { operationLogs } from '../src/db/schema/index.js';
import { exportKey } from '../src/modules/operationLog/exportJob.js';
import { insertExport } from '../src/modules/operationLog/repository.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
  type TestUser,
} from './helpers/index.js';

/** Inserts `n` log rows of `module` for `user`, one second apart, the newest at `end`. */
async function insertLogs(db: Executor, user: TestUser, module: string, n: number, end: Date, deptId?: string) {
  const rows = Array.from({ length: n }, (_, i) => ({
    entId: user.entId,
    accountId: user.id,
    deptId: deptId ?? null,
    loginName: user.loginName,
    module,
    action: i % 2 === 0 ? 'add' : 'delete',
    targetType: 'thing',
    targetId: `t${i}`,
    ip: '10.1.2.3',
    traceKey: `k${i}`,
    endpoint: `${module}.x`,
    result: 'success' as const,
    createdAt: new Date(end.getTime() - i * 1000),
  }));
  for (let i = 0; i < rows.length; i += 2000) await db.insert(operationLogs).values(rows.slice(i, i + 2000));
}

async function waitForExport(client: ApiClient, exportId: string): Promise<ExportStatus> {
  for (let i = 0; i < 600; i++) {
    const res = await client.call(endpoints.operationLogExportStatus, { exportId });
    expect(res.envelope.code).toBe(0);
    const status = res.envelope.payload as ExportStatus;
    if (status.status === 'done' || status.status === 'failed') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('export did not finish');
}

describe.each(BACKENDS)('operation log endpoints on %s', (backend) => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mq-oplog-'));
    t = await createTestApp(backend, { config: { dataDir } });
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const defs: [EndpointDef, unknown, unknown][] = [
    [endpoints.operationLogList, { page: 1, size: 10 }, { page: 0 }],
    [endpoints.operationLogOptions, {}, { x: 1 }],
    [endpoints.operationLogExportStart, { module: 'x' }, { from: 'yesterday' }],
    [endpoints.operationLogExportStatus, { exportId: 'nope' }, { exportId: 5 }],
    [endpoints.operationLogExportDownload, { exportId: 'nope' }, {}],
  ];

  describe.each(defs.map(([def, happy, bad]) => [def.name, def, happy, bad] as const))(
    '%s',
    (_name, def, happy, bad) => {
      it('refuses a caller without a session, without the permission, or with a bad payload', async () => {
        expect((await t.client().call(def, happy, { token: null })).envelope.code).toBe(ErrorCode.TOKEN_INVALID);
        const ent = await createEnterprise(t.db);
        const noPerm = await t.loginAs(await createUser(t.db, ent, { permissions: [] }));
        expect((await noPerm.call(def, happy)).envelope.code).toBe(ErrorCode.NO_PERMISSION);
        const { client } = await t.tenant();
        expect((await client.call(def, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
        expect((await client.call(def, [])).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      });
    },
  );

  it('lists a mutation made elsewhere with account, module, action, target, address and result', async () => {
    const { ent, admin, client } = await t.tenant();
    t.clock.advance(1000);
    const change = await client.call(endpoints.deptChange, { deptId: ent.depts.root }, { ip: '203.0.113.7' });
    expect(change.envelope.code).toBe(0);
    const res = await client.call(endpoints.operationLogList, { page: 1, size: 50, module: 'dept' });
    expect(res.envelope.code).toBe(0);
    expect(res.envelope.payload.total).toBe(1);
    expect(res.envelope.payload.data[0]).toMatchObject({
      loginName: admin.loginName,
      accountId: admin.id,
      entId: ent.id,
      entName: ent.name,
      module: 'dept',
      action: 'change',
      targetType: 'department',
      targetId: ent.depts.root,
      targetName: 'Root',
      ip: '203.0.113.7',
      result: 'success',
    });
    // The login is there too, older than the department change: newest first.
    const all = await client.call(endpoints.operationLogList, { page: 1, size: 50 });
    expect(all.envelope.payload.data.map((r) => `${r.module}.${r.action}`)).toEqual(['dept.change', 'auth.login']);
    const options = await client.call(endpoints.operationLogOptions, {});
    expect(options.envelope.payload).toEqual({
      modules: ['auth', 'dept'],
      actions: ['change', 'login'],
      enterprises: [],
    });
  });

  it('filters by account, module, action and time range and pages newest first', async () => {
    const { ent, admin, client } = await t.tenant();
    const other = await createUser(t.db, ent, { loginName: `zed_${Date.now()}` });
    const end = new Date(t.clock.now() - 60_000);
    await insertLogs(t.db, admin, 'material', 30, end);
    await insertLogs(t.db, other, 'device', 12, end);
    const list = (payload: Record<string, unknown>) =>
      client.call(endpoints.operationLogList, { page: 1, size: 50, ...payload }).then((r) => {
        expect(r.envelope.code).toBe(0);
        return r.envelope.payload;
      });
    expect((await list({ module: 'material' })).total).toBe(30);
    expect((await list({ module: 'material', action: 'add' })).total).toBe(15);
    expect((await list({ account: 'ZED_' })).total).toBe(12);
    expect((await list({ account: '%' })).total).toBe(0);
    const range = await list({
      module: 'device',
      from: new Date(end.getTime() - 4500).toISOString(),
      to: new Date(end.getTime()).toISOString(),
    });
    // end-1s .. end-4s: four rows (the bound at `end` is exclusive).
    expect(range.data.map((r) => r.targetId)).toEqual(['t1', 't2', 't3', 't4']);
    const page2 = await list({ module: 'material', page: 2, size: 10 });
    expect(page2.total).toBe(30);
    expect(page2.data.map((r) => r.targetId)).toEqual([
      't10',
      't11',
      't12',
      't13',
      't14',
      't15',
      't16',
      't17',
      't18',
      't19',
    ]);
  });

  it('shows a tenant only its own entries and a staff member only its data scope', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    const end = new Date(t.clock.now() - 60_000);
    await insertLogs(t.db, b.admin, 'secret', 5, end);
    const seen = await a.client.call(endpoints.operationLogList, { page: 1, size: 50, module: 'secret' });
    expect(seen.envelope.payload.total).toBe(0);
    const named = await a.client.call(endpoints.operationLogList, { page: 1, size: 50, entId: b.ent.id });
    expect(named.envelope.payload.total).toBe(0);

    // Staff of department A with 'dept_only' sees department A's entries, not B's; 'self' only its own.
    const ent: TestEnterprise = a.ent;
    const deptA = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_only' });
    const self = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'self' });
    const inA = await createUser(t.db, ent, { deptIds: [ent.depts.a] });
    const inB = await createUser(t.db, ent, { deptIds: [ent.depts.b] });
    await insertLogs(t.db, inA, 'scoped', 3, end, ent.depts.a);
    await insertLogs(t.db, inB, 'scoped', 4, end, ent.depts.b);
    await insertLogs(t.db, self, 'scoped', 2, end, ent.depts.a);
    const total = async (user: TestUser) =>
      (await (await t.loginAs(user)).call(endpoints.operationLogList, { page: 1, size: 50, module: 'scoped' })).envelope
        .payload.total;
    expect(await total(deptA)).toBe(5);
    expect(await total(self)).toBe(2);
    expect(await total(a.admin)).toBe(9);
  });

  it('lets the platform operator read and filter every enterprise', async () => {
    const provider = await createEnterprise(t.db, { kind: 'provider' });
    const operator = await t.loginAs(await createUser(t.db, provider, { isEntAdmin: true }));
    const b = await t.tenant();
    await insertLogs(t.db, b.admin, 'fleet', 3, new Date(t.clock.now() - 1000));
    const res = await operator.call(endpoints.operationLogList, { page: 1, size: 50, entId: b.ent.id });
    expect(res.envelope.payload.total).toBe(4); // b's admin login + 3
    expect(res.envelope.payload.data.every((r) => r.entName === b.ent.name)).toBe(true);
    const options = await operator.call(endpoints.operationLogOptions, {});
    expect(options.envelope.payload.enterprises.some((e) => e.value === b.ent.id)).toBe(true);
  });

  it('exports N rows to an .xlsx with N data rows under its file name, for its owner only', async () => {
    const { ent, admin, client } = await t.tenant();
    const n = 2345;
    await insertLogs(t.db, admin, 'bulk', n, new Date(t.clock.now() - 60_000));
    const started = await client.call(endpoints.operationLogExportStart, { module: 'bulk' });
    expect(started.envelope.code).toBe(0);
    const { exportId, total, fileName } = started.envelope.payload;
    expect(total).toBe(n);
    expect(fileName).toMatch(/^operation-log-\d{14}\.xlsx$/);
    const done = await waitForExport(client, exportId);
    expect(done).toMatchObject({ status: 'done', processed: n, total: n, fileName });

    const file = await client.call(endpoints.operationLogExportDownload, { exportId });
    expect(file.status).toBe(200);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');
    expect(String(file.headers['content-disposition'])).toContain(`filename*=UTF-8''${fileName}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(n + 1);
    expect(sheet.getRow(1).getCell(2).value).toBe('Account');
    expect(sheet.getRow(2).getCell(4).value).toBe('Bulk');
    // Known codes are written as the page shows them, in the caller's language.
    expect(sheet.getRow(2).getCell(5).value).toBe('Add');
    expect(sheet.getRow(2).getCell(7).value).toBe('t0');
    // The file lives in the file storage: the status carries a signed URL of the same bytes.
    expect(done.url).toMatch(/^\/files\/e\/[\w-]+\/exports\/[\w-]+\.xlsx\?exp=\d+&sig=[\w-]+$/);
    const viaUrl = await t.app.inject({ url: done.url as string });
    expect(viaUrl.statusCode).toBe(200);
    expect(viaUrl.rawPayload.equals(file.rawPayload)).toBe(true);

    // The export itself is in the log.
    const logged = await client.call(endpoints.operationLogList, { page: 1, size: 10, module: 'operationLog' });
    expect(logged.envelope.payload.data[0]).toMatchObject({ action: 'export', targetId: exportId });

    // Another account of the same enterprise, and another enterprise, cannot see it.
    const colleague = await t.loginAs(await createUser(t.db, ent));
    const stranger = (await t.tenant()).client;
    for (const c of [colleague, stranger]) {
      expect((await c.call(endpoints.operationLogExportStatus, { exportId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
      const dl = await c.call(endpoints.operationLogExportDownload, { exportId });
      expect(dl.envelope.code).toBe(ErrorCode.NOT_FOUND);
    }
  });

  it("writes every module, action and target in the words of the caller's language (issue 25)", async () => {
    const { admin, client } = await t.tenant();
    const at = new Date(t.clock.now() - 60_000);
    const row = (module: string, action: string, targetType: string, targetName: string, i: number) => ({
      entId: admin.entId,
      accountId: admin.id,
      loginName: admin.loginName,
      module,
      action,
      targetType,
      targetId: `id${i}`,
      targetName,
      ip: '10.1.2.3',
      traceKey: `w${i}`,
      endpoint: `${module}.${action}`,
      result: 'success' as const,
      createdAt: new Date(at.getTime() - i * 1000),
    });
    await t.db
      .insert(operationLogs)
      .values([
        row('ad', 'auditPass', 'ref:5', 'Tour Ad 43', 0),
        row('material', 'uploadApply', 'materialUpload', 'tour_ad', 1),
        row('material', 'folderCreate', 'materialFolder', 'Spring', 2),
      ]);
    const expected: Record<string, string[][]> = {
      'zh-CN': [
        ['广告', '审核通过', '广告', 'Tour Ad 43'],
        ['素材', '申请上传', '素材上传', 'tour_ad'],
        ['素材', '新建文件夹', '素材文件夹', 'Spring'],
      ],
      ja: [
        ['広告', '審査承認', '広告', 'Tour Ad 43'],
        ['素材', 'アップロードの申請', '素材のアップロード', 'tour_ad'],
        ['素材', 'フォルダの作成', '素材フォルダ', 'Spring'],
      ],
      'en-US': [
        ['Ads', 'Review passed', 'Ad', 'Tour Ad 43'],
        ['Materials', 'Request upload', 'Material upload', 'tour_ad'],
        ['Materials', 'Create folder', 'Material folder', 'Spring'],
      ],
    };
    const headers: Record<string, string> = { 'zh-CN': '模块', ja: 'モジュール', 'en-US': 'Module' };
    const sheets: Record<string, string> = { 'zh-CN': '操作日志', ja: '操作ログ', 'en-US': 'Operation log' };
    for (const language of ['zh-CN', 'ja', 'en-US']) {
      const started = await client.call(
        endpoints.operationLogExportStart,
        { from: new Date(at.getTime() - 10_000).toISOString() },
        { language },
      );
      expect(started.envelope.code).toBe(0);
      const { exportId } = started.envelope.payload;
      expect((await waitForExport(client, exportId)).status).toBe('done');
      const file = await client.call(endpoints.operationLogExportDownload, { exportId });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      expect(sheet.name).toBe(sheets[language]);
      expect(sheet.getRow(1).getCell(4).value).toBe(headers[language]);
      // The three rows above, newest first (the tenant's login and exports are in the log too).
      const rows = Array.from({ length: sheet.rowCount - 1 }, (_, i) =>
        [4, 5, 6, 7].map((c) => sheet.getRow(i + 2).getCell(c).value),
      ).filter((r) => ['Tour Ad 43', 'tour_ad', 'Spring'].includes(String(r[3])));
      expect(rows).toEqual(expected[language]);
    }
  });

  it('removes exports older than a week, with their files, on the prune-exports job', async () => {
    const { admin, client } = await t.tenant();
    const old = await insertExport(t.db, {
      entId: admin.entId,
      accountId: admin.id,
      fileName: 'old.xlsx',
      status: 'done',
      createdAt: new Date(Date.now() - 8 * 86_400_000),
    });
    const oldKey = exportKey(admin.entId, old.id);
    await t.services.files.storage.put(oldKey, Readable.from([Buffer.from('old')]), { contentType: 'text/plain' });
    expect((await client.call(endpoints.operationLogExportStatus, { exportId: old.id })).envelope.code).toBe(0);
    const started = await client.call(endpoints.operationLogExportStart, {});
    await waitForExport(client, started.envelope.payload.exportId);
    // The schedule sends it hourly; here it is sent now.
    await t.services.jobs.send('prune-exports', {});
    t.services.jobs.wake('prune-exports');
    const deadline = Date.now() + 10_000;
    let code = 0;
    while (Date.now() < deadline) {
      code = (await client.call(endpoints.operationLogExportStatus, { exportId: old.id })).envelope.code;
      const fileGone = !(await t.services.files.storage.exists(oldKey));
      if (code === ErrorCode.NOT_FOUND && fileGone) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(code).toBe(ErrorCode.NOT_FOUND);
    // The export of this week stays.
    expect(
      (await client.call(endpoints.operationLogExportStatus, { exportId: started.envelope.payload.exportId })).envelope
        .code,
    ).toBe(0);
    expect(await t.services.files.storage.exists(oldKey)).toBe(false);
  });

  it('refuses exports to third-party monitor users', async () => {
    const ent = await createEnterprise(t.db);
    const monitor = await t.loginAs(await createUser(t.db, ent, { thirdMonitor: true }));
    expect((await monitor.call(endpoints.operationLogList, { page: 1, size: 10 })).envelope.code).toBe(0);
    expect((await monitor.call(endpoints.operationLogExportStart, {})).envelope.code).toBe(ErrorCode.NO_PERMISSION);
  });
});
