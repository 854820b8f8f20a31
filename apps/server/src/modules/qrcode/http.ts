import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { QR_LINK_PATH } from '@marquee/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services.js';
import { configureQrLinks } from '../content/qrLinks.js';
import { decodeQrToken, qrLinkKey } from '../content/qrToken.js';
import { ScanRecorder } from './recorder.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The QR scans' writer of this app (tests and the bench flush it). */
    qrcodeScans: ScanRecorder;
  }
}

const UA_MAX = 300;
const LANGUAGE_MAX = 35;

/** The scanner's first language tag (`zh-CN,zh;q=0.9` → `zh-CN`), or ''. */
export function firstLanguage(header: string | undefined): string {
  const first = (header ?? '').split(',')[0]?.split(';')[0]?.trim() ?? '';
  return /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(first) ? first.slice(0, LANGUAGE_MAX) : '';
}

/**
 * GET /q/<token> (issue 31; docs/protocol.md "Public routes"): a QR component's short link. Public,
 * no session. A token the server signed is queued as a scan (modules/qrcode/recorder.ts: never
 * written on this path) and answered at once with 302 to the component's target; anything else
 * is 404 and counts nothing. No IP is kept; the user agent and the language only.
 */
export async function registerQrcodeRoute(app: FastifyInstance, services: AppServices) {
  configureQrLinks(services.secret, services.config.publicUrl);
  const key = qrLinkKey(services.secret);
  const recorder = new ScanRecorder({
    db: services.db,
    spillDir: join(services.config.dataDir, 'qrcode'),
    log: app.log,
  });
  recorder.start();
  app.decorate('qrcodeScans', recorder);
  app.addHook('onClose', () => recorder.close());
  // A wildcard, not `:token`: a parameter is cut at Fastify's maxParamLength (100), tokens are longer.
  app.get(`${QR_LINK_PATH}*`, (request, reply) => {
    const link = decodeQrToken(key, (request.params as { '*': string })['*']);
    if (!link) {
      reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not Found');
      return reply;
    }
    recorder.record({
      id: randomUUID(),
      deviceId: link.deviceId,
      adId: link.adId,
      layoutId: link.layoutId,
      componentId: link.componentId,
      at: services.clock(),
      userAgent: String(request.headers['user-agent'] ?? '').slice(0, UA_MAX),
      language: firstLanguage(request.headers['accept-language']),
    });
    reply
      .code(302)
      .header('location', link.target)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send();
    return reply;
  });
}
