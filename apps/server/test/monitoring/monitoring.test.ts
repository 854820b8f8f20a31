import { ErrorCode, endpoints } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  devices,
  enterprises,
  monitorGrants,
  monitorPhotos,
  monitorTasks,
  notices,
} from '../../src/db/schema/index.js';
import { distanceMetres } from '../../src/modules/monitoring/checks.js';
import { readExif } from '../../src/modules/monitoring/exif.js';
import { markOverdue } from '../../src/modules/monitoring/service.js';
import { insertAd } from '../fixtures/ads.js';
import { insertDevice } from '../fixtures/deviceGroups.js';
import { insertMonitor, isoDay, storedPhoto } from '../fixtures/monitoring.js';
import { BACKENDS, createTestApp, type TestApp } from '../helpers/index.js';

/**
 * Third-party monitoring (issue 30): a monitor applies, the enterprise's notice agrees or
 * refuses, and the grant decides what the monitor sees; a plan becomes one task per screen;
 * the monitor photographs, each photograph checked against the screen's position and the
 * schedule; completes; the owner closes and reopens; the job marks overdue tasks.
 */

const DAY = 86_400_000;

describe.each(BACKENDS)('third-party monitoring on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  /** An enterprise with a social credit code, a screen at a known point and a passed ad reaching it. */
  async function world() {
    const { ent, admin, client } = await t.tenant();
    const code = `91${ent.id.replace(/-/g, '').slice(0, 16).toUpperCase()}`;
    await t.db.update(enterprises).set({ socialCreditCode: code }).where(eq(enterprises.id, ent.id));
    const deviceId = await insertDevice(t, {
      entId: ent.id,
      deptId: ent.depts.root,
      ownerId: admin.id,
      name: 'Bund 1',
    });
    const device2 = await insertDevice(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id, name: 'Bund 2' });
    await t.db.update(devices).set({ latitude: 31.24, longitude: 121.49 }).where(eq(devices.id, deviceId));
    const adId = await insertAd(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id, reviewState: 'passed' });
    await t.db
      .update(devices)
      .set({ activatedAt: new Date(t.clock.now()) })
      .where(eq(devices.id, deviceId));
    return { ent, admin, client, code, deviceId, device2, adId };
  }

  it('applies, is refused, applies again, is agreed: only then may the monitor be chosen and see its tasks', async () => {
    const w = await world();
    const monitor = await insertMonitor(t);
    const mc = await t.loginAs(monitor);
    // Not a monitor: applying is not for it.
    expect((await w.client.call(endpoints.monitoringApply, { socialCreditCode: 'X' })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
    expect((await mc.call(endpoints.monitoringApply, { socialCreditCode: 'NOPE' })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    const first = await mc.call(endpoints.monitoringApply, { socialCreditCode: w.code, message: 'Citywide' });
    expect(first.envelope.code).toBe(0);
    expect((await mc.call(endpoints.monitoringApply, { socialCreditCode: w.code })).envelope.code).toBe(
      ErrorCode.MONITOR_APPLICATION_PENDING,
    );
    const [notice] = await t.db.select().from(notices).where(eq(notices.id, first.envelope.payload.noticeId));
    expect(notice).toMatchObject({ entId: w.ent.id, type: 'system' });

    // Refused: no grant, the plan cannot name the monitor.
    expect((await w.client.call(endpoints.monitorApply, { noticeId: notice.id, status: 0 })).envelope.code).toBe(0);
    expect((await mc.call(endpoints.monitoringApplications, {})).envelope.payload).toMatchObject([
      { status: 'refused', granted: false },
    ]);
    const today = isoDay(t.clock.now());
    const plan = {
      name: 'Launch',
      monitorAccountId: monitor.id,
      adIds: [w.adId],
      deviceIds: [w.deviceId, w.device2],
      startDate: today,
      endDate: isoDay(t.clock.now() + 2 * DAY),
      photosRequired: 1,
    };
    expect((await w.client.call(endpoints.monitoringPlanCreate, plan)).envelope.code).toBe(
      ErrorCode.MONITOR_NOT_GRANTED,
    );
    expect((await w.client.call(endpoints.monitoringMonitors, {})).envelope.payload).toEqual([]);

    // Agreed: the grant makes it a choice, and the plan becomes one task per screen.
    const again = await mc.call(endpoints.monitoringApply, { socialCreditCode: w.code });
    expect(
      (await w.client.call(endpoints.monitorApply, { noticeId: again.envelope.payload.noticeId, status: 1 })).envelope
        .code,
    ).toBe(0);
    expect((await w.client.call(endpoints.monitoringMonitors, {})).envelope.payload).toMatchObject([
      { accountId: monitor.id },
    ]);
    const created = await w.client.call(endpoints.monitoringPlanCreate, plan);
    expect(created.envelope).toMatchObject({ code: 0, payload: { tasks: 2 } });
    const mine = await mc.call(endpoints.monitoringTaskList, { page: 1, size: 10 });
    expect(mine.envelope.payload.total).toBe(2);
    expect(mine.envelope.payload.data.every((task) => task.state === 'pendingView')).toBe(true);

    // Another monitor (granted elsewhere) sees none of them; the plan's side cannot be reached by a monitor.
    const stranger = await t.loginAs(await insertMonitor(t, (await t.tenant()).ent.id));
    expect((await stranger.call(endpoints.monitoringTaskList, { page: 1, size: 10 })).envelope.payload.total).toBe(0);
    const taskId = mine.envelope.payload.data[0].id;
    expect((await stranger.call(endpoints.monitoringTaskInfo, { id: taskId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await mc.call(endpoints.monitoringPlanList, { page: 1, size: 10 })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );

    // Revoking the grant hides the tasks at once.
    await t.db
      .update(monitorGrants)
      .set({ revokedAt: new Date(t.clock.now()) })
      .where(eq(monitorGrants.entId, w.ent.id));
    expect((await mc.call(endpoints.monitoringTaskList, { page: 1, size: 10 })).envelope.payload.total).toBe(0);
  });

  it('runs a task through its states: view, photograph, complete; close, reopen; overdue', async () => {
    const w = await world();
    const monitor = await insertMonitor(t, w.ent.id);
    const mc = await t.loginAs(monitor);
    const created = await w.client.call(endpoints.monitoringPlanCreate, {
      name: 'Week 1',
      monitorAccountId: monitor.id,
      adIds: [w.adId],
      deviceIds: [w.deviceId, w.device2],
      startDate: isoDay(t.clock.now()),
      endDate: isoDay(t.clock.now() + DAY),
      photosRequired: 1,
    });
    expect(created.envelope.code).toBe(0);
    const tasks = await w.client.call(endpoints.monitoringTaskList, {
      page: 1,
      size: 10,
      planId: created.envelope.payload.id,
    });
    const byDevice = new Map(tasks.envelope.payload.data.map((task) => [task.deviceId, task.id]));
    const a = byDevice.get(w.deviceId) as string;
    const b = byDevice.get(w.device2) as string;

    expect((await mc.call(endpoints.monitoringTaskView, { id: a })).envelope.payload).toEqual({ state: 'pending' });
    // Completing without the photographs the plan asks for is refused.
    expect((await mc.call(endpoints.monitoringTaskComplete, { id: a })).envelope.code).toBe(
      ErrorCode.MONITOR_PHOTOS_MISSING,
    );
    // The console's upload: apply (type and size checked), then the stored file is verified.
    expect(
      (await mc.call(endpoints.monitoringPhotoApply, { taskId: a, size: 10, contentType: 'application/pdf' })).envelope
        .code,
    ).toBe(ErrorCode.FILE_FORMAT_ERROR);
    const applied = await mc.call(endpoints.monitoringPhotoApply, {
      taskId: a,
      size: 10,
      contentType: 'image/jpeg',
      latitude: 31.2405,
      longitude: 121.4901,
    });
    expect(applied.envelope.code).toBe(0);
    expect(applied.envelope.payload.key).toContain(`/${w.ent.id}/monitoring/`);
    const photoId = await storedPhoto(t, w.ent.id, a);
    // As the browser sent it: about 60 m from the screen.
    await t.db
      .update(monitorPhotos)
      .set({ browserLatitude: 31.2405, browserLongitude: 121.4901 })
      .where(eq(monitorPhotos.id, photoId));
    const verified = await mc.call(endpoints.monitoringPhotoVerify, { photoId });
    expect(verified.envelope).toMatchObject({ code: 0, payload: { source: 'browser', far: false } });
    expect(verified.envelope.payload.distanceM).toBeLessThan(500);
    expect(verified.envelope.payload.url).toBeTruthy();
    // The owner cannot complete for the monitor; the monitor completes.
    expect((await w.client.call(endpoints.monitoringTaskComplete, { id: a })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await mc.call(endpoints.monitoringTaskComplete, { id: a })).envelope.payload).toEqual({
      state: 'completed',
    });
    expect((await mc.call(endpoints.monitoringTaskComplete, { id: a })).envelope.code).toBe(
      ErrorCode.MONITOR_TASK_STATE,
    );

    // The advertiser's ad report: the evidence of the ad.
    const evidence = await w.client.call(endpoints.monitoringAdEvidence, { adId: w.adId });
    expect(evidence.envelope.payload.find((e) => e.taskId === a)).toMatchObject({
      state: 'completed',
      photos: [{ id: photoId }],
    });

    // Close (not completed -> not completed), a monitor may not; reopen -> pending view again.
    expect((await mc.call(endpoints.monitoringTaskClose, { id: b })).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await w.client.call(endpoints.monitoringTaskClose, { id: b })).envelope.payload).toEqual({
      state: 'notCompleted',
    });
    expect((await w.client.call(endpoints.monitoringTaskClose, { id: b })).envelope.code).toBe(
      ErrorCode.MONITOR_TASK_STATE,
    );
    expect(
      (await mc.call(endpoints.monitoringPhotoApply, { taskId: b, size: 10, contentType: 'image/png' })).envelope.code,
    ).toBe(ErrorCode.MONITOR_TASK_STATE);
    expect((await w.client.call(endpoints.monitoringTaskReopen, { id: b })).envelope.payload).toEqual({
      state: 'pendingView',
    });

    // The overdue job: after the plan's last day the open task is overdue, the completed one stays.
    expect(await markOverdue(t.db, new Date(t.clock.now()))).toBe(0);
    const later = new Date(t.clock.now() + 3 * DAY);
    expect(await markOverdue(t.db, later)).toBeGreaterThanOrEqual(1);
    const [rowB] = await t.db.select().from(monitorTasks).where(eq(monitorTasks.id, b));
    const [rowA] = await t.db.select().from(monitorTasks).where(eq(monitorTasks.id, a));
    expect(rowB.state).toBe('overdue');
    expect(rowA.state).toBe('completed');
  });

  it('flags a photograph far from the screen and one taken when the ad was not scheduled', async () => {
    const w = await world();
    const monitor = await insertMonitor(t, w.ent.id);
    const mc = await t.loginAs(monitor);
    // A second ad, paused: never scheduled.
    const idle = await insertAd(t, {
      entId: w.ent.id,
      deptId: w.ent.depts.root,
      ownerId: w.admin.id,
      reviewState: 'failed',
    });
    const created = await w.client.call(endpoints.monitoringPlanCreate, {
      name: 'Idle ad',
      monitorAccountId: monitor.id,
      adIds: [idle],
      deviceIds: [w.deviceId],
      startDate: isoDay(t.clock.now()),
      endDate: isoDay(t.clock.now() + DAY),
      photosRequired: 1,
    });
    const [task] = (
      await mc.call(endpoints.monitoringTaskList, { page: 1, size: 10, planId: created.envelope.payload.id })
    ).envelope.payload.data;
    const photoId = await storedPhoto(t, w.ent.id, task.id);
    // Taken 2 km north, at the call's time.
    await t.db
      .update(monitorPhotos)
      .set({ browserLatitude: 31.258, browserLongitude: 121.49, browserTakenAt: new Date(t.clock.now()) })
      .where(eq(monitorPhotos.id, photoId));
    const verified = await mc.call(endpoints.monitoringPhotoVerify, { photoId });
    expect(verified.envelope).toMatchObject({ code: 0, payload: { far: true, scheduled: false, source: 'browser' } });
    expect(verified.envelope.payload.distanceM).toBeGreaterThan(1900);
    const info = await w.client.call(endpoints.monitoringTaskInfo, { id: task.id });
    expect(info.envelope.payload.task).toMatchObject({ photos: 1, flagged: 1 });
  });

  it('reads distance and EXIF', () => {
    expect(Math.round(distanceMetres({ lat: 0, lng: 0 }, { lat: 0, lng: 1 }))).toBe(111_195);
    expect(readExif(undefined)).toEqual({ takenAt: null, latitude: null, longitude: null });
    expect(readExif(Buffer.from('garbage bytes here'))).toEqual({ takenAt: null, latitude: null, longitude: null });
  });
});
