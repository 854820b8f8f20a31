import { randomUUID } from 'node:crypto';
import type { PlayEvent } from '@marquee/protocol';
import { eq, inArray } from 'drizzle-orm';
import { ads, devices, salesOrderLines } from '../../src/db/schema/index.js';
import { ensureDefaultPlan } from '../../src/modules/ads/plans.js';
import { ingestPlays } from '../../src/modules/content/plays.js';
import { recompute } from '../../src/modules/content/rollups.js';
import { insertSalesAdvertiser, insertSalesOrder, insertScreens, insertSlot, salesDay } from '../fixtures/sales.js';
import type { Backend, TestApp } from '../helpers/index.js';
import { paymentsTestApp } from '../payments/helpers.js';

/**
 * The delivery world of the settlement and make-good tests (issue 28): an in-progress order
 * with its approved order ad, and plays of that ad written through the real plays path
 * (ingestPlays, then the rollup job's recompute of the touched (day, device) pairs).
 */

/**
 * The test app of the order tests, its clock at 01:00 UTC tomorrow: the hours they order
 * (08, 09) are all ahead, today and tomorrow.
 */
export async function orderTestApp(backend: Backend): Promise<TestApp> {
  const t = await paymentsTestApp(backend);
  const d = new Date();
  t.clock.set(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1, 1, 0, 0));
  return t;
}

/** `n` activated online screens (a slot reaches activated devices only). */
export async function activatedScreens(
  t: TestApp,
  ent: Parameters<typeof insertScreens>[1],
  ownerId: string,
  n: number,
): Promise<string[]> {
  const ids = await insertScreens(t, ent, ownerId, n);
  await t.db
    .update(devices)
    .set({ activatedAt: new Date(t.clock.now()) })
    .where(inArray(devices.id, ids));
  return ids;
}

/** The epoch ms of `hh:mm` UTC on `day` (YYYY-MM-DD). */
export const at = (day: string, hh: number, mm = 0) =>
  Date.parse(`${day}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00Z`);

/** `n` plays of `adId` on a device in hour `hour` of `day`, through the device's plays path and the rollup. */
export async function playAd(
  t: TestApp,
  entId: string,
  deviceId: string,
  adId: string,
  day: string,
  hour: number,
  n: number,
) {
  const events: PlayEvent[] = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    materialId: 'm1',
    layoutId: null,
    componentId: null,
    adId,
    start: at(day, hour) + i * 9_000,
    durationMs: 9_000,
    outcome: 'completed',
  }));
  for (let i = 0; i < events.length; i += 500) {
    await ingestPlays(t.db, { id: deviceId, entId }, events.slice(i, i + 500), at(day, 23, 59));
  }
  await recompute(t.db, [{ day, deviceId, zone: 'UTC' }]);
}

/** An in-progress order (fixture) of one line over `screens` new screens with its order ad (passed review). */
export async function inProgressOrder(
  t: TestApp,
  o: { screens: number; days: number; hours: number[]; rotations?: number },
) {
  const { ent, admin, client } = await t.tenant();
  const deviceIds = await insertScreens(t, ent, admin.id, o.screens);
  const slotId = await insertSlot(t.db, { entId: ent.id, deviceIds, maxRotations: 4, price: 100 });
  const adv = await insertSalesAdvertiser(t, ent);
  const order = await insertSalesOrder(t, {
    entId: ent.id,
    advertiserId: adv.id,
    slotId,
    deviceIds,
    startDate: salesDay(t, 1),
    endDate: salesDay(t, o.days),
    state: 'inProgress',
    hours: o.hours,
    rotations: o.rotations ?? 1,
    unitPrice: 100,
  });
  const [ad] = await t.db
    .insert(ads)
    .values({
      entId: ent.id,
      deptId: ent.depts.root,
      ownerId: adv.id,
      name: `${order.no}-1`,
      type: 'common',
      source: 'order',
      slotId,
      planId: await ensureDefaultPlan(t.db, ent.id),
      startAt: new Date(at(salesDay(t, 1), 0)),
      endAt: new Date(at(salesDay(t, o.days + 1), 0)),
      strategy: 'perLoop',
      playsMin: o.rotations ?? 1,
      playsMax: o.rotations ?? 1,
      periods: [],
      materialIds: [],
      targets: { deviceIds, groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
      reviewState: 'passed',
    })
    .returning({ id: ads.id });
  await t.db.update(salesOrderLines).set({ adId: ad.id }).where(eq(salesOrderLines.id, order.lineId));
  return { ent, admin, client, deviceIds, slotId, adv, order, adId: ad.id };
}
