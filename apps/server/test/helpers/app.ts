import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { Executor } from '../../src/db/client.js';
import type { JobDefinition } from '../../src/jobs/define.js';
import type { Handler } from '../../src/protocol/handlers.js';
import type { AppServices } from '../../src/services.js';
import { ApiClient } from './client.js';
import { TestClock } from './clock.js';
import { type Backend, createTestDatabase, type TestDatabase } from './db.js';
import { createEnterprise, createUser, type TestEnterprise, type TestUser } from './factories.js';

export interface TestAppOptions {
  config?: Partial<Config>;
  extraEndpoints?: readonly Handler[];
  logger?: Logger;
  logStream?: Writable;
  /** Jobs beside the registry's (tests of the queue). */
  extraJobs?: readonly JobDefinition[];
  /**
   * A database another app already uses (several instances on one database); close()
   * then leaves it open for its owner.
   */
  database?: TestDatabase;
}

export interface TestApp {
  backend: Backend;
  app: FastifyInstance;
  database: TestDatabase;
  /** The root database, for factories and assertions. */
  db: Executor;
  services: AppServices;
  clock: TestClock;
  /** A new client (own device uuid, no token). */
  client(options?: ConstructorParameters<typeof ApiClient>[2]): ApiClient;
  /** A client logged in as `user`. */
  loginAs(user: TestUser, options?: ConstructorParameters<typeof ApiClient>[2]): Promise<ApiClient>;
  /** A fresh enterprise with an administrator (all codes), logged in. */
  tenant(): Promise<{ ent: TestEnterprise; admin: TestUser; client: ApiClient }>;
  close(): Promise<void>;
}

/** Builds the app in-process on a fresh database of `backend`. Call close() in afterAll. */
export async function createTestApp(backend: Backend, options: TestAppOptions = {}): Promise<TestApp> {
  const shared = options.database;
  const database = shared ?? (await createTestDatabase(backend));
  const clock = new TestClock();
  const config: Config = {
    // No embedded broker TCP port unless a test asks for one (a fixed port may be busy). No
    // cron runs: a periodic job run by the wall clock's minute would race a test that runs it
    // by hand on its simulated clock (jobs sent or woken still run).
    ...loadConfig(
      { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', MQTT_TCP_PORT: 'off', JOB_SCHEDULES: 'off' },
      process.cwd(),
    ),
    webDist: '/nonexistent-web-dist',
    ...options.config,
  };
  let app: FastifyInstance;
  try {
    app = await buildApp({
      config,
      db: database,
      clock: clock.now,
      extraEndpoints: options.extraEndpoints,
      extraJobs: options.extraJobs,
      logger: options.logger,
      logStream: options.logStream,
    });
    await app.ready();
  } catch (error) {
    // Nobody could close what was never returned: drop the database here.
    if (!shared) await database.close();
    throw error;
  }
  const t: TestApp = {
    backend,
    app,
    database,
    db: database.db,
    services: app.services,
    clock,
    client: (clientOptions) => new ApiClient(app, clock, clientOptions),
    async loginAs(user, clientOptions) {
      const client = new ApiClient(app, clock, clientOptions);
      await client.login(user.loginName, user.password);
      return client;
    },
    async tenant() {
      const ent = await createEnterprise(database.db);
      const admin = await createUser(database.db, ent, { isEntAdmin: true });
      return { ent, admin, client: await t.loginAs(admin) };
    },
    async close() {
      await app.close();
      if (!shared) await database.close();
    },
  };
  return t;
}
