import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { loginApi, uploadMaterial } from '../fixtures/api.js';
import { pairBrowserPlayer } from '../fixtures/player.js';
import { uniquePng } from '../fixtures/png.js';
import { fundOffline, ok, utcDay, wallet } from '../fixtures/sales.js';
import { expect as baseExpect, test } from '../fixtures/session.js';

/** The minute jobs (decide, bill), the player's manifest poll and plays' upload: long waits. */
const expect = baseExpect.configure({ timeout: 30_000 });

const component = (id: string, x: number, y: number, w: number, h: number) => ({
  id,
  name: id,
  x,
  y,
  w,
  h,
  z: 1,
  rotation: 0,
  locked: false,
  hidden: false,
  timing: { start: 0, end: null },
});

/**
 * A layout's region sold by RTB (issue 29) in Chromium: a browser player shows a layout whose
 * side picture is marked as the RTB slot; the operator's slot on that region is switched to RTB
 * with a 1-yuan floor; the demo advertiser's campaign (its picture ad approved) wins the turns;
 * the player draws the winner over the side picture while the rest of the layout (its text)
 * stays on screen, and the region's completed plays are billed as the campaign's spend.
 */
test('an RTB campaign fills a layout’s region on a browser player and its plays are billed', async ({ browser }) => {
  test.setTimeout(480_000);
  const suffix = randomBytes(3).toString('hex');
  const admin = await loginApi('entadmin');

  // A browser player, paired.
  const { context: screen, player, deviceId } = await pairBrowserPlayer(browser, admin.token, 'E2E region screen');

  // The screen's own layout: a headline and a side picture marked as the RTB slot.
  const folder = await ok('materialFolderCreate', { name: `E2E region ${suffix}` }, admin.token);
  const house = await uploadMaterial(admin.token, {
    folderId: folder.id,
    name: `house-${suffix}.png`,
    buffer: uniquePng(400, 400),
    contentType: 'image/png',
    type: 'image',
  });
  const headline = `Lobby ${suffix}`;
  const document = {
    v: 1,
    width: 1920,
    height: 1080,
    pages: [
      {
        id: 'p-1',
        name: '',
        duration: 30,
        background: { color: '#223355', materialId: null, fit: 'cover' },
        components: [
          {
            ...component('c-title', 80, 80, 1100, 200),
            rtbSlot: false,
            type: 'text',
            props: {
              content: headline,
              color: '#ffffff',
              fontFamily: '',
              fontSize: 96,
              bold: true,
              italic: false,
              underline: false,
              backgroundColor: 'transparent',
              align: 'left',
              verticalAlign: 'top',
              lineHeight: 1.4,
              scroll: { direction: 'none', speed: 60 },
            },
          },
          {
            ...component('c-side', 1280, 240, 560, 560),
            rtbSlot: true,
            type: 'picture',
            props: { materials: [{ materialId: house.id, duration: 10 }], fit: 'contain', transition: 'none' },
          },
        ],
      },
    ],
  };
  const layout = await ok('templateSave', { name: `E2E region ${suffix}`, document: document as never }, admin.token);
  await ok('deviceAssignLayout', { ids: [deviceId], layoutId: layout.id }, admin.token);
  await expect(player.getByText(headline)).toBeVisible({ timeout: 60_000 });

  // The operator's slot on that region, RTB with a 1-yuan floor: a 15 s turn every 15 s.
  const slot = await ok(
    'salesSlotSave',
    {
      name: `E2E region slot ${suffix}`,
      width: 560,
      height: 560,
      durationSec: 15,
      salesMethod: 'cpt',
      cptPrice: 100,
      maxRotations: 20,
      layoutId: layout.id,
      regionId: 'c-side',
      targets: { deviceIds: [deviceId], groupIds: [], tagIds: [], spliceIds: [] },
    },
    admin.token,
  );
  await ok('salesSlotRtb', { id: slot.id, rtbEnabled: true, rtbFloor: 100 }, admin.token);

  // The advertiser's campaign with its own picture, approved by the operator.
  const buyer = await loginApi('advertiser');
  if ((await wallet(buyer.token)).available < 10_000) await fundOffline(buyer.token, 100_000);
  const buyerFolder = await ok('materialFolderCreate', { name: `E2E region buyer ${suffix}` }, buyer.token);
  const creative = await uploadMaterial(buyer.token, {
    folderId: buyerFolder.id,
    name: `region-${suffix}.png`,
    buffer: uniquePng(500, 500),
    contentType: 'image/png',
    type: 'image',
  });
  const campaign = await ok(
    'rtbCampaignSave',
    {
      name: `E2E region campaign ${suffix}`,
      bidCpm: 5_000,
      totalBudget: 10_000,
      startDate: utcDay(0),
      endDate: utcDay(7),
      pacing: 'asap',
      targets: { deviceIds: [deviceId], groupIds: [], tagIds: [], regionCodes: [] },
      materialIds: [creative.id],
    },
    buyer.token,
  );
  await ok('adAuditPass', { id: campaign.adId ?? '' }, admin.token);

  // The player draws the winner over the side picture; the headline stays.
  const region = player.locator('[data-testid="rtb-region"][data-component-id="c-side"]');
  await expect(region.locator(`img[data-material="${creative.id}"]`)).toBeVisible({ timeout: 240_000 });
  await expect(player.getByText(headline)).toBeVisible();
  mkdirSync('/tmp/shots', { recursive: true });
  await player.screenshot({ path: '/tmp/shots/rtb-region-player.png' });
  await player.screenshot({ path: test.info().outputPath('rtb-region-player.png') });

  // Its completed plays in the region are uploaded and billed.
  await expect
    .poll(
      async () => {
        const c = (await ok('rtbCampaignInfo', { id: campaign.id }, buyer.token)).campaign;
        return c.plays > 0 && c.spent > 0;
      },
      { timeout: 240_000, intervals: [5000] },
    )
    .toBe(true);
  await screen.close();
});
