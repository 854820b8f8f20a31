import { type ApplyStrategyParams, ErrorCode, endpoints, STRATEGY_DEFAULTS } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, devices, operationLogs } from '../src/db/schema/index.js';
import type { HeadlessPlayer } from '../src/player/player.js';
import { activatePlayer, commandReaches, freePort, waitFor } from './devices/helpers.js';
import { listeningApp } from './devices/suite.js';
import { type ApiClient, BACKENDS, createUser, HOUR, type TestApp, type TestEnterprise } from './helpers/index.js';

const week = [1, 2, 3, 4, 5, 6, 7];
const night = { weekly: [{ weekdays: week, off: '00:30', on: '06:30' }], once: [] };

describe.each(BACKENDS)('strategies on %s', (backend) => {
  let t: TestApp;
  let server: string;
  let client: ApiClient;
  let ent: TestEnterprise;
  const players: HeadlessPlayer[] = [];

  beforeAll(async () => {
    ({ t, server } = await listeningApp(backend, { tcpPort: await freePort() }));
    ({ client, ent } = await t.tenant());
  });
  afterAll(async () => {
    for (const p of players) p.kill();
    await t.close();
  });

  async function device(name: string, entId = ent.id, deptId: string | null = ent.depts.root) {
    const [row] = await t.db.insert(devices).values({ entId, deptId, name }).returning({ id: devices.id });
    return row.id;
  }
  async function add(body: Record<string, unknown>, as = client) {
    return as.call(endpoints.strategyAdd, body as never);
  }

  it('creates, lists by type and keyword, reads, updates (raising the version) and deletes', async () => {
    const power = await add({ name: 'Nights off', type: 'power', rules: night });
    expect(power.envelope.code).toBe(0);
    const volume = await add({ name: 'Quiet lobby', type: 'volume', rules: STRATEGY_DEFAULTS.volume, remark: 'lobby' });
    const id = power.envelope.payload?.id as string;

    const byType = await client.call(endpoints.strategyList, { type: 'power' });
    expect(byType.envelope.payload?.data.map((s) => s.name)).toEqual(['Nights off']);
    const byWord = await client.call(endpoints.strategyList, { keyword: 'LOBBY' });
    expect(byWord.envelope.payload?.data.map((s) => s.id)).toEqual([volume.envelope.payload?.id]);
    // LIKE wildcards are literal.
    expect((await client.call(endpoints.strategyList, { keyword: '%' })).envelope.payload?.total).toBe(0);

    const detail = await client.call(endpoints.strategyDetail, { id });
    expect(detail.envelope.payload).toMatchObject({ type: 'power', rules: night, version: 1, appliedCount: 0 });

    const rules = { weekly: [{ weekdays: [6, 7], off: '01:00', on: '08:00' }], once: [] };
    const updated = await client.call(endpoints.strategyUpdate, { id, name: 'Weekend nights', type: 'power', rules });
    expect(updated.envelope.payload).toEqual({ version: 2 });
    expect((await client.call(endpoints.strategyDetail, { id })).envelope.payload).toMatchObject({
      name: 'Weekend nights',
      rules,
      version: 2,
    });

    // The type is fixed.
    const retype = await client.call(endpoints.strategyUpdate, {
      id,
      name: 'x',
      type: 'volume',
      rules: STRATEGY_DEFAULTS.volume,
    });
    expect(retype.envelope.code).toBe(ErrorCode.CONFLICT);

    expect((await client.call(endpoints.strategyDelete, { id })).envelope.code).toBe(0);
    expect((await client.call(endpoints.strategyDetail, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const log = await t.db
      .select({ action: operationLogs.action, targetName: operationLogs.targetName })
      .from(operationLogs)
      .where(and(eq(operationLogs.entId, ent.id), eq(operationLogs.module, 'strategy')));
    expect(log.map((l) => `${l.action}:${l.targetName}`)).toEqual(
      expect.arrayContaining(['add:Nights off', 'update:Weekend nights', 'delete:Weekend nights']),
    );
  });

  it('refuses every time rule with its message in the caller language', async () => {
    const cases: [unknown, string, string][] = [
      [{ weekly: [{ weekdays: week, off: '08:00', on: '08:04' }] }, 'rules.weekly.0.on', 'Time conflict: power-off'],
      [
        { weekly: [{ weekdays: week, off: '08:00', on: '07:00' }] },
        'rules.weekly.0.on',
        'shutdown time must be before',
      ],
      [
        {
          weekly: [
            { weekdays: [1], off: '01:00', on: '03:00' },
            { weekdays: [1, 2], off: '02:59', on: '04:00' },
          ],
        },
        'rules.weekly.1.off',
        'Time periods overlap',
      ],
      [{ weekly: [{ weekdays: week, off: '8:00', on: '09:00' }] }, 'rules.weekly.0.off', 'HH:mm'],
    ];
    for (const [rules, field, text] of cases) {
      const res = await add({ name: 'Bad', type: 'power', rules });
      expect(res.envelope.code, field).toBe(ErrorCode.INVALID_PARAMS);
      expect(res.envelope.message).toContain(field);
      expect(res.envelope.message).toContain(text);
    }
    const level = await add({
      name: 'Bad',
      type: 'brightness',
      rules: { defaultLevel: 50, periods: [{ weekdays: [1], start: '09:00', end: '09:00', level: 10 }] },
    });
    expect(level.envelope.message).toContain('the start and end times cannot be the same');
    const download = await add({
      name: 'Bad',
      type: 'download',
      rules: { windows: [], concurrency: 2, intervalMin: 0 },
    });
    expect(download.envelope.message).toContain('sending interval is at least 1 minute');
    const operation = await add({
      name: 'Bad',
      type: 'operation',
      rules: { ...STRATEGY_DEFAULTS.operation, offlineNotifyHours: 361 },
    });
    expect(operation.envelope.message).toContain('Offline notification is 1 to 360 hours');
    const zh = t.client({ language: 'zh-CN', token: client.token });
    const inZh = await add(
      { name: 'Bad', type: 'power', rules: { weekly: [{ weekdays: week, off: '08:00', on: '08:01' }] } },
      zh,
    );
    expect(inZh.envelope.message).toContain('时间冲突');
  });

  it('refuses a one-off shutdown in the past by the server clock', async () => {
    const now = t.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const past = await add({
      name: 'Holiday',
      type: 'power',
      rules: { weekly: [], once: [{ off: iso(now - 60_000), on: iso(now + HOUR) }] },
    });
    expect(past.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(past.envelope.message).toContain('rules.once.0.off');
    expect(past.envelope.message).toContain('The time cannot be in the past');
    const future = await add({
      name: 'Holiday',
      type: 'power',
      rules: { weekly: [], once: [{ off: iso(now + HOUR), on: iso(now + 10 * HOUR) }] },
    });
    expect(future.envelope.code).toBe(0);
  });

  it('applies to devices: stores each device strategy per type and queues one applyStrategy command each', async () => {
    const a = await device('Hall A');
    const b = await device('Hall B');
    const { envelope } = await add({ name: 'Apply me', type: 'power', rules: night });
    const id = envelope.payload?.id as string;
    const applied = await client.call(endpoints.strategyApply, { id, targets: { deviceIds: [a, b, a] } });
    expect(applied.envelope.code).toBe(0);
    const commands = applied.envelope.payload?.commands ?? [];
    expect(commands.map((c) => c.deviceId).sort()).toEqual([a, b].sort());
    const [command] = await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, commands[0].id));
    expect(command.kind).toBe('applyStrategy');
    expect(command.params).toMatchObject({ strategyId: id, type: 'power', version: 1, name: 'Apply me', rules: night });

    const application = await client.call(endpoints.strategyApplication, { strategyId: id });
    expect(application.envelope.payload?.applicationId).toBe(applied.envelope.payload?.applicationId);
    expect(application.envelope.payload?.devices.map((d) => [d.deviceName, d.state])).toEqual([
      ['Hall A', 'pending'],
      ['Hall B', 'pending'],
    ]);
    const ofDevice = await client.call(endpoints.strategyOfDevice, { deviceId: a });
    expect(ofDevice.envelope.payload?.data).toEqual([
      expect.objectContaining({ type: 'power', strategyId: id, name: 'Apply me', version: 1, currentVersion: 1 }),
    ]);

    // An update makes the devices' copy out of date; applying again brings them up to date.
    await client.call(endpoints.strategyUpdate, { id, name: 'Apply me', type: 'power', rules: night });
    expect((await client.call(endpoints.strategyDetail, { id })).envelope.payload).toMatchObject({
      appliedCount: 2,
      staleCount: 2,
    });
    // Another power strategy replaces it on device a (one per type).
    const other = await add({ name: 'Other', type: 'power', rules: night });
    await client.call(endpoints.strategyApply, {
      id: other.envelope.payload?.id as string,
      targets: { deviceIds: [a] },
    });
    expect((await client.call(endpoints.strategyDetail, { id })).envelope.payload).toMatchObject({ appliedCount: 1 });

    // Deleting a strategy some device has is refused with the count; the other one is free once replaced.
    const refused = await client.call(endpoints.strategyDelete, { id });
    expect(refused.envelope.code).toBe(ErrorCode.CONFLICT);
    expect(refused.envelope.message).toContain('1 device');
    await client.call(endpoints.strategyApply, {
      id: other.envelope.payload?.id as string,
      targets: { deviceIds: [b] },
    });
    expect((await client.call(endpoints.strategyDelete, { id })).envelope.code).toBe(0);

    // Commands time out as expired.
    t.clock.advance(2 * HOUR);
    const later = await client.call(endpoints.strategyApplication, {
      strategyId: other.envelope.payload?.id as string,
    });
    expect(later.envelope.payload?.devices.map((d) => d.state)).toEqual(['expired']);
    t.clock.advance(-2 * HOUR);
  });

  it('applies only to devices within scope, all or nothing', async () => {
    const other = await t.tenant();
    const foreign = await device('Foreign', other.ent.id, other.ent.depts.root);
    const mine = await device('Mine');
    const { envelope } = await add({ name: 'Scoped', type: 'volume', rules: STRATEGY_DEFAULTS.volume });
    const id = envelope.payload?.id as string;
    const res = await client.call(endpoints.strategyApply, { id, targets: { deviceIds: [mine, foreign] } });
    expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await client.call(endpoints.strategyOfDevice, { deviceId: mine })).envelope.payload?.data).toEqual([]);
    // Another enterprise can neither see nor apply the strategy.
    expect((await other.client.call(endpoints.strategyDetail, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const theirs = await other.client.call(endpoints.strategyApply, { id, targets: { deviceIds: [foreign] } });
    expect(theirs.envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await client.call(endpoints.strategyApply, { id, targets: { deviceIds: [] } })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    // A self-scope member does not see the administrator's strategy.
    const member = await createUser(t.db, ent, { dataScope: 'self', deptIds: [ent.depts.a1] });
    const memberClient = await t.loginAs(member);
    expect((await memberClient.call(endpoints.strategyDetail, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('a connected headless player applies the strategy and the application ends acknowledged', async () => {
    const player = await activatePlayer(server, client, { name: 'Strategy screen' });
    players.push(player);
    const rules = {
      defaultLevel: 35,
      periods: [{ weekdays: week, start: '00:00', end: '24:00', level: 65 }],
    };
    const { envelope } = await add({ name: 'Loud all day', type: 'volume', rules });
    const id = envelope.payload?.id as string;
    const applied = await client.call(endpoints.strategyApply, { id, targets: { deviceIds: [player.deviceId] } });
    const [command] = applied.envelope.payload?.commands ?? [];
    await commandReaches(client, player.deviceId, command.id, 'acknowledged');
    const application = await waitFor('application acknowledged', async () => {
      const res = await client.call(endpoints.strategyApplication, { strategyId: id });
      const d = res.envelope.payload?.devices[0];
      return d?.state === 'acknowledged' ? d : undefined;
    });
    expect(application).toMatchObject({ deviceName: 'Strategy screen', commandId: command.id });
    const held = player.strategies.get('volume') as ApplyStrategyParams;
    expect(held).toMatchObject({ strategyId: id, version: 1, rules });
    expect(player.volume).toBe(65);
    expect(player.executions).toBe(1);
    const ofDevice = await client.call(endpoints.strategyOfDevice, { deviceId: player.deviceId });
    expect(ofDevice.envelope.payload?.data[0]).toMatchObject({ type: 'volume', state: 'acknowledged' });
  });
});
