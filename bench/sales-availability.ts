// Availability of a slot (issue 28, spec section 9): on PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; a scratch database is created and dropped),
// 10,000 screens inserted in bulk under one tag, one CPT slot over them (targets: that tag,
// maxRotations 60), and ~300 orders with a booking each (80% booked, 15% holds still live,
// 5% released) over various screen subsets (a run of consecutive screens, 20 to 4,000 of
// them), days (within the 30 days asked) and hours (a run of 1 to 24 hours). Then the
// availability computation (modules/sales/availability.ts, the function the endpoint runs)
// for all 10,000 screens over 30 days by hour: p50/p99 over 100 runs (aim p99 50 ms), and the
// same by day; then the same cold: a screen renamed before each run (the slot's kept screens
// resolved again: modules/sales/screenCache.ts) and another set of live bookings each run (the
// screens grouped again). The sizes are printed. Figures, never assertions.
//
//   npx tsx bench/sales-availability.ts   BENCH_SCREENS=10000 BENCH_BOOKINGS=300 BENCH_DAYS=30 BENCH_ITERATIONS=100
import { eq, sql } from 'drizzle-orm';
import { adSlots } from '../apps/server/src/db/schema/index.js';
import { computeAvailability } from '../apps/server/src/modules/sales/availability.js';
import { slotScreens } from '../apps/server/src/modules/sales/inventory.js';
import { percentile } from './lib.js';
import { dayAfter, load1, ms, operator, rng, rowsOf, scratch, screens, slot } from './sales-lib.js';

const SCREENS = Number(process.env.BENCH_SCREENS ?? 10_000);
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 300);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
const MAX_ROTATIONS = 60;

const s = await scratch('sales_avail');
const db = s.db;
try {
  const t0 = performance.now();
  const now = new Date();
  const start = dayAfter(now, 1);
  const end = dayAfter(now, DAYS);
  const ent = await operator(db, 20);
  const fleet = await screens(db, ent.entId, SCREENS);
  const slotId = await slot(db, {
    entId: ent.entId,
    name: 'Lobby loop 15 s',
    salesMethod: 'cpt',
    price: 100,
    maxRotations: MAX_ROTATIONS,
    targets: { tagIds: [fleet.tagId] },
  });

  // ~300 orders, one line and one booking each, over runs of screens, days and hours.
  const random = rng(28);
  const holdUntil = new Date(now.getTime() + 30 * 60_000).toISOString();
  let bookingDevices = 0;
  for (let i = 0; i < BOOKINGS; i++) {
    const firstDay = Math.floor(random() * DAYS);
    const lastDay = Math.min(DAYS - 1, firstDay + Math.floor(random() * 10));
    const firstHour = Math.floor(random() * 24);
    const hours = 1 + Math.floor(random() * (24 - firstHour));
    const mask = ((1 << hours) - 1) << firstHour;
    const size = 20 + Math.floor(random() * 3_980);
    const from = 1 + Math.floor(random() * (SCREENS - size));
    const roll = random();
    const kind = roll < 0.8 ? 'booked' : 'hold';
    const released = roll >= 0.95;
    const rotations = 1 + Math.floor(random() * 3);
    const orderId = `bench-order-${i}`;
    const lineId = `bench-line-${i}`;
    const bookingId = `bench-booking-${i}`;
    const startDate = dayAfter(now, 1 + firstDay);
    const endDate = dayAfter(now, 1 + lastDay);
    await db.execute(sql`
      insert into sales_orders (id, ent_id, no, advertiser_id, state, start_date, end_date, hours_mask, list_amount,
                                amount, hold_until)
      values (${orderId}, ${ent.entId}, ${`SB${String(i).padStart(8, '0')}`}, ${ent.advertiserIds[i % ent.advertiserIds.length]},
              ${kind === 'hold' ? 'unpaid' : 'paid'}, ${startDate}, ${endDate}, ${mask}, 0, 0,
              ${kind === 'hold' ? holdUntil : null})`);
    await db.execute(sql`
      insert into sales_order_lines (id, order_id, position, slot_id, slot_name, sales_method, duration_sec, unit_price,
                                     rotations, screens, list_amount)
      values (${lineId}, ${orderId}, 1, ${slotId}, 'Lobby loop 15 s', 'cpt', 15, 100, ${rotations}, ${size}, 0)`);
    await db.execute(sql`
      insert into sales_order_line_devices (line_id, device_id)
      select ${lineId}, 'scr-' || g from generate_series(${from}::int, ${from + size - 1}::int) g`);
    await db.execute(sql`
      insert into sales_bookings (id, ent_id, slot_id, order_id, line_id, kind, start_date, end_date, hours_mask,
                                  rotations, expires_at, released_at)
      values (${bookingId}, ${ent.entId}, ${slotId}, ${orderId}, ${lineId}, ${kind}, ${startDate}, ${endDate}, ${mask},
              ${rotations}, ${kind === 'hold' ? holdUntil : null}, ${released ? now.toISOString() : null})`);
    await db.execute(sql`
      insert into sales_booking_devices (booking_id, device_id)
      select ${bookingId}, 'scr-' || g from generate_series(${from}::int, ${from + size - 1}::int) g`);
    bookingDevices += size;
  }
  await db.execute(sql`vacuum analyze`);
  const [live] = rowsOf(
    await db.execute(sql`
      select count(*)::int as n, count(*) filter (where kind = 'hold')::int as holds
      from sales_bookings where released_at is null`),
  );
  console.log(
    `seeded in ${ms((performance.now() - t0) / 1000)} s: ${SCREENS} screens, 1 slot (maxRotations ${MAX_ROTATIONS}, targets: a tag), ` +
      `${BOOKINGS} bookings (${live.n} live, ${live.holds} of them holds; ${bookingDevices} booking-screen rows), ` +
      `period ${start}..${end} (${DAYS} days x 24 hours = ${SCREENS * DAYS * 24} screen-hours); load ${load1()}`,
  );

  const [slotRow] = await db.select().from(adSlots).where(eq(adSlots.id, slotId));
  /** What the availability endpoint runs: the slot's screens resolved (targets, long offline), then the computation. */
  const availabilityOf = async (granularity: 'hour' | 'day', excludeOrderId?: string) => {
    const t = performance.now();
    const reached = await slotScreens(db, slotRow, now);
    const resolved = performance.now() - t;
    const result = await computeAvailability(
      db,
      slotRow,
      reached,
      { startDate: start, endDate: end, hoursMask: 0xffffff, granularity, page: 1, size: 50, excludeOrderId },
      now,
    );
    return { result, total: performance.now() - t, resolved };
  };

  for (const granularity of ['hour', 'day'] as const) {
    // Warm-up (plans, caches), not counted.
    let last = await availabilityOf(granularity);
    for (let i = 0; i < 5; i++) last = await availabilityOf(granularity);
    const times: number[] = [];
    const compute: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      last = await availabilityOf(granularity);
      times.push(last.total);
      compute.push(last.total - last.resolved);
    }
    times.sort((a, b) => a - b);
    compute.sort((a, b) => a - b);
    const r = last.result;
    console.log(
      `availability by ${granularity}, all ${SCREENS} screens x ${DAYS} days x 24 hours: p50 ${ms(percentile(times, 50))} ms, ` +
        `p99 ${ms(percentile(times, 99))} ms, max ${ms(times[times.length - 1])} ms over ${ITERATIONS} runs ` +
        `(of which computeAvailability p50 ${ms(percentile(compute, 50))} ms, p99 ${ms(percentile(compute, 99))} ms; ` +
        `the rest resolves the slot's screens); series ${r.series.length} buckets, screens ${r.screens.total}, ` +
        `capacity ${r.total.capacity}, booked ${r.total.booked}, held ${r.total.held}, fill ${r.total.fillRate}%, ` +
        `bookable ${r.bookable}; load ${load1()}`,
    );
  }

  // Cold: before each run (not timed) a screen is renamed, which moves the enterprise's screen
  // generation (the slot's screens are resolved again), and each run leaves out another order's
  // booking (another set of live bookings: the screens are grouped again). What a call costs
  // right after an edit of the fleet and a new order.
  let flip = false;
  for (const granularity of ['hour', 'day'] as const) {
    const times: number[] = [];
    const compute: number[] = [];
    let last = await availabilityOf(granularity);
    for (let i = 0; i < ITERATIONS; i++) {
      flip = !flip;
      await db.execute(sql`update devices set name = ${flip ? 'Screen 1 (renamed)' : 'Screen 1'} where id = 'scr-1'`);
      last = await availabilityOf(granularity, `bench-order-${i % BOOKINGS}`);
      times.push(last.total);
      compute.push(last.total - last.resolved);
    }
    times.sort((a, b) => a - b);
    compute.sort((a, b) => a - b);
    console.log(
      `cold availability by ${granularity} (screens resolved and grouped again every run): p50 ${ms(percentile(times, 50))} ms, ` +
        `p99 ${ms(percentile(times, 99))} ms, max ${ms(times[times.length - 1])} ms over ${ITERATIONS} runs ` +
        `(of which computeAvailability p50 ${ms(percentile(compute, 50))} ms, p99 ${ms(percentile(compute, 99))} ms); ` +
        `load ${load1()}`,
    );
  }
} finally {
  await s.done();
}
