import { z } from 'zod';

/**
 * The time rules of spec section 5, shared by the server (catalogue request schemas) and the
 * web forms (zodRule): power-off and power-on at least 5 minutes apart, shutdown before
 * startup, no past times, no overlapping periods, start and end of a day not equal, end not
 * before start, a sending interval of at least one minute. Messages are keys of
 * validationMessages (`validation.powerGap`, `validation.periodsOverlap` ...): the spec's "time conflict"
 * and "time periods overlap".
 *
 * Times of day are device-local wall-clock times `HH:mm` (00:00 to 23:59, and 24:00 as the
 * end of the day); a period never crosses midnight (a night is two periods). One-off times
 * are ISO 8601 instants with an offset, so "not in the past" means the same on every clock.
 */

/** Spec section 5: power-off and power-on at least this many minutes apart ("some texts say 6"). */
export const POWER_GAP_MIN = 5;
/** Spec section 5: a sending interval of at least one minute. */
export const MIN_SENDING_INTERVAL_MIN = 1;
/** Minutes in a day: `24:00` is the end of the day. */
export const DAY_MINUTES = 24 * 60;
/** Monday 1 to Sunday 7 (ISO 8601). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

const TIME_OF_DAY = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** A time of day `HH:mm` (24:00 is the end of the day). */
export const timeOfDaySchema = z.string().regex(TIME_OF_DAY, 'validation.timeFormat');

/** Minutes since midnight of `HH:mm` (NaN when malformed). */
export function minutesOf(time: string): number {
  if (!TIME_OF_DAY.test(time)) return Number.NaN;
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
}

/** `HH:mm` of minutes since midnight (0 to 1440). */
export function timeOf(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** The days of the week a rule applies to: at least one, each once. */
export const weekdaysSchema = z
  .array(z.number().int().min(1).max(7))
  .min(1, 'validation.weekdays')
  .max(7)
  .refine((days) => new Set(days).size === days.length, 'validation.weekdays');

/** An instant: ISO 8601 with an offset (`2026-11-24T22:00:00+08:00`, or `Z`). */
export const instantSchema = z.iso.datetime({ offset: true, message: 'validation.dateTimeFormat' });

/** A sending interval in minutes: at least one (spec section 5), at most a day. */
export const sendingIntervalSchema = z
  .number()
  .int('validation.sendingInterval')
  .min(MIN_SENDING_INTERVAL_MIN, 'validation.sendingInterval')
  .max(DAY_MINUTES, 'validation.sendingInterval');

type Path = (string | number)[];
/** Where an issue goes: a path inside the checked value and the rule's message key. */
export interface TimeIssue {
  path: Path;
  message: `validation.${string}`;
}

/** A period of one day: `start` and `end` as HH:mm. */
export interface DayPeriod {
  start: string;
  end: string;
}

/**
 * One period's own rules: start and end of a day not equal, end not before start. The
 * issue is placed on `end`.
 */
export function dayPeriodIssue(period: DayPeriod, path: Path = []): TimeIssue | null {
  const start = minutesOf(period.start);
  const end = minutesOf(period.end);
  if (Number.isNaN(start) || Number.isNaN(end)) return null; // the format rule says so
  if (start === end) return { path: [...path, 'end'], message: 'validation.sameStartEnd' };
  if (end < start) return { path: [...path, 'end'], message: 'validation.endBeforeStart' };
  return null;
}

interface Span {
  /** Index of the item in its list. */
  index: number;
  from: number;
  to: number;
  days: readonly number[];
}

/** Two spans of the same weekday share at least one minute (touching ends do not overlap). */
function overlaps(a: Span, b: Span): boolean {
  return a.days.some((d) => b.days.includes(d)) && a.from < b.to && b.from < a.to;
}

/**
 * No two periods that share a weekday overlap. The issue is placed on the later item's
 * `startKey` (the one the operator was adding). Items whose own rules fail are skipped.
 */
export function overlapIssues(spans: readonly Span[], path: Path, startKey: string): TimeIssue[] {
  const issues: TimeIssue[] = [];
  const flagged = new Set<number>();
  for (let i = 0; i < spans.length; i++) {
    for (let j = 0; j < i; j++) {
      if (overlaps(spans[i], spans[j]) && !flagged.has(spans[i].index)) {
        flagged.add(spans[i].index);
        issues.push({ path: [...path, spans[i].index, startKey], message: 'validation.periodsOverlap' });
      }
    }
  }
  return issues;
}

/** Weekly periods with their own rules and no overlap (volume, brightness, download windows). */
export function weeklyPeriodIssues(
  items: readonly { weekdays: readonly number[]; start: string; end: string }[],
  path: Path = [],
): TimeIssue[] {
  const issues: TimeIssue[] = [];
  const spans: Span[] = [];
  items.forEach((item, index) => {
    const own = dayPeriodIssue(item, [...path, index]);
    if (own) {
      issues.push(own);
      return;
    }
    const from = minutesOf(item.start);
    const to = minutesOf(item.end);
    if (Number.isNaN(from) || Number.isNaN(to)) return;
    spans.push({ index, from, to, days: item.weekdays });
  });
  return [...issues, ...overlapIssues(spans, path, 'start')];
}

/** A power period of a day: the screen shuts down at `off` and starts up at `on`. */
export interface PowerPeriod {
  off: string;
  on: string;
}

/**
 * A power period's own rules: shutdown before startup, and the two at least POWER_GAP_MIN
 * minutes apart (both 'time conflict'). The issue is placed on `on`.
 */
export function powerPeriodIssue(period: PowerPeriod, path: Path = []): TimeIssue | null {
  const off = minutesOf(period.off);
  const on = minutesOf(period.on);
  if (Number.isNaN(off) || Number.isNaN(on)) return null;
  if (on <= off) return { path: [...path, 'on'], message: 'validation.shutdownBeforeStartup' };
  if (on - off < POWER_GAP_MIN) return { path: [...path, 'on'], message: 'validation.powerGap' };
  return null;
}

/**
 * Weekly power periods: each period's own rules, no overlap between periods of a shared
 * weekday, and between one period's startup and the next shutdown of that day at least
 * POWER_GAP_MIN minutes too (a screen that just started is not shut down again at once).
 */
export function weeklyPowerIssues(
  items: readonly ({ weekdays: readonly number[] } & PowerPeriod)[],
  path: Path = [],
): TimeIssue[] {
  const issues: TimeIssue[] = [];
  const spans: Span[] = [];
  items.forEach((item, index) => {
    const own = powerPeriodIssue(item, [...path, index]);
    if (own) {
      issues.push(own);
      return;
    }
    const from = minutesOf(item.off);
    const to = minutesOf(item.on);
    if (Number.isNaN(from) || Number.isNaN(to)) return;
    spans.push({ index, from, to, days: item.weekdays });
  });
  const overlapping = overlapIssues(spans, path, 'off');
  issues.push(...overlapping);
  const flagged = new Set(overlapping.map((i) => i.path[path.length]));
  for (const a of spans) {
    for (const b of spans) {
      if (a === b || flagged.has(b.index) || !a.days.some((d) => b.days.includes(d))) continue;
      // b shuts down after a started up, too soon.
      if (b.from >= a.to && b.from - a.to < POWER_GAP_MIN) {
        flagged.add(b.index);
        issues.push({ path: [...path, b.index, 'off'], message: 'validation.powerGap' });
      }
    }
  }
  return issues;
}

/** A one-off power period between two instants. */
export interface OncePowerPeriod {
  off: string;
  on: string;
}

/**
 * One-off power periods (a holiday's shutdown): shutdown before startup, at least
 * POWER_GAP_MIN minutes apart, no overlap, and with `now` (ms) the shutdown not in the past.
 */
export function oncePowerIssues(items: readonly OncePowerPeriod[], path: Path = [], now?: number): TimeIssue[] {
  const issues: TimeIssue[] = [];
  const spans: Span[] = [];
  items.forEach((item, index) => {
    const off = Date.parse(item.off);
    const on = Date.parse(item.on);
    if (Number.isNaN(off) || Number.isNaN(on)) return;
    if (now !== undefined && off < now) {
      issues.push({ path: [...path, index, 'off'], message: 'validation.notPast' });
      return;
    }
    if (on <= off) {
      issues.push({ path: [...path, index, 'on'], message: 'validation.shutdownBeforeStartup' });
      return;
    }
    if (on - off < POWER_GAP_MIN * 60_000) {
      issues.push({ path: [...path, index, 'on'], message: 'validation.powerGap' });
      return;
    }
    spans.push({ index, from: off, to: on, days: [0] });
  });
  return [...issues, ...overlapIssues(spans, path, 'off')];
}

/** An instant not in the past at `now` (ms); a rule for single dated fields. */
export function notPastSchema(now: () => number) {
  return instantSchema.refine((value) => Date.parse(value) >= now(), 'validation.notPast');
}

/** Adds time issues to a zod refinement context. */
export function addTimeIssues(ctx: z.RefinementCtx, issues: readonly TimeIssue[]): void {
  for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
}
