import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { devices } from '../db/schema/index.js';
import { consoleCaller, demoAccount } from './consoleCall.js';

/** The demo enterprise's administrator (seed/demo.ts), who keeps the enterprise's airtime for sale. */
const SELLER = 'entadmin';
/** The demo advertiser (seed/demo.ts), who gets a price contract. */
const ADVERTISER = 'advertiser';

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The demo airtime for sale (issue 28): on the first start, once the demo screens stand (after
 * the demo fleet is ready, or at once without it), the demo enterprise's administrator sets its
 * sales settings, groups its screens, makes two slots over them (a CPT slot '首页轮播 15 秒' and
 * a CPM slot) and an RTB slot (its turns auctioned, floor 5 yuan CPM), a single goods item and a programme and puts them on sale (when there are
 * screens: without the fleet they stay off shelf), a 10%-off coupon
 * limited to 100 uses, and a price contract for the demo advertiser, through the console's own
 * calls (seed/consoleCall.ts: permission, transaction, operation log). Nothing is ordered, paid,
 * played or settled: ordering is the visitor's to try at /operate/goods. A failure is logged and
 * the start goes on.
 */
export async function seedDemoSales(app: FastifyInstance): Promise<void> {
  const log = app.log.child({ part: 'demo-sales' });
  try {
    const made = await run(app);
    log.info(made, 'demo sales seeded');
  } catch (error) {
    log.warn({ err: error }, 'demo sales not seeded');
  }
}

async function run(app: FastifyInstance) {
  const seller = await demoAccount(app, SELLER);
  const advertiser = await demoAccount(app, ADVERTISER);
  const call = await consoleCaller(app, seller, 'marquee-demo-sales');
  const now = app.services.clock();
  const today = now - (now % DAY_MS);

  await call('salesSettingsSave', { holdMinutes: 60, impressionsPerPlayPct: 300, defaultRemedy: 'extraPlays' });

  // The demo screens (the demo fleet's players, when it runs) in one group the slots aim at.
  const screens = await app.services.db.select({ id: devices.id }).from(devices).where(eq(devices.entId, seller.entId));
  const deviceIds = screens.map((s) => s.id);
  const group = await call('deviceGroupCreate', {
    name: '首页轮播屏',
    remark: '可售广告位覆盖的演示屏幕',
    ...(deviceIds.length > 0 ? { deviceIds } : {}),
  });
  const targets = { deviceIds: [], groupIds: [group.id], tagIds: [], spliceIds: [] };

  const carousel = await call('salesSlotSave', {
    name: '首页轮播 15 秒',
    screenSize: '55"',
    width: 1920,
    height: 1080,
    durationSec: 15,
    salesMethod: 'cpt',
    // 8 yuan a rotation per screen-hour.
    cptPrice: 800,
    maxRotations: 4,
    targets,
  });
  const lobby = await call('salesSlotSave', {
    name: '门店大屏 CPM 30 秒',
    screenSize: '55"',
    width: 1920,
    height: 1080,
    durationSec: 30,
    salesMethod: 'cpm',
    // 45 yuan per thousand impressions.
    cpmPrice: 4_500,
    maxRotations: 6,
    targets,
  });

  // A slot whose turns are sold by auction (issue 29): advertisers' RTB campaigns and DSPs bid for
  // them; with no bidder, the auction log shows its turns unsold (nothing is invented).
  const auctioned = await call('salesSlotSave', {
    name: '商场大屏 RTB 15 秒',
    screenSize: '55"',
    width: 1920,
    height: 1080,
    durationSec: 15,
    salesMethod: 'cpm',
    cpmPrice: 3_000,
    maxRotations: 4,
    targets,
  });
  // A floor of 5 yuan per thousand impressions.
  await call('salesSlotRtb', { id: auctioned.id, rtbEnabled: true, rtbFloor: 500, venueType: 'retail.malls' });

  const startDate = day(today);
  const endDate = day(today + 89 * DAY_MS);
  const single = await call('salesGoodsSave', {
    name: '首页轮播·黄金时段',
    description: '每天 8:00–22:00 的首页轮播，每轮播放一次 15 秒广告。',
    kind: 'single',
    startDate,
    endDate,
    hours: Array.from({ length: 14 }, (_, i) => 8 + i),
    lines: [{ slotId: carousel.id }],
  });
  const programme = await call('salesGoodsSave', {
    name: '全城联播套餐',
    description: '首页轮播与门店大屏联播：按轮次计费的轮播加按千次曝光计费的大屏。',
    kind: 'programme',
    startDate,
    endDate,
    hours: [],
    lines: [{ slotId: carousel.id }, { slotId: lobby.id }],
  });
  // Goods over no screen stay off shelf (DEMO_PLAYERS=off): the administrator puts them on sale
  // once screens are in the group.
  const onSale: string[] = [];
  if (deviceIds.length > 0) {
    for (const goods of [single, programme]) {
      await call('salesGoodsShelf', { id: goods.id, onSale: true });
      onSale.push(goods.name);
    }
  }

  await call('salesCouponSave', {
    name: '新客九折券',
    discount: 0.9,
    limit: 100,
    validFrom: startDate,
    validTo: endDate,
    goodsIds: [],
  });
  await call('salesPriceContractSave', {
    name: '明亮饮品年度框架协议',
    advertiserId: advertiser.id,
    discount: 0.95,
    slotPrices: [{ slotId: carousel.id, unitPrice: 700 }],
    validFrom: startDate,
    validTo: day(today + 364 * DAY_MS),
    enabled: true,
  });
  return { screens: deviceIds.length, slots: 3, rtbSlots: 1, goodsOnSale: onSale.length };
}
