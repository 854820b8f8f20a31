import { randomUUID } from 'node:crypto';
import type { Executor } from '../../src/db/client.js';
import { adSlots, devices, salesOrderLines, salesOrders } from '../../src/db/schema/index.js';
import { nextNumber9 } from '../../src/modules/sales/numbers.js';
import type { TestEnterprise } from '../helpers/factories.js';

/** The inventory's test data (issue 28, H1): activated screens, slots, bare orders for bookings to hang on. */

/** An activated screen of the enterprise, seen `seenAgoMs` before `now` (offline when long ago). */
export async function insertScreen(
  db: Executor,
  ent: TestEnterprise,
  ownerId: string,
  now: Date,
  options: { name?: string; seenAgoMs?: number; status?: 'online' | 'offline' } = {},
): Promise<string> {
  const seen = new Date(now.getTime() - (options.seenAgoMs ?? 0));
  const [row] = await db
    .insert(devices)
    .values({
      entId: ent.id,
      deptId: ent.depts.root,
      ownerId,
      name: options.name ?? `Screen ${randomUUID().slice(0, 6)}`,
      status: options.status ?? (options.seenAgoMs && options.seenAgoMs > 3600_000 ? 'offline' : 'online'),
      lastSeenAt: seen,
      statusAt: seen,
      activatedAt: new Date(now.getTime() - 30 * 86_400_000),
    })
    .returning({ id: devices.id });
  return row.id;
}

/** A CPT slot of the enterprise on these screens. */
export async function insertSlot(
  db: Executor,
  entId: string,
  deviceIds: string[],
  options: { maxRotations?: number; cptPrice?: number; name?: string } = {},
) {
  const [row] = await db
    .insert(adSlots)
    .values({
      entId,
      number: await nextNumber9(db, 'ad_slots'),
      name: options.name ?? `Slot ${randomUUID().slice(0, 6)}`,
      width: 1920,
      height: 1080,
      durationSec: 15,
      salesMethod: 'cpt',
      cptPrice: options.cptPrice ?? 100,
      maxRotations: options.maxRotations ?? 4,
      targets: { deviceIds, groupIds: [], tagIds: [], spliceIds: [] },
    })
    .returning();
  return row;
}

/** A bare unpaid order with one line on the slot (what bookings refer to). */
export async function insertOrder(
  db: Executor,
  entId: string,
  advertiserId: string,
  slot: { id: string; name: string },
  period: { startDate: string; endDate: string },
) {
  const [order] = await db
    .insert(salesOrders)
    .values({
      entId,
      no: `T${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      advertiserId,
      state: 'unpaid',
      startDate: period.startDate,
      endDate: period.endDate,
      hoursMask: 0xffffff,
      listAmount: 0,
      amount: 0,
    })
    .returning();
  const [line] = await db
    .insert(salesOrderLines)
    .values({
      orderId: order.id,
      position: 1,
      slotId: slot.id,
      slotName: slot.name,
      salesMethod: 'cpt',
      durationSec: 15,
      unitPrice: 100,
      rotations: 1,
      screens: 1,
      listAmount: 0,
    })
    .returning();
  return { order, line };
}
