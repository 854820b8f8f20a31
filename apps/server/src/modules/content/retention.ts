import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { dayOf, forgetPartition, partitionName } from './plays.js';

/**
 * Retention of the raw proof of play (docs/operations.md "What is kept how long"): the
 * `plays` day partitions older than PLAYS_RETENTION_DAYS are dropped whole (no row-by-row
 * delete, no bloat). The reports read the rollups, which are kept; so a day is dropped only
 * once the rollup job has folded all of it in: a partition holding a play received after the
 * rollups' watermark is kept for a later run.
 */
export const PLAYS_RETENTION_JOB = 'plays-retention';
export const PLAYS_RETENTION_CRON = '43 3 * * *';
const DAY_MS = 86_400_000;
type Rows<T> = { rows: T[] };

/** The days of the existing `plays` partitions (named plays_pYYYYMMDD), oldest first. */
export async function playsPartitionDays(db: Executor): Promise<string[]> {
  const result = (await db.execute(sql`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    where p.relname = 'plays' and p.relnamespace = c.relnamespace
      and p.relnamespace = (select oid from pg_namespace where nspname = current_schema())
    order by c.relname`)) as unknown as Rows<{ name: string }>;
  return result.rows.flatMap(({ name }) => {
    const m = /^plays_p(\d{4})(\d{2})(\d{2})$/.exec(name);
    return m ? [`${m[1]}-${m[2]}-${m[3]}`] : [];
  });
}

/**
 * Drops the partitions of the days before `now` less `retentionDays` (UTC) that the rollups
 * have processed; keeps the others. Returns the days dropped and those kept back unprocessed.
 */
export async function dropExpiredPlays(
  db: Executor,
  now: number,
  retentionDays: number,
): Promise<{ dropped: string[]; pending: string[] }> {
  const cutoff = dayOf(now - retentionDays * DAY_MS);
  const expired = (await playsPartitionDays(db)).filter((day) => day < cutoff);
  const dropped: string[] = [];
  const pending: string[] = [];
  if (expired.length === 0) return { dropped, pending };
  const mark = (await db.execute(
    sql`select received_at from rollup_watermarks where name = 'plays'`,
  )) as unknown as Rows<{ received_at: string | Date }>;
  // No watermark: the rollups never ran, nothing may go. A play received after it is not rolled
  // up yet (a day that old gets no new plays: uploads reach back PLAYS_MAX_AGE_DAYS at most).
  const processedUntil = mark.rows[0] ? new Date(mark.rows[0].received_at).getTime() : null;
  for (const day of expired) {
    const table = sql.identifier(partitionName(day));
    if (processedUntil === null) {
      pending.push(day);
      continue;
    }
    const unprocessed = (await db.execute(
      sql`select 1 from ${table} where received_at > ${new Date(processedUntil).toISOString()}::timestamptz limit 1`,
    )) as unknown as Rows<unknown>;
    if (unprocessed.rows.length > 0) {
      pending.push(day);
      continue;
    }
    await db.execute(sql`drop table if exists ${table}`);
    forgetPartition(db, day);
    dropped.push(day);
  }
  return { dropped, pending };
}

/** The manifest download times older than the retention (the device report reads the range's only). */
export async function pruneManifestDownloads(db: Executor, now: number, retentionDays: number): Promise<number> {
  const before = new Date(now - retentionDays * DAY_MS).toISOString();
  const result = (await db.execute(
    sql`delete from device_manifest_downloads where coalesce(completed_at, started_at) < ${before}::timestamptz`,
  )) as unknown as { rowCount?: number; affectedRows?: number };
  return result.rowCount ?? result.affectedRows ?? 0;
}
