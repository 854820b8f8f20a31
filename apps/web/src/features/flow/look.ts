import {
  CARD_ACTIONS,
  CARD_NEAR_END_PERCENT,
  CARD_TRANSITIONS,
  type CardAction,
  type CardState,
  FLOW_REPORT_MAX_DAYS,
  SIZE_UNITS,
} from '@marquee/protocol';

/**
 * How the IoT-card pages read a card and a range, pure so they are tested without a browser:
 * each state's tag colour, the actions a card's state allows (CARD_TRANSITIONS, the server's
 * own rule), the month's use as a share of the package, the days to expiry, the report's
 * range (default the last 30 days, at most FLOW_REPORT_MAX_DAYS) and a chart's size unit.
 */

/** Each of the seven states its own antd tag colour (cancelled, the final one, grey). */
export const STATE_COLORS: Record<CardState, string> = {
  stock: 'purple',
  testable: 'cyan',
  toActivate: 'blue',
  activated: 'green',
  suspended: 'orange',
  lapsed: 'volcano',
  cancelled: 'default',
};

/** The actions a card in `state` can take, in CARD_ACTIONS' order. */
export function actionsFor(state: CardState): CardAction[] {
  return CARD_ACTIONS.filter((a) => CARD_TRANSITIONS[a].from.includes(state));
}

/** Whether every given state can take `action` (a batch is refused whole otherwise). */
export function allCanTake(states: readonly CardState[], action: CardAction): boolean {
  return states.length > 0 && states.every((s) => CARD_TRANSITIONS[action].from.includes(s));
}

/** The actions that every one of `states` can take (the batch buttons worth offering). */
export function batchActions(states: readonly CardState[]): CardAction[] {
  return CARD_ACTIONS.filter((a) => allCanTake(states, a));
}

/** The month's use as a percentage of the package (0..100, one decimal), null without a package. */
export function usedPercent(usedMb: number, packageMb: number | null): number | null {
  if (packageMb === null || packageMb <= 0) return null;
  return Math.min(100, Math.round((usedMb / packageMb) * 1000) / 10);
}

/** Whether the month's use deserves the warning colour (from CARD_NEAR_END_PERCENT). */
export function nearEnd(percent: number | null): boolean {
  return percent !== null && percent >= CARD_NEAR_END_PERCENT;
}

/** Megabytes as bytes (for the shared size formatter: Bytes/KB/MB/GB/TB). */
export const mbToBytes = (mb: number) => Math.round(mb * 1024 * 1024);

const DAY_MS = 86_400_000;

/** A card's expiry warning threshold, days. */
export const EXPIRY_WARNING_DAYS = 15;

/** Whole days from `now` until `expiresAt` (rounded up; 0 or less: expired), null without one. */
export function daysLeft(expiresAt: string | null, now: number): number | null {
  if (!expiresAt) return null;
  const at = Date.parse(expiresAt);
  if (!Number.isFinite(at)) return null;
  return Math.ceil((at - now) / DAY_MS);
}

/** A day (YYYY-MM-DD) of a local date. */
function dayOf(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The report's default range: the last 30 days, today included. */
export function defaultRange(now: Date): [string, string] {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 29);
  return [dayOf(from), dayOf(now)];
}

/** The number of days of an inclusive range (YYYY-MM-DD). */
export function rangeDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Whether a range is one the report takes: ordered and at most FLOW_REPORT_MAX_DAYS days. */
export function rangeAllowed(from: string, to: string): boolean {
  const days = rangeDays(from, to);
  return Number.isFinite(days) && days >= 1 && days <= FLOW_REPORT_MAX_DAYS;
}

/** The URL value of a range (`from~to`) and back; anything else: null (the default applies). */
export const rangeText = (from: string, to: string) => `${from}~${to}`;
export function parseRange(text: string | undefined | null): [string, string] | null {
  const match = /^(\d{4}-\d{2}-\d{2})~(\d{4}-\d{2}-\d{2})$/.exec(text ?? '');
  if (!match || !rangeAllowed(match[1], match[2])) return null;
  return [match[1], match[2]];
}

/** The unit of a chart's axis: the largest of Bytes..TB in which `maxBytes` is at least 1. */
export function chartUnit(maxBytes: number): { unit: (typeof SIZE_UNITS)[number]; divisor: number } {
  let unit = 0;
  let value = Math.max(0, maxBytes);
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return { unit: SIZE_UNITS[unit], divisor: 1024 ** unit };
}
