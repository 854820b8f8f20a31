import { endpoints, type WatermarkSetting } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, devices } from '../../src/db/schema/index.js';
import { buildManifest } from '../../src/modules/content/sources.js';
import { insertGroup } from '../fixtures/deviceGroups.js';
import { insertFolder, insertMaterial } from '../fixtures/materials.js';
import { BACKENDS, createTestApp, type TestApp } from '../helpers/index.js';
import { activatedScreens } from '../sales/delivery.js';

/**
 * Screen watermarks (issue 31; docs/device-protocol.md 2.7.5): set per group and per device
 * through the console's calls, the effective one in each device's manifest (a device's own
 * setting wins, `enabled: false` hides its group's, clearing it follows the group again), a
 * picture only of the enterprise's ready library, and each change sent to the screens at once.
 */

const text = (t: string) => ({
  enabled: true as const,
  watermark: {
    kind: 'text' as const,
    text: t,
    materialId: null,
    position: 'bottomRight' as const,
    opacity: 40,
    sizePct: 6,
  },
});

describe.each(BACKENDS)('watermarks on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it('puts the group’s or the device’s own watermark in the manifest, and tells the screens', async () => {
    const { ent, admin } = await t.tenant();
    const client = await t.loginAs(admin);
    const [a, b] = await activatedScreens(t, ent, admin.id, 2);
    const groupId = await insertGroup(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id, name: 'Mall' });
    for (const id of [a, b]) await t.db.update(devices).set({ groupId }).where(eq(devices.id, id));
    const manifestOf = (id: string) => buildManifest(t.db, { id, entId: ent.id, layoutId: null }, t.clock.now());
    const before = await manifestOf(a);
    expect(before.watermark).toBeUndefined();

    // The group's text reaches both screens, and both are told to fetch their manifest.
    const saved = await client.call(endpoints.deviceGroupWatermarkSave, { groupId, setting: text('Mall © 2026') });
    expect(saved.envelope).toMatchObject({ code: 0, payload: { changed: 2 } });
    const syncs = await t.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.entId, ent.id), eq(deviceCommands.kind, 'syncContent')));
    expect(syncs.map((c) => c.deviceId).sort()).toEqual([a, b].sort());
    const withMark = await manifestOf(a);
    expect(withMark.watermark).toEqual({ ...text('Mall © 2026').watermark, materialId: null });
    expect(withMark.version).not.toBe(before.version);
    expect((await manifestOf(b)).watermark?.text).toBe('Mall © 2026');

    // Screen b: none, whatever its group has; then a picture of the library of its own.
    await client.call(endpoints.deviceWatermarkSave, { ids: [b], setting: { enabled: false } });
    expect((await manifestOf(b)).watermark).toBeUndefined();
    const folder = await insertFolder(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id });
    const logo = await insertMaterial(t, {
      entId: ent.id,
      deptId: ent.depts.root,
      ownerId: admin.id,
      folderId: folder.id,
      type: 'image',
      sha256: 'd'.repeat(64),
      size: 2_048,
    });
    const picture: WatermarkSetting = {
      enabled: true,
      watermark: { kind: 'image', text: 'ignored', materialId: logo, position: 'topRight', opacity: 80, sizePct: 10 },
    };
    expect((await client.call(endpoints.deviceWatermarkSave, { ids: [b], setting: picture })).envelope.code).toBe(0);
    const m = await manifestOf(b);
    expect(m.watermark).toEqual({
      kind: 'image',
      text: '',
      materialId: logo,
      position: 'topRight',
      opacity: 80,
      sizePct: 10,
    });
    expect(m.files.map((f) => f.materialId)).toContain(logo);
    const info = await client.call(endpoints.deviceWatermarkInfo, { deviceId: b });
    expect(info.envelope.payload).toMatchObject({
      own: { enabled: true, watermark: { kind: 'image', materialId: logo } },
      group: { enabled: true, watermark: { text: 'Mall © 2026' } },
      groupName: 'Mall',
      effective: { enabled: true, watermark: { kind: 'image' } },
    });

    // Cleared: it follows its group again. Screen a never changed.
    await client.call(endpoints.deviceWatermarkSave, { ids: [b], setting: null });
    expect((await manifestOf(b)).watermark?.text).toBe('Mall © 2026');
    expect((await manifestOf(a)).watermark?.text).toBe('Mall © 2026');
  });

  it('refuses a picture that is not a ready image of the enterprise, another enterprise’s device, and the retired command', async () => {
    const { ent, admin } = await t.tenant();
    const other = await t.tenant();
    const client = await t.loginAs(admin);
    const [mine] = await activatedScreens(t, ent, admin.id, 1);
    const [theirs] = await activatedScreens(t, other.ent, other.admin.id, 1);
    const folder = await insertFolder(t, {
      entId: other.ent.id,
      deptId: other.ent.depts.root,
      ownerId: other.admin.id,
    });
    const foreign = await insertMaterial(t, {
      entId: other.ent.id,
      deptId: other.ent.depts.root,
      ownerId: other.admin.id,
      folderId: folder.id,
      type: 'image',
      sha256: 'e'.repeat(64),
      size: 10,
    });
    const picture: WatermarkSetting = {
      enabled: true,
      watermark: { kind: 'image', text: '', materialId: foreign, position: 'center', opacity: 50, sizePct: 5 },
    };
    const refused = await client.call(endpoints.deviceWatermarkSave, { ids: [mine], setting: picture });
    expect(refused.envelope.code).toBe(-10210);
    const [row] = await t.db.select({ w: devices.watermark }).from(devices).where(eq(devices.id, mine));
    expect(row.w).toBeNull();
    const notMine = await client.call(endpoints.deviceWatermarkSave, { ids: [theirs], setting: text('x') });
    expect(notMine.envelope.code).not.toBe(0);
    const [theirRow] = await t.db.select({ w: devices.watermark }).from(devices).where(eq(devices.id, theirs));
    expect(theirRow.w).toBeNull();
    // A text watermark needs its text.
    const empty = await client.call(endpoints.deviceWatermarkSave, { ids: [mine], setting: text('  ') });
    expect(empty.envelope.code).not.toBe(0);
    // The old command is not sent any more: the manifest carries the watermark.
    const legacy = await client.call(endpoints.deviceSendCommand, {
      deviceIds: [mine],
      kind: 'watermark',
      params: { enabled: true, text: 'old' },
    } as never);
    expect(legacy.envelope.code).not.toBe(0);
  });
});
