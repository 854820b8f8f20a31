import { ErrorCode, endpoints, Perm, WARNING_KINDS, type WarningKind } from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceDownloads,
  devices,
  devOutbox,
  iotCards,
  marketRenewals,
  stationLetters,
  storageQuotas,
  warnings,
} from '../../src/db/schema/index.js';
import { evaluateWarnings } from '../../src/modules/warnings/evaluate.js';
import { insertWarningDevice, reachable, warningFacts } from '../fixtures/warnings.js';
import { BACKENDS, createTestApp, createUser, type TestApp } from '../helpers/index.js';

/**
 * The warning centre (issue 30): each rule opens a warning from facts the test makes and
 * resolves it when the fact ends; the job is idempotent; the chosen accounts are notified once
 * per warning; acknowledging; an enterprise sees only its own.
 */

const DAY = 86_400_000;

describe.each(BACKENDS)('warning centre on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const run = () => evaluateWarnings(t.services, new Date(t.clock.now()));
  const live = async (entId: string) =>
    t.db
      .select()
      .from(warnings)
      .where(and(eq(warnings.entId, entId), inArray(warnings.state, ['open', 'acknowledged'])));

  it('opens one warning per rule from the facts, once, and resolves each when its fact ends', async () => {
    const { ent, admin } = await t.tenant();
    const objects = await warningFacts(t, ent, admin.id);
    await run();
    const opened = await live(ent.id);
    const byKind = new Map(opened.map((w) => [w.kind, w]));
    for (const kind of WARNING_KINDS) {
      expect(byKind.get(kind)?.objectId, kind).toBe(objects[kind]);
    }
    expect(opened).toHaveLength(WARNING_KINDS.length);
    expect(byKind.get('deviceLongOffline')?.level).toBe('critical');
    expect(byKind.get('downloadFailing')?.detail).toMatchObject({ failed: 1, error: 'HTTP 404' });
    expect(byKind.get('underDelivering')?.detail).toMatchObject({ expected: 40, delivered: 4, percent: 10 });

    // Idempotent: a second run opens nothing new.
    const again = await run();
    expect((await live(ent.id)).map((w) => w.id).sort()).toEqual(opened.map((w) => w.id).sort());
    expect(Object.values(again.opened).every((n) => n >= 0)).toBe(true);

    // The facts end.
    const now = t.clock.now();
    await t.db
      .update(devices)
      .set({ status: 'online', statusAt: new Date(now), lastSeenAt: new Date(now) })
      .where(inArray(devices.id, [objects.deviceOffline, objects.deviceLongOffline]));
    await t.db
      .update(devices)
      .set({ expireAt: new Date(now + 60 * DAY) })
      .where(eq(devices.id, objects.deviceExpiring));
    const { ads } = await import('../../src/db/schema/index.js');
    await t.db
      .update(ads)
      .set({ endAt: new Date(now + 60 * DAY) })
      .where(eq(ads.id, objects.adExpiring));
    // Late plays arrived: the hour's reconciliation finds the screen delivered.
    const { deliveryDays } = await import('../../src/db/schema/index.js');
    await t.db.update(deliveryDays).set({ delivered: 39 }).where(eq(deliveryDays.deviceId, objects.underDelivering));
    await t.db
      .update(deviceDownloads)
      .set({ state: 'successful' })
      .where(eq(deviceDownloads.deviceId, objects.downloadFailing));
    await t.db.update(storageQuotas).set({ usedBytes: 100 }).where(eq(storageQuotas.entId, ent.id));
    await t.db
      .update(marketRenewals)
      .set({ outcome: 'succeeded', reason: null })
      .where(eq(marketRenewals.itemId, objects.renewalFailing));
    await t.db
      .update(iotCards)
      .set({ expiresAt: new Date(now + 60 * DAY) })
      .where(eq(iotCards.id, objects.iotCardExpiring));
    await run();
    expect(await live(ent.id)).toEqual([]);
    const resolved = await t.db.select().from(warnings).where(eq(warnings.entId, ent.id));
    expect(resolved.every((w) => w.state === 'resolved' && w.resolvedAt !== null)).toBe(true);

    // The fact again: a new warning (the unique index holds only live ones).
    await t.db
      .update(devices)
      .set({ status: 'offline', statusAt: new Date(now) })
      .where(eq(devices.id, objects.deviceOffline));
    await run();
    expect((await live(ent.id)).map((w) => [w.kind, w.objectId])).toEqual([['deviceOffline', objects.deviceOffline]]);
  });

  it('a device offline for more than 15 days moves from offline to long-term offline', async () => {
    const { ent, admin } = await t.tenant();
    const id = await insertWarningDevice(t, ent, admin.id, {
      status: 'offline',
      statusAt: new Date(t.clock.now() - 14 * DAY),
    });
    await run();
    expect((await live(ent.id)).map((w) => w.kind)).toEqual(['deviceOffline']);
    t.clock.advance(2 * DAY);
    await run();
    const now = await live(ent.id);
    expect(now.map((w) => [w.kind, w.objectId])).toEqual([['deviceLongOffline', id]]);
  });

  it('notifies the chosen accounts once per warning: a station letter and a message through the sender', async () => {
    const { ent, admin, client } = await t.tenant();
    const watcher = await createUser(t.db, ent, { permissions: [Perm.operateWarning] });
    const phone = `139${String(Date.now()).slice(-8)}`;
    await reachable(t, watcher.id, phone, `${watcher.loginName}@example.com`);
    const saved = await client.call(endpoints.warningsSettingsSave, {
      kind: 'deviceOffline',
      accountIds: [watcher.id],
    });
    expect(saved.envelope.code).toBe(0);
    const device = await insertWarningDevice(t, ent, admin.id, {
      status: 'offline',
      statusAt: new Date(t.clock.now() - DAY),
      name: 'Lobby screen',
    });
    // A kind nobody chose: no message.
    await insertWarningDevice(t, ent, admin.id, { expireAt: new Date(t.clock.now() + 3 * DAY) });
    await run();
    await run();
    const outbox = await t.db.select().from(devOutbox).where(eq(devOutbox.target, phone));
    expect(outbox).toHaveLength(1);
    expect(outbox[0].text).toContain('Lobby screen');
    const mails = await t.db
      .select()
      .from(devOutbox)
      .where(eq(devOutbox.target, `${watcher.loginName}@example.com`));
    expect(mails).toHaveLength(1);
    const letters = await t.db.select().from(stationLetters).where(eq(stationLetters.accountId, watcher.id));
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({
      kind: 'warnings.opened',
      params: { kind: 'deviceOffline', object: 'Lobby screen' },
    });
    const [w] = await t.db.select().from(warnings).where(eq(warnings.objectId, device));
    expect(w.notifiedAt).not.toBeNull();
  });

  it('acknowledges open warnings (who and when), lists with filters and counts, and an enterprise sees only its own', async () => {
    const { ent, admin, client } = await t.tenant();
    const other = await t.tenant();
    await insertWarningDevice(t, ent, admin.id, {
      status: 'offline',
      statusAt: new Date(t.clock.now() - DAY),
      name: 'North gate',
    });
    await insertWarningDevice(t, ent, admin.id, {
      status: 'offline',
      statusAt: new Date(t.clock.now() - DAY),
      name: 'South gate',
    });
    await insertWarningDevice(t, other.ent, other.admin.id, {
      status: 'offline',
      statusAt: new Date(t.clock.now() - DAY),
      name: 'Elsewhere',
    });
    await run();
    const list = await client.call(endpoints.warningsList, { page: 1, size: 10, state: 'live' });
    expect(list.envelope.code).toBe(0);
    const data = list.envelope.payload!;
    expect(data.total).toBe(2);
    expect(data.data.map((w) => w.objectName).sort()).toEqual(['North gate', 'South gate']);
    expect(data.counts.find((c) => c.kind === 'deviceOffline')).toEqual({
      kind: 'deviceOffline',
      open: 2,
      acknowledged: 0,
    });
    const north = data.data.find((w) => w.objectName === 'North gate')!;

    const theirs = await other.client.call(endpoints.warningsAcknowledge, { ids: [north.id] });
    expect(theirs.envelope.code).toBe(ErrorCode.NOT_FOUND);

    const ack = await client.call(endpoints.warningsAcknowledge, { ids: [north.id] });
    expect(ack.envelope.payload).toEqual({ updated: 1 });
    const again = await client.call(endpoints.warningsAcknowledge, { ids: [north.id] });
    expect(again.envelope.payload).toEqual({ updated: 0 });
    const filtered = await client.call(endpoints.warningsList, {
      page: 1,
      size: 10,
      state: 'acknowledged',
      keyword: 'north',
    });
    expect(filtered.envelope.payload!.data).toHaveLength(1);
    expect(filtered.envelope.payload!.data[0]).toMatchObject({ acknowledgedBy: admin.id, state: 'acknowledged' });
    expect(filtered.envelope.payload!.data[0].acknowledgedAt).not.toBeNull();
    // Acknowledged stays acknowledged while the fact holds, then resolves by itself.
    await run();
    const [row] = await t.db.select().from(warnings).where(eq(warnings.id, north.id));
    expect(row.state).toBe('acknowledged');

    const reversed = await client.call(endpoints.warningsList, {
      page: 1,
      size: 10,
      from: '2026-02-01T00:00:00Z',
      to: '2026-01-01T00:00:00Z',
    });
    expect(reversed.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const stats = await client.call(endpoints.homeStats, {});
    expect(stats.envelope.payload!.figures.warningsOpen).toBe(1);
  });

  it("a department's staff sees the warnings of its data scope's devices only, never the enterprise-wide ones", async () => {
    const { ent, admin, client } = await t.tenant();
    const offline = { status: 'offline' as const, statusAt: new Date(t.clock.now() - DAY) };
    await insertWarningDevice(t, ent, admin.id, { ...offline, deptId: ent.depts.a1, name: 'A1 screen' });
    await insertWarningDevice(t, ent, admin.id, { ...offline, deptId: ent.depts.b, name: 'B screen' });
    await t.db
      .insert(storageQuotas)
      .values({ entId: ent.id, quotaBytes: 100, usedBytes: 99 })
      .onConflictDoUpdate({
        target: storageQuotas.entId,
        set: { quotaBytes: 100, usedBytes: 99 },
      });
    await run();
    const names = async (c: typeof client) => {
      const list = await c.call(endpoints.warningsList, { page: 1, size: 50, state: 'live' });
      expect(list.envelope.code).toBe(0);
      return list.envelope.payload!.data.map((w) => w.objectName).sort();
    };
    expect(await names(client)).toEqual(expect.arrayContaining(['A1 screen', 'B screen']));
    expect((await names(client)).length).toBe(3);

    const staff = await createUser(t.db, ent, {
      permissions: [Perm.operateWarning],
      deptIds: [ent.depts.a],
      dataScope: 'dept_and_below',
    });
    const staffClient = await t.loginAs(staff);
    expect(await names(staffClient)).toEqual(['A1 screen']);
    const counts = (await staffClient.call(endpoints.warningsList, { page: 1, size: 10 })).envelope.payload!.counts;
    expect(counts.reduce((sum, c) => sum + c.open, 0)).toBe(1);
    // A warning outside its scope is not found to it, however it learnt the id.
    const [theirs] = await t.db
      .select()
      .from(warnings)
      .where(and(eq(warnings.entId, ent.id), eq(warnings.objectName, 'B screen')));
    const ack = await staffClient.call(endpoints.warningsAcknowledge, { ids: [theirs.id] });
    expect(ack.envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await staffClient.call(endpoints.homeStats, {})).envelope.payload!.figures.warningsOpen).toBe(1);
  });

  it("the notification settings take only the enterprise's accounts", async () => {
    const { client } = await t.tenant();
    const other = await t.tenant();
    const res = await client.call(endpoints.warningsSettingsSave, { kind: 'adExpiring', accountIds: [other.admin.id] });
    expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
    const settings = await client.call(endpoints.warningsSettings, {});
    expect(settings.envelope.payload!.recipients.find((r) => r.kind === 'adExpiring')!.accountIds).toEqual([]);
  });

  it('every kind has its rule', () => {
    expect(WARNING_KINDS.length).toBe(9);
    const kinds: WarningKind[] = [...WARNING_KINDS];
    expect(new Set(kinds).size).toBe(9);
  });
});
