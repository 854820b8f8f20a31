import { z } from 'zod';
import { Perm } from '../permissions.js';
import { endpoint } from './common.js';

/** A reading of the configured weather provider (the layout renderer's WeatherReading). */
export const weatherReadingSchema = z.object({
  city: z.string(),
  /** Degrees Celsius. */
  temperature: z.number(),
  /** The condition in the caller's language. */
  condition: z.string(),
  high: z.number().nullable().optional(),
  low: z.number().nullable().optional(),
  humidity: z.number().nullable().optional(),
  observedAt: z.string().optional(),
});

/**
 * Weather for layouts' weather components (issue 11): readings from the provider the server
 * is configured with (WEATHER_PROVIDER). Without one, `provider` is null and every reading
 * null: the component says its data is unavailable, never invented.
 */
export const weatherEndpoints = {
  weatherCurrent: endpoint({
    name: 'weather.current',
    path: '/api/template/weather/current.shtm',
    auth: 'session',
    permission: Perm.template,
    unscoped: 'readings of an outside weather service by city: no enterprise data',
    request: z.object({ cities: z.array(z.string().trim().min(1).max(100)).min(1).max(20) }).strict(),
    response: z.object({
      provider: z.string().nullable(),
      readings: z.record(z.string(), weatherReadingSchema.nullable()),
    }),
  }),
} as const;
