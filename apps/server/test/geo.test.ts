import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { devices, stores } from '../src/db/schema/index.js';
import {
  centreOf,
  childrenOf,
  codesOf,
  pathOf,
  regionByCode,
  regionName,
  regionOfAddress,
} from '../src/modules/geo/divisions.js';
import { geocode, offlineGeocode } from '../src/modules/geo/geocoder.js';
import { insertGeoDevice, insertStore, SHENZHEN_ADDRESS } from './fixtures/geo.js';
import { BACKENDS, createTestApp, createUser, type TestApp } from './helpers/index.js';

/**
 * Geography (issue 9): the region data set, geocoding (offline and through an HTTP provider
 * played by a tiny server this test starts), device locations, stores and the device map.
 */

describe('region data set (GB/T 2260 codes with centres from the map data)', () => {
  it('answers a region by code, its children and its path', () => {
    const nanshan = regionByCode('440305');
    expect(nanshan).toMatchObject({ name: '南山区', level: 'district' });
    expect(pathOf(nanshan!).map((r) => r.name)).toEqual(['广东省', '深圳市', '南山区']);
    expect(codesOf(nanshan)).toEqual({ provinceCode: '440000', cityCode: '440300', districtCode: '440305' });
    expect(childrenOf()?.length).toBe(34);
    expect(childrenOf('440000')?.map((c) => c.name)).toContain('深圳市');
    expect(childrenOf('999999')).toBeUndefined();
  });

  it('gives municipalities one city level of their own name', () => {
    expect(childrenOf('110000')?.map((c) => [c.code, c.name])).toEqual([['110100', '北京市']]);
    const chaoyang = regionByCode('110105');
    expect(regionName(chaoyang)).toBe('北京市 朝阳区');
    expect(codesOf(chaoyang).cityCode).toBe('110100');
  });

  it("answers the nearest centre the data has: a municipality's district, else the city, else the province", () => {
    expect(centreOf(regionByCode('110105')!)).toEqual({ point: [116.486409, 39.921489], level: 'district' });
    expect(centreOf(regionByCode('440305')!)?.level).toBe('city');
    expect(centreOf(regionByCode('440000')!)?.level).toBe('province');
  });

  it('reads the region an address names', () => {
    expect(regionOfAddress('广东省深圳市南山区科技园')?.code).toBe('440305');
    expect(regionOfAddress('深圳市福田区华强北')?.code).toBe('440304');
    expect(regionOfAddress('杭州西湖区')?.code).toBe('330106');
    expect(regionOfAddress('上海浦东新区世纪大道')?.code).toBe('310115');
    expect(regionOfAddress('东莞市长安镇')?.code).toBe('441900');
    expect(regionOfAddress('Somewhere over the rainbow')).toBeUndefined();
  });

  it('geocodes offline to the centre, marked approximate, or to nothing', () => {
    expect(offlineGeocode({ address: '北京市朝阳区建国路88号' })).toMatchObject({
      latitude: 39.921489,
      longitude: 116.486409,
      approximate: true,
      precision: 'district',
      districtCode: '110105',
      source: 'offline',
    });
    // A region the user picked wins over the text.
    expect(offlineGeocode({ address: 'Main street 1', regionCode: '440300' })).toMatchObject({
      precision: 'city',
      cityCode: '440300',
      districtCode: null,
    });
    expect(offlineGeocode({ address: 'Main street 1' })).toBeNull();
  });
});

/** A stand-in for AMap's and Nominatim's geocoding services: answers by the address asked. */
function startProvider(): Promise<{ server: Server; url: string; requests: URL[] }> {
  const requests: URL[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url);
    const address = url.searchParams.get('address') ?? url.searchParams.get('q') ?? '';
    res.setHeader('content-type', 'application/json');
    if (address.includes('broken')) {
      res.statusCode = 502;
      res.end('{}');
      return;
    }
    if (url.pathname === '/v3/geocode/geo') {
      if (url.searchParams.get('key') !== 'test-key')
        return res.end(JSON.stringify({ status: '0', info: 'INVALID_USER_KEY' }));
      if (address.includes('nowhere')) return res.end(JSON.stringify({ status: '1', count: '0', geocodes: [] }));
      const coarse = address.includes('区');
      return res.end(
        JSON.stringify({
          status: '1',
          geocodes: [{ location: '113.943000,22.540000', adcode: '440305', level: coarse ? '区县' : '门牌号' }],
        }),
      );
    }
    if (url.pathname === '/search') {
      return res.end(JSON.stringify([{ lat: '22.54', lon: '113.94', addresstype: 'building' }]));
    }
    res.statusCode = 404;
    res.end('{}');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }),
    ),
  );
}

describe('HTTP geocoding provider', () => {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  beforeAll(async () => {
    provider = await startProvider();
  });
  afterAll(() => new Promise<void>((resolve) => provider.server.close(() => resolve())));

  const amap = () => ({ provider: 'amap' as const, url: provider.url, key: 'test-key', timeoutMs: 2000 });

  it("answers AMap's point for an address, exact at a door number and approximate at a district", async () => {
    expect(await geocode(amap(), { address: '科苑路15号' })).toMatchObject({
      latitude: 22.54,
      longitude: 113.943,
      approximate: false,
      precision: 'exact',
      districtCode: '440305',
      regionName: '广东省 深圳市 南山区',
      source: 'amap',
    });
    expect(await geocode(amap(), { address: '南山区' })).toMatchObject({ approximate: true, precision: 'district' });
    const last = provider.requests.at(-1);
    expect(last?.searchParams.get('key')).toBe('test-key');
    expect(last?.searchParams.get('output')).toBe('JSON');
  });

  it('falls back to the region data set when the provider fails, refuses or finds nothing', async () => {
    const warnings: string[] = [];
    const log = { warn: (_o: object, msg: string) => warnings.push(msg) };
    expect(await geocode(amap(), { address: '深圳市南山区 broken' }, log)).toMatchObject({
      source: 'offline',
      precision: 'city',
    });
    expect(warnings).toHaveLength(1);
    expect(await geocode({ ...amap(), key: 'wrong' }, { address: '深圳市南山区' }, log)).toMatchObject({
      source: 'offline',
    });
    expect(await geocode(amap(), { address: '深圳市 nowhere' })).toMatchObject({ source: 'offline' });
    expect(await geocode(amap(), { address: 'nowhere at all' })).toBeNull();
  });

  it('times out a provider that does not answer', async () => {
    // The provider never answers: the call must give up by itself (it aborts the request,
    // which the provider sees as its connection closing) and fall back to the offline data.
    let abandoned = false;
    const silent = createServer((req) => req.socket.on('close', () => (abandoned = true)));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const point = await geocode({ provider: 'amap', url, key: 'k', timeoutMs: 200 }, { address: '深圳市南山区' });
    expect(point?.source).toBe('offline');
    await vi.waitFor(() => expect(abandoned).toBe(true));
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('speaks Nominatim too', async () => {
    const point = await geocode(
      { provider: 'nominatim', url: provider.url, key: '', timeoutMs: 2000 },
      { address: '深圳市南山区科苑路15号' },
    );
    expect(point).toMatchObject({ latitude: 22.54, longitude: 113.94, approximate: false, source: 'nominatim' });
    expect(point?.districtCode).toBe('440305');
  });

  it('is chosen by configuration (GEOCODER, GEOCODER_URL, GEOCODER_KEY)', () => {
    expect(loadConfig({}).geocoder).toMatchObject({ provider: 'none', url: '' });
    expect(loadConfig({ GEOCODER: 'amap', GEOCODER_KEY: 'k' }).geocoder).toMatchObject({
      provider: 'amap',
      url: 'https://restapi.amap.com',
      timeoutMs: 5000,
    });
    expect(() => loadConfig({ GEOCODER: 'amap' })).toThrow(/GEOCODER_KEY/);
    expect(() => loadConfig({ GEOCODER: 'google' })).toThrow(/GEOCODER/);
    expect(() => loadConfig({ GEOCODER: 'nominatim', GEOCODER_URL: 'ftp://x' })).toThrow(/GEOCODER_URL/);
  });

  it.each(BACKENDS)(
    'geocodes store addresses through the configured provider on %s',
    async (backend) => {
      const t = await createTestApp(backend, { config: { geocoder: amap() } });
      try {
        const { client } = await t.tenant();
        const res = await client.call(endpoints.storeAdd, { name: 'Door-number store', address: '科苑路15号' });
        expect(res.envelope).toMatchObject({ code: 0, payload: { approximate: false, precision: 'exact' } });
        const [row] = await t.db.select().from(stores).where(eq(stores.id, res.envelope.payload.id));
        expect(row).toMatchObject({
          latitude: 22.54,
          longitude: 113.943,
          coordApproximate: false,
          districtCode: '440305',
        });
      } finally {
        await t.close();
      }
    },
    180_000,
  ); // a fresh app of its own (the provider in its config): slow to build on a busy machine
});

describe.each(BACKENDS)('geography endpoints on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it("says 'address has no latitude and longitude' in the caller's language", async () => {
    const { client } = await t.tenant();
    const other = await t.tenant();
    const id = await insertGeoDevice(t, { ent: other.ent, user: other.admin });
    const messages: Record<string, string> = {};
    for (const language of ['zh-CN', 'en-US', 'ja']) {
      const res = await client.call(endpoints.geoGeocode, { address: 'Main street 1' }, { language });
      expect(res.envelope.code).toBe(ErrorCode.GEO_NO_COORDINATES);
      messages[language] = res.envelope.message;
    }
    expect(messages['zh-CN']).toMatch(/该地址没有经纬度/);
    expect(messages['en-US']).toMatch(/address has no latitude and longitude/);
    expect(messages.ja).toMatch(/緯度・経度がありません/);
    // Another enterprise's device is not found, whatever the address.
    const foreign = await client.call(endpoints.deviceSetLocation, { id, address: SHENZHEN_ADDRESS });
    expect(foreign.envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('stores a device location: geocoded (approximate) or picked by the user (exact)', async () => {
    const { ent, admin, client } = await t.tenant();
    const id = await insertGeoDevice(t, { ent, user: admin });
    const geocoded = await client.call(endpoints.deviceSetLocation, { id, address: SHENZHEN_ADDRESS, poi: 'Tower A' });
    expect(geocoded.envelope.payload).toMatchObject({ approximate: true, precision: 'city', latitude: 22.547 });
    expect((await client.call(endpoints.deviceLocation, { id })).envelope.payload).toMatchObject({
      address: SHENZHEN_ADDRESS,
      poi: 'Tower A',
      approximate: true,
      districtCode: '440305',
      regionName: '广东省 深圳市 南山区',
    });
    const picked = await client.call(endpoints.deviceSetLocation, {
      id,
      address: 'Building 3, Science Park',
      regionCode: '440305',
      latitude: 22.5401,
      longitude: 113.9345,
    });
    expect(picked.envelope.payload).toMatchObject({
      approximate: false,
      precision: 'exact',
      regionName: '广东省 深圳市 南山区',
    });
    const [row] = await t.db.select().from(devices).where(eq(devices.id, id));
    expect(row).toMatchObject({
      latitude: 22.5401,
      longitude: 113.9345,
      coordApproximate: false,
      districtCode: '440305',
    });
    // An address without any region and no point: the spec's message, nothing written.
    const none = await client.call(endpoints.deviceSetLocation, { id, address: 'Main street 1' });
    expect(none.envelope.code).toBe(ErrorCode.GEO_NO_COORDINATES);
    // One coordinate without the other is refused.
    const half = await client.call(endpoints.deviceSetLocation, { id, address: 'x', latitude: 10 });
    expect(half.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    // An unknown region code is NOT_FOUND, not a server error.
    const unknown = await client.call(endpoints.deviceSetLocation, { id, address: 'x', regionCode: '999999' });
    expect(unknown.envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('manages stores: add, filter, update, refuse a duplicate name, delete', async () => {
    const { ent, client } = await t.tenant();
    const add = await client.call(endpoints.storeAdd, {
      name: 'Nanshan flagship',
      address: SHENZHEN_ADDRESS,
      poi: 'Science Park',
      contactName: 'Li Lei',
      contactPhone: '13800000000',
    });
    expect(add.envelope.payload).toMatchObject({ approximate: true, regionName: '广东省 深圳市 南山区' });
    const storeId = add.envelope.payload.id;
    await client.call(endpoints.storeAdd, { name: 'Chaoyang', address: '北京市朝阳区建国路88号', deptId: ent.depts.b });
    const list = async (filter: Record<string, unknown>) =>
      (await client.call(endpoints.storeList, filter)).envelope.payload.data.map((s) => s.name).sort();
    expect(await list({})).toEqual(['Chaoyang', 'Nanshan flagship']);
    expect(await list({ keyword: 'science' })).toEqual(['Nanshan flagship']);
    expect(await list({ keyword: 'Li Lei' })).toEqual(['Nanshan flagship']);
    expect(await list({ regionCode: '440000' })).toEqual(['Nanshan flagship']);
    expect(await list({ regionCode: '110105' })).toEqual(['Chaoyang']);
    expect(await list({ deptId: ent.depts.b })).toEqual(['Chaoyang']);
    expect(await list({ deptId: ent.depts.a })).toEqual([]);
    expect(await list({ sort: 'name', order: 'desc' })).toEqual(['Chaoyang', 'Nanshan flagship']);
    const rows = (await client.call(endpoints.storeList, {})).envelope.payload.data;
    expect(rows.find((s) => s.id === storeId)).toMatchObject({
      approximate: true,
      contactName: 'Li Lei',
      deptName: 'Root',
      regionName: '广东省 深圳市 南山区',
    });

    const dup = await client.call(
      endpoints.storeAdd,
      { name: 'chaoyang', address: '北京市朝阳区' },
      { language: 'ja' },
    );
    expect(dup.envelope).toMatchObject({ code: ErrorCode.CONFLICT, message: '同じ名前の店舗が既にあります' });
    const noPoint = await client.call(endpoints.storeAdd, { name: 'Lost', address: 'Main street 1' });
    expect(noPoint.envelope.code).toBe(ErrorCode.GEO_NO_COORDINATES);

    const update = await client.call(endpoints.storeUpdate, {
      id: storeId,
      name: 'Nanshan flagship',
      address: 'Keyuan Road 15',
      regionCode: '440305',
      latitude: 22.54,
      longitude: 113.94,
    });
    expect(update.envelope.payload).toMatchObject({ approximate: false, regionName: '广东省 深圳市 南山区' });
    expect((await client.call(endpoints.storeDelete, { id: storeId })).envelope.code).toBe(0);
    expect(await list({})).toEqual(['Chaoyang']);
    expect((await client.call(endpoints.storeDelete, { id: storeId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('places each device in one store with its location, and refuses to delete a store with devices', async () => {
    const { ent, admin, client } = await t.tenant();
    const c = { ent, user: admin };
    const a = await insertStore(t, c, { name: 'A' });
    const b = await insertStore(t, c, {
      name: 'B',
      address: '北京市朝阳区建国路88号',
      provinceCode: '110000',
      cityCode: '110100',
      districtCode: '110105',
      latitude: 39.92,
      longitude: 116.48,
    });
    const d1 = await insertGeoDevice(t, c, { name: 'Screen 1' });
    const d2 = await insertGeoDevice(t, c, { name: 'Screen 2' });
    expect(
      (await client.call(endpoints.storeAssignDevices, { storeId: a, deviceIds: [d1, d2] })).envelope.payload,
    ).toEqual({
      moved: 2,
    });
    expect((await client.call(endpoints.storeAssignDevices, { storeId: b, deviceIds: [d2] })).envelope.code).toBe(0);
    const rows = await t.db.select().from(devices).where(eq(devices.entId, ent.id));
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName['Screen 1']).toMatchObject({ storeId: a, districtCode: '440305', address: SHENZHEN_ADDRESS });
    expect(byName['Screen 2']).toMatchObject({ storeId: b, districtCode: '110105', latitude: 39.92 });
    const counts = (await client.call(endpoints.storeList, {})).envelope.payload.data.map((s) => [
      s.name,
      s.deviceCount,
    ]);
    expect(counts.sort()).toEqual([
      ['A', 1],
      ['B', 1],
    ]);
    expect((await client.call(endpoints.deviceLocation, { id: d1 })).envelope.payload).toMatchObject({
      storeId: a,
      storeName: 'A',
    });

    for (const [language, text] of [
      ['zh-CN', '该门店中仍有 1 台设备'],
      ['en-US', 'This store still has 1 device(s)'],
      ['ja', 'この店舗にはまだ 1 台のデバイスがあります'],
    ]) {
      const refused = await client.call(endpoints.storeDelete, { id: a }, { language });
      expect(refused.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(refused.envelope.message).toContain(text);
    }
    // Editing the store's address moves its devices with it.
    await client.call(endpoints.storeUpdate, { id: a, name: 'A', address: '杭州市西湖区' });
    const [moved] = await t.db.select().from(devices).where(eq(devices.id, d1));
    expect(moved).toMatchObject({ districtCode: '330106', address: '杭州市西湖区', coordApproximate: true });

    expect((await client.call(endpoints.storeAssignDevices, { storeId: null, deviceIds: [d1] })).envelope.code).toBe(0);
    expect((await client.call(endpoints.storeDelete, { id: a })).envelope.code).toBe(0);
    // A device of another enterprise cannot be placed; nothing is written.
    const other = await t.tenant();
    const foreign = await insertGeoDevice(t, { ent: other.ent, user: other.admin });
    const refused = await client.call(endpoints.storeAssignDevices, { storeId: b, deviceIds: [d1, foreign] });
    expect(refused.envelope.code).toBe(ErrorCode.NOT_FOUND);
    const [untouched] = await t.db.select().from(devices).where(eq(devices.id, d1));
    expect(untouched.storeId).toBeNull();
  });

  it("keeps stores within the caller's department scope", async () => {
    const { ent, admin, client } = await t.tenant();
    await insertStore(t, { ent, user: admin }, { name: 'In B', deptId: ent.depts.b });
    const inA = await insertStore(t, { ent, user: admin }, { name: 'In A1', deptId: ent.depts.a1 });
    const staff = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_and_below' });
    const staffClient = await t.loginAs(staff);
    const seen = (await staffClient.call(endpoints.storeList, {})).envelope.payload.data.map((s) => s.name);
    expect(seen).toEqual(['In A1']);
    expect((await client.call(endpoints.storeList, {})).envelope.payload.total).toBe(2);
    const hidden = await insertStore(t, { ent, user: admin }, { name: 'Other B', deptId: ent.depts.b });
    expect((await staffClient.call(endpoints.storeDelete, { id: hidden })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    // A store in a department outside the caller's scope cannot be created.
    const outside = await staffClient.call(endpoints.storeAdd, {
      name: 'Sneaky',
      address: SHENZHEN_ADDRESS,
      deptId: ent.depts.b,
    });
    expect(outside.envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await staffClient.call(endpoints.storeDelete, { id: inA })).envelope.code).toBe(0);
    // Listing needs the page's code; managing needs the store code.
    const viewer = await createUser(t.db, ent, { permissions: [Perm.userCompany] });
    const viewerClient = await t.loginAs(viewer);
    expect((await viewerClient.call(endpoints.storeList, {})).envelope.code).toBe(0);
    expect((await viewerClient.call(endpoints.storeAdd, { name: 'No', address: SHENZHEN_ADDRESS })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
  });

  it('counts devices and their online share per region, with drill-down', async () => {
    const { ent, admin, client } = await t.tenant();
    const c = { ent, user: admin };
    const now = new Date(t.clock.now());
    const fresh = { status: 'online' as const, lastSeenAt: now, statusAt: now };
    const stale = {
      status: 'online' as const,
      lastSeenAt: new Date(now.getTime() - 3_600_000),
      statusAt: new Date(now.getTime() - 3_600_000),
    };
    const nanshan = { provinceCode: '440000', cityCode: '440300', districtCode: '440305' };
    const futian = { provinceCode: '440000', cityCode: '440300', districtCode: '440304' };
    const guangzhou = { provinceCode: '440000', cityCode: '440100', districtCode: '440106' };
    const chaoyang = { provinceCode: '110000', cityCode: '110100', districtCode: '110105' };
    await insertGeoDevice(t, c, { ...nanshan, ...fresh });
    await insertGeoDevice(t, c, { ...nanshan, ...stale });
    await insertGeoDevice(t, c, { ...futian, ...fresh });
    await insertGeoDevice(t, c, { ...guangzhou });
    await insertGeoDevice(t, c, { ...chaoyang, ...fresh });
    await insertGeoDevice(t, c, {});
    // Another enterprise's devices never count.
    const other = await t.tenant();
    await insertGeoDevice(t, { ent: other.ent, user: other.admin }, { ...nanshan, ...fresh });

    const top = (await client.call(endpoints.deviceRegionStats, {})).envelope.payload;
    expect(top).toMatchObject({ level: 'province', path: [], total: 6, online: 3, unlocated: 1 });
    expect(top.regions).toEqual([
      { code: '440000', name: '广东省', devices: 4, online: 2, onlineShare: 0.5 },
      { code: '110000', name: '北京市', devices: 1, online: 1, onlineShare: 1 },
    ]);
    const gd = (await client.call(endpoints.deviceRegionStats, { parentCode: '440000' })).envelope.payload;
    expect(gd).toMatchObject({ level: 'city', path: [{ code: '440000', name: '广东省' }], total: 4, online: 2 });
    expect(gd.regions.map((r) => [r.name, r.devices, r.online])).toEqual([
      ['深圳市', 3, 2],
      ['广州市', 1, 0],
    ]);
    const sz = (await client.call(endpoints.deviceRegionStats, { parentCode: '440300' })).envelope.payload;
    expect(sz.level).toBe('district');
    expect(sz.path.map((p) => p.name)).toEqual(['广东省', '深圳市']);
    expect(sz.regions.map((r) => [r.name, r.devices, r.online])).toEqual([
      ['南山区', 2, 1],
      ['福田区', 1, 1],
    ]);
    const district = (await client.call(endpoints.deviceRegionStats, { parentCode: '440305' })).envelope.payload;
    expect(district).toMatchObject({ level: 'district', total: 2, regions: [{ code: '440305', devices: 2 }] });
    expect((await client.call(endpoints.deviceRegionStats, { parentCode: '999999' })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );

    // By store; and a staff member of department A sees only A's devices.
    const store = await insertStore(t, c, { name: 'Map store' });
    const inStore = await insertGeoDevice(t, c, { ...fresh });
    await client.call(endpoints.storeAssignDevices, { storeId: store, deviceIds: [inStore] });
    const byStore = (await client.call(endpoints.deviceRegionStats, { storeId: store })).envelope.payload;
    expect(byStore).toMatchObject({ total: 1, online: 1, regions: [{ code: '440000', devices: 1 }] });
    await insertGeoDevice(t, c, { ...chaoyang, deptId: ent.depts.a });
    const staff = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_only' });
    const mine = (await (await t.loginAs(staff)).call(endpoints.deviceRegionStats, {})).envelope.payload;
    expect(mine).toMatchObject({ total: 1, regions: [{ code: '110000', devices: 1, online: 0 }] });
  });

  it('lists regions for pickers', async () => {
    const { client } = await t.tenant();
    const provinces = (await client.call(endpoints.regionChildren, {})).envelope.payload;
    expect(provinces).toHaveLength(34);
    expect(provinces[0]).toEqual({ code: '110000', name: '北京市', level: 'province', hasChildren: true });
    expect((await client.call(endpoints.regionChildren, { parentCode: '123456' })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });
});
