import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpoints, QR_LINK_PATH } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/client.js';
import { devices, qrcodeScans } from '../../src/db/schema/index.js';
import { encodeQrToken, qrLinkKey } from '../../src/modules/content/qrToken.js';
import { buildManifest } from '../../src/modules/content/sources.js';
import { type Scan, ScanRecorder } from '../../src/modules/qrcode/recorder.js';
import { insertAd } from '../fixtures/ads.js';
import { insertDevice } from '../fixtures/deviceGroups.js';
import { insertQrLayout, insertScans } from '../fixtures/qrcode.js';
import { BACKENDS, createTestApp, createUser, type TestApp } from '../helpers/index.js';

/**
 * QR code events (issue 31): a layout's QR component becomes the server's signed short link in
 * the device's manifest; a scan through the real HTTP route is answered 302 to the target and
 * counted once; a forged or altered link is 404 and counts nothing; the report groups by day,
 * ad, layout and device within the caller's scope; a slow database loses no scan.
 */

const DAY = 86_400_000;

describe.each(BACKENDS)('QR code events on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    const d = new Date();
    t.clock.set(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12, 0, 0));
  });
  afterAll(() => t.close());

  const countOf = async (deviceId: string) =>
    (await t.db.select().from(qrcodeScans).where(eq(qrcodeScans.deviceId, deviceId))).length;

  /** A screen showing a QR layout, and the link its manifest carries. */
  async function screenWithQr(target = 'https://example.com/offer?x=1') {
    const { ent, admin, client } = await t.tenant();
    const layoutId = await insertQrLayout(t, { entId: ent.id, ownerId: admin.id, target });
    const deviceId = await insertDevice(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id, name: 'Lobby' });
    await t.db.update(devices).set({ layoutId }).where(eq(devices.id, deviceId));
    const manifest = await buildManifest(t.db, { id: deviceId, entId: ent.id, layoutId }, t.clock.now());
    const doc = manifest.items[0].document as { pages: { components: { props: { content: string } }[] }[] };
    const link = doc.pages[0].components[0].props.content;
    return { ent, admin, client, layoutId, deviceId, link, manifest };
  }

  const pathOf = (link: string) => new URL(link).pathname;

  it('puts a signed short link in the manifest, stable from one build to the next', async () => {
    const s = await screenWithQr();
    expect(s.link.startsWith(`${t.services.config.publicUrl}${QR_LINK_PATH}`)).toBe(true);
    expect(s.link).not.toContain('example.com');
    const again = await buildManifest(t.db, { id: s.deviceId, entId: s.ent.id, layoutId: s.layoutId }, t.clock.now());
    expect(again.version).toBe(s.manifest.version);
    // Content that is not a web address stays as it is.
    const text = await screenWithQr('WIFI:S:Lobby;T:WPA;P:secret;;');
    expect(text.link).toBe('WIFI:S:Lobby;T:WPA;P:secret;;');
  });

  it('redirects a scan at once to the target and counts it once, with its user agent and language', async () => {
    const s = await screenWithQr();
    const res = await t.app.inject({
      method: 'GET',
      url: pathOf(s.link),
      headers: { 'user-agent': 'PhoneBrowser/1.0', 'accept-language': 'zh-CN,zh;q=0.9' },
      remoteAddress: '203.0.113.7',
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://example.com/offer?x=1');
    await t.app.qrcodeScans.flush();
    const rows = await t.db.select().from(qrcodeScans).where(eq(qrcodeScans.deviceId, s.deviceId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      entId: s.ent.id,
      layoutId: s.layoutId,
      adId: '',
      componentId: 'qr-1',
      userAgent: 'PhoneBrowser/1.0',
      language: 'zh-CN',
    });
    expect(JSON.stringify(rows[0])).not.toContain('203.0.113.7');
    const report = await s.client.call(endpoints.qrcodeReport, { groupBy: 'device' });
    expect(report.envelope.payload).toMatchObject({
      totals: { scans: 1, devices: 1 },
      data: [{ key: s.deviceId, name: 'Lobby', scans: 1 }],
    });
  });

  it('refuses a forged or altered link (404) and counts nothing', async () => {
    const s = await screenWithQr();
    const token = pathOf(s.link).slice(QR_LINK_PATH.length);
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const altered = [
      token.slice(0, 10) + flip(token[10]) + token.slice(11),
      token.slice(0, -1) + flip(token.at(-1) as string),
      // A link made with another key, for this very device and another target.
      encodeQrToken(qrLinkKey('not the server secret'), {
        deviceId: s.deviceId,
        layoutId: s.layoutId,
        adId: '',
        componentId: 'qr-1',
        target: 'https://evil.example/',
      }),
      'x',
      'not-a-token-at-all-but-long-enough',
      'A'.repeat(5000),
      '%00%00',
      '..%2F..%2Fapi%2Fhealth',
      encodeURIComponent('二维码🙂'),
      `${token}/extra`,
    ];
    for (const bad of altered) {
      const res = await t.app.inject({ method: 'GET', url: `${QR_LINK_PATH}${bad}` });
      expect(res.statusCode, bad).toBe(404);
      expect(res.headers.location).toBeUndefined();
    }
    await t.app.qrcodeScans.flush();
    expect(await countOf(s.deviceId)).toBe(0);
  });

  it('reports per day, ad, layout and device, with totals, a series and filters', async () => {
    const { ent, admin, client } = await t.tenant();
    const l1 = await insertQrLayout(t, { entId: ent.id, ownerId: admin.id, name: 'Spring' });
    const l2 = await insertQrLayout(t, { entId: ent.id, ownerId: admin.id, name: 'Summer' });
    const d1 = await insertDevice(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id, name: 'Door' });
    const d2 = await insertDevice(t, { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id, name: 'Hall' });
    const adId = await insertAd(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id, name: 'Coupon ad' });
    const now = t.clock.now();
    await insertScans(t, { entId: ent.id, deviceId: d1, layoutId: l1, at: now, n: 3 });
    await insertScans(t, { entId: ent.id, deviceId: d2, layoutId: l1, at: now - DAY, n: 2 });
    await insertScans(t, { entId: ent.id, deviceId: d2, layoutId: l2, adId, at: now - 2 * DAY, n: 4 });
    // Outside the default 7 days.
    await insertScans(t, { entId: ent.id, deviceId: d1, layoutId: l1, at: now - 30 * DAY, n: 5 });
    const today = new Date(now).toISOString().slice(0, 10);
    const day = (n: number) => new Date(now - n * DAY).toISOString().slice(0, 10);

    const byDay = (await client.call(endpoints.qrcodeReport, {})).envelope.payload;
    expect(byDay.totals).toEqual({ scans: 9, devices: 2 });
    expect(byDay.series).toHaveLength(7);
    expect(byDay.series.at(-1)).toEqual({ day: today, scans: 3 });
    expect(byDay.data.map((r) => [r.key, r.scans])).toEqual([
      [today, 3],
      [day(1), 2],
      [day(2), 4],
    ]);
    const byLayout = (await client.call(endpoints.qrcodeReport, { groupBy: 'layout' })).envelope.payload;
    expect(byLayout.data.map((r) => [r.name, r.scans, r.devices])).toEqual([
      ['Spring', 5, 2],
      ['Summer', 4, 1],
    ]);
    const byAd = (await client.call(endpoints.qrcodeReport, { groupBy: 'ad' })).envelope.payload;
    expect(byAd.data.map((r) => [r.key, r.name, r.scans])).toEqual([
      ['', '', 5],
      [adId, 'Coupon ad', 4],
    ]);
    const byDevice = (await client.call(endpoints.qrcodeReport, { groupBy: 'device', layoutId: l1 })).envelope.payload;
    expect(byDevice.data.map((r) => [r.name, r.scans])).toEqual([
      ['Door', 3],
      ['Hall', 2],
    ]);
    const month = (
      await client.call(endpoints.qrcodeReport, { from: day(40), to: today, deviceId: d1, groupBy: 'device' })
    ).envelope.payload;
    expect(month.totals.scans).toBe(8);
    const onlyAd = (await client.call(endpoints.qrcodeReport, { adId, groupBy: 'day' })).envelope.payload;
    expect(onlyAd.totals.scans).toBe(4);
    const paged = (await client.call(endpoints.qrcodeReport, { groupBy: 'day', page: 2, size: 10 })).envelope.payload;
    expect(paged).toMatchObject({ total: 3, data: [] });
  });

  it('scopes: a department sees its devices’ scans, another enterprise none', async () => {
    const { ent, admin, client } = await t.tenant();
    const layoutId = await insertQrLayout(t, { entId: ent.id, ownerId: admin.id });
    const inB = await insertDevice(t, { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id, name: 'In B' });
    const inA = await insertDevice(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id, name: 'In A' });
    await insertScans(t, { entId: ent.id, deviceId: inB, layoutId, at: t.clock.now(), n: 2 });
    await insertScans(t, { entId: ent.id, deviceId: inA, layoutId, at: t.clock.now(), n: 1 });
    const staff = await createUser(t.db, ent, { dataScope: 'dept_and_below', deptIds: [ent.depts.b] });
    const staffClient = await t.loginAs(staff);
    const seen = (await staffClient.call(endpoints.qrcodeReport, { groupBy: 'device' })).envelope.payload;
    expect(seen.data.map((r) => r.name)).toEqual(['In B']);
    expect(seen.totals.scans).toBe(2);
    expect((await client.call(endpoints.qrcodeReport, {})).envelope.payload.totals.scans).toBe(3);
    const other = await t.tenant();
    const theirs = await other.client.call(endpoints.qrcodeReport, { deviceId: inB, groupBy: 'device' });
    expect(theirs.envelope.payload).toMatchObject({ totals: { scans: 0 }, data: [] });
    const noPerm = await createUser(t.db, ent, { permissions: [] });
    const denied = await (await t.loginAs(noPerm)).call(endpoints.qrcodeReport, {});
    expect(denied.envelope.code).not.toBe(0);
  });

  it('loses no scan while the database fails: memory, then the spill file, then written', async () => {
    const { ent, admin } = await t.tenant();
    const layoutId = await insertQrLayout(t, { entId: ent.id, ownerId: admin.id });
    const deviceId = await insertDevice(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id });
    let down = true;
    // The database as the writer sees it: every statement fails while `down`.
    const db = new Proxy(t.db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if ((prop === 'insert' || prop === 'select' || prop === 'execute') && down) {
          return () => {
            throw new Error('database unavailable');
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Executor;
    const spillDir = mkdtempSync(join(tmpdir(), 'qrcode-spill-'));
    const silent = { warn() {}, info() {}, error() {} };
    const recorder = new ScanRecorder({ db, spillDir, log: silent, maxQueued: 5, batchSize: 4, flushDelayMs: 1 });
    const scan = (i: number): Scan => ({
      id: crypto.randomUUID(),
      deviceId,
      adId: '',
      layoutId,
      componentId: 'qr-1',
      at: t.clock.now() + i,
      userAgent: 'Spill',
      language: '',
    });
    for (let i = 0; i < 23; i++) recorder.record(scan(i));
    await expect(recorder.flush(300)).rejects.toThrow(/pending/);
    expect(recorder.pending()).toBe(23);
    expect(readdirSync(spillDir)).toContain('scans.spill.ndjson');
    expect(await countOf(deviceId)).toBe(0);
    down = false;
    await recorder.flush(20_000);
    expect(await countOf(deviceId)).toBe(23);
    expect(readdirSync(spillDir)).toEqual([]);

    // Closed while the database is down: kept on disk, written by the next start.
    down = true;
    for (let i = 0; i < 3; i++) recorder.record(scan(100 + i));
    await recorder.close(200);
    down = false;
    const next = new ScanRecorder({ db, spillDir, log: silent, flushDelayMs: 1 });
    next.start();
    expect(next.pending()).toBe(3);
    await next.flush(20_000);
    expect(await countOf(deviceId)).toBe(26);
    await next.close();
  });
});
