import {
  MAX_PLAYS_BODY_BYTES,
  PLAYS_MAX_AGE_DAYS,
  type PlayEvent,
  type PlaysAnswer,
  playEventSchema,
} from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { pgErrorCode } from '../../db/errors.js';

type Event = z.output<typeof playEventSchema>;
const DAY_MS = 86_400_000;
/** How far ahead of the device's clock a start may be (clock skew). */
const FUTURE_SKEW_MS = DAY_MS;

export { MAX_PLAYS_BODY_BYTES };

/** `YYYY-MM-DD` (UTC) of an instant. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The partition of a day: `plays_p20261123`. */
export function partitionName(day: string): string {
  return `plays_p${day.replaceAll('-', '')}`;
}

/** Partitions this process knows exist, per database (one CREATE per day per process). */
const knownByDb = new WeakMap<object, Set<string>>();

/** Creates the partitions of these days when missing (concurrent creators are harmless). */
export async function ensurePartitions(db: Executor, days: Iterable<string>): Promise<number> {
  let created = 0;
  let known = knownByDb.get(db);
  if (!known) {
    known = new Set();
    knownByDb.set(db, known);
  }
  for (const day of new Set(days)) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || known.has(day)) continue;
    const next = dayOf(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
    try {
      await db.execute(
        sql.raw(
          `create table if not exists "${partitionName(day)}" partition of plays for values from ('${day}') to ('${next}')`,
        ),
      );
      created++;
    } catch (error) {
      // Another process created it between the check and the create (42P07), or it is
      // already attached: either way it exists now.
      const code = pgErrorCode(error);
      if (code !== '42P07' && code !== '23505') throw error;
    }
    known.add(day);
  }
  return created;
}

/** Forgets a dropped partition (the retention job), so an upload would create it again. */
export function forgetPartition(db: Executor, day: string): void {
  knownByDb.get(db)?.delete(day);
}

/** The partitions from `back` days before today to `ahead` days after (the job's run). */
export function partitionDays(now: number, back: number, ahead: number): string[] {
  const days: string[] = [];
  for (let d = -back; d <= ahead; d++) days.push(dayOf(now + d * DAY_MS));
  return days;
}

interface Row {
  event_id: string;
  device_id: string;
  day: string | Date;
}

/**
 * Stores a device's plays, idempotent by (day, event id): new ones are `accepted`, those the
 * device sent before are `duplicate`, those another device's event holds or that started too
 * long ago (or in the future) are `rejected`. Events are validated before (playsUploadSchema).
 */
export async function ingestPlays(
  db: Executor,
  device: { id: string; entId: string },
  events: readonly PlayEvent[],
  now: number,
): Promise<PlaysAnswer> {
  const rejected: string[] = [];
  const valid: Event[] = [];
  const seen = new Set<string>();
  for (const raw of events) {
    const event = playEventSchema.parse(raw);
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    if (event.start < now - PLAYS_MAX_AGE_DAYS * DAY_MS || event.start > now + FUTURE_SKEW_MS) {
      rejected.push(event.id);
      continue;
    }
    valid.push(event);
  }
  if (valid.length === 0) return { accepted: [], duplicate: [], rejected };
  await ensurePartitions(
    db,
    valid.map((e) => dayOf(e.start)),
  );
  // One statement with one parameter: the batch as a JSON array of rows (binding eleven
  // parameters per event costs more than the insert itself; bench/plays-ingest.ts).
  const rows = JSON.stringify(
    valid.map((e) => ({
      day: dayOf(e.start),
      event_id: e.id,
      material_id: e.materialId,
      layout_id: e.layoutId,
      component_id: e.componentId,
      ad_id: e.adId,
      started_at: new Date(e.start).toISOString(),
      duration_ms: e.durationMs,
      outcome: e.outcome,
    })),
  );
  const inserted = (await db.execute(sql`
    insert into plays (day, event_id, ent_id, device_id, material_id, layout_id, component_id, ad_id, started_at, duration_ms, outcome)
    select r.day, r.event_id, ${device.entId}, ${device.id}, r.material_id, r.layout_id, r.component_id, r.ad_id,
           r.started_at, r.duration_ms, r.outcome
    from jsonb_to_recordset(${rows}::jsonb) as r(day date, event_id uuid, material_id text, layout_id text,
         component_id text, ad_id text, started_at timestamptz, duration_ms integer, outcome text)
    on conflict (day, event_id) do nothing
    returning event_id`)) as unknown as { rows: { event_id: string }[] };
  const accepted = new Set(inserted.rows.map((r) => r.event_id));
  const others = valid.filter((e) => !accepted.has(e.id));
  const duplicate: string[] = [];
  if (others.length > 0) {
    const found = (await db.execute(sql`
      select event_id, device_id, day from plays
      where (day, event_id) in (
        select r.day, r.event_id
        from jsonb_to_recordset(${JSON.stringify(others.map((e) => ({ day: dayOf(e.start), event_id: e.id })))}::jsonb)
          as r(day date, event_id uuid))`)) as unknown as { rows: Row[] };
    const mine = new Set(found.rows.filter((r) => r.device_id === device.id).map((r) => r.event_id));
    for (const e of others) (mine.has(e.id) ? duplicate : rejected).push(e.id);
  }
  return { accepted: valid.filter((e) => accepted.has(e.id)).map((e) => e.id), duplicate, rejected };
}
