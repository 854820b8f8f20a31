import { z } from 'zod';
import { STAT_FIGURES, TREND_DAYS } from '../stats.js';
import { endpoint } from './common.js';

const figures = z.object(
  Object.fromEntries(
    Object.entries(STAT_FIGURES)
      .filter(([, def]) => def.kind === 'count')
      .map(([key]) => [key, z.number().int().min(0).optional()]),
  ),
);
const trendPoint = z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), value: z.number().int().min(0) });
const trends = z.object(
  Object.fromEntries(
    Object.entries(STAT_FIGURES)
      .filter(([, def]) => def.kind === 'trend')
      .map(([key]) => [key, z.array(trendPoint).max(TREND_DAYS).optional()]),
  ),
);

export type TrendPoint = z.infer<typeof trendPoint>;

/** The home page (issue 8). */
export const homeEndpoints = {
  // Spec section 7, endpoint groups: 'quick statistics'. Every figure the caller may see
  // (STAT_FIGURES), computed in its enterprise and data scope; a trend has one point per
  // day of the last TREND_DAYS days in the caller's time zone, oldest first.
  homeStats: endpoint({
    name: 'home.stats',
    path: '/api/home/stats.shtm',
    auth: 'session',
    scope: {
      object: 'template',
      kind: 'count',
      figure: 'figures.templates',
      permission: STAT_FIGURES.templates.permission,
    },
    request: z
      .object({
        /** Minutes east of UTC of the browser's time zone (getTimezoneOffset negated): where a day starts. */
        utcOffset: z.number().int().min(-720).max(840).default(0),
      })
      .strict(),
    response: z.object({
      figures: figures as z.ZodType<Partial<Record<string, number>>>,
      trends: trends as z.ZodType<Partial<Record<string, { date: string; value: number }[]>>>,
    }),
  }),
} as const;
