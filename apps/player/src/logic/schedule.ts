import type { ManifestItem, ManifestSchedule } from '@marquee/protocol';

/** Minutes since local midnight of `HH:mm` (`24:00` is 1440). */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** ISO weekday (Monday 1 .. Sunday 7) of a local date. */
export function isoWeekday(date: Date): number {
  const day = date.getDay();
  return day === 0 ? 7 : day;
}

function minuteOfDay(date: Date): number {
  return date.getHours() * 60 + date.getMinutes();
}

/** Whether an item's schedule lets it play at `now` (device local wall clock). */
export function scheduleAllows(schedule: ManifestSchedule, now: Date): boolean {
  const t = now.getTime();
  if (schedule.from != null && t < schedule.from) return false;
  if (schedule.until != null && t >= schedule.until) return false;
  if (schedule.weekdays?.length && !schedule.weekdays.includes(isoWeekday(now))) return false;
  const minute = minuteOfDay(now);
  if (schedule.start && minute < minutesOf(schedule.start)) return false;
  if (schedule.end && minute >= minutesOf(schedule.end)) return false;
  if (schedule.periods?.length) {
    return schedule.periods.some((p) => minute >= minutesOf(p.start) && minute < minutesOf(p.end));
  }
  return true;
}

/** The items to play now, in manifest order. */
export function playableItems(items: readonly ManifestItem[], now: Date): ManifestItem[] {
  return items.filter((item) => scheduleAllows(item.schedule, now));
}

export interface PowerRules {
  weekly: { weekdays: number[]; off: string; on: string }[];
  once: { off: string; on: string }[];
}

/**
 * Whether the screen is on at `now` under a power strategy (docs/device-protocol.md 3.5.1):
 * off from `off` to `on` on the listed weekdays, and between the one-off instants.
 */
export function powerOnAt(rules: PowerRules | null | undefined, now: Date): boolean {
  if (!rules) return true;
  const weekday = isoWeekday(now);
  const minute = minuteOfDay(now);
  for (const period of rules.weekly) {
    if (!period.weekdays.includes(weekday)) continue;
    if (minute >= minutesOf(period.off) && minute < minutesOf(period.on)) return false;
  }
  const t = now.getTime();
  for (const period of rules.once) {
    if (t >= Date.parse(period.off) && t < Date.parse(period.on)) return false;
  }
  return true;
}

export interface LevelRules {
  defaultLevel: number;
  periods: { weekdays: number[]; start: string; end: string; level: number }[];
}

/** The level (volume or brightness) a strategy asks for at `now`. */
export function levelAt(rules: LevelRules, now: Date): number {
  const weekday = isoWeekday(now);
  const minute = minuteOfDay(now);
  for (const period of rules.periods) {
    if (!period.weekdays.includes(weekday)) continue;
    if (minute >= minutesOf(period.start) && minute < minutesOf(period.end)) return period.level;
  }
  return rules.defaultLevel;
}
