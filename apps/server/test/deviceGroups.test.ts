import { ErrorCode, endpoints, Perm, RefType } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocations, devices } from '../src/db/schema/index.js';
import { insertDepartment } from '../src/modules/dept/repository.js';
import { insertCategory, insertDevice, insertGroup, insertTag, numberSheet } from './fixtures/deviceGroups.js';
import {
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
  uniqueName,
} from './helpers/index.js';

const DEVICE_PERMS = [Perm.device, Perm.deviceGroup, Perm.deviceTags, Perm.deviceRemote, Perm.dataAllocation];

describe.each(BACKENDS)('device groups, tags and device sharing on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  /** An enterprise (root -> a -> a1, root -> b, root -> c -> c1), its administrator and their client. */
  async function setup() {
    const ent = await createEnterprise(t.db);
    const c = await insertDepartment(t.db, { entId: ent.id, parentId: ent.depts.root, name: 'Dept C' });
    const c1 = await insertDepartment(t.db, { entId: ent.id, parentId: c.id, name: 'Dept C1' });
    const admin = await createUser(t.db, ent, { isEntAdmin: true });
    const client = await t.loginAs(admin);
    return { ent, admin, client, c: c.id, c1: c1.id };
  }

  /** A self-scope member of `dept` with the device permissions, and the ids of the devices it lists. */
  async function member(ent: TestEnterprise, dept: string, dataScope: 'self' | 'dept_only' = 'self') {
    const user = await createUser(t.db, ent, { permissions: DEVICE_PERMS, dataScope, deptIds: [dept] });
    const client = await t.loginAs(user);
    const list = async (extra: Record<string, unknown> = {}) => {
      const res = await client.call(endpoints.deviceList, { size: 500, ...extra });
      expect(res.envelope.code).toBe(0);
      return res.envelope.payload.data.map((d) => d.id).sort();
    };
    return { user, client, list };
  }

  const dev = (ent: TestEnterprise, ownerId: string, extra: Partial<Parameters<typeof insertDevice>[1]> = {}) =>
    insertDevice(t, { entId: ent.id, deptId: ent.depts.a1, ownerId, ...extra });

  it('creates, lists, renames and deletes a group with its devices; a device is in one group at most', async () => {
    const { ent, admin, client } = await setup();
    const d1 = await dev(ent, admin.id, { name: 'Door' });
    const d2 = await dev(ent, admin.id, { name: 'Hall' });
    const created = await client.call(endpoints.deviceGroupCreate, { name: 'Lobby', deviceIds: [d1, d2] });
    expect(created.envelope.code).toBe(0);
    const lobby = created.envelope.payload.id;
    const other = (await client.call(endpoints.deviceGroupCreate, { name: 'Floor 2', deviceIds: [d2] })).envelope
      .payload.id;
    const list = await client.call(endpoints.deviceGroupList, {});
    expect(list.envelope.payload.data.map((g) => [g.name, g.deviceCount]).sort()).toEqual([
      ['Floor 2', 1],
      ['Lobby', 1],
    ]);
    // The device list carries the group and filters by it.
    const rows = (await client.call(endpoints.deviceList, { groupId: other })).envelope.payload.data;
    expect(rows.map((r) => [r.id, r.groupId, r.groupName])).toEqual([[d2, other, 'Floor 2']]);

    const detail = await client.call(endpoints.deviceGroupDetail, { id: lobby });
    expect(detail.envelope.payload.devices.map((d) => d.name)).toEqual(['Door']);
    // Update replaces the members: Door leaves, Hall comes back.
    expect(
      (await client.call(endpoints.deviceGroupUpdate, { id: lobby, name: 'Lobby A', deviceIds: [d2] })).envelope.code,
    ).toBe(0);
    const [door] = await t.db.select().from(devices).where(eq(devices.id, d1));
    expect(door.groupId).toBeNull();
    expect(
      (await client.call(endpoints.deviceGroupAssign, { id: lobby, action: 'add', deviceIds: [d1] })).envelope.payload,
    ).toEqual({ devices: 1 });
    expect(
      (await client.call(endpoints.deviceGroupAssign, { id: lobby, action: 'remove', deviceIds: [d2] })).envelope.code,
    ).toBe(0);
    expect((await client.call(endpoints.deviceGroupDetail, { id: lobby })).envelope.payload.devices).toEqual([
      { id: d1, name: 'Door', number: null },
    ]);
    expect((await client.call(endpoints.deviceGroupDelete, { ids: [lobby, other] })).envelope.code).toBe(0);
    expect((await client.call(endpoints.deviceGroupList, {})).envelope.payload.total).toBe(0);
    const [after] = await t.db.select().from(devices).where(eq(devices.id, d1));
    expect(after.groupId).toBeNull();
  });

  it('refuses empty, too long and taken names (case-insensitive, enterprise-wide) in the caller language', async () => {
    const { client } = await setup();
    expect((await client.call(endpoints.deviceGroupCreate, { name: '  ' })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    expect((await client.call(endpoints.deviceGroupCreate, { name: 'x'.repeat(31) })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    expect((await client.call(endpoints.deviceGroupCreate, { name: 'Lobby' })).envelope.code).toBe(0);
    for (const [language, text] of [
      ['en-US', 'A device group with this name already exists'],
      ['zh-CN', '该分组名称已存在'],
      ['ja', 'この名前のデバイスグループは既に存在します'],
    ]) {
      const res = await client.call(endpoints.deviceGroupCreate, { name: 'LOBBY' }, { language });
      expect(res.envelope.code).toBe(ErrorCode.CONFLICT);
      expect(res.envelope.message).toContain(text);
    }
    const cat = (await client.call(endpoints.tagCategoryCreate, { name: 'Region' })).envelope.payload.id;
    expect((await client.call(endpoints.tagCategoryCreate, { name: 'region' })).envelope.code).toBe(ErrorCode.CONFLICT);
    expect((await client.call(endpoints.deviceTagCreate, { name: 'North', categoryId: cat })).envelope.code).toBe(0);
    const dup = await client.call(endpoints.deviceTagCreate, { name: 'north', categoryId: cat }, { language: 'ja' });
    expect(dup.envelope.code).toBe(ErrorCode.CONFLICT);
    expect(dup.envelope.message).toContain('この名前のタグは既に存在します');
    expect(
      (await client.call(endpoints.deviceTagCreate, { name: 'x'.repeat(21), categoryId: cat })).envelope.code,
    ).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('manages tag categories and tags; tags devices in bulk; a category with tags cannot be deleted', async () => {
    const { ent, admin, client } = await setup();
    const d1 = await dev(ent, admin.id);
    const d2 = await dev(ent, admin.id);
    const region = (await client.call(endpoints.tagCategoryCreate, { name: 'Region' })).envelope.payload.id;
    const floor = (await client.call(endpoints.tagCategoryCreate, { name: 'Floor' })).envelope.payload.id;
    const north = (await client.call(endpoints.deviceTagCreate, { name: 'North', categoryId: region })).envelope.payload
      .id;
    const ground = (await client.call(endpoints.deviceTagCreate, { name: 'Ground', categoryId: floor })).envelope
      .payload.id;
    const tagged = await client.call(endpoints.deviceTagAssign, {
      tagIds: [north, ground],
      action: 'add',
      deviceIds: [d1, d2],
    });
    expect(tagged.envelope.payload).toEqual({ devices: 2 });
    await client.call(endpoints.deviceTagAssign, { tagIds: [ground], action: 'remove', deviceIds: [d2] });
    const tags = (await client.call(endpoints.deviceTagList, {})).envelope.payload.data;
    expect(tags.map((r) => [r.name, r.categoryName, r.deviceCount]).sort()).toEqual([
      ['Ground', 'Floor', 1],
      ['North', 'Region', 2],
    ]);
    expect((await client.call(endpoints.deviceTagList, { categoryId: floor })).envelope.payload.total).toBe(1);
    const cats = (await client.call(endpoints.tagCategoryList, {})).envelope.payload;
    expect(cats.map((c) => [c.name, c.tagCount])).toEqual([
      ['Region', 1],
      ['Floor', 1],
    ]);
    const row = (await client.call(endpoints.deviceList, { tagId: ground })).envelope.payload.data;
    expect(row.map((r) => [r.id, r.tags.map((x) => x.name)])).toEqual([[d1, ['Ground', 'North']]]);
    const busy = await client.call(endpoints.tagCategoryDelete, { id: floor });
    expect(busy.envelope.code).toBe(ErrorCode.CONFLICT);
    // Editing the tag's devices replaces them; moving it to another category empties the first.
    await client.call(endpoints.deviceTagUpdate, {
      id: ground,
      name: 'Ground floor',
      categoryId: region,
      deviceIds: [d2],
    });
    const detail = (await client.call(endpoints.deviceTagDetail, { id: ground })).envelope.payload;
    expect([detail.name, detail.categoryName, detail.devices.map((d) => d.id)]).toEqual([
      'Ground floor',
      'Region',
      [d2],
    ]);
    expect((await client.call(endpoints.tagCategoryDelete, { id: floor })).envelope.code).toBe(0);
    expect((await client.call(endpoints.deviceTagDelete, { ids: [ground, north] })).envelope.code).toBe(0);
    expect((await client.call(endpoints.deviceTagList, {})).envelope.payload.total).toBe(0);
    // Another enterprise's tag is not found.
    const other = await createEnterprise(t.db);
    const foreign = await insertTag(t, other.id);
    expect(
      (await client.call(endpoints.deviceTagAssign, { tagIds: [foreign], action: 'add', deviceIds: [d1] })).envelope
        .code,
    ).toBe(ErrorCode.NOT_FOUND);
  });

  it('a department granted a group sees the group devices (inheritance), others do not', async () => {
    const { ent, admin, client, c, c1 } = await setup();
    const d1 = await dev(ent, admin.id);
    const d2 = await dev(ent, admin.id);
    const outside = await dev(ent, admin.id);
    const group = (await client.call(endpoints.deviceGroupCreate, { name: 'Shared wall', deviceIds: [d1, d2] }))
      .envelope.payload.id;
    const inC1 = await member(ent, c1);
    const inB = await member(ent, ent.depts.b);
    expect(await inC1.list()).toEqual([]);
    const shared = await client.call(endpoints.permissionRefresh, {
      refType: RefType.deviceGroup,
      refIds: [group],
      allocateInfos: [{ id: c, type: 1, deptDataType: 1 }],
    });
    expect(shared.envelope.code).toBe(0);
    expect(await inC1.list()).toEqual([d1, d2].sort());
    expect(await inB.list()).toEqual([]);
    // The group itself is visible to C1 (read-only): no change, no re-sharing.
    expect((await inC1.client.call(endpoints.deviceGroupList, {})).envelope.payload.data).toMatchObject([
      { id: group, deviceCount: 2, hasPermission: false },
    ]);
    expect((await inC1.client.call(endpoints.deviceGroupUpdate, { id: group, name: 'Mine' })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
    expect((await inB.client.call(endpoints.deviceGroupDetail, { id: group })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    // C1 can command the group's devices through the group, B cannot name it.
    const sent = await inC1.client.call(endpoints.deviceSendCommand, {
      groupIds: [group],
      kind: 'volume',
      params: { level: 5 },
    });
    expect(sent.envelope.payload.commands.map((x) => x.deviceId).sort()).toEqual([d1, d2].sort());
    expect(
      (await inB.client.call(endpoints.deviceSendCommand, { groupIds: [group], kind: 'volume', params: { level: 5 } }))
        .envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
    // The device's own allocation dialog shows the group's entry as inherited (locked).
    const alloc = await client.call(endpoints.permissionAllocation, { refType: RefType.device, refId: d1 });
    expect(alloc.envelope.payload.allocateInfos).toContainEqual(
      expect.objectContaining({ id: c, isExtends: true, extendsFrom: `${RefType.deviceGroup}:${group}` }),
    );
    // A device moved out of the group is no longer shared; a device moved in is.
    await client.call(endpoints.deviceGroupAssign, { id: group, action: 'remove', deviceIds: [d2] });
    await client.call(endpoints.deviceGroupAssign, { id: group, action: 'add', deviceIds: [outside] });
    expect(await inC1.list()).toEqual([d1, outside].sort());
    // Deleting the group ends what it shared.
    await client.call(endpoints.deviceGroupDelete, { ids: [group] });
    expect(await inC1.list()).toEqual([]);
    const left = await t.db
      .select()
      .from(allocations)
      .where(and(eq(allocations.refType, RefType.deviceGroup), eq(allocations.refId, group)));
    expect(left).toEqual([]);
  });

  it('a device shared with a member cannot be put in its group, nor re-shared', async () => {
    const { ent, admin, client, c } = await setup();
    const d1 = await dev(ent, admin.id);
    await client.call(endpoints.permissionRefresh, {
      refType: RefType.device,
      refIds: [d1],
      allocateInfos: [{ id: c, type: 1 }],
    });
    const inC = await member(ent, c);
    expect(await inC.list()).toEqual([d1]);
    const res = await inC.client.call(endpoints.deviceGroupCreate, { name: uniqueName('Mine'), deviceIds: [d1] });
    expect(res.envelope.code).toBe(ErrorCode.NO_PERMISSION);
    const share = await inC.client.call(endpoints.deviceShareApply, {
      by: 'devices',
      ids: [d1],
      action: 'allocate',
      allocateInfos: [{ id: ent.depts.b, type: 1 }],
    });
    expect(share.envelope.code).toBe(ErrorCode.NO_PERMISSION);
  });

  it('resolves targets: groups and tags to visible devices; unknown ones are NOT_FOUND; an empty one names none', async () => {
    const { ent, admin, client } = await setup();
    const d1 = await dev(ent, admin.id);
    const d2 = await dev(ent, admin.id);
    const tag = await insertTag(t, ent.id, { deviceIds: [d2] });
    const group = await insertGroup(t, { entId: ent.id, deptId: ent.depts.a1, ownerId: admin.id });
    await t.db.update(devices).set({ groupId: group }).where(eq(devices.id, d1));
    const sent = await client.call(endpoints.deviceSendCommand, {
      deviceIds: [d1],
      groupIds: [group],
      tagIds: [tag],
      kind: 'reboot',
      params: {},
    });
    expect(sent.envelope.code).toBe(0);
    expect(sent.envelope.payload.commands.map((x) => x.deviceId)).toEqual([d1, d2]);
    expect((await client.call(endpoints.deviceSendCommand, { kind: 'reboot', params: {} })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    const other = await createEnterprise(t.db);
    const foreignGroup = await insertGroup(t, { entId: other.id, deptId: other.depts.root, ownerId: null });
    expect(
      (await client.call(endpoints.deviceSendCommand, { groupIds: [foreignGroup], kind: 'reboot', params: {} }))
        .envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
    const empty = await insertTag(t, ent.id);
    expect(
      (await client.call(endpoints.deviceSendCommand, { tagIds: [empty], kind: 'reboot', params: {} })).envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
  });

  it('allocates and recycles devices in bulk by tag, group and department', async () => {
    const { ent, admin, client, c } = await setup();
    const inA1 = await dev(ent, admin.id);
    const inB = await dev(ent, admin.id, { deptId: ent.depts.b });
    const tag = await insertTag(t, ent.id, { deviceIds: [inA1] });
    const group = await insertGroup(t, { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id });
    await t.db.update(devices).set({ groupId: group }).where(eq(devices.id, inB));
    const inC = await member(ent, c);
    const to = [{ id: c, type: 1 as const, deptDataType: 2 as const }];
    const apply = (by: string, ids: string[], action: 'allocate' | 'recycle') =>
      client.call(endpoints.deviceShareApply, { by: by as 'tag', ids, action, allocateInfos: to });
    expect((await apply('tag', [tag], 'allocate')).envelope.payload).toEqual({ devices: 1, skipped: 0 });
    expect(await inC.list()).toEqual([inA1]);
    expect((await apply('group', [group], 'allocate')).envelope.payload).toEqual({ devices: 1, skipped: 0 });
    expect(await inC.list()).toEqual([inA1, inB].sort());
    // By department: A and below holds inA1.
    expect((await apply('department', [ent.depts.a], 'recycle')).envelope.payload).toEqual({ devices: 1, skipped: 0 });
    expect(await inC.list()).toEqual([inB]);
    expect((await apply('department', [ent.depts.root], 'recycle')).envelope.payload.devices).toBe(2);
    expect(await inC.list()).toEqual([]);
    // Allocating twice keeps one row per target.
    await apply('devices', [inA1], 'allocate');
    await apply('devices', [inA1], 'allocate');
    const rows = await t.db
      .select()
      .from(allocations)
      .where(and(eq(allocations.refType, RefType.device), eq(allocations.refId, inA1)));
    expect(rows).toHaveLength(1);
    // A member who only sees shared devices skips them and shares nothing.
    const res = await inC.client.call(endpoints.deviceShareApply, {
      by: 'department',
      ids: [c],
      action: 'allocate',
      allocateInfos: [{ id: ent.depts.b, type: 1 }],
    });
    expect(res.envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('imports a sheet of device numbers: a bad row writes nothing and is answered; a good sheet allocates', async () => {
    const { ent, admin, client, c } = await setup();
    const n1 = uniqueName('SN');
    const n2 = uniqueName('SN');
    await dev(ent, admin.id, { number: n1 });
    await dev(ent, admin.id, { number: n2 });
    const inC = await member(ent, c);
    const to = [{ id: c, type: 1 as const }];
    const bad = await client.call(endpoints.deviceShareImport, {
      file: await numberSheet([n1, 'NO-SUCH', n1]),
      action: 'allocate',
      allocateInfos: to,
    });
    expect(bad.envelope.code).toBe(0);
    expect(bad.envelope.payload).toEqual({
      devices: 0,
      errors: [
        { row: 3, number: 'NO-SUCH', reason: 'No device you can see has this number' },
        { row: 4, number: n1, reason: 'Duplicate device number' },
      ],
    });
    expect(await inC.list()).toEqual([]);
    const good = await client.call(endpoints.deviceShareImport, {
      file: await numberSheet([n1, n2]),
      action: 'allocate',
      allocateInfos: to,
    });
    expect(good.envelope.payload).toEqual({ devices: 2, errors: [] });
    expect((await inC.list()).length).toBe(2);
    const recycled = await client.call(endpoints.deviceShareImport, {
      file: await numberSheet([n2]),
      action: 'recycle',
      allocateInfos: to,
    });
    expect(recycled.envelope.payload.devices).toBe(1);
    expect((await inC.list()).length).toBe(1);
    const notXlsx = await client.call(endpoints.deviceShareImport, {
      file: Buffer.from('hello').toString('base64'),
      action: 'allocate',
      allocateInfos: to,
    });
    expect(notXlsx.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const template = await client.call(endpoints.deviceShareTemplate, {});
    expect(template.status).toBe(200);
    expect(String(template.headers['content-type'])).toContain('spreadsheetml');
  });

  it('counts only the devices the caller can see in a group and a tag', async () => {
    const { ent, admin, c } = await setup();
    const inC = await member(ent, c, 'dept_only');
    const mine = await dev(ent, admin.id, { deptId: c });
    const hidden = await dev(ent, admin.id);
    const group = await insertGroup(t, { entId: ent.id, deptId: c, ownerId: admin.id, name: uniqueName('G') });
    await t.db.update(devices).set({ groupId: group }).where(eq(devices.entId, ent.id));
    const tag = await insertTag(t, ent.id, { categoryId: await insertCategory(t, ent.id), deviceIds: [mine, hidden] });
    const groups = (await inC.client.call(endpoints.deviceGroupList, {})).envelope.payload.data;
    expect(groups.map((g) => g.deviceCount)).toEqual([1]);
    const tagRow = (await inC.client.call(endpoints.deviceTagList, {})).envelope.payload.data.find((r) => r.id === tag);
    expect(tagRow?.deviceCount).toBe(1);
    expect(
      (await inC.client.call(endpoints.deviceTagDetail, { id: tag })).envelope.payload.devices.map((d) => d.id),
    ).toEqual([mine]);
  });
});
