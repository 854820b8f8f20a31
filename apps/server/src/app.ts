import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINT_LIST, ErrorCode, errorMessage, TIMESTAMP_WINDOW_MS } from '@marquee/protocol';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { loadServerSecret } from './auth/secret.js';
import { SessionService } from './auth/sessions.js';
import { LoginThrottle } from './auth/throttle.js';
import { registerCompression } from './compression.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { InvalidationBus } from './db/invalidation.js';
import type { JobDefinition } from './jobs/define.js';
import { JOBS } from './jobs/index.js';
import { JobQueue } from './jobs/queue.js';
import { createLogger, pathOf } from './logger.js';
import { accountHandlers } from './modules/accounts/routes.js';
import { adDownloadsListener } from './modules/ads/downloads.js';
import { adHandlers } from './modules/ads/routes.js';
import { advertiserHandlers } from './modules/advertisers/routes.js';
import { registerAlarmApi } from './modules/alarms/http.js';
import { alarmHandlers } from './modules/alarms/routes.js';
import { authHandlers } from './modules/auth/routes.js';
import { registerContentApi } from './modules/content/http.js';
import { registerOfflinePackageRoute } from './modules/content/offlinePackage.js';
import { contentHandlers } from './modules/content/routes.js';
import { deptHandlers } from './modules/dept/routes.js';
import { deviceGroupHandlers } from './modules/deviceGroups/routes.js';
import { deviceIoHandlers } from './modules/deviceIo/routes.js';
import { deviceReportHandlers } from './modules/deviceReports/routes.js';
import { DeviceGateway } from './modules/devices/gateway.js';
import { registerDeviceApi } from './modules/devices/http.js';
import { deviceHandlers } from './modules/devices/routes.js';
import { dictionaryHandlers } from './modules/dictionaries/routes.js';
import { enterpriseHandlers } from './modules/enterprise/routes.js';
import { feedbackHandlers } from './modules/feedback/routes.js';
import { financeHandlers } from './modules/finance/routes.js';
import { registerFlowApi } from './modules/flow/http.js';
import { flowHandlers } from './modules/flow/routes.js';
import { gatherHandlers } from './modules/gather/routes.js';
import { audienceListener } from './modules/gather/service.js';
import { geoHandlers } from './modules/geo/routes.js';
import { helpHandlers } from './modules/help/routes.js';
import { homeHandlers } from './modules/home/routes.js';
import { marketHandlers } from './modules/market/routes.js';
import { registerMaterialReferrer } from './modules/materials/references.js';
import { getMaterialsForRender } from './modules/materials/render.js';
import { materialHandlers } from './modules/materials/routes.js';
import { monitoringHandlers } from './modules/monitoring/routes.js';
import { NoticeCache } from './modules/notice/cache.js';
import { noticeHandlers } from './modules/notice/routes.js';
import { registerOAuthCallback } from './modules/oauth/callback.js';
import { oauthHandlers } from './modules/oauth/routes.js';
import { operationLogHandlers } from './modules/operationLog/routes.js';
import { registerPayNotify } from './modules/payments/http.js';
import { providerHandlers } from './modules/payments/providerRoutes.js';
import { paymentHandlers } from './modules/payments/routes.js';
import { posterHandlers } from './modules/posters/routes.js';
import { profileHandlers } from './modules/profile/routes.js';
import { registerQrcodeRoute } from './modules/qrcode/http.js';
import { qrcodeHandlers } from './modules/qrcode/routes.js';
import { registrationHandlers } from './modules/registration/routes.js';
import { reportHandlers } from './modules/reports/routes.js';
import { roleHandlers } from './modules/roles/routes.js';
import { rtbHandlers } from './modules/rtb/routes.js';
import { salesHandlers } from './modules/sales/routes.js';
import { schedulingHandlers } from './modules/scheduling/routes.js';
import { screenshotAckListener } from './modules/screenshots/ack.js';
import { screenshotHandlers } from './modules/screenshots/routes.js';
import { registerScreenshotUpload } from './modules/screenshots/upload.js';
import { sharesHandlers } from './modules/shares/routes.js';
import { sharingHandlers } from './modules/sharing/routes.js';
import { specialHandlers } from './modules/special/routes.js';
import { spliceHandlers } from './modules/splice/routes.js';
import { stationLetterHandlers } from './modules/stationLetter/routes.js';
import { storeHandlers } from './modules/stores/routes.js';
import { strategyHandlers } from './modules/strategies/routes.js';
import { setLayoutMaterialResolver } from './modules/templates/materials.js';
import { templatesUsingMaterials } from './modules/templates/repository.js';
import { templateHandlers } from './modules/templates/routes.js';
import { timeZoneHandlers } from './modules/timeZones/routes.js';
import { upgradeHandlers } from './modules/upgrades/routes.js';
import { upgradeAckListener } from './modules/upgrades/service.js';
import { verificationHandlers } from './modules/verification/routes.js';
import { type CodeSender, DevOutboxSender } from './modules/verification/sender.js';
import { warningsHandlers } from './modules/warnings/routes.js';
import { watermarkHandlers } from './modules/watermark/routes.js';
import { weatherHandlers } from './modules/weather/routes.js';
import { languageOf } from './protocol/envelope.js';
import type { Handler } from './protocol/handlers.js';
import { errorEnvelope, registerCalls } from './protocol/pipeline.js';
import { ReplayGuard } from './protocol/replayGuard.js';
import type { AppServices } from './services.js';
import { isHistoryRoute, isPlayerRoute, registerConsole, registerPlayer } from './static.js';
import { createFiles } from './storage/index.js';
import { registerFileRoute } from './storage/routes.js';
import { registerUploadRoute } from './storage/upload.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

/** Every handler of the catalogue, one module after the other. */
export const HANDLERS: readonly Handler[] = [
  ...authHandlers,
  ...verificationHandlers,
  ...registrationHandlers,
  ...oauthHandlers,
  ...profileHandlers,
  ...noticeHandlers,
  ...stationLetterHandlers,
  ...homeHandlers,
  ...deptHandlers,
  ...enterpriseHandlers,
  ...accountHandlers,
  ...roleHandlers,
  ...operationLogHandlers,
  ...advertiserHandlers,
  ...sharingHandlers,
  ...templateHandlers,
  ...weatherHandlers,
  ...timeZoneHandlers,
  ...sharesHandlers,
  ...deviceHandlers,
  ...contentHandlers,
  ...geoHandlers,
  ...storeHandlers,
  ...strategyHandlers,
  ...screenshotHandlers,
  ...upgradeHandlers,
  ...deviceGroupHandlers,
  ...spliceHandlers,
  ...deviceIoHandlers,
  ...gatherHandlers,
  ...materialHandlers,
  ...posterHandlers,
  ...adHandlers,
  ...schedulingHandlers,
  ...deviceReportHandlers,
  ...reportHandlers,
  ...financeHandlers,
  ...paymentHandlers,
  ...marketHandlers,
  ...salesHandlers,
  ...rtbHandlers,
  ...warningsHandlers,
  ...qrcodeHandlers,
  ...watermarkHandlers,
  ...monitoringHandlers,
  ...providerHandlers,
  ...flowHandlers,
  ...alarmHandlers,
  ...feedbackHandlers,
  ...specialHandlers,
  ...helpHandlers,
  ...dictionaryHandlers,
];

export interface BuildAppOptions {
  config: Config;
  db: Database;
  /** A logger to use instead of one built from config.logLevel (tests capture output). */
  logger?: Logger;
  /** Where the built logger writes (default stdout). */
  logStream?: DestinationStream;
  /** Milliseconds since the epoch (tests move time). */
  clock?: () => number;
  /** Handlers of endpoints that are not in the catalogue (tests of the pipeline itself). */
  extraEndpoints?: readonly Handler[];
  /** Delivers verification codes (default: the server log and the development outbox). */
  codeSender?: CodeSender;
  /** Jobs that are not in the registry (tests of the queue itself). */
  extraJobs?: readonly JobDefinition[];
}

const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/** Builds the server: the call pipeline with every catalogue endpoint, static console, logging. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const handlers = [...HANDLERS, ...(options.extraEndpoints ?? [])];
  const missing = ENDPOINT_LIST.filter((def) => !handlers.some((h) => h.def === def));
  if (missing.length > 0) throw new Error(`no handler for ${missing.map((d) => d.name).join(', ')}`);

  const logger = options.logger ?? createLogger(config.logLevel, options.logStream);
  const app = Fastify({
    loggerInstance: logger,
    // Fastify's own request lines would log the URL, whose query carries the token.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    // The device channel starts in onReady: against a Mosquitto whose dynsec file holds a
    // large fleet, its first start (the server's role, then a reconnection) took more than
    // Fastify's default 10 s on a loaded machine, and the server exited. The channel has its
    // own timeouts (connect 10 s, dynsec reconnection 15 s).
    pluginTimeout: 60_000,
  }) as unknown as FastifyInstance;

  const clock = options.clock ?? Date.now;
  const secret = await loadServerSecret(options.db.db, config.appSecret);
  const bus = new InvalidationBus(options.db, (error) => logger.warn({ err: error }, 'cache invalidation not sent'));
  const services: AppServices = {
    config,
    secret,
    db: options.db.db,
    database: options.db,
    bus,
    jobs: new JobQueue(options.db, config.jobs, logger),
    clock,
    sessions: new SessionService(options.db.db, {
      idleMs: config.sessionIdleHours * 3600_000,
      maxMs: config.sessionMaxDays * 86400_000,
    }),
    throttle: new LoginThrottle(options.db.db),
    replay: new ReplayGuard(options.db, TIMESTAMP_WINDOW_MS),
    notices: new NoticeCache(),
    codeSender: options.codeSender ?? new DevOutboxSender(options.db.db, logger),
    devices: new DeviceGateway({ config, db: options.db.db, clock, log: logger, secret }),
    files: createFiles(config, secret, clock),
  };
  // Layouts draw the library's materials and keep them in use (modules meet here, above both).
  setLayoutMaterialResolver((db, entId, ids) => getMaterialsForRender(db, entId, ids, services.files));
  registerLayoutMaterialReferrer();
  services.sessions.cache.connect(bus);
  services.notices.connect(bus);
  // The device channel announces heartbeats and acks; the modules keeping facts from them listen.
  services.devices.listen(audienceListener);
  services.devices.listen(adDownloadsListener());
  services.devices.listen(screenshotAckListener);
  services.devices.listen(upgradeAckListener(() => services.files, clock));
  services.devices.connectInvalidation(bus);
  await bus.start();
  try {
    await services.jobs.start([...JOBS, ...(options.extraJobs ?? [])], services);
  } catch (error) {
    await bus.stop();
    throw error;
  }
  // After the server stopped taking calls and those in flight answered (fastify close):
  // jobs get the shutdown timeout to finish (the rest are failed, so another instance
  // retries them at once), then the LISTEN connection closes. The caller closes the database.
  app.addHook('onClose', async () => {
    await services.jobs.stop(config.shutdownTimeoutMs);
    await bus.stop();
  });
  // The device channel: the broker starts with the app (WebSocket on /mqtt of this server),
  // its TCP port once the server listens. It closes before the HTTP server does (preClose):
  // a player's WebSocket is a connection of that server, and the server's close waits for
  // every connection, so a channel closed after it (onClose) held a stop with one connected
  // player until the shutdown timeout. A command sent by a call still in flight then stays
  // pending and goes out when the player reconnects.
  app.addHook('onReady', () => services.devices.start(app.server));
  // (Its failure, a busy MQTT_TCP_PORT, is the caller's to report: it awaits devices.tcpListening.)
  app.addHook('onListen', (done) => {
    services.devices.listenTcp(config.host).catch(() => {});
    done();
  });
  app.addHook('preClose', () => services.devices.close());
  app.decorate('services', services);
  app.decorateRequest('callInfo', null);

  // One line per request, with the path only (never the query string).
  app.addHook('onResponse', (request, reply, done) => {
    if (logger.isLevelEnabled('info')) {
      const call = request.callInfo;
      request.log.info(
        {
          method: request.method,
          path: pathOf(request.url),
          endpoint: call?.endpoint,
          code: call?.code,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 100) / 100,
          traceKey: call?.traceKey,
          accountId: call?.accountId,
          retried: call?.retried,
        },
        'request',
      );
    }
    done();
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const path = pathOf(request.url);
    const clientError = typeof error.statusCode === 'number' && error.statusCode < 500;
    if (isApi(path)) {
      // Framework-level rejections of a call (body too large, bad encoding) are envelope errors.
      const code = clientError ? ErrorCode.BAD_ENVELOPE : ErrorCode.SERVER_ERROR;
      if (!clientError) request.log.error({ err: error }, 'request failed');
      if (request.callInfo) request.callInfo.code = code;
      return reply.code(200).send(errorEnvelope(code, errorMessage(code, languageOf(request.query))));
    }
    if (!clientError) request.log.error({ err: error }, 'request failed');
    return reply
      .code(clientError ? (error.statusCode as number) : 500)
      .send({ error: clientError ? error.message : 'Internal Server Error' });
  });

  // Before any route: the compression hook attaches to each route as it is added.
  await registerCompression(app);
  // Liveness: the process answers. Readiness: it can serve calls (database) and run its
  // background work (job queue); a load balancer sends traffic only to ready instances.
  app.get('/api/health', async () => ({ ok: true }));
  app.get('/api/ready', async (_request, reply) => {
    const [database, jobs] = await Promise.all([
      options.db
        .executeSql('select 1')
        .then(() => true)
        .catch(() => false),
      services.jobs.ready(),
    ]);
    const ok = database && jobs;
    return reply
      .code(ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ ok, database: database ? 'up' : 'down', jobs: jobs ? 'up' : 'down' });
  });
  await registerCalls(app, handlers, services);
  await registerOAuthCallback(app);
  await registerDeviceApi(app, services);
  await registerScreenshotUpload(app, services);
  await registerContentApi(app, services);
  await registerOfflinePackageRoute(app, services);
  await registerFlowApi(app, services);
  await registerAlarmApi(app, services);
  await registerPayNotify(app, services);
  await registerQrcodeRoute(app, services);
  await registerFileRoute(app, services.files);
  await registerUploadRoute(app, services.files);
  const consoleServed = await registerConsole(app, config.webDist);
  const playerServed = await registerPlayer(app, config.playerDist);

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    if (playerServed && isPlayerRoute(request.method, path)) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(readFileSync(join(config.playerDist, 'index.html')));
    }
    if (consoleServed && isHistoryRoute(request.method, path)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    if (isApi(path)) {
      return reply
        .code(404)
        .send(errorEnvelope(ErrorCode.NOT_FOUND, errorMessage(ErrorCode.NOT_FOUND, languageOf(request.query))));
    }
    if (!consoleServed && path === '/') {
      return reply.code(404).type('text/plain; charset=utf-8').send('The console is not built: run `npm run build`.');
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
  });

  return app;
}

let layoutReferrerRegistered = false;
/** Layouts that name a material keep it from being deleted (once per process). */
function registerLayoutMaterialReferrer(): void {
  if (layoutReferrerRegistered) return;
  layoutReferrerRegistered = true;
  registerMaterialReferrer('layout', async (db, entId, materialIds) => {
    const wanted = new Set(materialIds);
    const used = new Set<string>();
    for (const row of await templatesUsingMaterials(db, entId, materialIds)) {
      for (const id of row.materialIds ?? []) if (wanted.has(id)) used.add(id);
    }
    return used;
  });
}
