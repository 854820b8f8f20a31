import type { CardOperator, CardState } from '@marquee/protocol';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devices, flowDays, flowEntDays, iotCards } from '../../db/schema/index.js';

/** Bytes in a MB (the package sizes and the usage are in MiB, as operators count them). */
export const MB = 1_048_576;
const DAY_MS = 86_400_000;
/** China's time: cards' months and the usage days are UTC+8 days. */
const UTC8_MS = 8 * 3_600_000;

/** `YYYY-MM-DD` in UTC+8 of an instant. */
export function utc8Day(ms: number): string {
  return new Date(ms + UTC8_MS).toISOString().slice(0, 10);
}

/** The first day (UTC+8) of the calendar month of an instant. */
export function utc8MonthStart(ms: number): string {
  return `${utc8Day(ms).slice(0, 8)}01`;
}

/** Every day from `from` to `to`, inclusive (`YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The bytes the card used this month (UTC+8). Written with the table's name: the card list
 * joins devices, so the outer column is qualified either way.
 */
const usedBytesOf = (monthStart: string) =>
  sql<number>`(select coalesce(sum(fd.bytes), 0) from flow_days fd where fd.card_id = ${iotCards.id} and fd.ent_id = ${iotCards.entId} and fd.day >= ${monthStart}::date)`;

/** Whether the card's package renews by itself (the market's item of the card). */
const autoRenewOf = sql<boolean>`coalesce((select mi.auto_renew from market_items mi where mi.kind = 'dataCard' and mi.subject_id = ${iotCards.id} limit 1), false)`;

/** MB left of the package this month (not below 0); null without a package. */
const leftMbOf = (monthStart: string) =>
  sql`greatest(${iotCards.packageMb}::numeric - ${usedBytesOf(monthStart)}::numeric / ${MB}, 0)`;

export interface CardFilter {
  state?: CardState;
  operator?: CardOperator;
  keyword?: string;
  leftMin?: number;
  leftMax?: number;
  deviceId?: string;
  bound?: boolean;
}

export interface CardRow {
  id: string;
  iccid: string;
  operator: CardOperator;
  state: CardState;
  packageName: string | null;
  packageMb: number | null;
  usedBytes: number;
  deviceId: string | null;
  deviceName: string | null;
  activatedAt: Date | null;
  expiresAt: Date | null;
  autoRenew: boolean;
  remark: string;
  createdAt: Date;
}

function cardWhere(entId: string, filter: CardFilter, monthStart: string): SQL {
  const conds: SQL[] = [eq(iotCards.entId, entId)];
  if (filter.state) conds.push(eq(iotCards.state, filter.state));
  if (filter.operator) conds.push(eq(iotCards.operator, filter.operator));
  if (filter.deviceId) conds.push(eq(iotCards.deviceId, filter.deviceId));
  if (filter.bound !== undefined) conds.push(filter.bound ? isNotNull(iotCards.deviceId) : isNull(iotCards.deviceId));
  if (filter.keyword) {
    const p = `%${escapeLike(filter.keyword)}%`;
    conds.push(or(ilike(iotCards.iccid, p), ilike(devices.name, p)) as SQL);
  }
  if (filter.leftMin !== undefined || filter.leftMax !== undefined) {
    conds.push(isNotNull(iotCards.packageMb));
    if (filter.leftMin !== undefined) conds.push(sql`${leftMbOf(monthStart)} >= ${filter.leftMin}`);
    if (filter.leftMax !== undefined) conds.push(sql`${leftMbOf(monthStart)} <= ${filter.leftMax}`);
  }
  return and(...conds) as SQL;
}

const cardColumns = (monthStart: string) => ({
  id: iotCards.id,
  iccid: iotCards.iccid,
  operator: iotCards.operator,
  state: iotCards.state,
  packageName: iotCards.packageName,
  packageMb: iotCards.packageMb,
  usedBytes: usedBytesOf(monthStart).mapWith(Number),
  deviceId: iotCards.deviceId,
  deviceName: devices.name,
  activatedAt: iotCards.activatedAt,
  expiresAt: iotCards.expiresAt,
  autoRenew: autoRenewOf.mapWith((v: unknown) => v === true || v === 't'),
  remark: iotCards.remark,
  createdAt: iotCards.createdAt,
});

/** One page of the enterprise's cards passing the filter, newest first, with this month's usage. */
export async function listCards(
  db: Executor,
  entId: string,
  filter: CardFilter,
  page: { page: number; size: number },
  now: Date,
): Promise<{ total: number; rows: CardRow[] }> {
  const monthStart = utc8MonthStart(now.getTime());
  const where = cardWhere(entId, filter, monthStart);
  const [rows, [{ n }]] = await Promise.all([
    db
      .select(cardColumns(monthStart))
      .from(iotCards)
      .leftJoin(devices, eq(devices.id, iotCards.deviceId))
      .where(where)
      .orderBy(desc(iotCards.createdAt), asc(iotCards.id))
      .limit(page.size)
      .offset((page.page - 1) * page.size),
    db.select({ n: count() }).from(iotCards).leftJoin(devices, eq(devices.id, iotCards.deviceId)).where(where),
  ]);
  return { total: n, rows: rows as CardRow[] };
}

/** Cards of the enterprise by id, as the list shows them. */
export async function findCards(db: Executor, entId: string, ids: readonly string[], now: Date): Promise<CardRow[]> {
  if (ids.length === 0) return [];
  const monthStart = utc8MonthStart(now.getTime());
  const rows = await db
    .select(cardColumns(monthStart))
    .from(iotCards)
    .leftJoin(devices, eq(devices.id, iotCards.deviceId))
    .where(and(eq(iotCards.entId, entId), inArray(iotCards.id, [...ids])));
  return rows as CardRow[];
}

/** The cards (any enterprise's) holding these ICCIDs (upper case). */
export async function takenIccids(db: Executor, iccids: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < iccids.length; i += 500) {
    const part = iccids.slice(i, i + 500);
    const found = await db.select({ iccid: iotCards.iccid }).from(iotCards).where(inArray(iotCards.iccid, part));
    for (const f of found) taken.add(f.iccid);
  }
  return taken;
}

/** The card bound to a device other than `exceptCardId`, if any. */
export async function cardOfDevice(db: Executor, deviceId: string, exceptCardId?: string) {
  const [row] = await db
    .select({ id: iotCards.id, iccid: iotCards.iccid })
    .from(iotCards)
    .where(
      exceptCardId
        ? and(eq(iotCards.deviceId, deviceId), ne(iotCards.id, exceptCardId))
        : eq(iotCards.deviceId, deviceId),
    )
    .limit(1);
  return row;
}

// ---- The consumption report ----

export interface UsageFilter {
  from: string;
  to: string;
  cardId?: string;
  deviceId?: string;
  keyword?: string;
}

export interface UsageRow {
  day: string;
  cardId: string;
  iccid: string | null;
  deviceId: string;
  deviceName: string;
  bytes: number;
}

/** Whether the filter narrows to cards or devices (the chart then sums flow_days, not flow_ent_days). */
export const narrowUsage = (filter: UsageFilter) => Boolean(filter.cardId || filter.deviceId || filter.keyword);

/**
 * The report's conditions on flow_days `fd` alone (the card and the device join by primary key
 * where a query shows them; a deleted device's rows keep an empty name).
 */
export function usageWhere(entId: string, filter: UsageFilter): SQL {
  const conds: SQL[] = [sql`fd.ent_id = ${entId}`, sql`fd.day between ${filter.from}::date and ${filter.to}::date`];
  if (filter.cardId) conds.push(sql`fd.card_id = ${filter.cardId}`);
  if (filter.deviceId) conds.push(sql`fd.device_id = ${filter.deviceId}`);
  if (filter.keyword) {
    const p = `%${escapeLike(filter.keyword)}%`;
    // The matching cards and devices first (few), then their rows through flow_days' card and
    // device indexes: joining every row of the range to test its names would read them all.
    conds.push(sql`(fd.card_id = any(array(select ic.id from iot_cards ic where ic.ent_id = ${entId} and ic.iccid ilike ${p}))
      or fd.device_id = any(array(select dv.id from devices dv where dv.ent_id = ${entId} and dv.name ilike ${p})))`);
  }
  return sql.join(conds, sql` and `);
}

const USAGE_FROM = sql`flow_days fd left join iot_cards c on c.id = fd.card_id and fd.card_id <> '' left join devices d on d.id = fd.device_id`;

interface RawUsageRow {
  day: string | Date;
  card_id: string;
  iccid: string | null;
  device_id: string;
  device_name: string;
  bytes: string | number;
}

const dayText = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
const toUsageRow = (r: RawUsageRow): UsageRow => ({
  day: dayText(r.day),
  cardId: r.card_id,
  iccid: r.iccid,
  deviceId: r.device_id,
  deviceName: r.device_name,
  bytes: Number(r.bytes),
});

const USAGE_COLUMNS = sql`fd.day::text as day, fd.card_id, c.iccid, fd.device_id, coalesce(d.name, '') as device_name, fd.bytes`;

/**
 * One page of the report's rows: newest day first, then the heaviest use first (what an
 * operator looks for), then device and card. flow_days_ent_day_bytes_idx serves this order,
 * so a page reads only its rows; names and ICCIDs are joined to the page's rows alone.
 */
export async function usagePage(db: Executor, where: SQL, page: { page: number; size: number }): Promise<UsageRow[]> {
  const result = (await db.execute(sql`
    select p.day, p.card_id, c.iccid, p.device_id, coalesce(d.name, '') as device_name, p.bytes from (
      select fd.day::text as day, fd.card_id, fd.device_id, fd.bytes
      from flow_days fd where ${where}
      order by fd.day desc, fd.bytes desc, fd.device_id, fd.card_id
      limit ${page.size} offset ${(page.page - 1) * page.size}) p
    left join iot_cards c on c.id = p.card_id and p.card_id <> ''
    left join devices d on d.id = p.device_id
    order by p.day desc, p.bytes desc, p.device_id, p.card_id`)) as unknown as { rows: RawUsageRow[] };
  return result.rows.map(toUsageRow);
}

/** Rows passing the filter, counted up to `cap` + 1 (a count over a LIMIT subquery). */
export async function countUsage(db: Executor, where: SQL, cap: number): Promise<number> {
  const result = (await db.execute(sql`
    select count(*)::int as n from (select 1 from flow_days fd where ${where} limit ${cap + 1}) t`)) as unknown as {
    rows: { n: number | string }[];
  };
  return Number(result.rows[0]?.n ?? 0);
}

/** Bytes per day of the range: the enterprise's totals, or the filtered rows' sums. */
export async function usageSeries(db: Executor, entId: string, filter: UsageFilter): Promise<Map<string, number>> {
  const result = narrowUsage(filter)
    ? ((await db.execute(sql`
        select fd.day::text as day, sum(fd.bytes)::text as bytes from flow_days fd
        where ${usageWhere(entId, filter)} group by fd.day`)) as unknown as { rows: { day: string; bytes: string }[] })
    : ((await db.execute(sql`
        select ${flowEntDays.day}::text as day, ${flowEntDays.bytes}::text as bytes from ${flowEntDays}
        where ${flowEntDays.entId} = ${entId} and ${flowEntDays.day} between ${filter.from}::date and ${filter.to}::date`)) as unknown as {
        rows: { day: string; bytes: string }[];
      });
  return new Map(result.rows.map((r) => [dayText(r.day), Number(r.bytes)]));
}

/**
 * One batch of one day's rows for the export, after the row `after` in the report's order
 * (heaviest first, then device, card) within the day.
 */
export async function usageDayBatch(
  db: Executor,
  where: SQL,
  day: string,
  after: { bytes: number; deviceId: string; cardId: string } | null,
  limit: number,
): Promise<UsageRow[]> {
  const keyset = after
    ? sql` and (fd.bytes < ${after.bytes} or (fd.bytes = ${after.bytes} and (fd.device_id, fd.card_id) > (${after.deviceId}, ${after.cardId})))`
    : sql``;
  const result = (await db.execute(sql`
    select ${USAGE_COLUMNS} from ${USAGE_FROM} where ${where} and fd.day = ${day}::date${keyset}
    order by fd.bytes desc, fd.device_id, fd.card_id
    limit ${limit}`)) as unknown as { rows: RawUsageRow[] };
  return result.rows.map(toUsageRow);
}

/** Rolls bytes up into flow_days and flow_ent_days (adding to what the days hold). */
export async function addUsage(
  db: Executor,
  entId: string,
  deviceId: string,
  parts: readonly { day: string; cardId: string; bytes: number }[],
): Promise<void> {
  if (parts.length === 0) return;
  // In key order, so two uploads of one device cannot deadlock on the same rows.
  const sorted = [...parts].sort((a, b) =>
    a.day === b.day ? (a.cardId < b.cardId ? -1 : a.cardId > b.cardId ? 1 : 0) : a.day < b.day ? -1 : 1,
  );
  await db
    .insert(flowDays)
    .values(sorted.map((p) => ({ entId, day: p.day, deviceId, cardId: p.cardId, bytes: p.bytes })))
    .onConflictDoUpdate({
      target: [flowDays.entId, flowDays.day, flowDays.deviceId, flowDays.cardId],
      set: { bytes: sql`${flowDays.bytes} + excluded.bytes` },
    });
  const perDay = new Map<string, number>();
  for (const p of sorted) perDay.set(p.day, (perDay.get(p.day) ?? 0) + p.bytes);
  await db
    .insert(flowEntDays)
    .values([...perDay].map(([day, bytes]) => ({ entId, day, bytes })))
    .onConflictDoUpdate({
      target: [flowEntDays.entId, flowEntDays.day],
      set: { bytes: sql`${flowEntDays.bytes} + excluded.bytes` },
    });
}
