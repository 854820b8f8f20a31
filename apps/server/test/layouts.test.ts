import { createComponent, createPage } from '@marquee/layout/schema';
import { ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operationLogs, templates } from '../src/db/schema/index.js';
import { setLayoutMaterialResolver } from '../src/modules/templates/materials.js';
import { registerTemplateReferrer } from '../src/modules/templates/references.js';
import { insertTemplate, templatesUsingMaterials } from '../src/modules/templates/repository.js';
import { sampleLayout } from './fixtures/templates.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
  type TestUser,
} from './helpers/index.js';

vi.setConfig({ hookTimeout: 180_000, testTimeout: 60_000 });

/** Layouts an imaginary referrer (ads, screens) claims: the in-use check's registry is real. */
const claimed = new Set<string>();
registerTemplateReferrer('test', async (_db, _entId, ids) => ids.filter((id) => claimed.has(id)));

describe.each(BACKENDS)('layouts (template save, update, info, copy, delete) on %s', (backend) => {
  let t: TestApp;
  let ent: TestEnterprise;
  let admin: TestUser;
  let client: ApiClient;

  beforeAll(async () => {
    t = await createTestApp(backend);
    ent = await createEnterprise(t.db);
    admin = await createUser(t.db, ent, { isEntAdmin: true });
    client = await t.loginAs(admin);
  });
  afterAll(() => t.close());

  it('saves a layout, reads it back the same, and writes the operation log', async () => {
    const doc = sampleLayout();
    const saved = await client.call(endpoints.templateSave, { name: ' Lobby ', document: doc });
    expect(saved.envelope.code).toBe(0);
    const { id, version } = saved.envelope.payload as { id: string; version: number };
    expect(version).toBe(1);
    const info = await client.call(endpoints.templateInfo, { id });
    expect(info.envelope.payload).toMatchObject({
      id,
      name: 'Lobby',
      width: 1280,
      height: 720,
      version: 1,
      hasPermission: true,
    });
    expect(info.envelope.payload?.document).toEqual(doc);
    const page = await client.call(endpoints.templatePage, { page: 1, size: 20, name: 'Lobby' });
    expect(page.envelope.payload?.data.map((r) => [r.id, r.width, r.height])).toEqual([[id, 1280, 720]]);
    const logs = await t.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.targetId, id), eq(operationLogs.action, 'templateSave')));
    expect(logs).toHaveLength(1);
  });

  it('updates with the expected version and answers a conflict to a stale editor', async () => {
    const { id } = await insertTemplate(t.db, {
      entId: ent.id,
      deptId: ent.depts.root,
      ownerId: admin.id,
      name: 'Shared',
      document: sampleLayout(),
    });
    const first = sampleLayout();
    first.pages.push(createPage({ name: 'Second' }));
    const a = await client.call(endpoints.templateUpdate, { id, name: 'Shared', document: first, expectedVersion: 1 });
    expect(a.envelope).toMatchObject({ code: 0, payload: { version: 2 } });
    // a second editor who opened version 1 saves: refused, nothing overwritten
    const b = await client.call(endpoints.templateUpdate, {
      id,
      name: 'Mine',
      document: sampleLayout(),
      expectedVersion: 1,
    });
    expect(b.envelope.code).toBe(ErrorCode.LAYOUT_VERSION_CONFLICT);
    const info = await client.call(endpoints.templateInfo, { id });
    expect(info.envelope.payload).toMatchObject({ name: 'Shared', version: 2 });
    expect(info.envelope.payload?.document.pages).toHaveLength(2);
  });

  it('enforces the section 5 rules with their own codes', async () => {
    const noPage = { ...sampleLayout(), pages: [] };
    expect((await client.call(endpoints.templateSave, { name: 'x', document: noPage })).envelope.code).toBe(
      ErrorCode.LAYOUT_KEEP_ONE_PAGE,
    );
    const live = sampleLayout();
    for (let i = 0; i < 7; i++) live.pages[0].components.push(createComponent('liveStream'));
    expect((await client.call(endpoints.templateSave, { name: 'x', document: live })).envelope.code).toBe(
      ErrorCode.LAYOUT_TOO_MANY_LIVE,
    );
    const jumps = sampleLayout();
    for (let i = 0; i < 2; i++) jumps.pages[0].components.push(createComponent('button', { props: { autoJump: 5 } }));
    expect((await client.call(endpoints.templateSave, { name: 'x', document: jumps })).envelope.code).toBe(
      ErrorCode.LAYOUT_ONE_AUTO_JUMP,
    );
    const dangling = sampleLayout();
    dangling.pages[0].components.push(
      createComponent('button', { props: { action: { kind: 'jumpPage', pageId: 'gone' } } }),
    );
    expect((await client.call(endpoints.templateSave, { name: 'x', document: dangling })).envelope.code).toBe(
      ErrorCode.LAYOUT_INVALID,
    );
    const tooWide = { ...sampleLayout(), width: 11521 };
    const bad = await client.call(endpoints.templateSave, { name: 'x', document: tooWide });
    expect(bad.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(bad.envelope.message).toContain('document.width');
    const js = sampleLayout();
    js.pages[0].components.push(createComponent('webPage', { props: { url: 'https://example.com' } }));
    (js.pages[0].components[2].props as { url: string }).url = 'javascript:alert(1)';
    expect((await client.call(endpoints.templateSave, { name: 'x', document: js })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
  });

  it('refuses to edit or delete a default layout, but copies it', async () => {
    const original = sampleLayout();
    const { id } = await insertTemplate(t.db, {
      entId: ent.id,
      deptId: ent.depts.root,
      ownerId: admin.id,
      name: 'Default screen',
      document: original,
      isDefault: true,
    });
    const update = await client.call(endpoints.templateUpdate, {
      id,
      name: 'x',
      document: sampleLayout(),
      expectedVersion: 1,
    });
    expect(update.envelope.code).toBe(ErrorCode.LAYOUT_NOT_EDITABLE);
    expect(update.envelope.message).toBe('This layout cannot be edited or upgraded');
    expect((await client.call(endpoints.templateDelete, { id })).envelope.code).toBe(ErrorCode.LAYOUT_NOT_EDITABLE);
    const copy = await client.call(endpoints.templateCopy, { id });
    expect(copy.envelope.code).toBe(0);
    const info = await client.call(endpoints.templateInfo, { id: copy.envelope.payload?.id as string });
    expect(info.envelope.payload).toMatchObject({ name: 'Default screen copy', isDefault: false, version: 1 });
    expect(info.envelope.payload?.document).toEqual(original);
  });

  it('refuses to delete a layout in use, deletes one that is not', async () => {
    const { id } = await insertTemplate(t.db, {
      entId: ent.id,
      deptId: ent.depts.root,
      ownerId: admin.id,
      name: 'Used',
      document: sampleLayout(),
    });
    claimed.add(id);
    expect((await client.call(endpoints.templateInfo, { id })).envelope.payload?.inUse).toBe(true);
    expect((await client.call(endpoints.templateDelete, { id })).envelope.code).toBe(ErrorCode.LAYOUT_IN_USE);
    claimed.delete(id);
    expect((await client.call(endpoints.templateDelete, { id })).envelope.code).toBe(0);
    expect((await client.call(endpoints.templateInfo, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect(await t.db.select().from(templates).where(eq(templates.id, id))).toHaveLength(0);
  });

  it('lets only managers change a layout: a shared or other-department reader may open and copy it', async () => {
    const owner = await createUser(t.db, ent, { deptIds: [ent.depts.a1], dataScope: 'self' });
    const { id } = await insertTemplate(t.db, {
      entId: ent.id,
      deptId: ent.depts.a1,
      ownerId: owner.id,
      name: 'A1 only',
      document: sampleLayout(),
    });
    const peer = await createUser(t.db, ent, { deptIds: [ent.depts.a1], dataScope: 'dept_only' });
    const peerClient = await t.loginAs(peer);
    expect((await peerClient.call(endpoints.templateInfo, { id })).envelope.payload?.hasPermission).toBe(false);
    const update = await peerClient.call(endpoints.templateUpdate, {
      id,
      name: 'x',
      document: sampleLayout(),
      expectedVersion: 1,
    });
    expect(update.envelope.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await peerClient.call(endpoints.templateCopy, { id })).envelope.code).toBe(0);
    const stranger = await createUser(t.db, ent, { deptIds: [ent.depts.b], dataScope: 'self' });
    const strangerClient = await t.loginAs(stranger);
    expect((await strangerClient.call(endpoints.templateDelete, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const reader = await createUser(t.db, ent, { permissions: [Perm.template] });
    const readerClient = await t.loginAs(reader);
    expect(
      (await readerClient.call(endpoints.templateSave, { name: 'x', document: sampleLayout() })).envelope.code,
    ).toBe(ErrorCode.NO_PERMISSION);
  });

  it('keeps the material ids of a document for the in-use check, and resolves their URLs when a resolver is installed', async () => {
    const doc = sampleLayout();
    doc.pages[0].background.materialId = 'mat-bg';
    doc.pages[0].components.push(
      createComponent('picture', { props: { materials: [{ materialId: 'mat-1', duration: 5 }] } }),
    );
    const saved = await client.call(endpoints.templateSave, { name: 'With pictures', document: doc });
    const id = saved.envelope.payload?.id as string;
    expect((await templatesUsingMaterials(t.db, ent.id, ['mat-1', 'other'])).map((r) => r.id)).toEqual([id]);
    expect(await templatesUsingMaterials(t.db, ent.id, ['other'])).toEqual([]);
    expect((await client.call(endpoints.templateInfo, { id })).envelope.payload?.materials).toEqual({});
    setLayoutMaterialResolver(
      async (_db, _entId, ids) =>
        new Map(ids.filter((m) => m === 'mat-1').map((m) => [m, { url: `/files/${m}`, type: 'image' }])),
    );
    try {
      expect((await client.call(endpoints.templateInfo, { id })).envelope.payload?.materials).toEqual({
        'mat-1': { url: '/files/mat-1', type: 'image' },
      });
    } finally {
      setLayoutMaterialResolver(null);
    }
  });

  it('opens a row saved before layouts had documents as an empty layout of its size', async () => {
    const { id } = await insertTemplate(t.db, {
      entId: ent.id,
      deptId: ent.depts.root,
      ownerId: admin.id,
      name: 'Old',
      width: 800,
      height: 600,
    });
    const info = await client.call(endpoints.templateInfo, { id });
    expect(info.envelope.payload?.document).toMatchObject({
      v: 1,
      width: 800,
      height: 600,
      pages: [{ components: [] }],
    });
  });
});
