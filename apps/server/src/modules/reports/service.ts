import {
  type AdReportDetail,
  type AdReportDeviceRow,
  type AdReportDevices,
  type AdReportList,
  type AdReportRow,
  DEFAULT_PAGE_SIZE,
  type DeviceScheduleRow,
  daysBetween,
  ErrorCode,
  type endpoints,
  fullRate,
  REPORT_HOURLY_DAYS,
  reconcile,
  reportRange,
} from '@marquee/protocol';
import { and, asc, eq, ilike, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type ScopeSubject, scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { ads, departments, devices, materials, promotionPlans } from '../../db/schema/index.js';
import { listOrder, newestFirst } from '../../db/sort.js';
import { AppError } from '../../protocol/appError.js';
import { adScope } from '../ads/scope.js';
import { statusOf } from '../ads/service.js';
import { AdText } from '../ads/texts.js';
import { deviceListWhere } from '../devices/service.js';
import { reportZone } from '../timeZones/service.js';
import { deviceIn, ExpectedModel } from './expected.js';

/**
 * The ad and device-schedule reports (issue 13): the ad reports' headline figures, days and
 * trend and hourly profile from the ad-daily rollups, an ad's devices and materials from the
 * daily ones, expected plays from the schedule (expected.ts), the
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

/** The list's request, its page optional: an export (exportSource.ts) passes its filters and reads its own pages. */
export type AdReportListInput = z.infer<typeof endpoints.reportAdListExportStart.request> &
  Partial<Pick<z.infer<typeof endpoints.reportAdList.request>, 'page' | 'size'>>;

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

/**
 * Plays per ad over the range (of the ads `adIn` selects), from the ad-daily rollups: totals,
 * and the most devices that played it on one day.
 */
function perAdTotals(entId: string, from: string, to: string, adIn: SQL): SQL {
  return sql`(select ad_id, sum(plays)::bigint as plays, sum(completed)::bigint as completed,
      sum(duration_ms)::bigint as duration_ms, max(devices)::int as devices
    from play_rollups_ad_daily
    where ent_id = ${entId} and ad_id in ${adIn} and day between ${from}::date and ${to}::date
    group by ad_id)`;
}

/**
 * Per ad and day (of the ads `adIn` selects): the ad-daily rollup rows of the range; with
 * `hoursFrom`, the plays per hour of the days from then on (else null).
 */
async function perAdDay(db: Executor, entId: string, adIn: SQL, from: string, to: string, hoursFrom?: string) {
  return rows<{
    ad_id: string;
    day: string;
    plays: string;
    completed: string;
    duration_ms: string;
    devices: number;
    hour_plays: number[] | null;
  }>(
    db,
    sql`select ad_id, day::text as day, plays, completed, duration_ms, devices,
          ${hoursFrom ? sql`case when day >= ${hoursFrom}::date then hour_plays end` : sql`null::int[]`} as hour_plays
        from play_rollups_ad_daily
        where ent_id = ${entId} and ad_id in ${adIn} and day between ${from}::date and ${to}::date`,
  );
}

/** Spec section 9 over an ad's days: each day's count is its plays per device that played. */
const fullRateOfDays = (days: readonly { plays: number; devices: number }[]) =>
  fullRate(days.map((d) => (d.devices > 0 ? d.plays / d.devices : 0)));

/** report.adList: per ad in the caller's scope, the range's figures, paged and sorted. */
export async function adReportList(caller: ReportCaller, input: AdReportListInput): Promise<AdReportList> {
  const entId = caller.user.entId;
  const zone = await reportZone(caller.db, entId);
  const { from, to } = reportRange(caller.now.getTime(), input.from, input.to, zone.timeZone);
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
    newestFirst(ads.createdAt, ads.id),
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
    perAdDay(caller.db, entId, adIn, from, to),
    ExpectedModel.load(caller.db, entId, from, to, caller.now),
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
  return { from, to, ...zone, total, data, trend };
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

export type AdReportDetailInput = z.infer<typeof endpoints.reportAdDetail.request>;

/** The first day the hourly profile reads: the range's last REPORT_HOURLY_DAYS. */
function hoursFromOf(from: string, to: string): string {
  return new Date(
    Math.max(Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`) - (REPORT_HOURLY_DAYS - 1) * DAY_MS),
  )
    .toISOString()
    .slice(0, 10);
}

/**
 * report.adDetail: one ad's totals, days and hours (from the ad-daily rollups) and materials.
 * The per-device table is report.adDevices.
 */
export async function adReportDetail(caller: ReportCaller, input: AdReportDetailInput): Promise<AdReportDetail> {
  const { ad, planName, planDefault } = await visibleAd(caller, input.id);
  const entId = caller.user.entId;
  const zone = await reportZone(caller.db, entId);
  const { from, to } = reportRange(caller.now.getTime(), input.from, input.to, zone.timeZone);
  const hoursFrom = hoursFromOf(from, to);
  // An ad of one material (and no layout) plays that material: its totals are the material's,
  // without reading the devices' rows (one replaced within the range shows as the current one).
  const oneMaterial = ad.materialIds.length <= 1 && !ad.layoutId;
  const [dayRows, materialRows, model] = await Promise.all([
    perAdDay(caller.db, entId, sql`(${ad.id})`, from, to, hoursFrom),
    oneMaterial
      ? Promise.resolve(null)
      : rows<{ material_id: string; plays: string; duration_ms: string }>(
          caller.db,
          sql`select material_id, sum(plays)::bigint as plays, sum(duration_ms)::bigint as duration_ms
            from play_rollups_daily
            where ent_id = ${entId} and ad_id = ${ad.id} and day between ${from}::date and ${to}::date
            group by material_id`,
        ),
    ExpectedModel.load(caller.db, entId, from, to, caller.now),
  ]);
  const expected = model.ofAd(ad.id);
  const hourPlays = Array.from({ length: 24 }, () => 0);
  let totalPlays = 0;
  let totalCompleted = 0;
  let totalDuration = 0;
  let peakDevices = 0;
  for (const d of dayRows) {
    totalPlays += num(d.plays);
    totalCompleted += num(d.completed);
    totalDuration += num(d.duration_ms);
    peakDevices = Math.max(peakDevices, d.devices);
    d.hour_plays?.forEach((n, hour) => {
      hourPlays[hour] += num(n);
    });
  }
  const byMaterial =
    materialRows?.map((m) => ({ materialId: m.material_id, plays: num(m.plays), durationMs: num(m.duration_ms) })) ??
    (totalPlays > 0 ? [{ materialId: ad.materialIds[0] ?? '', plays: totalPlays, durationMs: totalDuration }] : []);
  const materialIds = byMaterial.map((m) => m.materialId).filter(Boolean);
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
    ...zone,
    totals: {
      plays: totalPlays,
      completed: totalCompleted,
      durationMs: totalDuration,
      devices: peakDevices,
      expected: rec.expected,
      deliveryPct: rec.deliveryPct,
      underDelivered: rec.underDelivered,
      fullRate: fullRateOfDays(days),
    },
    days,
    materials: byMaterial
      .map((m) => ({ ...m, name: materialName.get(m.materialId) ?? '' }))
      .sort((a, b) => b.plays - a.plays || a.materialId.localeCompare(b.materialId)),
    hours: hourPlays.map((plays, hour) => ({ hour, plays })),
    hoursFrom,
  };
}

/** The detail's request with the device table's page, sort and filter, optional (the detail's export passes none). */
export type AdReportDevicesInput = AdReportDetailInput & Partial<z.infer<typeof endpoints.reportAdDevices.request>>;

/**
 * One ad's plays and play time per device over [from, to], from the per-ad, per-device
 * rollups (issue 25), never the daily ones: the devices it played on (play_rollups_ad_device),
 * each one's totals when the range covers all its days, else its running totals at the
 * range's last day minus those of the day before its first (play_rollups_ad_device_daily).
 * A boundary day's running totals of all the devices are one index range of that day; a device
 * without a row that day is probed for its last day before. A device with plays only outside
 * the range answers 0.
 */
export function adDeviceTotals(db: Executor, entId: string, adId: string, from: string, to: string) {
  const hiDay = sql`${to}::date`;
  const loDay = sql`(${from}::date - 1)`;
  const upTo = (alias: string, day: SQL, cut: SQL) => {
    const t = sql.raw(alias);
    const p = sql.raw(`${alias}p`);
    return sql`left join play_rollups_ad_device_daily ${t}
        on ${t}.ent_id = ${entId} and ${t}.ad_id = ${adId} and ${t}.day = ${day} and ${t}.device_id = a.device_id
          and ${cut}
      left join lateral (
        select q.cum_plays, q.cum_duration_ms from play_rollups_ad_device_daily q
        where ${t}.device_id is null and ${cut}
          and q.ent_id = a.ent_id and q.ad_id = a.ad_id and q.device_id = a.device_id and q.day < ${day}
        order by q.day desc limit 1) ${p} on true`;
  };
  return rows<{ device_id: string; plays: string; duration_ms: string }>(
    db,
    sql`select a.device_id,
          (case when a.last_day <= ${hiDay} then a.plays else coalesce(hi.cum_plays, hip.cum_plays, 0) end)
            - (case when a.first_day > ${loDay} then 0 else coalesce(lo.cum_plays, lop.cum_plays, 0) end) as plays,
          (case when a.last_day <= ${hiDay} then a.duration_ms
                else coalesce(hi.cum_duration_ms, hip.cum_duration_ms, 0) end)
            - (case when a.first_day > ${loDay} then 0
                    else coalesce(lo.cum_duration_ms, lop.cum_duration_ms, 0) end) as duration_ms
        from play_rollups_ad_device a
        ${upTo('hi', hiDay, sql`a.last_day > ${hiDay}`)}
        ${upTo('lo', loDay, sql`a.first_day <= ${loDay}`)}
        where a.ent_id = ${entId} and a.ad_id = ${adId}
          and a.first_day <= ${hiDay} and a.last_day > ${loDay}`,
  );
}

/**
 * report.adDevices: one ad's devices over the range, those that played it and those the
 * schedule expected it on, with their delivery; paged, sorted (plays, most first, by default),
 * optionally only the under-delivered ones.
 */
export async function adReportDevices(caller: ReportCaller, input: AdReportDevicesInput): Promise<AdReportDevices> {
  const { ad } = await visibleAd(caller, input.id);
  const entId = caller.user.entId;
  const zone = await reportZone(caller.db, entId);
  const { from, to } = reportRange(caller.now.getTime(), input.from, input.to, zone.timeZone);
  const [deviceRows, model] = await Promise.all([
    adDeviceTotals(caller.db, entId, ad.id, from, to),
    ExpectedModel.load(caller.db, entId, from, to, caller.now),
  ]);
  const expected = model.ofAd(ad.id);
  const reported = new Map(deviceRows.filter((r) => num(r.plays) > 0).map((r) => [r.device_id, r]));
  const deviceIds = new Set([...reported.keys(), ...expected.byDevice.keys()]);
  let table: AdReportDeviceRow[] = [...deviceIds].map((deviceId) => {
    const r = reported.get(deviceId);
    const rec = reconcile(expected.byDevice.get(deviceId) ?? 0, num(r?.plays));
    return {
      deviceId,
      number: '',
      name: '',
      plays: rec.reported,
      durationMs: num(r?.duration_ms),
      expected: rec.expected,
      deliveryPct: rec.deliveryPct,
      underDelivered: rec.underDelivered,
    };
  });
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
  return { from, to, ...zone, total: table.length, data: pageRows };
}

/** The report's request, its page optional: an export passes its filters and reads its own pages. */
export type DeviceScheduleInput = z.infer<typeof endpoints.reportDeviceScheduleExportStart.request> &
  Partial<Pick<z.infer<typeof endpoints.reportDeviceSchedule.request>, 'page' | 'size'>>;

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
): Promise<{
  from: string;
  to: string;
  timeZone: string;
  zoneSince: string | null;
  total: number;
  data: DeviceScheduleRow[];
}> {
  const entId = caller.user.entId;
  const zone = await reportZone(caller.db, entId);
  const { from, to } = reportRange(caller.now.getTime(), input.from, input.to, zone.timeZone);
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
  if (picked.length === 0) return { from, to, ...zone, total, data: [] };
  const ids = picked.map((d) => d.id);
  const [model, played] = await Promise.all([
    ExpectedModel.load(caller.db, entId, from, to, caller.now, deviceIn(ids)),
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
  return { from, to, ...zone, total, data: pageRows };
}
