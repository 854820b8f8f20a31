import { ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asPlatform, insertHelpCategory, insertHelpImage } from './fixtures/help.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp, uniqueName } from './helpers/index.js';

/**
 * Help documents (issue 31): the platform operator writes, edits and publishes; a reader of
 * another enterprise reads the published document in its language, else zh-CN; no one else
 * writes; bodies are sanitised; search finds words of the text.
 */
describe.each(BACKENDS)('help documents on %s', (backend) => {
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

  async function reader(permissions: readonly string[] = [Perm.help, Perm.helpFile]) {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent, { permissions });
    return { ent, user, client: await t.loginAs(user) };
  }

  it('lets the operator write a draft, publish it, and a reader of another enterprise read it in ja or zh-CN', async () => {
    const op = await operator();
    const marker = uniqueName('pairing');
    const category = await op.client.call(endpoints.helpCategorySave, {
      names: { 'zh-CN': uniqueName('入门'), 'en-US': 'Getting started', ja: 'はじめに' },
    });
    expect(category.envelope.code).toBe(0);
    const categoryId = (category.envelope.payload as { id: string }).id;
    const image = await insertHelpImage(t, op.ent.id, op.user.id);
    const saved = await op.client.call(endpoints.helpSave, {
      categoryId,
      versions: [
        {
          language: 'zh-CN',
          title: '配对设备',
          body: `<p>在设备上打开播放器，输入配对码 ${marker}。</p><img data-help-image="${image}" src="blob:x"><script>alert(1)</script>`,
        },
        {
          language: 'ja',
          title: 'デバイスのペアリング',
          body: '<p onclick="steal()">ペアリングコードを入力します。</p>',
        },
      ],
    });
    expect(saved.envelope.code).toBe(0);
    const id = (saved.envelope.payload as { id: string }).id;

    const someone = await reader();
    // A draft is the operator's alone.
    expect((await someone.client.call(endpoints.helpInfo, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    const hidden = await someone.client.call(endpoints.helpList, { keyword: marker });
    expect(hidden.envelope.payload).toMatchObject({ total: 0 });

    expect((await op.client.call(endpoints.helpPublish, { id, published: true })).envelope.payload).toEqual({
      state: 'published',
    });

    // ja exists: the reader gets it; the sanitiser dropped the handler.
    const ja = await someone.client.call(endpoints.helpInfo, { id }, { language: 'ja' });
    expect(ja.envelope.payload).toMatchObject({
      doc: { language: 'ja', languages: ['zh-CN', 'ja'], state: 'published' },
      version: { language: 'ja', title: 'デバイスのペアリング', body: '<p>ペアリングコードを入力します。</p>' },
    });
    // en-US does not exist: zh-CN, said so; the script is gone, the picture has a signed src.
    const en = await someone.client.call(endpoints.helpInfo, { id }, { language: 'en-US' });
    const body = (en.envelope.payload as { version: { language: string; body: string } }).version;
    expect(body.language).toBe('zh-CN');
    expect(body.body).not.toContain('<script');
    expect(body.body).not.toContain('blob:');
    expect(body.body).toMatch(new RegExp(`<img src="[^"]+" data-help-image="${image}">`));

    // Search finds it by a word of its body, in the reader's language's title.
    const found = await someone.client.call(endpoints.helpList, { keyword: marker }, { language: 'ja' });
    expect(found.envelope.payload).toMatchObject({
      total: 1,
      data: [{ id, title: 'デバイスのペアリング', language: 'ja', categoryId }],
    });
    const byCategory = await someone.client.call(endpoints.helpList, { categoryId });
    expect(byCategory.envelope.payload).toMatchObject({ total: 1, data: [{ id }] });
    const categories = await someone.client.call(endpoints.helpCategories, {}, { language: 'ja' });
    expect(categories.envelope.payload).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: categoryId, name: 'はじめに', docCount: 1 })]),
    );

    // The operator edits: the versions given replace the stored ones.
    const edited = await op.client.call(endpoints.helpSave, {
      id,
      categoryId,
      versions: [{ language: 'zh-CN', title: '配对设备（新）', body: '<p>新的说明</p>' }],
    });
    expect(edited.envelope.code).toBe(0);
    const after = await someone.client.call(endpoints.helpInfo, { id }, { language: 'ja' });
    expect(after.envelope.payload).toMatchObject({
      doc: { languages: ['zh-CN'] },
      version: { language: 'zh-CN', title: '配对设备（新）' },
    });

    // A category with documents is not deleted; the document is, then the category.
    expect((await op.client.call(endpoints.helpCategoryDelete, { id: categoryId })).envelope.code).toBe(
      ErrorCode.HELP_CATEGORY_NOT_EMPTY,
    );
    expect((await op.client.call(endpoints.helpDelete, { id })).envelope.code).toBe(0);
    expect((await someone.client.call(endpoints.helpInfo, { id })).envelope.code).toBe(ErrorCode.NOT_FOUND);
    expect((await op.client.call(endpoints.helpCategoryDelete, { id: categoryId })).envelope.code).toBe(0);
  });

  it('keeps writing to the platform operator', async () => {
    const categoryId = await insertHelpCategory(t);
    // A user of a plain enterprise whose role names every code (the provider-only ones are not granted).
    const ent = await createEnterprise(t.db);
    const client = await t.loginAs(await createUser(t.db, ent));
    const write = { categoryId, versions: [{ language: 'zh-CN', title: 'x', body: '<p>x</p>' }] };
    expect((await client.call(endpoints.helpSave, write)).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    // A role of a plain enterprise naming the provider-only code does not grant it.
    const named = await createUser(t.db, ent, { permissions: [Perm.helpFile, Perm.helpManage] });
    const namedClient = await t.loginAs(named);
    expect((await namedClient.call(endpoints.helpSave, write)).envelope.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await namedClient.call(endpoints.helpCategorySave, { names: { 'zh-CN': 'x' } })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
  });

  it('requires the zh-CN version and uploaded pictures', async () => {
    const op = await operator();
    const categoryId = await insertHelpCategory(t);
    const noZh = await op.client.call(endpoints.helpSave, {
      categoryId,
      versions: [{ language: 'en-US', title: 'Only English', body: '<p>x</p>' }],
    });
    expect(noZh.envelope.code).toBe(ErrorCode.HELP_ZH_CN_REQUIRED);
    const badImage = await op.client.call(endpoints.helpSave, {
      categoryId,
      versions: [{ language: 'zh-CN', title: '图', body: '<img data-help-image="nope">' }],
    });
    expect(badImage.envelope.code).toBe(ErrorCode.HELP_IMAGE_INVALID);
    const name = uniqueName('分类');
    expect((await op.client.call(endpoints.helpCategorySave, { names: { 'zh-CN': name } })).envelope.code).toBe(0);
    expect((await op.client.call(endpoints.helpCategorySave, { names: { 'zh-CN': name } })).envelope.code).toBe(
      ErrorCode.HELP_CATEGORY_NAME_TAKEN,
    );
  });
});
