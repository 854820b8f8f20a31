import { z } from 'zod';
import { endpoint } from './common.js';

/**
 * Time zones (issue 31, spec section 7 'time zones'): the IANA zones a console offers where a
 * zone is picked (an enterprise's, a device's), with their offsets now, and the caller's
 * enterprise's zone and the server's default.
 */
export const timeZoneEndpoints = {
  timeZoneList: endpoint({
    name: 'timeZone.list',
    path: '/api/timeZone/list.shtm',
    auth: 'session',
    unscoped: 'reference data (the IANA zones) and the caller’s own enterprise’s zone',
    request: z.object({}).strict(),
    response: z.object({
      /** By offset, then name. */
      zones: z.array(z.object({ name: z.string(), offsetMinutes: z.number() })),
      /** The caller's enterprise's zone. */
      enterprise: z.string(),
      /** The zone new enterprises get (DEFAULT_TIME_ZONE). */
      default: z.string(),
    }),
  }),
} as const;
