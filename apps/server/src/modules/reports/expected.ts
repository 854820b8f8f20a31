import { daysBetween, type ExpectedAd, expectedOnDay } from '@marquee/protocol';
import { and, eq, inArray, isNotNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { adReviews, ads, departments, devices, deviceTags, spliceTiles } from '../../db/schema/index.js';
import { targetsReach } from '../ads/schedule.js';
import { deviceZoneSql, reportZone } from '../timeZones/service.js';

/**
 * What the schedule expected (issue 13 'Reconciliation'): which ads reached which device on
 * which day, and how many plays each (the protocol's expectedOnDay, the ads' time periods
 * read on the wall clock of each device's zone). The days are the enterprise's report days
 * (its rollup zone's, issue 31), as the plays they are set beside. The ads' targets are
 * read as they are now (targets are not kept in history); an ad counts from the moment it
 * could first play, the latest of its start, its approval (the pass of its current review
 * round) and its first download by a screen (ads.downloaded_at), to its end, cut at its
 * deletion, and, while paused, at its last change (the pause). Ads whose review has not
 * passed, or that no screen has downloaded yet, expect nothing.
 *
 * Devices with the same ads reaching them have the same figures: the figures are computed
 * once per such set of ads and day, so 10,000 screens under one campaign cost one set.
 */

type AdRow = typeof ads.$inferSelect;
const DAY_MS = 86_400_000;

/**
 * The expected-plays view of an ad row, as of `now`: the schedule expects nothing before the ad
 * could play (its start, its approval `approvedAt` when known, its first download) nor after
 * now (a day in progress expects a per-loop ad's loops so far); null when it expects nothing
 * (review not passed, or never downloaded).
 */
export function expectedAdOf(row: AdRow, now: number, approvedAt?: Date | null): ExpectedAd | null {
  if (row.reviewState !== 'passed' || !row.downloadedAt) return null;
  const starts = [row.startAt.getTime(), row.downloadedAt.getTime()];
  if (approvedAt) starts.push(approvedAt.getTime());
  const cuts = [row.endAt.getTime(), now];
  if (row.deletedAt) cuts.push(row.deletedAt.getTime());
  if (row.paused) cuts.push(row.updatedAt.getTime());
  return {
    id: row.id,
    type: row.type,
    strategy: row.strategy,
    playsMin: row.playsMin,
    periods: row.periods,
    liveFrom: Math.max(...starts),
    liveUntil: Math.min(...cuts),
    materialsPerPlay: row.layoutId ? 1 : Math.max(1, row.materialIds.length),
    createdAt: row.createdAt.getTime(),
  };
}

interface Reach {
  id: string;
  /** The device's zone: its ads' time periods are its wall clock's (issue 31). */
  zone: string;
  groupId: string | null;
  tagIds: Set<string>;
  deptIds: Set<string>;
  spliceIds: Set<string>;
}

/**
 * Runs independent reads at once over the pool, or one after another when `oneClient` (a
 * transaction's single connection must not be handed a query while one runs: pg deprecates it).
 */
async function both<T extends readonly (() => Promise<unknown>)[]>(
  oneClient: boolean,
  reads: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  if (!oneClient) return (await Promise.all(reads.map((r) => r()))) as never;
  const out: unknown[] = [];
  for (const r of reads) out.push(await r());
  return out as never;
}

/** The reach facts of an enterprise's activated devices (all, or those of `where`). */
async function reachOfDevices(
  db: Executor,
  entId: string,
  where: SQL | undefined,
  oneClient: boolean,
): Promise<Reach[]> {
  const base = and(eq(devices.entId, entId), isNotNull(devices.activatedAt), where) as SQL;
  const [rows, tags, tiles] = await both(oneClient, [
    () =>
      db
        .select({ id: devices.id, groupId: devices.groupId, path: departments.path, zone: deviceZoneSql })
        .from(devices)
        .leftJoin(departments, eq(departments.id, devices.deptId))
        .where(base),
    () =>
      db
        .select({ deviceId: deviceTags.deviceId, tagId: deviceTags.tagId })
        .from(deviceTags)
        .innerJoin(devices, eq(devices.id, deviceTags.deviceId))
        .where(base),
    () =>
      db
        .select({ deviceId: spliceTiles.deviceId, wallId: spliceTiles.wallId })
        .from(spliceTiles)
        .innerJoin(devices, eq(devices.id, spliceTiles.deviceId))
        .where(base),
  ] as const);
  const byId = new Map<string, Reach>();
  for (const r of rows) {
    byId.set(r.id, {
      id: r.id,
      zone: r.zone,
      groupId: r.groupId,
      tagIds: new Set(),
      deptIds: new Set((r.path ?? '').split('/').filter(Boolean)),
      spliceIds: new Set(),
    });
  }
  for (const t of tags) byId.get(t.deviceId)?.tagIds.add(t.tagId);
  for (const t of tiles) byId.get(t.deviceId)?.spliceIds.add(t.wallId);
  return [...byId.values()];
}

/**
 * When each of these ads was approved: the last pass of its current review round (an ad
 * passed without a review row, as a fixture's, has none: its start counts).
 */
async function approvalsOf(db: Executor, adRows: readonly AdRow[]): Promise<Map<string, Date>> {
  if (adRows.length === 0) return new Map();
  const rows = await db
    .select({ adId: adReviews.adId, at: sql<string>`max(${adReviews.decidedAt})` })
    .from(adReviews)
    .innerJoin(ads, and(eq(ads.id, adReviews.adId), eq(ads.reviewRound, adReviews.round)))
    .where(
      and(
        inArray(
          adReviews.adId,
          adRows.map((r) => r.id),
        ),
        eq(adReviews.decision, 'pass'),
      ),
    )
    .groupBy(adReviews.adId);
  return new Map(rows.map((r) => [r.adId, new Date(r.at)]));
}

/** The ads of an enterprise that may have expected plays in [from, to] (days of any zone), with their approvals. */
async function candidateAds(
  db: Executor,
  entId: string,
  from: string,
  to: string,
): Promise<{ rows: AdRow[]; approvals: Map<string, Date> }> {
  const rows = await db
    .select()
    .from(ads)
    .where(
      and(
        eq(ads.entId, entId),
        eq(ads.reviewState, 'passed'),
        isNotNull(ads.downloadedAt),
        // A local day reaches 14 hours either side of its UTC namesake.
        lte(ads.startAt, new Date(Date.parse(`${to}T23:59:59.999Z`) + DAY_MS)),
        sql`${ads.endAt} > ${new Date(Date.parse(`${from}T00:00:00Z`) - DAY_MS)}`,
      ),
    );
  return { rows, approvals: await approvalsOf(db, rows) };
}

/** The key of a set of ads reaching devices in one zone. */
const setKey = (zone: string, adIds: string[]) => `${zone}|${[...adIds].sort().join(',')}`;
const adsOfKey = (key: string) => key.slice(key.indexOf('|') + 1).split(',');

/** Expected plays of a range: per (device, day, ad), computed per set of ads reaching devices. */
export class ExpectedModel {
  /** Device -> the key of the set of ads reaching it. */
  private readonly setOf = new Map<string, string>();
  /** Set key -> per day -> ad -> expected plays. */
  private readonly figures = new Map<string, Map<string, Map<string, number>>>();
  private readonly devicesOf = new Map<string, string[]>();
  readonly days: string[];

  constructor(
    reach: readonly Reach[],
    adRows: readonly AdRow[],
    from: string,
    to: string,
    now: number,
    approvals: ReadonlyMap<string, Date> = new Map(),
    /** The zone of the days (the enterprise's report zone). */
    readonly dayZone = 'UTC',
  ) {
    this.days = daysBetween(from, to);
    const expectedAds = adRows
      .map((row) => ({ row, ad: expectedAdOf(row, now, approvals.get(row.id)) }))
      .filter((x) => x.ad !== null);
    const sets = new Map<string, { zone: string; ads: ExpectedAd[] }>();
    for (const device of reach) {
      const reaching = expectedAds.filter((x) => targetsReach(x.row.targets, device)).map((x) => x.ad as ExpectedAd);
      if (reaching.length === 0) continue;
      // Devices share figures when the same ads reach them in the same zone.
      const key = setKey(
        device.zone,
        reaching.map((a) => a.id),
      );
      this.setOf.set(device.id, key);
      if (!sets.has(key)) sets.set(key, { zone: device.zone, ads: reaching });
      const list = this.devicesOf.get(key) ?? [];
      list.push(device.id);
      this.devicesOf.set(key, list);
    }
    for (const [key, set] of sets) {
      this.figures.set(
        key,
        new Map(this.days.map((day) => [day, expectedOnDay(set.ads, day, undefined, set.zone, dayZone)])),
      );
    }
  }

  /**
   * Loads the model of an enterprise for [from, to] as of `now`: its devices (all, or
   * `deviceWhere`) and ads. `oneClient`: `db` is a transaction (its reads run one at a time).
   */
  static async load(
    db: Executor,
    entId: string,
    from: string,
    to: string,
    now: Date,
    deviceWhere?: SQL,
    oneClient = false,
  ): Promise<ExpectedModel> {
    const [reach, candidates, zone] = await both(oneClient, [
      () => reachOfDevices(db, entId, deviceWhere, oneClient),
      () => candidateAds(db, entId, from, to),
      () => reportZone(db, entId),
    ] as const);
    return new ExpectedModel(reach, candidates.rows, from, to, now.getTime(), candidates.approvals, zone.timeZone);
  }

  /** The devices some ad reaches (those with figures). */
  deviceIds(): string[] {
    return [...this.setOf.keys()];
  }

  /** The ads reaching some device (those with figures). */
  adIds(): string[] {
    return [...new Set([...this.setOf.values()].flatMap(adsOfKey))];
  }

  /** One device's expected plays per ad on a day (empty when no ad reached it). */
  onDeviceDay(deviceId: string, day: string): ReadonlyMap<string, number> {
    const key = this.setOf.get(deviceId);
    return (key && this.figures.get(key)?.get(day)) || new Map();
  }

  /** An ad's expected plays per day (summed over devices) and per device (summed over days). */
  ofAd(adId: string): { byDay: Map<string, number>; byDevice: Map<string, number>; total: number } {
    const byDay = new Map(this.days.map((d) => [d, 0]));
    const byDevice = new Map<string, number>();
    let total = 0;
    for (const [key, perDay] of this.figures) {
      const list = this.devicesOf.get(key) ?? [];
      let perDevice = 0;
      for (const [day, perAd] of perDay) {
        const n = perAd.get(adId) ?? 0;
        perDevice += n;
        byDay.set(day, (byDay.get(day) ?? 0) + n * list.length);
      }
      // Devices the ad reaches are listed even when it expects nothing there (a fallback ad).
      if (!adsOfKey(key).includes(adId)) continue;
      for (const device of list) byDevice.set(device, perDevice);
      total += perDevice * list.length;
    }
    return { byDay, byDevice, total };
  }
}

/** Device ids of a list, as a condition (for the model of a few devices). */
export const deviceIn = (ids: readonly string[]) => inArray(devices.id, [...ids]);
