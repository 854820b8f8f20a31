import {
  applyPercent,
  DEFAULT_ITEM_SEC,
  daysBetween,
  ErrorCode,
  hoursOfMask,
  type MakeGoodRemedy,
  reconcile,
  type SalesMethod,
  zonedDayStart,
  zonedInstant,
} from '@marquee/protocol';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  ads,
  type SalesOrderLineRow,
  type SalesOrderRow,
  type SalesSettlementRow,
  salesOrderLineDevices,
  salesOrderLines,
  salesOrders,
  salesSettlementLines,
  salesSettlements,
} from '../../db/schema/index.js';
import { AppError, type LocalizedText } from '../../protocol/appError.js';
import { deviceIn, ExpectedModel } from '../reports/expected.js';
import { dayIn, enterpriseZone } from '../timeZones/service.js';
import { salesSettingsOf } from './settings.js';

/**
 * Settlement from proof of play (issue 28; docs/ARCHITECTURE.md "Selling airtime"). One line
 * per (sub-order, screen, UTC day) of the order's period (up to yesterday when computed early).
 *
 * - deliveredPlays: the play rollups (play_rollups_daily) of the sub-order's ad on that device
 *   and day, all materials; 0 without an ad.
 * - expectedPlays: the reports' expected model (reports/expected.ts ExpectedModel, the same
 *   figure the ad reports reconcile against) for the sub-order's ad on that device and day when
 *   it gives one (> 0: the ad passed review, was downloaded, reaches the screen and is live that
 *   day); else the booked time itself: rotations x the whole loops of the booked hours, a loop
 *   being the playlist builder's loop of the order ad alone (rotations turns of
 *   DEFAULT_ITEM_SEC = 10 s each), i.e. floor(bookedHours x 3600 / (rotations x 10)) x
 *   rotations. So a screen that never got the ad, or was offline, expects what was sold.
 * - underDelivered: reconcile(expected, delivered) (below the reports' UNDER_DELIVERY_PCT, 95%).
 * - impressions: where gather has audience for the device that day (device_audience_hourly,
 *   any hour of that UTC day): plays x max(1, audience of the day / plays of all ads on the
 *   device that day), i.e. max(plays, floor(plays x audience / allPlays)) — every play counts
 *   at least one impression; else plays x settings.impressionsPerPlayPct / 100 (rounded half
 *   up). `fromAudience` says which.
 * - amount: CPT: the order's amount (after its discounts) spread over all its screen-days in
 *   proportion to their list price (unitPrice x rotations x booked hours), integer fen by
 *   largest remainder (ties: sub-order position, day, screen), so the full period's lines sum
 *   exactly to order.amount (an early computation shows the same per-line figures); CPM: the
 *   sub-order's impressions / 1000 x unitPrice capped at its list amount, after the order's
 *   discounts (contract pct then coupon pct), the order's total capped at order.amount, spread
 *   over its screen-days by impressions (largest remainder).
 * - credit (remedy 'credit', CPT only): floor(amount x (expected - delivered) / expected).
 * - billed: CPT: amounts - credits; CPM: amounts; never above order.amount - paid_amount.
 */

export const SettlementText = {
  notFound: {
    'zh-CN': '订单不存在',
    'en-US': 'The order does not exist',
    ja: '注文が存在しません',
  },
  notToBePaid: {
    'zh-CN': '结算单已确认，不能再修改',
    'en-US': 'The settlement was confirmed and can no longer change',
    ja: '精算はすでに確定しているため変更できません',
  },
  noSettlement: {
    'zh-CN': '订单尚无结算单，请先计算结算',
    'en-US': 'The order has no settlement yet: compute it first',
    ja: '注文にはまだ精算がありません。先に精算を計算してください',
  },
  orderNotInProgress: {
    'zh-CN': '只有投放中的订单可以结算',
    'en-US': 'Only an order in progress can be settled',
    ja: '配信中の注文のみ精算できます',
  },
  periodNotOver: {
    'zh-CN': '订单投放期尚未结束，不能确认结算',
    'en-US': 'The order’s period is not over yet: the settlement cannot be confirmed',
    ja: '注文の配信期間がまだ終わっていないため、精算を確定できません',
  },
} satisfies Record<string, LocalizedText>;

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const asNum = (v: unknown) => Number(v ?? 0);

export interface OrderLineFacts {
  line: SalesOrderLineRow;
  deviceIds: string[];
}

/** The order's sub-orders (by position) with their screens. */
export async function orderLinesOf(db: Executor, orderId: string): Promise<OrderLineFacts[]> {
  const lines = await db
    .select()
    .from(salesOrderLines)
    .where(eq(salesOrderLines.orderId, orderId))
    .orderBy(asc(salesOrderLines.position));
  if (lines.length === 0) return [];
  const devs = await db
    .select({ lineId: salesOrderLineDevices.lineId, deviceId: salesOrderLineDevices.deviceId })
    .from(salesOrderLineDevices)
    .where(
      inArray(
        salesOrderLineDevices.lineId,
        lines.map((l) => l.id),
      ),
    );
  const by = new Map<string, string[]>(lines.map((l) => [l.id, []]));
  for (const d of devs) by.get(d.lineId)?.push(d.deviceId);
  return lines.map((line) => ({ line, deviceIds: (by.get(line.id) ?? []).sort() }));
}

/** Splits `total` over weights in proportion, integer by largest remainder (ties: index order). */
export function splitByWeights(total: number, weights: readonly bigint[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n || weights.length === 0) return weights.map(() => 0);
  const T = BigInt(total);
  const out: number[] = [];
  const rema: { i: number; r: bigint }[] = [];
  let given = 0n;
  weights.forEach((w, i) => {
    const q = (T * w) / sum;
    out.push(Number(q));
    given += q;
    rema.push({ i, r: (T * w) % sum });
  });
  let left = Number(T - given);
  rema.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (let k = 0; left > 0 && k < rema.length; k++, left--) out[rema[k].i] += 1;
  return out;
}

/** The discounts of the order applied to a list amount (contract pct, then coupon pct). */
export function discounted(
  order: Pick<SalesOrderRow, 'contractDiscountPct' | 'couponDiscountPct'>,
  fen: number,
): number {
  const afterContract = applyPercent(fen, order.contractDiscountPct);
  return order.couponDiscountPct == null ? afterContract : applyPercent(afterContract, order.couponDiscountPct);
}

/**
 * Each sub-order's share of order.amount after discounts: the amount spread over sub-orders by
 * their list amounts (largest remainder), so they sum exactly to order.amount.
 */
function lineShares(order: SalesOrderRow, lines: readonly OrderLineFacts[]): number[] {
  return splitByWeights(
    order.amount,
    lines.map((l) => BigInt(l.line.listAmount)),
  );
}

interface Measured {
  /** `${lineId}|${deviceId}|${day}` -> plays of the line's ad. */
  plays: Map<string, number>;
  /** `${deviceId}|${day}` -> audience of the day / plays of every ad. */
  audience: Map<string, number>;
  allPlays: Map<string, number>;
}

/**
 * Reads the rollups and the audience of the order's screens over [from, to] in grouped queries;
 * days are the enterprise's (`zone`), as the rollups' are.
 */
async function measure(
  db: Executor,
  entId: string,
  lines: readonly OrderLineFacts[],
  from: string,
  to: string,
  zone: string,
): Promise<Measured> {
  const plays = new Map<string, number>();
  const audience = new Map<string, number>();
  const allPlays = new Map<string, number>();
  if (to < from) return { plays, audience, allPlays };
  const adLine = new Map<string, string[]>();
  for (const l of lines) if (l.line.adId) adLine.set(l.line.adId, [...(adLine.get(l.line.adId) ?? []), l.line.id]);
  const deviceIds = [...new Set(lines.flatMap((l) => l.deviceIds))];
  const lineDevices = new Map(lines.map((l) => [l.line.id, new Set(l.deviceIds)]));
  const devJson = JSON.stringify(deviceIds);
  // One query after another: inside a transaction they share one connection.
  const own =
    adLine.size === 0
      ? ([] as { ad_id: string; device_id: string; day: string; plays: unknown }[])
      : await db
          .execute(sql`
            select ad_id, device_id, to_char(day, 'YYYY-MM-DD') as day, sum(plays)::bigint as plays
            from play_rollups_daily
            where ent_id = ${entId} and ad_id in (select jsonb_array_elements_text(${JSON.stringify([...adLine.keys()])}::jsonb))
              and day between ${from}::date and ${to}::date
            group by ad_id, device_id, day`)
          .then((r) => rowsOf<{ ad_id: string; device_id: string; day: string; plays: unknown }>(r));
  const aud = await db
    .execute(sql`
        select device_id, to_char((hour at time zone ${zone})::date, 'YYYY-MM-DD') as day, sum(count)::bigint as n
        from device_audience_hourly
        where device_id = any(array(select jsonb_array_elements_text(${devJson}::jsonb)))
          and hour >= ${new Date(zonedDayStart(from, zone)).toISOString()}::timestamptz
          and hour < ${new Date(zonedDayStart(isoDay(dayMs(to) + DAY_MS), zone)).toISOString()}::timestamptz
        group by 1, 2`)
    .then((r) => rowsOf<{ device_id: string; day: string; n: unknown }>(r));
  // Plays of every ad only where there is audience (the audience rule's denominator).
  const audDevices = [...new Set(aud.filter((r) => asNum(r.n) > 0).map((r) => r.device_id))];
  const all =
    audDevices.length === 0
      ? []
      : await db
          .execute(sql`
            select device_id, to_char(day, 'YYYY-MM-DD') as day, sum(plays)::bigint as plays
            from play_rollups_daily
            where ent_id = ${entId} and day between ${from}::date and ${to}::date and ad_id <> ''
              and device_id = any(array(select jsonb_array_elements_text(${JSON.stringify(audDevices)}::jsonb)))
            group by 1, 2`)
          .then((r) => rowsOf<{ device_id: string; day: string; plays: unknown }>(r));
  for (const r of own) {
    for (const lineId of adLine.get(r.ad_id) ?? []) {
      if (!lineDevices.get(lineId)?.has(r.device_id)) continue;
      const k = `${lineId}|${r.device_id}|${r.day}`;
      plays.set(k, (plays.get(k) ?? 0) + asNum(r.plays));
    }
  }
  for (const r of aud) if (asNum(r.n) > 0) audience.set(`${r.device_id}|${r.day}`, asNum(r.n));
  for (const r of all) allPlays.set(`${r.device_id}|${r.day}`, asNum(r.plays));
  return { plays, audience, allPlays };
}

/** Impressions of `plays` on a screen-day (see the module comment for the rule). */
function impressionsOf(m: Measured, deviceId: string, day: string, plays: number, pct: number) {
  const aud = m.audience.get(`${deviceId}|${day}`);
  if (aud !== undefined) {
    const all = m.allPlays.get(`${deviceId}|${day}`) ?? 0;
    const scaled = all > 0 ? Number((BigInt(plays) * BigInt(aud)) / BigInt(all)) : plays;
    return { impressions: Math.max(plays, scaled), fromAudience: true };
  }
  return { impressions: applyPercent(plays, pct), fromAudience: false };
}

/** The order's sales method: CPM when every sub-order is CPM, else CPT. */
export function methodOf(lines: readonly OrderLineFacts[]): SalesMethod {
  return lines.length > 0 && lines.every((l) => l.line.salesMethod === 'cpm') ? 'cpm' : 'cpt';
}

/**
 * Fen delivered so far by an order (what cancelling an in-progress order posts): CPT: each
 * sub-order's share of the amount x the share of its booked screen-hours elapsed up to now
 * (whole hours, clamped to the period); CPM: delivered impressions (up to now) / 1000 x unit
 * price, capped at the sub-order's list amount, after the order's discounts; never above
 * order.amount - paid_amount.
 */
export async function deliveredAmount(db: Executor, orderId: string, now: Date): Promise<number> {
  const [order] = await db.select().from(salesOrders).where(eq(salesOrders.id, orderId));
  if (!order) throw new AppError(ErrorCode.NOT_FOUND, SettlementText.notFound);
  const lines = await orderLinesOf(db, orderId);
  const shares = lineShares(order, lines);
  const open = Math.max(0, order.amount - order.paidAmount);
  const zone = await enterpriseZone(db, order.entId);
  const hours = hoursOfMask(order.hoursMask);
  const days = daysBetween(order.startDate, order.endDate);
  const totalHours = hours.length * days.length;
  const nowMs = now.getTime();
  let elapsed = 0;
  for (const day of days) {
    if (zonedDayStart(day, zone) >= nowMs) break;
    for (const h of hours) if (zonedInstant(day, (h + 1) * 60, zone) <= nowMs) elapsed++;
  }
  let total = 0;
  const today = dayIn(now, zone);
  const cpm = lines.some((l) => l.line.salesMethod === 'cpm');
  const settings = cpm ? await salesSettingsOf(db, order.entId) : null;
  const through = order.endDate < today ? order.endDate : today;
  const m = cpm ? await measure(db, order.entId, lines, order.startDate, through, zone) : null;
  lines.forEach((l, i) => {
    if (l.line.salesMethod === 'cpt') {
      if (totalHours > 0) total += Number((BigInt(shares[i]) * BigInt(elapsed)) / BigInt(totalHours));
      return;
    }
    if (!m || !settings) return;
    let impressions = 0;
    for (const [k, plays] of m.plays) {
      const [lineId, deviceId, day] = k.split('|');
      if (lineId !== l.line.id) continue;
      impressions += impressionsOf(m, deviceId, day, plays, settings.impressionsPerPlayPct).impressions;
    }
    const value = Math.min(l.line.listAmount, Math.floor((impressions * l.line.unitPrice) / 1000));
    total += Math.min(discounted(order, value), shares[i]);
  });
  return Math.min(total, open);
}

export interface ComputedLine {
  lineId: string;
  deviceId: string;
  day: string;
  expectedPlays: number;
  deliveredPlays: number;
  impressions: number;
  fromAudience: boolean;
  underDelivered: boolean;
  remedy: MakeGoodRemedy | null;
  amount: number;
  credit: number;
}

/** The credit of a screen-day under the remedy 'credit' (CPT only). */
export function creditOf(
  method: SalesMethod,
  l: Pick<ComputedLine, 'amount' | 'expectedPlays' | 'deliveredPlays' | 'underDelivered' | 'remedy'>,
): number {
  if (method !== 'cpt' || !l.underDelivered || l.remedy !== 'credit' || l.expectedPlays <= 0) return 0;
  const missing = Math.max(0, l.expectedPlays - l.deliveredPlays);
  return Number((BigInt(l.amount) * BigInt(missing)) / BigInt(l.expectedPlays));
}

/**
 * The order's screen-day lines computed from the rollups, days startDate .. `through`, with the
 * remedies chosen earlier kept (`kept`), the default remedy for the others.
 */
export async function computeLines(
  db: Executor,
  order: SalesOrderRow,
  lines: readonly OrderLineFacts[],
  through: string,
  now: Date,
  kept: ReadonlyMap<string, MakeGoodRemedy | null>,
): Promise<{ rows: ComputedLine[]; impressionsPerPlayPct: number }> {
  const settings = await salesSettingsOf(db, order.entId);
  const pct = settings.impressionsPerPlayPct;
  const to = through < order.endDate ? through : order.endDate;
  const days = to < order.startDate ? [] : daysBetween(order.startDate, to);
  const allDays = daysBetween(order.startDate, order.endDate);
  const hours = hoursOfMask(order.hoursMask).length;
  const rows: ComputedLine[] = [];
  if (days.length === 0 || lines.length === 0) return { rows, impressionsPerPlayPct: pct };
  const m = await measure(db, order.entId, lines, order.startDate, to, await enterpriseZone(db, order.entId));
  const deviceIds = [...new Set(lines.flatMap((l) => l.deviceIds))];
  const withAd = lines.filter((l) => l.line.adId);
  const model =
    withAd.length > 0 && deviceIds.length > 0
      ? await ExpectedModel.load(db, order.entId, order.startDate, to, now, deviceIn(deviceIds), true)
      : null;
  const shares = lineShares(order, lines);
  for (const [i, l] of lines.entries()) {
    const { line } = l;
    const loopSec = Math.max(1, line.rotations) * DEFAULT_ITEM_SEC;
    const bookedExpected = Math.floor((hours * 3600) / loopSec) * line.rotations;
    const mine: ComputedLine[] = [];
    for (const day of days) {
      for (const deviceId of l.deviceIds) {
        const fromModel = line.adId ? (model?.onDeviceDay(deviceId, day).get(line.adId) ?? 0) : 0;
        const expectedPlays = fromModel > 0 ? fromModel : bookedExpected;
        const deliveredPlays = m.plays.get(`${line.id}|${deviceId}|${day}`) ?? 0;
        const under = reconcile(expectedPlays, deliveredPlays).underDelivered;
        const key = `${line.id}|${deviceId}|${day}`;
        const remedy = under ? (kept.get(key) ?? settings.defaultRemedy) : null;
        const imp = impressionsOf(m, deviceId, day, deliveredPlays, pct);
        mine.push({
          lineId: line.id,
          deviceId,
          day,
          expectedPlays,
          deliveredPlays,
          impressions: imp.impressions,
          fromAudience: imp.fromAudience,
          underDelivered: under,
          remedy,
          amount: 0,
          credit: 0,
        });
      }
    }
    if (line.salesMethod === 'cpt') {
      // Every screen-day of the whole period weighs the same: the share split over all of them,
      // by largest remainder in (day, screen) order, then the computed days' part taken.
      const all = allDays.length * l.deviceIds.length;
      const split = splitByWeights(
        shares[i],
        Array.from({ length: all }, () => 1n),
      );
      mine.forEach((row, k) => {
        row.amount = split[k];
      });
    } else {
      const impressions = mine.reduce((a, r) => a + r.impressions, 0);
      const value = Math.min(line.listAmount, Math.floor((impressions * line.unitPrice) / 1000));
      const lineTotal = Math.min(discounted(order, value), shares[i]);
      const split = splitByWeights(
        lineTotal,
        mine.map((r) => BigInt(r.impressions)),
      );
      mine.forEach((row, k) => {
        row.amount = split[k];
      });
    }
    for (const row of mine) row.credit = creditOf(line.salesMethod, row);
    rows.push(...mine);
  }
  return { rows, impressionsPerPlayPct: pct };
}

/** Totals of computed lines: billed never above order.amount - paid_amount. */
export function totalsOf(order: SalesOrderRow, rows: readonly ComputedLine[]) {
  let expectedPlays = 0;
  let deliveredPlays = 0;
  let impressions = 0;
  let amount = 0;
  let credit = 0;
  for (const r of rows) {
    expectedPlays += r.expectedPlays;
    deliveredPlays += r.deliveredPlays;
    impressions += r.impressions;
    amount += r.amount;
    credit += r.credit;
  }
  const billed = Math.max(0, Math.min(amount - credit, order.amount - order.paidAmount));
  return { expectedPlays, deliveredPlays, impressions, billedAmount: billed, creditAmount: credit };
}

const INSERT_BATCH = 5000;

/** Replaces a settlement's lines (batched inserts from a JSON array). */
async function writeLines(db: Executor, settlementId: string, rows: readonly ComputedLine[]): Promise<void> {
  await db.delete(salesSettlementLines).where(eq(salesSettlementLines.settlementId, settlementId));
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const chunk = rows.slice(i, i + INSERT_BATCH).map((r) => ({
      l: r.lineId,
      d: r.deviceId,
      y: r.day,
      e: r.expectedPlays,
      p: r.deliveredPlays,
      i: r.impressions,
      a: r.fromAudience,
      u: r.underDelivered,
      r: r.remedy,
      m: r.amount,
      c: r.credit,
    }));
    await db.execute(sql`
      insert into sales_settlement_lines (settlement_id, line_id, device_id, day, expected_plays, delivered_plays,
        impressions, from_audience, under_delivered, remedy, amount, credit)
      select ${settlementId}, x.l, x.d, x.y, x.e, x.p, x.i, x.a, x.u, x.r, x.m, x.c
      from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb)
        as x(l text, d text, y date, e integer, p integer, i bigint, a boolean, u boolean, r text, m bigint, c bigint)`);
  }
}

/** The remedies chosen on a settlement's lines (under-delivered ones). */
async function keptRemedies(db: Executor, settlementId: string): Promise<Map<string, MakeGoodRemedy | null>> {
  const rows = await db
    .select({
      lineId: salesSettlementLines.lineId,
      deviceId: salesSettlementLines.deviceId,
      day: salesSettlementLines.day,
      remedy: salesSettlementLines.remedy,
    })
    .from(salesSettlementLines)
    .where(and(eq(salesSettlementLines.settlementId, settlementId), eq(salesSettlementLines.underDelivered, true)));
  return new Map(rows.map((r) => [`${r.lineId}|${r.deviceId}|${r.day}`, r.remedy]));
}

/** Yesterday of `now` in `zone`. */
export const yesterdayOf = (now: Date, zone: string) => isoDay(dayMs(dayIn(now, zone)) - DAY_MS);

/**
 * Creates or recomputes (only while toBePaid; chosen remedies kept) the order's settlement and
 * its screen-day lines from the play rollups (days up to the day before `now` when computed
 * early); returns the row. SETTLEMENT_STATE once confirmed.
 */
export async function computeSettlement(db: Executor, orderId: string, now: Date): Promise<SalesSettlementRow> {
  const [order] = await db.select().from(salesOrders).where(eq(salesOrders.id, orderId));
  if (!order) throw new AppError(ErrorCode.NOT_FOUND, SettlementText.notFound);
  const [existing] = await db
    .select()
    .from(salesSettlements)
    .where(eq(salesSettlements.orderId, orderId))
    .for('update');
  if (existing && existing.state !== 'toBePaid') {
    throw new AppError(ErrorCode.SETTLEMENT_STATE, SettlementText.notToBePaid);
  }
  const lines = await orderLinesOf(db, orderId);
  const kept = existing ? await keptRemedies(db, existing.id) : new Map<string, MakeGoodRemedy | null>();
  const { rows, impressionsPerPlayPct } = await computeLines(
    db,
    order,
    lines,
    yesterdayOf(now, await enterpriseZone(db, order.entId)),
    now,
    kept,
  );
  const totals = totalsOf(order, rows);
  const values = { ...totals, impressionsPerPlayPct, computedAt: now };
  let settlement: SalesSettlementRow;
  if (existing) {
    [settlement] = await db
      .update(salesSettlements)
      .set(values)
      .where(eq(salesSettlements.id, existing.id))
      .returning();
  } else {
    [settlement] = await db
      .insert(salesSettlements)
      .values({ orderId, state: 'toBePaid', ...values })
      .returning();
  }
  await writeLines(db, settlement.id, rows);
  return settlement;
}

/** The ads of the order's sub-orders (for the make-goods). */
export async function adsOfLines(db: Executor, adIds: string[]) {
  if (adIds.length === 0) return [];
  return db.select().from(ads).where(inArray(ads.id, adIds));
}
