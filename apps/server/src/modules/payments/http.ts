import { PROVIDER_METHODS, type ProviderMethod } from '@marquee/protocol';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../db/client.js';
import type { AppServices } from '../../services.js';
import { ACKNOWLEDGED, settleAttempt } from './attempts.js';
import { checkProviders, NotificationRejected, providerFor, useProviderConfig } from './providers/index.js';

/** Largest notification body read (WeChat Pay's and Alipay's are a few kilobytes). */
const NOTIFY_BODY_LIMIT = 64 * 1024;

/**
 * The providers' asynchronous notifications (issue 26): POST /api/pay/notify/wechat and
 * /api/pay/notify/alipay, outside the console's call pipeline (no session, no envelope):
 * the raw body is what the provider signed. A notification is verified (signature with the
 * provider's key, serial, time window, app), then settled once in one transaction; it is
 * acknowledged as the provider expects (WeChat Pay: HTTP 200; Alipay: 'success') when it was
 * settled, had been settled before, or was absorbed, and refused otherwise (the provider
 * sends it again later; the refusal is logged).
 */
export async function registerPayNotify(app: FastifyInstance, services: AppServices) {
  // A key that does not parse fails the start, not the first payment.
  checkProviders(services.config.payments);
  useProviderConfig(services.config.payments);
  await app.register(async (api) => {
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', { parseAs: 'string', bodyLimit: NOTIFY_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    for (const method of PROVIDER_METHODS) {
      api.post(`/api/pay/notify/${method}`, async (request, reply) => {
        const provider = providerFor(services.config.payments, method as ProviderMethod);
        if (!provider) return reply.code(404).type('text/plain; charset=utf-8').send('not configured');
        const now = new Date(services.clock());
        const send = (ok: boolean, message?: string) => {
          const ack = provider.ack(ok, message);
          return reply.code(ack.status).type(ack.contentType).send(ack.body);
        };
        let payment: ReturnType<typeof provider.verifyNotification>;
        try {
          payment = provider.verifyNotification(
            { headers: request.headers, body: typeof request.body === 'string' ? request.body : '' },
            now,
          );
        } catch (error) {
          if (!(error instanceof NotificationRejected)) throw error;
          request.log.warn({ method, reason: error.message, ip: request.ip }, 'payment notification refused');
          return send(false, 'signature not verified');
        }
        try {
          const status = await services.db.transaction((tx) =>
            settleAttempt(tx as unknown as Executor, request.log, method, payment, now, 'notify'),
          );
          return send(ACKNOWLEDGED.has(status), status);
        } catch (error) {
          request.log.error({ err: error, method, outTradeNo: payment.outTradeNo }, 'payment notification not settled');
          return send(false, 'not settled');
        }
      });
    }
  });
}
