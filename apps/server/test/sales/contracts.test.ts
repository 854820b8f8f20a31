import { createHash } from 'node:crypto';
import { ErrorCode, endpoints } from '@marquee/protocol';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { salesContracts } from '../../src/db/schema/index.js';
import { runContractSync } from '../../src/modules/sales/contractJobs.js';
import { SYNC_POLL_MS, syncBackoffMs } from '../../src/modules/sales/contracts.js';
import {
  insertPriceContract,
  insertSalesAdvertiser,
  insertSalesOrder,
  insertScreens,
  insertSlot,
  salesDay,
} from '../fixtures/sales.js';
import type { TestEnterprise } from '../helpers/factories.js';
import { type ApiClient, BACKENDS, createTestApp, MINUTE, type TestApp, type TestUser } from '../helpers/index.js';
import { EsignTestServer } from './h4-esignServer.js';
import { pdfText } from './h4-pdfText.js';

/**
 * Contracts of the airtime market (issue 28): drawn up as a PDF with Chinese text, stored
 * with its hash, signed by the advertiser inside the product (once, on the hash it was
 * shown), immutable once signed (the trigger), visible only to whom sees the advertiser;
 * and the e-signature provider's sync against a local provider (h4-esignServer.ts):
 * sent, pending, signed; a 500 then a retry; a provider that never answers. Both databases.
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const TOKEN = 'test-esign-token';

describe.each(BACKENDS)('sales contracts on %s', (backend) => {
  let t: TestApp;
  let provider: EsignTestServer;
  let ent: TestEnterprise;
  let staff: ApiClient;
  let admin: TestUser;
  let slotId: string;
  let deviceIds: string[];

  beforeAll(async () => {
    provider = await new EsignTestServer(TOKEN).start();
    t = await createTestApp(backend, {
      config: { esign: { url: provider.url, token: TOKEN, timeoutMs: 400, maxAttempts: 3 } },
    });
    const tenant = await t.tenant();
    ent = tenant.ent;
    admin = tenant.admin;
    staff = tenant.client;
    deviceIds = await insertScreens(t, ent, admin.id, 2);
    slotId = await insertSlot(t.db, { entId: ent.id, deviceIds, createdBy: admin.id, name: '地铁站大屏' });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.stop();
  });

  async function paidOrder(state: 'paid' | 'unpaid' = 'paid') {
    const adv = await insertSalesAdvertiser(t, ent, { realName: '杭州鲜果饮品店' });
    const order = await insertSalesOrder(t, {
      entId: ent.id,
      advertiserId: adv.id,
      slotId,
      deviceIds,
      startDate: salesDay(t, 1),
      endDate: salesDay(t, 3),
      state,
      createdBy: admin.id,
    });
    return { adv, order };
  }

  async function create(
    kind: 'order' | 'priceContract',
    subjectId: string,
    channel: 'internal' | 'esign' = 'internal',
  ) {
    const res = await staff.call(endpoints.salesContractCreate, { kind, subjectId, channel });
    return res.envelope as {
      code: number;
      payload: { id: string; sha256: string; bytes: number } & Record<string, unknown>;
    };
  }

  async function download(client: ApiClient, id: string) {
    const res = await client.call(endpoints.salesContractDownload, { id });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    return res.rawPayload;
  }

  it('draws up an order contract: a PDF with the Chinese text, stored with its hash', async () => {
    const { adv, order } = await paidOrder();
    const started = performance.now();
    const created = await create('order', order.id);
    const ms = performance.now() - started;
    expect(created.code).toBe(0);
    const c = created.payload;
    expect(c).toMatchObject({
      kind: 'order',
      subjectNo: order.no,
      state: 'signing',
      channel: 'internal',
      syncState: null,
    });
    expect(c.no).toMatch(/^C\d{14}$/);
    const pdf = await download(staff, c.id);
    expect(sha(pdf)).toBe(c.sha256);
    expect(pdf.length).toBe(c.bytes);
    // Stable: the stored hash is the file's, call after call.
    expect(sha(await download(staff, c.id))).toBe(c.sha256);
    const [row] = await t.db.select().from(salesContracts).where(eq(salesContracts.id, c.id));
    expect(row.fileKey).toBe(`e/${ent.id}/contracts/${c.id}.pdf`);
    const text = (await pdfText(pdf)).join('\n');
    for (const s of [
      '广告位投放合同',
      'Airtime Purchase Contract',
      ent.name,
      '杭州鲜果饮品店',
      order.no,
      'Fixture slot (CPT, 15s)',
      '三、投放明细与金额',
      '3. Sub-orders and amounts',
      '第 1 页',
    ])
      expect(text).toContain(s);
    console.info(`order contract (${backend}): ${pdf.length} bytes, create call ${ms.toFixed(0)} ms`);

    // One per subject.
    expect((await create('order', order.id)).code).toBe(ErrorCode.CONFLICT);
    // The advertiser sees it and may sign it.
    const advClient = await t.loginAs(adv);
    const seen = await advClient.call(endpoints.salesContractInfo, { id: c.id });
    expect(seen.envelope).toMatchObject({ code: 0, payload: { id: c.id, canSign: true } });
  });

  it('refuses an unpaid order (SALES_ORDER_STATE) and an e-signature contract when none is configured', async () => {
    const { order } = await paidOrder('unpaid');
    expect((await create('order', order.id)).code).toBe(ErrorCode.SALES_ORDER_STATE);
    const bare = await createTestApp(backend);
    try {
      const tenant = await bare.tenant();
      const adv = await insertSalesAdvertiser(bare, tenant.ent);
      const pc = await insertPriceContract(bare.db, {
        entId: tenant.ent.id,
        advertiserId: adv.id,
        validFrom: salesDay(bare, 0),
        validTo: salesDay(bare, 30),
      });
      const res = await tenant.client.call(endpoints.salesContractCreate, {
        kind: 'priceContract',
        subjectId: pc,
        channel: 'esign',
      });
      expect(res.envelope?.code).toBe(ErrorCode.ESIGN_UNAVAILABLE);
    } finally {
      await bare.close();
    }
  });

  it('is signed by its advertiser once, on the hash shown; the signed row is immutable; others do not see it', async () => {
    const { adv, order } = await paidOrder();
    const c = (await create('order', order.id)).payload;
    const advClient = await t.loginAs(adv);

    const wrong = await advClient.call(endpoints.salesContractSign, { id: c.id, sha256: 'f'.repeat(64) });
    expect(wrong.envelope?.code).toBe(ErrorCode.CONTRACT_STATE);

    const signed = await advClient.call(endpoints.salesContractSign, { id: c.id, sha256: c.sha256 });
    expect(signed.envelope).toMatchObject({
      code: 0,
      payload: { state: 'signed', signedBy: '杭州鲜果饮品店', sha256: c.sha256, canSign: false },
    });
    const again = await advClient.call(endpoints.salesContractSign, { id: c.id, sha256: c.sha256 });
    expect(again.envelope?.code).toBe(ErrorCode.CONTRACT_STATE);

    // The download is now the signed PDF: the original's pages, then the signature page.
    const [row] = await t.db.select().from(salesContracts).where(eq(salesContracts.id, c.id));
    const signedPdf = await download(advClient, c.id);
    expect(sha(signedPdf)).toBe(row.signedSha256);
    expect(row.signedFileKey).toBe(`e/${ent.id}/contracts/${c.id}.signed.pdf`);
    const pages = await pdfText(signedPdf);
    expect(pages[pages.length - 1]).toContain('签署页');
    expect(pages[pages.length - 1].replace(/\s/g, '')).toContain(c.sha256);

    // The database refuses to change a signed row.
    await expect(
      t.db
        .update(salesContracts)
        .set({ sha256: '0'.repeat(64) })
        .where(eq(salesContracts.id, c.id)),
    ).rejects.toThrow();
    await expect(t.db.execute(sql`update sales_contracts set state = 'signing' where id = ${c.id}`)).rejects.toThrow();

    // Another advertiser of the enterprise sees nothing of it.
    const other = await t.loginAs(await insertSalesAdvertiser(t, ent));
    expect((await other.call(endpoints.salesContractInfo, { id: c.id })).envelope?.code).toBe(ErrorCode.NOT_FOUND);
    expect((await other.call(endpoints.salesContractDownload, { id: c.id })).envelope?.code).toBe(ErrorCode.NOT_FOUND);
    expect((await other.call(endpoints.salesContractSign, { id: c.id, sha256: c.sha256 })).envelope?.code).toBe(
      ErrorCode.NOT_FOUND,
    );
    const list = await other.call(endpoints.salesContractList, { page: 1, size: 50 });
    expect(list.envelope).toMatchObject({ code: 0, payload: { total: 0, data: [] } });
    const own = await advClient.call(endpoints.salesContractList, { page: 1, size: 50 });
    expect(own.envelope).toMatchObject({ code: 0, payload: { total: 1, data: [{ id: c.id, state: 'signed' }] } });
  });

  it('draws up a price contract', async () => {
    const adv = await insertSalesAdvertiser(t, ent, { realName: '宁波海鲜餐厅' });
    const pc = await insertPriceContract(t.db, {
      entId: ent.id,
      advertiserId: adv.id,
      validFrom: salesDay(t, 0),
      validTo: salesDay(t, 60),
      discountPct: 85,
      name: '年度框架协议',
    });
    const c = (await create('priceContract', pc)).payload;
    expect(c).toMatchObject({ kind: 'priceContract', subjectId: pc, state: 'signing' });
    const text = (await pdfText(await download(staff, c.id))).join('\n');
    for (const s of ['广告位价格合同', 'Airtime Price Agreement', '年度框架协议', '0.85', '宁波海鲜餐厅'])
      expect(text).toContain(s);
  });

  async function syncRow(id: string) {
    const [row] = await t.db.select().from(salesContracts).where(eq(salesContracts.id, id));
    return row;
  }

  it('syncs with the provider: sent, pending, then signed -> synchronized and signed with its PDF', async () => {
    const { adv, order } = await paidOrder();
    const c = (await create('order', order.id, 'esign')).payload;
    expect(c).toMatchObject({ channel: 'esign', syncState: 'unsynchronized', canSign: false });
    // Not signed inside the product.
    const advClient = await t.loginAs(adv);
    expect((await advClient.call(endpoints.salesContractSign, { id: c.id, sha256: c.sha256 })).envelope?.code).toBe(
      ErrorCode.CONTRACT_STATE,
    );

    let now = new Date(t.clock.now());
    expect((await runContractSync(t.services, now)).sent).toBe(1);
    const doc = provider.byContract(c.id);
    expect(doc?.state).toBe('pending');
    expect(sha(doc?.pdf ?? Buffer.alloc(0))).toBe(c.sha256);
    expect(doc?.signer.name).toBe('杭州鲜果饮品店');
    expect(await syncRow(c.id)).toMatchObject({ syncState: 'synchronizing', providerRef: doc?.ref, syncAttempts: 0 });

    // Polled a minute later: still pending.
    now = new Date(now.getTime() + SYNC_POLL_MS);
    expect((await runContractSync(t.services, now)).pending).toBe(1);
    // Within the poll interval it is not asked again.
    expect((await runContractSync(t.services, new Date(now.getTime() + 1000))).pending).toBe(0);

    const providerPdf = Buffer.concat([doc?.pdf ?? Buffer.alloc(0), Buffer.from('\n% signed by the provider\n')]);
    provider.sign(doc?.ref ?? '', '王小明', providerPdf, new Date('2026-11-20T02:00:00Z'));
    now = new Date(now.getTime() + SYNC_POLL_MS);
    expect((await runContractSync(t.services, now)).synchronized).toBe(1);
    const row = await syncRow(c.id);
    expect(row).toMatchObject({
      state: 'signed',
      syncState: 'synchronized',
      signedByName: '王小明',
      signedSha256: sha(providerPdf),
      syncError: null,
    });
    expect(row.signedAt?.toISOString()).toBe('2026-11-20T02:00:00.000Z');
    expect((await download(staff, c.id)).equals(providerPdf)).toBe(true);
    const info = await staff.call(endpoints.salesContractInfo, { id: c.id });
    expect(info.envelope).toMatchObject({
      code: 0,
      payload: { state: 'signed', signedBy: '王小明', syncState: 'synchronized' },
    });
    // Nothing more to do for it.
    expect(await runContractSync(t.services, new Date(now.getTime() + 10 * MINUTE))).toMatchObject({
      sent: 0,
      pending: 0,
      synchronized: 0,
      failed: 0,
    });
  });

  it('a provider answering 500 fails the sync, retried after the backoff until it is synchronized', async () => {
    const { order } = await paidOrder();
    const c = (await create('order', order.id, 'esign')).payload;
    let now = new Date(t.clock.now());
    provider.failNext = 1;
    expect((await runContractSync(t.services, now)).failed).toBe(1);
    let row = await syncRow(c.id);
    expect(row).toMatchObject({ syncState: 'failed', syncAttempts: 1, providerRef: null });
    expect(row.syncError).toContain('HTTP 500');
    // Not before the backoff.
    expect((await runContractSync(t.services, new Date(now.getTime() + syncBackoffMs(1) - 1000))).sent).toBe(0);
    now = new Date(now.getTime() + syncBackoffMs(1));
    expect((await runContractSync(t.services, now)).sent).toBe(1);
    row = await syncRow(c.id);
    expect(row).toMatchObject({ syncState: 'synchronizing', syncError: null });
    const doc = provider.byContract(c.id);
    provider.sign(doc?.ref ?? '', '李四', doc?.pdf ?? Buffer.alloc(0));
    now = new Date(now.getTime() + SYNC_POLL_MS);
    expect((await runContractSync(t.services, now)).synchronized).toBe(1);
    expect(await syncRow(c.id)).toMatchObject({ state: 'signed', syncState: 'synchronized', syncAttempts: 1 });
  });

  it('a provider that never answers times out: failed, up to the most tries, then retried by hand', async () => {
    const { order } = await paidOrder();
    const c = (await create('order', order.id, 'esign')).payload;
    let now = new Date(t.clock.now());
    provider.hang = true;
    try {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const started = performance.now();
        expect((await runContractSync(t.services, now)).failed).toBe(1);
        expect(performance.now() - started).toBeLessThan(5_000);
        const row = await syncRow(c.id);
        expect(row).toMatchObject({ syncState: 'failed', syncAttempts: attempt });
        expect(row.syncError).toContain('no answer within 400 ms');
        now = new Date(now.getTime() + syncBackoffMs(attempt));
      }
      // ESIGN_MAX_ATTEMPTS (3 here) reached: the job leaves it failed.
      expect((await runContractSync(t.services, new Date(now.getTime() + 24 * 60 * MINUTE))).failed).toBe(0);
      expect(await syncRow(c.id)).toMatchObject({ syncState: 'failed', syncAttempts: 3 });
    } finally {
      provider.hang = false;
    }
    // salesContractSync retries it now (the provider answers again).
    const retried = await staff.call(endpoints.salesContractSync, { id: c.id });
    expect(retried.envelope).toMatchObject({ code: 0, payload: { syncState: 'synchronizing', syncError: null } });
    expect(provider.byContract(c.id)?.state).toBe('pending');
    // A contract being synchronized is not retried by hand.
    expect((await staff.call(endpoints.salesContractSync, { id: c.id })).envelope?.code).toBe(ErrorCode.CONTRACT_STATE);
  });
});
