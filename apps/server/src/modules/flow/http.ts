import { ErrorCode, errorMessage, MAX_PLAYS_BODY_BYTES, USAGE_PATH, usageUploadSchema } from '@marquee/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../protocol/appError.js';
import { errorEnvelope } from '../../protocol/pipeline.js';
import type { AppServices } from '../../services.js';
import { deviceApiErrorHandler, parseDeviceBody } from '../devices/deviceApi.js';
import { authenticateDevice } from '../screenshots/upload.js';
import { ingestUsage } from './usage.js';

function language(request: FastifyRequest): string | undefined {
  const header = request.headers['accept-language'];
  return typeof header === 'string' ? header.split(',')[0]?.trim() : undefined;
}

async function envelope(request: FastifyRequest, reply: FastifyReply, run: () => Promise<unknown>) {
  const lang = language(request);
  try {
    const payload = await run();
    return reply
      .header('cache-control', 'no-store')
      .send({ code: 0, message: errorMessage(ErrorCode.OK, lang), payload });
  } catch (error) {
    if (error instanceof AppError) return reply.send(errorEnvelope(error.code, error.messageFor(lang)));
    request.log.error({ err: error }, 'device usage call failed');
    return reply.send(errorEnvelope(ErrorCode.SERVER_ERROR, errorMessage(ErrorCode.SERVER_ERROR, lang)));
  }
}

/**
 * The player's usage call (docs/device-protocol.md 2.9): `POST /dapi/v1/usage`, HTTP Basic with
 * the device's credentials and a JSON body up to 1 MB, answered like `POST /dapi/v1/plays`.
 */
export async function registerFlowApi(app: FastifyInstance, services: AppServices) {
  await app.register(async (api) => {
    api.removeAllContentTypeParsers();
    api.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: MAX_PLAYS_BODY_BYTES },
      (_req, body, done) => {
        try {
          done(null, body === '' ? {} : JSON.parse(body as string));
        } catch {
          done(null, Symbol('not json'));
        }
      },
    );
    api.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_PLAYS_BODY_BYTES }, (_req, _body, done) =>
      done(null, Symbol('not json')),
    );
    api.setErrorHandler(deviceApiErrorHandler(MAX_PLAYS_BODY_BYTES));

    api.post(USAGE_PATH, (request, reply) =>
      envelope(request, reply, async () => {
        const device = await authenticateDevice(services, request.headers.authorization);
        const { samples } = parseDeviceBody(usageUploadSchema, request.body);
        return ingestUsage(services.db, device, samples, services.clock());
      }),
    );
  });
}
