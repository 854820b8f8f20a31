import { nextDay, wallClock } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { ExpectedModel } from './expected.js';

type Row = Record<string, unknown>;
const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

/** The `delivery-reconcile` job: each hour at :45, each enterprise's yesterday (its own) again while late plays arrive. */
export const DELIVERY_RECONCILE_JOB = 'delivery-reconcile';
export const DELIVERY_RECONCILE_CRON = '45 * * * *';
/** Rows written per statement. */
const BATCH = 1_000;

/** The day before `now`'s in `zone` (an enterprise's report zone), YYYY-MM-DD. */
export const previousDay = (now: Date, zone: string) => nextDay(wallClock(now, zone).day, -1);

/**
 * Reconciles proof of play for one day (issue 30; the reports' reconciliation per screen): by
 * default each enterprise's yesterday in its report zone (issue 31: its rollups' days),
 * for each enterprise, the plays the schedule expected of the ads reaching each activated
 * screen (ExpectedModel, the ad reports' own figures, computed once per set of ads) and the
 * plays of those ads the screen reported (play_rollups_daily, the figure the reports set
 * beside it), upserted into delivery_days. Screens nothing was expected of are left out.
 * Idempotent: a rerun rewrites the day. Answers the rows written.
 */
export async function reconcileDeliveryDays(db: Executor, now: Date, theDay?: string): Promise<number> {
  const ents = rowsOf(
    await db.execute(sql`
      select e.id, e.rollup_zone from enterprises e
      where exists (select 1 from devices d where d.ent_id = e.id and d.activated_at is not null)
      order by e.id`),
  ).map((r) => ({ entId: String(r.id), zone: String(r.rollup_zone) }));
  let written = 0;
  for (const { entId, zone } of ents) {
    const day = theDay ?? previousDay(now, zone);
    const model = await ExpectedModel.load(db, entId, day, day, now);
    const adIds = model.adIds();
    if (adIds.length === 0) continue;
    const played = new Map<string, Map<string, number>>();
    const rows = rowsOf(
      await db.execute(sql`
        select device_id, ad_id, sum(plays)::int as plays from play_rollups_daily
        where ent_id = ${entId} and day = ${day}::date
          and ad_id in (select jsonb_array_elements_text(${JSON.stringify(adIds)}::jsonb))
        group by device_id, ad_id`),
    );
    for (const r of rows) {
      const perAd = played.get(String(r.device_id)) ?? new Map<string, number>();
      perAd.set(String(r.ad_id), Number(r.plays));
      played.set(String(r.device_id), perAd);
    }
    const out: { deviceId: string; expected: number; delivered: number }[] = [];
    for (const deviceId of model.deviceIds()) {
      const expectedByAd = model.onDeviceDay(deviceId, day);
      let expected = 0;
      let delivered = 0;
      for (const [adId, n] of expectedByAd) {
        expected += n;
        delivered += played.get(deviceId)?.get(adId) ?? 0;
      }
      if (expected > 0) out.push({ deviceId, expected, delivered });
    }
    for (let i = 0; i < out.length; i += BATCH) {
      const chunk = out.slice(i, i + BATCH);
      await db.execute(sql`
        insert into delivery_days (device_id, day, ent_id, expected, delivered, computed_at)
        select r.device_id, ${day}::date, ${entId}, r.expected, r.delivered, ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(chunk.map((c) => ({ device_id: c.deviceId, expected: c.expected, delivered: c.delivered })))}::jsonb)
          as r(device_id text, expected int, delivered int)
        on conflict (device_id, day) do update
          set expected = excluded.expected, delivered = excluded.delivered, computed_at = excluded.computed_at`);
      written += chunk.length;
    }
  }
  return written;
}

/** Reconciliations older than this are deleted by the job (the warning reads yesterday only). */
export const DELIVERY_DAYS_KEEP = 35;

/** Deletes reconciliations past DELIVERY_DAYS_KEEP days. */
export async function pruneDeliveryDays(db: Executor, now: Date): Promise<number> {
  const cut = new Date(now.getTime() - DELIVERY_DAYS_KEEP * 86_400_000).toISOString().slice(0, 10);
  return rowsOf(await db.execute(sql`delete from delivery_days where day < ${cut}::date returning device_id`)).length;
}
