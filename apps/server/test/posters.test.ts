import { ErrorCode, endpoints, RefType } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materials, operationLogs, posters, posterTemplates } from '../src/db/schema/index.js';
import { insertFolder, insertMaterial } from './fixtures/materials.js';
import { FIXTURE_DOCUMENT, image } from './fixtures/posters.js';
import {
  type ApiClient,
  BACKENDS,
  createTestApp,
  createUser,
  type TestApp,
  type TestEnterprise,
  type TestUser,
} from './helpers/index.js';

const BOUNDARY = '----marquee-poster-boundary';

/** The multipart body the console POSTs: the signed fields in order, then `file`. */
function form(fields: Record<string, string>, type: string, data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="poster"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  );
  return Buffer.concat(parts);
}

describe.each(BACKENDS)('poster templates on %s', (backend) => {
  let t: TestApp;
  let client: ApiClient;
  let ent: TestEnterprise;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp(backend);
    ({ client, ent, admin } = await t.tenant());
  });
  afterAll(() => t.close());

  const save = async (name = 'Spring sale', as = client) => {
    const res = await as.call(endpoints.posterTemplateSave, {
      name,
      width: 96,
      height: 64,
      document: FIXTURE_DOCUMENT,
    });
    expect(res.envelope.code).toBe(0);
    return res.envelope.payload?.id as string;
  };

  /** imageApply -> POST /upload -> make, as the console does. */
  async function makePoster(
    templateId: string,
    bytes: Buffer,
    fields: Record<string, string>,
    as = client,
    materialId?: string,
  ) {
    const apply = await as.call(endpoints.posterImageApply, { templateId, format: 'png', size: bytes.length });
    expect(apply.envelope.code).toBe(0);
    const sig = apply.envelope.payload!;
    const upload = await t.app.inject({
      method: 'POST',
      url: sig.url,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: form(sig.fields, 'image/png', bytes),
    });
    return {
      upload,
      made: await as.call(endpoints.posterMake, {
        uploadId: sig.uploadId,
        fields,
        ...(materialId ? { materialId } : {}),
      }),
    };
  }

  it('saves, lists with its field count, reads, updates with a version check, copies and deletes', async () => {
    const id = await save();
    const page = await client.call(endpoints.posterTemplatePage, { name: 'SPRING' });
    expect(page.envelope.payload).toMatchObject({
      total: 1,
      data: [{ id, fieldCount: 1, madeCount: 0, hasPermission: true }],
    });
    const info = await client.call(endpoints.posterTemplateInfo, { id });
    expect(info.envelope.payload?.document.nodes.map((n) => n.id)).toEqual(['bg', 'title', 'qr']);

    const body = { id, name: 'Spring sale 2', width: 96, height: 64, document: FIXTURE_DOCUMENT };
    expect((await client.call(endpoints.posterTemplateUpdate, { ...body, version: 1 })).envelope.payload).toEqual({
      version: 2,
    });
    // A second editor that opened version 1 cannot overwrite version 2.
    expect((await client.call(endpoints.posterTemplateUpdate, { ...body, version: 1 })).envelope.code).toBe(
      ErrorCode.CONFLICT,
    );

    const copy = await client.call(endpoints.posterTemplateCopy, { id });
    const copied = await client.call(endpoints.posterTemplateInfo, { id: copy.envelope.payload!.id });
    expect(copied.envelope.payload).toMatchObject({ name: 'Spring sale 2 copy', version: 1, fieldCount: 1 });

    expect((await client.call(endpoints.posterTemplateDelete, { id })).envelope.code).toBe(0);
    expect((await client.call(endpoints.posterTemplateInfo, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const logged = await t.db
      .select({ action: operationLogs.action })
      .from(operationLogs)
      .where(and(eq(operationLogs.entId, ent.id), eq(operationLogs.module, 'poster')));
    expect(logged.map((l) => l.action).sort()).toEqual(['add', 'copy', 'delete', 'update']);
  });

  it('refuses documents the schema forbids: a field on a shape, duplicate field keys, a size out of range', async () => {
    const rect = FIXTURE_DOCUMENT.nodes[0];
    const bad = { ...FIXTURE_DOCUMENT, nodes: [{ ...rect, field: { key: 'x', label: 'X' } }] };
    const res = await client.call(endpoints.posterTemplateSave, { name: 'Bad', width: 96, height: 64, document: bad });
    expect(res.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    const title = FIXTURE_DOCUMENT.nodes[1];
    const dup = { ...FIXTURE_DOCUMENT, nodes: [title, { ...title, id: 'title2', z: 2 }] };
    expect(
      (await client.call(endpoints.posterTemplateSave, { name: 'Dup', width: 96, height: 64, document: dup })).envelope
        .code,
    ).toBe(ErrorCode.INVALID_PARAMS);
    expect(
      (
        await client.call(endpoints.posterTemplateSave, {
          name: 'Huge',
          width: 9000,
          height: 64,
          document: FIXTURE_DOCUMENT,
        })
      ).envelope.code,
    ).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('makes a poster through the signed upload, keeps only the template fields, and lists it per template', async () => {
    const id = await save('Menu');
    const { upload, made } = await makePoster(id, image(96, 64), { title: 'Half price', stranger: 'x' });
    expect(upload.json()).toMatchObject({ code: 0 });
    expect(made.envelope.code).toBe(0);
    expect(made.envelope.payload).toMatchObject({
      templateId: id,
      fields: { title: 'Half price' },
      width: 96,
      height: 64,
    });
    const img = await t.app.inject({ method: 'GET', url: made.envelope.payload!.url });
    expect(img.statusCode).toBe(200);
    expect(img.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    const other = await save('Other');
    await makePoster(other, image(96, 64), { title: 'Other' });
    const history = await client.call(endpoints.posterHistory, { templateId: id });
    expect(history.envelope.payload).toMatchObject({
      total: 1,
      data: [{ templateName: 'Menu', fields: { title: 'Half price' } }],
    });
    const all = await client.call(endpoints.posterHistory, {});
    expect(all.envelope.payload?.total).toBe(2);
    const list = await client.call(endpoints.posterTemplatePage, { name: 'Menu' });
    expect(list.envelope.payload?.data[0]).toMatchObject({
      madeCount: 1,
      thumbUrl: expect.stringContaining('/files/'),
    });
    // The upload is finished: it cannot be made twice.
    const again = await client.call(endpoints.posterMake, { uploadId: made.envelope.payload!.id, fields: {} });
    expect(again.envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('records the copy saved to the material library: a picture the caller sees, nothing else', async () => {
    const id = await save('Library copy');
    const own = { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id };
    const folder = await insertFolder(t, own);
    const picture = await insertMaterial(t, { ...own, folderId: folder.id, type: 'image' });
    const page = await insertMaterial(t, { ...own, folderId: folder.id, type: 'web' });
    const stranger = await t.tenant();
    const foreignFolder = await insertFolder(t, {
      entId: stranger.ent.id,
      deptId: stranger.ent.depts.root,
      ownerId: stranger.admin.id,
    });
    const foreign = await insertMaterial(t, {
      entId: stranger.ent.id,
      deptId: stranger.ent.depts.root,
      ownerId: stranger.admin.id,
      folderId: foreignFolder.id,
      type: 'image',
    });
    for (const refused of [page, foreign, 'no-such-material']) {
      const { made } = await makePoster(id, image(96, 64), {}, client, refused);
      expect(made.envelope.code).toBe(ErrorCode.NOT_FOUND);
    }
    const { made } = await makePoster(id, image(96, 64), {}, client, picture);
    expect(made.envelope.code).toBe(0);
    expect(made.envelope.payload?.materialId).toBe(picture);
    const history = await client.call(endpoints.posterHistory, { templateId: id });
    expect(history.envelope.payload?.data.map((p) => p.materialId)).toEqual([picture]);
  });

  it('draws library pictures by id: fresh signed URLs on open, no URL stored, in use while drawn, foreign ids refused', async () => {
    const own = { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id };
    const folder = await insertFolder(t, own);
    const picture = await insertMaterial(t, { ...own, folderId: folder.id, type: 'image' });
    await t.db
      .update(materials)
      .set({ fileKey: `e/${ent.id}/materials/${picture}.png`, mime: 'image/png' })
      .where(eq(materials.id, picture));
    const withPicture = (materialId: string) => ({
      ...FIXTURE_DOCUMENT,
      nodes: [
        ...FIXTURE_DOCUMENT.nodes,
        {
          ...FIXTURE_DOCUMENT.nodes[0],
          id: 'logo',
          type: 'image' as const,
          z: 3,
          locked: false,
          style: {},
          materialId,
          src: '/files/an-old-signed-url',
        },
      ],
    });
    const saved = await client.call(endpoints.posterTemplateSave, {
      name: 'With a picture',
      width: 96,
      height: 64,
      document: withPicture(picture),
    });
    expect(saved.envelope.code).toBe(0);
    const id = saved.envelope.payload!.id;
    const [stored] = await t.db.select().from(posterTemplates).where(eq(posterTemplates.id, id));
    expect(stored.document.nodes.find((n) => n.id === 'logo')).toMatchObject({ materialId: picture, src: '' });
    const info = await client.call(endpoints.posterTemplateInfo, { id });
    const logo = info.envelope.payload?.document.nodes.find((n) => n.id === 'logo');
    expect(logo?.src).toMatch(/^\/files\//);
    expect(logo?.src).not.toBe('/files/an-old-signed-url');

    const del = await client.call(endpoints.materialDelete, { ids: [picture] });
    expect(del.envelope.code).toBe(ErrorCode.MATERIAL_IN_USE);

    const stranger = await t.tenant();
    const foreignFolder = await insertFolder(t, {
      entId: stranger.ent.id,
      deptId: stranger.ent.depts.root,
      ownerId: stranger.admin.id,
    });
    const foreign = await insertMaterial(t, {
      entId: stranger.ent.id,
      deptId: stranger.ent.depts.root,
      ownerId: stranger.admin.id,
      folderId: foreignFolder.id,
      type: 'image',
    });
    const refused = await client.call(endpoints.posterTemplateUpdate, {
      id,
      version: info.envelope.payload!.version,
      name: 'With a picture',
      width: 96,
      height: 64,
      document: withPicture(foreign),
    });
    expect(refused.envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it("answers 'image generation failed' for an image that is not the template's size, or never arrived", async () => {
    const id = await save('Sized');
    const { made } = await makePoster(id, image(40, 30), {});
    expect(made.envelope.code).toBe(ErrorCode.IMAGE_GENERATION_FAILED);
    expect(made.envelope.message).toBe('Image generation failed');
    const apply = await client.call(endpoints.posterImageApply, { templateId: id, format: 'png', size: 100 });
    const missing = await client.call(endpoints.posterMake, { uploadId: apply.envelope.payload!.uploadId, fields: {} });
    expect(missing.envelope.code).toBe(ErrorCode.IMAGE_GENERATION_FAILED);
    const done = await t.db
      .select()
      .from(posters)
      .where(and(eq(posters.templateId, id), eq(posters.status, 'done')));
    expect(done).toHaveLength(0);
  });

  it('shares a template (ref-type 6): the colleague sees, uses and copies it but cannot delete it', async () => {
    const id = await save('Shared');
    const colleague = await createUser(t.db, ent, { deptIds: [ent.depts.b], dataScope: 'self' });
    const as = await t.loginAs(colleague);
    expect((await as.call(endpoints.posterTemplateInfo, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const share = await client.call(endpoints.permissionRefresh, {
      refType: RefType.poster,
      refIds: [id],
      allocateInfos: [{ id: colleague.id, type: 2, deptDataType: 2 }],
    });
    expect(share.envelope.code).toBe(0);
    expect((await as.call(endpoints.posterTemplateInfo, { id })).envelope.payload).toMatchObject({
      hasPermission: false,
    });
    const { made } = await makePoster(id, image(96, 64), { title: 'Mine' }, as);
    expect(made.envelope.code).toBe(0);
    expect((await as.call(endpoints.posterTemplateCopy, { id })).envelope.code).toBe(0);
    expect((await as.call(endpoints.posterTemplateDelete, { id })).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    // The owner sees the colleague's poster in the template's history.
    const history = await client.call(endpoints.posterHistory, { templateId: id });
    expect(history.envelope.payload?.data[0]).toMatchObject({
      makerName: expect.any(String),
      fields: { title: 'Mine' },
    });
  });
});
