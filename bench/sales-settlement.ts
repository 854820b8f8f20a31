// An order's settlement (issue 28, spec section 10): on PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres; a scratch database is created and dropped), one
// month (the 30 days ending yesterday) of a CPM order over 1,000 screens (one sub-order, its ad
// approved, 14 booked hours a day), with its proof of play written straight into the rollups
// the settlement reads (modules/sales/settlement.ts): play_rollups_daily per (ad, screen, day),
// play_rollups_hourly per hour, play_rollups_ad_daily per day; one screen-day in ten
// under-delivered; a third of the screens with gather audience (device_audience_hourly), the
// rest counted by the multiplier. Then computeSettlement (the function the compute endpoint
// runs) timed: the first computation (the 30,000 screen-day lines written) and a recomputation
// (aim < 5 s each). Figures, never assertions.
//
//   npx tsx bench/sales-settlement.ts   BENCH_SCREENS=1000 BENCH_DAYS=30 BENCH_RUNS=3
import { sql } from 'drizzle-orm';
import { computeSettlement } from '../apps/server/src/modules/sales/settlement.js';
import { dayAfter, load1, ms, operator, rowsOf, scratch, screens, slot } from './sales-lib.js';

const SCREENS = Number(process.env.BENCH_SCREENS ?? 1_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FIRST_HOUR = 8;
const HOURS = 14;
const MASK = ((1 << HOURS) - 1) << FIRST_HOUR;
const ROTATIONS = 2;
/** 45 yuan per thousand impressions, 20,000 thousand bought. */
const CPM_PRICE = 4_500;
const IMPRESSIONS_K = 20_000;
/**
 * Plays per booked hour of a screen that played as sold: the order ad alone in the loop, as
 * the settlement's expected figure assumes without a schedule (rotations turns of 10 s).
 */
const PLAYS_PER_HOUR = Math.floor(3600 / (ROTATIONS * 10)) * ROTATIONS;

const s = await scratch('sales_settle');
const db = s.db;
try {
  const t0 = performance.now();
  const now = new Date();
  const startDate = dayAfter(now, -DAYS);
  const endDate = dayAfter(now, -1);
  const ent = await operator(db, 1);
  const advertiserId = ent.advertiserIds[0];
  const fleet = await screens(db, ent.entId, SCREENS);
  const slotId = await slot(db, {
    entId: ent.entId,
    name: 'Lobby CPM 30 s',
    salesMethod: 'cpm',
    price: CPM_PRICE,
    maxRotations: 6,
    durationSec: 30,
    targets: { tagIds: [fleet.tagId] },
  });
  const amount = CPM_PRICE * IMPRESSIONS_K;
  const orderId = 'bench-settle-order';
  const lineId = 'bench-settle-line';
  const adId = 'bench-settle-ad';
  const deviceIds = Array.from({ length: SCREENS }, (_, i) => fleet.ids(i + 1));
  await db.execute(sql`
    insert into sales_orders (id, ent_id, no, advertiser_id, state, start_date, end_date, hours_mask, list_amount,
                              amount, hold_transfer_id, paid_at, created_at)
    values (${orderId}, ${ent.entId}, 'SBENCH0001', ${advertiserId}, 'inProgress', ${startDate}, ${endDate}, ${MASK},
            ${amount}, ${amount}, ${`sales:${orderId}:hold`}, ${startDate}::timestamptz - interval '1 day',
            ${startDate}::timestamptz - interval '1 day')`);
  await db.execute(sql`
    insert into promotion_plans (id, ent_id, owner_id, name) values ('bench-settle-plan', ${ent.entId}, ${advertiserId}, 'Orders')`);
  await db.execute(sql`
    insert into ads (id, ent_id, owner_id, name, type, source, plan_id, start_at, end_at, strategy, plays_min, plays_max,
                     periods, slot_id, material_ids, targets, review_state)
    values (${adId}, ${ent.entId}, ${advertiserId}, 'Bench order ad', 'common', 'order', 'bench-settle-plan',
            ${startDate}::timestamptz, ${dayAfter(now, 0)}::timestamptz, 'perLoop', ${ROTATIONS}, ${ROTATIONS},
            ${JSON.stringify([{ start: `${String(FIRST_HOUR).padStart(2, '0')}:00`, end: `${FIRST_HOUR + HOURS}:00` }])}::jsonb,
            ${slotId}, '{bench-material}',
            ${JSON.stringify({ deviceIds, groupIds: [], tagIds: [], deptIds: [], spliceIds: [] })}::jsonb, 'passed')`);
  await db.execute(sql`
    insert into sales_order_lines (id, order_id, position, slot_id, slot_name, sales_method, duration_sec, unit_price,
                                   rotations, impressions_k, screens, list_amount, ad_id)
    values (${lineId}, ${orderId}, 1, ${slotId}, 'Lobby CPM 30 s', 'cpm', 30, ${CPM_PRICE}, ${ROTATIONS},
            ${IMPRESSIONS_K}, ${SCREENS}, ${amount}, ${adId})`);
  await db.execute(sql`
    insert into sales_order_line_devices (line_id, device_id)
    select ${lineId}, 'scr-' || g from generate_series(1, ${SCREENS}::int) g`);
  await db.execute(sql`
    insert into sales_bookings (id, ent_id, slot_id, order_id, line_id, kind, start_date, end_date, hours_mask, rotations)
    values ('bench-settle-booking', ${ent.entId}, ${slotId}, ${orderId}, ${lineId}, 'booked', ${startDate}, ${endDate},
            ${MASK}, ${ROTATIONS})`);
  await db.execute(sql`
    insert into sales_booking_devices (booking_id, device_id)
    select 'bench-settle-booking', 'scr-' || g from generate_series(1, ${SCREENS}::int) g`);

  // Proof of play: per screen, day and booked hour, what was sold (PLAYS_PER_HOUR), one
  // screen-day in ten half of it.
  await db.execute(sql`
    insert into play_rollups_hourly (day, hour, ent_id, device_id, ad_id, material_id, plays, completed, duration_ms)
    select d::date, h, ${ent.entId}, 'scr-' || g, ${adId}, 'bench-material', p, p, p * 30000
    from generate_series(1, ${SCREENS}::int) g,
         generate_series(${startDate}::date, ${endDate}::date, interval '1 day') d,
         generate_series(${FIRST_HOUR}::int, ${FIRST_HOUR + HOURS - 1}::int) h,
         lateral (select case when (g + extract(day from d)::int) % 10 = 0 then ${PLAYS_PER_HOUR / 2}::int else ${PLAYS_PER_HOUR}::int end as p) x`);
  await db.execute(sql`
    insert into play_rollups_daily (day, ent_id, device_id, ad_id, material_id, plays, completed, duration_ms)
    select day, ent_id, device_id, ad_id, material_id, sum(plays), sum(completed), sum(duration_ms)
    from play_rollups_hourly where ad_id = ${adId} group by day, ent_id, device_id, ad_id, material_id`);
  await db.execute(sql`
    insert into play_rollups_ad_daily (ent_id, ad_id, day, plays, completed, duration_ms, devices, hour_plays)
    select ${ent.entId}, ${adId}, day, sum(plays), sum(completed), sum(duration_ms), count(distinct device_id),
           array(select coalesce(sum(h2.plays), 0)::int from generate_series(0, 23) hh
                 left join play_rollups_hourly h2 on h2.ad_id = ${adId} and h2.day = r.day and h2.hour = hh
                 group by hh order by hh)
    from play_rollups_hourly r where ad_id = ${adId} group by day`);
  // Audience (gather) on a third of the screens: every booked hour, two bands.
  await db.execute(sql`
    insert into device_audience_hourly (device_id, ent_id, hour, band, gender, count)
    select 'scr-' || g, ${ent.entId}, d + make_interval(hours => h), b, 'unknown', 20 + (g + h) % 30
    from generate_series(1, ${SCREENS}::int, 3) g,
         generate_series(${startDate}::timestamptz, ${endDate}::timestamptz, interval '1 day') d,
         generate_series(${FIRST_HOUR}::int, ${FIRST_HOUR + HOURS - 1}::int) h,
         unnest(array['18-25', '26-40']) b`);
  await db.execute(sql`vacuum analyze`);
  const [sizes] = rowsOf(
    await db.execute(sql`
      select (select count(*) from play_rollups_daily)::int as daily, (select count(*) from play_rollups_hourly)::int as hourly,
             (select count(*) from device_audience_hourly)::int as audience`),
  );
  console.log(
    `seeded in ${ms((performance.now() - t0) / 1000)} s: a CPM order of ${SCREENS} screens x ${DAYS} days ` +
      `(${startDate}..${endDate}, ${HOURS} hours a day, ${ROTATIONS} rotations, ${IMPRESSIONS_K}k impressions at ${CPM_PRICE} fen); ` +
      `rollups: ${sizes.daily} daily rows, ${sizes.hourly} hourly rows; ${sizes.audience} audience rows; load ${load1()}`,
  );

  for (let run = 1; run <= RUNS; run++) {
    const t = performance.now();
    const settlement = await db.transaction((tx) => computeSettlement(tx, orderId, now));
    const took = performance.now() - t;
    const [lines] = rowsOf(
      await db.execute(sql`
        select count(*)::int as n, count(*) filter (where under_delivered)::int as under,
               count(*) filter (where from_audience)::int as audience
        from sales_settlement_lines where settlement_id = ${settlement.id}`),
    );
    console.log(
      `computeSettlement ${run === 1 ? '(first)' : '(recomputed)'}: ${ms(took / 1000)} s; ${lines.n} screen-day lines ` +
        `(${lines.under} under-delivered, ${lines.audience} from audience); expected ${settlement.expectedPlays} plays, ` +
        `delivered ${settlement.deliveredPlays}, impressions ${settlement.impressions}, billed ${settlement.billedAmount} fen ` +
        `of ${amount}; load ${load1()}`,
    );
  }
} finally {
  await s.done();
}
