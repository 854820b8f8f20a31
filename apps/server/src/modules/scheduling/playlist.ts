import {
  type AdRole,
  ErrorCode,
  nextDay,
  PLAN_MAX_DAYS,
  type PlanBar,
  type PlaylistEntry,
  wallClock,
  zonedDayStart,
} from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import { ads, devicePlaylistOrders, devices } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { adContent, playlistOrderOf } from '../ads/schedule.js';
import { requestContentSync } from '../content/service.js';
import { currentLayoutProvider } from '../content/sources.js';
import { combinedDownload, downloadsOf } from '../devices/downloads.js';
import { deviceManageScope, deviceScope } from '../devices/repository.js';
import { loadManaged } from '../devices/service.js';
import { deviceZone } from '../timeZones/service.js';
import { adNumber, dayStart } from './pushes.js';
import { PushText } from './texts.js';

/**
 * A device's playlist (/device/playlist) and plan over time (/device/devicePlan): both read
 * the ad playlist of its manifest (adContent: the ads that reach it, in playing order, with
 * its playlist sort), so what the page shows is what the device plays.
 */

const DAY = 86_400_000;

/** The visible device (else NOT_FOUND), with whether the caller may manage it. */
async function visibleDevice(ctx: CallContext, deviceId: string) {
  const [device] = await ctx.db
    .select({ id: devices.id, entId: devices.entId, layoutId: devices.layoutId })
    .from(devices)
    .where(and(eq(devices.id, deviceId), scopeWhere(ctx.user, deviceScope)));
  if (!device) throw new AppError(ErrorCode.NOT_FOUND, PushText.deviceNotFound);
  return device;
}

/** The device's ad playlist entries now, with the ads they play. */
async function playlistOf(ctx: CallContext, device: { id: string; entId: string }) {
  const { items } = await adContent(ctx.db, device, ctx.now.getTime());
  const ids = [...new Set(items.map((i) => i.adId ?? ''))].filter(Boolean);
  const rows = ids.length > 0 ? await ctx.db.select().from(ads).where(inArray(ads.id, ids)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return items.flatMap((item) => {
    const ad = byId.get(item.adId ?? '');
    return ad ? [{ item, ad }] : [];
  });
}

/** device.playlist: the device's current ad playlist, in playing order. */
export async function devicePlaylist(input: { deviceId: string }, ctx: CallContext) {
  const device = await visibleDevice(ctx, input.deviceId);
  const [entries, order, managed] = await Promise.all([
    playlistOf(ctx, device),
    playlistOrderOf(ctx.db, device.id),
    ctx.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.id, device.id), scopeWhere(ctx.user, deviceManageScope))),
  ]);
  // The device's own reported state of each material of its playlist (device_downloads).
  const states = await downloadsOf(
    ctx.db,
    device,
    entries.flatMap((e) => e.item.materialIds),
  );
  const downloadOf = (materialIds: readonly string[]) => {
    const d = combinedDownload(materialIds, states);
    return {
      download: d.state,
      downloadPercent: d.percent,
      downloadError: d.error,
      downloadedAt: d.doneAt?.toISOString() ?? null,
    };
  };
  return {
    entries: entries.map(
      ({ item, ad }): PlaylistEntry => ({
        key: item.id.replace(/^ad:/, ''),
        adId: ad.id,
        adNumber: adNumber(ad.number) ?? '',
        adName: ad.name,
        type: ad.type,
        // adContent's items are ads: never an RTB slot's role.
        role: (item.role ?? 'loop') as AdRole,
        startAt: ad.startAt.toISOString(),
        endAt: ad.endAt.toISOString(),
        periods: ad.periods.map((p) => ({ start: p.start, end: p.end })),
        strategy: ad.strategy,
        playsMin: ad.playsMin,
        playsMax: ad.playsMax,
        ...downloadOf(item.materialIds),
      }),
    ),
    order,
    canSort: managed.length > 0,
  };
}

/**
 * device.playlistSort: stores the order of the device's common ads (only ads of its loop are
 * kept; an empty order drops the sort) and pushes its new manifest (reason 'playlistSort').
 */
export async function sortPlaylist(input: { deviceId: string; adIds: string[] }, ctx: CallContext) {
  const [device] = await loadManaged(ctx, [input.deviceId]);
  const entries = await playlistOf(ctx, { id: device.id, entId: device.entId });
  const common = new Set(entries.filter((e) => e.ad.type === 'common').map((e) => e.ad.id));
  const adIds = [...new Set(input.adIds)].filter((id) => common.has(id));
  if (adIds.length === 0) {
    await ctx.db.delete(devicePlaylistOrders).where(eq(devicePlaylistOrders.deviceId, device.id));
  } else {
    await ctx.db
      .insert(devicePlaylistOrders)
      .values({ deviceId: device.id, entId: device.entId, adIds, accountId: ctx.user.accountId, updatedAt: ctx.now })
      .onConflictDoUpdate({
        target: devicePlaylistOrders.deviceId,
        set: { adIds, accountId: ctx.user.accountId, updatedAt: ctx.now },
      });
  }
  const { pushId } = await requestContentSync(ctx, device.activatedAt ? [device.id] : [], {
    reason: 'playlistSort',
  });
  await ctx.audit({
    module: 'device',
    action: 'playlistSort',
    targetType: 'device',
    targetId: device.id,
    targetName: device.name,
    detail: { adIds, pushId },
  });
  return { pushId };
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const minutesOf = (value: string) => {
  const [h, m] = value.split(':').map(Number);
  return h * 60 + m;
};

/**
 * The bars of one playlist entry on one day of the device's wall clock in `zone` (issue 31):
 * each of its time periods (the whole day without any) cut to the part of the day within the
 * ad's period. A day is the zone's (23 or 25 hours on a DST change).
 */
export function dayBars(
  day: string,
  entry: { from: number; until: number; periods: readonly { start: string; end: string }[] },
  zone = 'UTC',
): { start: string; end: string }[] {
  const begin = zonedDayStart(day, zone);
  const end = zonedDayStart(nextDay(day), zone);
  if (entry.until <= begin || entry.from >= end) return [];
  const lo =
    entry.from > begin ? wallClock(entry.from, zone).minute + (wallClock(entry.from, zone).second > 0 ? 1 : 0) : 0;
  const hi = entry.until < end ? wallClock(entry.until, zone).minute : 24 * 60;
  if (hi <= lo) return [];
  const periods = entry.periods.length > 0 ? entry.periods : [{ start: '00:00', end: '24:00' }];
  return periods.flatMap((p) => {
    const start = Math.max(lo, minutesOf(p.start));
    const end = Math.min(hi, minutesOf(p.end));
    return end > start ? [{ start: hhmm(start), end: hhmm(end) }] : [];
  });
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A range of UTC dates from what a request gave: both bounds as given; none: `days` days
 * ending (`back`, a report) or starting at `today` (a plan); only the end: the `days` days up
 * to it; only the start: up to today (`back`) or `days` days. Never longer than `max` days
 * (the end is moved in).
 */
export function dateRange(
  input: { from?: string; to?: string },
  today: string,
  options: { days: number; max: number; back: boolean },
): { from: string; to: string } {
  const span = (options.days - 1) * DAY;
  let from = input.from;
  let to = input.to;
  if (!from && !to) {
    if (options.back) to = today;
    else from = today;
  }
  if (!to && from) to = options.back ? (from > today ? from : today) : isoDay(dayStart(from).getTime() + span);
  if (!from) from = isoDay(dayStart(to ?? today).getTime() - span);
  to ??= from;
  const last = isoDay(dayStart(from).getTime() + (options.max - 1) * DAY);
  return { from, to: to > last ? last : to };
}

/** The dates from `from` to `to` (both included). */
export function datesOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = dayStart(from).getTime(); t <= dayStart(to).getTime(); t += DAY) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

/** device.plan: per day of the range, the ads scheduled on the device (and its layout) by time period. */
export async function devicePlan(input: { deviceId: string; from?: string; to?: string }, ctx: CallContext) {
  const device = await visibleDevice(ctx, input.deviceId);
  // Days and times are the device's wall clock (its zone), as its player reads its schedule.
  const timeZone = await deviceZone(ctx.db, device.id, ctx.services.config.defaultTimeZone);
  const today = wallClock(ctx.now, timeZone).day;
  const { from, to } = dateRange(input, today, { days: 7, max: PLAN_MAX_DAYS, back: false });
  const entries = await playlistOf(ctx, device);
  const seen = new Set<string>();
  const unique = entries.filter(({ ad }) => !seen.has(ad.id) && seen.add(ad.id));
  const provider = currentLayoutProvider();
  const layout = device.layoutId && provider ? await provider.load(ctx.db, device.entId, device.layoutId) : null;
  const bars: PlanBar[] = [];
  for (const day of datesOf(from, to)) {
    if (layout) {
      bars.push({
        day,
        start: '00:00',
        end: '24:00',
        source: 'layout',
        id: layout.id,
        name: layout.name,
        adNumber: null,
        role: null,
      });
    }
    for (const { item, ad } of unique) {
      const schedule = item.schedule;
      for (const bar of dayBars(
        day,
        {
          from: schedule.from ?? ad.startAt.getTime(),
          until: schedule.until ?? ad.endAt.getTime(),
          periods: schedule.periods ?? [],
        },
        timeZone,
      )) {
        bars.push({
          day,
          ...bar,
          source: 'ad',
          id: ad.id,
          name: ad.name,
          adNumber: adNumber(ad.number),
          role: (item.role ?? null) as AdRole | null,
        });
      }
    }
  }
  return { from, to, timeZone, bars };
}
