import type { StatKey, TrendPoint } from '@marquee/protocol';
import type { Principal } from '../../auth/principal.js';
import type { Executor } from '../../db/client.js';

/** The days of a trend: the first day's start (UTC instant), the number of days and the caller's offset. */
export interface TrendWindow {
  from: Date;
  days: number;
  /** Minutes east of UTC: a day is [00:00, 24:00) of the caller's clock. */
  utcOffset: number;
  /** The call's time (a figure kept in another zone's days builds its own days from it). */
  now: Date;
}

/**
 * One figure of the home page's quick statistics, contributed by the module that owns its
 * facts (issue 8). `count` answers one number, `trend` one per day of the window; both in
 * the caller's enterprise and data scope (the same where-builders as the module's lists).
 * The figure's permission and link are in the protocol's STAT_FIGURES.
 */
export type StatProvider =
  | { key: StatKey; count(db: Executor, caller: Principal, now: Date): Promise<number> }
  | { key: StatKey; trend(db: Executor, caller: Principal, window: TrendWindow): Promise<TrendPoint[]> };

const providers = new Map<StatKey, StatProvider>();

/** Registers a module's figure (once per key, at import). */
export function registerStat(provider: StatProvider): void {
  const known = providers.get(provider.key);
  if (known && known !== provider) throw new Error(`stat ${provider.key} is registered twice`);
  providers.set(provider.key, provider);
}

export function statProviders(): readonly StatProvider[] {
  return [...providers.values()];
}

/** The YYYY-MM-DD of `at` on a clock `utcOffset` minutes east of UTC. */
export function localDate(at: Date, utcOffset: number): string {
  return new Date(at.getTime() + utcOffset * 60_000).toISOString().slice(0, 10);
}

/**
 * Fills a trend: one point per day of the window, oldest first, 0 where `counts` (by
 * YYYY-MM-DD) has none.
 */
export function fillDays(window: TrendWindow, counts: ReadonlyMap<string, number>): TrendPoint[] {
  const points: TrendPoint[] = [];
  for (let i = 0; i < window.days; i++) {
    const date = localDate(new Date(window.from.getTime() + i * 86_400_000), window.utcOffset);
    points.push({ date, value: counts.get(date) ?? 0 });
  }
  return points;
}
