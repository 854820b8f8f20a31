import { ErrorCode, hoursMask } from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, salesBookingDevices, salesBookings } from '../../src/db/schema/index.js';
import { computeAvailability } from '../../src/modules/sales/availability.js';
import {
  type BookingSpec,
  bookableRotations,
  bookRotations,
  confirmHolds,
  releaseBookings,
  slotScreens,
} from '../../src/modules/sales/inventory.js';
import { nextDocNo, nextNumber9 } from '../../src/modules/sales/numbers.js';
import { AppError } from '../../src/protocol/appError.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { createEnterprise, createUser } from '../helpers/factories.js';
import { insertOrder, insertScreen, insertSlot } from './h1-fixtures.js';

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 0;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
};

/**
 * The inventory (issue 28): bookings never overbook a screen-hour, holds lapse, the
 * availability figures against a small case computed by hand. Both databases.
 */
describe.each(BACKENDS)('sales inventory on %s', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(() => database?.close());

  const now = new Date('2026-03-01T10:00:00Z');

  async function setup(maxRotations = 4) {
    const db = database.db;
    const ent = await createEnterprise(db);
    const user = await createUser(db, ent);
    const s1 = await insertScreen(db, ent, user.id, now, { name: 'A screen' });
    const s2 = await insertScreen(db, ent, user.id, now, { name: 'B screen' });
    const slot = await insertSlot(db, ent.id, [s1, s2], { maxRotations });
    const spec = async (
      deviceIds: string[],
      o: Partial<BookingSpec> & Pick<BookingSpec, 'startDate' | 'endDate' | 'hoursMask' | 'rotations' | 'kind'>,
    ): Promise<BookingSpec> => {
      const { order, line } = await insertOrder(db, ent.id, user.id, slot, o);
      return { entId: ent.id, slotId: slot.id, orderId: order.id, lineId: line.id, deviceIds, expiresAt: null, ...o };
    };
    return { db, ent, user, s1, s2, slot, spec };
  }

  it('numbers: 9 digits, and S/C + the UTC+8 date + 6 digits', async () => {
    const a = await nextNumber9(database.db, 'ad_slots');
    const b = await nextNumber9(database.db, 'sales_goods');
    expect(a).toMatch(/^\d{9}$/);
    expect(Number(b)).toBe(Number(a) + 1);
    expect(await nextDocNo(database.db, 'S', new Date('2026-03-01T20:00:00Z'))).toMatch(/^S20260302\d{6}$/);
    expect(await nextDocNo(database.db, 'C', now)).toMatch(/^C20260301\d{6}$/);
  });

  it('computes availability by hand: 2 screens, 2 days, some hours, holds vs bookings, an expired hold ignored', async () => {
    const { db, s1, s2, slot, spec } = await setup(4);
    const hours = [8, 9, 10];
    // Booked: 2 rotations on both screens, day 1 only, hours 8-9.
    await bookRotations(
      db,
      [
        await spec([s1, s2], {
          startDate: '2026-03-02',
          endDate: '2026-03-02',
          hoursMask: hoursMask([8, 9]),
          rotations: 2,
          kind: 'booked',
        }),
      ],
      now,
    );
    // Held (live): 1 rotation on s1, both days, hour 9-10.
    const live = await spec([s1], {
      startDate: '2026-03-02',
      endDate: '2026-03-03',
      hoursMask: hoursMask([9, 10]),
      rotations: 1,
      kind: 'hold',
      expiresAt: new Date(now.getTime() + 3600_000),
    });
    await bookRotations(db, [live], now);
    // Held, lapsing in 30 minutes: 3 rotations on s2, day 2, hour 8.
    const lapsing = await spec([s2], {
      startDate: '2026-03-03',
      endDate: '2026-03-03',
      hoursMask: hoursMask([8]),
      rotations: 3,
      kind: 'hold',
      expiresAt: new Date(now.getTime() + 1800_000),
    });
    await bookRotations(db, [lapsing], now);
    const later = new Date(now.getTime() + 3600_000 - 1000); // the lapsing hold is over, the live one is not

    const screens = await slotScreens(db, slot, later);
    expect(screens.map((s) => s.name)).toEqual(['A screen', 'B screen']);
    const q = { startDate: '2026-03-02', endDate: '2026-03-03', hoursMask: hoursMask(hours), page: 1, size: 10 };
    const day = await computeAvailability(db, slot, screens, { ...q, granularity: 'day' }, later);
    // Capacity: 4 rotations x 2 screens x 2 days x 3 hours = 48.
    // Booked: 2 x 2 screens x 1 day x 2 hours = 8. Held: 1 x s1 x 2 days x 2 hours = 4.
    expect(day.total).toEqual({ capacity: 48, booked: 8, held: 4, available: 36, availPct: 75, fillRate: 25 });
    // Day 1: capacity 24, booked 8, held 2; day 2: booked 0, held 2 (the lapsed hold ignored).
    expect(day.series.map((s) => [s.at, s.booked, s.held, s.available])).toEqual([
      ['2026-03-02', 8, 2, 14],
      ['2026-03-03', 0, 2, 22],
    ]);
    // s1 at 2026-03-02 09:00 has 2 booked + 1 held: 1 left, the most every screen-hour still has.
    expect(day.bookable).toBe(1);
    expect(day.screens.total).toBe(2);
    expect(day.screens.data.map((s) => [s.deviceName, s.booked, s.held, s.available, s.minAvailable])).toEqual([
      ['A screen', 4, 4, 16, 1],
      ['B screen', 4, 0, 20, 2],
    ]);
    const hour = await computeAvailability(db, slot, screens, { ...q, granularity: 'hour' }, later);
    expect(hour.series).toHaveLength(6);
    expect(hour.series.map((s) => [s.at, s.booked, s.held])).toEqual([
      ['2026-03-02T08:00:00.000Z', 4, 0],
      ['2026-03-02T09:00:00.000Z', 4, 1],
      ['2026-03-02T10:00:00.000Z', 0, 1],
      ['2026-03-03T08:00:00.000Z', 0, 0],
      ['2026-03-03T09:00:00.000Z', 0, 1],
      ['2026-03-03T10:00:00.000Z', 0, 1],
    ]);
    // Before the lapse, the hold on s2 counts.
    const before = await computeAvailability(db, slot, screens, { ...q, granularity: 'day' }, now);
    expect(before.total.held).toBe(7);
    expect(
      await bookableRotations(db, { slotId: slot.id, deviceIds: [s1, s2], ...q, excludeOrderId: live.orderId }, later),
    ).toBe(2);
  });

  it('refuses overbooking with TIME_CONFLICT (nothing written) and sells the last rotation once', async () => {
    const { db, s1, s2, spec } = await setup(3);
    const p = { startDate: '2026-03-05', endDate: '2026-03-06', hoursMask: hoursMask([12, 13]) };
    const first = await spec([s1, s2], {
      ...p,
      rotations: 2,
      kind: 'hold',
      expiresAt: new Date(now.getTime() + 60_000),
    });
    await bookRotations(db, [first], now);
    const over = await spec([s2], { ...p, startDate: '2026-03-06', rotations: 2, kind: 'booked' });
    let message = '';
    try {
      await bookRotations(db, [over], now);
    } catch (e) {
      expect((e as AppError).code).toBe(ErrorCode.TIME_CONFLICT);
      message = (e as AppError).messageFor('en-US');
    }
    expect(message).toContain('B screen');
    expect(message).toContain('2026-03-06 at 12:00');
    expect(await db.select().from(salesBookings).where(eq(salesBookings.orderId, over.orderId))).toHaveLength(0);
    // The last rotation sells once.
    const one = await spec([s2], { ...p, rotations: 1, kind: 'booked' });
    await bookRotations(db, [one], now);
    const again = await spec([s1, s2], { ...p, rotations: 1, kind: 'booked' });
    expect(await codeOf(bookRotations(db, [again], now))).toBe(ErrorCode.TIME_CONFLICT);
    // Two specs of one call count each other.
    const a = await spec([s1], { ...p, rotations: 1, kind: 'booked' });
    const b = await spec([s1], { ...p, rotations: 1, kind: 'booked' });
    expect(await codeOf(db.transaction((tx) => bookRotations(tx, [a, b], now)))).toBe(ErrorCode.TIME_CONFLICT);
    // A hold past its expiry frees its rotations; paid holds stay.
    const afterLapse = new Date(now.getTime() + 120_000);
    expect(await bookRotations(db, [a], afterLapse)).toBeUndefined();
    await confirmHolds(db, first.orderId);
    const held = await db.select().from(salesBookings).where(eq(salesBookings.orderId, first.orderId));
    expect(held.map((h) => [h.kind, h.expiresAt])).toEqual([['booked', null]]);
    // Released, its rotations are free again.
    expect(await releaseBookings(db, first.orderId, now)).toBe(1);
    expect(await releaseBookings(db, first.orderId, now)).toBe(0);
    const c = await spec([s1, s2], { ...p, rotations: 2, kind: 'booked' });
    await bookRotations(db, [c], now);
  });

  it('refuses long-offline screens (make-goods excepted) and screens of another enterprise', async () => {
    const { db, ent, user, s1, slot, spec } = await setup(2);
    const gone = await insertScreen(db, ent, user.id, now, { name: 'Gone', seenAgoMs: 80 * 3600_000 });
    const p = { startDate: '2026-03-05', endDate: '2026-03-05', hoursMask: hoursMask([1]), rotations: 1 };
    expect(await codeOf(bookRotations(db, [await spec([s1, gone], { ...p, kind: 'booked' })], now))).toBe(
      ErrorCode.DEVICE_LONG_OFFLINE,
    );
    // A make-good may go to a long-offline screen (it makes up for what it missed).
    await bookRotations(db, [await spec([gone], { ...p, kind: 'makeGood' })], now);
    const other = await createEnterprise(db);
    const stranger = await insertScreen(db, other, (await createUser(db, other)).id, now);
    expect(await codeOf(bookRotations(db, [await spec([stranger], { ...p, kind: 'booked' })], now))).toBe(
      ErrorCode.AD_TARGET_INVALID,
    );
    expect(slot.id).toBeTruthy();
  });

  it('books and counts 10,000 screens quickly (batched device inserts, screen classes)', async () => {
    const db = database.db;
    const ent = await createEnterprise(db);
    const user = await createUser(db, ent);
    const seen = new Date(now.getTime() - 1000);
    const ids: string[] = [];
    for (let k = 0; k < 10; k++) {
      const rows = await db
        .insert(devices)
        .values(
          Array.from({ length: 1000 }, (_, i) => ({
            entId: ent.id,
            deptId: ent.depts.root,
            ownerId: user.id,
            name: `Screen ${String(k * 1000 + i).padStart(5, '0')}`,
            status: 'online' as const,
            lastSeenAt: seen,
            statusAt: seen,
            activatedAt: seen,
          })),
        )
        .returning({ id: devices.id });
      ids.push(...rows.map((r) => r.id));
    }
    const slot = await insertSlot(db, ent.id, ids, { maxRotations: 2 });
    const p = { startDate: '2026-03-01', endDate: '2026-03-30', hoursMask: 0xffffff };
    const started = performance.now();
    for (let i = 0; i < 2; i++) {
      const { order, line } = await insertOrder(db, ent.id, user.id, slot, p);
      await bookRotations(
        db,
        [
          {
            entId: ent.id,
            slotId: slot.id,
            orderId: order.id,
            lineId: line.id,
            deviceIds: ids.slice(i * 3000),
            rotations: 1,
            kind: 'booked',
            expiresAt: null,
            ...p,
          },
        ],
        now,
      );
    }
    const booked = performance.now() - started;
    const rows = await db
      .select()
      .from(salesBookingDevices)
      .innerJoin(salesBookings, eq(salesBookings.id, salesBookingDevices.bookingId))
      .where(eq(salesBookings.slotId, slot.id));
    expect(rows).toHaveLength(10_000 - 0 + 7_000);
    const screens = await slotScreens(db, slot, now);
    const t0 = performance.now();
    const a = await computeAvailability(db, slot, screens, { ...p, granularity: 'hour', page: 1, size: 20 }, now);
    const took = performance.now() - t0;
    // 3,000 screens with 1 booking, 7,000 with 2: 30 days x 24 h.
    expect(a.total).toMatchObject({ capacity: 2 * 10_000 * 720, booked: (3_000 + 14_000) * 720 });
    expect(a.bookable).toBe(0);
    expect(a.screens.data[0]).toMatchObject({ available: 0, minAvailable: 0 });
    expect(a.series).toHaveLength(720);
    console.log(
      `[${backend}] 2 bookings of 10,000/7,000 screens: ${booked.toFixed(0)} ms; availability 10,000 x 30 days by hour: ${took.toFixed(0)} ms`,
    );
    expect(booked).toBeLessThan(20_000);
  });
});
