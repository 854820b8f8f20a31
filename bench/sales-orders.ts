// Orders per second (issue 28, "the last rotation sells once"): on PostgreSQL
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a scratch database
// is created and dropped), the app built in-process and its order endpoint (sales.orderCreate,
// through the call pipeline by app.inject: signature, session, permission, one transaction with
// the slot's row lock, the operation log), called by the enterprise administrator for many
// advertisers (each worker its own session and advertiser), with 1, 8 and 32 concurrent callers:
//  - contended: one slot (maxRotations 60) on one screen, every order the same day and hour,
//    one rotation each, BENCH_CONTENDED orders per run (default 120, twice what there is): the
//    successes (never more than 60), the TIME_CONFLICTs, and orders (answers) per second;
//  - uncontended: BENCH_UNCONTENDED orders per run (default 400), each on another slot over its
//    own screen (round robin over 400 slots): orders per second, p50/p99.
// Each run has fresh slots. Figures, never assertions; the load average is printed with them.
//
//   npx tsx bench/sales-orders.ts   BENCH_CONTENDED=120 BENCH_UNCONTENDED=400 BENCH_CONCURRENCY=1,8,32
import { ErrorCode } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { percentile } from './lib.js';
import { benchApp, codeOf, dayAfter, load1, ms, operator, rowsOf, scratch, screens, slot } from './sales-lib.js';

const CONTENDED = Number(process.env.BENCH_CONTENDED ?? 120);
const UNCONTENDED = Number(process.env.BENCH_UNCONTENDED ?? 400);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,8,32').split(',').map(Number);
const MAX_ROTATIONS = 60;
const MAX_C = Math.max(...CONCURRENCY);

const s = await scratch('sales_orders', MAX_C + 8);
const db = s.db;
let app: Awaited<ReturnType<typeof benchApp>>['app'] | null = null;
try {
  const ent = await operator(db, MAX_C);
  const fleet = await screens(db, ent.entId, UNCONTENDED * CONCURRENCY.length + CONCURRENCY.length);
  await db.execute(sql`vacuum analyze`);
  const built = await benchApp(s);
  app = built.app;
  const admin = { id: ent.adminId, entId: ent.entId };
  const callers = await Promise.all(Array.from({ length: MAX_C }, (_, i) => built.caller(admin, `bench-orders-${i}`)));
  const day = dayAfter(new Date(), 2);
  console.log(
    `${MAX_C} callers (the enterprise administrator's sessions, each ordering for its own advertiser); ` +
      `orders of one rotation on ${day} 10:00 UTC; load ${load1()}`,
  );

  let screenNo = 0;
  const order = (worker: number, slotId: string) =>
    callers[worker]('salesOrderCreate', {
      advertiserId: ent.advertiserIds[worker],
      slotId,
      startDate: day,
      endDate: day,
      hours: [10],
      lines: [{ slotId, deviceIds: [], rotations: 1 }],
    });

  /** `total` orders by `c` workers; `slotFor(i)` the slot of the i-th. */
  async function run(c: number, total: number, slotFor: (i: number) => string) {
    let next = 0;
    let okCount = 0;
    let conflicts = 0;
    const other = new Map<string, number>();
    const times: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: c }, async (_, w) => {
        for (let i = next++; i < total; i = next++) {
          const t = performance.now();
          try {
            await order(w, slotFor(i));
            okCount++;
          } catch (error) {
            const code = codeOf(error);
            if (code === ErrorCode.TIME_CONFLICT) conflicts++;
            else {
              const key = error instanceof Error ? error.message.slice(0, 120) : String(error);
              other.set(key, (other.get(key) ?? 0) + 1);
            }
          }
          times.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    times.sort((a, b) => a - b);
    return { okCount, conflicts, other, seconds, p50: percentile(times, 50), p99: percentile(times, 99) };
  }

  for (const c of CONCURRENCY) {
    // Contended: one slot, one screen, one hour.
    const screenId = fleet.ids(++screenNo);
    const hot = await slot(db, {
      entId: ent.entId,
      name: `Hot slot x${c}`,
      salesMethod: 'cpt',
      price: 100,
      maxRotations: MAX_ROTATIONS,
      targets: { deviceIds: [screenId] },
    });
    const r = await run(c, CONTENDED, () => hot);
    const [live] = rowsOf(
      await db.execute(sql`
        select coalesce(sum(rotations), 0)::int as n from sales_bookings where slot_id = ${hot} and released_at is null`),
    );
    console.log(
      `contended, ${c} caller(s): ${CONTENDED} orders in ${ms(r.seconds)} s = ${(CONTENDED / r.seconds).toFixed(1)} orders/s ` +
        `(p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms); ${r.okCount} placed, ${r.conflicts} TIME_CONFLICT, ` +
        `${live.n} rotations held of ${MAX_ROTATIONS}${r.other.size ? `; other errors ${JSON.stringify([...r.other])}` : ''}; load ${load1()}`,
    );

    // Uncontended: every order on a slot of its own screen.
    const slots: string[] = [];
    for (let i = 0; i < UNCONTENDED; i++) {
      slots.push(
        await slot(db, {
          entId: ent.entId,
          name: `Slot ${c}-${i}`,
          salesMethod: 'cpt',
          price: 100,
          maxRotations: MAX_ROTATIONS,
          targets: { deviceIds: [fleet.ids(++screenNo)] },
        }),
      );
    }
    const u = await run(c, UNCONTENDED, (i) => slots[i]);
    console.log(
      `uncontended, ${c} caller(s): ${UNCONTENDED} orders in ${ms(u.seconds)} s = ${(UNCONTENDED / u.seconds).toFixed(1)} orders/s ` +
        `(p50 ${ms(u.p50)} ms, p99 ${ms(u.p99)} ms); ${u.okCount} placed, ${u.conflicts} TIME_CONFLICT` +
        `${u.other.size ? `; other errors ${JSON.stringify([...u.other])}` : ''}; load ${load1()}`,
    );
  }
} finally {
  await app?.close();
  await s.done();
}
