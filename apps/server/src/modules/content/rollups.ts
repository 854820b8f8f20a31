import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

/**
 * The incremental proof-of-play rollups (issue 13): plays fold into hourly and daily aggregates
 * per ad, device and material (play_rollups_hourly, play_rollups_daily), per ad and day
 * (play_rollups_ad_daily) and per ad and device (play_rollups_ad_device_daily with running
 * totals, play_rollups_ad_device: issue 25), which the reports read instead of the raw plays. Plain SQL, any PostgreSQL (and PGlite), no extension.
 *
 * A run reads the plays received since the watermark (minus ROLLUP_OVERLAP_MS), and for each
 * (day, device) they touch recomputes that day's rows of that device from the raw plays (one
 * index range, `plays_device_day_idx`): re-reading a play only recomputes the same numbers, so
 * a run is idempotent and the overlap catches an upload whose transaction began (its
 * `received_at`) before the last run's watermark but committed after it. The watermark row is
 * locked for the run: two instances running it at once take turns.
 */
export const ROLLUP_JOB = 'play-rollups';
export const ROLLUP_CRON = '* * * * *';
/** How far before the watermark a run reads again (longer than any plays upload's transaction). */
export const ROLLUP_OVERLAP_MS = 5 * 60_000;
/** Most (day, device) pairs one run recomputes; the rest wait for the next run. */
export const ROLLUP_BATCH = 5000;

const WATERMARK = 'plays';

type Rows<T> = { rows: T[] };

/**
 * A (day, device) pair of the rollups: `day` is a local day of `zone`, the rollup zone of the
 * enterprise whose screen played (enterprises.rollup_zone, issue 31).
 */
export interface RollupPair {
  day: string;
  deviceId: string;
  zone: string;
}

/**
 * The rollup zone of a play's enterprise, in SQL (`e`: enterprises left-joined to the play;
 * a play of no known enterprise is kept in UTC days), and the play's local day in it.
 */
const PLAY_ZONE = sql`coalesce(e.rollup_zone, 'UTC')`;
const LOCAL_DAY = sql`(p.started_at at time zone ${PLAY_ZONE})::date`;

/** Folds the plays received since the last run into the rollups. Returns the (day, device) pairs recomputed. */
export async function runPlayRollups(db: Executor): Promise<{ recomputed: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into rollup_watermarks (name, received_at) values (${WATERMARK}, 'epoch'::timestamptz)
      on conflict (name) do nothing`);
    const mark = (await tx.execute(
      sql`select received_at from rollup_watermarks where name = ${WATERMARK} for update`,
    )) as unknown as Rows<{ received_at: string | Date }>;
    const watermark = new Date(mark.rows[0].received_at);
    const from = new Date(Math.max(0, watermark.getTime() - ROLLUP_OVERLAP_MS)).toISOString();
    // The touched pairs (local days of the enterprise's rollup zone), oldest first, and how far
    // they reach (the new watermark).
    const touched = (await tx.execute(sql`
      select ${LOCAL_DAY}::text as day, p.device_id, ${PLAY_ZONE} as zone, max(p.received_at) as last
      from plays p left join enterprises e on e.id = p.ent_id
      where p.received_at > ${from}::timestamptz
      group by ${LOCAL_DAY}, p.device_id, ${PLAY_ZONE}
      order by max(p.received_at)
      limit ${ROLLUP_BATCH}`)) as unknown as Rows<{
      day: string;
      device_id: string;
      zone: string;
      last: string | Date;
    }>;
    if (touched.rows.length === 0) return { recomputed: 0 };
    await recompute(
      tx,
      touched.rows.map((r) => ({ day: r.day, deviceId: r.device_id, zone: r.zone })),
    );
    const last = touched.rows.reduce((max, r) => Math.max(max, new Date(r.last).getTime()), watermark.getTime());
    await tx.execute(sql`
      update rollup_watermarks set received_at = ${new Date(last).toISOString()}::timestamptz, updated_at = now()
      where name = ${WATERMARK}`);
    return { recomputed: touched.rows.length };
  });
}

/**
 * Recomputes the hourly and daily rollups of these (day, device) pairs from the raw plays, then
 * the ad-daily rows of every (ad, day) those pairs had or now have rows of (an ad left without
 * rows that day loses its row). A pair's local day spans up to three UTC partitions of `plays`
 * (offsets reach -12 and +14 hours): they are read by their instants, so a zone whose offset
 * is a half or three quarters of an hour splits no bucket. A 25-hour day's repeated hour folds
 * into one hourly bucket.
 */
export async function recompute(db: Executor, pairs: readonly RollupPair[]): Promise<void> {
  if (pairs.length === 0) return;
  const keys = sql.join(
    pairs.map((p) => sql`(${p.day}::date, ${p.deviceId})`),
    sql`, `,
  );
  const zoned = sql.join(
    pairs.map((p) => sql`(${p.day}::date, ${p.deviceId}::text, ${p.zone}::text)`),
    sql`, `,
  );
  const adDaysOf = async () =>
    (
      (await db.execute(sql`
        select distinct ent_id, ad_id, day::text as day from play_rollups_daily
        where (day, device_id) in (${keys})`)) as unknown as Rows<{ ent_id: string; ad_id: string; day: string }>
    ).rows;
  const before = await adDaysOf();
  await db.execute(sql`delete from play_rollups_hourly where (day, device_id) in (${keys})`);
  await db.execute(sql`delete from play_rollups_daily where (day, device_id) in (${keys})`);
  const localHour = sql`extract(hour from p.started_at at time zone k.zone)`;
  await db.execute(sql`
    insert into play_rollups_hourly (day, hour, ent_id, device_id, ad_id, material_id, plays, completed, duration_ms)
    select k.day, ${localHour}::smallint, min(p.ent_id), p.device_id,
           coalesce(p.ad_id, ''), coalesce(p.material_id, ''),
           count(*), count(*) filter (where p.outcome = 'completed'), sum(p.duration_ms)
    from (values ${zoned}) k(day, device_id, zone)
    join plays p on p.device_id = k.device_id and p.day between k.day - 1 and k.day + 1
      and (p.started_at at time zone k.zone)::date = k.day
    group by k.day, ${localHour}, p.device_id, coalesce(p.ad_id, ''), coalesce(p.material_id, '')`);
  await db.execute(sql`
    insert into play_rollups_daily (day, ent_id, device_id, ad_id, material_id, plays, completed, duration_ms)
    select day, min(ent_id), device_id, ad_id, material_id, sum(plays), sum(completed), sum(duration_ms)
    from play_rollups_hourly where (day, device_id) in (${keys})
    group by day, device_id, ad_id, material_id`);
  const adDays = new Map([...before, ...(await adDaysOf())].map((r) => [`${r.ent_id}|${r.ad_id}|${r.day}`, r]));
  await recomputeAdDaily(db, [...adDays.values()]);
  await recomputeAdDevices(db, keys);
}

/** The `rollups-rezone` job (issue 31): every minute, the enterprises whose zone changed. */
export const REZONE_JOB = 'rollups-rezone';
export const REZONE_CRON = '* * * * *';

/**
 * Rebuilds the rollups of one enterprise whose time zone is not the one its rollups are keyed
 * in (a changed zone; every enterprise once after migration 0069, whose rollups were UTC's):
 * its rows from the first local day the retained plays reach are deleted and recomputed in the
 * new zone, and `rollup_zone_since` records that day when older rows stay in the earlier zone.
 * Runs under the play-rollups watermark lock (no incremental run interleaves) in one
 * transaction. Answers the enterprise rebuilt, or null when none waits.
 */
export async function rezoneRollups(db: Executor): Promise<{ entId: string; pairs: number } | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into rollup_watermarks (name, received_at) values (${WATERMARK}, 'epoch'::timestamptz)
      on conflict (name) do nothing`);
    await tx.execute(sql`select 1 from rollup_watermarks where name = ${WATERMARK} for update`);
    const [ent] = (
      (await tx.execute(sql`
        select id, time_zone, rollup_zone from enterprises where time_zone <> rollup_zone
        order by id limit 1 for update skip locked`)) as unknown as Rows<{
        id: string;
        time_zone: string;
        rollup_zone: string;
      }>
    ).rows;
    if (!ent) return null;
    const zone = ent.time_zone;
    const [first] = (
      (await tx.execute(sql`
        select min(p.started_at) as at from plays p where p.ent_id = ${ent.id}`)) as unknown as Rows<{
        at: string | Date | null;
      }>
    ).rows;
    let pairs: RollupPair[] = [];
    let since: string | null = null;
    if (first?.at) {
      const start = new Date(first.at).toISOString();
      // The first day either zone has a row for that the retained plays reach: from there on
      // every row is the new zone's (no old row and new row share a day); before it, the old
      // zone's rows stay.
      const [cut] = (
        (await tx.execute(sql`
          select least((${start}::timestamptz at time zone ${ent.rollup_zone})::date,
                       (${start}::timestamptz at time zone ${zone})::date)::text as day`)) as unknown as Rows<{
          day: string;
        }>
      ).rows;
      const older = (await tx.execute(
        sql`select 1 from play_rollups_daily where ent_id = ${ent.id} and day < ${cut.day}::date limit 1`,
      )) as unknown as Rows<unknown>;
      if (older.rows.length > 0) since = cut.day;
      for (const table of ['play_rollups_hourly', 'play_rollups_daily', 'play_rollups_ad_daily']) {
        await tx.execute(sql`delete from ${sql.raw(table)} where ent_id = ${ent.id} and day >= ${cut.day}::date`);
      }
      const found = (await tx.execute(sql`
        select distinct (p.started_at at time zone ${zone})::date::text as day, p.device_id
        from plays p where p.ent_id = ${ent.id}`)) as unknown as Rows<{ day: string; device_id: string }>;
      pairs = found.rows.map((r) => ({ day: r.day, deviceId: r.device_id, zone }));
      // The per-ad, per-device rows and their running totals follow the daily ones (recompute).
      await tx.execute(
        sql`delete from play_rollups_ad_device_daily where ent_id = ${ent.id} and day >= ${cut.day}::date`,
      );
      for (let i = 0; i < pairs.length; i += ROLLUP_BATCH) await recompute(tx, pairs.slice(i, i + ROLLUP_BATCH));
      await refreshAllAdDevices(tx, ent.id, cut.day);
    }
    await tx.execute(sql`
      update enterprises set rollup_zone = ${zone}, rollup_zone_since = ${since}::date where id = ${ent.id}`);
    return { entId: ent.id, pairs: pairs.length };
  });
}

/** Refreshes every (ad, device) series of an enterprise from `day` on (after a rezone's deletes). */
async function refreshAllAdDevices(db: Executor, entId: string, day: string): Promise<void> {
  const series = (
    (await db.execute(sql`
      select ent_id, ad_id, device_id, ${day}::text as day from play_rollups_ad_device where ent_id = ${entId}
      union
      select distinct ent_id, ad_id, device_id, ${day}::text from play_rollups_ad_device_daily where ent_id = ${entId}`)) as unknown as Rows<{
      ent_id: string;
      ad_id: string;
      device_id: string;
      day: string;
    }>
  ).rows;
  await refreshAdDevices(db, series);
}

/** Most (ad, device) series one statement of refreshAdDevices names (4 parameters each). */
const AD_DEVICE_CHUNK = 1000;

/**
 * Recomputes the per-ad, per-device rows of the (day, device) pairs `keys` from the daily
 * rollups (their materials summed), then refreshes the running totals and the totals of every
 * (ad, device) those pairs had or now have rows of, from the earliest day touched on.
 */
async function recomputeAdDevices(db: Executor, keys: SQL): Promise<void> {
  type Key = { ent_id: string; ad_id: string; device_id: string; day: string };
  const before = (
    (await db.execute(sql`
      select ent_id, ad_id, device_id, day::text as day from play_rollups_ad_device_daily
      where (day, device_id) in (${keys})`)) as unknown as Rows<Key>
  ).rows;
  await db.execute(sql`delete from play_rollups_ad_device_daily where (day, device_id) in (${keys})`);
  const after = (
    (await db.execute(sql`
      insert into play_rollups_ad_device_daily
        (ent_id, ad_id, device_id, day, plays, completed, duration_ms, cum_plays, cum_completed, cum_duration_ms)
      select ent_id, ad_id, device_id, day, sum(plays), sum(completed), sum(duration_ms), 0, 0, 0
      from play_rollups_daily where (day, device_id) in (${keys}) and ad_id <> ''
      group by ent_id, ad_id, device_id, day
      returning ent_id, ad_id, device_id, day::text as day`)) as unknown as Rows<Key>
  ).rows;
  const series = new Map<string, Key>();
  for (const r of [...before, ...after]) {
    const k = `${r.ent_id}|${r.ad_id}|${r.device_id}`;
    const seen = series.get(k);
    if (!seen || r.day < seen.day) series.set(k, r);
  }
  await refreshAdDevices(db, [...series.values()]);
}

/**
 * Refreshes these (ad, device) series from their day `day` on: the running totals of their
 * per-day rows (the total before that day plus the days' plays so far), then their row of
 * play_rollups_ad_device (first and last day, the last day's running totals; none when no day
 * is left). Idempotent: the same rows give the same totals.
 */
export async function refreshAdDevices(
  db: Executor,
  series: readonly { ent_id: string; ad_id: string; device_id: string; day: string }[],
): Promise<void> {
  for (let i = 0; i < series.length; i += AD_DEVICE_CHUNK) {
    const chunk = series.slice(i, i + AD_DEVICE_CHUNK);
    const values = sql.join(
      chunk.map((k) => sql`(${k.ent_id}::text, ${k.ad_id}::text, ${k.device_id}::text, ${k.day}::date)`),
      sql`, `,
    );
    // The rows are updated by the ctid this statement read them at: no index left to a plan.
    await db.execute(sql`
      with k(ent_id, ad_id, device_id, from_day) as (values ${values}),
      run as (
        select r.ctid as row_id,
          coalesce(p.cum_plays, 0) + sum(r.plays) over w as cum_plays,
          coalesce(p.cum_completed, 0) + sum(r.completed) over w as cum_completed,
          coalesce(p.cum_duration_ms, 0) + sum(r.duration_ms) over w as cum_duration_ms
        from k
        join play_rollups_ad_device_daily r
          on r.ent_id = k.ent_id and r.ad_id = k.ad_id and r.device_id = k.device_id and r.day >= k.from_day
        left join lateral (
          select q.cum_plays, q.cum_completed, q.cum_duration_ms from play_rollups_ad_device_daily q
          where q.ent_id = k.ent_id and q.ad_id = k.ad_id and q.device_id = k.device_id and q.day < k.from_day
          order by q.day desc limit 1) p on true
        window w as (partition by r.ent_id, r.ad_id, r.device_id order by r.day)
      )
      update play_rollups_ad_device_daily t
      set cum_plays = run.cum_plays, cum_completed = run.cum_completed, cum_duration_ms = run.cum_duration_ms
      from run
      where t.ctid = run.row_id`);
    await db.execute(sql`
      delete from play_rollups_ad_device a using (values ${values}) k(ent_id, ad_id, device_id, from_day)
      where a.ent_id = k.ent_id and a.ad_id = k.ad_id and a.device_id = k.device_id`);
    await db.execute(sql`
      insert into play_rollups_ad_device (ent_id, ad_id, device_id, first_day, last_day, plays, completed, duration_ms)
      select k.ent_id, k.ad_id, k.device_id, f.day, l.day, l.cum_plays, l.cum_completed, l.cum_duration_ms
      from (values ${values}) k(ent_id, ad_id, device_id, from_day)
      join lateral (
        select q.day from play_rollups_ad_device_daily q
        where q.ent_id = k.ent_id and q.ad_id = k.ad_id and q.device_id = k.device_id
        order by q.day limit 1) f on true
      join lateral (
        select q.day, q.cum_plays, q.cum_completed, q.cum_duration_ms from play_rollups_ad_device_daily q
        where q.ent_id = k.ent_id and q.ad_id = k.ad_id and q.device_id = k.device_id
        order by q.day desc limit 1) l on true`);
  }
}

/**
 * Recomputes the ad-daily rollups of these (enterprise, ad, day) triples from the daily ones,
 * and their plays per hour from the hourly ones.
 */
export async function recomputeAdDaily(
  db: Executor,
  triples: readonly { ent_id: string; ad_id: string; day: string }[],
) {
  if (triples.length === 0) return;
  const keys = sql.join(
    triples.map((t) => sql`(${t.ent_id}, ${t.ad_id}, ${t.day}::date)`),
    sql`, `,
  );
  await db.execute(sql`delete from play_rollups_ad_daily where (ent_id, ad_id, day) in (${keys})`);
  // The same query as migration 0031's fill, over these triples.
  await db.execute(sql`
    insert into play_rollups_ad_daily (ent_id, ad_id, day, plays, completed, duration_ms, devices, hour_plays)
    select d.ent_id, d.ad_id, d.day, d.plays, d.completed, d.duration_ms, d.devices,
      (select array_agg(coalesce(h.plays, 0)::int order by g.hour)
       from generate_series(0, 23) g(hour)
       left join (select hour, sum(plays) as plays from play_rollups_hourly r
                  where r.ent_id = d.ent_id and r.ad_id = d.ad_id and r.day = d.day group by hour) h
         on h.hour = g.hour)
    from (select ent_id, ad_id, day, sum(plays) as plays, sum(completed) as completed,
            sum(duration_ms) as duration_ms, count(distinct device_id) as devices
          from play_rollups_daily where (ent_id, ad_id, day) in (${keys})
          group by ent_id, ad_id, day) d`);
}
