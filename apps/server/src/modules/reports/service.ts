import {
  type AdReportDetail,
  type AdReportDeviceRow,
  type AdReportList,
  type AdReportRow,
  type AdType,
  DEFAULT_PAGE_SIZE,
  type DeviceScheduleRow,
  daysBetween,
  ErrorCode,
  fullRate,
  REPORT_HOURLY_DAYS,
  reconcile,
  reportRange,
  type SortOrder,
} from '@marquee/protocol';
import { and, asc, eq, ilike, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import { type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { ads, departments, devices, materials, promotionPlans } from '../../db/schema/index.js';
import { listOrder } from '../../db/sort.js';
import { AppError } from '../../protocol/appError.js';
import { adScope } from '../ads/scope.js';
import { statusOf } from '../ads/service.js';
import { AdText } from '../ads/texts.js';
import { deviceListWhere } from '../devices/service.js';
import { deviceIn, ExpectedModel } from './expected.js';

/**
 * The ad and device-schedule reports (issue 13): figures from the daily rollups (the hourly
 * ones only for the hourly profile), expected plays from the schedule (expected.ts), the
 * reconciliation and full rate by the protocol's rules. Every call reads: no transaction of
 * its own is needed beyond the pipeline's.
 */

/** Who asks, and when: a call's context, or an export job's saved caller. */
export interface ReportCaller {
  db: Executor;
  user: ScopeSubject;
  now: Date;
  language: string;
}

type Rows<T> = { rows: T[] };
const DAY_MS = 86_400_000;
const lang = (language: string) => (language === 'en-US' || language === 'ja' ? language : 'zh-CN');
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const num = (v: unknown) => Number(v ?? 0);
const padNumber = (n: number) => String(n).padStart(9, '0');

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as Rows<T>).rows;
}

export interface AdReportListInput {
  page?: number;
  size?: number;
  keyword?: string;
  planId?: string;
  type?: AdType;
  from?: string;
  to?: string;
  sort?: 'plays' | 'durationMs' | 'devices' | 'createdAt';
  order?: SortOrder;
}

function adListWhere(caller: ReportCaller, input: AdReportListInput): SQL {
  const conds: SQL[] = [scopeWhere(caller.user, adScope)];
  if (input.keyword) {
    const k = input.keyword;
    const byName = ilike(ads.name, `%${escapeLike(k)}%`);
    conds.push(
      /^\d{1,9}$/.test(k) ? (or(byName, like(sql`lpad(${ads.number}::text, 9, '0')`, `${k}%`)) as SQL) : byName,
    );
  }
  if (input.planId) conds.push(eq(ads.planId, input.planId));
  if (input.type) conds.push(eq(ads.type, input.type));
  return and(...conds) as SQL;
}

/** Plays per ad over the range (of the ads `adIn` selects): totals and the devices that played it (grouped per device first). */
function perAdTotals(entId: string, from: string, to: string, adIn: SQL): SQL {
  return sql`(select ad_id, sum(p)::bigint as plays, sum(c)::bigint as completed, sum(d)::bigint as duration_ms,
      count(*)::int as devices
    from (select ad_id, device_id, sum(plays) as p, sum(completed) as c, sum(duration_ms) as d
      from play_rollups_daily
      where ent_id = ${entId} and day between ${from}::date and ${to}::date and ad_id in ${adIn}
      group by ad_id, device_id) per_device
    group by ad_id)`;
}

/**
 * Per ad and day (of the ads `adIn` selects): plays, play time and the devices that played.
 * A daily rollup row is one (day, device, ad, material): for ads that played one material in
 * the range (`oneMaterial`), the rows of a day are its devices, counted without the distinct
 * count's sort (1,000,000 rows of a campaign: seconds against a fraction of one).
 */
async function perAdDay(db: Executor, entId: string, adIn: SQL, from: string, to: string, oneMaterial = false) {
  const devices = oneMaterial ? sql`count(*)::int` : sql`count(distinct device_id)::int`;
  return rows<{ ad_id: string; day: string; plays: string; duration_ms: string; devices: number }>(
    db,
    sql`select ad_id, day::text as day, sum(plays)::bigint as plays, sum(duration_ms)::bigint as duration_ms,
          ${devices} as devices
        from play_rollups_daily
        where ent_id = ${entId} and ad_id in ${adIn} and day between ${from}::date and ${to}::date
        group by ad_id, day`,
  );
}

/** Of the ads `adIn` selects, those made of one material (`one`) or not. */
const withMaterials = (adIn: SQL, one: boolean) =>
  sql`(select ${ads.id} from ${ads} where ${ads.id} in ${adIn} and ${
    one
      ? sql`cardinality(${ads.materialIds}) <= 1 and ${ads.layoutId} is null`
      : sql`not (cardinality(${ads.materialIds}) <= 1 and ${ads.layoutId} is null)`
  })`;

/** `(id, ...)` of a list of ids, for `in`. */
const idList = (ids: readonly string[]) =>
  sql`(${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;

/** Spec section 9 over an ad's days: each day's count is its plays per device that played. */
const fullRateOfDays = (days: readonly { plays: number; devices: number }[]) =>
  fullRate(days.map((d) => (d.devices > 0 ? d.plays / d.devices : 0)));

/** report.adList: per ad in the caller's scope, the range's figures, paged and sorted. */
export async function adReportList(caller: ReportCaller, input: AdReportListInput): Promise<AdReportList> {
  const { from, to } = reportRange(caller.now.getTime(), input.from, input.to);
  const entId = caller.user.entId;
  const page = input.page ?? 1;
  const size = input.size ?? DEFAULT_PAGE_SIZE;
  const where = adListWhere(caller, input);
  const order = listOrder(
    input,
    {
      plays: sql`coalesce(agg.plays, 0)`,
      durationMs: sql`coalesce(agg.duration_ms, 0)`,
      devices: sql`coalesce(agg.devices, 0)`,
      createdAt: ads.createdAt,
    },
    ads.id,
    [sql`${ads.createdAt} desc`, sql`${ads.id} desc`],
  );
  const adIn = sql`(select ${ads.id} from ${ads} where ${where})`;
  const [pageRows, [{ total }], dayRows, model] = await Promise.all([
    rows<{
      id: string;
      plays: string | null;
      completed: string | null;
      duration_ms: string | null;
      devices: number | null;
    }>(
      caller.db,
      sql`select ${ads.id} as id, agg.plays, agg.completed, agg.duration_ms, agg.devices
        from ${ads} left join ${perAdTotals(entId, from, to, adIn)} agg on agg.ad_id = ${ads.id}
        where ${where}
        order by ${sql.join(order, sql`, `)}
        limit ${size} offset ${(page - 1) * size}`,
    ),
    rows<{ total: number }>(caller.db, sql`select count(*)::int as total from ${ads} where ${where}`),
    // Ads of one material count a day's devices by its rows (perAdDay); an ad whose one material
    // was replaced within the range counts a device twice on the day of the change.
    Promise.all([
      perAdDay(caller.db, entId, withMaterials(adIn, true), from, to, true),
      perAdDay(caller.db, entId, withMaterials(adIn, false), from, to),
    ]).then(([one, many]) => [...one, ...many]),
    ExpectedModel.load(caller.db, entId, from, to),
  ]);
  const ids = pageRows.map((r) => r.id);
  const adRows = ids.length
    ? await caller.db
        .select({ ad: ads, planName: promotionPlans.name, planDefault: promotionPlans.isDefault })
        .from(ads)
        .leftJoin(promotionPlans, eq(promotionPlans.id, ads.planId))
        .where(inArray(ads.id, ids))
    : [];
  const byId = new Map(adRows.map((r) => [r.ad.id, r]));
  const daysOf = new Map<string, { plays: number; devices: number }[]>();
  for (const d of dayRows) {
    const list = daysOf.get(d.ad_id) ?? [];
    list.push({ plays: num(d.plays), devices: d.devices });
    daysOf.set(d.ad_id, list);
  }
  const data: AdReportRow[] = [];
  for (const r of pageRows) {
    const found = byId.get(r.id);
    if (!found) continue;
    const { ad, planName, planDefault } = found;
    const plays = num(r.plays);
    const expected = model.ofAd(ad.id).total;
    const rec = reconcile(expected, plays);
    data.push({
      adId: ad.id,
      number: padNumber(ad.number),
      name: ad.name,
      type: ad.type,
      status: statusOf(ad, caller.now),
      planName: planDefault ? AdText.defaultPlanName[lang(caller.language)] : (planName ?? ''),
      plays,
      completed: num(r.completed),
      durationMs: num(r.duration_ms),
      devices: num(r.devices),
      expected: rec.expected,
      deliveryPct: rec.deliveryPct,
      underDelivered: rec.underDelivered,
      fullRate: fullRateOfDays(daysOf.get(ad.id) ?? []),
    });
  }
  // The trend: every selected ad's plays and expected plays per day (the ads the model expects
  // plays of are the passed ones; those outside the filters are left out).
  const expectedIds = model.adIds();
  const selected = expectedIds.length
    ? await caller.db
        .select({ id: ads.id })
        .from(ads)
        .where(and(where, inArray(ads.id, expectedIds)))
    : [];
  const expectedByDay = new Map(model.days.map((d) => [d, 0]));
  for (const { id } of selected) {
    for (const [day, n] of model.ofAd(id).byDay) expectedByDay.set(day, (expectedByDay.get(day) ?? 0) + n);
  }
  const playsByDay = new Map<string, { plays: number; durationMs: number }>();
  for (const d of dayRows) {
    const p = playsByDay.get(d.day) ?? { plays: 0, durationMs: 0 };
    p.plays += num(d.plays);
    p.durationMs += num(d.duration_ms);
    playsByDay.set(d.day, p);
  }
  const trend = model.days.map((day) => ({
    day,
    plays: playsByDay.get(day)?.plays ?? 0,
    durationMs: playsByDay.get(day)?.durationMs ?? 0,
    expected: expectedByDay.get(day) ?? 0,
  }));
  return { from, to, total, data, trend };
}

/** One ad of the caller's scope (a deleted one too: its report stays), else NOT_FOUND. */
async function visibleAd(caller: ReportCaller, id: string) {
  const [row] = await caller.db
    .select({ ad: ads, planName: promotionPlans.name, planDefault: promotionPlans.isDefault })
    .from(ads)
    .leftJoin(promotionPlans, eq(promotionPlans.id, ads.planId))
    .where(and(scopeWhere(caller.user, adScope), eq(ads.id, id)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, AdText.notFound);
  return row;
}

export interface AdReportDetailInput {
  id: string;
  from?: string;
  to?: string;
  page?: number;
  size?: number;
  sort?: 'plays' | 'durationMs' | 'expected' | 'deliveryPct';
  order?: SortOrder;
  underOnly?: boolean;
}

/** report.adDetail: one ad's days, devices (paged), materials and hours. */
export async function adReportDetail(caller: ReportCaller, input: AdReportDetailInput): Promise<AdReportDetail> {
  const { ad, planName, planDefault } = await visibleAd(caller, input.id);
  const { from, to } = reportRange(caller.now.getTime(), input.from, input.to);
  const entId = caller.user.entId;
  const hoursFrom = new Date(
    Math.max(Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`) - (REPORT_HOURLY_DAYS - 1) * DAY_MS),
  )
    .toISOString()
    .slice(0, 10);
  const range = sql`ent_id = ${entId} and ad_id = ${ad.id} and day between ${from}::date and ${to}::date`;
  const [deviceMaterialRows, dayRows, hourRows, model] = await Promise.all([
    rows<{ device_id: string; material_id: string; plays: string; completed: string; duration_ms: string }>(
      caller.db,
      sql`select device_id, material_id, sum(plays)::bigint as plays, sum(completed)::bigint as completed,
            sum(duration_ms)::bigint as duration_ms
          from play_rollups_daily where ${range} group by device_id, material_id`,
    ),
    // One material (perAdDay): the day's rows are its devices.
    perAdDay(caller.db, entId, idList([ad.id]), from, to, ad.materialIds.length <= 1 && !ad.layoutId),
    rows<{ hour: number; plays: string }>(
      caller.db,
      sql`select hour, sum(plays)::bigint as plays from play_rollups_hourly
          where ent_id = ${entId} and ad_id = ${ad.id} and day between ${hoursFrom}::date and ${to}::date
          group by hour`,
    ),
    ExpectedModel.load(caller.db, entId, from, to),
  ]);
  const expected = model.ofAd(ad.id);
  // One scan per device and material: summed here per device and per material.
  const sumBy = (key: 'device_id' | 'material_id') => {
    const out = new Map<string, { plays: number; completed: number; durationMs: number }>();
    for (const r of deviceMaterialRows) {
      const k = r[key];
      const v = out.get(k) ?? { plays: 0, completed: 0, durationMs: 0 };
      v.plays += num(r.plays);
      v.completed += num(r.completed);
      v.durationMs += num(r.duration_ms);
      out.set(k, v);
    }
    return out;
  };
  const reported = sumBy('device_id');
  const byMaterial = sumBy('material_id');

  // Devices: those that played it and those the schedule expected it on.
  const deviceIds = new Set([...reported.keys(), ...expected.byDevice.keys()]);
  let table: AdReportDeviceRow[] = [...deviceIds].map((deviceId) => {
    const r = reported.get(deviceId);
    const rec = reconcile(expected.byDevice.get(deviceId) ?? 0, r?.plays ?? 0);
    return {
      deviceId,
      number: '',
      name: '',
      plays: rec.reported,
      durationMs: r?.durationMs ?? 0,
      expected: rec.expected,
      deliveryPct: rec.deliveryPct,
      underDelivered: rec.underDelivered,
    };
  });
  let totalPlays = 0;
  let totalCompleted = 0;
  let totalDuration = 0;
  for (const v of reported.values()) {
    totalPlays += v.plays;
    totalCompleted += v.completed;
    totalDuration += v.durationMs;
  }
  if (input.underOnly) table = table.filter((r) => r.underDelivered);
  const key = input.sort ?? 'plays';
  const dir = input.sort ? (input.order === 'desc' ? -1 : 1) : -1;
  table.sort((a, b) => {
    const va = a[key];
    const vb = b[key];
    if (va === null || vb === null) return va === vb ? a.deviceId.localeCompare(b.deviceId) : va === null ? 1 : -1;
    return (va - vb) * dir || a.deviceId.localeCompare(b.deviceId);
  });
  const page = input.page ?? 1;
  const size = input.size ?? 20;
  const pageRows = table.slice((page - 1) * size, page * size);
  if (pageRows.length > 0) {
    const names = await caller.db
      .select({ id: devices.id, number: devices.number, name: devices.name })
      .from(devices)
      .where(
        and(
          eq(devices.entId, entId),
          inArray(
            devices.id,
            pageRows.map((r) => r.deviceId),
          ),
        ),
      );
    const byId = new Map(names.map((n) => [n.id, n]));
    for (const r of pageRows) {
      r.number = byId.get(r.deviceId)?.number ?? '';
      r.name = byId.get(r.deviceId)?.name ?? '';
    }
  }

  const materialIds = [...byMaterial.keys()].filter(Boolean);
  const materialNames = materialIds.length
    ? await caller.db
        .select({ id: materials.id, name: materials.name })
        .from(materials)
        .where(and(eq(materials.entId, entId), inArray(materials.id, materialIds)))
    : [];
  const materialName = new Map(materialNames.map((m) => [m.id, m.name]));
  const dayOf = new Map(dayRows.map((d) => [d.day, d]));
  const days = model.days.map((day) => ({
    day,
    plays: num(dayOf.get(day)?.plays),
    durationMs: num(dayOf.get(day)?.duration_ms),
    devices: dayOf.get(day)?.devices ?? 0,
    expected: expected.byDay.get(day) ?? 0,
  }));
  const hourOf = new Map(hourRows.map((h) => [Number(h.hour), num(h.plays)]));
  const rec = reconcile(expected.total, totalPlays);
  return {
    ad: {
      id: ad.id,
      number: padNumber(ad.number),
      name: ad.name,
      type: ad.type,
      status: statusOf(ad, caller.now),
      planName: planDefault ? AdText.defaultPlanName[lang(caller.language)] : (planName ?? ''),
      startAt: ad.startAt.toISOString(),
      endAt: ad.endAt.toISOString(),
      strategy: ad.strategy,
      playsMin: ad.playsMin,
      playsMax: ad.playsMax,
    },
    from,
    to,
    totals: {
      plays: totalPlays,
      completed: totalCompleted,
      durationMs: totalDuration,
      devices: reported.size,
      expected: rec.expected,
      deliveryPct: rec.deliveryPct,
      underDelivered: rec.underDelivered,
      fullRate: fullRateOfDays(days),
    },
    days,
    devices: { total: table.length, data: pageRows },
    materials: [...byMaterial]
      .map(([materialId, m]) => ({
        materialId,
        name: materialName.get(materialId) ?? '',
        plays: m.plays,
        durationMs: m.durationMs,
      }))
      .sort((a, b) => b.plays - a.plays || a.materialId.localeCompare(b.materialId)),
    hours: Array.from({ length: 24 }, (_, hour) => ({ hour, plays: hourOf.get(hour) ?? 0 })),
    hoursFrom,
  };
}

export interface DeviceScheduleInput {
  page?: number;
  size?: number;
  keyword?: string;
  deptId?: string;
  from?: string;
  to?: string;
  underFirst?: boolean;
}

/** Most devices one schedule report reads (a filter narrows a larger fleet). */
export const DEVICE_SCHEDULE_MAX_DEVICES = 5000;

/**
 * report.deviceSchedule: per device of the caller's scope and day, the ads scheduled on it
 * (expected plays) against what it played (reported plays), by device number then day; with
 * `underFirst`, the under-delivered device-days first (lowest delivery first).
 */
export async function deviceScheduleReport(
  caller: ReportCaller,
  input: DeviceScheduleInput,
): Promise<{ from: string; to: string; total: number; data: DeviceScheduleRow[] }> {
  const { from, to } = reportRange(caller.now.getTime(), input.from, input.to);
  const entId = caller.user.entId;
  const days = daysBetween(from, to);
  const where = await deviceListWhere(
    caller.db,
    caller.user,
    { keyword: input.keyword, deptId: input.deptId },
    caller.now,
  );
  const list = await caller.db
    .select({ id: devices.id, number: devices.number, name: devices.name, deptName: departments.name })
    .from(devices)
    .leftJoin(departments, eq(departments.id, devices.deptId))
    .where(where)
    .orderBy(asc(devices.number), asc(devices.id))
    .limit(DEVICE_SCHEDULE_MAX_DEVICES);
  const page = input.page ?? 1;
  const size = input.size ?? DEFAULT_PAGE_SIZE;
  const total = list.length * days.length;
  // Without underFirst only the page's devices are computed (rows go device by device, day by day).
  const picked = input.underFirst
    ? list
    : list.slice(Math.floor(((page - 1) * size) / days.length), Math.ceil((page * size) / days.length));
  if (picked.length === 0) return { from, to, total, data: [] };
  const ids = picked.map((d) => d.id);
  const [model, played] = await Promise.all([
    ExpectedModel.load(caller.db, entId, from, to, deviceIn(ids)),
    rows<{ device_id: string; day: string; ad_id: string; plays: string }>(
      caller.db,
      sql`select device_id, day::text as day, ad_id, sum(plays)::bigint as plays
          from play_rollups_daily
          where ent_id = ${entId} and day between ${from}::date and ${to}::date and ad_id <> ''
            and device_id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})
          group by device_id, day, ad_id`,
    ),
  ]);
  const playedOf = new Map<string, Map<string, number>>();
  for (const p of played) {
    const k = `${p.device_id}|${p.day}`;
    const m = playedOf.get(k) ?? new Map<string, number>();
    m.set(p.ad_id, num(p.plays));
    playedOf.set(k, m);
  }
  const all: DeviceScheduleRow[] = [];
  for (const d of picked) {
    for (const day of days) {
      const exp = model.onDeviceDay(d.id, day);
      const rep = playedOf.get(`${d.id}|${day}`) ?? new Map<string, number>();
      const adIds = [...new Set([...exp.keys(), ...rep.keys()])];
      const adsOfDay = adIds.map((adId) => ({
        adId,
        number: '',
        name: '',
        expected: exp.get(adId) ?? 0,
        reported: rep.get(adId) ?? 0,
      }));
      const rec = reconcile(
        adsOfDay.reduce((s, a) => s + a.expected, 0),
        adsOfDay.reduce((s, a) => s + a.reported, 0),
      );
      all.push({
        deviceId: d.id,
        number: d.number ?? '',
        name: d.name,
        deptName: d.deptName ?? '',
        day,
        reported: rec.reported,
        expected: rec.expected,
        deliveryPct: rec.deliveryPct,
        underDelivered: rec.underDelivered,
        ads: adsOfDay,
      });
    }
  }
  let pageRows: DeviceScheduleRow[];
  if (input.underFirst) {
    const rank = (r: DeviceScheduleRow) => (r.underDelivered ? 0 : 1);
    all.sort((a, b) => rank(a) - rank(b) || (a.deliveryPct ?? 1e9) - (b.deliveryPct ?? 1e9));
    pageRows = all.slice((page - 1) * size, page * size);
  } else {
    const offset = (page - 1) * size - Math.floor(((page - 1) * size) / days.length) * days.length;
    pageRows = all.slice(offset, offset + size);
  }
  const adIds = [...new Set(pageRows.flatMap((r) => r.ads.map((a) => a.adId)))];
  if (adIds.length > 0) {
    const names = await caller.db
      .select({ id: ads.id, number: ads.number, name: ads.name })
      .from(ads)
      .where(and(eq(ads.entId, entId), inArray(ads.id, adIds)));
    const byId = new Map(names.map((n) => [n.id, n]));
    for (const r of pageRows) {
      for (const a of r.ads) {
        const n = byId.get(a.adId);
        a.number = n ? padNumber(n.number) : '';
        a.name = n?.name ?? '';
      }
    }
  }
  return { from, to, total, data: pageRows };
}
