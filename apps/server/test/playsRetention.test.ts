import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePartitions } from '../src/modules/content/plays.js';
import { dropExpiredPlays, playsPartitionDays } from '../src/modules/content/retention.js';
import { ROLLUP_OVERLAP_MS, runPlayRollups } from '../src/modules/content/rollups.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/db.js';

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The plays retention job: old day partitions go once rolled up; newer ones and unprocessed days stay. */
describe.each(BACKENDS)('plays retention on %s', (backend) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(backend);
  });
  afterAll(() => db.close());

  const now = Date.parse('2026-11-23T12:00:00Z');
  const retention = 400;
  const ent = `ent-${randomUUID()}`;
  const insertPlay = async (day: string, receivedAt: Date) =>
    db.db.execute(sql`
      insert into plays (day, event_id, ent_id, device_id, ad_id, started_at, duration_ms, outcome, received_at)
      values (${day}::date, ${randomUUID()}::uuid, ${ent}, 'dev-1', 'ad-1', ${`${day}T10:00:00Z`}::timestamptz,
        10000, 'completed', ${receivedAt.toISOString()}::timestamptz)`);
  const rollupDays = async () =>
    (
      (await db.db.execute(
        sql`select day::text as day from play_rollups_daily where ent_id = ${ent} order by day`,
      )) as unknown as { rows: { day: string }[] }
    ).rows.map((r) => r.day);

  const oldest = dayOf(now - 500 * DAY);
  const old = dayOf(now - 401 * DAY);
  const unprocessed = dayOf(now - 450 * DAY);
  const recent = dayOf(now - 399 * DAY);
  const today = dayOf(now);

  it('keeps everything while the rollups have never run', async () => {
    await ensurePartitions(db.db, [oldest, old, unprocessed, recent, today]);
    await insertPlay(oldest, new Date(now - 500 * DAY));
    await insertPlay(old, new Date(now - 401 * DAY));
    await insertPlay(recent, new Date(now - 399 * DAY));
    const result = await dropExpiredPlays(db.db, now, retention);
    expect(result.dropped).toEqual([]);
    expect(result.pending).toEqual([oldest, unprocessed, old]);
    expect(await playsPartitionDays(db.db)).toEqual([oldest, unprocessed, old, recent, today]);
  });

  it('drops the partitions older than the retention once rolled up, keeps newer ones and an unprocessed day', async () => {
    await runPlayRollups(db.db);
    expect(await rollupDays()).toEqual([oldest, old, recent]);
    // A play of an old day received after the rollups' last run (as a late upload would be).
    const mark = (await db.db.execute(
      sql`select received_at from rollup_watermarks where name = 'plays'`,
    )) as unknown as { rows: { received_at: string | Date }[] };
    await insertPlay(unprocessed, new Date(new Date(mark.rows[0].received_at).getTime() + ROLLUP_OVERLAP_MS));

    const result = await dropExpiredPlays(db.db, now, retention);
    expect(result.dropped).toEqual([oldest, old]);
    expect(result.pending).toEqual([unprocessed]);
    expect(await playsPartitionDays(db.db)).toEqual([unprocessed, recent, today]);
    // The rollups of the dropped days are kept (the reports read them).
    expect(await rollupDays()).toEqual([oldest, old, recent]);
    const left = (await db.db.execute(
      sql`select day::text as day, count(*)::int as n from plays where ent_id = ${ent} group by day order by day`,
    )) as unknown as { rows: { day: string; n: number }[] };
    expect(left.rows).toEqual([
      { day: unprocessed, n: 1 },
      { day: recent, n: 1 },
    ]);

    // Once the rollups fold it in, a later run drops that day too; running again changes nothing.
    await runPlayRollups(db.db);
    expect((await dropExpiredPlays(db.db, now, retention)).dropped).toEqual([unprocessed]);
    expect(await dropExpiredPlays(db.db, now, retention)).toEqual({ dropped: [], pending: [] });
    expect(await playsPartitionDays(db.db)).toEqual([recent, today]);
  });
});
