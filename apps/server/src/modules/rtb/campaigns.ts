import {
  ErrorCode,
  hoursMask,
  hoursOfMask,
  nextDay,
  RTB_CAMPAIGN_SHOWN_STATES,
  type RtbCampaign,
  type RtbCampaignShownState,
  rtbDay,
  type rtbEndpoints,
  zonedDayStart,
  zonedInstant,
  zoneOffsetMinutes,
} from '@marquee/protocol';
import { and, desc, eq, ilike, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  ads,
  deviceGroups,
  devices,
  type RtbCampaignRow,
  rtbAuctions,
  rtbCampaigns,
  tags,
} from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { ensureDefaultPlan } from '../ads/plans.js';
import { pushAdChange } from '../ads/schedule.js';
import { transfersOf } from '../ledger/ledger.js';
import { advertiserSubject, checkedContent } from '../sales/orderAds.js';
import { advertiserOwnedWhere } from '../sales/orderScope.js';
import { orderAdvertiser } from '../sales/orders.js';
import { enterpriseTodaySql, enterpriseZone } from '../timeZones/service.js';
import { RTB_CAUSE, settleBudget } from './budget.js';
import { RtbText } from './texts.js';

/**
 * RTB campaigns (issue 29): an advertiser's bid per thousand impressions for the turns of the
 * operator's RTB slots, within a budget frozen in its wallet (budget.ts), targeted, paced, with
 * one ad (source 'rtb', no targets of its own: it plays only in turns it wins) reviewed like
 * any ad. Who sees a campaign: as an order (sales/orderScope.ts advertiserOwnedWhere).
 */

type Req<K extends keyof typeof rtbEndpoints> = z.infer<(typeof rtbEndpoints)[K]['request']>;

/** The day of `now` in `zone` (campaigns' dates are their enterprise's days). */
const today = (now: Date, zone: string) => rtbDay(now.getTime(), zone);

/** Weekdays (ISO 1..7) as a 7-bit mask (0: every day), and back. */
export const weekdaysMask = (days: readonly number[]) => days.reduce((m, d) => m | (1 << (d - 1)), 0);
const weekdaysOfMask = (mask: number) => [1, 2, 3, 4, 5, 6, 7].filter((d) => (mask >> (d - 1)) & 1);

export function campaignWhere(user: CallContext['user']): SQL {
  return advertiserOwnedWhere(user, rtbCampaigns.advertiserId, rtbCampaigns.entId);
}

/**
 * The state a campaign shows (RTB_CAMPAIGN_SHOWN_STATES), as SQL over rtb_campaigns joined to
 * its ad `a`; its dates are days of its enterprise's zone.
 */
function shownStateSql(now: Date): SQL<RtbCampaignShownState> {
  const day = enterpriseTodaySql(rtbCampaigns.entId, now);
  return sql<RtbCampaignShownState>`case
    when ${rtbCampaigns.state} = 'ended' or ${rtbCampaigns.endDate} < ${day} then 'ended'
    when ${rtbCampaigns.state} = 'paused' then 'paused'
    when ${rtbCampaigns.startDate} > ${day} then 'scheduled'
    when ${ads.id} is null or ${ads.deletedAt} is not null or ${ads.reviewState} <> 'passed' then 'noAd'
    when ${rtbCampaigns.totalBudget} - ${rtbCampaigns.spent} - ${rtbCampaigns.reserved} < 1 then 'exhausted'
    else 'active' end`;
}

function selectCampaigns(db: Executor, now: Date) {
  return db
    .select({
      c: rtbCampaigns,
      shown: shownStateSql(now),
      advertiserName: sql<string>`coalesce(nullif(${accounts.realName}, ''), ${accounts.loginName})`,
      adName: ads.name,
      adReviewState: ads.reviewState,
      materialIds: ads.materialIds,
      layoutId: ads.layoutId,
      wins: sql<number>`(select count(*)::int from ${rtbAuctions} where ${rtbAuctions.campaignId} = ${rtbCampaigns.id} and ${rtbAuctions.state} in ('won', 'billed', 'unproven'))`,
      plays: sql<number>`(select count(*)::int from ${rtbAuctions} where ${rtbAuctions.campaignId} = ${rtbCampaigns.id} and ${rtbAuctions.state} = 'billed')`,
    })
    .from(rtbCampaigns)
    .innerJoin(accounts, eq(accounts.id, rtbCampaigns.advertiserId))
    .leftJoin(ads, eq(ads.id, rtbCampaigns.adId));
}
type CampaignViewRow = Awaited<ReturnType<ReturnType<typeof selectCampaigns>['where']>>[number];

export function presentCampaign(r: CampaignViewRow): RtbCampaign {
  const c = r.c;
  return {
    id: c.id,
    name: c.name,
    advertiserId: c.advertiserId,
    advertiserName: r.advertiserName,
    state: c.state,
    shownState: r.shown,
    bidCpm: c.bidCpm,
    dailyBudget: c.dailyBudget,
    totalBudget: c.totalBudget,
    spent: c.spent,
    reserved: c.reserved,
    frozen: c.state === 'ended' ? c.reserved : c.totalBudget - c.spent,
    startDate: c.startDate,
    endDate: c.endDate,
    hours: c.hoursMask === 0 || c.hoursMask === 0xffffff ? [] : hoursOfMask(c.hoursMask),
    weekdays: c.weekdaysMask === 0 || c.weekdaysMask === 0x7f ? [] : weekdaysOfMask(c.weekdaysMask),
    targets: {
      deviceIds: c.targets.deviceIds ?? [],
      groupIds: c.targets.groupIds ?? [],
      tagIds: c.targets.tagIds ?? [],
      regionCodes: c.targets.regionCodes ?? [],
    },
    pacing: c.pacing,
    adId: c.adId,
    adName: r.adName ?? null,
    adReviewState: r.adReviewState ?? null,
    materialIds: r.materialIds ?? [],
    layoutId: r.layoutId ?? null,
    wins: Number(r.wins),
    plays: Number(r.plays),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export async function campaignView(ctx: CallContext, id: string): Promise<RtbCampaign> {
  const [row] = await selectCampaigns(ctx.db, ctx.now).where(and(eq(rtbCampaigns.id, id), campaignWhere(ctx.user)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, RtbText.campaignNotFound);
  return presentCampaign(row);
}

/** The campaign visible to the caller, locked when asked; NOT_FOUND otherwise. */
async function requireCampaign(ctx: CallContext, id: string, lock = false): Promise<RtbCampaignRow> {
  const q = ctx.db
    .select()
    .from(rtbCampaigns)
    .where(and(eq(rtbCampaigns.id, id), campaignWhere(ctx.user)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, RtbText.campaignNotFound);
  return row;
}

export async function listCampaigns(input: Req<'rtbCampaignList'>, ctx: CallContext) {
  const { page, pageSize, keyword, shownState } = input;
  const conds: SQL[] = [campaignWhere(ctx.user)];
  if (keyword) conds.push(ilike(rtbCampaigns.name, `%${keyword.replace(/[\\%_]/g, (m) => `\\${m}`)}%`));
  const shown = shownStateSql(ctx.now);
  const where = and(...conds) as SQL;
  const [rows, byState] = await Promise.all([
    selectCampaigns(ctx.db, ctx.now)
      .where(shownState ? and(where, sql`${shown} = ${shownState}`) : where)
      .orderBy(desc(rtbCampaigns.createdAt), desc(rtbCampaigns.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db
      .select({ shown, n: sql<number>`count(*)::int` })
      .from(rtbCampaigns)
      .leftJoin(ads, eq(ads.id, rtbCampaigns.adId))
      .where(where)
      // By position: the CASE's parameters would not match a repeated expression.
      .groupBy(sql`1`),
  ]);
  const counts: Record<string, number> = Object.fromEntries(RTB_CAMPAIGN_SHOWN_STATES.map((s) => [s, 0]));
  for (const r of byState) counts[r.shown] = Number(r.n);
  const total = shownState ? counts[shownState] : Object.values(counts).reduce((a, b) => a + b, 0);
  return { total, data: rows.map(presentCampaign), counts };
}

export async function campaignInfo(input: { id: string }, ctx: CallContext) {
  const campaign = await campaignView(ctx, input.id);
  // At one instant a hold is settled before the next is made: posts and voids first.
  const settles = (phase: string) => (phase === 'post' || phase === 'void' || phase === 'expire' ? 0 : 1);
  const moved = (await transfersOf(ctx.db, { type: RTB_CAUSE, id: campaign.id })).sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || settles(a.phase) - settles(b.phase),
  );
  const transfers = moved.map((t) => ({
    id: t.id,
    code: t.phase === 'post' ? 'payment' : t.phase === 'void' || t.phase === 'expire' ? 'release' : t.code,
    amount: t.amount,
    at: t.createdAt.toISOString(),
  }));
  return { campaign, transfers };
}

/** Targets must name the enterprise's devices, groups and tags (regions are codes, checked by shape). */
async function checkTargets(ctx: CallContext, targets: Req<'rtbCampaignSave'>['targets']): Promise<void> {
  const entId = ctx.user.entId;
  const expect = async (wanted: string[], found: Promise<{ id: string }[]>) => {
    if (wanted.length === 0) return;
    const ids = new Set((await found).map((r) => r.id));
    if (wanted.some((id) => !ids.has(id))) throw new AppError(ErrorCode.AD_TARGET_INVALID, RtbText.targetsInvalid);
  };
  const uniq = (a: string[]) => [...new Set(a)];
  const d = uniq(targets.deviceIds);
  const g = uniq(targets.groupIds);
  const t = uniq(targets.tagIds);
  await expect(
    d,
    d.length === 0
      ? Promise.resolve([])
      : ctx.db
          .select({ id: devices.id })
          .from(devices)
          .where(and(eq(devices.entId, entId), inArray(devices.id, d))),
  );
  await expect(
    g,
    g.length === 0
      ? Promise.resolve([])
      : ctx.db
          .select({ id: deviceGroups.id })
          .from(deviceGroups)
          .where(and(eq(deviceGroups.entId, entId), inArray(deviceGroups.id, g))),
  );
  await expect(
    t,
    t.length === 0
      ? Promise.resolve([])
      : ctx.db
          .select({ id: tags.id })
          .from(tags)
          .where(and(eq(tags.entId, entId), inArray(tags.id, t))),
  );
}

/** The ad of a campaign: its period, no targets, one play per turn; the content decides the rest. */
/** The campaign's ad's frame: its days in the enterprise's zone. */
function campaignAdFrame(c: { startDate: string; endDate: string }, zone: string) {
  return {
    startAt: new Date(zonedDayStart(c.startDate, zone)),
    endAt: new Date(zonedDayStart(nextDay(c.endDate), zone)),
    strategy: 'perLoop' as const,
    playsMin: 1,
    playsMax: 1,
    periods: [],
    targets: { deviceIds: [], groupIds: [], tagIds: [], deptIds: [], spliceIds: [] },
  };
}

export async function saveCampaign(input: Req<'rtbCampaignSave'>, ctx: CallContext): Promise<RtbCampaign> {
  const db = ctx.db;
  const now = ctx.now;
  const zone = await enterpriseZone(db, ctx.user.entId, ctx.services.config.defaultTimeZone);
  if (input.endDate < today(now, zone)) throw new AppError(ErrorCode.RTB_CAMPAIGN_STATE, RtbText.periodOver);
  await checkTargets(ctx, input.targets);
  const fields = {
    name: input.name,
    bidCpm: input.bidCpm,
    dailyBudget: input.dailyBudget,
    totalBudget: input.totalBudget,
    startDate: input.startDate,
    endDate: input.endDate,
    hoursMask: input.hours.length === 0 ? 0 : hoursMask(input.hours),
    weekdaysMask: weekdaysMask(input.weekdays),
    targets: {
      deviceIds: [...new Set(input.targets.deviceIds)],
      groupIds: [...new Set(input.targets.groupIds)],
      tagIds: [...new Set(input.targets.tagIds)],
      regionCodes: [...new Set(input.targets.regionCodes)],
    },
    pacing: input.pacing,
  };
  if (!input.id) {
    const advertiser = await orderAdvertiser(ctx, input.advertiserId);
    const owner = { entId: ctx.user.entId, advertiserId: advertiser.id };
    const subject = await advertiserSubject(db, owner);
    const content = await checkedContent(db, subject, input);
    const [ad] = await db
      .insert(ads)
      .values({
        entId: owner.entId,
        deptId: subject.deptId,
        ownerId: advertiser.id,
        name: input.name,
        type: 'common',
        source: 'rtb',
        planId: await ensureDefaultPlan(db, owner.entId),
        ...campaignAdFrame(input, zone),
        ...content,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: ads.id });
    const [row] = await db
      .insert(rtbCampaigns)
      .values({
        ...fields,
        entId: owner.entId,
        advertiserId: advertiser.id,
        adId: ad.id,
        createdBy: ctx.user.accountId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const hold = await settleBudget(db, row, now, { actorId: ctx.user.accountId });
    await db.update(rtbCampaigns).set(hold).where(eq(rtbCampaigns.id, row.id));
    await ctx.audit({
      module: 'rtb',
      action: 'create',
      targetType: 'rtbCampaign',
      targetId: row.id,
      targetName: row.name,
      detail: { advertiserId: advertiser.id, bidCpm: row.bidCpm, totalBudget: row.totalBudget, adId: ad.id },
    });
    return campaignView(ctx, row.id);
  }
  const old = await requireCampaign(ctx, input.id, true);
  if (old.state === 'ended') throw new AppError(ErrorCode.RTB_CAMPAIGN_STATE, RtbText.campaignEnded);
  if (input.totalBudget < old.spent + old.reserved) {
    throw new AppError(ErrorCode.RTB_BUDGET_BELOW_COMMITTED, RtbText.budgetBelowCommitted);
  }
  const [row] = await db
    .update(rtbCampaigns)
    .set({ ...fields, updatedAt: now })
    .where(eq(rtbCampaigns.id, old.id))
    .returning();
  const hold = await settleBudget(db, row, now, { actorId: ctx.user.accountId });
  await db.update(rtbCampaigns).set(hold).where(eq(rtbCampaigns.id, row.id));
  if (row.adId) await updateCampaignAd(ctx, row, input);
  await ctx.audit({
    module: 'rtb',
    action: 'update',
    targetType: 'rtbCampaign',
    targetId: row.id,
    targetName: row.name,
    detail: { bidCpm: row.bidCpm, totalBudget: row.totalBudget, previousTotalBudget: old.totalBudget },
  });
  return campaignView(ctx, row.id);
}

/** Keeps the campaign's ad in step: its period always; new content (or a failed review) is a new review round. */
async function updateCampaignAd(ctx: CallContext, c: RtbCampaignRow, input: Req<'rtbCampaignSave'>) {
  const [current] = await ctx.db
    .select()
    .from(ads)
    .where(and(eq(ads.id, c.adId ?? ''), isNull(ads.deletedAt)))
    .for('update');
  if (!current) return;
  const subject = await advertiserSubject(ctx.db, c);
  const content = await checkedContent(ctx.db, subject, input);
  const sameContent =
    (content.layoutId ?? null) === (current.layoutId ?? null) &&
    JSON.stringify(content.materialIds) === JSON.stringify(current.materialIds);
  const frame = campaignAdFrame(c, await enterpriseZone(ctx.db, c.entId, ctx.services.config.defaultTimeZone));
  const review = sameContent ? {} : { reviewState: 'pending' as const, reviewRound: current.reviewRound + 1 };
  const [row] = await ctx.db
    .update(ads)
    .set({ name: c.name, startAt: frame.startAt, endAt: frame.endAt, ...content, ...review, updatedAt: ctx.now })
    .where(eq(ads.id, current.id))
    .returning();
  if (!sameContent) await pushAdChange(ctx, current, row, 'adChanged');
}

export async function pauseCampaign(input: { id: string; paused: boolean }, ctx: CallContext) {
  const old = await requireCampaign(ctx, input.id, true);
  if (old.state === 'ended') throw new AppError(ErrorCode.RTB_CAMPAIGN_STATE, RtbText.campaignEnded);
  await ctx.db
    .update(rtbCampaigns)
    .set({ state: input.paused ? 'paused' : 'active', updatedAt: ctx.now })
    .where(eq(rtbCampaigns.id, old.id));
  await ctx.audit({
    module: 'rtb',
    action: input.paused ? 'campaignPause' : 'campaignResume',
    targetType: 'rtbCampaign',
    targetId: old.id,
    targetName: old.name,
  });
  return campaignView(ctx, old.id);
}

/**
 * Ends a campaign (row locked): no new bids; what is neither spent nor reserved for won turns
 * is released now, the rest when those turns are proven or lapse. Also the period's end (the
 * billing job, actor null).
 */
export async function endLocked(db: Executor, old: RtbCampaignRow, now: Date, actorId: string | null) {
  const [row] = await db
    .update(rtbCampaigns)
    .set({ state: 'ended', endedAt: now, updatedAt: now })
    .where(eq(rtbCampaigns.id, old.id))
    .returning();
  const hold = await settleBudget(db, row, now, { actorId });
  await db.update(rtbCampaigns).set(hold).where(eq(rtbCampaigns.id, row.id));
  return row;
}

export async function endCampaign(input: { id: string }, ctx: CallContext) {
  const old = await requireCampaign(ctx, input.id, true);
  if (old.state === 'ended') throw new AppError(ErrorCode.RTB_CAMPAIGN_STATE, RtbText.campaignEnded);
  await endLocked(ctx.db, old, ctx.now, ctx.user.accountId);
  await ctx.audit({
    module: 'rtb',
    action: 'campaignEnd',
    targetType: 'rtbCampaign',
    targetId: old.id,
    targetName: old.name,
    detail: { spent: old.spent, reserved: old.reserved, released: old.totalBudget - old.spent - old.reserved },
  });
  return campaignView(ctx, old.id);
}

export async function campaignDelivery(input: Req<'rtbCampaignDelivery'>, ctx: CallContext) {
  const c = await requireCampaign(ctx, input.id);
  const unit = input.by === 'hour' ? 'hour' : 'day';
  // The buckets are the enterprise's days and hours (issue 31), as its campaign's calendar is;
  // each starts at its local midnight or hour, written with that moment's offset.
  const timeZone = await enterpriseZone(ctx.db, c.entId, ctx.services.config.defaultTimeZone);
  const rows = (await ctx.db.execute(sql`
    select to_char(date_trunc(${unit}, turn_at at time zone ${timeZone}), 'YYYY-MM-DD"T"HH24:00:00') as bucket,
           count(*) filter (where state in ('won', 'billed', 'unproven'))::int as wins,
           count(*) filter (where state = 'billed')::int as plays,
           coalesce(sum(price) filter (where state = 'billed'), 0)::bigint as spend
      from rtb_auctions
     where campaign_id = ${c.id}
     group by 1 order by 1`)) as unknown as {
    rows: { bucket: string; wins: number; plays: number; spend: string | number }[];
  };
  const series = rows.rows.map((r) => ({
    at: withOffset(r.bucket, timeZone),
    wins: Number(r.wins),
    plays: Number(r.plays),
    spend: Number(r.spend),
  }));
  const totals = series.reduce(
    (t, p) => ({ wins: t.wins + p.wins, plays: t.plays + p.plays, spend: t.spend + p.spend }),
    { wins: 0, plays: 0, spend: 0 },
  );
  return { series, totals, timeZone };
}

/** A local wall time `YYYY-MM-DDTHH:mm:ss` of `zone` as ISO with that moment's offset (`+08:00`). */
function withOffset(wall: string, zone: string): string {
  const minutes = Number(wall.slice(11, 13)) * 60 + Number(wall.slice(14, 16));
  const offset = zoneOffsetMinutes(zonedInstant(wall.slice(0, 10), minutes, zone), zone);
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${wall}${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
