import { randomUUID } from 'node:crypto';
import type { PlayEvent } from '@marquee/protocol';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playRollupsAdDaily, playRollupsDaily, playRollupsHourly } from '../src/db/schema/index.js';
import { ingestPlays } from '../src/modules/content/plays.js';
import { ROLLUP_OVERLAP_MS, recompute, runPlayRollups } from '../src/modules/content/rollups.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/db.js';

/** The incremental rollups of proof of play: counts per hour and day, per ad, device and material. */
describe.each(BACKENDS)('play rollups on %s', (backend) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(backend);
  });
  afterAll(() => db.close());

  const now = Date.now();
  // Two UTC days back, at 10:15 and 11:30 of the earlier day.
  const day0 = new Date(now - 2 * 86_400_000);
  day0.setUTCHours(10, 15, 0, 0);
  const t1015 = day0.getTime();
  const t1130 = t1015 + 75 * 60_000;
  const t2 = t1015 + 86_400_000;
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const ent = `ent-${randomUUID()}`;
  const devA = { id: `dev-a-${randomUUID()}`, entId: ent };
  const devB = { id: `dev-b-${randomUUID()}`, entId: ent };
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
  const hourly = async () =>
    (
      await db.db
        .select()
        .from(playRollupsHourly)
        .where(sql`${playRollupsHourly.entId} = ${ent}`)
        .orderBy(
          asc(playRollupsHourly.day),
          asc(playRollupsHourly.deviceId),
          asc(playRollupsHourly.hour),
          asc(playRollupsHourly.adId),
          asc(playRollupsHourly.materialId),
        )
    ).map((r) => [r.day, r.deviceId, r.hour, r.adId, r.materialId, r.plays, r.completed, r.durationMs]);
  const daily = async () =>
    (
      await db.db
        .select()
        .from(playRollupsDaily)
        .where(sql`${playRollupsDaily.entId} = ${ent}`)
        .orderBy(
          asc(playRollupsDaily.day),
          asc(playRollupsDaily.deviceId),
          asc(playRollupsDaily.adId),
          asc(playRollupsDaily.materialId),
        )
    ).map((r) => [r.day, r.deviceId, r.adId, r.materialId, r.plays, r.completed, r.durationMs]);

  const adDaily = async () =>
    (
      await db.db
        .select()
        .from(playRollupsAdDaily)
        .where(sql`${playRollupsAdDaily.entId} = ${ent}`)
        .orderBy(asc(playRollupsAdDaily.day), asc(playRollupsAdDaily.adId))
    ).map((r) => [r.day, r.adId, r.plays, r.completed, r.durationMs, r.devices]);
  /** Each ad-daily row's plays per hour, and the same summed from the hourly rows. */
  const hourProfiles = async () => {
    const rows = await db.db.select().from(playRollupsAdDaily).where(sql`${playRollupsAdDaily.entId} = ${ent}`);
    const sums = new Map<string, number[]>();
    for (const [day, , hour, adId, , plays] of await hourly()) {
      const key = `${day}|${adId}`;
      const h = sums.get(key) ?? Array.from({ length: 24 }, () => 0);
      h[hour as number] += plays as number;
      sums.set(key, h);
    }
    return {
      stored: Object.fromEntries(rows.map((r) => [`${r.day}|${r.adId}`, r.hourPlays])),
      summed: Object.fromEntries(sums),
    };
  };
  /** The ad-daily rows as the sums of the daily ones (devices: the distinct devices of the ad's day). */
  const sumsOfDaily = async () => {
    const out = new Map<string, [string, string, number, number, number, Set<string>]>();
    for (const [day, deviceId, adId, , plays, completed, durationMs] of await daily()) {
      const key = `${day}|${adId}`;
      const row = out.get(key) ?? [day as string, adId as string, 0, 0, 0, new Set<string>()];
      row[2] += plays as number;
      row[3] += completed as number;
      row[4] += durationMs as number;
      row[5].add(deviceId as string);
      out.set(key, row);
    }
    return [...out.values()]
      .sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]))
      .map(([day, adId, plays, completed, durationMs, devs]) => [day, adId, plays, completed, durationMs, devs.size]);
  };

  it('folds plays into hourly and daily rows per ad, device and material', async () => {
    await ingestPlays(
      db.db,
      devA,
      [
        play(t1015),
        play(t1015 + 60_000, { outcome: 'interrupted', durationMs: 4000 }),
        play(t1130),
        play(t1130, { adId: null, materialId: 'm2' }),
        play(t2, { adId: 'ad2' }),
      ],
      now,
    );
    await ingestPlays(db.db, devB, [play(t1015), play(t1015)], now);
    expect((await runPlayRollups(db.db)).recomputed).toBeGreaterThanOrEqual(3);
    const d0 = dayOf(t1015);
    const d1 = dayOf(t2);
    expect(await hourly()).toEqual([
      [d0, devA.id, 10, 'ad1', 'm1', 2, 1, 14_000],
      [d0, devA.id, 11, '', 'm2', 1, 1, 10_000],
      [d0, devA.id, 11, 'ad1', 'm1', 1, 1, 10_000],
      [d0, devB.id, 10, 'ad1', 'm1', 2, 2, 20_000],
      [d1, devA.id, 10, 'ad2', 'm1', 1, 1, 10_000],
    ]);
    expect(await daily()).toEqual([
      [d0, devA.id, '', 'm2', 1, 1, 10_000],
      [d0, devA.id, 'ad1', 'm1', 3, 2, 24_000],
      [d0, devB.id, 'ad1', 'm1', 2, 2, 20_000],
      [d1, devA.id, 'ad2', 'm1', 1, 1, 10_000],
    ]);
    expect(await adDaily()).toEqual([
      [d0, '', 1, 1, 10_000, 1],
      [d0, 'ad1', 5, 4, 44_000, 2],
      [d1, 'ad2', 1, 1, 10_000, 1],
    ]);
    expect(await adDaily()).toEqual(await sumsOfDaily());
    const { stored, summed } = await hourProfiles();
    expect(stored).toEqual(summed);
    expect(stored[`${d0}|ad1`].slice(10, 12)).toEqual([4, 1]);
  });

  it('is idempotent: another run, or one from scratch, gives the same counts', async () => {
    const before = [await hourly(), await daily(), await adDaily()];
    await runPlayRollups(db.db);
    expect([await hourly(), await daily(), await adDaily()]).toEqual(before);
    await db.db.execute(sql`update rollup_watermarks set received_at = 'epoch'::timestamptz`);
    await runPlayRollups(db.db);
    await runPlayRollups(db.db);
    expect([await hourly(), await daily(), await adDaily()]).toEqual(before);
  });

  it('adds new plays once, and plays received just before the watermark (a late commit)', async () => {
    await ingestPlays(db.db, devB, [play(t1015)], now);
    await runPlayRollups(db.db);
    // A play whose upload began before the last run's watermark but committed after it.
    const late = play(t1130, { adId: 'ad3' });
    await ingestPlays(db.db, devB, [late], now);
    const [mark] = (
      (await db.db.execute(sql`select received_at from rollup_watermarks`)) as unknown as {
        rows: { received_at: string | Date }[];
      }
    ).rows;
    const earlier = new Date(new Date(mark.received_at).getTime() - ROLLUP_OVERLAP_MS / 2).toISOString();
    await db.db.execute(sql`update plays set received_at = ${earlier}::timestamptz where event_id = ${late.id}::uuid`);
    await runPlayRollups(db.db);
    await runPlayRollups(db.db);
    const d0 = dayOf(t1015);
    expect((await daily()).filter((r) => r[1] === devB.id)).toEqual([
      [d0, devB.id, 'ad1', 'm1', 3, 3, 30_000],
      [d0, devB.id, 'ad3', 'm1', 1, 1, 10_000],
    ]);
  });

  it('keeps the ad-daily rows the sums of the daily ones; an ad without plays left that day loses its row', async () => {
    const d0 = dayOf(t1015);
    expect(await adDaily()).toEqual(await sumsOfDaily());
    expect((await adDaily()).filter((r) => r[1] === 'ad3')).toEqual([[d0, 'ad3', 1, 1, 10_000, 1]]);
    await db.db.execute(sql`delete from plays where device_id = ${devB.id} and ad_id = 'ad3'`);
    await recompute(db.db, [{ day: d0, deviceId: devB.id, zone: 'UTC' }]);
    expect((await adDaily()).filter((r) => r[1] === 'ad3')).toEqual([]);
    expect(await adDaily()).toEqual(await sumsOfDaily());
    const { stored, summed } = await hourProfiles();
    expect(stored).toEqual(summed);
  });
});
