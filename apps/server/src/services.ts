import type { SessionService } from './auth/sessions.js';
import type { LoginThrottle } from './auth/throttle.js';
import type { Config } from './config.js';
import type { Database, Executor } from './db/client.js';
import type { InvalidationBus } from './db/invalidation.js';
import type { JobQueue } from './jobs/queue.js';
import type { DeviceGateway } from './modules/devices/gateway.js';
import type { NoticeCache } from './modules/notice/cache.js';
import type { CodeSender } from './modules/verification/sender.js';
import type { ReplayGuard } from './protocol/replayGuard.js';
import type { Files } from './storage/files.js';

/** Long-lived collaborators of one app instance (tests build several, so nothing is global). */
export interface AppServices {
  config: Config;
  /** The key of the server's own HMACs (auth/secret.ts): APP_SECRET or the one kept in the database. */
  secret: string;
  /** The root database (not a transaction). */
  db: Executor;
  /** The database handle (driver, raw SQL, LISTEN): readiness, the job queue, the invalidation bus. */
  database: Database;
  /** Cache invalidations shared with the other instances on the database (LISTEN/NOTIFY). */
  bus: InvalidationBus;
  /** The background job queue (pg-boss): send jobs; this instance runs them when JOBS=on. */
  jobs: JobQueue;
  /** Milliseconds since the epoch; tests move it to expire sessions and windows. */
  clock: () => number;
  sessions: SessionService;
  throttle: LoginThrottle;
  replay: ReplayGuard;
  notices: NoticeCache;
  /** Delivers verification codes (default: server log + development outbox). */
  codeSender: CodeSender;
  /** The device channel: broker, presence, commands (modules/devices/gateway.ts). */
  devices: DeviceGateway;
  /** File storage with signed URLs (src/storage). */
  files: Files;
}
