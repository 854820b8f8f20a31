import { ALARMS_PATH, alarmRaiseSchema, MAX_ALARM_BODY_BYTES } from '@marquee/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services.js';
import { acceptDeviceJson, deviceEnvelope, parseDeviceBody } from '../devices/deviceApi.js';
import { authenticateDevice } from '../screenshots/upload.js';
import { ingestAlarm } from './ingest.js';
import { notifyAlarm } from './notify.js';

/**
 * The player's alarm call (docs/device-protocol.md 2.10): `POST /dapi/v1/alarms`, HTTP Basic
 * with the device's credentials, a JSON body up to MAX_ALARM_BODY_BYTES (the screenshot inline).
 * A new event's contacts are notified right after it is stored, before the answer: the answer
 * means the event is stored and its notifications were sent (or recorded as failed).
 */
export async function registerAlarmApi(app: FastifyInstance, services: AppServices) {
  await app.register(async (api) => {
    acceptDeviceJson(api, MAX_ALARM_BODY_BYTES);
    api.post(ALARMS_PATH, (request, reply) =>
      deviceEnvelope(request, reply, 'device alarm call failed', async () => {
        const device = await authenticateDevice(services, request.headers.authorization);
        const raise = parseDeviceBody(alarmRaiseSchema, request.body);
        const { eventId, ...answer } = await ingestAlarm(services, device, raise, services.clock());
        if (answer.result === 'accepted' && eventId) {
          await notifyAlarm(services, eventId, request.log).catch((error) =>
            request.log.error({ err: error, eventId }, 'alarm notifications not sent'),
          );
        }
        return answer;
      }),
    );
  });
}
