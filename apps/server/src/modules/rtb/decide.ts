import { randomUUID } from 'node:crypto';
import {
  nextDay,
  RTB_HORIZON_SEC,
  RTB_LEAD_SEC,
  rtbCadence,
  rtbDay,
  rtbTurnsBetween,
  zonedDayStart,
} from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { AdSlotRow } from '../../db/schema/index.js';
import { effectiveStatus } from '../devices/repository.js';
import { slotScreens } from '../sales/inventory.js';
import { salesSettingsOf } from '../sales/settings.js';
import {
  type Decision,
  type DspNonBid,
  decideTurn,
  type ExternalBid,
  type LiveCampaign,
  type ScreenFacts,
  type Turn,
} from './auction.js';
import { answerFor, askDsp, type DspAnswer, type DspTarget, mapLimit, queueNotices } from './dspClient.js';
import { buildBidRequest, expandMacros, MAX_IMPS_PER_REQUEST } from './openrtb.js';
import { rtbSlotsOf, slotFallsOn } from './slots.js';

/**
 * Deciding turns ahead (issue 29; docs/ARCHITECTURE.md "Programmatic airtime"). The
 * `rtb-decide` job runs every minute: for each enterprise with RTB slots, the turns that fall
 * on its online screens between now + RTB_LEAD_SEC and now + RTB_HORIZON_SEC and are not
 * decided yet are auctioned (external DSPs asked first, outside any transaction, each cut at
 * its tmax), then decided in one transaction that holds the enterprise's advisory lock and the
 * campaigns' rows, and written to rtb_auctions; the manifest (manifest.ts) carries the
 * decisions to the screens. Time is an input.
 */

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const jsonIds = (ids: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

export interface DecideOptions {
  horizonSec?: number;
  leadSec?: number;
  /** DSP requests in flight at once. */
  dspConcurrency?: number;
}

export interface DecideSummary {
  turns: number;
  won: number;
  noBid: number;
  dspRequests: number;
}

/** Every enterprise with RTB slots. */
export async function decideAll(db: Executor, now: Date, opts: DecideOptions = {}): Promise<DecideSummary> {
  const ents = rowsOf<{ ent_id: string }>(
    await db.execute(sql`
      select distinct ent_id from ad_slots
      where rtb_enabled and deleted_at is null and (layout_id is null or region_id is not null)`),
  );
  const total: DecideSummary = { turns: 0, won: 0, noBid: 0, dspRequests: 0 };
  for (const { ent_id } of ents) {
    const s = await decideEnterprise(db, ent_id, now, opts);
    total.turns += s.turns;
    total.won += s.won;
    total.noBid += s.noBid;
    total.dspRequests += s.dspRequests;
  }
  return total;
}

/** The screens' targeting facts and whether each is online now. */
async function screenFacts(
  db: Executor,
  entId: string,
  ids: readonly string[],
  now: Date,
): Promise<Map<string, ScreenFacts & { online: boolean; layoutId: string | null }>> {
  const out = new Map<string, ScreenFacts & { online: boolean; layoutId: string | null }>();
  if (ids.length === 0) return out;
  const rows = rowsOf<{
    id: string;
    name: string;
    status: string;
    heartbeat_sec: number;
    seen_ms: number | string | null;
    status_ms: number | string;
    group_id: string | null;
    province_code: string | null;
    city_code: string | null;
    district_code: string | null;
    latitude: number | null;
    longitude: number | null;
    tag_ids: string[] | null;
    layout_id: string | null;
  }>(
    await db.execute(sql`
      select d.id, d.name, d.status, d.heartbeat_sec, d.layout_id,
             (extract(epoch from d.last_seen_at) * 1000)::float8 as seen_ms,
             (extract(epoch from d.status_at) * 1000)::float8 as status_ms,
             d.group_id, d.province_code, d.city_code, d.district_code, d.latitude, d.longitude,
             (select array_agg(t.tag_id) from device_tags t where t.device_id = d.id) as tag_ids
        from devices d
       where d.ent_id = ${entId} and d.id in ${jsonIds(ids)}`),
  );
  for (const r of rows) {
    const status = effectiveStatus(
      {
        status: r.status as Parameters<typeof effectiveStatus>[0]['status'],
        lastSeenAt: r.seen_ms === null ? null : new Date(Number(r.seen_ms)),
        statusAt: new Date(Number(r.status_ms)),
        heartbeatSec: Number(r.heartbeat_sec),
      },
      now.getTime(),
    );
    out.set(r.id, {
      id: r.id,
      name: r.name,
      groupId: r.group_id,
      tagIds: new Set(r.tag_ids ?? []),
      regionCodes: [r.province_code, r.city_code, r.district_code].filter((c): c is string => !!c),
      lat: r.latitude === null ? null : Number(r.latitude),
      lng: r.longitude === null ? null : Number(r.longitude),
      online: status === 'online',
      layoutId: r.layout_id,
    });
  }
  return out;
}

/**
 * Impressions per play of each screen, in thousandths: where gather has audience for the
 * screen over the last 7 days, the audience counted per play played then (at least 1);
 * elsewhere the sales settings' multiplier.
 */
async function impressionsPerPlay(
  db: Executor,
  entId: string,
  ids: readonly string[],
  now: Date,
): Promise<{ qty: Map<string, number>; multiplierMilli: number }> {
  const settings = await salesSettingsOf(db, entId);
  const multiplierMilli = Math.max(1, settings.impressionsPerPlayPct * 10);
  const qty = new Map<string, number>();
  if (ids.length === 0) return { qty, multiplierMilli };
  const since = new Date(now.getTime() - 7 * 86_400_000);
  const rows = rowsOf<{ device_id: string; audience: string | number; plays: string | number }>(
    await db.execute(sql`
      with a as (
        select device_id, sum(count)::bigint as audience from device_audience_hourly
         where ent_id = ${entId} and hour >= ${since.toISOString()}::timestamptz and device_id in ${jsonIds(ids)}
         group by device_id),
      p as (
        select device_id, sum(plays)::bigint as plays from play_rollups_daily
         where ent_id = ${entId} and day >= ${since.toISOString().slice(0, 10)}::date and device_id in (select device_id from a)
         group by device_id)
      select a.device_id, a.audience, coalesce(p.plays, 0) as plays from a left join p using (device_id)`),
  );
  for (const r of rows) {
    const audience = Number(r.audience);
    const plays = Number(r.plays);
    if (audience > 0 && plays > 0) qty.set(r.device_id, Math.max(1000, Math.round((audience * 1000) / plays)));
  }
  return { qty, multiplierMilli };
}

interface PendingTurn extends Turn {
  id: string;
  qtySource: 'audience' | 'multiplier';
  slot: AdSlotRow;
}

const turnKey = (slotId: string, deviceId: string, at: number) => `${slotId}|${deviceId}|${at}`;

async function decidedKeys(db: Executor, entId: string, from: Date, to: Date): Promise<Set<string>> {
  const rows = rowsOf<{ slot_id: string; device_id: string; at: number | string }>(
    await db.execute(sql`
      select slot_id, device_id, (extract(epoch from turn_at) * 1000)::float8 as at
        from rtb_auctions
       where ent_id = ${entId} and turn_at >= ${from.toISOString()}::timestamptz and turn_at < ${to.toISOString()}::timestamptz`),
  );
  return new Set(rows.map((r) => turnKey(r.slot_id, r.device_id, Math.round(Number(r.at)))));
}

/** Decides the pending turns of one enterprise (see the module comment). */
export async function decideEnterprise(
  db: Executor,
  entId: string,
  now: Date,
  opts: DecideOptions = {},
): Promise<DecideSummary> {
  const from = new Date(now.getTime() + (opts.leadSec ?? RTB_LEAD_SEC) * 1000);
  const to = new Date(now.getTime() + (opts.horizonSec ?? RTB_HORIZON_SEC) * 1000);
  const slots = await rtbSlotsOf(db, entId);
  const summary: DecideSummary = { turns: 0, won: 0, noBid: 0, dspRequests: 0 };
  if (slots.length === 0) return summary;
  const members = new Map<string, string[]>();
  for (const slot of slots) {
    members.set(
      slot.id,
      (await slotScreens(db, slot, now)).filter((s) => !s.longOffline).map((s) => s.id),
    );
  }
  const facts = await screenFacts(db, entId, [...new Set([...members.values()].flat())], now);
  const already = await decidedKeys(db, entId, from, to);
  const { qty, multiplierMilli } = await impressionsPerPlay(
    db,
    entId,
    [...facts.values()].filter((f) => f.online).map((f) => f.id),
    now,
  );
  const turns: PendingTurn[] = [];
  for (const slot of slots) {
    const cadence = rtbCadence(slot);
    for (const deviceId of members.get(slot.id) ?? []) {
      const screen = facts.get(deviceId);
      if (!screen?.online || !slotFallsOn(slot, screen.layoutId)) continue;
      for (const at of rtbTurnsBetween(cadence, from.getTime(), to.getTime())) {
        if (already.has(turnKey(slot.id, deviceId, at))) continue;
        const q = qty.get(deviceId);
        turns.push({
          id: randomUUID(),
          slot,
          slotId: slot.id,
          deviceId,
          screen,
          turnAt: at,
          durationSec: slot.durationSec,
          floorCpm: slot.rtbFloor ?? 0,
          region: slot.layoutId !== null,
          qtyMilli: q ?? multiplierMilli,
          qtySource: q ? 'audience' : 'multiplier',
        });
      }
    }
  }
  if (turns.length === 0) return summary;
  turns.sort((a, b) => a.turnAt - b.turnAt || (a.deviceId < b.deviceId ? -1 : 1) || (a.slotId < b.slotId ? -1 : 1));

  // External DSPs first, outside any transaction: each request cut at its tmax.
  const dsps = rowsOf<{ id: string; name: string; endpoint: string; seat: string; timeout_ms: number }>(
    await db.execute(sql`
      select id, name, endpoint, seat, timeout_ms from rtb_dsps
      where ent_id = ${entId} and enabled and deleted_at is null order by id`),
  ).map(
    (d): DspTarget => ({ id: d.id, name: d.name, endpoint: d.endpoint, seat: d.seat, timeoutMs: Number(d.timeout_ms) }),
  );
  const answers = new Map<string, DspAnswer[]>();
  /** Each turn's bid request id (the `${AUCTION_ID}` of its notices; its own id is `${AUCTION_IMP_ID}`). */
  const requestOf = new Map<string, string>();
  if (dsps.length > 0) {
    const [ent] = rowsOf<{ name: string }>(await db.execute(sql`select name from enterprises where id = ${entId}`));
    // One request per screen (and venue type) with an impression per turn, in chunks: a DSP
    // is asked once per screen and run, not once per turn (the bench's DSP throughput).
    const groups = new Map<string, PendingTurn[]>();
    for (const t of turns) {
      const key = `${t.deviceId}|${t.slot.venueType}`;
      const group = groups.get(key) ?? [];
      group.push(t);
      groups.set(key, group);
    }
    const requests: PendingTurn[][] = [];
    for (const group of groups.values()) {
      for (let i = 0; i < group.length; i += MAX_IMPS_PER_REQUEST)
        requests.push(group.slice(i, i + MAX_IMPS_PER_REQUEST));
    }
    const asks = requests.flatMap((group) => {
      const requestId = randomUUID();
      for (const t of group) requestOf.set(t.id, requestId);
      return dsps.map((dsp) => ({ group, requestId, dsp }));
    });
    summary.dspRequests = asks.length;
    const got = await mapLimit(asks, opts.dspConcurrency ?? 64, ({ group, requestId, dsp }) =>
      askDsp(
        dsp,
        buildBidRequest({
          requestId,
          device: {
            id: group[0].deviceId,
            name: group[0].screen.name,
            lat: group[0].screen.lat,
            lng: group[0].screen.lng,
          },
          publisher: { id: entId, name: ent?.name ?? '' },
          imps: group.map((t) => ({
            auctionId: t.id,
            slot: t.slot,
            turnAt: t.turnAt,
            floorCpm: t.floorCpm,
            qtyMilli: t.qtyMilli,
            qtySource: t.qtySource,
          })),
          tmaxMs: dsp.timeoutMs,
          seat: dsp.seat,
          now: now.getTime(),
        }),
      ),
    );
    asks.forEach(({ group }, i) => {
      for (const t of group) {
        const list = answers.get(t.id) ?? [];
        list.push(answerFor(got[i], t.id));
        answers.set(t.id, list);
      }
    });
  }
  const dspName = new Map(dsps.map((d) => [d.id, d.name]));
  // Campaigns' dates, hours and weekdays are the selling enterprise's wall clock.
  const [entZone] = rowsOf<{ time_zone: string }>(
    await db.execute(sql`select time_zone from enterprises where id = ${entId}`),
  );
  const zone = entZone?.time_zone ?? 'UTC';

  const decisions = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`rtb:${entId}`}))`);
    const decided = await decidedKeys(tx as unknown as Executor, entId, from, to);
    const open = turns.filter((t) => !decided.has(turnKey(t.slotId, t.deviceId, t.turnAt)));
    if (open.length === 0) return [] as Decision[];
    const creatives = await creativeAds(tx as unknown as Executor, entId, answers);
    const campaigns = await lockLiveCampaigns(
      tx as unknown as Executor,
      entId,
      zone,
      open[0].turnAt,
      open.at(-1)?.turnAt ?? 0,
    );
    const out: Decision[] = [];
    for (const t of open) {
      const external: ExternalBid[] = [];
      const nonBids: DspNonBid[] = [];
      for (const a of answers.get(t.id) ?? []) {
        const name = dspName.get(a.dspId) ?? '';
        if (a.outcome !== 'bids') {
          nonBids.push({ dspId: a.dspId, dspName: name, outcome: a.outcome, ms: a.ms, note: a.note });
          continue;
        }
        for (const b of a.bids) {
          const creative = creatives.get(`${a.dspId}|${b.crid}`);
          external.push({
            dspId: a.dspId,
            dspName: name,
            bidId: b.bidId,
            cpm: b.cpm,
            adId: creative?.state === 'passed' ? creative.adId : null,
            outcome:
              creative?.state === 'passed'
                ? 'eligible'
                : creative?.state === 'failed'
                  ? 'creativeRefused'
                  : 'creativePending',
            ms: a.ms,
            seat: b.seat,
            nurl: b.nurl,
            burl: b.burl,
            lurl: b.lurl,
          });
        }
      }
      out.push(decideTurn(t, campaigns, external, nonBids));
    }
    await writeDecisions(tx as unknown as Executor, entId, open, out, now, requestOf);
    await writeCampaigns(tx as unknown as Executor, campaigns);
    await writeDspHours(tx as unknown as Executor, answers, out, now);
    return out;
  });
  summary.turns = decisions.length;
  summary.won = decisions.filter((d) => d.winnerKind !== null).length;
  summary.noBid = summary.turns - summary.won;
  // Win and loss notices once the decisions are committed (queued, sent in the background).
  const notices: string[] = [];
  for (const d of decisions) {
    const impId = (d.turn as PendingTurn).id;
    const requestId = requestOf.get(impId) ?? impId;
    if (d.win?.nurl) {
      notices.push(
        expandMacros(d.win.nurl, {
          requestId,
          impId,
          bidId: d.win.bidId,
          seat: d.win.seat,
          price: d.clearingCpm ?? 0,
        }),
      );
    }
    for (const l of d.losses) {
      if (l.bid.lurl)
        notices.push(
          expandMacros(l.bid.lurl, { requestId, impId, bidId: l.bid.bidId, seat: l.bid.seat, loss: l.loss }),
        );
    }
  }
  queueNotices(notices);
  return summary;
}

/**
 * The creatives the DSPs bid with: the review state of each one's ad; a creative seen for the
 * first time is recorded (state fetching: creatives.ts fetches it into the library and makes
 * its ad for review) and cannot win until that ad passes.
 */
async function creativeAds(
  db: Executor,
  entId: string,
  answers: Map<string, DspAnswer[]>,
): Promise<Map<string, { state: 'passed' | 'failed' | 'pending'; adId: string | null }>> {
  const seen = new Map<string, { dspId: string; crid: string; url: string }>();
  for (const list of answers.values()) {
    for (const a of list)
      for (const b of a.bids) seen.set(`${a.dspId}|${b.crid}`, { dspId: a.dspId, crid: b.crid, url: b.mediaUrl });
  }
  const out = new Map<string, { state: 'passed' | 'failed' | 'pending'; adId: string | null }>();
  if (seen.size === 0) return out;
  const wanted = JSON.stringify([...seen.values()].map((s) => ({ dsp_id: s.dspId, crid: s.crid, url: s.url })));
  await db.execute(sql`
    insert into rtb_creatives (id, ent_id, dsp_id, crid, url)
    select gen_random_uuid()::text, ${entId}, w.dsp_id, w.crid, w.url
      from jsonb_to_recordset(${wanted}::jsonb) as w(dsp_id text, crid text, url text)
    on conflict (dsp_id, crid) do nothing`);
  const rows = rowsOf<{
    dsp_id: string;
    crid: string;
    ad_id: string | null;
    review_state: string | null;
    deleted: boolean | null;
    state: string;
  }>(
    await db.execute(sql`
      select c.dsp_id, c.crid, c.ad_id, c.state, a.review_state, a.deleted_at is not null as deleted
        from rtb_creatives c left join ads a on a.id = c.ad_id
       where (c.dsp_id, c.crid) in (select w.dsp_id, w.crid from jsonb_to_recordset(${wanted}::jsonb) as w(dsp_id text, crid text))`),
  );
  for (const r of rows) {
    const state =
      r.ad_id && !r.deleted && r.review_state === 'passed'
        ? 'passed'
        : r.state === 'error' || r.review_state === 'failed' || r.deleted
          ? 'failed'
          : 'pending';
    out.set(`${r.dsp_id}|${r.crid}`, { state, adId: r.ad_id });
  }
  return out;
}

/** The enterprise's campaigns that may bid between two turns, locked (their budgets move in this transaction). */
async function lockLiveCampaigns(
  db: Executor,
  entId: string,
  zone: string,
  first: number,
  last: number,
): Promise<LiveCampaign[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select c.*, a.layout_id is not null as layout_ad, ${zone}::text as zone
        from rtb_campaigns c join ads a on a.id = c.ad_id
       where c.ent_id = ${entId} and c.state = 'active'
         and c.start_date <= ${rtbDay(last, zone)}::date and c.end_date >= ${rtbDay(first, zone)}::date
         and a.review_state = 'passed' and a.deleted_at is null and not a.paused
         and c.spent + c.reserved < c.total_budget
       order by c.id
       for update of c`),
  );
  return rows.map(liveCampaignOf);
}

/**
 * A campaign's row (rtb_campaigns, as SQL answers it, with `zone`: its enterprise's time zone,
 * UTC when absent) as the auction sees it; the bench reads campaigns the same way. Its dates,
 * hours and weekdays are that zone's.
 */
export function liveCampaignOf(r: Record<string, unknown>): LiveCampaign {
  const targets = r.targets as {
    deviceIds?: string[];
    groupIds?: string[];
    tagIds?: string[];
    regionCodes?: string[];
  };
  const zone = typeof r.zone === 'string' && r.zone ? r.zone : 'UTC';
  const startAt = zonedDayStart(String(r.start_date).slice(0, 10), zone);
  const endAt = zonedDayStart(nextDay(String(r.end_date).slice(0, 10)), zone);
  return {
    id: String(r.id),
    name: String(r.name),
    adId: String(r.ad_id),
    layoutAd: r.layout_ad === true,
    bidCpm: Number(r.bid_cpm),
    pacing: r.pacing as LiveCampaign['pacing'],
    totalBudget: Number(r.total_budget),
    dailyBudget: r.daily_budget === null ? null : Number(r.daily_budget),
    committed: Number(r.spent) + Number(r.reserved),
    dayKey: String(r.day_key),
    committedToday: Number(r.day_committed),
    startAt,
    endAt,
    zone,
    hoursMask: Number(r.hours_mask),
    weekdaysMask: Number(r.weekdays_mask),
    targets: {
      deviceIds: new Set(targets.deviceIds ?? []),
      groupIds: new Set(targets.groupIds ?? []),
      tagIds: new Set(targets.tagIds ?? []),
      regionCodes: new Set(targets.regionCodes ?? []),
    },
    wonNow: 0,
  };
}

async function writeDecisions(
  db: Executor,
  entId: string,
  turns: readonly PendingTurn[],
  decisions: readonly Decision[],
  now: Date,
  requestOf: ReadonlyMap<string, string>,
) {
  const rows = decisions.map((d, i) => {
    const t = turns[i];
    return {
      id: t.id,
      slot_id: t.slotId,
      device_id: t.deviceId,
      turn_at: new Date(t.turnAt).toISOString(),
      duration_sec: t.durationSec,
      floor_cpm: t.floorCpm,
      qty_milli: t.qtyMilli,
      qty_source: t.qtySource,
      bidders: d.bidders,
      bids: d.bids,
      timeouts: d.timeouts,
      state: d.winnerKind ? 'won' : 'noBid',
      winner_kind: d.winnerKind,
      campaign_id: d.campaignId,
      dsp_id: d.dspId,
      ad_id: d.adId,
      clearing_cpm: d.clearingCpm,
      price: d.price,
      billing_url: d.win?.burl
        ? expandMacros(d.win.burl, {
            requestId: requestOf.get(t.id) ?? t.id,
            impId: t.id,
            bidId: d.win.bidId,
            seat: d.win.seat,
            price: d.clearingCpm ?? 0,
          })
        : null,
      bid_log: d.log,
    };
  });
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = JSON.stringify(rows.slice(i, i + 500));
    await db.execute(sql`
      insert into rtb_auctions (id, ent_id, slot_id, device_id, turn_at, duration_sec, decided_at, floor_cpm, qty_milli,
                                qty_source, bidders, bids, timeouts, state, winner_kind, campaign_id, dsp_id, ad_id,
                                clearing_cpm, price, billing_url, bid_log)
      select r.id, ${entId}, r.slot_id, r.device_id, r.turn_at, r.duration_sec, ${now.toISOString()}::timestamptz,
             r.floor_cpm, r.qty_milli, r.qty_source, r.bidders, r.bids, r.timeouts, r.state, r.winner_kind,
             r.campaign_id, r.dsp_id, r.ad_id, r.clearing_cpm, r.price, r.billing_url, r.bid_log
        from jsonb_to_recordset(${chunk}::jsonb) as r(id text, slot_id text, device_id text, turn_at timestamptz,
             duration_sec int, floor_cpm bigint, qty_milli int, qty_source text, bidders int, bids int, timeouts int,
             state text, winner_kind text, campaign_id text, dsp_id text, ad_id text, clearing_cpm bigint, price bigint,
             billing_url text, bid_log jsonb)`);
  }
}

async function writeCampaigns(db: Executor, campaigns: readonly LiveCampaign[]) {
  const moved = campaigns.filter((c) => c.wonNow > 0);
  if (moved.length === 0) return;
  const rows = JSON.stringify(
    moved.map((c) => ({ id: c.id, won: c.wonNow, day_key: c.dayKey, day_committed: c.committedToday })),
  );
  await db.execute(sql`
    update rtb_campaigns c set reserved = c.reserved + r.won, day_key = r.day_key, day_committed = r.day_committed
      from jsonb_to_recordset(${rows}::jsonb) as r(id text, won bigint, day_key text, day_committed bigint)
     where c.id = r.id`);
}

async function writeDspHours(
  db: Executor,
  answers: Map<string, DspAnswer[]>,
  decisions: readonly Decision[],
  now: Date,
) {
  const stats = new Map<string, { requests: number; bids: number; timeouts: number; invalid: number; wins: number }>();
  const of = (id: string) => {
    let s = stats.get(id);
    if (!s) {
      s = { requests: 0, bids: 0, timeouts: 0, invalid: 0, wins: 0 };
      stats.set(id, s);
    }
    return s;
  };
  for (const list of answers.values()) {
    for (const a of list) {
      const s = of(a.dspId);
      s.requests++;
      if (a.outcome === 'bids') s.bids += a.bids.length;
      if (a.outcome === 'timeout') s.timeouts++;
      if (a.outcome === 'invalid' || a.outcome === 'error') s.invalid++;
    }
  }
  for (const d of decisions) if (d.dspId) of(d.dspId).wins++;
  if (stats.size === 0) return;
  const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000).toISOString();
  const rows = JSON.stringify([...stats].map(([dsp_id, s]) => ({ dsp_id, ...s })));
  await db.execute(sql`
    insert into rtb_dsp_hours (dsp_id, hour, requests, bids, timeouts, invalid, wins)
    select r.dsp_id, ${hour}::timestamptz, r.requests, r.bids, r.timeouts, r.invalid, r.wins
      from jsonb_to_recordset(${rows}::jsonb) as r(dsp_id text, requests int, bids int, timeouts int, invalid int, wins int)
    on conflict (dsp_id, hour) do update set
      requests = rtb_dsp_hours.requests + excluded.requests,
      bids = rtb_dsp_hours.bids + excluded.bids,
      timeouts = rtb_dsp_hours.timeouts + excluded.timeouts,
      invalid = rtb_dsp_hours.invalid + excluded.invalid,
      wins = rtb_dsp_hours.wins + excluded.wins`);
}
