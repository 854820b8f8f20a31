import { randomUUID } from 'node:crypto';
import { endpoints, pickRtbItem, pickRtbRegionItem } from '@marquee/protocol';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adSlots, ads, devices, materials, rtbAuctions, templates } from '../../src/db/schema/index.js';
import { ingestPlays } from '../../src/modules/content/plays.js';
import { billTurns } from '../../src/modules/rtb/billing.js';
import { decideEnterprise } from '../../src/modules/rtb/decide.js';
import { rtbContent } from '../../src/modules/rtb/manifest.js';
import { insertCampaign, insertCampaignAd, insertRtbSlot } from '../fixtures/rtb.js';
import { insertSalesAdvertiser } from '../fixtures/sales.js';
import { BACKENDS, createTestApp, type TestApp } from '../helpers/index.js';
import { activatedScreens } from '../sales/delivery.js';

/**
 * An RTB slot that is a layout's region (issue 29): its turns are auctioned only on the screens
 * whose own layout it is, only ads of pictures and videos can fill it, the manifest names the
 * region (the players draw the winner over that component while the layout shows), and a turn
 * is proven only by a play in that component of that layout.
 */

describe.each(BACKENDS)('RTB layout regions on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    const d = new Date();
    t.clock.set(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1, 10, 0, 0));
  });
  afterAll(() => t.close());

  const layout = (entId: string, ownerId: string, name: string) =>
    t.db
      .insert(templates)
      .values({
        entId,
        ownerId,
        name,
        document: {
          v: 1,
          pages: [
            {
              id: 'p1',
              components: [
                { id: 'c-main', name: 'Main video', rtbSlot: false },
                { id: 'c-side', name: 'Side banner', rtbSlot: true },
              ],
            },
          ],
        },
      })
      .returning({ id: templates.id })
      .then(([row]) => row.id);

  it('auctions a region on the screens showing its layout, fills it with a picture ad, proves it only in the region', async () => {
    const { ent, admin } = await t.tenant();
    const [showing, other] = await activatedScreens(t, ent, admin.id, 2);
    const lobby = await layout(ent.id, admin.id, 'Lobby split');
    const elsewhere = await layout(ent.id, admin.id, 'Full-screen promo');
    await t.db.update(devices).set({ layoutId: lobby }).where(eq(devices.id, showing));
    const slotId = await insertRtbSlot(t.db, { entId: ent.id, deviceIds: [showing, other], floor: 1_000 });
    await t.db.update(adSlots).set({ layoutId: lobby, regionId: 'c-side' }).where(eq(adSlots.id, slotId));
    const adv = await insertSalesAdvertiser(t, ent);
    const pictures = await insertCampaign(t, { entId: ent.id, advertiserId: adv.id, bidCpm: 4_000, name: 'Pictures' });
    // A higher bid whose ad is a layout: it plays full screen, so it cannot fill a region.
    const layoutAd = await insertCampaignAd(t, ent.id, adv.id, 'Layout ad');
    await t.db.update(ads).set({ layoutId: elsewhere }).where(eq(ads.id, layoutAd.adId));
    await insertCampaign(t, {
      entId: ent.id,
      advertiserId: adv.id,
      bidCpm: 9_000,
      name: 'Layout',
      adId: layoutAd.adId,
    });

    const [ad] = await t.db.select().from(ads).where(eq(ads.id, pictures.adId));
    // Its file is ready (a manifest carries only materials with their hash).
    await t.db
      .update(materials)
      .set({ sha256: 'c'.repeat(64), size: 321 })
      .where(inArray(materials.id, ad.materialIds));

    const now = t.clock.now();
    const run = await decideEnterprise(t.db, ent.id, new Date(now));
    expect(run.turns).toBeGreaterThan(0);
    const won = (await t.db.select().from(rtbAuctions).where(eq(rtbAuctions.entId, ent.id))).sort(
      (a, b) => a.turnAt.getTime() - b.turnAt.getTime(),
    );
    expect(won).toHaveLength(run.turns);
    for (const a of won) {
      expect(a).toMatchObject({ deviceId: showing, state: 'won', campaignId: pictures.id, clearingCpm: 1_000 });
      expect(a.bidLog.map((l) => l.bidder)).toEqual(['Pictures']);
    }

    // The manifest of the screen showing the layout names the region; the other screen has nothing of it.
    const content = await rtbContent(t.db, { id: showing, entId: ent.id, layoutId: lobby }, now);
    const region = { layoutId: lobby, componentId: 'c-side' };
    const decided = content.items.filter((i) => i.rtb?.auctionId);
    expect(decided).toHaveLength(won.length);
    for (const item of decided) expect(item).toMatchObject({ adId: pictures.adId, rtb: { slotId, region } });
    expect((await rtbContent(t.db, { id: other, entId: ent.id, layoutId: null }, now)).items).toEqual([]);
    // A region's turn never pre-empts the loop; the layout's region shows it.
    const at = won[0].turnAt.getTime() + 1_000;
    expect(pickRtbItem(content.items, at)).toBeNull();
    expect(pickRtbRegionItem(content.items, region, at)?.rtb?.auctionId).toBe(won[0].id);
    expect(pickRtbRegionItem(content.items, { ...region, componentId: 'c-main' }, at)).toBeNull();

    // The first turn's play is full screen (not in the region): no proof. The second's is in the region.
    const play = (start: number, layoutId: string | null, componentId: string | null) => ({
      id: randomUUID(),
      materialId: ad.materialIds[0],
      layoutId,
      componentId,
      adId: pictures.adId,
      start,
      durationMs: 15_000,
      outcome: 'completed' as const,
    });
    await ingestPlays(
      t.db,
      { id: showing, entId: ent.id },
      [play(won[0].turnAt.getTime() + 200, null, null), play(won[1].turnAt.getTime() + 200, lobby, 'c-side')],
      now,
    );
    t.clock.set(won[1].turnAt.getTime() + 60_000);
    const bill = await billTurns(t.db, new Date(t.clock.now()));
    expect(bill).toMatchObject({ billed: 1, billedFen: won[1].price });
    const states = new Map(
      (await t.db.select().from(rtbAuctions).where(eq(rtbAuctions.entId, ent.id))).map((a) => [a.id, a.state]),
    );
    expect(states.get(won[0].id)).toBe('won');
    expect(states.get(won[1].id)).toBe('billed');
    t.clock.set(now);
  });

  it('refuses a layout ad as a region slot fallback', async () => {
    const { ent, admin } = await t.tenant();
    const [screen] = await activatedScreens(t, ent, admin.id, 1);
    const lobby = await layout(ent.id, admin.id, 'Lobby split');
    const slotId = await insertRtbSlot(t.db, { entId: ent.id, deviceIds: [screen] });
    await t.db.update(adSlots).set({ layoutId: lobby, regionId: 'c-side' }).where(eq(adSlots.id, slotId));
    const fallback = await insertCampaignAd(t, ent.id, admin.id, 'House layout');
    await t.db.update(ads).set({ type: 'fallback', layoutId: lobby }).where(eq(ads.id, fallback.adId));
    const client = await t.loginAs(admin);
    const res = await client.call(endpoints.salesSlotRtb, {
      id: slotId,
      rtbEnabled: true,
      rtbFloor: 1_000,
      rtbFallbackAdId: fallback.adId,
    });
    expect(res.envelope.code).not.toBe(0);
    expect(res.envelope.message).toMatch(/layout/i);
  });
});
