import { randomUUID } from 'node:crypto';
import { DEVICE_STATUSES, ErrorCode, endpoints, RefType } from '@marquee/protocol';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allocations,
  departments,
  deviceDeptCounts,
  devicePresence,
  deviceStatusHistory,
  devices,
  deviceTags,
  marketItems,
  marketProducts,
  operationLogs,
  tagCategories,
  tags,
} from '../../src/db/schema/index.js';
import {
  devicePageQueries,
  deviceScopeCounts,
  markMissedOffline,
  mergedPageQueries,
  mergedPageValues,
  plannedMergedPage,
} from '../../src/modules/devices/repository.js';
import type { CallContext } from '../../src/protocol/handlers.js';
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
 * The device registry's console calls (issue 9 section 2): list filters and sorting,
 * detail, update, delete, disable/enable and the status history; the offline job's rule.
 * Broker revocation is tested with real players in suite.ts (embedded broker and Mosquitto).
 */
describe.each(BACKENDS)('device registry on %s', (backend) => {
  let t: TestApp;
  let ent: TestEnterprise;
  let client: ApiClient;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    const tenant = await t.tenant();
    ent = tenant.ent;
    client = tenant.client;
    adminId = tenant.admin.id;
  });
  afterAll(() => t.close());

  const insertDevice = async (values: Partial<typeof devices.$inferInsert> = {}) => {
    const [row] = await t.db
      .insert(devices)
      .values({ entId: ent.id, deptId: ent.depts.a, ownerId: adminId, name: uniqueName('Screen'), ...values })
      .returning();
    return row;
  };
  /** A page and its total through the statements plannedMergedPage keeps, as listDevices runs them. */
  const viaKept = async (
    user: Parameters<typeof plannedMergedPage>[1],
    input: Parameters<typeof plannedMergedPage>[2],
    counts: Parameters<typeof plannedMergedPage>[3],
    at: Date,
  ) => {
    const kept = plannedMergedPage(t.db, user, input, counts);
    if (!kept) throw new Error('the merged plan applies');
    const values = mergedPageValues(at, input);
    const [rows, [total]] = await Promise.all([kept.rows.execute(values), kept.total.execute(values)]);
    return { ids: rows.map((r) => r.device.id), total: total.total };
  };
  const listIds = async (request: Record<string, unknown>) => {
    const answer = await client.call(endpoints.deviceList, { size: 500, ...request });
    expect(answer.envelope.code).toBe(0);
    return answer.envelope.payload.data.map((d) => d.id);
  };

  it('filters the list by status, keyword, department subtree, type, expiry and player version', async () => {
    const tag = uniqueName('f');
    const now = new Date(t.clock.now());
    const lcd = await insertDevice({
      name: `${tag} lobby`,
      type: 'lcd',
      deptId: ent.depts.a1,
      ip: '10.9.8.7',
      playerVersion: '3.2.1',
      expireAt: new Date(now.getTime() + 86400_000),
      status: 'online',
      lastSeenAt: now,
      statusAt: now,
    });
    const led = await insertDevice({
      name: `${tag} gate`,
      type: 'led',
      deptId: ent.depts.b,
      mac: 'AA:BB:CC:00:11:22',
      playerVersion: '3.3.0',
      expireAt: new Date(now.getTime() + 30 * 86400_000),
      status: 'invalid',
    });
    expect(await listIds({ keyword: tag })).toEqual(expect.arrayContaining([lcd.id, led.id]));
    expect(await listIds({ keyword: '10.9.8' })).toEqual([lcd.id]);
    expect(await listIds({ keyword: 'aa:bb:cc:00' })).toEqual([led.id]);
    // A keyword with LIKE's wildcards matches them literally.
    expect(await listIds({ keyword: `${tag}%` })).toEqual([]);
    expect(await listIds({ keyword: tag, status: 'online' })).toEqual([lcd.id]);
    expect(await listIds({ keyword: tag, status: 'invalid' })).toEqual([led.id]);
    // Department A holds A1 below it.
    expect(await listIds({ keyword: tag, deptId: ent.depts.a })).toEqual([lcd.id]);
    expect(await listIds({ keyword: tag, deptId: ent.depts.b })).toEqual([led.id]);
    expect(await listIds({ keyword: tag, deptId: 'no-such-dept' })).toEqual([]);
    expect(await listIds({ keyword: tag, type: 'led' })).toEqual([led.id]);
    expect(await listIds({ keyword: tag, playerVersion: '3.2.1' })).toEqual([lcd.id]);
    const inAWeek = new Date(now.getTime() + 7 * 86400_000).toISOString();
    expect(await listIds({ keyword: tag, expireBefore: inAWeek })).toEqual([lcd.id]);
    for (const bad of [{ type: 'crt' }, { expireBefore: 'tomorrow' }, { sort: 'secretHash' }, { status: 'gone' }]) {
      expect((await client.call(endpoints.deviceList, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    }
  });

  it("presents each device's licence and filters the list by it (issue 27)", async () => {
    const tag = uniqueName('lic');
    const now = t.clock.now();
    const trial = await insertDevice({ name: `${tag} trial`, expireAt: new Date(now + 10 * 86400_000) });
    const unlimited = await insertDevice({ name: `${tag} unlimited` });
    const licensed = await insertDevice({ name: `${tag} licensed`, expireAt: new Date(now + 200 * 86400_000) });
    const expired = await insertDevice({ name: `${tag} expired`, expireAt: new Date(now - 1000) });
    const lapsed = await insertDevice({ name: `${tag} lapsed`, expireAt: new Date(now) });
    // Points bought for `licensed` and, before they ran out, for `lapsed` (the market's rows, written here directly).
    const [product] = await t.db
      .insert(marketProducts)
      .values({ kind: 'devicePoints', name: uniqueName('Points'), prices: [{ months: 12, price: 36_000 }] })
      .returning();
    for (const d of [licensed, lapsed]) {
      await t.db.insert(marketItems).values({
        entId: ent.id,
        kind: 'devicePoints',
        subjectId: d.id,
        productId: product.id,
        months: 12,
        startsAt: new Date(now - 86400_000),
        expiresAt: d.expireAt as Date,
      });
    }
    const answer = await client.call(endpoints.deviceList, { size: 500, keyword: tag, sort: 'name', order: 'asc' });
    expect(answer.envelope.code).toBe(0);
    const licences = Object.fromEntries(answer.envelope.payload.data.map((d) => [d.id, [d.licence, d.expireAt]]));
    expect(licences).toEqual({
      [trial.id]: ['trial', trial.expireAt?.toISOString()],
      [unlimited.id]: ['trial', null],
      [licensed.id]: ['licensed', licensed.expireAt?.toISOString()],
      [expired.id]: ['expired', expired.expireAt?.toISOString()],
      // An expiry at `now` has passed; bought points do not outlive it.
      [lapsed.id]: ['expired', lapsed.expireAt?.toISOString()],
    });
    expect((await client.call(endpoints.deviceDetail, { id: licensed.id })).envelope.payload.licence).toBe('licensed');
    expect((await client.call(endpoints.deviceDetail, { id: expired.id })).envelope.payload.licence).toBe('expired');
    const sorted = (ids: string[]) => [...ids].sort();
    expect(sorted(await listIds({ keyword: tag, licence: 'trial' }))).toEqual(sorted([trial.id, unlimited.id]));
    expect(await listIds({ keyword: tag, licence: 'licensed' })).toEqual([licensed.id]);
    expect(sorted(await listIds({ keyword: tag, licence: 'expired' }))).toEqual(sorted([expired.id, lapsed.id]));
    // Beside expireBefore: the expiring within a fortnight that have not expired.
    const fortnight = new Date(now + 14 * 86400_000).toISOString();
    expect(await listIds({ keyword: tag, licence: 'trial', expireBefore: fortnight })).toEqual([trial.id]);
    // Without a keyword too (no merged plan for a licence filter: the same rows as the walk).
    expect(await listIds({ licence: 'licensed' })).toEqual([licensed.id]);
    expect((await client.call(endpoints.deviceList, { licence: 'lapsed' })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
  });

  it('sorts by a sortable column in both directions, empty values last', async () => {
    const tag = uniqueName('s');
    const small = await insertDevice({ name: `${tag} b`, screenSize: 32 });
    const large = await insertDevice({ name: `${tag} a`, screenSize: 65.5 });
    const none = await insertDevice({ name: `${tag} c` });
    expect(await listIds({ keyword: tag, sort: 'screenSize', order: 'asc' })).toEqual([small.id, large.id, none.id]);
    expect(await listIds({ keyword: tag, sort: 'screenSize', order: 'desc' })).toEqual([large.id, small.id, none.id]);
    expect(await listIds({ keyword: tag, sort: 'name' })).toEqual([large.id, small.id, none.id]);
    // Without a sort: newest first.
    expect(await listIds({ keyword: tag })).toEqual([none.id, large.id, small.id]);
  });

  it('answers a device in full, updates its fields and logs it', async () => {
    const device = await insertDevice({ model: 'RK3568', firmware: 'A11', screenOn: 1, playerVersion: '3.2.1' });
    const detail = await client.call(endpoints.deviceDetail, { id: device.id });
    expect(detail.envelope.code).toBe(0);
    expect(detail.envelope.payload).toMatchObject({
      id: device.id,
      name: device.name,
      deptName: 'Dept A',
      status: 'activating',
      model: 'RK3568',
      firmware: 'A11',
      screenOn: true,
      heartbeatSec: 30,
      screenCount: 1,
      type: null,
      remark: '',
      canManage: true,
    });
    expect(detail.envelope.payload.ownerName).toBeTruthy();

    const updated = await client.call(endpoints.deviceUpdate, {
      id: device.id,
      name: 'Hall screen',
      deptId: ent.depts.b,
      type: 'touch',
      screenSize: 55.5,
      screenCount: 2,
      installedAt: '2026-01-02T03:04:05.000Z',
      remark: 'by the stairs',
    });
    expect(updated.envelope.code).toBe(0);
    const after = (await client.call(endpoints.deviceDetail, { id: device.id })).envelope.payload;
    expect(after).toMatchObject({
      name: 'Hall screen',
      deptId: ent.depts.b,
      deptName: 'Dept B',
      type: 'touch',
      screenSize: 55.5,
      screenCount: 2,
      installedAt: '2026-01-02T03:04:05.000Z',
      remark: 'by the stairs',
    });
    // null clears an optional field; fields left out stay.
    await client.call(endpoints.deviceUpdate, { id: device.id, name: 'Hall screen', installedAt: null, type: null });
    const cleared = (await client.call(endpoints.deviceDetail, { id: device.id })).envelope.payload;
    expect(cleared).toMatchObject({ installedAt: null, type: null, screenSize: 55.5, remark: 'by the stairs' });
    // The service expiry is the market's (issue 27): nobody sets or clears it by an update.
    const expireAt = new Date(t.clock.now() + 5 * 86400_000);
    await t.db.update(devices).set({ expireAt }).where(eq(devices.id, device.id));
    for (const value of ['2030-01-02T00:00:00.000Z', null]) {
      const refused = await client.call(endpoints.deviceUpdate, {
        id: device.id,
        name: 'Hall screen',
        expireAt: value,
      });
      expect(refused.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    }
    const [kept] = await t.db.select({ expireAt: devices.expireAt }).from(devices).where(eq(devices.id, device.id));
    expect(kept.expireAt?.getTime()).toBe(expireAt.getTime());

    const [log] = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.targetId, device.id), eq(operationLogs.action, 'update')));
    expect(log).toMatchObject({ module: 'device', targetName: 'Hall screen' });

    for (const bad of [
      { id: device.id, name: '' },
      { id: device.id, name: 'x', screenSize: 0 },
      { id: device.id, name: 'x', screenSize: 55.55 },
      { id: device.id, name: 'x', screenCount: 0 },
      { id: device.id, name: 'x', type: 'crt' },
      { id: device.id, name: 'x', installedAt: 'yesterday' },
      { id: device.id, name: 'x', remark: 'r'.repeat(201) },
    ]) {
      expect((await client.call(endpoints.deviceUpdate, bad)).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    }
    // Another tenant's department, an unknown device.
    const other = await t.tenant();
    const foreignDept = await client.call(endpoints.deviceUpdate, {
      id: device.id,
      name: 'x',
      deptId: other.ent.depts.a,
    });
    expect(foreignDept.envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await other.client.call(endpoints.deviceDetail, { id: device.id })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect((await other.client.call(endpoints.deviceUpdate, { id: device.id, name: 'stolen' })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });

  it('lets a caller the device is only shared with see it but not edit, disable or delete it', async () => {
    const device = await insertDevice({ deptId: ent.depts.b });
    const staff = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_and_below' });
    await t.db.insert(allocations).values({
      entId: ent.id,
      refType: RefType.device,
      refId: device.id,
      targetType: 2,
      targetId: staff.id,
      deptDataType: 2,
    });
    const staffClient = await t.loginAs(staff);
    const row = (await staffClient.call(endpoints.deviceList, { size: 500 })).envelope.payload.data.find(
      (d) => d.id === device.id,
    );
    expect(row?.canManage).toBe(false);
    expect((await staffClient.call(endpoints.deviceDetail, { id: device.id })).envelope.code).toBe(0);
    for (const [def, body] of [
      [endpoints.deviceUpdate, { id: device.id, name: 'x' }],
      [endpoints.deviceDisable, { ids: [device.id] }],
      [endpoints.deviceDelete, { ids: [device.id] }],
    ] as const) {
      expect((await staffClient.call(def, body)).envelope.code).toBe(ErrorCode.NOT_FOUND);
    }
    // A device of the staff's own department is theirs to manage.
    const own = await insertDevice({ deptId: ent.depts.a1 });
    const ownRow = (await staffClient.call(endpoints.deviceList, { size: 500 })).envelope.payload.data.find(
      (d) => d.id === own.id,
    );
    expect(ownRow?.canManage).toBe(true);
    expect((await staffClient.call(endpoints.deviceUpdate, { id: own.id, name: 'Mine' })).envelope.code).toBe(0);
  });

  it('disables and enables devices with history rows; a history page is newest first', async () => {
    const session = t.clock.now() - 60_000;
    const activated = await insertDevice({
      status: 'online',
      activatedAt: new Date(),
      lastSeenAt: new Date(),
      stateTs: session,
    });
    const fresh = await insertDevice();
    const disabled = await client.call(endpoints.deviceDisable, { ids: [activated.id, fresh.id] });
    expect(disabled.envelope.payload).toEqual({ changed: 2 });
    // Disabling again changes nothing.
    expect((await client.call(endpoints.deviceDisable, { ids: [fresh.id] })).envelope.payload).toEqual({ changed: 0 });
    expect((await client.call(endpoints.deviceDetail, { id: fresh.id })).envelope.payload.status).toBe('invalid');
    t.clock.advance(1000);
    const enabled = await client.call(endpoints.deviceEnable, { ids: [activated.id, fresh.id] });
    expect(enabled.envelope.payload).toEqual({ changed: 2 });
    // Offline until it connects; one that never collected its credentials is activating again.
    expect((await client.call(endpoints.deviceDetail, { id: activated.id })).envelope.payload.status).toBe('offline');
    expect((await client.call(endpoints.deviceDetail, { id: fresh.id })).envelope.payload.status).toBe('activating');
    // A heartbeat or online state of the connection the disable cut, handled only now (it
    // waited in a batch), is not a new connection: the device stays offline. Its next
    // connection brings it online.
    const gateway = t.services.devices as unknown as {
      onState(id: string, json: unknown): Promise<void>;
      heartbeatOneByOne(id: string, session: number, values: { lastSeenAt: Date }): Promise<void>;
    };
    await gateway.heartbeatOneByOne(activated.id, session, { lastSeenAt: new Date(t.clock.now()) });
    await gateway.onState(activated.id, { v: 1, online: true, ts: session });
    expect((await client.call(endpoints.deviceDetail, { id: activated.id })).envelope.payload.status).toBe('offline');
    t.clock.advance(1000);
    await gateway.onState(activated.id, { v: 1, online: true, ts: session + 5_000 });
    expect((await client.call(endpoints.deviceDetail, { id: activated.id })).envelope.payload.status).toBe('online');

    t.clock.advance(1000);
    await client.call(endpoints.deviceDisable, { ids: [activated.id] });
    const history = await client.call(endpoints.deviceStatusHistory, { deviceId: activated.id, size: 10 });
    expect(history.envelope.payload.total).toBe(4);
    expect(history.envelope.payload.data.map((h) => [h.status, h.reason])).toEqual([
      ['invalid', 'disabled'],
      ['online', 'connect'],
      ['offline', 'enabled'],
      ['invalid', 'disabled'],
    ]);
    const second = await client.call(endpoints.deviceStatusHistory, { deviceId: activated.id, page: 2, size: 10 });
    expect(second.envelope.payload).toEqual({ total: 4, data: [] });
    const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.targetId, fresh.id));
    expect(logs.map((l) => l.action).sort()).toEqual(['disable']);
    expect((await client.call(endpoints.deviceStatusHistory, { deviceId: 'nope' })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });

  it('deletes devices with their history and shares, all or nothing', async () => {
    const a = await insertDevice();
    const b = await insertDevice();
    await t.db.insert(deviceStatusHistory).values({ entId: ent.id, deviceId: a.id, status: 'activating' });
    await t.db.insert(allocations).values({
      entId: ent.id,
      refType: RefType.device,
      refId: a.id,
      targetType: 1,
      targetId: ent.depts.b,
      deptDataType: 2,
    });
    // One unknown id: nothing is deleted.
    const partial = await client.call(endpoints.deviceDelete, { ids: [a.id, 'no-such-device'] });
    expect(partial.envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect(await listIds({ keyword: a.name })).toEqual([a.id]);

    const deleted = await client.call(endpoints.deviceDelete, { ids: [a.id, b.id, a.id] });
    expect(deleted.envelope.payload).toEqual({ deleted: 2 });
    expect(await listIds({ keyword: a.name })).toEqual([]);
    expect(await t.db.select().from(deviceStatusHistory).where(eq(deviceStatusHistory.deviceId, a.id))).toEqual([]);
    expect(await t.db.select().from(allocations).where(eq(allocations.refId, a.id))).toEqual([]);
    const [log] = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.module, 'device'), eq(operationLogs.action, 'delete')));
    expect(log.targetName).toContain(a.name);
    expect((await client.call(endpoints.deviceDelete, { ids: [] })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('writes online devices that missed three heartbeats offline (the offline job), nothing else', async () => {
    const now = t.clock.now();
    const stale = await insertDevice({
      status: 'online',
      lastSeenAt: new Date(now - 91_000),
      statusAt: new Date(now - 200_000),
    });
    const live = await insertDevice({
      status: 'online',
      lastSeenAt: new Date(now - 30_000),
      statusAt: new Date(now - 200_000),
    });
    // A slower heartbeat allows longer silence.
    const slow = await insertDevice({
      status: 'online',
      heartbeatSec: 60,
      lastSeenAt: new Date(now - 120_000),
      statusAt: new Date(now - 200_000),
    });
    const disabled = await insertDevice({ status: 'invalid', lastSeenAt: new Date(now - 999_000) });
    // What the list shows before the job runs is what the job writes.
    expect((await client.call(endpoints.deviceDetail, { id: stale.id })).envelope.payload.status).toBe('offline');
    expect(await markMissedOffline(t.db, new Date(now))).toBeGreaterThanOrEqual(1);
    const statusOf = async (id: string) =>
      (await t.db.select({ status: devices.status }).from(devices).where(eq(devices.id, id)))[0].status;
    expect(await statusOf(stale.id)).toBe('offline');
    expect(await statusOf(live.id)).toBe('online');
    expect(await statusOf(slow.id)).toBe('online');
    expect(await statusOf(disabled.id)).toBe('invalid');
    const history = await client.call(endpoints.deviceStatusHistory, { deviceId: stale.id });
    expect(history.envelope.payload.data.map((h) => [h.status, h.reason])).toEqual([['offline', 'heartbeat']]);
    // Run again: nothing more.
    expect(await markMissedOffline(t.db, new Date(now))).toBe(0);
  });

  it('keeps one presence deadline per stored online device, as effectiveStatus reads it (device_presence)', async () => {
    const now = t.clock.now();
    const deadlineOf = async (id: string) =>
      (await t.db.select().from(devicePresence).where(eq(devicePresence.deviceId, id)))[0]?.deadline.getTime();
    const device = await insertDevice({
      status: 'online',
      lastSeenAt: new Date(now - 10_000),
      statusAt: new Date(now - 50_000),
    });
    // The later of last seen and the status change, plus three heartbeats.
    expect(await deadlineOf(device.id)).toBe(now - 10_000 + 3 * 30_000);
    // A heartbeat moves it; a slower heartbeat lengthens it.
    await t.db
      .update(devices)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(devices.id, device.id));
    expect(await deadlineOf(device.id)).toBe(now + 90_000);
    await t.db.update(devices).set({ heartbeatSec: 60 }).where(eq(devices.id, device.id));
    expect(await deadlineOf(device.id)).toBe(now + 180_000);
    // It carries the device's department, and follows a move (a department scope reads its own).
    const deptOf = async (id: string) =>
      (await t.db.select().from(devicePresence).where(eq(devicePresence.deviceId, id)))[0]?.deptId;
    expect(await deptOf(device.id)).toBe(ent.depts.a);
    await t.db.update(devices).set({ deptId: ent.depts.b }).where(eq(devices.id, device.id));
    expect(await deptOf(device.id)).toBe(ent.depts.b);
    await t.db.update(devices).set({ deptId: null }).where(eq(devices.id, device.id));
    expect(await deptOf(device.id)).toBeNull();
    await t.db.update(devices).set({ deptId: ent.depts.a }).where(eq(devices.id, device.id));
    expect(await deadlineOf(device.id)).toBe(now + 180_000);
    // Past its deadline the device is shown offline, and the offline job writes it so, which
    // removes the row; online again, it has one again.
    const later = now + 180_001;
    expect((await client.call(endpoints.deviceDetail, { id: device.id })).envelope.payload.status).toBe('online');
    expect(await markMissedOffline(t.db, new Date(later))).toBeGreaterThanOrEqual(1);
    expect(await deadlineOf(device.id)).toBeUndefined();
    await t.db
      .update(devices)
      .set({ status: 'online', statusAt: new Date(later) })
      .where(eq(devices.id, device.id));
    expect(await deadlineOf(device.id)).toBe(later + 180_000);
    // Disabled: no row. Never online: none either.
    await t.db.update(devices).set({ status: 'invalid' }).where(eq(devices.id, device.id));
    expect(await deadlineOf(device.id)).toBeUndefined();
    expect(await deadlineOf((await insertDevice({ status: 'activating' })).id)).toBeUndefined();
    // Deleted with its device.
    const gone = await insertDevice({ status: 'online', lastSeenAt: new Date(now), statusAt: new Date(now - 1000) });
    expect(await deadlineOf(gone.id)).toBe(now + 90_000);
    await t.db.delete(devices).where(eq(devices.id, gone.id));
    expect(await deadlineOf(gone.id)).toBeUndefined();
  });

  it("takes a connection's will as its last word, whatever order or instance handles its messages", async () => {
    // A device's messages reach the server in order on one broker connection, but two server
    // instances sharing the fleet's subscription may handle its online state and its will at
    // once, and a retained online state may come again: the gateway's presence rule, called
    // here as each instance calls it.
    const gateway = t.services.devices as unknown as { onState(id: string, json: unknown): Promise<void> };
    const state = (id: string, online: boolean, ts: number) =>
      gateway.onState(id, { v: 1, online, ts, ...(online ? {} : { reason: 'lost' }) });
    const statusOf = async (id: string) =>
      (await t.db.select({ status: devices.status }).from(devices).where(eq(devices.id, id)))[0].status;
    const session = t.clock.now() - 60_000;

    // The will handled before its own connection's online state: offline stays.
    const device = await insertDevice({ status: 'offline', stateTs: session - 1 });
    await state(device.id, false, session);
    await state(device.id, true, session);
    expect(await statusOf(device.id)).toBe('offline');
    // The next connection is online, and its will ends it.
    await state(device.id, true, session + 1);
    expect(await statusOf(device.id)).toBe('online');
    await state(device.id, false, session + 1);
    await state(device.id, true, session + 1);
    expect(await statusOf(device.id)).toBe('offline');
    const history = await t.db
      .select({ status: deviceStatusHistory.status, reason: deviceStatusHistory.reason })
      .from(deviceStatusHistory)
      .where(eq(deviceStatusHistory.deviceId, device.id));
    expect(history.map((h) => `${h.status}:${h.reason}`).sort()).toEqual(['offline:will', 'online:connect']);

    // Both at once (two instances), in either order of arrival: offline, once.
    for (let i = 0; i < 6; i++) {
      const d = await insertDevice({ status: 'offline', stateTs: session - 1 });
      const both = [() => state(d.id, true, session), () => state(d.id, false, session)];
      await Promise.all((i % 2 ? both : both.reverse()).map((handle) => handle()));
      expect(await statusOf(d.id)).toBe('offline');
    }
  });

  // PostgreSQL only: PGlite has one connection, so its transactions never wait for each other.
  /** A promise and the call that resolves it: one transaction waits for what another test step does. */
  const latch = () => {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { opened, open };
  };
  /** Resolves once n of this database's transactions wait for a lock. */
  const waitingForLocks = async (n: number) => {
    for (let i = 0; i < 200; i++) {
      const [row] = (
        (await t.db.execute(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )) as unknown as { rows: { n: number }[] }
      ).rows;
      if (row.n >= n) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`${n} transactions never waited`);
  };
  if (backend === 'postgres')
    it('moves two devices of a department between the same counter rows in opposite directions at once, without a deadlock', async () => {
      // One goes offline while the other comes online, the counter row of 'online' held by a
      // third transaction: each move takes the two rows in the same order, so the first one
      // queued finishes and then the second (crossed orders deadlocked, and one move was lost).
      const x = await insertDevice({ status: 'online', deptId: ent.depts.b });
      const y = await insertDevice({ status: 'offline', deptId: ent.depts.b });
      const held = latch();
      const lockTaken = latch();
      const holder = t.db.transaction(async (tx) => {
        await tx.execute(
          sql`select n from device_dept_counts where ent_id = ${ent.id} and dept_id = ${ent.depts.b} and status = 'online' for update`,
        );
        lockTaken.open();
        await held.opened;
      });
      await lockTaken.opened;
      const move = (id: string, status: 'online' | 'offline') =>
        t.db.update(devices).set({ status }).where(eq(devices.id, id)).execute();
      let goingOffline: Promise<unknown> = Promise.resolve();
      let comingOnline: Promise<unknown> = Promise.resolve();
      try {
        goingOffline = move(x.id, 'offline');
        await waitingForLocks(1);
        comingOnline = move(y.id, 'online');
        await waitingForLocks(2);
      } finally {
        held.open();
        await holder;
      }
      const moves = await Promise.allSettled([goingOffline, comingOnline]);
      expect(moves.map((m) => (m.status === 'rejected' ? String(m.reason) : m.status))).toEqual([
        'fulfilled',
        'fulfilled',
      ]);
      const statusOf = async (id: string) =>
        (await t.db.select({ status: devices.status }).from(devices).where(eq(devices.id, id)))[0].status;
      expect([await statusOf(x.id), await statusOf(y.id)]).toEqual(['offline', 'online']);
    });

  if (backend === 'postgres')
    it('writes silent devices offline while a will takes one of them offline, without a deadlock (the offline job)', async () => {
      // The job locks the first silent device's row and waits for the second, whose row a
      // will's transaction holds; the will then moves the department's counter rows. The job
      // holds none of them yet: the counter triggers run after its statement has every row
      // (AFTER ROW), so the will ends, and the job writes only the device still silent. Were the
      // job to write device by device in one transaction, each would wait for the other.
      const now = t.clock.now();
      const [first, second] = [randomUUID(), randomUUID()].sort();
      const silent = (id: string, ago: number) =>
        insertDevice({
          id,
          status: 'online',
          deptId: ent.depts.b,
          lastSeenAt: new Date(now - ago),
          statusAt: new Date(now - ago),
        });
      await silent(first, 400_000);
      await silent(second, 300_000);
      const held = latch();
      const lockTaken = latch();
      const will = t.db.transaction(async (tx) => {
        await tx.execute(sql`select id from devices where id = ${second} for update`);
        lockTaken.open();
        await held.opened;
        await tx.execute(sql`update devices set status = 'offline', status_at = ${new Date(now)} where id = ${second}`);
      });
      await lockTaken.opened;
      let job: Promise<number> = Promise.resolve(0);
      try {
        job = markMissedOffline(t.db, new Date(now));
        await waitingForLocks(1);
      } finally {
        held.open();
      }
      const ends = await Promise.allSettled([job, will]);
      expect(ends.map((e) => (e.status === 'rejected' ? String(e.reason) : e.value))).toEqual([1, undefined]);
      const statuses = await t.db
        .select({ id: devices.id, status: devices.status })
        .from(devices)
        .where(inArray(devices.id, [first, second]));
      expect(statuses.map((d) => d.status)).toEqual(['offline', 'offline']);
      const history = await t.db
        .select({ deviceId: deviceStatusHistory.deviceId })
        .from(deviceStatusHistory)
        .where(
          and(inArray(deviceStatusHistory.deviceId, [first, second]), eq(deviceStatusHistory.reason, 'heartbeat')),
        );
      expect(history.map((h) => h.deviceId)).toEqual([first]);
    });

  it('keeps the per-department, per-status counts in step with the devices (device_dept_counts)', async () => {
    const counted = async () =>
      new Map(
        (await t.db.select().from(deviceDeptCounts).where(eq(deviceDeptCounts.entId, ent.id)))
          .filter((r) => r.n !== 0)
          .map((r) => [`${r.deptId}|${r.status}`, r.n]),
      );
    const actual = async () => {
      const rows = await t.db
        .select({ deptId: devices.deptId, status: devices.status })
        .from(devices)
        .where(eq(devices.entId, ent.id));
      const m = new Map<string, number>();
      for (const r of rows) m.set(`${r.deptId ?? ''}|${r.status}`, (m.get(`${r.deptId ?? ''}|${r.status}`) ?? 0) + 1);
      return m;
    };
    const a = await insertDevice({ status: 'online', lastSeenAt: new Date(t.clock.now()) });
    const b = await insertDevice({ status: 'activating', deptId: null });
    expect(await counted()).toEqual(await actual());
    await t.db.update(devices).set({ status: 'offline' }).where(eq(devices.id, a.id));
    await t.db.update(devices).set({ deptId: ent.depts.b, name: 'moved' }).where(eq(devices.id, b.id));
    // An update that changes neither department nor status leaves the counts alone.
    await t.db.update(devices).set({ status: 'offline', volume: 3 }).where(eq(devices.id, a.id));
    expect(await counted()).toEqual(await actual());
    await t.db.delete(devices).where(eq(devices.id, a.id));
    expect(await counted()).toEqual(await actual());
  });

  it('lists the same rows whichever plan the scope size chooses', async () => {
    const now = new Date(t.clock.now());
    for (let i = 0; i < 5; i++) {
      await insertDevice({ status: 'online', lastSeenAt: new Date(now.getTime() - i * 60_000), statusAt: now });
    }
    await insertDevice({ status: 'offline', createdAt: new Date(now.getTime() - 3_600_000) });
    const user = { entId: ent.id, accountId: adminId, deptId: ent.depts.a, deptPath: null, dataScope: 'all' as const };
    const ctx = { db: t.db, user, now } as unknown as CallContext;
    for (const status of [undefined, 'online', 'offline'] as const) {
      for (const page of [1, 2]) {
        const input = { page, size: 3, status };
        const narrow = await devicePageQueries(ctx, input, true);
        const wide = await devicePageQueries(ctx, input, false);
        expect((await narrow.rows).map((r) => r.device.id)).toEqual((await wide.rows).map((r) => r.device.id));
        expect(await narrow.total).toEqual(await wide.total);
      }
    }
  });

  it('lists what the counts of this call choose, whatever statement the last call of the scope started with', async () => {
    // A clean enterprise: the staff's scope (a and below) holds devices in one department only.
    const { ent: e, admin } = await t.tenant();
    const staff = await createUser(t.db, e, { deptIds: [e.depts.a], dataScope: 'dept_and_below' });
    const staffClient = await t.loginAs(staff);
    const put = (deptId: string, status: (typeof DEVICE_STATUSES)[number]) =>
      insertDevice({ entId: e.id, deptId, ownerId: admin.id, status, statusAt: new Date(t.clock.now()) });
    const ids = async (request: Record<string, unknown> = {}) => {
      const answer = await staffClient.call(endpoints.deviceList, { size: 50, ...request });
      expect(answer.envelope.code).toBe(0);
      return answer.envelope.payload.data.map((d) => d.id).sort();
    };
    const first = await put(e.depts.a, 'trial');
    expect(await ids()).toEqual([first.id]);
    // A department that held no device, and a stored status none held: the statement the last
    // counts chose has no branch for them; this call's counts choose another.
    const below = await put(e.depts.a1, 'trial');
    expect(await ids()).toEqual([first.id, below.id].sort());
    const invalid = await put(e.depts.a1, 'invalid');
    expect(await ids({ status: 'invalid' })).toEqual([invalid.id]);
    expect(await ids()).toEqual([first.id, below.id, invalid.id].sort());
    // Gone again: the statement with the branch is not kept for a department that holds none.
    await t.db.delete(devices).where(eq(devices.deptId, e.depts.a1));
    expect(await ids()).toEqual([first.id]);
    expect(await ids({ status: 'invalid' })).toEqual([]);
  });

  it('lists the same rows and total with the merged plan of a department scope', async () => {
    const now = new Date(t.clock.now());
    const staff = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_and_below' });
    const at = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    // Every status, in the scope's two departments, with ties of created_at; stale online shows offline.
    for (const [i, status] of DEVICE_STATUSES.entries()) {
      for (const deptId of [ent.depts.a, ent.depts.a1]) {
        await insertDevice({ deptId, status, lastSeenAt: now, statusAt: now, createdAt: at(i % 3) });
      }
    }
    await insertDevice({
      deptId: ent.depts.a1,
      status: 'online',
      lastSeenAt: at(60),
      statusAt: at(60),
      createdAt: at(1),
    });
    // Another stale one (tagged below), and one of another enterprise that no list here shows.
    const staleTagged = await insertDevice({
      deptId: ent.depts.a,
      status: 'online',
      lastSeenAt: at(5),
      statusAt: at(60),
      createdAt: at(2),
    });
    const other = await t.tenant();
    await insertDevice({
      entId: other.ent.id,
      deptId: other.ent.depts.a,
      ownerId: other.admin.id,
      status: 'online',
      lastSeenAt: at(60),
      statusAt: at(60),
    });
    // Outside the scope: the caller's own (one without a department), shared with the caller
    // (one also its own: listed once), and neither (not listed).
    await insertDevice({ deptId: ent.depts.b, ownerId: staff.id, status: 'offline', createdAt: at(2) });
    await insertDevice({ deptId: null, ownerId: staff.id, status: 'online', lastSeenAt: now, createdAt: at(4) });
    const shared = await insertDevice({ deptId: ent.depts.b, status: 'trial', createdAt: at(0) });
    const sharedOwn = await insertDevice({ deptId: ent.depts.b, ownerId: staff.id, createdAt: at(1) });
    for (const device of [shared, sharedOwn]) {
      await t.db.insert(allocations).values({
        entId: ent.id,
        refType: RefType.device,
        refId: device.id,
        targetType: 2,
        targetId: staff.id,
        deptDataType: 2,
      });
    }
    await insertDevice({ deptId: ent.depts.b, status: 'online', lastSeenAt: now, createdAt: at(0) });
    // A tag on every other device of the enterprise (its rows copy each device's department,
    // stored status and creation time); then one tagged device moves department and another
    // changes status, which their tag rows follow.
    const [category] = await t.db
      .insert(tagCategories)
      .values({ entId: ent.id, name: uniqueName('Kind') })
      .returning();
    const [tag] = await t.db
      .insert(tags)
      .values({ entId: ent.id, categoryId: category.id, name: uniqueName('Tag') })
      .returning();
    const everyDevice = await t.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.entId, ent.id))
      .orderBy(devices.createdAt, devices.id);
    const taggedIds = [...new Set([...everyDevice.filter((_, i) => i % 2 === 0).map((d) => d.id), staleTagged.id])];
    await t.db.insert(deviceTags).values(taggedIds.map((deviceId) => ({ deviceId, tagId: tag.id, entId: ent.id })));
    await t.db.update(devices).set({ deptId: ent.depts.a1 }).where(eq(devices.id, taggedIds[0]));
    await t.db.update(devices).set({ status: 'invalid' }).where(eq(devices.id, taggedIds[1]));
    const copied = await t.db
      .select({
        deptId: deviceTags.deptId,
        status: deviceTags.status,
        createdAt: deviceTags.deviceCreatedAt,
        device: devices,
      })
      .from(deviceTags)
      .innerJoin(devices, eq(devices.id, deviceTags.deviceId))
      .where(eq(deviceTags.tagId, tag.id));
    expect(copied.length).toBe(taggedIds.length);
    for (const row of copied) {
      expect(row.deptId).toBe(row.device.deptId);
      expect(row.status).toBe(row.device.status);
      expect(row.createdAt?.getTime()).toBe(row.device.createdAt.getTime());
    }
    const [dept] = await t.db
      .select({ path: departments.path })
      .from(departments)
      .where(eq(departments.id, ent.depts.a));
    for (const dataScope of ['dept_and_below', 'dept_only'] as const) {
      const user = { entId: ent.id, accountId: staff.id, deptId: ent.depts.a, deptPath: dept.path, dataScope };
      const ctx = { db: t.db, user, now } as unknown as CallContext;
      const counts = await deviceScopeCounts(t.db, user);
      expect([...(counts.byDept?.keys() ?? [])].sort()).toEqual(
        (dataScope === 'dept_only' ? [ent.depts.a] : [ent.depts.a, ent.depts.a1]).sort(),
      );
      for (const status of [undefined, ...DEVICE_STATUSES]) {
        for (const page of [1, 2, 3, 9]) {
          // Without a tag, and with the tag (its rows in device_tags).
          for (const tagId of [undefined, tag.id]) {
            const input = { page, size: 3, status, tagId };
            const merged = mergedPageQueries(ctx, input, counts);
            if (!merged) throw new Error('the merged plan applies');
            const bitmap = await devicePageQueries(ctx, input, true);
            const ids = async (q: typeof merged.rows | typeof bitmap.rows) => (await q).map((r) => r.device.id);
            const rows = await merged.rows;
            expect(rows.map((r) => r.device.id)).toEqual(await ids(bitmap.rows));
            expect(await merged.total).toEqual(await bitmap.total);
            // Each row carries its own tags (a correlated subquery of the row's device).
            for (const r of rows) {
              expect(r.tags.map((x) => x.id)).toEqual(taggedIds.includes(r.device.id) ? [tag.id] : []);
            }
            // The same through the statements kept per shape (listDevices), twice.
            for (let again = 0; again < 2; again++) {
              expect(await viaKept(user, input, counts, now)).toEqual({
                ids: rows.map((r) => r.device.id),
                total: (await bitmap.total)[0].total,
              });
            }
          }
        }
      }
      // A kept statement takes the time of each call: ten minutes on, the devices seen now
      // have missed their heartbeats too.
      const later = new Date(now.getTime() + 600_000);
      for (const status of ['online', 'offline'] as const) {
        for (const tagId of [undefined, tag.id]) {
          const input = { page: 1, size: 50, status, tagId };
          const bitmap = await devicePageQueries({ ...ctx, now: later }, input, true);
          expect(await viaKept(user, input, counts, later)).toEqual({
            ids: (await bitmap.rows).map((r) => r.device.id),
            total: (await bitmap.total)[0].total,
          });
        }
      }
      // Another caller of the same scope gets its own statement: not the first caller's own
      // devices outside the departments.
      const peer = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope });
      const peerUser = { ...user, accountId: peer.id };
      const first = { page: 1, size: 50 };
      const peerBitmap = await devicePageQueries({ ...ctx, user: peerUser } as unknown as CallContext, first, true);
      const peerIds = (await peerBitmap.rows).map((r) => r.device.id);
      expect(await viaKept(peerUser, first, counts, now)).toEqual({
        ids: peerIds,
        total: (await peerBitmap.total)[0].total,
      });
      expect((await viaKept(user, first, counts, now)).ids.length).toBeGreaterThan(peerIds.length);
      // Any other filter or an asked order: the other plans.
      expect(mergedPageQueries(ctx, { page: 1, size: 3, keyword: 'x' }, counts)).toBeUndefined();
      expect(mergedPageQueries(ctx, { page: 1, size: 3, sort: 'name' }, counts)).toBeUndefined();
    }
    // The enterprise administrator: the enterprise's rows, or the tag's rows of it; the same
    // through the statements kept per shape, now and ten minutes on.
    const admin = {
      entId: ent.id,
      accountId: adminId,
      deptId: ent.depts.a,
      deptPath: dept.path,
      dataScope: 'all' as const,
    };
    const adminCtx = { db: t.db, user: admin, now } as unknown as CallContext;
    const adminCounts = await deviceScopeCounts(t.db, admin);
    for (const status of [undefined, ...DEVICE_STATUSES]) {
      for (const page of [1, 2, 9]) {
        for (const tagId of [undefined, tag.id]) {
          const input = { page, size: 3, status, tagId };
          const merged = mergedPageQueries(adminCtx, input, adminCounts);
          if (!merged) throw new Error('the merged plan applies');
          const walk = await devicePageQueries(adminCtx, input, false);
          const ids = (await walk.rows).map((r) => r.device.id);
          expect((await merged.rows).map((r) => r.device.id)).toEqual(ids);
          expect(await merged.total).toEqual(await walk.total);
          expect(await viaKept(admin, input, adminCounts, now)).toEqual({ ids, total: (await walk.total)[0].total });
          const later = { ...adminCtx, now: new Date(now.getTime() + 600_000) } as unknown as CallContext;
          const laterWalk = await devicePageQueries(later, input, false);
          expect(await viaKept(admin, input, adminCounts, later.now)).toEqual({
            ids: (await laterWalk.rows).map((r) => r.device.id),
            total: (await laterWalk.total)[0].total,
          });
        }
      }
    }
    // Another enterprise's administrator naming this tag sees none of its devices.
    const stranger = { ...admin, entId: randomUUID() };
    const foreign = mergedPageQueries(
      { db: t.db, user: stranger, now } as unknown as CallContext,
      { page: 1, size: 3, tagId: tag.id },
      await deviceScopeCounts(t.db, stranger),
    );
    expect(foreign && (await foreign.rows)).toEqual([]);
  });
});
