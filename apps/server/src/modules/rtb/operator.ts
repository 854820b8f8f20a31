import { ErrorCode, type RtbAuction, type RtbBidOutcome, type RtbDsp, type rtbEndpoints } from '@marquee/protocol';
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ads, type RtbDspRow, rtbDsps } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { regionByCode, regionName } from '../geo/divisions.js';
import { slotScreens } from '../sales/inventory.js';
import { enterpriseZone } from '../timeZones/service.js';
import { rtbSlotsOf } from './slots.js';
import { RtbText } from './texts.js';

/**
 * The operator's side of programmatic airtime (issue 29): external DSPs, the auction log, the
 * fill-rate report, and the pickers (fallback ads; the screens campaigns may target). All of
 * the caller's enterprise.
 */

type Req<K extends keyof typeof rtbEndpoints> = z.infer<(typeof rtbEndpoints)[K]['request']>;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

function presentDsp(row: RtbDspRow, s?: Record<string, number>): RtbDsp {
  return {
    id: row.id,
    name: row.name,
    endpoint: row.endpoint,
    seat: row.seat,
    timeoutMs: row.timeoutMs,
    enabled: row.enabled,
    requests24h: s?.requests ?? 0,
    bids24h: s?.bids ?? 0,
    timeouts24h: s?.timeouts ?? 0,
    invalid24h: s?.invalid ?? 0,
    wins24h: s?.wins ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listDsps(ctx: CallContext) {
  const rows = await ctx.db
    .select()
    .from(rtbDsps)
    .where(and(eq(rtbDsps.entId, ctx.user.entId), isNull(rtbDsps.deletedAt)))
    .orderBy(asc(rtbDsps.createdAt), asc(rtbDsps.id));
  const since = new Date(ctx.now.getTime() - 24 * 3_600_000).toISOString();
  const stats = rowsOf<{
    dsp_id: string;
    requests: number;
    bids: number;
    timeouts: number;
    invalid: number;
    wins: number;
  }>(
    await ctx.db.execute(sql`
      select h.dsp_id, sum(h.requests)::int as requests, sum(h.bids)::int as bids, sum(h.timeouts)::int as timeouts,
             sum(h.invalid)::int as invalid, sum(h.wins)::int as wins
        from rtb_dsp_hours h join rtb_dsps d on d.id = h.dsp_id
       where d.ent_id = ${ctx.user.entId} and h.hour >= ${since}::timestamptz
       group by h.dsp_id`),
  );
  const byId = new Map(stats.map((s) => [s.dsp_id, s as unknown as Record<string, number>]));
  return { data: rows.map((r) => presentDsp(r, byId.get(r.id))) };
}

async function requireDsp(ctx: CallContext, id: string): Promise<RtbDspRow> {
  const [row] = await ctx.db
    .select()
    .from(rtbDsps)
    .where(and(eq(rtbDsps.id, id), eq(rtbDsps.entId, ctx.user.entId), isNull(rtbDsps.deletedAt)))
    .for('update');
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, RtbText.dspNotFound);
  return row;
}

export async function saveDsp(input: Req<'rtbDspSave'>, ctx: CallContext): Promise<RtbDsp> {
  const fields = {
    name: input.name,
    endpoint: input.endpoint,
    seat: input.seat,
    timeoutMs: input.timeoutMs,
    enabled: input.enabled,
    updatedAt: ctx.now,
  };
  let row: RtbDspRow;
  if (input.id) {
    await requireDsp(ctx, input.id);
    [row] = await ctx.db.update(rtbDsps).set(fields).where(eq(rtbDsps.id, input.id)).returning();
  } else {
    [row] = await ctx.db
      .insert(rtbDsps)
      .values({ ...fields, entId: ctx.user.entId, createdAt: ctx.now })
      .returning();
  }
  await ctx.audit({
    module: 'rtb',
    action: input.id ? 'update' : 'add',
    targetType: 'rtbDsp',
    targetId: row.id,
    targetName: row.name,
    detail: { endpoint: row.endpoint, timeoutMs: row.timeoutMs, enabled: row.enabled },
  });
  return presentDsp(row);
}

export async function deleteDsp(input: { id: string }, ctx: CallContext) {
  const row = await requireDsp(ctx, input.id);
  await ctx.db
    .update(rtbDsps)
    .set({ deletedAt: ctx.now, enabled: false, updatedAt: ctx.now })
    .where(eq(rtbDsps.id, row.id));
  await ctx.audit({ module: 'rtb', action: 'delete', targetType: 'rtbDsp', targetId: row.id, targetName: row.name });
  return null;
}

interface AuctionRow {
  id: string;
  slot_id: string;
  slot_name: string;
  device_id: string;
  device_name: string | null;
  turn_at: string;
  duration_sec: number;
  decided_at: string;
  floor_cpm: string | number;
  qty_milli: number;
  qty_source: 'audience' | 'multiplier';
  bidders: number;
  bids: number;
  timeouts: number;
  state: RtbAuction['state'];
  winner_kind: RtbAuction['winnerKind'];
  winner_name: string | null;
  ad_id: string | null;
  clearing_cpm: string | number | null;
  price: string | number | null;
  billed_at: string | null;
  bid_log?: unknown;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

function presentAuction(r: AuctionRow): RtbAuction {
  return {
    id: r.id,
    slotId: r.slot_id,
    slotName: r.slot_name,
    deviceId: r.device_id,
    deviceName: r.device_name ?? '',
    turnAt: iso(r.turn_at) as string,
    durationSec: Number(r.duration_sec),
    decidedAt: iso(r.decided_at) as string,
    floorCpm: Number(r.floor_cpm),
    qty: Number(r.qty_milli) / 1000,
    qtySource: r.qty_source,
    bidders: Number(r.bidders),
    bids: Number(r.bids),
    timeouts: Number(r.timeouts),
    state: r.state,
    winnerKind: r.winner_kind,
    winnerName: r.winner_name,
    adId: r.ad_id,
    clearingCpm: r.clearing_cpm === null ? null : Number(r.clearing_cpm),
    price: r.price === null ? null : Number(r.price),
    billedAt: iso(r.billed_at),
  };
}

const auctionSelect = sql`
  select a.id, a.slot_id, s.name as slot_name, a.device_id, d.name as device_name,
         a.turn_at, a.duration_sec, a.decided_at, a.floor_cpm, a.qty_milli, a.qty_source, a.bidders, a.bids,
         a.timeouts, a.state, a.winner_kind,
         case when a.winner_kind = 'campaign' then c.name when a.winner_kind = 'dsp' then p.name end as winner_name,
         a.ad_id, a.clearing_cpm, a.price, a.billed_at`;
const auctionFrom = sql`
  from rtb_auctions a
  join ad_slots s on s.id = a.slot_id
  left join devices d on d.id = a.device_id
  left join rtb_campaigns c on c.id = a.campaign_id
  left join rtb_dsps p on p.id = a.dsp_id`;

export async function listAuctions(input: Req<'rtbAuctionList'>, ctx: CallContext) {
  const conds: SQL[] = [sql`a.ent_id = ${ctx.user.entId}`];
  if (input.slotId) conds.push(sql`a.slot_id = ${input.slotId}`);
  if (input.deviceId) conds.push(sql`a.device_id = ${input.deviceId}`);
  if (input.state) conds.push(sql`a.state = ${input.state}`);
  if (input.winnerKind) conds.push(sql`a.winner_kind = ${input.winnerKind}`);
  if (input.from) conds.push(sql`a.turn_at >= ${input.from}::timestamptz`);
  if (input.to) conds.push(sql`a.turn_at < ${input.to}::timestamptz`);
  const where = sql.join(conds, sql` and `);
  const [rows, count] = await Promise.all([
    ctx.db.execute(sql`${auctionSelect} ${auctionFrom} where ${where}
      order by a.turn_at desc, a.id desc limit ${input.pageSize} offset ${(input.page - 1) * input.pageSize}`),
    ctx.db.execute(sql`select count(*)::int as n from rtb_auctions a where ${where}`),
  ]);
  return {
    total: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0),
    data: rowsOf<AuctionRow>(rows).map(presentAuction),
  };
}

export async function auctionInfo(input: { id: string }, ctx: CallContext) {
  const [row] = rowsOf<AuctionRow>(
    await ctx.db.execute(sql`${auctionSelect}, a.bid_log ${auctionFrom}
      where a.id = ${input.id} and a.ent_id = ${ctx.user.entId}`),
  );
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, RtbText.auctionNotFound);
  const log = (row.bid_log ?? []) as {
    kind: 'campaign' | 'dsp';
    bidderId: string;
    bidder: string;
    cpm: number | null;
    outcome: string;
    ms: number | null;
    note: string | null;
  }[];
  return {
    auction: presentAuction(row),
    bids: log.map((b) => ({
      kind: b.kind,
      bidder: b.bidder,
      bidderId: b.bidderId,
      cpm: b.cpm,
      outcome: b.outcome as RtbBidOutcome,
      ms: b.ms,
      note: b.note,
    })),
  };
}

export async function fillReport(input: Req<'rtbFillReport'>, ctx: CallContext) {
  // Hours of day are the enterprise's wall clock (issue 31).
  const timeZone = await enterpriseZone(ctx.db, ctx.user.entId, ctx.services.config.defaultTimeZone);
  // A literal, not a parameter: the grouped expression and the name built on it must be the same
  // text for PostgreSQL (the zone is an IANA name the enterprise's update validated; quoted anyway).
  const zone = sql.raw(`'${timeZone.replaceAll("'", "''")}'`);
  const conds: SQL[] = [sql`a.ent_id = ${ctx.user.entId}`];
  if (input.from) conds.push(sql`a.turn_at >= ${input.from}::timestamptz`);
  if (input.to) conds.push(sql`a.turn_at < ${input.to}::timestamptz`);
  const where = sql.join(conds, sql` and `);
  const key =
    input.by === 'slot'
      ? sql`a.slot_id`
      : input.by === 'device'
        ? sql`a.device_id`
        : sql`extract(hour from a.turn_at at time zone ${zone})::int::text`;
  const name =
    input.by === 'slot'
      ? sql`max(s.name)`
      : input.by === 'device'
        ? sql`coalesce(max(d.name), '')`
        : sql`lpad(extract(hour from a.turn_at at time zone ${zone})::int::text, 2, '0') || ':00'`;
  const figures = sql`
    count(*)::int as auctions, coalesce(sum(a.bids), 0)::int as bids,
    count(*) filter (where a.winner_kind is not null)::int as wins,
    count(*) filter (where a.state = 'billed')::int as billed,
    (avg(a.clearing_cpm) filter (where a.winner_kind is not null))::float8 as avg_cpm,
    coalesce(sum(a.price) filter (where a.state = 'billed'), 0)::bigint as revenue`;
  const [rows, totals] = await Promise.all([
    ctx.db.execute(sql`select ${key} as key, ${name} as name, ${figures}
      from rtb_auctions a join ad_slots s on s.id = a.slot_id left join devices d on d.id = a.device_id
      where ${where} group by ${key} order by 1`),
    ctx.db.execute(sql`select ${figures} from rtb_auctions a where ${where}`),
  ]);
  type FillRow = {
    key?: string;
    name?: string;
    auctions: number;
    bids: number;
    wins: number;
    billed: number;
    avg_cpm: number | null;
    revenue: string | number;
  };
  const present = (r: FillRow, key: string, nameOf: string) => ({
    key,
    name: nameOf,
    auctions: Number(r.auctions),
    bids: Number(r.bids),
    wins: Number(r.wins),
    billed: Number(r.billed),
    fillRate: Number(r.auctions) > 0 ? Number(r.wins) / Number(r.auctions) : 0,
    avgClearingCpm: r.avg_cpm === null ? null : Math.round(Number(r.avg_cpm)),
    revenue: Number(r.revenue),
  });
  const t = rowsOf<FillRow>(totals)[0];
  return {
    timeZone,
    rows: rowsOf<FillRow>(rows).map((r) => present(r, String(r.key), String(r.name ?? ''))),
    totals: present(t ?? { auctions: 0, bids: 0, wins: 0, billed: 0, avg_cpm: null, revenue: 0 }, 'total', ''),
  };
}

/** Approved fallback ads of the enterprise, for the RTB dialog. */
export async function fallbackOptions(ctx: CallContext) {
  const rows = await ctx.db
    .select({ id: ads.id, name: ads.name, layout: sql<boolean>`${ads.layoutId} is not null` })
    .from(ads)
    .where(
      and(
        eq(ads.entId, ctx.user.entId),
        eq(ads.type, 'fallback'),
        eq(ads.reviewState, 'passed'),
        isNull(ads.deletedAt),
        sql`${ads.endAt} > ${ctx.now.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(ads.name));
  return { data: rows };
}

/** The screens of the enterprise's RTB slots with their groups, tags and regions; the slots' floor range. */
export async function targetOptions(ctx: CallContext) {
  const slots = await rtbSlotsOf(ctx.db, ctx.user.entId);
  const ids = new Set<string>();
  for (const slot of slots) for (const s of await slotScreens(ctx.db, slot, ctx.now)) if (!s.longOffline) ids.add(s.id);
  const floors = slots.map((s) => s.rtbFloor ?? 0);
  const list = [...ids];
  const rows =
    list.length === 0
      ? []
      : rowsOf<{
          id: string;
          name: string;
          group_id: string | null;
          group_name: string | null;
          province_code: string | null;
          city_code: string | null;
          district_code: string | null;
        }>(
          await ctx.db.execute(sql`
            select d.id, d.name, d.group_id, g.name as group_name, d.province_code, d.city_code, d.district_code
              from devices d left join device_groups g on g.id = d.group_id
             where d.ent_id = ${ctx.user.entId} and d.id in (select jsonb_array_elements_text(${JSON.stringify(list)}::jsonb))
             order by d.name, d.id`),
        );
  const tagRows =
    list.length === 0
      ? []
      : rowsOf<{ id: string; name: string }>(
          await ctx.db.execute(sql`
            select distinct t.id, t.name from device_tags dt join tags t on t.id = dt.tag_id
             where dt.device_id in (select jsonb_array_elements_text(${JSON.stringify(list)}::jsonb))
             order by t.name, t.id`),
        );
  const groups = new Map<string, string>();
  const regions = new Map<string, string>();
  const devices = rows.map((r) => {
    if (r.group_id) groups.set(r.group_id, r.group_name ?? '');
    const codes = [r.province_code, r.city_code, r.district_code].filter((c): c is string => !!c);
    for (const code of codes) if (!regions.has(code)) regions.set(code, regionName(regionByCode(code)) || code);
    return { id: r.id, name: r.name, regionCodes: codes };
  });
  return {
    devices,
    groups: [...groups].map(([id, name]) => ({ id, name })),
    tags: tagRows,
    regions: [...regions].map(([code, name]) => ({ code, name })).sort((a, b) => a.code.localeCompare(b.code)),
    minFloorCpm: floors.length > 0 ? Math.min(...floors) : null,
    maxFloorCpm: floors.length > 0 ? Math.max(...floors) : null,
  };
}
