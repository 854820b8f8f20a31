import { AD_MAX_MATERIALS, ErrorCode, endpoints, RefType } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, allocations, devices, materials, operationLogs } from '../src/db/schema/index.js';
import { createAdvertiser } from '../src/modules/advertisers/service.js';
import { insertTemplate } from '../src/modules/templates/repository.js';
import { adBody, insertPlan, ownMaterial } from './fixtures/ads.js';
import { insertTag } from './fixtures/deviceGroups.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  DAY,
  TEST_PASSWORD,
  type TestApp,
  type TestEnterprise,
  type TestUser,
  uniqueName,
} from './helpers/index.js';

describe.each(BACKENDS)('ads and promotion plans on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  interface Tenant {
    ent: TestEnterprise;
    admin: TestUser;
    client: ApiClient;
    own: { entId: string; deptId: string; ownerId: string };
  }

  async function tenant(): Promise<Tenant> {
    const ent = await createEnterprise(t.db);
    const admin = await createUser(t.db, ent, { isEntAdmin: true });
    const client = await t.loginAs(admin);
    return { ent, admin, client, own: { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id } };
  }

  /** Creates an ad through the API; answers its id. */
  async function create(c: Tenant, extra: Record<string, unknown> = {}) {
    const material = await ownMaterial(t, c.own);
    const res = await c.client.call(endpoints.adCreate, adBody([material], t.clock.now(), extra) as never);
    expect(res.envelope.code).toBe(0);
    return { id: res.envelope.payload.id, number: res.envelope.payload.number, material };
  }

  async function info(c: Tenant, id: string) {
    const res = await c.client.call(endpoints.adInfo, { id });
    expect(res.envelope.code).toBe(0);
    return res.envelope.payload;
  }

  it('creates an ad with a unique 9-digit number in the default plan, pending audit', async () => {
    const c = await tenant();
    const a = await create(c);
    const b = await create(c, { name: 'Second' });
    expect(a.number).toMatch(/^\d{9}$/);
    expect(b.number).not.toBe(a.number);
    const ad = await info(c, a.id);
    expect(ad).toMatchObject({
      number: a.number,
      name: 'Spring sale',
      status: 'pendingAudit',
      reviewState: 'pending',
      reviewRound: 1,
      auditTime: null,
      materialIds: [a.material],
      materials: [{ id: a.material }],
      periods: [
        { start: '08:00', end: '12:00' },
        { start: '13:00', end: '18:00' },
      ],
      monitorUrl: 'https://monitor.example.com/imp?id=1',
      hasPermission: true,
      reviews: [],
    });
    const plans = await c.client.call(endpoints.planList, {});
    const defaultPlan = plans.envelope.payload.data.find((p) => p.isDefault);
    expect(defaultPlan).toMatchObject({ id: ad.planId, adCount: 2, hasPermission: false });
    expect(ad.planName).toBe(defaultPlan?.name);
    // One default plan, however often it is asked for.
    expect(plans.envelope.payload.data.filter((p) => p.isDefault)).toHaveLength(1);
  });

  it('takes a layout instead of materials, and the layout cannot be deleted while used', async () => {
    const c = await tenant();
    const layout = await insertTemplate(t.db, { ...c.own, name: 'Layout for ads' });
    const res = await c.client.call(endpoints.adCreate, adBody([], t.clock.now(), { layoutId: layout.id }) as never);
    expect(res.envelope.code).toBe(0);
    expect(await info(c, res.envelope.payload.id)).toMatchObject({ layoutId: layout.id, layoutName: 'Layout for ads' });
    const del = await c.client.call(endpoints.templateDelete, { id: layout.id });
    expect(del.envelope.code).toBe(ErrorCode.LAYOUT_IN_USE);
  });

  it('review: pass records auditor and time; a second decision on the same review is CONFLICT', async () => {
    const c = await tenant();
    const { id } = await create(c);
    const failNoReason = await c.client.call(endpoints.adAuditFail, { id, reason: '  ' });
    expect(failNoReason.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const pass = await c.client.call(endpoints.adAuditPass, { id, round: 1 });
    expect(pass.envelope).toMatchObject({ code: 0, payload: { reviewState: 'passed' } });
    // Decisions cannot be changed.
    expect((await c.client.call(endpoints.adAuditPass, { id })).envelope.code).toBe(ErrorCode.CONFLICT);
    expect((await c.client.call(endpoints.adAuditFail, { id, reason: 'Changed my mind' })).envelope.code).toBe(
      ErrorCode.CONFLICT,
    );
    expect((await c.client.call(endpoints.adSecondAuditPass, { id })).envelope.code).toBe(ErrorCode.CONFLICT);
    const ad = await info(c, id);
    expect(ad).toMatchObject({
      reviewState: 'passed',
      // Passed and begun, but no target has downloaded it yet.
      status: 'pendingPlay',
      auditTime: new Date(t.clock.now()).toISOString(),
      auditorName: expect.any(String),
      reviews: [{ round: 1, stage: 'first', decision: 'pass', auditorId: c.admin.id }],
    });
    // A target reports the download: playing.
    await t.db
      .update(ads)
      .set({ downloadedAt: new Date(t.clock.now()) })
      .where(eq(ads.id, id));
    expect((await info(c, id)).status).toBe('playing');
    const playing = await c.client.call(endpoints.adList, { status: 'playing' });
    expect(playing.envelope.payload.data.map((a) => a.id)).toEqual([id]);
  });

  it('a failed review keeps its reason; editing sends a decided ad back to review in a new round', async () => {
    const c = await tenant();
    const { id, material } = await create(c);
    const fail = await c.client.call(endpoints.adAuditFail, { id, reason: 'Blurry picture' });
    expect(fail.envelope.payload).toEqual({ reviewState: 'failed' });
    expect(await info(c, id)).toMatchObject({ status: 'auditFailed', auditReason: 'Blurry picture' });
    // Resubmitted: round 2, pending.
    const edit = await c.client.call(endpoints.adUpdate, {
      id,
      ...adBody([material], t.clock.now(), { name: 'Sharper' }),
    } as never);
    expect(edit.envelope.payload).toEqual({ reviewRound: 2, status: 'pendingAudit' });
    // The auditor who opened round 1 cannot decide round 2 unseen.
    expect((await c.client.call(endpoints.adAuditPass, { id, round: 1 })).envelope.code).toBe(ErrorCode.CONFLICT);
    expect((await c.client.call(endpoints.adAuditPass, { id, round: 2 })).envelope.code).toBe(0);
    await t.db
      .update(ads)
      .set({ downloadedAt: new Date(t.clock.now()) })
      .where(eq(ads.id, id));
    expect((await info(c, id)).status).toBe('playing');
    // Editing a serving ad sends it back to review.
    const again = await c.client.call(endpoints.adUpdate, {
      id,
      ...adBody([material], t.clock.now(), { name: 'Sharper still' }),
    } as never);
    expect(again.envelope.payload).toEqual({ reviewRound: 3, status: 'pendingAudit' });
    const ad = await info(c, id);
    expect(ad).toMatchObject({ name: 'Sharper still', auditTime: null, auditReason: null });
    expect(ad.reviews.map((r) => [r.round, r.decision])).toEqual([
      [1, 'fail'],
      [2, 'pass'],
    ]);
  });

  it('an edit while pending opens a new round: the auditor of the old round cannot pass it unseen', async () => {
    const c = await tenant();
    const { id, material } = await create(c);
    const edit = await c.client.call(endpoints.adUpdate, {
      id,
      ...adBody([material], t.clock.now(), { name: 'Changed under review' }),
    } as never);
    expect(edit.envelope.payload).toEqual({ reviewRound: 2, status: 'pendingAudit' });
    expect((await c.client.call(endpoints.adAuditPass, { id, round: 1 })).envelope.code).toBe(ErrorCode.CONFLICT);
    expect((await c.client.call(endpoints.adAuditPass, { id, round: 2 })).envelope.code).toBe(0);
  });

  it('second audit: where the enterprise requires it, the first pass waits for a second decision', async () => {
    const c = await tenant();
    expect((await c.client.call(endpoints.adSettings, {})).envelope.payload).toEqual({ requireSecondAudit: false });
    expect((await c.client.call(endpoints.adSaveSettings, { requireSecondAudit: true })).envelope.code).toBe(0);
    expect((await c.client.call(endpoints.adSettings, {})).envelope.payload).toEqual({ requireSecondAudit: true });
    const { id } = await create(c);
    expect((await c.client.call(endpoints.adSecondAuditPass, { id })).envelope.code).toBe(ErrorCode.CONFLICT);
    expect((await c.client.call(endpoints.adAuditPass, { id })).envelope.payload).toEqual({
      reviewState: 'pendingSecond',
    });
    expect(await info(c, id)).toMatchObject({ status: 'pendingAudit', reviewState: 'pendingSecond' });
    expect((await c.client.call(endpoints.adAuditPass, { id })).envelope.code).toBe(ErrorCode.CONFLICT);
    expect((await c.client.call(endpoints.adSecondAuditPass, { id })).envelope.payload).toEqual({
      reviewState: 'passed',
    });
    expect((await c.client.call(endpoints.adSecondAuditFail, { id, reason: 'x' })).envelope.code).toBe(
      ErrorCode.CONFLICT,
    );
    const second = await create(c);
    await c.client.call(endpoints.adAuditPass, { id: second.id });
    const failed = await c.client.call(endpoints.adSecondAuditFail, { id: second.id, reason: 'Wrong brand' });
    expect(failed.envelope.payload).toEqual({ reviewState: 'failed' });
    expect(await info(c, second.id)).toMatchObject({ status: 'auditFailed', auditReason: 'Wrong brand' });
  });

  it('at most 20 materials per release', async () => {
    const c = await tenant();
    const ids: string[] = [];
    for (let i = 0; i <= AD_MAX_MATERIALS; i++) ids.push(await ownMaterial(t, c.own));
    const over = await c.client.call(endpoints.adCreate, adBody(ids, t.clock.now()) as never);
    expect(over.envelope.code).toBe(ErrorCode.AD_TOO_MANY_MATERIALS);
    const twenty = await c.client.call(endpoints.adCreate, adBody(ids.slice(0, 20), t.clock.now()) as never);
    expect(twenty.envelope.code).toBe(0);
  });

  it('play counts are 1 to 99999 with min not above max; content and period rules', async () => {
    const c = await tenant();
    const m = await ownMaterial(t, c.own);
    const now = t.clock.now();
    for (const extra of [
      { playsMin: 0 },
      { playsMax: 100000 },
      { playsMin: 30, playsMax: 20 },
      { playsMin: 2.5 },
      { materialIds: [] },
      { layoutId: 'some-layout' },
      { endAt: new Date(now - 2 * DAY).toISOString() },
      { name: 'x'.repeat(51) },
      { type: 'banner' },
    ]) {
      const res = await c.client.call(endpoints.adCreate, adBody([m], now, extra) as never);
      expect(res.envelope.code, JSON.stringify(extra)).toBe(ErrorCode.INVALID_PARAMS);
    }
    const edge = await c.client.call(endpoints.adCreate, adBody([m], now, { playsMin: 1, playsMax: 99999 }) as never);
    expect(edge.envelope.code).toBe(0);
  });

  it('time periods of the day: time conflict and overlapping periods are refused', async () => {
    const c = await tenant();
    const m = await ownMaterial(t, c.own);
    const overlap = await c.client.call(
      endpoints.adCreate,
      adBody([m], t.clock.now(), {
        periods: [
          { start: '08:00', end: '12:00' },
          { start: '11:30', end: '14:00' },
        ],
      }) as never,
      { language: 'en-US' },
    );
    expect(overlap.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(overlap.envelope.message).toMatch(/overlap/i);
    const backwards = await c.client.call(
      endpoints.adCreate,
      adBody([m], t.clock.now(), { periods: [{ start: '18:00', end: '09:00' }] }) as never,
    );
    expect(backwards.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const same = await c.client.call(
      endpoints.adCreate,
      adBody([m], t.clock.now(), { periods: [{ start: '09:00', end: '09:00' }] }) as never,
    );
    expect(same.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('the third-party monitoring address must be an http(s) URL of at most 500 characters', async () => {
    const c = await tenant();
    const m = await ownMaterial(t, c.own);
    for (const monitorUrl of ['ftp://example.com/x', 'not a url', `https://example.com/${'x'.repeat(481)}`]) {
      const res = await c.client.call(endpoints.adCreate, adBody([m], t.clock.now(), { monitorUrl }) as never);
      expect(res.envelope.code, monitorUrl).toBe(ErrorCode.AD_MONITOR_URL_INVALID);
    }
    const none = await c.client.call(endpoints.adCreate, adBody([m], t.clock.now(), { monitorUrl: null }) as never);
    expect(none.envelope.code).toBe(0);
    expect((await info(c, none.envelope.payload.id)).monitorUrl).toBeNull();
  });

  it('content must be valid materials of the enterprise; targets must be in the caller scope', async () => {
    const c = await tenant();
    const other = await tenant();
    const foreign = await ownMaterial(t, other.own);
    const res = await c.client.call(endpoints.adCreate, adBody([foreign], t.clock.now()) as never);
    expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
    const processing = await ownMaterial(t, c.own);
    await t.db.update(materials).set({ status: 'processing' }).where(eq(materials.id, processing));
    const notReady = await c.client.call(endpoints.adCreate, adBody([processing], t.clock.now()) as never);
    expect(notReady.envelope.code).toBe(ErrorCode.MATERIAL_INVALID);

    const m = await ownMaterial(t, c.own);
    const [mine] = await t.db
      .insert(devices)
      .values({ entId: c.ent.id, deptId: c.ent.depts.root, ownerId: c.admin.id, name: 'Lobby screen' })
      .returning({ id: devices.id });
    const [theirs] = await t.db
      .insert(devices)
      .values({ entId: other.ent.id, deptId: other.ent.depts.root, ownerId: other.admin.id, name: 'Other screen' })
      .returning({ id: devices.id });
    const targets = (deviceIds: string[], deptIds: string[] = []) => ({
      targets: { deviceIds, groupIds: [], tagIds: [], deptIds, spliceIds: [] },
    });
    const good = await c.client.call(
      endpoints.adCreate,
      adBody([m], t.clock.now(), targets([mine.id], [c.ent.depts.a])) as never,
    );
    expect(good.envelope.code).toBe(0);
    const created = await info(c, good.envelope.payload.id);
    expect(created.targets).toMatchObject({ deviceIds: [mine.id], deptIds: [c.ent.depts.a] });
    // The detail names its targets (the drawer shows them).
    expect(created.targetNames).toEqual([
      { kind: 'deviceIds', id: mine.id, name: 'Lobby screen' },
      expect.objectContaining({ kind: 'deptIds', id: c.ent.depts.a }),
    ]);
    const bad = await c.client.call(endpoints.adCreate, adBody([m], t.clock.now(), targets([theirs.id])) as never);
    expect(bad.envelope.code).toBe(ErrorCode.AD_TARGET_INVALID);
    const badDept = await c.client.call(
      endpoints.adCreate,
      adBody([m], t.clock.now(), targets([], [other.ent.depts.root])) as never,
    );
    expect(badDept.envelope.code).toBe(ErrorCode.AD_TARGET_INVALID);
    // A department-only member may target its own department, not its parent's subtree.
    const member = await createUser(t.db, c.ent, { dataScope: 'dept_only', deptIds: [c.ent.depts.a1] });
    const memberClient = await t.loginAs(member);
    const m2 = await ownMaterial(t, { entId: c.ent.id, deptId: c.ent.depts.a1, ownerId: member.id });
    expect(
      (await memberClient.call(endpoints.adCreate, adBody([m2], t.clock.now(), targets([], [c.ent.depts.a1])) as never))
        .envelope.code,
    ).toBe(0);
    expect(
      (await memberClient.call(endpoints.adCreate, adBody([m2], t.clock.now(), targets([], [c.ent.depts.a])) as never))
        .envelope.code,
    ).toBe(ErrorCode.AD_TARGET_INVALID);
  });

  it('an advertiser aims at the screens shared with it, without the device pages; not at departments or tags', async () => {
    const c = await tenant();
    const loginName = uniqueName('adv');
    const id = await createAdvertiser(t.db, {
      entId: c.ent.id,
      deptId: c.ent.depts.a1,
      createdBy: c.admin.id,
      loginName,
      password: TEST_PASSWORD,
      realName: 'Advertiser',
    });
    const advertiser = await t.loginAs({ id, entId: c.ent.id, loginName, password: TEST_PASSWORD });
    const screens = await t.db
      .insert(devices)
      .values([
        { entId: c.ent.id, deptId: c.ent.depts.a1, ownerId: c.admin.id, name: 'Shared lobby screen' },
        { entId: c.ent.id, deptId: c.ent.depts.a1, ownerId: c.admin.id, name: 'Unshared lobby screen' },
      ])
      .returning({ id: devices.id });
    const pick = () => advertiser.call(endpoints.adTargetDevices, { page: 1, size: 10, keyword: 'lobby' });
    expect((await pick()).envelope.payload).toEqual({ total: 0, data: [] });
    await t.db.insert(allocations).values({
      entId: c.ent.id,
      refType: RefType.device,
      refId: screens[0].id,
      targetType: 2,
      targetId: id,
      deptDataType: 2,
    });
    expect((await pick()).envelope.payload).toMatchObject({ total: 1, data: [{ id: screens[0].id }] });
    // The device pages stay closed to it.
    expect((await advertiser.call(endpoints.deviceList, {})).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    const m = await ownMaterial(t, { entId: c.ent.id, deptId: c.ent.depts.a1, ownerId: id });
    const aim = (targets: Partial<Record<'deviceIds' | 'tagIds' | 'deptIds', string[]>>) =>
      advertiser.call(
        endpoints.adCreate,
        adBody([m], t.clock.now(), {
          targets: { deviceIds: [], groupIds: [], tagIds: [], deptIds: [], spliceIds: [], ...targets },
        }) as never,
      );
    expect((await aim({ deviceIds: [screens[0].id] })).envelope.code).toBe(0);
    expect((await aim({ deviceIds: [screens[1].id] })).envelope.code).toBe(ErrorCode.AD_TARGET_INVALID);
    // A department or a tag reaches screens it does not see.
    expect((await aim({ deptIds: [c.ent.depts.a1] })).envelope.code).toBe(ErrorCode.AD_TARGET_INVALID);
    const tag = await insertTag(t, c.ent.id, { name: 'Lobby' });
    expect((await aim({ tagIds: [tag] })).envelope.code).toBe(ErrorCode.AD_TARGET_INVALID);
    // The enterprise's administrator may aim at the tag.
    const ok = await c.client.call(
      endpoints.adCreate,
      adBody([await ownMaterial(t, c.own)], t.clock.now(), {
        targets: { deviceIds: [], groupIds: [], tagIds: [tag], deptIds: [], spliceIds: [] },
      }) as never,
    );
    expect(ok.envelope.code).toBe(0);
  });

  it('pause and enable; delete keeps the ad as deleted and frees its materials', async () => {
    const c = await tenant();
    const { id, material } = await create(c);
    await c.client.call(endpoints.adAuditPass, { id });
    expect((await c.client.call(endpoints.adDisable, { id })).envelope.payload).toEqual({ status: 'paused' });
    const paused = await c.client.call(endpoints.adList, { status: 'paused' });
    expect(paused.envelope.payload.data.map((a) => a.id)).toEqual([id]);
    expect((await c.client.call(endpoints.adEnable, { id })).envelope.payload).toEqual({ status: 'pendingPlay' });

    // The ad's material cannot be deleted while the ad uses it.
    expect((await c.client.call(endpoints.materialDelete, { ids: [material] })).envelope.code).toBe(
      ErrorCode.MATERIAL_IN_USE,
    );
    expect((await c.client.call(endpoints.materialDetail, { id: material })).envelope.payload).toMatchObject({
      inUse: true,
    });
    expect((await c.client.call(endpoints.adDelete, { id })).envelope.code).toBe(0);
    expect((await c.client.call(endpoints.adList, {})).envelope.payload.total).toBe(0);
    const deleted = await c.client.call(endpoints.adList, { status: 'deleted' });
    expect(deleted.envelope.payload.data).toMatchObject([{ id, status: 'deleted' }]);
    expect((await info(c, id)).status).toBe('deleted');
    expect((await c.client.call(endpoints.adEnable, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await c.client.call(endpoints.adAuditPass, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await c.client.call(endpoints.materialDelete, { ids: [material] })).envelope.code).toBe(0);
  });

  it('lists with filters: name, number, type, status, plan, dates', async () => {
    const c = await tenant();
    const plan = await insertPlan(t, { ...c.own, name: 'Summer' });
    const a = await create(c, { name: 'Ice cream', planId: plan, type: 'emergency' });
    const b = await create(c, { name: 'Hot soup' });
    const list = async (filter: Record<string, unknown>) =>
      (await c.client.call(endpoints.adList, filter as never)).envelope.payload.data.map((ad) => ad.id).sort();
    expect(await list({})).toEqual([a.id, b.id].sort());
    expect(await list({ name: 'ice' })).toEqual([a.id]);
    expect(await list({ number: b.number })).toEqual([b.id]);
    expect(await list({ number: b.number.slice(0, 3) })).toContain(b.id);
    expect(await list({ type: 'emergency' })).toEqual([a.id]);
    expect(await list({ planId: plan })).toEqual([a.id]);
    expect(await list({ status: 'pendingAudit' })).toEqual([a.id, b.id].sort());
    expect(await list({ status: 'playing' })).toEqual([]);
    const far = new Date(t.clock.now() + 100 * DAY).toISOString().slice(0, 10);
    expect(await list({ from: far })).toEqual([]);
    expect(await list({ to: far })).toEqual([a.id, b.id].sort());
    // The plan counts its ads.
    const planInfo = await c.client.call(endpoints.planInfo, { id: plan });
    expect(planInfo.envelope.payload).toMatchObject({ name: 'Summer', adCount: 1 });
  });

  it('promotion plans: the default plan cannot be edited or deleted; a plan with ads cannot be deleted', async () => {
    const c = await tenant();
    const saved = await c.client.call(endpoints.planSave, {
      name: 'Autumn',
      budget: 5000.5,
      startDate: '2026-09-01',
      endDate: '2026-11-30',
    });
    expect(saved.envelope.code).toBe(0);
    const planId = saved.envelope.payload.id;
    expect((await c.client.call(endpoints.planInfo, { id: planId })).envelope.payload).toMatchObject({
      name: 'Autumn',
      budget: 5000.5,
      startDate: '2026-09-01',
      endDate: '2026-11-30',
      hasPermission: true,
    });
    const list = await c.client.call(endpoints.planList, {});
    const def = list.envelope.payload.data[0];
    expect(def.isDefault).toBe(true);
    // Found by the name it is answered with, in the caller's language.
    const byName = await c.client.call(endpoints.planList, { name: 'default' }, { language: 'en-US' });
    expect(byName.envelope.payload.data.map((p) => p.id)).toEqual([def.id]);
    expect(byName.envelope.payload.data[0].name).toBe('Default plan');
    const autumn = await c.client.call(endpoints.planList, { name: 'autu' });
    expect(autumn.envelope.payload.data.map((p) => p.id)).toEqual([planId]);
    expect((await c.client.call(endpoints.planUpdate, { id: def.id, name: 'Mine now' })).envelope.code).toBe(
      ErrorCode.AD_PLAN_NOT_EDITABLE,
    );
    expect((await c.client.call(endpoints.planDelete, { id: def.id })).envelope.code).toBe(
      ErrorCode.AD_PLAN_NOT_EDITABLE,
    );
    const ad = await create(c, { planId });
    expect((await c.client.call(endpoints.planDelete, { id: planId })).envelope.code).toBe(ErrorCode.AD_PLAN_IN_USE);
    await c.client.call(endpoints.adDelete, { id: ad.id });
    expect((await c.client.call(endpoints.planDelete, { id: planId })).envelope.code).toBe(0);
    // The deleted ad moved to the default plan.
    expect((await info(c, ad.id)).planId).toBe(def.id);
    expect((await c.client.call(endpoints.planInfo, { id: planId })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const badEnd = await c.client.call(endpoints.planSave, {
      name: 'X',
      startDate: '2026-02-01',
      endDate: '2026-01-01',
    });
    expect(badEnd.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    // Logged like every mutation.
    const logged = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.entId, c.ent.id), eq(operationLogs.endpoint, 'adPlan.delete')));
    expect(logged).toHaveLength(1);
  });

  it('advertisers see only their own ads and cannot audit; another enterprise sees nothing', async () => {
    const c = await tenant();
    const makeAdvertiser = async () => {
      const loginName = uniqueName('adv');
      const id = await createAdvertiser(t.db, {
        entId: c.ent.id,
        deptId: c.ent.depts.a1,
        createdBy: c.admin.id,
        loginName,
        password: TEST_PASSWORD,
        realName: 'Advertiser',
      });
      const user: TestUser = { id, entId: c.ent.id, loginName, password: TEST_PASSWORD };
      return { user, client: await t.loginAs(user) };
    };
    const alice = await makeAdvertiser();
    const bob = await makeAdvertiser();
    const m = await ownMaterial(t, { entId: c.ent.id, deptId: c.ent.depts.a1, ownerId: alice.user.id });
    const made = await alice.client.call(endpoints.adCreate, adBody([m], t.clock.now()) as never);
    expect(made.envelope.code).toBe(0);
    const id = made.envelope.payload.id;
    // Alice sees her ad's review state; she cannot audit it.
    const mine = await alice.client.call(endpoints.adList, {});
    expect(mine.envelope.payload.data).toMatchObject([{ id, reviewState: 'pending', status: 'pendingAudit' }]);
    expect((await alice.client.call(endpoints.adAuditPass, { id })).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    // Bob sees nothing of it.
    expect((await bob.client.call(endpoints.adList, {})).envelope.payload.total).toBe(0);
    expect((await bob.client.call(endpoints.adInfo, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await bob.client.call(endpoints.adDelete, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    // Bob cannot use Alice's material either.
    expect((await bob.client.call(endpoints.adCreate, adBody([m], t.clock.now()) as never)).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    // Another enterprise's administrator neither.
    const other = await tenant();
    expect((await other.client.call(endpoints.adInfo, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await other.client.call(endpoints.adAuditPass, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await other.client.call(endpoints.adList, {})).envelope.payload.total).toBe(0);
    // The enterprise's administrator audits it; Alice sees the decision.
    expect((await c.client.call(endpoints.adAuditFail, { id, reason: 'Too loud' })).envelope.code).toBe(0);
    expect((await alice.client.call(endpoints.adInfo, { id })).envelope.payload).toMatchObject({
      reviewState: 'failed',
      auditReason: 'Too loud',
    });
    // Her own ad: she may still edit it (a resubmission).
    expect((await alice.client.call(endpoints.adInfo, { id })).envelope.payload.hasPermission).toBe(true);
  });
});
