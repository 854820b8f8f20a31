import { z } from 'zod';

/**
 * Time zones (issue 31, docs/ARCHITECTURE.md "Time zones"). An enterprise has an IANA zone
 * (`DEFAULT_TIME_ZONE` unless configured otherwise), a device may override it; the schedules,
 * dayparts, power and strategy times a device obeys are wall-clock times of the device's zone.
 * These helpers read a wall clock in a zone from an instant and back, with the zone's real
 * rules (daylight saving included), through the runtime's Intl (full ICU in Node and every
 * browser the player supports).
 */

/** The zone of an enterprise created with no other choice (the product's users are mostly at UTC+8). */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether `name` is an IANA zone the runtime knows (`UTC` included). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .trim()
  .refine((v) => isTimeZone(v), 'validation.timeZone');

const WEEKDAY: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const pad = (n: number) => String(n).padStart(2, '0');

/** A wall clock: the date, the ISO weekday (Monday 1 .. Sunday 7) and the minute of the day. */
export interface WallClock {
  /** `YYYY-MM-DD` */
  day: string;
  weekday: number;
  /** Minutes since midnight, 0 .. 1439. */
  minute: number;
  /** Seconds within the minute. */
  second: number;
}

/**
 * The wall clock at `at` in `zone`; with no zone, the runtime's own local clock (a device that
 * was given no zone keeps obeying its own clock, as before zones existed).
 */
export function wallClock(at: number | Date, zone?: string | null): WallClock {
  const date = typeof at === 'number' ? new Date(at) : at;
  if (!zone) {
    const weekday = date.getDay() === 0 ? 7 : date.getDay();
    return {
      day: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
      weekday,
      minute: date.getHours() * 60 + date.getMinutes(),
      second: date.getSeconds(),
    };
  }
  const parts: Record<string, string> = {};
  for (const p of formatterOf(zone).formatToParts(date)) parts[p.type] = p.value;
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: WEEKDAY[parts.weekday] ?? 1,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The zone's offset from UTC at `at`, in minutes (Asia/Shanghai: 480; Europe/Berlin in summer: 120). */
export function zoneOffsetMinutes(at: number, zone: string): number {
  const w = wallClock(at, zone);
  const [y, m, d] = w.day.split('-').map(Number);
  const asUtc = Date.UTC(y, m - 1, d) + w.minute * 60_000 + w.second * 1000;
  const whole = Math.floor(at / 1000) * 1000;
  return Math.round((asUtc - whole) / 60_000);
}

/**
 * The instant of wall-clock `minute` (0 .. 1440) of local date `day` in `zone`. A wall time a
 * spring-forward gap skips is read with the offset before the gap (02:30 in Berlin on its
 * change day is 03:30 local); an ambiguous one (autumn) is its first occurrence.
 */
export function zonedInstant(day: string, minute: number, zone: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d) + minute * 60_000;
  // Real zones change their offset at most once within a day of any instant: the offsets a day
  // before and a day after are the only candidates.
  const before = zoneOffsetMinutes(wall - 86_400_000, zone) * 60_000;
  const after = zoneOffsetMinutes(wall + 86_400_000, zone) * 60_000;
  const valid = [wall - before, wall - after].filter((t) => zoneOffsetMinutes(t, zone) * 60_000 === wall - t);
  if (valid.length === 0) return wall - before; // in a gap: read with the offset before it
  return Math.min(...valid); // ambiguous: the first occurrence
}

/** The instant local `day` starts in `zone` (its midnight; a day is 23 to 25 hours long). */
export function zonedDayStart(day: string, zone: string): number {
  return zonedInstant(day, 0, zone);
}

/** The day after `day` (`YYYY-MM-DD`, calendar arithmetic). */
export function nextDay(day: string, by = 1): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + by)).toISOString().slice(0, 10);
}

/** Every IANA zone the runtime knows, with its offset at `now`, by offset then name. */
export function timeZoneList(now: number): { name: string; offsetMinutes: number }[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const names = new Set(intl.supportedValuesOf?.('timeZone') ?? [DEFAULT_TIME_ZONE]);
  names.add('UTC');
  return [...names]
    .filter(isTimeZone)
    .map((name) => ({ name, offsetMinutes: zoneOffsetMinutes(now, name) }))
    .sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.name.localeCompare(b.name));
}

/** `UTC+08:00`, `UTC-03:30`: an offset as people read it. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
