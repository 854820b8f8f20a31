import { MAX_PLAYS_BODY_BYTES, USAGE_PATH, usageUploadSchema } from '@marquee/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services.js';
import { acceptDeviceJson, deviceEnvelope, parseDeviceBody } from '../devices/deviceApi.js';
import { authenticateDevice } from '../screenshots/upload.js';
import { ingestUsage } from './usage.js';

/**
 * The player's usage call (docs/device-protocol.md 2.9): `POST /dapi/v1/usage`, HTTP Basic with
 * the device's credentials and a JSON body up to 1 MB, answered like `POST /dapi/v1/plays`.
 */
export async function registerFlowApi(app: FastifyInstance, services: AppServices) {
  await app.register(async (api) => {
    acceptDeviceJson(api, MAX_PLAYS_BODY_BYTES);
    api.post(USAGE_PATH, (request, reply) =>
      deviceEnvelope(request, reply, 'device usage call failed', async () => {
        const device = await authenticateDevice(services, request.headers.authorization);
        const { samples } = parseDeviceBody(usageUploadSchema, request.body);
        return ingestUsage(services.db, device, samples, services.clock());
      }),
    );
  });
}
