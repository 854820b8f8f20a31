import type { SessionService } from './auth/sessions.js';
import type { LoginThrottle } from './auth/throttle.js';
import type { Config } from './config.js';
import type { Executor } from './db/client.js';
import type { DeviceGateway } from './modules/devices/gateway.js';
import type { NoticeCache } from './modules/notice/cache.js';
import type { CodeSender } from './modules/verification/sender.js';
import type { ReplayGuard } from './protocol/replayGuard.js';

/** Long-lived collaborators of one app instance (tests build several, so nothing is global). */
export interface AppServices {
  config: Config;
  /** The key of the server's own HMACs (auth/secret.ts): APP_SECRET or the one kept in the database. */
  secret: string;
  /** The root database (not a transaction). */
  db: Executor;
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
}
