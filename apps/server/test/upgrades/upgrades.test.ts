import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ErrorCode, endpoints, UPGRADE_COMMAND_TTL_SEC, type UpgradeRolloutState } from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceCommands,
  devices,
  operationLogs,
  upgradePackages,
  upgradeRolloutDevices,
  upgradeRollouts,
} from '../../src/db/schema/index.js';
import { JOBS } from '../../src/jobs/index.js';
import { applyUpgradeAck, failUnansweredUpgrades, UPGRADE_UNANSWERED_JOB } from '../../src/modules/upgrades/service.js';
import { EXPIRED_REASON, THRESHOLD_HALT } from '../../src/modules/upgrades/texts.js';
import type { HeadlessPlayer } from '../../src/player/player.js';
import { activatePlayer, deviceReaches, EMBEDDED_WS_MQTT, waitFor } from '../devices/helpers.js';
import { insertDevice, insertGroup, insertTag } from '../fixtures/deviceGroups.js';
import { insertUpgradePackage } from '../fixtures/upgrades.js';
import { type ApiClient, BACKENDS, createTestApp, createUser, type TestApp } from '../helpers/index.js';

/**
 * Firmware and APK upgrades end to end in process: packages through signed storage (the
 * server computes size and SHA-256), staged rollouts to real headless players that download,
 * verify and acknowledge each step, the automatic halt past the failure threshold, rollback
 * to the version each device ran before, and the refusals (scope, another device's ack).
 */
describe.each(BACKENDS)('upgrades on %s', (backend) => {
  let t: TestApp;
  let server: string;
  let dir: string;
  let client: ApiClient;
  let ent: Awaited<ReturnType<TestApp['tenant']>>['ent'];
  let admin: Awaited<ReturnType<TestApp['tenant']>>['admin'];
  const players: HeadlessPlayer[] = [];

  const activate = async (name: string, deptId?: string) => {
    const player = await activatePlayer(server, client, { name, deptId });
    players.push(player);
    await deviceReaches(client, player.deviceId, 'online');
    return player;
  };

  /** A package uploaded (the file put where the signed upload names) and verified. */
  const makePackage = async (version: string, body: Buffer, deviceType = '') => {
    const applied = await client.call(endpoints.upgradePackageApply, {
      kind: 'apk',
      version,
      deviceType,
      fileName: `player-${version}.apk`,
      size: body.length,
    });
    expect(applied.envelope.code).toBe(0);
    const { packageId, key } = applied.envelope.payload;
    const early = await client.call(endpoints.upgradeRolloutCreate, { packageId, deviceIds: [players[0].deviceId] });
    expect(early.envelope.code).toBe(ErrorCode.UPGRADE_PACKAGE_NOT_READY);
    await t.services.files.storage.put(key, Readable.from([body]), { contentType: 'application/octet-stream' });
    const verified = await client.call(endpoints.upgradePackageVerify, { id: packageId });
    expect(verified.envelope.code).toBe(0);
    expect(verified.envelope.payload).toMatchObject({
      state: 'ready',
      size: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    });
    return packageId;
  };

  const rolloutReaches = (id: string, state: UpgradeRolloutState) =>
    waitFor(
      `rollout ${state}`,
      async () => {
        const info = await client.call(endpoints.upgradeRolloutInfo, { id });
        return info.envelope.payload?.rollout.state === state ? info.envelope.payload : undefined;
      },
      20_000,
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'marquee-upgrades-'));
    t = await createTestApp(backend, {
      config: { host: '127.0.0.1', mqtt: EMBEDDED_WS_MQTT, storage: { kind: 'local', dir } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    ({ client, ent, admin } = await t.tenant());
    await activate('Upgrade A', ent.depts.a);
    await activate('Upgrade B', ent.depts.a);
    await activate('Upgrade C', ent.depts.b);
  });
  afterAll(async () => {
    for (const p of players) await p.stop().catch(() => {});
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the canary first, waits, then the rest; devices report the new version; rollback sends the previous one', async () => {
    const previous = await makePackage('headless-1.0.0', Buffer.from('the old player'));
    const next = await makePackage('2.0.0', Buffer.from('the new player, version two'));
    const created = await client.call(endpoints.upgradeRolloutCreate, {
      packageId: next,
      deviceIds: players.map((p) => p.deviceId),
      canaryPercent: 30,
      failureThreshold: 50,
    });
    expect(created.envelope.code).toBe(0);
    const id = created.envelope.payload.id;
    // 30% of 3 devices: one canary, downloaded, verified and done; the rest wait for the operator.
    const waiting = await rolloutReaches(id, 'waiting');
    expect(waiting.rollout.counts).toMatchObject({ total: 3, done: 1, queued: 2, failed: 0 });
    const canary = waiting.devices.find((d) => d.stage === 1);
    expect(canary).toMatchObject({ state: 'done', previousVersion: 'headless-1.0.0' });
    const canaryPlayer = players.find((p) => p.deviceId === canary?.deviceId)!;
    expect(canaryPlayer.installed.apk).toBe('2.0.0');
    // The device's reported version becomes its player version.
    await waitFor('version reported', async () => {
      const [row] = await t.db.select().from(devices).where(eq(devices.id, canaryPlayer.deviceId));
      return row.playerVersion === '2.0.0' ? true : undefined;
    });

    const continued = await client.call(endpoints.upgradeRolloutContinue, { id });
    expect(continued.envelope.code).toBe(0);
    const done = await rolloutReaches(id, 'done');
    expect(done.rollout.counts).toMatchObject({ total: 3, done: 3 });
    expect(players.map((p) => p.installed.apk)).toEqual(['2.0.0', '2.0.0', '2.0.0']);
    expect((await client.call(endpoints.upgradeRolloutContinue, { id })).envelope.code).toBe(
      ErrorCode.UPGRADE_ROLLOUT_STATE,
    );
    // The package in use cannot be deleted.
    expect((await client.call(endpoints.upgradePackageDelete, { id: next })).envelope.code).toBe(
      ErrorCode.UPGRADE_PACKAGE_IN_USE,
    );

    // Rollback: the package of the version each device ran before, to the devices upgraded.
    const rolled = await client.call(endpoints.upgradeRolloutRollback, { id });
    expect(rolled.envelope.code).toBe(0);
    expect(rolled.envelope.payload.rolloutIds).toHaveLength(1);
    const back = await rolloutReaches(rolled.envelope.payload.rolloutIds[0], 'done');
    expect(back.rollout).toMatchObject({ packageId: previous, rollbackOf: id, packageVersion: 'headless-1.0.0' });
    expect(players.map((p) => p.installed.apk)).toEqual(['headless-1.0.0', 'headless-1.0.0', 'headless-1.0.0']);
    const after = await client.call(endpoints.upgradeRolloutInfo, { id });
    expect(after.envelope.payload.rollout.state).toBe('rolledBack');
    const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.action, 'upgradeRolloutRollback'));
    expect(logs).toHaveLength(1);
  });

  it('halts by itself when the failures of the stage pass the threshold; the rest are not sent', async () => {
    // A package for another device type: every headless player refuses it.
    const foreign = await makePackage('3.0.0', Buffer.from('for another model'), 'other-model');
    const created = await client.call(endpoints.upgradeRolloutCreate, {
      packageId: foreign,
      deviceIds: players.map((p) => p.deviceId),
      canaryPercent: 50,
      failureThreshold: 40,
    });
    expect(created.envelope.code).toBe(0);
    const id = created.envelope.payload.id;
    const halted = await rolloutReaches(id, 'halted');
    expect(halted.rollout.haltReason).toBe('failure threshold passed');
    expect(halted.rollout.counts.failed).toBeGreaterThanOrEqual(1);
    const rest = halted.devices.filter((d) => d.stage === 2);
    expect(rest.map((d) => d.state)).toEqual(['queued']);
    const failed = halted.devices.find((d) => d.state === 'failed');
    expect(failed?.reason).toContain('device type other-model');
    expect((await client.call(endpoints.upgradeRolloutContinue, { id })).envelope.code).toBe(
      ErrorCode.UPGRADE_ROLLOUT_STATE,
    );
    // No device was upgraded: nothing to roll back.
    expect((await client.call(endpoints.upgradeRolloutRollback, { id })).envelope.code).toBe(
      ErrorCode.UPGRADE_ROLLOUT_STATE,
    );
    const halt = await client.call(endpoints.upgradeRolloutHalt, { id });
    expect(halt.envelope.code).toBe(ErrorCode.UPGRADE_ROLLOUT_STATE);
  });

  it('the player refuses a package whose checksum does not match', async () => {
    const body = Buffer.from('a package altered after it was verified');
    const pkg = await makePackage('4.0.0', body);
    await t.db
      .update(upgradePackages)
      .set({ sha256: createHash('sha256').update('something else').digest('hex') })
      .where(eq(upgradePackages.id, pkg));
    const created = await client.call(endpoints.upgradeRolloutCreate, {
      packageId: pkg,
      deviceIds: [players[0].deviceId],
      canaryPercent: 100,
      failureThreshold: 100,
    });
    const id = created.envelope.payload.id;
    const info = await waitFor('failed', async () => {
      const got = await client.call(endpoints.upgradeRolloutInfo, { id });
      return got.envelope.payload.devices[0].state === 'failed' ? got.envelope.payload : undefined;
    });
    expect(info.devices[0].reason).toContain('checksum mismatch');
    expect(players[0].installed.apk).toBe('headless-1.0.0');
    expect(info.rollout.state).toBe('done');
  });

  it('refuses devices outside the caller\u2019s scope and another device\u2019s ack', async () => {
    const pkg = await makePackage('5.0.0', Buffer.from('five'));
    // Another enterprise: neither its packages nor its devices.
    const other = (await t.tenant()).client;
    expect(
      (await other.call(endpoints.upgradeRolloutCreate, { packageId: pkg, deviceIds: [players[0].deviceId] })).envelope
        .code,
    ).toBe(ErrorCode.NOT_FOUND);
    expect((await other.call(endpoints.upgradePackageList, {})).envelope.payload.total).toBe(0);
    // A staff member of department a cannot target the device of department b.
    const staff = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_and_below' });
    const staffClient = await t.loginAs(staff);
    expect(
      (await staffClient.call(endpoints.upgradeRolloutCreate, { packageId: pkg, deviceIds: [players[2].deviceId] }))
        .envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);

    // Device 0's command acknowledged by device 1 changes nothing.
    const [command] = await t.db
      .insert(deviceCommands)
      .values({
        entId: ent.id,
        deviceId: players[0].deviceId,
        kind: 'upgrade',
        params: {},
        expiresAt: new Date(t.clock.now() + 60_000),
      })
      .returning({ id: deviceCommands.id });
    const created = await client.call(endpoints.upgradeRolloutCreate, {
      packageId: pkg,
      deviceIds: [players[0].deviceId],
      canaryPercent: 100,
      failureThreshold: 100,
    });
    const id = created.envelope.payload.id;
    const info = await rolloutReaches(id, 'done');
    const foreignAck = await applyUpgradeAck(
      t.db,
      t.services.files,
      players[1].deviceId,
      { v: 1, id: command.id, ts: Date.now(), result: 'error', error: { code: 'FAILED', message: 'forged' } },
      new Date(t.clock.now()),
    );
    expect(foreignAck.applied).toBe(false);
    const [sent] = info.devices;
    expect(sent.state).toBe('done');
    const again = await client.call(endpoints.upgradeRolloutInfo, { id });
    expect(again.envelope.payload.devices[0].state).toBe('done');
    // The staff member sees only the devices of its scope in a rollout.
    const seen = await staffClient.call(endpoints.upgradeRolloutInfo, { id });
    expect(seen.envelope.payload.devices.map((d) => d.deviceId)).toEqual([players[0].deviceId]);
  });
  it('rolls back to a chosen earlier package: its command to the devices chosen; refuses a foreign, the same or another type’s package', async () => {
    // Uploaded one after the other (the list of candidates is by upload date).
    const older = await makePackage('7.0.0', Buffer.from('seven'));
    t.clock.advance(1000);
    const other = await makePackage('7.0.1', Buffer.from('seven for another model'), 'other-model');
    t.clock.advance(1000);
    const middle = await makePackage('7.1.0', Buffer.from('seven point one'));
    t.clock.advance(1000);
    const current = await makePackage('7.2.0', Buffer.from('seven point two'));
    t.clock.advance(1000);
    const later = await makePackage('7.3.0', Buffer.from('seven point three'));
    const silent: string[] = [];
    for (const name of ['Back 1', 'Back 2', 'Back 3']) {
      silent.push(await insertDevice(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id, name }));
    }
    // The candidates a rollout of 7.2.0 offers: the ready ones of its kind and type uploaded before it.
    const candidates = await client.call(endpoints.upgradePackageList, { state: 'ready', olderThan: current });
    expect(candidates.envelope.code).toBe(0);
    const versions = candidates.envelope.payload.data.map((p) => p.version);
    expect(versions).toContain('7.0.0');
    expect(versions).toContain('7.1.0');
    expect(versions).not.toContain('7.0.1');
    expect(versions).not.toContain('7.2.0');
    expect(versions).not.toContain('7.3.0');
    expect(later).toBeTruthy();

    /** A rollout of 7.2.0 to all of `deviceIds` at once; the first acks done, the second fails. */
    const rolloutWith = async (deviceIds: string[]) => {
      const created = await client.call(endpoints.upgradeRolloutCreate, {
        packageId: current,
        deviceIds,
        canaryPercent: 100,
        failureThreshold: 100,
      });
      expect(created.envelope.code).toBe(0);
      const id = created.envelope.payload.id;
      const rows = await t.db.select().from(upgradeRolloutDevices).where(eq(upgradeRolloutDevices.rolloutId, id));
      const row = (deviceId: string) => rows.find((r) => r.deviceId === deviceId)!;
      const now = new Date(t.clock.now());
      const ok = { v: 1 as const, ts: Date.now(), result: 'ok' as const, data: { stage: 'done' } };
      await applyUpgradeAck(t.db, t.services.files, deviceIds[0], { ...ok, id: row(deviceIds[0]).commandId! }, now);
      const error = { code: 'FAILED' as const, message: 'broken' };
      const failed = { v: 1 as const, ts: Date.now(), result: 'error' as const, error };
      await applyUpgradeAck(t.db, t.services.files, deviceIds[1], { ...failed, id: row(deviceIds[1]).commandId! }, now);
      return id;
    };
    const id = await rolloutWith(silent);

    // Refusals: another enterprise's package, the rollout's own, another device type; nothing changes.
    const foreign = await insertUpgradePackage(t, (await t.tenant()).ent.id, { version: '1.0.0' });
    const refused = async (packageId: string) =>
      (await client.call(endpoints.upgradeRolloutRollback, { id, packageId, devices: 'all' })).envelope.code;
    expect(await refused(foreign)).toBe(ErrorCode.NOT_FOUND);
    expect(await refused(current)).toBe(ErrorCode.UPGRADE_ROLLBACK_SAME_PACKAGE);
    expect(await refused(other)).toBe(ErrorCode.UPGRADE_ROLLBACK_PACKAGE_MISMATCH);
    const [still] = await t.db.select().from(upgradeRollouts).where(eq(upgradeRollouts.id, id));
    expect(still.state).toBe('rolling');

    // 7.1.0 to every finished device (the one upgraded and the one that failed, not the one still waiting).
    const rolled = await client.call(endpoints.upgradeRolloutRollback, { id, packageId: middle, devices: 'all' });
    expect(rolled.envelope.code).toBe(0);
    expect(rolled.envelope.payload.rolloutIds).toHaveLength(1);
    const backId = rolled.envelope.payload.rolloutIds[0];
    const [back] = await t.db.select().from(upgradeRollouts).where(eq(upgradeRollouts.id, backId));
    expect(back).toMatchObject({ packageId: middle, rollbackOf: id, state: 'rolling' });
    const backRows = await t.db.select().from(upgradeRolloutDevices).where(eq(upgradeRolloutDevices.rolloutId, backId));
    expect(backRows.map((r) => r.deviceId).sort()).toEqual(silent.slice(0, 2).sort());
    const commands = await t.db
      .select()
      .from(deviceCommands)
      .where(
        inArray(
          deviceCommands.id,
          backRows.map((r) => r.commandId!),
        ),
      );
    expect(commands.map((c) => [c.kind, (c.params as { version: string }).version])).toEqual([
      ['upgrade', '7.1.0'],
      ['upgrade', '7.1.0'],
    ]);
    const [ended] = await t.db.select().from(upgradeRollouts).where(eq(upgradeRollouts.id, id));
    expect(ended.state).toBe('rolledBack');

    // Only the failed devices of another rollout, to 7.0.0.
    const second = await rolloutWith(silent.slice(0, 2));
    const onlyFailed = await client.call(endpoints.upgradeRolloutRollback, {
      id: second,
      packageId: older,
      devices: 'failed',
    });
    expect(onlyFailed.envelope.code).toBe(0);
    const failedRows = await t.db
      .select({ deviceId: upgradeRolloutDevices.deviceId, packageId: upgradeRollouts.packageId })
      .from(upgradeRolloutDevices)
      .innerJoin(upgradeRollouts, eq(upgradeRollouts.id, upgradeRolloutDevices.rolloutId))
      .where(eq(upgradeRolloutDevices.rolloutId, onlyFailed.envelope.payload.rolloutIds[0]));
    expect(failedRows).toEqual([{ deviceId: silent[1], packageId: older }]);
  });

  it('rolls out to groups and tags: the managed devices in them, once each, frozen at creation', async () => {
    const pkg = await makePackage('8.0.0', Buffer.from('eight'));
    const staff = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_and_below' });
    const staffClient = await t.loginAs(staff);
    const group = await insertGroup(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id });
    const inA = await insertDevice(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id, groupId: group });
    // In the group, but outside the staff member's data scope.
    const inB = await insertDevice(t, { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id, groupId: group });
    const tagged = await insertDevice(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id });
    // The group's device in department a is tagged too: it is sent the package once.
    const tag = await insertTag(t, ent.id, { deviceIds: [inA, tagged, inB] });
    const created = await staffClient.call(endpoints.upgradeRolloutCreate, {
      packageId: pkg,
      groupIds: [group],
      tagIds: [tag],
      canaryPercent: 50,
      failureThreshold: 50,
    });
    expect(created.envelope.code).toBe(0);
    const id = created.envelope.payload.id;
    const rows = () => t.db.select().from(upgradeRolloutDevices).where(eq(upgradeRolloutDevices.rolloutId, id));
    const before = await rows();
    expect(before.map((r) => r.deviceId).sort()).toEqual([inA, tagged].sort());
    // Canary 50% of the two: one now, one after continue.
    expect(before.filter((r) => r.state === 'sent')).toHaveLength(1);
    const sentTo = await t.db
      .select({ deviceId: deviceCommands.deviceId })
      .from(deviceCommands)
      .where(and(eq(deviceCommands.kind, 'upgrade'), eq(deviceCommands.deviceId, inB)));
    expect(sentTo).toEqual([]);
    // A device joining the group later is not in the rollout.
    await insertDevice(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id, groupId: group });
    expect((await staffClient.call(endpoints.upgradeRolloutContinue, { id })).envelope.code).toBe(0);
    expect((await rows()).map((r) => r.deviceId).sort()).toEqual([inA, tagged].sort());

    // A group holding only devices outside the caller's scope: a clear refusal, nothing stored.
    const outside = await insertGroup(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id });
    await insertDevice(t, { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id, groupId: outside });
    const count = (await t.db.select().from(upgradeRollouts)).length;
    const empty = await staffClient.call(endpoints.upgradeRolloutCreate, { packageId: pkg, groupIds: [outside] });
    expect(empty.envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect(empty.envelope.message).toMatch(/设备|device|デバイス/);
    expect((await t.db.select().from(upgradeRollouts)).length).toBe(count);
  });

  it('fails the devices that never answer once their command expired, and halts past the threshold (the job)', async () => {
    const pkg = await makePackage('6.0.0', Buffer.from('six'));
    // Devices with no player: their commands are never acknowledged.
    const silent: string[] = [];
    for (const name of ['Silent 1', 'Silent 2', 'Silent 3', 'Silent 4']) {
      silent.push(await insertDevice(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id, name }));
    }
    const create = async (failureThreshold: number, autoContinue: boolean) => {
      const created = await client.call(endpoints.upgradeRolloutCreate, {
        packageId: pkg,
        deviceIds: silent.slice(0, 2).concat(autoContinue ? silent.slice(2) : []),
        canaryPercent: 50,
        failureThreshold,
        autoContinue,
      });
      expect(created.envelope.code).toBe(0);
      return created.envelope.payload.id;
    };
    // Two devices, one canary, threshold 40: its silence halts the rollout.
    const halting = await create(40, false);
    // Four devices, two canaries, threshold 100, autoContinue: the stage finishes, the rest are sent.
    const going = await create(100, true);
    const rows = (id: string) =>
      t.db.select().from(upgradeRolloutDevices).where(eq(upgradeRolloutDevices.rolloutId, id));
    const rollout = async (id: string) =>
      (await t.db.select().from(upgradeRollouts).where(eq(upgradeRollouts.id, id)))[0];

    // Before the commands expire: nothing changes.
    t.clock.advance((UPGRADE_COMMAND_TTL_SEC - 60) * 1000);
    expect((await failUnansweredUpgrades(t.db, t.services.files, new Date(t.clock.now()))).failed).toBe(0);
    expect((await rows(halting)).filter((r) => r.state === 'sent')).toHaveLength(1);

    // Past the commands' expiry: the registered job fails the silent canaries.
    t.clock.advance(120 * 1000);
    const job = JOBS.find((j) => j.id === UPGRADE_UNANSWERED_JOB)!;
    expect(job.schedule).toBe('* * * * *');
    const log = { info: () => {}, debug: () => {}, warn: () => {}, error: () => {} } as never;
    await job.handler({}, { services: t.services, log, jobId: 'test', retryCount: 0, retryLimit: 2 });

    const halted = await rows(halting);
    expect(halted.filter((r) => r.stage === 1).map((r) => [r.state, r.reason])).toEqual([['failed', EXPIRED_REASON]]);
    expect(halted.filter((r) => r.stage === 2).map((r) => r.state)).toEqual(['queued']);
    expect(await rollout(halting)).toMatchObject({ state: 'halted', haltReason: THRESHOLD_HALT });

    const went = await rows(going);
    expect(went.filter((r) => r.stage === 1).map((r) => r.state)).toEqual(['failed', 'failed']);
    // The rest got their commands (the new ones, a day from now).
    const rest = went.filter((r) => r.stage === 2);
    expect(rest.map((r) => r.state)).toEqual(['sent', 'sent']);
    const commands = await t.db
      .select()
      .from(deviceCommands)
      .where(
        inArray(
          deviceCommands.id,
          rest.map((r) => r.commandId!),
        ),
      );
    expect(commands.every((c) => c.expiresAt!.getTime() > t.clock.now())).toBe(true);
    expect(await rollout(going)).toMatchObject({ state: 'rolling', stage: 2 });

    // Run again: nothing more (already failed, the rest not expired).
    expect((await failUnansweredUpgrades(t.db, t.services.files, new Date(t.clock.now()))).failed).toBe(0);
    // A day later the rest fail too and the rollout is done (threshold 100).
    t.clock.advance((UPGRADE_COMMAND_TTL_SEC + 60) * 1000);
    expect((await failUnansweredUpgrades(t.db, t.services.files, new Date(t.clock.now()))).failed).toBe(2);
    expect(await rollout(going)).toMatchObject({ state: 'done' });
  });
});
