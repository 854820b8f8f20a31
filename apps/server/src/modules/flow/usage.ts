import { PLAYS_MAX_AGE_DAYS, type PlaysAnswer, type UsageSample, usageSampleSchema } from '@marquee/protocol';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { flowSamples, iotCards } from '../../db/schema/index.js';
import { addUsage, utc8Day } from './repository.js';

const DAY_MS = 86_400_000;
/** How far ahead of the server's clock a sample may start (the device's clock skew). */
const FUTURE_SKEW_MS = DAY_MS;
/** Samples are kept this long past the oldest start accepted, then pruned (the job). */
export const SAMPLE_KEEP_DAYS = PLAYS_MAX_AGE_DAYS + 2;
export const PRUNE_SAMPLES_JOB = 'flow-prune-samples';
export const PRUNE_SAMPLES_CRON = '23 3 * * *';

/** `YYYY-MM-DD` (UTC) of an instant: the sample's idempotency day. */
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Counts a device's usage samples once each, by (UTC day of start, id), in one transaction:
 * new ones are `accepted` and their rx + tx bytes added to flow_days (enterprise, UTC+8 day of
 * the start, device, card) and flow_ent_days; those the device sent before are `duplicate`;
 * those whose id another device's sample holds, or that start more than PLAYS_MAX_AGE_DAYS ago
 * or over a day ahead, are `rejected` (never counted: the player drops them).
 *
 * The card: the one whose ICCID the sample names when it is the device's enterprise's, else
 * the card bound to the device, else none ('').
 */
export async function ingestUsage(
  db: Executor,
  device: { id: string; entId: string },
  samples: readonly UsageSample[],
  now: number,
): Promise<PlaysAnswer> {
  const rejected: string[] = [];
  const valid: ReturnType<typeof usageSampleSchema.parse>[] = [];
  const seen = new Set<string>();
  for (const raw of samples) {
    const sample = usageSampleSchema.parse(raw);
    if (seen.has(sample.id)) continue;
    seen.add(sample.id);
    if (sample.start < now - PLAYS_MAX_AGE_DAYS * DAY_MS || sample.start > now + FUTURE_SKEW_MS) {
      rejected.push(sample.id);
      continue;
    }
    valid.push(sample);
  }
  if (valid.length === 0) return { accepted: [], duplicate: [], rejected };
  return db.transaction(async (tx) => {
    const rows = JSON.stringify(valid.map((s) => ({ day: utcDay(s.start), id: s.id, bytes: s.rxBytes + s.txBytes })));
    const inserted = (await tx.execute(sql`
      insert into flow_samples (day, id, device_id, bytes, received_at)
      select r.day, r.id, ${device.id}, r.bytes, ${new Date(now).toISOString()}::timestamptz
      from jsonb_to_recordset(${rows}::jsonb) as r(day date, id text, bytes bigint)
      on conflict (day, id) do nothing
      returning id`)) as unknown as { rows: { id: string }[] };
    const accepted = new Set(inserted.rows.map((r) => r.id));
    const others = valid.filter((s) => !accepted.has(s.id));
    const duplicate: string[] = [];
    if (others.length > 0) {
      const found = await tx
        .select({ id: flowSamples.id, deviceId: flowSamples.deviceId, day: sql<string>`${flowSamples.day}::text` })
        .from(flowSamples)
        .where(
          inArray(
            flowSamples.id,
            others.map((s) => s.id),
          ),
        );
      const mine = new Set(
        found.filter((f) => f.deviceId === device.id).map((f) => `${String(f.day).slice(0, 10)}|${f.id}`),
      );
      for (const s of others) (mine.has(`${utcDay(s.start)}|${s.id}`) ? duplicate : rejected).push(s.id);
    }
    const counted = valid.filter((s) => accepted.has(s.id));
    if (counted.length > 0) {
      const named = [...new Set(counted.map((s) => s.iccid?.toUpperCase()).filter((i): i is string => Boolean(i)))];
      const cardByIccid = new Map<string, string>();
      if (named.length > 0) {
        const cards = await tx
          .select({ id: iotCards.id, iccid: iotCards.iccid })
          .from(iotCards)
          .where(and(eq(iotCards.entId, device.entId), inArray(iotCards.iccid, named)));
        for (const c of cards) cardByIccid.set(c.iccid, c.id);
      }
      const [bound] = await tx
        .select({ id: iotCards.id })
        .from(iotCards)
        .where(and(eq(iotCards.deviceId, device.id), eq(iotCards.entId, device.entId)))
        .limit(1);
      const parts = new Map<string, { day: string; cardId: string; bytes: number }>();
      for (const s of counted) {
        const cardId = (s.iccid && cardByIccid.get(s.iccid.toUpperCase())) || bound?.id || '';
        const day = utc8Day(s.start);
        const key = `${day}|${cardId}`;
        const part = parts.get(key) ?? { day, cardId, bytes: 0 };
        part.bytes += s.rxBytes + s.txBytes;
        parts.set(key, part);
      }
      await addUsage(tx, device.entId, device.id, [...parts.values()]);
    }
    return { accepted: counted.map((s) => s.id), duplicate, rejected };
  });
}

/** The job: drops samples older than any accepted start (their replays are rejected anyway). */
export async function pruneSamples(db: Executor, now: number): Promise<number> {
  const deleted = await db
    .delete(flowSamples)
    .where(lt(flowSamples.day, utcDay(now - SAMPLE_KEEP_DAYS * DAY_MS)))
    .returning({ id: flowSamples.id });
  return deleted.length;
}
