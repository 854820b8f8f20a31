import { ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adSlots, advertisers, devices, dictionaryEntries, operationLogs } from '../src/db/schema/index.js';
import { startPairing } from '../src/modules/devices/pairing.js';
import { asPlatform, insertDictionaryEntry, uniqueCode } from './fixtures/dictionaries.js';
import { insertSlot } from './fixtures/sales.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp, uniqueName } from './helpers/index.js';

/**
 * Dictionaries (issue 31): the seeded device and venue types, scenes and screen sizes, read in
 * the reader's language; the platform operator adds, relabels, reorders, disables and deletes
 * (an unused entry only); a device's type and scene and a slot's venue type must be enabled
 * codes, while a record keeps a value disabled since. An advertiser's industry likewise.
 */
describe.each(BACKENDS)('dictionaries on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function operator() {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent);
    await asPlatform(t, { ent, user });
    return { ent, user, client: await t.loginAs(user) };
  }

  async function entAdmin() {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent, { isEntAdmin: true });
    return { ent, user, client: await t.loginAs(user) };
  }

  async function insertDevice(
    c: Awaited<ReturnType<typeof entAdmin>>,
    type: string | null = null,
    scene: string | null = null,
  ) {
    const [row] = await t.db
      .insert(devices)
      .values({ entId: c.ent.id, deptId: c.ent.depts.root, ownerId: c.user.id, name: 'Lobby screen', type, scene })
      .returning({ id: devices.id });
    return row.id;
  }

  /**
   * The entry `id` of `kind` is held once (usage 1, an open kind) and cannot be deleted
   * (DICTIONARY_IN_USE); once `release` frees it, it is deleted.
   */
  async function expectHeldThenDeleted(
    op: Awaited<ReturnType<typeof operator>>,
    kind: 'scene' | 'industry',
    id: string,
    release: () => Promise<unknown>,
  ) {
    const listed = await op.client.call(endpoints.dictionaryManageList, { kind });
    const payload = listed.envelope.payload as { fixed: boolean; data: { id: string; usage: number }[] };
    expect(payload.data.find((e) => e.id === id)).toMatchObject({ usage: 1 });
    expect(payload.fixed).toBe(false);
    expect((await op.client.call(endpoints.dictionaryDelete, { id })).envelope.code).toBe(ErrorCode.DICTIONARY_IN_USE);
    await release();
    expect((await op.client.call(endpoints.dictionaryDelete, { id })).envelope.code).toBe(0);
  }

  it('serves the seeded device types in the reader’s language, in order', async () => {
    const reader = await entAdmin();
    const labels = async (language: string) => {
      const res = await reader.client.call(endpoints.dictionaryList, { kind: 'deviceType' }, { language });
      expect(res.envelope.code).toBe(0);
      return (res.envelope.payload as { code: string; label: string }[]).slice(0, 6);
    };
    expect((await labels('ja')).map((i) => i.code)).toEqual(['lcd', 'led', 'touch', 'outdoor', 'projector', 'other']);
    expect((await labels('ja'))[0]).toEqual({ code: 'lcd', label: '液晶スクリーン', enabled: true });
    expect((await labels('zh-CN'))[4].label).toBe('投影仪');
    expect((await labels('en-US'))[1].label).toBe('LED screen');
    const venues = await reader.client.call(endpoints.dictionaryList, { kind: 'venueType' }, { language: 'ja' });
    expect(venues.envelope.payload).toEqual(
      expect.arrayContaining([{ code: 'retail.malls', label: 'ショッピングモール', enabled: true }]),
    );
  });

  it('lets the operator add, relabel and disable a type: a disabled type is not accepted anew, yet a device keeps it', async () => {
    const op = await operator();
    const code = uniqueCode('wall');
    const saved = await op.client.call(endpoints.dictionarySave, {
      kind: 'deviceType',
      code,
      labels: { 'zh-CN': '拼接屏', 'en-US': 'Video wall', ja: 'マルチ画面' },
    });
    expect(saved.envelope.code).toBe(0);
    const id = (saved.envelope.payload as { id: string }).id;
    // The same code again is refused; a fixed kind takes no new entry.
    const again = await op.client.call(endpoints.dictionarySave, {
      kind: 'deviceType',
      code,
      labels: { 'zh-CN': '重复', 'en-US': 'Again', ja: '重複' },
    });
    expect(again.envelope.code).toBe(ErrorCode.DICTIONARY_CODE_TAKEN);
    const venue = await op.client.call(endpoints.dictionarySave, {
      kind: 'venueType',
      code: 'retail.kiosks',
      labels: { 'zh-CN': '报亭', 'en-US': 'Kiosks', ja: 'キオスク' },
    });
    expect(venue.envelope.code).toBe(ErrorCode.DICTIONARY_FIXED);
    // Relabel: the code stays.
    expect(
      (
        await op.client.call(endpoints.dictionarySave, {
          id,
          kind: 'deviceType',
          labels: { 'zh-CN': '拼接大屏', 'en-US': 'Video wall', ja: 'ビデオウォール' },
        })
      ).envelope.code,
    ).toBe(0);

    const admin = await entAdmin();
    const device = await insertDevice(admin);
    const update = (type: string | null) =>
      admin.client.call(endpoints.deviceUpdate, { id: device, name: 'Lobby screen', type });
    expect((await update(code)).envelope.code).toBe(0);
    const offered = await admin.client.call(endpoints.dictionaryList, { kind: 'deviceType' }, { language: 'ja' });
    expect(offered.envelope.payload).toEqual(
      expect.arrayContaining([{ code, label: 'ビデオウォール', enabled: true }]),
    );

    expect((await op.client.call(endpoints.dictionarySetEnabled, { id, enabled: false })).envelope.code).toBe(0);
    // Not offered any more, but still named for the device that holds it.
    const after = await admin.client.call(endpoints.dictionaryList, { kind: 'deviceType' }, { language: 'ja' });
    expect(after.envelope.payload).toEqual(expect.arrayContaining([{ code, label: 'ビデオウォール', enabled: false }]));
    const [row] = (
      (await admin.client.call(endpoints.deviceList, { page: 1, size: 10, type: code })).envelope.payload as {
        data: { id: string; type: string }[];
      }
    ).data;
    expect(row).toMatchObject({ id: device, type: code });
    // The device keeps its type through an edit of something else ...
    expect((await update(code)).envelope.code).toBe(0);
    // ... but another device cannot take it, and nothing is written.
    const other = await insertDevice(admin, 'lcd');
    const refused = await admin.client.call(endpoints.deviceUpdate, { id: other, name: 'Renamed', type: code });
    expect(refused.envelope.code).toBe(ErrorCode.DICTIONARY_VALUE_INVALID);
    const [kept] = await t.db.select().from(devices).where(eq(devices.id, other));
    expect(kept).toMatchObject({ type: 'lcd', name: 'Lobby screen' });
  });

  it('refuses a device type the dictionary does not have and writes nothing', async () => {
    const admin = await entAdmin();
    const device = await insertDevice(admin, 'led');
    const res = await admin.client.call(endpoints.deviceUpdate, { id: device, name: 'Changed', type: 'hologram' });
    // A code the dictionary never had: a bad parameter naming the field, as the fixed list answered.
    expect(res.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(res.envelope.message).toContain('type');
    expect((await admin.client.call(endpoints.deviceList, { type: 'hologram' })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    const [kept] = await t.db.select().from(devices).where(eq(devices.id, device));
    expect(kept).toMatchObject({ type: 'led', name: 'Lobby screen' });
    // A malformed code fails the schema.
    const bad = await admin.client.call(endpoints.deviceUpdate, { id: device, name: 'Changed', type: 'Not A Code' });
    expect(bad.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    // Clearing the type needs no dictionary.
    expect(
      (await admin.client.call(endpoints.deviceUpdate, { id: device, name: 'Changed', type: null })).envelope.code,
    ).toBe(0);
  });

  it('deletes an unused entry, refuses a used one or a fixed kind’s, and reorders', async () => {
    const op = await operator();
    const unused = await insertDictionaryEntry(t);
    expect((await op.client.call(endpoints.dictionaryDelete, { id: unused.id })).envelope.code).toBe(0);
    expect(await t.db.select().from(dictionaryEntries).where(eq(dictionaryEntries.id, unused.id))).toHaveLength(0);

    const used = await insertDictionaryEntry(t);
    const admin = await entAdmin();
    await insertDevice(admin, used.code);
    const listed = await op.client.call(endpoints.dictionaryManageList, { kind: 'deviceType' });
    expect(
      (listed.envelope.payload as { data: { id: string; usage: number }[] }).data.find((e) => e.id === used.id),
    ).toMatchObject({ usage: 1 });
    const refused = await op.client.call(endpoints.dictionaryDelete, { id: used.id });
    expect(refused.envelope.code).toBe(ErrorCode.DICTIONARY_IN_USE);
    expect(await t.db.select().from(dictionaryEntries).where(eq(dictionaryEntries.id, used.id))).toHaveLength(1);

    const venues = await op.client.call(endpoints.dictionaryManageList, { kind: 'venueType' });
    const venueRows = (venues.envelope.payload as { fixed: boolean; data: { id: string; code: string }[] }).data;
    expect((await op.client.call(endpoints.dictionaryDelete, { id: venueRows[0].id })).envelope.code).toBe(
      ErrorCode.DICTIONARY_FIXED,
    );

    // Reorder: the whole kind, in the new order; a partial list is refused.
    const ids = venueRows.map((r) => r.id);
    const moved = [ids[ids.length - 1], ...ids.slice(0, -1)];
    expect((await op.client.call(endpoints.dictionaryReorder, { kind: 'venueType', ids: moved })).envelope.code).toBe(
      0,
    );
    const reordered = await op.client.call(endpoints.dictionaryList, { kind: 'venueType' });
    expect((reordered.envelope.payload as { code: string }[])[0].code).toBe(venueRows[venueRows.length - 1].code);
    expect(
      (await op.client.call(endpoints.dictionaryReorder, { kind: 'venueType', ids: ids.slice(1) })).envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
    // Put it back for the other tests.
    expect((await op.client.call(endpoints.dictionaryReorder, { kind: 'venueType', ids })).envelope.code).toBe(0);

    const [log] = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.accountId, op.user.id), eq(operationLogs.action, 'dictionaryDelete')));
    expect(log).toMatchObject({
      module: 'dictionary',
      targetType: 'dictionary_entry',
      targetName: `deviceType.${unused.code}`,
    });
  });

  it('lets only the platform operator manage: an enterprise role naming the code, or without it, cannot', async () => {
    const entry = await insertDictionaryEntry(t);
    // An enterprise administrator does not hold the provider-only code.
    const admin = await entAdmin();
    for (const [def, payload] of [
      [endpoints.dictionaryManageList, { kind: 'deviceType' }],
      [endpoints.dictionarySetEnabled, { id: entry.id, enabled: false }],
      [endpoints.dictionaryDelete, { id: entry.id }],
    ] as const) {
      expect((await admin.client.call(def, payload)).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    }
    // A plain enterprise's role naming the code: the pipeline drops it (provider-only).
    const ent = await createEnterprise(t.db);
    const named = await t.loginAs(await createUser(t.db, ent, { permissions: [Perm.dictionaryManage] }));
    expect((await named.call(endpoints.dictionaryDelete, { id: entry.id })).envelope.code).not.toBe(0);
    expect(
      (
        await named.call(endpoints.dictionarySave, {
          kind: 'deviceType',
          code: uniqueCode(),
          labels: { 'zh-CN': '甲', 'en-US': 'A', ja: 'エー' },
        })
      ).envelope.code,
    ).not.toBe(0);
    const [still] = await t.db.select().from(dictionaryEntries).where(eq(dictionaryEntries.id, entry.id));
    expect(still).toMatchObject({ enabled: true });
  });

  it('keeps one enabled entry in a dictionary', async () => {
    const op = await operator();
    const venues = await op.client.call(endpoints.dictionaryManageList, { kind: 'venueType' });
    const rows = (venues.envelope.payload as { data: { id: string }[] }).data;
    for (const row of rows.slice(1)) {
      expect((await op.client.call(endpoints.dictionarySetEnabled, { id: row.id, enabled: false })).envelope.code).toBe(
        0,
      );
    }
    expect(
      (await op.client.call(endpoints.dictionarySetEnabled, { id: rows[0].id, enabled: false })).envelope.code,
    ).toBe(ErrorCode.DICTIONARY_LAST_ENABLED);
    for (const row of rows.slice(1)) {
      expect((await op.client.call(endpoints.dictionarySetEnabled, { id: row.id, enabled: true })).envelope.code).toBe(
        0,
      );
    }
  });

  it('serves the seeded scenes and screen sizes', async () => {
    const reader = await entAdmin();
    const scenes = await reader.client.call(endpoints.dictionaryList, { kind: 'scene' }, { language: 'zh-CN' });
    expect(scenes.envelope.payload).toEqual(
      expect.arrayContaining([
        { code: 'mall', label: '商场', enabled: true },
        { code: 'elevator', label: '电梯', enabled: true },
      ]),
    );
    const sizes = await reader.client.call(endpoints.dictionaryList, { kind: 'screenSize' }, { language: 'ja' });
    expect((sizes.envelope.payload as { code: string }[]).slice(0, 4).map((i) => i.code)).toEqual([
      '32',
      '43',
      '49',
      '55',
    ]);
    expect(sizes.envelope.payload).toEqual(expect.arrayContaining([{ code: '55', label: '55 インチ', enabled: true }]));
  });

  it('sets, lists and filters a device’s scene; refuses an unknown or disabled one, keeps a device’s own', async () => {
    const admin = await entAdmin();
    const device = await insertDevice(admin, 'lcd');
    const update = (id: string, scene: string | null | undefined) =>
      admin.client.call(endpoints.deviceUpdate, { id, name: 'Lobby screen', scene });
    expect((await update(device, 'elevator')).envelope.code).toBe(0);
    const detail = await admin.client.call(endpoints.deviceDetail, { id: device });
    expect(detail.envelope.payload).toMatchObject({ id: device, scene: 'elevator', type: 'lcd' });
    const listed = async (scene: string) =>
      (
        (await admin.client.call(endpoints.deviceList, { page: 1, size: 10, scene })).envelope.payload as {
          data: { id: string; scene: string | null }[];
        }
      ).data;
    expect(await listed('elevator')).toEqual([expect.objectContaining({ id: device, scene: 'elevator' })]);
    expect(await listed('mall')).toEqual([]);
    // A code the dictionary never had: a bad parameter naming the field (the update and the filter).
    const unknown = await update(device, 'moon_base');
    expect(unknown.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(unknown.envelope.message).toContain('scene');
    expect((await admin.client.call(endpoints.deviceList, { scene: 'moon_base' })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );

    // A scene disabled since: refused to a device that does not hold it, with a message naming the scene.
    const op = await operator();
    const closed = await insertDictionaryEntry(t, { kind: 'scene' });
    expect((await update(device, closed.code)).envelope.code).toBe(0);
    expect(
      (await op.client.call(endpoints.dictionarySetEnabled, { id: closed.id, enabled: false })).envelope.code,
    ).toBe(0);
    const other = await insertDevice(admin, null, 'mall');
    const refused = await admin.client.call(
      endpoints.deviceUpdate,
      { id: other, name: 'Renamed', scene: closed.code },
      { language: 'en-US' },
    );
    expect(refused.envelope.code).toBe(ErrorCode.DICTIONARY_VALUE_INVALID);
    expect(refused.envelope.message).toContain('scene');
    const [kept] = await t.db.select().from(devices).where(eq(devices.id, other));
    expect(kept).toMatchObject({ scene: 'mall', name: 'Lobby screen' });
    // The device holding it keeps it through an edit, and it is still readable and filtered.
    expect((await update(device, closed.code)).envelope.code).toBe(0);
    expect(await listed(closed.code)).toEqual([expect.objectContaining({ id: device, scene: closed.code })]);
    // Cleared: no dictionary needed.
    expect((await update(device, null)).envelope.code).toBe(0);
    const [cleared] = await t.db.select().from(devices).where(eq(devices.id, device));
    expect(cleared.scene).toBeNull();
  });

  it('adds a device with a scene: an enabled one only', async () => {
    const admin = await entAdmin();
    const add = async (scene: string) => {
      const pairing = await startPairing(t.services, {}, '127.0.0.1');
      return admin.client.call(endpoints.deviceAdd, { code: pairing.code, name: 'Paired screen', scene });
    };
    const added = await add('lobby');
    expect(added.envelope.code).toBe(0);
    const [row] = await t.db
      .select()
      .from(devices)
      .where(eq(devices.id, (added.envelope.payload as { id: string }).id));
    expect(row.scene).toBe('lobby');
    const closed = await insertDictionaryEntry(t, { kind: 'scene', enabled: false });
    expect((await add(closed.code)).envelope.code).toBe(ErrorCode.DICTIONARY_VALUE_INVALID);
    expect((await add('moon_base')).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('refuses to delete a scene devices hold, and deletes it once none does', async () => {
    const op = await operator();
    const admin = await entAdmin();
    const used = await insertDictionaryEntry(t, { kind: 'scene' });
    const device = await insertDevice(admin, null, used.code);
    await expectHeldThenDeleted(op, 'scene', used.id, () =>
      t.db.update(devices).set({ scene: null }).where(eq(devices.id, device)),
    );
  });

  it('takes a screen size’s code as a positive number of inches', async () => {
    const op = await operator();
    const labels = { 'zh-CN': '57 英寸', 'en-US': '57 inches', ja: '57 インチ' };
    for (const code of ['abc', '0', '-5', '55.25', '1001', '055']) {
      const res = await op.client.call(endpoints.dictionarySave, { kind: 'screenSize', code, labels });
      expect(res.envelope.code, code).toBe(ErrorCode.INVALID_PARAMS);
    }
    // The rule of other kinds' codes is not a screen size's.
    expect(
      (await op.client.call(endpoints.dictionarySave, { kind: 'deviceType', code: '57', labels })).envelope.code,
    ).toBe(ErrorCode.INVALID_PARAMS);
    const saved = await op.client.call(endpoints.dictionarySave, { kind: 'screenSize', code: '57.5', labels });
    expect(saved.envelope.code).toBe(0);
    // Written one way: '57.0' is 57, a taken code is refused.
    const whole = await op.client.call(endpoints.dictionarySave, { kind: 'screenSize', code: '57.0', labels });
    expect(whole.envelope.code).toBe(0);
    const [row] = await t.db
      .select()
      .from(dictionaryEntries)
      .where(eq(dictionaryEntries.id, (whole.envelope.payload as { id: string }).id));
    expect(row.code).toBe('57');
    expect(
      (await op.client.call(endpoints.dictionarySave, { kind: 'screenSize', code: '57', labels })).envelope.code,
    ).toBe(ErrorCode.DICTIONARY_CODE_TAKEN);
    // Nothing stores an entry: any preset is deleted.
    for (const id of [(saved.envelope.payload as { id: string }).id, row.id]) {
      expect((await op.client.call(endpoints.dictionaryDelete, { id })).envelope.code).toBe(0);
    }
  });

  it('refuses a slot’s venue type disabled since, and keeps the slot’s own', async () => {
    const op = await operator();
    const admin = await entAdmin();
    const slot = await insertSlot(t.db, { entId: admin.ent.id, deviceIds: [] });
    const venues = await op.client.call(endpoints.dictionaryManageList, { kind: 'venueType' });
    const rows = (venues.envelope.payload as { data: { id: string; code: string }[] }).data;
    const gyms = rows.find((r) => r.code === 'health_and_beauty.gyms');
    const cinemas = rows.find((r) => r.code === 'entertainment.movie_theaters');
    if (!gyms || !cinemas) throw new Error('seeded venue types missing');
    const rtb = (venueType: string | undefined) =>
      admin.client.call(endpoints.salesSlotRtb, { id: slot, rtbEnabled: false, venueType } as never, {
        language: 'ja',
      });
    expect((await rtb(gyms.code)).envelope.code).toBe(0);
    for (const row of [gyms, cinemas]) {
      expect((await op.client.call(endpoints.dictionarySetEnabled, { id: row.id, enabled: false })).envelope.code).toBe(
        0,
      );
    }
    try {
      const refused = await rtb(cinemas.code);
      expect(refused.envelope.code).toBe(ErrorCode.DICTIONARY_VALUE_INVALID);
      expect(refused.envelope.message).toContain('施設の種類');
      const [kept] = await t.db.select().from(adSlots).where(eq(adSlots.id, slot));
      expect(kept.venueType).toBe(gyms.code);
      // Its own type, disabled since, stays through another change (or none named).
      expect((await rtb(gyms.code)).envelope.code).toBe(0);
      expect((await rtb(undefined)).envelope.code).toBe(0);
      expect((await rtb('retail.malls')).envelope.code).toBe(0);
    } finally {
      for (const row of [gyms, cinemas]) {
        await op.client.call(endpoints.dictionarySetEnabled, { id: row.id, enabled: true });
      }
    }
  });

  describe('an advertiser’s industry', () => {
    const STRONG = 'Adv@Pass2026';
    type Listed = { total: number; data: { id: string; industry: string | null }[] };

    async function addAdvertiser(c: Awaited<ReturnType<typeof entAdmin>>, industry?: string) {
      return c.client.call(
        endpoints.advertiserAdd,
        {
          loginName: uniqueName('adv')
            .toLowerCase()
            .replace(/[^a-z0-9_]/g, '_'),
          password: STRONG,
          realName: 'Acme Foods',
          ...(industry === undefined ? {} : { industry }),
        },
        { language: 'en-US' },
      );
    }

    it('serves the seeded industries in the reader’s language, in order', async () => {
      const reader = await entAdmin();
      const ja = await reader.client.call(endpoints.dictionaryList, { kind: 'industry' }, { language: 'ja' });
      const items = ja.envelope.payload as { code: string; label: string; enabled: boolean }[];
      expect(items.slice(0, 3).map((i) => i.code)).toEqual(['food_beverage', 'retail', 'finance']);
      expect(items).toEqual(expect.arrayContaining([{ code: 'real_estate', label: '不動産', enabled: true }]));
      const zh = await reader.client.call(endpoints.dictionaryList, { kind: 'industry' }, { language: 'zh-CN' });
      expect(zh.envelope.payload).toEqual(
        expect.arrayContaining([{ code: 'automotive', label: '汽车', enabled: true }]),
      );
    });

    it('adds an advertiser with an enabled industry; refuses a disabled or unknown one and writes nothing', async () => {
      const admin = await entAdmin();
      const added = await addAdvertiser(admin, 'retail');
      expect(added.envelope.code).toBe(0);
      const id = (added.envelope.payload as { id: string }).id;
      const listed = await admin.client.call(endpoints.advertiserList, { page: 1, size: 10 });
      expect((listed.envelope.payload as Listed).data).toEqual([expect.objectContaining({ id, industry: 'retail' })]);
      const [row] = await t.db.select().from(advertisers).where(eq(advertisers.accountId, id));
      expect(row.industry).toBe('retail');
      // Without one: none.
      const plain = await addAdvertiser(admin);
      expect(plain.envelope.code).toBe(0);
      const closed = await insertDictionaryEntry(t, { kind: 'industry', enabled: false });
      const refused = await addAdvertiser(admin, closed.code);
      expect(refused.envelope.code).toBe(ErrorCode.DICTIONARY_VALUE_INVALID);
      expect(refused.envelope.message).toContain('industry');
      const unknown = await addAdvertiser(admin, 'moon_mining');
      expect(unknown.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
      expect(unknown.envelope.message).toContain('industry');
      const after = await admin.client.call(endpoints.advertiserList, { page: 1, size: 10 });
      expect((after.envelope.payload as Listed).total).toBe(2);
    });

    it('updates, filters and clears the industry; keeps an advertiser’s own disabled since', async () => {
      const admin = await entAdmin();
      const first = ((await addAdvertiser(admin, 'finance')).envelope.payload as { id: string }).id;
      const second = ((await addAdvertiser(admin, 'travel')).envelope.payload as { id: string }).id;
      const listed = async (industry: string) =>
        (
          (await admin.client.call(endpoints.advertiserList, { page: 1, size: 10, industry })).envelope
            .payload as Listed
        ).data;
      expect(await listed('finance')).toEqual([expect.objectContaining({ id: first, industry: 'finance' })]);
      expect(await listed('education')).toEqual([]);
      expect((await admin.client.call(endpoints.advertiserList, { industry: 'moon_mining' })).envelope.code).toBe(
        ErrorCode.INVALID_PARAMS,
      );
      const update = (id: string, industry: string | null | undefined) =>
        admin.client.call(
          endpoints.advertiserUpdate,
          { id, realName: 'Renamed', ...(industry === undefined ? {} : { industry }) },
          { language: 'en-US' },
        );
      // An industry disabled since: the advertiser holding it keeps it, another cannot take it.
      const op = await operator();
      const closed = await insertDictionaryEntry(t, { kind: 'industry' });
      expect((await update(first, closed.code)).envelope.code).toBe(0);
      expect(
        (await op.client.call(endpoints.dictionarySetEnabled, { id: closed.id, enabled: false })).envelope.code,
      ).toBe(0);
      const refused = await update(second, closed.code);
      expect(refused.envelope.code).toBe(ErrorCode.DICTIONARY_VALUE_INVALID);
      const [kept] = await t.db.select().from(advertisers).where(eq(advertisers.accountId, second));
      expect(kept.industry).toBe('travel');
      expect((await update(first, closed.code)).envelope.code).toBe(0);
      expect(await listed(closed.code)).toEqual([expect.objectContaining({ id: first, industry: closed.code })]);
      // Left out: kept; null: cleared.
      expect((await update(second, undefined)).envelope.code).toBe(0);
      expect(await listed('travel')).toEqual([expect.objectContaining({ id: second })]);
      expect((await update(second, null)).envelope.code).toBe(0);
      const [cleared] = await t.db.select().from(advertisers).where(eq(advertisers.accountId, second));
      expect(cleared.industry).toBeNull();
    });

    it('refuses to delete an industry advertisers hold, and deletes it once none does', async () => {
      const op = await operator();
      const admin = await entAdmin();
      const used = await insertDictionaryEntry(t, { kind: 'industry' });
      const id = ((await addAdvertiser(admin, used.code)).envelope.payload as { id: string }).id;
      await expectHeldThenDeleted(op, 'industry', used.id, () =>
        t.db.update(advertisers).set({ industry: null }).where(eq(advertisers.accountId, id)),
      );
    });
  });
});
