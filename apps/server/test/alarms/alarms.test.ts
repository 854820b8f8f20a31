import { randomUUID } from 'node:crypto';
import { alarmRaiseSchema, ErrorCode, endpoints, MAX_ALARM_CONTACTS } from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmEvents, alarmSteps, devOutbox } from '../../src/db/schema/index.js';
import { ingestAlarm } from '../../src/modules/alarms/ingest.js';
import {
  ALARM_NOTIFY_GRACE_MS,
  ALARM_NOTIFY_LEASE_MS,
  sweepAlarmNotifications,
} from '../../src/modules/alarms/notify.js';
import type { CodeMessage, CodeSender } from '../../src/modules/verification/sender.js';
import { HeadlessPlayer } from '../../src/player/player.js';
import { insertAlarmDevice, insertAlarmRegion, raiseAlarm } from '../fixtures/alarms.js';
import { png } from '../fixtures/materials.js';
import { BACKENDS, createTestApp, createUser, type TestApp } from '../helpers/index.js';

/**
 * One-key alarms on the server (issue 30): the path from the device's message to the event, its
 * regions and the contacts' messages in the development outbox; a re-sent message stored once;
 * the contacts' limits; the timeline's states; who sees an event (its device's data scope).
 */
describe.each(BACKENDS)('one-key alarms on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  const outboxOf = (targets: string[]) => t.db.select().from(devOutbox).where(inArray(devOutbox.target, targets));

  it('a device message becomes an event whose region contacts get an SMS (and e-mail) in the outbox, with the screenshot', async () => {
    const { ent, admin, client } = await t.tenant();
    const device = await insertAlarmDevice(t, ent, admin.id, { name: 'Bus stop 12', districtCode: '310101' });
    const phoneA = `138${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const phoneB = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const mail = `guard-${randomUUID().slice(0, 8)}@example.com`;
    // One region by hand, one by the device's district; a contact in both is told once.
    await insertAlarmRegion(t.db, {
      entId: ent.id,
      name: 'Stop 12',
      deviceIds: [device.id],
      contacts: [{ name: 'Guard A', phone: phoneA, email: mail }],
    });
    await insertAlarmRegion(t.db, {
      entId: ent.id,
      name: 'Huangpu',
      regionCodes: ['310101'],
      contacts: [
        { name: 'Guard A', phone: phoneA },
        { name: 'Guard B', phone: phoneB },
      ],
    });
    await insertAlarmRegion(t.db, {
      entId: ent.id,
      name: 'Elsewhere',
      contacts: [{ name: 'No', phone: '13700000000' }],
    });

    const image = await png(32, 24);
    const id = randomUUID();
    const answer = await raiseAlarm(t, device, {
      id,
      screenshot: { contentType: 'image/png', data: image.toString('base64') },
    });
    expect(answer).toMatchObject({ code: 0, payload: { id, result: 'accepted' } });

    const sent = await outboxOf([phoneA, phoneB, mail, '13700000000']);
    expect(sent.map((m) => `${m.channel}:${m.target}`).sort()).toEqual(
      [`email:${mail}`, `sms:${phoneA}`, `sms:${phoneB}`].sort(),
    );
    expect(sent[0].text).toContain('Bus stop 12');
    expect(sent[0].purpose).toBe('alarm');

    const list = await client.call(endpoints.alarmEventList, {});
    expect(list.envelope.payload).toMatchObject({
      total: 1,
      data: [
        {
          deviceName: 'Bus stop 12',
          address: 'No. 1 Bus Stop Road',
          latitude: 31.23,
          state: 'raised',
          regionNames: ['Huangpu', 'Stop 12'],
          notified: 3,
          delivered: 3,
          screenshotUrl: expect.stringMatching(/^\/files\//),
        },
      ],
    });
    const eventId = list.envelope.payload.data[0].id;
    const shot = await t.app.inject({ method: 'GET', url: list.envelope.payload.data[0].screenshotUrl as string });
    expect(shot.statusCode).toBe(200);
    expect(Buffer.compare(shot.rawPayload, image)).toBe(0);

    const info = await client.call(endpoints.alarmEventInfo, { id: eventId });
    const steps = info.envelope.payload.steps;
    expect(steps.map((s) => s.kind)).toEqual(['raised', 'notified', 'notified', 'notified']);
    expect(steps.filter((s) => s.kind === 'notified').every((s) => s.outcome === 'delivered')).toBe(true);
    expect(
      steps
        .map((s) => s.contactName)
        .filter(Boolean)
        .sort(),
    ).toEqual(['Guard A', 'Guard A', 'Guard B']);

    const count = await client.call(endpoints.alarmEventCount, {});
    expect(count.envelope.payload).toEqual({ open: 1, latestId: eventId, latestAt: expect.any(String) });
  });

  it('notifications a stopped server never sent go out from the sweep, once, after the call had its chance', async () => {
    const { ent, admin } = await t.tenant();
    const device = await insertAlarmDevice(t, ent, admin.id, { name: 'Night kiosk' });
    const phone = `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await insertAlarmRegion(t.db, {
      entId: ent.id,
      deviceIds: [device.id],
      contacts: [{ name: 'Night guard', phone }],
    });
    const base = t.clock.now();
    const sweep = () => sweepAlarmNotifications(t.services, t.app.log);
    const store = async () => {
      // Stored by the device's call, which then stopped before its sends (the server went down).
      const raise = alarmRaiseSchema.parse({ id: randomUUID(), at: t.clock.now() });
      const stored = await ingestAlarm(t.services, { id: device.id, entId: ent.id }, raise, t.clock.now());
      return stored.eventId as string;
    };
    const notifiedSteps = async (eventId: string) =>
      t.db
        .select()
        .from(alarmSteps)
        .where(and(eq(alarmSteps.eventId, eventId), eq(alarmSteps.kind, 'notified')));
    try {
      const first = await store();
      expect(await sweep()).toBe(0);
      expect(await outboxOf([phone])).toHaveLength(0);
      // Past the grace the call had: two sweeps at once (or the app's own job) send it once.
      t.clock.set(base + ALARM_NOTIFY_GRACE_MS + 1_000);
      await Promise.all([sweep(), sweep()]);
      expect(await outboxOf([phone])).toHaveLength(1);
      expect(await notifiedSteps(first)).toHaveLength(1);
      const [row] = await t.db.select().from(alarmEvents).where(eq(alarmEvents.id, first));
      expect(row.notifiedAt).not.toBeNull();
      expect(await sweep()).toBe(0);

      // A sender that stopped in the middle of its sends: its claim is taken over after the lease.
      const second = await store();
      const claimedAt = t.clock.now();
      await t.db
        .update(alarmEvents)
        .set({ notifyClaimedAt: new Date(claimedAt) })
        .where(eq(alarmEvents.id, second));
      t.clock.set(claimedAt + ALARM_NOTIFY_GRACE_MS + 1_000);
      expect(await sweep()).toBe(0);
      t.clock.set(claimedAt + ALARM_NOTIFY_LEASE_MS + 1_000);
      await sweep();
      expect(await outboxOf([phone])).toHaveLength(2);
      expect(await notifiedSteps(second)).toHaveLength(1);

      // An event in no region has nobody to tell: marked done without a message.
      const loner = await insertAlarmDevice(t, ent, admin.id);
      const raise = alarmRaiseSchema.parse({ id: randomUUID(), at: t.clock.now() });
      const alone = (await ingestAlarm(t.services, { id: loner.id, entId: ent.id }, raise, t.clock.now()))
        .eventId as string;
      t.clock.set(t.clock.now() + ALARM_NOTIFY_GRACE_MS + 1_000);
      await sweep();
      const [lone] = await t.db.select().from(alarmEvents).where(eq(alarmEvents.id, alone));
      expect(lone.notifiedAt).not.toBeNull();
      expect(await notifiedSteps(alone)).toHaveLength(0);
    } finally {
      t.clock.set(base);
    }
  });

  it('a message sent again (a retry after a lost answer) is one event and notifies once', async () => {
    const { ent, admin } = await t.tenant();
    const device = await insertAlarmDevice(t, ent, admin.id);
    const phone = `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await insertAlarmRegion(t.db, { entId: ent.id, deviceIds: [device.id], contacts: [{ name: 'Only', phone }] });
    const id = randomUUID();
    const at = t.clock.now() - 60_000;
    expect((await raiseAlarm(t, device, { id, at })).payload).toEqual({ id, result: 'accepted' });
    expect((await raiseAlarm(t, device, { id, at })).payload).toEqual({ id, result: 'duplicate' });
    // Two sends at once: still one.
    const id2 = randomUUID();
    const both = await Promise.all([raiseAlarm(t, device, { id: id2 }), raiseAlarm(t, device, { id: id2 })]);
    expect(both.map((b) => b.payload?.result).sort()).toEqual(['accepted', 'duplicate']);
    const rows = await t.db.select().from(alarmEvents).where(eq(alarmEvents.deviceId, device.id));
    expect(rows).toHaveLength(2);
    expect(await outboxOf([phone])).toHaveLength(2);
    // Too old or too far ahead: rejected (the player drops it); nothing stored.
    const old = await raiseAlarm(t, device, { at: t.clock.now() - 8 * 86_400_000 });
    expect(old.payload?.result).toBe('rejected');
    expect(await t.db.select().from(alarmEvents).where(eq(alarmEvents.deviceId, device.id))).toHaveLength(2);
  });

  it('refuses what a device must fix: wrong credentials, a bad body, a screenshot that is not its type', async () => {
    const { ent, admin } = await t.tenant();
    const device = await insertAlarmDevice(t, ent, admin.id);
    expect((await raiseAlarm(t, { ...device, password: 'guess' })).code).toBe(ErrorCode.DEVICE_AUTH_FAILED);
    const bad = await raiseAlarm(t, device, { id: 'not-a-uuid' });
    expect(bad.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(bad.message).toContain('id');
    const wrong = await raiseAlarm(t, device, {
      screenshot: { contentType: 'image/jpeg', data: (await png(8, 8)).toString('base64') },
    });
    expect(wrong.code).toBe(ErrorCode.FILE_FORMAT_ERROR);
  });

  it('records a failed delivery on the timeline and still delivers to the other contacts', async () => {
    const { ent, admin, client } = await t.tenant();
    const device = await insertAlarmDevice(t, ent, admin.id);
    const good = `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const broken = `135${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    await insertAlarmRegion(t.db, {
      entId: ent.id,
      deviceIds: [device.id],
      contacts: [
        { name: 'Good', phone: good },
        { name: 'Broken', phone: broken },
      ],
    });
    const services = t.services as { codeSender: CodeSender };
    const original = services.codeSender;
    services.codeSender = {
      name: 'flaky',
      send: (m: CodeMessage) => (m.target === broken ? Promise.reject(new Error('gateway refused')) : original.send(m)),
    };
    try {
      expect((await raiseAlarm(t, device)).payload?.result).toBe('accepted');
    } finally {
      services.codeSender = original;
    }
    const [event] = await t.db.select().from(alarmEvents).where(eq(alarmEvents.deviceId, device.id));
    const info = await client.call(endpoints.alarmEventInfo, { id: event.id });
    const notified = info.envelope.payload.steps.filter((s) => s.kind === 'notified');
    expect(notified.map((s) => [s.contactName, s.outcome, s.error]).sort()).toEqual([
      ['Broken', 'failed', 'gateway refused'],
      ['Good', 'delivered', null],
    ]);
    expect(info.envelope.payload.event).toMatchObject({ notified: 2, delivered: 1 });
  });

  it('moves an event through acknowledged, handled and closed with a note, in order only', async () => {
    const { ent, admin, client } = await t.tenant();
    const device = await insertAlarmDevice(t, ent, admin.id);
    await raiseAlarm(t, device);
    const [event] = await t.db.select().from(alarmEvents).where(eq(alarmEvents.deviceId, device.id));
    const act = (action: string, note = '') => client.call(endpoints.alarmEventAct, { id: event.id, action, note });
    expect((await act('acknowledge')).envelope.payload).toEqual({ state: 'acknowledged' });
    expect((await act('acknowledge')).envelope.code).toBe(ErrorCode.ALARM_EVENT_STATE);
    t.clock.advance(60_000);
    expect((await act('handle', 'Guard on site')).envelope.payload).toEqual({ state: 'handled' });
    expect((await act('close')).envelope.code).toBe(ErrorCode.ALARM_NOTE_REQUIRED);
    t.clock.advance(60_000);
    expect((await act('close', 'False alarm: a child pressed it')).envelope.payload).toEqual({ state: 'closed' });
    expect((await act('handle')).envelope.code).toBe(ErrorCode.ALARM_EVENT_STATE);

    const info = await client.call(endpoints.alarmEventInfo, { id: event.id });
    expect(info.envelope.payload.steps.map((s) => [s.kind, s.note])).toEqual([
      ['raised', ''],
      ['acknowledged', ''],
      ['handled', 'Guard on site'],
      ['closed', 'False alarm: a child pressed it'],
    ]);
    expect(info.envelope.payload.event).toMatchObject({ state: 'closed', note: 'False alarm: a child pressed it' });
    expect((await client.call(endpoints.alarmEventCount, {})).envelope.payload.open).toBe(0);

    const day = new Date(t.clock.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const report = await client.call(endpoints.alarmReport, { from: day, to: day });
    expect(report.envelope.payload.totals).toMatchObject({ events: 1, acknowledged: 1, closed: 1 });
    expect(report.envelope.payload.totals.meanCloseSec).toBeGreaterThanOrEqual(120);
    const steps = await t.db.select().from(alarmSteps).where(eq(alarmSteps.eventId, event.id));
    expect(steps.find((s) => s.kind === 'closed')?.actorId).toBe(admin.id);
  });

  it('keeps contacts within the rules: 1 to 10, name and phone required, names unique', async () => {
    const { client } = await t.tenant();
    const contact = (i: number) => ({ name: `Guard ${i}`, phone: `1380000${String(i).padStart(4, '0')}` });
    const save = (body: Record<string, unknown>) => client.call(endpoints.alarmRegionSave, body);
    const ten = Array.from({ length: MAX_ALARM_CONTACTS }, (_, i) => contact(i));
    const saved = await save({ name: 'Gate', contacts: ten });
    expect(saved.envelope.code).toBe(0);
    const eleven = await save({ name: 'Gate 2', contacts: [...ten, contact(10)] });
    expect(eleven.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(eleven.envelope.message).toContain('contacts');
    expect((await save({ name: 'Gate 3', contacts: [] })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect((await save({ name: 'Gate 4', contacts: [{ name: '', phone: '13800000000' }] })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    expect((await save({ name: 'Gate 5', contacts: [{ name: 'X', phone: '' }] })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    expect((await save({ name: 'Gate', contacts: [contact(1)] })).envelope.code).toBe(
      ErrorCode.ALARM_REGION_NAME_TAKEN,
    );
    // An edit replaces the contacts.
    const id = saved.envelope.payload.id;
    expect((await save({ id, name: 'Gate', contacts: [contact(3)] })).envelope.code).toBe(0);
    const list = await client.call(endpoints.alarmRegionList, {});
    expect(list.envelope.payload.data).toMatchObject([{ name: 'Gate', contacts: [{ name: 'Guard 3' }] }]);
  });

  it('shows an event to those who see its device, and to no other enterprise', async () => {
    const { ent, admin, client } = await t.tenant();
    const other = await t.tenant();
    const device = await insertAlarmDevice(t, ent, admin.id, { deptId: ent.depts.a1 });
    await raiseAlarm(t, device);
    const [event] = await t.db.select().from(alarmEvents).where(eq(alarmEvents.deviceId, device.id));
    // A staff member of department B with a department data scope does not see A1's device.
    const staffB = await createUser(t.db, ent, { deptIds: [ent.depts.b], dataScope: 'dept_and_below' });
    const b = await t.loginAs(staffB);
    expect((await b.call(endpoints.alarmEventList, {})).envelope.payload.total).toBe(0);
    expect((await b.call(endpoints.alarmEventInfo, { id: event.id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await b.call(endpoints.alarmEventAct, { id: event.id, action: 'acknowledge' })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect((await other.client.call(endpoints.alarmEventCount, {})).envelope.payload.open).toBe(0);
    expect((await client.call(endpoints.alarmEventCount, {})).envelope.payload.open).toBe(1);
    // The region's device list names only devices the saver sees.
    const region = await b.call(endpoints.alarmRegionSave, {
      name: 'B region',
      deviceIds: [device.id],
      contacts: [{ name: 'X', phone: '13800000009' }],
    });
    expect(region.envelope.code).toBe(ErrorCode.NOT_FOUND);
    const rows = await t.db
      .select()
      .from(alarmEvents)
      .where(and(eq(alarmEvents.entId, other.ent.id)));
    expect(rows).toHaveLength(0);
  });

  it('the headless player keeps an alarm it could not send and sends it when the server is back', async () => {
    const { ent, admin, client } = await t.tenant();
    const device = await insertAlarmDevice(t, ent, admin.id, { name: 'Headless kiosk' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const player = new HeadlessPlayer({ server: 'http://127.0.0.1:9' });
    player.credentials = { deviceId: device.id, username: device.id, password: device.password } as never;
    const id = await player.raiseAlarm();
    expect(player.pendingAlarms.map((a) => a.id)).toEqual([id]);
    // The server is reachable again (a reconnection flushes the journal).
    (player.options as { server: string }).server = address;
    expect(await player.flushAlarms()).toBe(1);
    expect(player.pendingAlarms).toHaveLength(0);
    expect(player.alarmAnswers.get(id)).toBe('accepted');
    const list = await client.call(endpoints.alarmEventList, {});
    expect(list.envelope.payload.data).toMatchObject([
      { deviceName: 'Headless kiosk', screenshotUrl: expect.stringMatching(/^\/files\//) },
    ]);
  });
});
