import { hasPermission, STAT_FIGURES, TREND_DAYS, type TrendPoint } from '@marquee/protocol';
import type { CallContext } from '../../protocol/handlers.js';
import { statProviders, type TrendWindow } from './stats.js';

/**
 * Spec section 7 'quick statistics': every registered figure the caller holds the permission
 * of, computed in its enterprise and data scope. Trends cover the last TREND_DAYS days of the
 * caller's clock, today included.
 */
export async function homeStats(input: { utcOffset: number }, ctx: CallContext) {
  const user = ctx.user;
  const offsetMs = input.utcOffset * 60_000;
  // Midnight today on the caller's clock, as a UTC instant.
  const todayStart = Math.floor((ctx.now.getTime() + offsetMs) / 86_400_000) * 86_400_000 - offsetMs;
  const window: TrendWindow = {
    from: new Date(todayStart - (TREND_DAYS - 1) * 86_400_000),
    days: TREND_DAYS,
    utcOffset: input.utcOffset,
    now: ctx.now,
  };
  const figures: Record<string, number> = {};
  const trends: Record<string, TrendPoint[]> = {};
  const held = statProviders().filter((p) => hasPermission(user.permissions, STAT_FIGURES[p.key].permission));
  await Promise.all(
    held.map(async (provider) => {
      if ('count' in provider) figures[provider.key] = await provider.count(ctx.db, user, ctx.now);
      else trends[provider.key] = await provider.trend(ctx.db, user, window);
    }),
  );
  return { figures, trends };
}
