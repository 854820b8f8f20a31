import { wallClock } from '../timeZone.js';
import type { ManifestSchedule } from './http.js';

/**
 * The wall-clock rules a player obeys (docs/device-protocol.md 2.7.1 and 3.5), one copy for
 * both players and the server: an item's schedule, a power strategy, a volume or brightness
 * level. `zone` is the manifest's `timeZone` (the device's IANA zone); absent, the runtime's
 * own local clock, as players did before zones existed.
 */

/** Minutes since midnight of `HH:mm` (`24:00` is 1440). */
export function minutesOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** Whether an item's schedule lets it play at `now` (the device's wall clock in `zone`). */
export function scheduleAllows(schedule: ManifestSchedule, now: Date | number, zone?: string | null): boolean {
  const t = typeof now === 'number' ? now : now.getTime();
  if (schedule.from != null && t < schedule.from) return false;
  if (schedule.until != null && t >= schedule.until) return false;
  const needsClock = schedule.weekdays?.length || schedule.start || schedule.end || schedule.periods?.length;
  if (!needsClock) return true;
  const { weekday, minute } = wallClock(t, zone);
  if (schedule.weekdays?.length && !schedule.weekdays.includes(weekday)) return false;
  if (schedule.start && minute < minutesOfDay(schedule.start)) return false;
  if (schedule.end && minute >= minutesOfDay(schedule.end)) return false;
  if (schedule.periods?.length) {
    return schedule.periods.some((p) => minute >= minutesOfDay(p.start) && minute < minutesOfDay(p.end));
  }
  return true;
}

export interface PowerWindowRules {
  weekly: readonly { weekdays: readonly number[]; off: string; on: string }[];
  once: readonly { off: string; on: string }[];
}

/**
 * Whether the screen is on at `now` under a power strategy (docs/device-protocol.md 3.5.1):
 * off from `off` to `on` on the listed weekdays (wall clock in `zone`), and between the one-off
 * instants.
 */
export function powerOnAt(
  rules: PowerWindowRules | null | undefined,
  now: Date | number,
  zone?: string | null,
): boolean {
  if (!rules) return true;
  const t = typeof now === 'number' ? now : now.getTime();
  const { weekday, minute } = wallClock(t, zone);
  for (const period of rules.weekly) {
    if (!period.weekdays.includes(weekday)) continue;
    if (minute >= minutesOfDay(period.off) && minute < minutesOfDay(period.on)) return false;
  }
  for (const period of rules.once) {
    if (t >= Date.parse(period.off) && t < Date.parse(period.on)) return false;
  }
  return true;
}

export interface LevelWindowRules {
  defaultLevel: number;
  periods: readonly { weekdays: readonly number[]; start: string; end: string; level: number }[];
}

/** The level (volume or brightness) a strategy asks for at `now` (wall clock in `zone`). */
export function levelAt(rules: LevelWindowRules, now: Date | number, zone?: string | null): number {
  const { weekday, minute } = wallClock(now, zone);
  for (const period of rules.periods) {
    if (!period.weekdays.includes(weekday)) continue;
    if (minute >= minutesOfDay(period.start) && minute < minutesOfDay(period.end)) return period.level;
  }
  return rules.defaultLevel;
}
