import type { FastifyInstance } from 'fastify';
import type { Database } from './db/client.js';

/**
 * A graceful stop (SIGTERM, SIGINT): the device channel closes (the app's preClose hook: its
 * players' WebSockets are connections of this server), the server stops accepting connections and answers 503
 * to new requests on open ones, the calls in flight finish, the job queue gets
 * `config.shutdownTimeoutMs` for running jobs (the rest are failed, so another instance
 * retries them), the LISTEN connection closes (the app's onClose hook), then the database
 * pool ends (PGlite closes cleanly, leaving its data directory consistent). Calls that take
 * longer than the timeout are cut off rather than keeping the process alive for ever.
 */
export async function shutdownGracefully(app: FastifyInstance, database: Database): Promise<void> {
  const timeoutMs = app.services.config.shutdownTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs + 5_000);
    timer.unref();
  });
  // Node closes the connections idle at the moment of close() only: a keep-alive connection
  // whose call was in flight would then hold the stop for the keep-alive timeout. Closed
  // as soon as its answer is sent.
  const idle = setInterval(() => app.server.closeIdleConnections?.(), 50);
  try {
    const closed = await Promise.race([app.close().then(() => 'closed' as const), deadline]);
    if (closed === 'timeout') app.log.warn({ timeoutMs }, 'calls still running at the shutdown timeout');
  } finally {
    clearInterval(idle);
    clearTimeout(timer);
    await database.close();
  }
}
