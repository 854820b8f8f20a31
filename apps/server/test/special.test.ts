import { Readable } from 'node:stream';
import { ErrorCode, endpoints, Perm } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

vi.setConfig({ hookTimeout: 180_000, testTimeout: 60_000 });

/** A tiny PNG (1x1). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const resource = {
  title: 'Bund landmark screen',
  description: 'The 40 m facade on the Bund, the whole National Day week',
  kind: 'landmark' as const,
  targets: { deviceIds: [], groupIds: [], tagIds: [], spliceIds: [] },
  startDate: '2026-10-01',
  endDate: '2026-10-07',
  price: 12_345_67,
  capacity: 1,
  state: 'listed' as const,
};

/**
 * Special resources (issue 31; docs/ARCHITECTURE.md "Special resources"): the platform operator
 * lists a resource with a photo, an advertiser inquires, the operator quotes (a station letter to
 * the inquirer), the advertiser accepts while there is room; another enterprise's advertiser
 * sees the shelf but not the first's inquiries, and an enterprise cannot manage resources.
 */
describe.each(BACKENDS)('special resources on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  async function world() {
    const platform = await createEnterprise(t.db, { kind: 'provider' });
    const operator = await t.loginAs(
      await createUser(t.db, platform, { permissions: [Perm.specialResource, Perm.specialResourceManage] }),
    );
    const ent = await createEnterprise(t.db);
    const advertiser = await t.loginAs(await createUser(t.db, ent, { permissions: [Perm.specialResource] }));
    const colleague = await t.loginAs(await createUser(t.db, ent, { permissions: [Perm.specialResource] }));
    const other = await createEnterprise(t.db);
    const stranger = await t.loginAs(await createUser(t.db, other, { permissions: [Perm.specialResource] }));
    // An enterprise's administrator may hold every code but the provider-only ones.
    const entManager = await t.loginAs(
      await createUser(t.db, other, { permissions: [Perm.specialResource, Perm.specialResourceManage] }),
    );
    return { platform, operator, advertiser, colleague, stranger, entManager };
  }

  it('the operator lists a resource with a photo; an advertiser inquires, gets a quote letter and accepts', async () => {
    const w = await world();
    const apply = await w.operator.call(endpoints.specialPhotoApply, { size: PNG.length, contentType: 'image/png' });
    expect(apply.envelope.code).toBe(0);
    const { photoId, key } = apply.envelope.payload as { photoId: string; key: string };
    // a photo not in storage yet is refused
    expect(
      (await w.operator.call(endpoints.specialResourceSave, { ...resource, photoIds: [photoId] })).envelope.code,
    ).toBe(ErrorCode.SPECIAL_PHOTO_INVALID);
    await t.services.files.storage.put(key, Readable.from(PNG), { contentType: 'image/png' });
    const saved = await w.operator.call(endpoints.specialResourceSave, { ...resource, photoIds: [photoId] });
    expect(saved.envelope.code).toBe(0);
    const resourceId = (saved.envelope.payload as { id: string }).id;
    const mine = await w.operator.call(endpoints.specialResourceList, { page: 1, size: 10 });
    expect(mine.envelope.payload).toMatchObject({
      total: 1,
      data: [
        { id: resourceId, title: resource.title, price: 1234567, photos: [{ id: photoId, url: expect.any(String) }] },
      ],
    });

    // the shelf: both enterprises' advertisers see the listed resource
    for (const c of [w.advertiser, w.stranger]) {
      const shelf = (await c.call(endpoints.specialListed, { page: 1, size: 50 })).envelope.payload as {
        data: { id: string }[];
      };
      expect(shelf.data.map((r) => r.id)).toContain(resourceId);
    }

    // dates outside the resource's, or reversed
    const ask = { resourceId, startDate: '2026-10-02', endDate: '2026-10-03', message: 'Two days for a launch' };
    expect((await w.advertiser.call(endpoints.specialInquire, { ...ask, endDate: '2026-10-09' })).envelope.code).toBe(
      ErrorCode.SPECIAL_DATES_INVALID,
    );
    expect((await w.advertiser.call(endpoints.specialInquire, { ...ask, endDate: '2026-10-01' })).envelope.code).toBe(
      ErrorCode.SPECIAL_DATES_INVALID,
    );
    const inquiry = await w.advertiser.call(endpoints.specialInquire, ask);
    expect(inquiry.envelope.code).toBe(0);
    const inquiryId = (inquiry.envelope.payload as { id: string }).id;

    // the operator sees it with who asked; another enterprise and a colleague do not
    const asked = await w.operator.call(endpoints.specialInquiryList, { page: 1, size: 10 });
    expect(asked.envelope.payload).toMatchObject({
      total: 1,
      data: [{ id: inquiryId, state: 'open', resourceTitle: resource.title, message: 'Two days for a launch' }],
    });
    expect((await w.stranger.call(endpoints.specialMyInquiries, { page: 1, size: 10 })).envelope.payload).toEqual({
      total: 0,
      data: [],
    });
    expect((await w.colleague.call(endpoints.specialMyInquiries, { page: 1, size: 10 })).envelope.payload).toEqual({
      total: 0,
      data: [],
    });
    expect(
      (await w.stranger.call(endpoints.specialInquiryRespond, { id: inquiryId, action: 'withdraw' })).envelope.code,
    ).toBe(ErrorCode.NOT_FOUND);
    // accepting before a quote is not possible
    expect(
      (await w.advertiser.call(endpoints.specialInquiryRespond, { id: inquiryId, action: 'accept' })).envelope.code,
    ).toBe(ErrorCode.SPECIAL_INQUIRY_STATE);

    // a quote in fen: a fraction of a fen is refused
    expect(
      (await w.operator.call(endpoints.specialInquiryAnswer, { id: inquiryId, action: 'quote', price: 100.5 })).envelope
        .code,
    ).toBe(ErrorCode.INVALID_PARAMS);
    const quoted = await w.operator.call(endpoints.specialInquiryAnswer, {
      id: inquiryId,
      action: 'quote',
      price: 350_000_00,
      answer: 'Includes production support',
    });
    expect(quoted.envelope.payload).toEqual({ state: 'quoted' });
    const letters = (await w.advertiser.call(endpoints.stationLetterList, {}, { language: 'en-US' })).envelope
      .payload as string[];
    expect(letters.join('\n')).toContain(`"${resource.title}" has a quote: ¥350000.00`);

    const accepted = await w.advertiser.call(endpoints.specialInquiryRespond, { id: inquiryId, action: 'accept' });
    expect(accepted.envelope.payload).toEqual({ state: 'accepted' });
    expect(
      (await w.advertiser.call(endpoints.specialMyInquiries, { page: 1, size: 10 })).envelope.payload,
    ).toMatchObject({
      total: 1,
      data: [{ id: inquiryId, state: 'accepted', quotedPrice: 35000000, answer: 'Includes production support' }],
    });
    expect(
      (await w.operator.call(endpoints.specialInquiryAnswer, { id: inquiryId, action: 'decline', answer: 'Late' }))
        .envelope.code,
    ).toBe(ErrorCode.SPECIAL_INQUIRY_STATE);
  });

  it('keeps to the capacity, declines with a letter, and refuses drafts, bad prices and enterprises', async () => {
    const w = await world();
    const saved = await w.operator.call(endpoints.specialResourceSave, { ...resource, kind: 'exclusive' });
    const resourceId = (saved.envelope.payload as { id: string }).id;
    const ask = { resourceId, startDate: '2026-10-01', endDate: '2026-10-02' };
    const first = (await w.advertiser.call(endpoints.specialInquire, ask)).envelope.payload as { id: string };
    const second = (await w.stranger.call(endpoints.specialInquire, ask)).envelope.payload as { id: string };
    for (const id of [first.id, second.id]) {
      await w.operator.call(endpoints.specialInquiryAnswer, { id, action: 'quote', price: 100 });
    }
    expect(
      (await w.advertiser.call(endpoints.specialInquiryRespond, { id: first.id, action: 'accept' })).envelope.code,
    ).toBe(0);
    // capacity 1: the second buyer cannot accept, and the capacity cannot drop below the held
    expect(
      (await w.stranger.call(endpoints.specialInquiryRespond, { id: second.id, action: 'accept' })).envelope.code,
    ).toBe(ErrorCode.SPECIAL_CAPACITY_FULL);
    const shelf = (await w.stranger.call(endpoints.specialListed, { page: 1, size: 50 })).envelope.payload as {
      data: { id: string; accepted: number; capacity: number }[];
    };
    expect(shelf.data.find((r) => r.id === resourceId)).toMatchObject({ accepted: 1, capacity: 1 });
    // the operator raises it to 2: now the second may accept
    expect(
      (await w.operator.call(endpoints.specialResourceSave, { ...resource, id: resourceId, capacity: 2 })).envelope
        .code,
    ).toBe(0);
    expect(
      (await w.stranger.call(endpoints.specialInquiryRespond, { id: second.id, action: 'accept' })).envelope.code,
    ).toBe(0);

    // a decline needs a reason and reaches the inquirer as a letter in its language
    const third = (await w.colleague.call(endpoints.specialInquire, ask)).envelope.payload as { id: string };
    expect(
      (await w.operator.call(endpoints.specialInquiryAnswer, { id: third.id, action: 'decline' })).envelope.code,
    ).toBe(ErrorCode.INVALID_PARAMS);
    await w.operator.call(endpoints.specialInquiryAnswer, { id: third.id, action: 'decline', answer: '档期已满' });
    const letters = (await w.colleague.call(endpoints.stationLetterList, {}, { language: 'zh-CN' })).envelope
      .payload as string[];
    expect(letters.join('\n')).toContain('已被婉拒：档期已满');

    // prices: fen are whole and not negative; dates in order
    for (const price of [-1, 0.5, 1e11]) {
      expect((await w.operator.call(endpoints.specialResourceSave, { ...resource, price })).envelope.code).toBe(
        ErrorCode.INVALID_PARAMS,
      );
    }
    expect(
      (await w.operator.call(endpoints.specialResourceSave, { ...resource, startDate: '2026-10-08' })).envelope.code,
    ).toBe(ErrorCode.SPECIAL_DATES_INVALID);
    expect(
      (await w.operator.call(endpoints.specialResourceSave, { ...resource, startDate: '2026-02-30' })).envelope.code,
    ).toBe(ErrorCode.SPECIAL_DATES_INVALID);

    // a draft is not on the shelf and takes no inquiry
    const draft = (await w.operator.call(endpoints.specialResourceSave, { ...resource, state: 'draft' })).envelope
      .payload as { id: string };
    const listed = (await w.advertiser.call(endpoints.specialListed, { page: 1, size: 50 })).envelope.payload as {
      data: { id: string }[];
    };
    expect(listed.data.map((r) => r.id)).not.toContain(draft.id);
    expect((await w.advertiser.call(endpoints.specialInquire, { ...ask, resourceId: draft.id })).envelope.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    // withdrawn: known, but closed to inquiries
    await w.operator.call(endpoints.specialResourceSave, { ...resource, id: draft.id, state: 'withdrawn' });
    expect((await w.advertiser.call(endpoints.specialInquire, { ...ask, resourceId: draft.id })).envelope.code).toBe(
      ErrorCode.SPECIAL_RESOURCE_STATE,
    );

    // management is the platform's: an enterprise account holding the code is refused,
    // an advertiser without it too, and the operator's list never shows another's resources
    expect((await w.entManager.call(endpoints.specialResourceSave, resource)).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
    expect((await w.advertiser.call(endpoints.specialInquiryList, { page: 1, size: 10 })).envelope.code).toBe(
      ErrorCode.NO_PERMISSION,
    );
    // a resource of the platform is every platform operator's to keep
    const otherPlatform = await createEnterprise(t.db, { kind: 'provider' });
    const otherOperator = await t.loginAs(
      await createUser(t.db, otherPlatform, { permissions: [Perm.specialResourceManage] }),
    );
    const all = (await otherOperator.call(endpoints.specialResourceList, { page: 1, size: 100 })).envelope.payload as {
      data: { id: string }[];
    };
    expect(all.data.map((r) => r.id)).toContain(draft.id);
  });
});
