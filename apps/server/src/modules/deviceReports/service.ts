import {
  type DeviceReportRow,
  dayBounds,
  ErrorCode,
  type ExportStatus,
  nextDay,
  REPORT_MAX_DAYS,
  wallClock,
} from '@marquee/protocol';
import { and, count, desc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { ScopeSubject } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  ads,
  departments,
  deviceDownloads,
  deviceManifestDownloads,
  deviceStatusHistory,
  devices,
  playRollupsAdDaily,
  playRollupsDaily,
} from '../../db/schema/index.js';
import { newestFirst } from '../../db/sort.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { deviceListWhere } from '../devices/service.js';
import { registerStat } from '../home/stats.js';
import { beginExport, exportDownload, exportFileName, exportStatus } from '../operationLog/service.js';
import { dateRange, datesOf } from '../scheduling/playlist.js';
import { adNumber } from '../scheduling/pushes.js';
import { PushText } from '../scheduling/texts.js';
import { reportZone } from '../timeZones/service.js';
import { fullRate } from './fullRate.js';

// Home page figure: the plays on the screens the caller sees, per day of the enterprise's
// report zone (the rollups' days, issue 31), today included. The enterprise's whole fleet reads
// the per-ad daily sums (a row per ad and day); a data scope sums its devices' daily rows.
registerStat({
  key: 'plays',
  async trend(db, caller, window) {
    const { timeZone } = await reportZone(db, caller.entId);
    const from = nextDay(wallClock(window.now, timeZone).day, -(window.days - 1));
    const rows =
      caller.dataScope === 'all'
        ? await db
            .select({ day: playRollupsAdDaily.day, n: sql<number>`sum(${playRollupsAdDaily.plays})`.mapWith(Number) })
            .from(playRollupsAdDaily)
            .where(and(eq(playRollupsAdDaily.entId, caller.entId), gte(playRollupsAdDaily.day, from)))
            .groupBy(playRollupsAdDaily.day)
        : await db
            .select({ day: playRollupsDaily.day, n: sql<number>`sum(${playRollupsDaily.plays})`.mapWith(Number) })
            .from(playRollupsDaily)
            .where(
              and(
                gte(playRollupsDaily.day, from),
                inArray(
                  playRollupsDaily.deviceId,
                  db
                    .select({ id: devices.id })
                    .from(devices)
                    .where(await deviceListWhere(db, caller, {}, window.now)),
                ),
              ),
            )
            .groupBy(playRollupsDaily.day);
    const counts = new Map(rows.map((r) => [r.day, r.n]));
    return Array.from({ length: window.days }, (_, i) => {
      const date = nextDay(from, i);
      return { date, value: counts.get(date) ?? 0 };
    });
  },
});

/**
 * Device reports (issue 13, /report/device and /report/deviceDetail), per device over a range
 * of UTC days:
 * - online time: the device's presence history (device_status_history) as intervals, clipped
 *   to the range and to now;
 * - plays, completed plays, play time and distinct ads: the daily play rollups, never the raw plays;
 * - downloads: the device's own reported download states (device_downloads, docs/device-protocol.md
 *   2.7.1): the materials whose download succeeded, and those whose download failed, counted on the
 *   day of their latest change (a material downloaded again counts on its new day), and the mean
 *   time the device took to download a manifest it completed in the range (device_manifest_downloads,
 *   from its first report of fetching it to its switch; a manifest with nothing to fetch not counted);
 * - full rate (spec section 9) over the days it was online or played.
 */

export const DEFAULT_REPORT_DAYS = 7;

export interface ReportRange {
  from: string;
  to: string;
  /** The zone of the days (the enterprise's report zone, issue 31; absent in an export saved before: UTC). */
  timeZone?: string;
  zoneSince?: string | null;
}

/**
 * The range asked, by default the 7 days up to today, at most REPORT_MAX_DAYS: days of the
 * enterprise's report zone (its rollups').
 */
export async function rangeOf(
  db: Executor,
  entId: string,
  input: { from?: string; to?: string },
  now: Date,
): Promise<Required<ReportRange>> {
  const zone = await reportZone(db, entId);
  const range = dateRange(input, wallClock(now, zone.timeZone).day, {
    days: DEFAULT_REPORT_DAYS,
    max: REPORT_MAX_DAYS,
    back: true,
  });
  return { from: range.from, to: range.to, ...zone };
}

export interface DayFigures {
  day: string;
  onlineSec: number;
  plays: number;
  completed: number;
  playMs: number;
  ads: number;
  downloads: number;
  downloadsFailed: number;
}

export interface DeviceFigures {
  days: Map<string, DayFigures>;
  ads: number;
  /** Mean seconds to download a manifest completed in the range; null: none measured. */
  downloadSec: number | null;
}

/**
 * The seconds of [from, to) a device was online, per day of `zone`, from its presence changes
 * (`before`: the last change before `from`, if any; `changes` those within, oldest first).
 */
export function onlineByDay(
  before: { status: string } | undefined,
  changes: readonly { status: string; at: Date }[],
  from: number,
  to: number,
  zone = 'UTC',
): Map<string, number> {
  const out = new Map<string, number>();
  const add = (a: number, b: number) => {
    for (let t = a; t < b; ) {
      const day = wallClock(t, zone).day;
      const end = Math.min(b, dayBounds(day, zone)[1]);
      out.set(day, (out.get(day) ?? 0) + (end - t) / 1000);
      t = end;
    }
  };
  let online = before?.status === 'online';
  let cursor = from;
  for (const change of changes) {
    const at = Math.min(Math.max(change.at.getTime(), from), to);
    if (online && at > cursor) add(cursor, at);
    online = change.status === 'online';
    cursor = Math.max(cursor, at);
  }
  if (online && to > cursor) add(cursor, to);
  for (const [day, sec] of out) out.set(day, Math.round(sec));
  return out;
}

/** Every figure of the devices over the range, per device and day. */
export async function figuresOf(
  db: Executor,
  entId: string,
  deviceIds: readonly string[],
  range: ReportRange,
  now: Date,
): Promise<Map<string, DeviceFigures>> {
  const out = new Map<string, DeviceFigures>();
  if (deviceIds.length === 0) return out;
  const ids = [...deviceIds];
  const days = datesOf(range.from, range.to);
  for (const id of ids) {
    out.set(id, {
      days: new Map(
        days.map((day) => [
          day,
          { day, onlineSec: 0, plays: 0, completed: 0, playMs: 0, ads: 0, downloads: 0, downloadsFailed: 0 },
        ]),
      ),
      ads: 0,
      downloadSec: null,
    });
  }
  const zone = range.timeZone ?? 'UTC';
  const start = new Date(dayBounds(range.from, zone)[0]);
  const rangeEnd = new Date(dayBounds(range.to, zone)[1]);
  const end = new Date(Math.min(rangeEnd.getTime(), now.getTime()));
  const [before, changes, plays, distinct, downloads, downloadTimes] = await Promise.all([
    db
      .selectDistinctOn([deviceStatusHistory.deviceId], {
        deviceId: deviceStatusHistory.deviceId,
        status: deviceStatusHistory.status,
      })
      .from(deviceStatusHistory)
      .where(and(inArray(deviceStatusHistory.deviceId, ids), lt(deviceStatusHistory.at, start)))
      .orderBy(deviceStatusHistory.deviceId, desc(deviceStatusHistory.at), desc(deviceStatusHistory.id)),
    db
      .select({
        deviceId: deviceStatusHistory.deviceId,
        status: deviceStatusHistory.status,
        at: deviceStatusHistory.at,
      })
      .from(deviceStatusHistory)
      .where(
        and(
          inArray(deviceStatusHistory.deviceId, ids),
          gte(deviceStatusHistory.at, start),
          lt(deviceStatusHistory.at, end),
        ),
      )
      .orderBy(deviceStatusHistory.at, deviceStatusHistory.id),
    db
      .select({
        deviceId: playRollupsDaily.deviceId,
        day: playRollupsDaily.day,
        plays: sql<number>`sum(${playRollupsDaily.plays})`.mapWith(Number),
        completed: sql<number>`sum(${playRollupsDaily.completed})`.mapWith(Number),
        playMs: sql<number>`sum(${playRollupsDaily.durationMs})`.mapWith(Number),
        ads: sql<number>`count(distinct ${playRollupsDaily.adId}) filter (where ${playRollupsDaily.adId} <> '')`.mapWith(
          Number,
        ),
      })
      .from(playRollupsDaily)
      .where(rollupWhere(entId, ids, range))
      .groupBy(playRollupsDaily.deviceId, playRollupsDaily.day),
    db
      .select({
        deviceId: playRollupsDaily.deviceId,
        ads: sql<number>`count(distinct ${playRollupsDaily.adId}) filter (where ${playRollupsDaily.adId} <> '')`.mapWith(
          Number,
        ),
      })
      .from(playRollupsDaily)
      .where(rollupWhere(entId, ids, range))
      .groupBy(playRollupsDaily.deviceId),
    db
      .select({
        deviceId: deviceDownloads.deviceId,
        day: sql<string>`to_char(${deviceDownloads.changedAt} at time zone ${zone}, 'YYYY-MM-DD')`,
        ok: sql<number>`count(*) filter (where ${deviceDownloads.state} = 'successful')`.mapWith(Number),
        failed: sql<number>`count(*) filter (where ${deviceDownloads.state} = 'failed')`.mapWith(Number),
      })
      .from(deviceDownloads)
      .where(
        and(
          eq(deviceDownloads.entId, entId),
          inArray(deviceDownloads.deviceId, ids),
          inArray(deviceDownloads.state, ['successful', 'failed']),
          gte(deviceDownloads.changedAt, start),
          lt(deviceDownloads.changedAt, rangeEnd),
        ),
      )
      .groupBy(deviceDownloads.deviceId, sql`2`),
    db
      .select({
        deviceId: deviceManifestDownloads.deviceId,
        sec: sql<number>`avg(extract(epoch from ${deviceManifestDownloads.completedAt} - ${deviceManifestDownloads.startedAt}))`.mapWith(
          Number,
        ),
      })
      .from(deviceManifestDownloads)
      .where(
        and(
          eq(deviceManifestDownloads.entId, entId),
          inArray(deviceManifestDownloads.deviceId, ids),
          gte(deviceManifestDownloads.completedAt, start),
          lt(deviceManifestDownloads.completedAt, rangeEnd),
          sql`${deviceManifestDownloads.completedAt} > ${deviceManifestDownloads.startedAt}`,
        ),
      )
      .groupBy(deviceManifestDownloads.deviceId),
  ]);
  const priorOf = new Map(before.map((r) => [r.deviceId, r]));
  const changesOf = new Map<string, { status: string; at: Date }[]>();
  for (const c of changes) changesOf.set(c.deviceId, [...(changesOf.get(c.deviceId) ?? []), c]);
  for (const id of ids) {
    const figures = out.get(id);
    if (!figures || end <= start) continue;
    for (const [day, sec] of onlineByDay(
      priorOf.get(id),
      changesOf.get(id) ?? [],
      start.getTime(),
      end.getTime(),
      zone,
    )) {
      const d = figures.days.get(day);
      if (d) d.onlineSec += sec;
    }
  }
  for (const p of plays) {
    const d = out.get(p.deviceId)?.days.get(p.day);
    if (d) Object.assign(d, { plays: p.plays, completed: p.completed, playMs: p.playMs, ads: p.ads });
  }
  for (const r of distinct) {
    const f = out.get(r.deviceId);
    if (f) f.ads = r.ads;
  }
  for (const r of downloads) {
    const d = out.get(r.deviceId)?.days.get(r.day);
    if (d) Object.assign(d, { downloads: r.ok, downloadsFailed: r.failed });
  }
  for (const r of downloadTimes) {
    const f = out.get(r.deviceId);
    if (f && Number.isFinite(r.sec)) f.downloadSec = Math.round(r.sec);
  }
  return out;
}

function rollupWhere(entId: string, ids: string[], range: ReportRange): SQL {
  return and(
    eq(playRollupsDaily.entId, entId),
    inArray(playRollupsDaily.deviceId, ids),
    gte(playRollupsDaily.day, range.from),
    lte(playRollupsDaily.day, range.to),
  ) as SQL;
}

/** A device's report row from its figures. */
export function reportRow(
  device: { id: string; number: string | null; name: string; deptName: string | null },
  figures: DeviceFigures | undefined,
  fullCount: number,
): DeviceReportRow {
  const days = [...(figures?.days.values() ?? [])];
  const sum = (k: keyof Omit<DayFigures, 'day'>) => days.reduce((a, d) => a + d[k], 0);
  const valid = days.filter((d) => d.onlineSec > 0 || d.plays > 0);
  return {
    deviceId: device.id,
    number: device.number,
    name: device.name,
    deptName: device.deptName ?? '',
    onlineSec: sum('onlineSec'),
    plays: sum('plays'),
    completed: sum('completed'),
    playMs: sum('playMs'),
    ads: figures?.ads ?? 0,
    downloads: sum('downloads'),
    downloadsFailed: sum('downloadsFailed'),
    downloadSec: figures?.downloadSec ?? null,
    fullRate: fullRate(
      valid.map((d) => d.ads),
      fullCount,
    ),
  };
}

export interface DeviceReportFilter {
  from?: string;
  to?: string;
  keyword?: string;
  deptId?: string;
  groupId?: string;
  fullCount?: number;
}

/** The devices of the report: the caller's, filtered as the device list is. */
export function reportDeviceWhere(db: Executor, subject: ScopeSubject, filter: DeviceReportFilter, now: Date) {
  return deviceListWhere(db, subject, { keyword: filter.keyword, deptId: filter.deptId, groupId: filter.groupId }, now);
}

/** A page of report rows of the devices matching `where`, newest first. */
export async function reportPage(
  db: Executor,
  entId: string,
  where: SQL,
  range: ReportRange,
  fullCount: number,
  now: Date,
  page: { limit: number; offset: number },
): Promise<DeviceReportRow[]> {
  const rows = await db
    .select({ id: devices.id, number: devices.number, name: devices.name, deptName: departments.name })
    .from(devices)
    .leftJoin(departments, eq(departments.id, devices.deptId))
    .where(where)
    .orderBy(...newestFirst(devices.createdAt, devices.id))
    .limit(page.limit)
    .offset(page.offset);
  const figures = await figuresOf(
    db,
    entId,
    rows.map((r) => r.id),
    range,
    now,
  );
  return rows.map((r) => reportRow(r, figures.get(r.id), fullCount));
}

/** report.deviceList: a page of the devices in the caller's scope with their figures over the range. */
export async function deviceReportList(input: DeviceReportFilter & { page: number; size: number }, ctx: CallContext) {
  const range = await rangeOf(ctx.db, ctx.user.entId, input, ctx.now);
  const where = await reportDeviceWhere(ctx.db, ctx.user, input, ctx.now);
  const [[{ total }], data] = await Promise.all([
    ctx.db.select({ total: count() }).from(devices).where(where),
    reportPage(ctx.db, ctx.user.entId, where, range, input.fullCount ?? 8, ctx.now, {
      limit: input.size,
      offset: (input.page - 1) * input.size,
    }),
  ]);
  return { ...range, total, data };
}

/** report.deviceDetail: one visible device's figures per day and per ad over the range. */
export async function deviceReportDetail(
  input: { id: string; from?: string; to?: string; fullCount?: number },
  ctx: CallContext,
) {
  const range = await rangeOf(ctx.db, ctx.user.entId, input, ctx.now);
  const where = and(await reportDeviceWhere(ctx.db, ctx.user, {}, ctx.now), eq(devices.id, input.id)) as SQL;
  const [device] = await reportPage(ctx.db, ctx.user.entId, where, range, input.fullCount ?? 8, ctx.now, {
    limit: 1,
    offset: 0,
  });
  if (!device) throw new AppError(ErrorCode.NOT_FOUND, PushText.deviceNotFound);
  const figures = await figuresOf(ctx.db, ctx.user.entId, [device.deviceId], range, ctx.now);
  const perAd = await ctx.db
    .select({
      adId: playRollupsDaily.adId,
      adNumber: ads.number,
      adName: ads.name,
      plays: sql<number>`sum(${playRollupsDaily.plays})`.mapWith(Number),
      completed: sql<number>`sum(${playRollupsDaily.completed})`.mapWith(Number),
      playMs: sql<number>`sum(${playRollupsDaily.durationMs})`.mapWith(Number),
      days: sql<number>`count(distinct ${playRollupsDaily.day})`.mapWith(Number),
    })
    .from(playRollupsDaily)
    .leftJoin(ads, eq(ads.id, playRollupsDaily.adId))
    .where(and(rollupWhere(ctx.user.entId, [device.deviceId], range), sql`${playRollupsDaily.adId} <> ''`))
    .groupBy(playRollupsDaily.adId, ads.number, ads.name)
    .orderBy(desc(sql`4`), playRollupsDaily.adId);
  return {
    ...range,
    device,
    days: [...(figures.get(device.deviceId)?.days.values() ?? [])].map((d) => ({
      day: d.day,
      onlineSec: d.onlineSec,
      plays: d.plays,
      playMs: d.playMs,
      ads: d.ads,
      downloads: d.downloads,
      downloadsFailed: d.downloadsFailed,
    })),
    ads: perAd.map((a) => ({
      adId: a.adId,
      adNumber: adNumber(a.adNumber),
      adName: a.adName ?? '',
      plays: a.plays,
      completed: a.completed,
      playMs: a.playMs,
      days: a.days,
    })),
  };
}

export const DEVICE_REPORT_EXPORT_KIND = 'deviceReport';

/** What the device report export reads back: the caller's scope, the filters and the range at the start. */
export interface DeviceReportExportSpec {
  subject: ScopeSubject;
  filter: DeviceReportFilter;
  range: ReportRange;
  until: string;
  language: string;
}

/** report.deviceExportStart: the report of every device matching the filters, as an Excel workbook. */
export async function startDeviceReportExport(filter: DeviceReportFilter, ctx: CallContext): Promise<ExportStatus> {
  const u = ctx.user;
  const spec: DeviceReportExportSpec = {
    subject: { entId: u.entId, accountId: u.accountId, deptId: u.deptId, deptPath: u.deptPath, dataScope: u.dataScope },
    filter,
    range: await rangeOf(ctx.db, u.entId, filter, ctx.now),
    until: ctx.now.toISOString(),
    language: ctx.language,
  };
  return beginExport(ctx, {
    kind: DEVICE_REPORT_EXPORT_KIND,
    filters: spec as unknown as Record<string, unknown> & { language: string },
    fileName: exportFileName('device-report', ctx.now),
    count: async () => {
      const [row] = await ctx.db
        .select({ n: count() })
        .from(devices)
        .where(and(await reportDeviceWhere(ctx.db, spec.subject, filter, ctx.now), lte(devices.createdAt, ctx.now)));
      return row.n;
    },
    module: 'report',
    detail: { filter },
  });
}

export const deviceReportExportStatus = (input: { exportId: string }, ctx: CallContext) =>
  exportStatus(input, ctx, DEVICE_REPORT_EXPORT_KIND);
export const deviceReportExportDownload = (input: { exportId: string }, ctx: CallContext) =>
  exportDownload(input, ctx, DEVICE_REPORT_EXPORT_KIND);
