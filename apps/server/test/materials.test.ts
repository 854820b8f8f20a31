import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ErrorCode,
  endpoints,
  IMAGE_MAX_BYTES,
  MATERIAL_FOLDER_MAX_DEPTH,
  Perm,
  RefType,
  type UploadSignature,
} from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allocations, departments, materials, materialUploads, storageQuotas } from '../src/db/schema/index.js';
import { mediaTools, probeMaterial } from '../src/modules/materials/probe.js';
import { registerMaterialReferrer, unregisterMaterialReferrer } from '../src/modules/materials/references.js';
import { getMaterialsForRender } from '../src/modules/materials/render.js';
import { listMaterials, type MaterialListInput } from '../src/modules/materials/service.js';
import { pruneUploads } from '../src/modules/materials/upload.js';
import type { CallContext } from '../src/protocol/handlers.js';
import { insertFolder, insertMaterial, png, storedUpload } from './fixtures/materials.js';
import {
  type ApiClient,
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  type TestApp,
  type TestUser,
} from './helpers/index.js';

const run = promisify(execFile);
const BOUNDARY = '----marquee-material-boundary';

/** The multipart body the console's upload queue posts: the signature's fields in order, then `file`. */
function form(sig: UploadSignature, file: { type: string; data: Buffer; name: string }): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(sig.fields)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  );
  return Buffer.concat(parts);
}

/** A 1 s test video (mp4, 160x120) made by the shipped ffmpeg. */
async function mp4(): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'marquee-mp4-'));
  try {
    const out = join(dir, 'clip.mp4');
    await run(mediaTools().ffmpeg, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=1:size=160x120:rate=10',
      '-pix_fmt',
      'yuv420p',
      '-y',
      out,
    ]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe.each(BACKENDS)('material library on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function tenant() {
    const ent = await createEnterprise(t.db);
    const admin = await createUser(t.db, ent, { isEntAdmin: true });
    const client = await t.loginAs(admin);
    return { ent, admin, client };
  }

  async function folder(client: ApiClient, name: string, parentId?: string) {
    const res = await client.call(endpoints.materialFolderCreate, { name, parentId });
    expect(res.envelope.code).toBe(0);
    return res.envelope.payload.id;
  }

  /** Apply, POST to the local storage, verify: the console's whole upload. */
  async function upload(
    client: ApiClient,
    folderId: string,
    file: { name: string; type: string; data: Buffer },
    declared: 'image' | 'video' | 'audio' | 'document' | 'archive' = 'image',
  ) {
    const applied = await client.call(endpoints.materialUploadApply, {
      folderId,
      fileName: file.name,
      size: file.data.length,
      contentType: file.type,
      type: declared,
    });
    if (applied.envelope.code !== 0) throw new Error(`apply answered ${applied.envelope.code}`);
    const sig = applied.envelope.payload;
    const posted = await t.app.inject({
      method: 'POST',
      url: sig.url,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: form(sig, file),
    });
    expect(posted.statusCode).toBe(200);
    const verified = await client.call(endpoints.materialUploadVerify, { uploadId: sig.uploadId });
    return { stage: 'verify' as const, code: verified.envelope.code, res: verified, key: sig.key, apply: sig };
  }

  it('keeps the folder rules: names, sibling names, depth, moves and deleting only empty folders', async () => {
    const { client } = await tenant();
    expect((await client.call(endpoints.materialFolderCreate, { name: 'a/b' })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    expect((await client.call(endpoints.materialFolderCreate, { name: 'x'.repeat(51) })).envelope.code).toBe(
      ErrorCode.INVALID_PARAMS,
    );
    const top = await folder(client, 'Spring');
    expect((await client.call(endpoints.materialFolderCreate, { name: 'spring' })).envelope.code).toBe(
      ErrorCode.MATERIAL_FOLDER_NAME_TAKEN,
    );
    let parent = top;
    const chain = [top];
    for (let depth = 2; depth <= MATERIAL_FOLDER_MAX_DEPTH; depth++) {
      parent = await folder(client, `Level ${depth}`, parent);
      chain.push(parent);
    }
    const tooDeep = await client.call(endpoints.materialFolderCreate, { name: 'One more', parentId: parent });
    expect(tooDeep.envelope.code).toBe(ErrorCode.MATERIAL_FOLDER_TOO_DEEP);
    expect(tooDeep.envelope.message).toBe('Too many directory levels');
    // Not into its own subtree; not so that the subtree gets too deep.
    expect((await client.call(endpoints.materialFolderMove, { id: top, parentId: chain[2] })).envelope.code).toBe(
      ErrorCode.MATERIAL_FOLDER_MOVE_INVALID,
    );
    const other = await folder(client, 'Summer');
    expect((await client.call(endpoints.materialFolderMove, { id: top, parentId: other })).envelope.code).toBe(
      ErrorCode.MATERIAL_FOLDER_TOO_DEEP,
    );
    // A move carries the subtree (paths and depths).
    expect((await client.call(endpoints.materialFolderMove, { id: chain[2], parentId: other })).envelope.code).toBe(0);
    const tree = (await client.call(endpoints.materialFolderTree, {})).envelope.payload;
    const byId = new Map(tree.map((f) => [f.id, f]));
    expect(byId.get(chain[2])).toMatchObject({ parentId: other, depth: 2 });
    expect(byId.get(chain[4])).toMatchObject({ depth: 4 });
    // Deleting: refused while it holds a folder or a material.
    const notEmpty = await client.call(endpoints.materialFolderDelete, { id: other });
    expect(notEmpty.envelope.code).toBe(ErrorCode.MATERIAL_FOLDER_NOT_EMPTY);
    const leaf = await folder(client, 'Leaf');
    await client.call(endpoints.materialMediaAdd, {
      folderId: leaf,
      name: 'Page',
      type: 'web',
      url: 'https://example.com',
    });
    expect((await client.call(endpoints.materialFolderDelete, { id: leaf })).envelope.code).toBe(
      ErrorCode.MATERIAL_FOLDER_NOT_EMPTY,
    );
    expect((await client.call(endpoints.materialFolderDelete, { id: chain[4] })).envelope.code).toBe(0);
  });

  it('uploads an image through the signed policy, probes it, and warns of a duplicate', async () => {
    const { ent, client } = await tenant();
    const f = await folder(client, 'Pictures');
    const data = await png(800, 600);
    const first = await upload(client, f, { name: 'logo.png', type: 'image/png', data });
    expect(first.code).toBe(0);
    const m = first.res.envelope.payload.material;
    expect(m).toMatchObject({ name: 'logo', type: 'image', status: 'processing', size: data.length });
    expect(first.res.envelope.payload.warnings).toEqual([]);
    expect(await probeMaterial(t.services, m.id, t.app.log)).toBe('ready');
    const detail = (await client.call(endpoints.materialDetail, { id: m.id })).envelope.payload;
    expect(detail).toMatchObject({
      status: 'ready',
      width: 800,
      height: 600,
      thumbUrl: expect.stringMatching(/^\/files\//),
    });
    const thumb = await t.app.inject({ method: 'GET', url: detail.thumbUrl as string });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    // The same file again: a duplicate warning naming the first.
    const second = await upload(client, f, { name: 'logo-copy.png', type: 'image/png', data });
    expect(second.code).toBe(0);
    expect(second.res.envelope.payload.warnings).toContain('duplicate');
    expect(second.res.envelope.payload.duplicates).toMatchObject([{ id: m.id, match: 'sha256' }]);
    const dups = await client.call(endpoints.materialList, { duplicatesOnly: true });
    expect(dups.envelope.payload.total).toBe(2);
    // Usage counts the files and the thumbnail.
    const usage = (await client.call(endpoints.materialStorageUsage, {})).envelope.payload;
    expect(usage.usedBytes).toBeGreaterThan(2 * data.length);
    expect(usage.materialCount).toBe(2);
    // Verify is idempotent: the same material again.
    const again = await client.call(endpoints.materialUploadVerify, { uploadId: first.apply?.uploadId ?? '' });
    expect(again.envelope.payload.material.id).toBe(m.id);
    expect(ent.id).toBeTruthy();
  });

  it('judges the format from the content: a forged extension is a file format error and is deleted', async () => {
    const { client } = await tenant();
    const f = await folder(client, 'Pictures');
    const forged = Buffer.concat([Buffer.from('MZ\x90\x00 not a picture at all'), Buffer.alloc(500, 1)]);
    const res = await upload(client, f, { name: 'photo.png', type: 'image/png', data: forged });
    expect(res.stage).toBe('verify');
    expect(res.code).toBe(ErrorCode.FILE_FORMAT_ERROR);
    expect(await t.services.files.storage.exists(res.key as string)).toBe(false);
    // A real PDF declared as an image: its content is not the declared type.
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n');
    const wrongType = await upload(client, f, { name: 'photo.png', type: 'image/png', data: pdf });
    expect(wrongType.code).toBe(ErrorCode.FILE_FORMAT_ERROR);
    expect((await client.call(endpoints.materialList, {})).envelope.payload.total).toBe(0);
  });

  it('enforces the size limits by declared type and the quota with its message', async () => {
    const { ent, client } = await tenant();
    const f = await folder(client, 'Pictures');
    const big = await client.call(endpoints.materialUploadApply, {
      folderId: f,
      fileName: 'huge.png',
      size: IMAGE_MAX_BYTES + 1,
      contentType: 'image/png',
      type: 'image',
    });
    expect(big.envelope.code).toBe(ErrorCode.FILE_TOO_LARGE);
    expect(big.envelope.message).toBe('File size limit exceeded');
    const warned = await client.call(endpoints.materialUploadApply, {
      folderId: f,
      fileName: 'large.png',
      size: 6 * 1024 * 1024,
      contentType: 'image/png',
      type: 'image',
    });
    expect(warned.envelope.payload.warnings).toEqual(['imageLarge']);
    const wrongMime = await client.call(endpoints.materialUploadApply, {
      folderId: f,
      fileName: 'song.mp3',
      size: 100,
      contentType: 'audio/mpeg',
      type: 'image',
    });
    expect(wrongMime.envelope.code).toBe(ErrorCode.FILE_FORMAT_ERROR);
    const noFolder = await client.call(endpoints.materialUploadApply, {
      fileName: 'a.png',
      size: 100,
      contentType: 'image/png',
      type: 'image',
    });
    expect(noFolder.envelope.code).toBe(ErrorCode.MATERIAL_FOLDER_REQUIRED);
    expect(noFolder.envelope.message).toBe('Please choose a folder before uploading');
    // Quota: pending uploads count, so the next one over the quota is refused.
    await t.db
      .insert(storageQuotas)
      .values({ entId: ent.id, quotaBytes: 8 * 1024 * 1024, usedBytes: 0 })
      .onConflictDoUpdate({
        target: storageQuotas.entId,
        set: { quotaBytes: 8 * 1024 * 1024 },
      });
    const over = await client.call(endpoints.materialUploadApply, {
      folderId: f,
      fileName: 'more.png',
      size: 3 * 1024 * 1024,
      contentType: 'image/png',
      type: 'image',
    });
    expect(over.envelope.code).toBe(ErrorCode.STORAGE_QUOTA_EXCEEDED);
    expect(over.envelope.message).toContain('Not enough storage space');
  });

  it('leaves nothing of an upload never posted or never verified once its slot expires', async () => {
    const { client } = await tenant();
    const f = await folder(client, 'Pictures');
    const applied = await client.call(endpoints.materialUploadApply, {
      folderId: f,
      fileName: 'a.png',
      size: 100,
      contentType: 'image/png',
      type: 'image',
    });
    const missing = await client.call(endpoints.materialUploadVerify, { uploadId: applied.envelope.payload.uploadId });
    expect(missing.envelope.code).toBe(ErrorCode.MATERIAL_FILE_MISSING);
    t.clock.advance(3 * 3600_000);
    await pruneUploads(t.services, t.app.log);
    const [slot] = await t.db
      .select()
      .from(materialUploads)
      .where(eq(materialUploads.id, applied.envelope.payload.uploadId));
    expect(slot).toBeUndefined();
    const expired = await client.call(endpoints.materialUploadVerify, { uploadId: applied.envelope.payload.uploadId });
    expect(expired.envelope.code).toBe(ErrorCode.MATERIAL_UPLOAD_EXPIRED);
  });

  it('probes a video (duration, resolution, codec, poster) and marks a broken one invalid', async () => {
    const { ent, admin, client } = await tenant();
    const f = await folder(client, 'Clips');
    const res = await upload(client, f, { name: 'clip.mp4', type: 'video/mp4', data: await mp4() }, 'video');
    expect(res.code).toBe(0);
    const id = res.res.envelope.payload.material.id;
    expect(await probeMaterial(t.services, id, t.app.log)).toBe('ready');
    const m = (await client.call(endpoints.materialDetail, { id })).envelope.payload;
    expect(m).toMatchObject({ status: 'ready', width: 160, height: 120, codec: 'h264', thumbUrl: expect.any(String) });
    expect(m.duration).toBeCloseTo(1, 0);
    // ftyp header, then garbage: sniffed as video, cannot be probed -> invalid, with its reason.
    const broken = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(3000, 9)]);
    const folderRow = await insertFolder(t, { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id });
    const uploadId = await storedUpload(t, { ent, user: admin }, folderRow.id, broken, 'video', 'mp4');
    const v = await client.call(endpoints.materialUploadVerify, { uploadId });
    expect(v.envelope.code).toBe(0);
    expect(await probeMaterial(t.services, v.envelope.payload.material.id, t.app.log)).toBe('invalid');
    const bad = (await client.call(endpoints.materialDetail, { id: v.envelope.payload.material.id })).envelope.payload;
    expect(bad).toMatchObject({ status: 'invalid', invalidReason: expect.any(String), thumbUrl: null, width: null });
    const render = await getMaterialsForRender(t.db, ent.id, [id, bad.id], t.services.files);
    expect([...render.keys()]).toEqual([id]);
  });

  describe('references', () => {
    afterEach(() => unregisterMaterialReferrer('test-layout'));

    it('refuses to delete a material in use (the whole batch), deletes it once free', async () => {
      const { client } = await tenant();
      const f = await folder(client, 'Pictures');
      const used = await client.call(endpoints.materialMediaAdd, {
        folderId: f,
        name: 'Used page',
        type: 'web',
        url: 'https://example.com/a',
      });
      const free = await client.call(endpoints.materialMediaAdd, {
        folderId: f,
        name: 'Free page',
        type: 'stream',
        url: 'rtmp://live.example.com/app/key',
      });
      const usedId = used.envelope.payload.id;
      registerMaterialReferrer('test-layout', async (_db, _ent, ids) => ids.filter((id) => id === usedId));
      const refused = await client.call(endpoints.materialDelete, { ids: [usedId, free.envelope.payload.id] });
      expect(refused.envelope.code).toBe(ErrorCode.MATERIAL_IN_USE);
      expect((await client.call(endpoints.materialList, {})).envelope.payload.total).toBe(2);
      expect((await client.call(endpoints.materialDetail, { id: usedId })).envelope.payload.inUse).toBe(true);
      unregisterMaterialReferrer('test-layout');
      expect((await client.call(endpoints.materialDelete, { ids: [usedId] })).envelope.payload).toEqual({ deleted: 1 });
    });
  });

  it('validates web page and live-stream addresses', async () => {
    const { client } = await tenant();
    const f = await folder(client, 'Links');
    for (const [type, url] of [
      ['web', 'javascript:alert(1)'],
      ['web', 'rtmp://x.example.com/a'],
      ['stream', 'https://user:pw@example.com/live.m3u8'],
      ['web', 'https://exa mple.com'],
    ] as const) {
      const res = await client.call(endpoints.materialMediaAdd, { folderId: f, name: 'x', type, url });
      expect(res.envelope.code, url).toBe(ErrorCode.MATERIAL_URL_INVALID);
    }
  });

  it('keeps data scope: a self-scope user sees its own and what is shared, a folder share covers its materials', async () => {
    const { ent, admin, client } = await tenant();
    const shared = await folder(client, 'Shared');
    const privateF = await folder(client, 'Private');
    const inShared = (
      await client.call(endpoints.materialMediaAdd, {
        folderId: shared,
        name: 'In shared',
        type: 'web',
        url: 'https://a.example.com',
      })
    ).envelope.payload.id;
    await client.call(endpoints.materialMediaAdd, {
      folderId: privateF,
      name: 'Hidden',
      type: 'web',
      url: 'https://b.example.com',
    });
    const staff: TestUser = await createUser(t.db, ent, {
      permissions: [Perm.advMaterial],
      dataScope: 'self',
      deptIds: [ent.depts.b],
    });
    const staffClient = await t.loginAs(staff);
    expect((await staffClient.call(endpoints.materialList, {})).envelope.payload.total).toBe(0);
    const refresh = await client.call(endpoints.permissionRefresh, {
      refType: RefType.materialFolder,
      refIds: [shared],
      allocateInfos: [{ id: staff.id, type: 2 }],
    });
    expect(refresh.envelope.code).toBe(0);
    const seen = (await staffClient.call(endpoints.materialList, {})).envelope.payload;
    expect(seen.data.map((m) => m.name)).toEqual(['In shared']);
    expect(seen.data[0].hasPermission).toBe(false);
    // Seeing is not changing; the inherited share shows locked in the dialog.
    expect((await staffClient.call(endpoints.materialRename, { id: inShared, name: 'Mine' })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
    const alloc = await client.call(endpoints.permissionAllocation, { refType: RefType.material, refId: inShared });
    expect(alloc.envelope.payload.allocateInfos).toMatchObject([{ id: staff.id, isExtends: true }]);
    // Another enterprise sees nothing of it.
    const other = await tenant();
    expect((await other.client.call(endpoints.materialDetail, { id: inShared })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    expect(admin.id).toBeTruthy();
  });

  it('writes bytes held in the quota row and frees them on delete', async () => {
    const { ent, client } = await tenant();
    const f = await folder(client, 'Pictures');
    const res = await upload(client, f, { name: 'x.png', type: 'image/png', data: await png(40, 40) });
    const id = res.res.envelope.payload.material.id;
    const [before] = await t.db.select().from(storageQuotas).where(eq(storageQuotas.entId, ent.id));
    expect(Number(before.usedBytes)).toBeGreaterThan(0);
    expect((await client.call(endpoints.materialDelete, { ids: [id] })).envelope.code).toBe(0);
    const [after] = await t.db.select().from(storageQuotas).where(eq(storageQuotas.entId, ent.id));
    expect(Number(after.usedBytes)).toBe(0);
    const [row] = await t.db.select().from(materials).where(eq(materials.id, id));
    expect(row).toBeUndefined();
  });

  it('lists the same rows and totals with the merged plan of a folder filter or a department scope', async () => {
    const { ent, admin } = await tenant();
    const staff = await createUser(t.db, ent, { deptIds: [ent.depts.a], dataScope: 'dept_and_below' });
    const base = Date.parse('2026-05-01T00:00:00Z');
    const topA = await insertFolder(t, { entId: ent.id, deptId: ent.depts.a, ownerId: admin.id });
    const subA = await insertFolder(t, { entId: ent.id, deptId: ent.depts.a1, ownerId: admin.id, parent: topA });
    const topB = await insertFolder(t, { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id });
    const sharedFolder = await insertFolder(t, { entId: ent.id, deptId: ent.depts.b, ownerId: admin.id });
    /** A material created `minutes` after base: ties of created_at on purpose (i % 4). */
    let n = 0;
    async function add(deptId: string | null, ownerId: string, folderId: string, type: 'image' | 'web' = 'web') {
      const id = await insertMaterial(t, { entId: ent.id, deptId, ownerId, folderId, type, size: 100 + n });
      await t.db
        .update(materials)
        .set({ createdAt: new Date(base + (n++ % 4) * 60_000) })
        .where(eq(materials.id, id));
      return id;
    }
    // In the scope: the two departments of a's subtree, in folders of both, images and pages.
    for (let i = 0; i < 5; i++) {
      await add(ent.depts.a, admin.id, topA.id, i % 2 ? 'image' : 'web');
      await add(ent.depts.a1, admin.id, subA.id, i % 2 ? 'web' : 'image');
      await add(ent.depts.a1, admin.id, topA.id);
    }
    // Outside it: the caller's own (one without a department), one shared directly, one shared
    // and its own (listed once), a folder shared with it, and others it does not see.
    await add(ent.depts.b, staff.id, topB.id);
    await add(null, staff.id, topB.id, 'image');
    const sharedOne = await add(ent.depts.b, admin.id, topB.id);
    const sharedOwn = await add(ent.depts.b, staff.id, topB.id);
    await add(ent.depts.b, admin.id, sharedFolder.id);
    await add(ent.depts.b, admin.id, sharedFolder.id, 'image');
    for (let i = 0; i < 3; i++) await add(ent.depts.b, admin.id, topB.id);
    for (const [refType, refId] of [
      [RefType.material, sharedOne],
      [RefType.material, sharedOwn],
      [RefType.materialFolder, sharedFolder.id],
    ] as const) {
      await t.db
        .insert(allocations)
        .values({ entId: ent.id, refType, refId, targetType: 2, targetId: staff.id, deptDataType: 2 });
    }
    const [deptA] = await t.db
      .select({ path: departments.path })
      .from(departments)
      .where(eq(departments.id, ent.depts.a));
    const callers = [
      { entId: ent.id, accountId: admin.id, deptId: ent.depts.root, deptPath: null, dataScope: 'all' as const },
      ...(['dept_and_below', 'dept_only'] as const).map((dataScope) => ({
        entId: ent.id,
        accountId: staff.id,
        deptId: ent.depts.a,
        deptPath: deptA.path,
        dataScope,
      })),
    ];
    const list: MaterialListInput = {
      page: 1,
      size: 4,
      includeSubfolders: true,
      duplicatesOnly: false,
      sort: 'createdAt',
      order: 'desc',
    };
    const inputs: Partial<MaterialListInput>[] = [
      {},
      { order: 'asc' },
      { type: 'image' },
      { folderId: topA.id },
      { folderId: topA.id, includeSubfolders: false },
      { folderId: topB.id, order: 'asc' },
      { folderId: sharedFolder.id },
    ];
    let compared = 0;
    for (const user of callers) {
      const ctx = { db: t.db, user, now: new Date(), services: t.services } as unknown as CallContext;
      for (const input of inputs) {
        for (const page of [1, 2, 3, 4, 9]) {
          const ask = { ...list, ...input, page };
          // A folder the caller cannot see is NOT_FOUND in both plans.
          const plain = await listMaterials(ask, ctx, 'plain').catch((e: Error) => e.message);
          const merged = await listMaterials(ask, ctx).catch((e: Error) => e.message);
          const shape = (r: typeof plain) =>
            typeof r === 'string' ? r : { total: r.total, ids: r.data.map((m) => m.id) };
          expect(shape(merged)).toEqual(shape(plain));
          if (typeof plain !== 'string' && plain.data.length > 0) compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('lists with filters: type, folder with sub-folders, name, size', async () => {
    const { ent, admin, client } = await tenant();
    const own = { entId: ent.id, deptId: ent.depts.root, ownerId: admin.id };
    const top = await insertFolder(t, own);
    const sub = await insertFolder(t, { ...own, parent: top });
    await insertMaterial(t, { ...own, folderId: top.id, name: 'Alpha', size: 10 });
    await insertMaterial(t, { ...own, folderId: sub.id, name: 'Beta', size: 2000, type: 'image' });
    const all = await client.call(endpoints.materialList, { folderId: top.id });
    expect(all.envelope.payload.total).toBe(2);
    const direct = await client.call(endpoints.materialList, { folderId: top.id, includeSubfolders: false });
    expect(direct.envelope.payload.data.map((m) => m.name)).toEqual(['Alpha']);
    expect((await client.call(endpoints.materialList, { type: 'image' })).envelope.payload.total).toBe(1);
    expect((await client.call(endpoints.materialList, { name: 'alp' })).envelope.payload.total).toBe(1);
    expect((await client.call(endpoints.materialList, { minSize: 100 })).envelope.payload.total).toBe(1);
  });
});
