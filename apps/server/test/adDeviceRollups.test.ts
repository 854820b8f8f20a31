import { randomUUID } from 'node:crypto';
import type { PlayEvent } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPlays } from '../src/modules/content/plays.js';
import { runPlayRollups } from '../src/modules/content/rollups.js';
import { adDeviceTotals } from '../src/modules/reports/service.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/db.js';

type Rows<T> = { rows: T[] };
const DAY = 86_400_000;

/**
 * The per-ad, per-device rollups report.adDevices reads (issue 25): kept by the play-rollups job
 * equal to the raw plays' sums, per day with running totals and in all, through re-runs and
 * late plays; and a range's figures from them equal the raw plays of the range.
 */
describe.each(BACKENDS)('per-ad, per-device rollups on %s', (backend) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(backend);
  });
  afterAll(() => db.close());

  const ent = `ent-${randomUUID()}`;
  const devA = { id: `dev-a-${randomUUID()}`, entId: ent };
  const devB = { id: `dev-b-${randomUUID()}`, entId: ent };
  const now = Date.now();
  // Noon of the UTC days 5, 4, 2 and 1 days back.
  const noon = (back: number) => {
    const d = new Date(now - back * DAY);
    d.setUTCHours(12, 0, 0, 0);
    return d.getTime();
  };
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const play = (start: number, extra: Partial<PlayEvent> = {}): PlayEvent => ({
    id: randomUUID(),
    materialId: 'm1',
    layoutId: null,
    componentId: null,
    adId: 'ad1',
    start,
    durationMs: 10_000,
    outcome: 'completed',
    ...extra,
  });
  const many = (n: number, start: number, extra: Partial<PlayEvent> = {}) =>
    Array.from({ length: n }, (_, i) => play(start + i * 60_000, extra));

  /** Per (ad, device, day): the rollup row, and the running totals as they should be. */
  const stored = async () =>
    (
      (await db.db.execute(sql`
        select ad_id, device_id, day::text as day, plays, completed, duration_ms::int as duration_ms,
          cum_plays::int as cum_plays, cum_completed::int as cum_completed, cum_duration_ms::int as cum_duration_ms
        from play_rollups_ad_device_daily where ent_id = ${ent}
        order by ad_id, device_id, day`)) as unknown as Rows<Record<string, string | number>>
    ).rows;
  const fromPlays = async () => {
    const raw = (
      (await db.db.execute(sql`
        select ad_id, device_id, day::text as day, count(*)::int as plays,
          (count(*) filter (where outcome = 'completed'))::int as completed, sum(duration_ms)::int as duration_ms
        from plays where ent_id = ${ent} and ad_id is not null
        group by ad_id, device_id, day order by ad_id, device_id, day`)) as unknown as Rows<{
        ad_id: string;
        device_id: string;
        day: string;
        plays: number;
        completed: number;
        duration_ms: number;
      }>
    ).rows;
    const cum = new Map<string, [number, number, number]>();
    return raw.map((r) => {
      const k = `${r.ad_id}|${r.device_id}`;
      const [p, c, d] = cum.get(k) ?? [0, 0, 0];
      const next: [number, number, number] = [p + r.plays, c + r.completed, d + r.duration_ms];
      cum.set(k, next);
      return { ...r, cum_plays: next[0], cum_completed: next[1], cum_duration_ms: next[2] };
    });
  };
  const totals = async () =>
    (
      (await db.db.execute(sql`
        select ad_id, device_id, first_day::text as first_day, last_day::text as last_day,
          plays::int as plays, completed::int as completed, duration_ms::int as duration_ms
        from play_rollups_ad_device where ent_id = ${ent} order by ad_id, device_id`)) as unknown as Rows<
        Record<string, string | number>
      >
    ).rows;
  const totalsFromPlays = async () => {
    const out = new Map<string, Record<string, string | number>>();
    for (const r of await fromPlays()) {
      const k = `${r.ad_id}|${r.device_id}`;
      const t = out.get(k);
      out.set(k, {
        ad_id: r.ad_id,
        device_id: r.device_id,
        first_day: t ? (t.first_day as string) : r.day,
        last_day: r.day,
        plays: r.cum_plays,
        completed: r.cum_completed,
        duration_ms: r.cum_duration_ms,
      });
    }
    return [...out.values()];
  };
  const expectEqualToPlays = async () => {
    expect(await stored()).toEqual(await fromPlays());
    expect(await totals()).toEqual(await totalsFromPlays());
  };

  it('equals the sums of the raw plays after ingest: per day with running totals, and in all', async () => {
    await ingestPlays(db.db, devA, many(3, noon(5)), now);
    await ingestPlays(db.db, devA, [...many(2, noon(4)), ...many(2, noon(4), { materialId: 'm2' })], now);
    await ingestPlays(db.db, devA, many(5, noon(1), { outcome: 'interrupted', durationMs: 4000 }), now);
    await ingestPlays(db.db, devB, [...many(4, noon(2)), ...many(1, noon(2), { adId: 'ad2' })], now);
    await ingestPlays(db.db, devB, many(2, noon(2), { adId: null }), now);
    await runPlayRollups(db.db);
    await expectEqualToPlays();
    // Two materials of one day are one row; plays without an ad have none.
    expect((await stored()).filter((r) => r.device_id === devA.id && r.ad_id === 'ad1').map((r) => r.plays)).toEqual([
      3, 4, 5,
    ]);
    expect((await totals()).map((r) => r.ad_id)).toEqual(['ad1', 'ad1', 'ad2']);
  });

  it('is idempotent: another run, or one from scratch, gives the same rows', async () => {
    const before = [await stored(), await totals()];
    await runPlayRollups(db.db);
    expect([await stored(), await totals()]).toEqual(before);
    await db.db.execute(sql`update rollup_watermarks set received_at = 'epoch'::timestamptz`);
    await runPlayRollups(db.db);
    await runPlayRollups(db.db);
    expect([await stored(), await totals()]).toEqual(before);
  });

  it('takes late plays of an earlier day: that day, the running totals after it and the totals follow', async () => {
    // Device A's plays of 5 and 4 days back arrive after its later days were rolled up, and a
    // day before its first one (a new first day).
    await ingestPlays(db.db, devA, [...many(6, noon(4) + 3_600_000), ...many(2, noon(6))], now);
    await runPlayRollups(db.db);
    await expectEqualToPlays();
    const a = (await totals()).find((r) => r.device_id === devA.id && r.ad_id === 'ad1');
    expect(a).toMatchObject({ first_day: dayOf(noon(6)), last_day: dayOf(noon(1)), plays: 3 + 4 + 6 + 5 + 2 });
  });

  it('answers a range from the running totals as the raw plays of the range', async () => {
    const ranges = [
      [6, 1],
      [5, 4],
      [4, 2],
      [3, 3],
      [2, 0],
      [9, 7],
      [1, 1],
    ];
    for (const adId of ['ad1', 'ad2']) {
      for (const [fromBack, toBack] of ranges) {
        const from = dayOf(noon(fromBack));
        const to = dayOf(noon(toBack));
        const got = (await adDeviceTotals(db.db, ent, adId, from, to))
          .map((r) => ({ device_id: r.device_id, plays: Number(r.plays), duration_ms: Number(r.duration_ms) }))
          .filter((r) => r.plays > 0)
          .sort((x, y) => x.device_id.localeCompare(y.device_id));
        const want = new Map<string, { device_id: string; plays: number; duration_ms: number }>();
        for (const r of await fromPlays()) {
          if (r.ad_id !== adId || r.day < from || r.day > to) continue;
          const w = want.get(r.device_id) ?? { device_id: r.device_id, plays: 0, duration_ms: 0 };
          w.plays += r.plays;
          w.duration_ms += r.duration_ms;
          want.set(r.device_id, w);
        }
        expect(got, `${adId} ${from}..${to}`).toEqual(
          [...want.values()].sort((x, y) => x.device_id.localeCompare(y.device_id)),
        );
      }
    }
  });
});
