import {
  deviceHttpCalls,
  isLocale,
  MANIFEST_PATH,
  MAX_PLAYS_BODY_BYTES,
  PLAYS_PATH,
  playsUploadSchema,
} from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { devices } from '../../db/schema/index.js';
import type { AppServices } from '../../services.js';
import { acceptDeviceJson, deviceEnvelope, parseDeviceBody } from '../devices/deviceApi.js';
import { authenticateDevice } from '../screenshots/upload.js';
import { shareQuotes } from '../shares/service.js';
import { weatherReadings } from '../weather/service.js';
import { ingestPlays } from './plays.js';
import { ROLLUP_JOB } from './rollups.js';
import { buildManifest } from './sources.js';

/**
 * New plays are rolled up within this many seconds of their upload (the job is debounced: one
 * run per window however many devices upload), besides the job's minute schedule: a play
 * reaches the reports within the player's upload interval plus this (issue 13: <= 60 s).
 */
export const ROLLUP_SOON_SECONDS = 10;

/**
 * The player's content calls (docs/device-protocol.md 2.7, 2.8), HTTP Basic with the device's
 * credentials: `GET /dapi/v1/manifest` and `POST /dapi/v1/plays` (JSON up to 1 MB); and
 * `GET /dapi/v1/time` (2.7.4, no credentials: the clock is no secret, and a sample must not
 * wait for a credential check) with which the tiles of a wall share the server's clock; and
 * `POST /dapi/v1/weather` (2.7.6), the weather components' readings.
 */
/** The language of a device's readings: its `accept-language` when one of ours, else zh-CN. */
function deviceLanguage(header: string | undefined): string {
  const first = (header ?? '').split(',')[0]?.trim() ?? '';
  return isLocale(first) ? first : 'zh-CN';
}

export async function registerContentApi(app: FastifyInstance, services: AppServices) {
  await app.register(async (api) => {
    acceptDeviceJson(api, MAX_PLAYS_BODY_BYTES);

    api.get(deviceHttpCalls.time.path, (request, reply) =>
      deviceEnvelope(request, reply, 'device content call failed', async () => ({ now: services.clock() })),
    );

    api.get(MANIFEST_PATH, (request, reply) =>
      deviceEnvelope(request, reply, 'device content call failed', async () => {
        const device = await authenticateDevice(services, request.headers.authorization);
        const [row] = await services.db
          .select({ layoutId: devices.layoutId })
          .from(devices)
          .where(eq(devices.id, device.id));
        return buildManifest(
          services.db,
          { id: device.id, entId: device.entId, layoutId: row?.layoutId ?? null },
          services.clock(),
        );
      }),
    );

    // The weather components' readings (2.7.6), from the provider the console's readings come from.
    api.post(deviceHttpCalls.weather.path, (request, reply) =>
      deviceEnvelope(request, reply, 'device content call failed', async () => {
        await authenticateDevice(services, request.headers.authorization);
        const { cities } = parseDeviceBody(deviceHttpCalls.weather.request, request.body);
        return weatherReadings(services, cities, deviceLanguage(request.headers['accept-language']));
      }),
    );

    // The share-price components' quotes (2.7.7), from the provider the console's quotes come from.
    api.post(deviceHttpCalls.shares.path, (request, reply) =>
      deviceEnvelope(request, reply, 'device content call failed', async () => {
        await authenticateDevice(services, request.headers.authorization);
        const { symbols } = parseDeviceBody(deviceHttpCalls.shares.request, request.body);
        return shareQuotes(services, symbols);
      }),
    );

    api.post(PLAYS_PATH, (request, reply) =>
      deviceEnvelope(request, reply, 'device content call failed', async () => {
        const device = await authenticateDevice(services, request.headers.authorization);
        const { events } = parseDeviceBody(playsUploadSchema, request.body);
        const answer = await ingestPlays(services.db, device, events, services.clock());
        if (answer.accepted.length > 0) {
          // The plays are stored; a queue that cannot take the job only delays them to the schedule.
          await services.jobs
            .sendDebounced(ROLLUP_JOB, {}, ROLLUP_SOON_SECONDS)
            .then(() => services.jobs.wake(ROLLUP_JOB))
            .catch((error) => request.log.warn({ err: error }, 'play rollup not queued'));
        }
        return answer;
      }),
    );
  });
}
