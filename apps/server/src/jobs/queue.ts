import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { JobsConfig } from '../config.js';
import type { Database, Executor } from '../db/client.js';
import type { AppServices } from '../services.js';
import { guardJobCompletions } from './completions.js';
import type { JobDefinition } from './define.js';

/** pg-boss keeps its tables in this schema of the application's database. */
export const JOB_SCHEMA = 'pgboss';

/** The driver's client under a drizzle executor: a pg PoolClient / Pool, or a PGlite transaction / PGlite. */
interface DriverClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * A drizzle executor (a call's transaction) as pg-boss's `db`, so a job is sent in that
 * transaction. pg-boss's SQL goes to the driver's client as it is (drizzle's session keeps
 * it as `client` for both drivers), with the driver's own parameter handling.
 */
function executorAsDb(db: Executor): PgBoss.Db {
  const client = (db as unknown as { session?: { client?: DriverClient } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('no driver client under this executor');
  return {
    async executeSql(text: string, values: unknown[] = []) {
      return { rows: (await client.query(text, values)).rows };
    },
  };
}

/**
 * The one queue of background work, on pg-boss in the application's database: every
 * instance can send; instances with JOBS=on also work the queues and run the schedules.
 * A run whose instance dies is expired by the queue's maintenance and run again by
 * another instance (each job's expireInSeconds and retryLimit).
 */
export class JobQueue {
  private boss: PgBoss | null = null;
  private readonly definitions = new Map<string, JobDefinition>();
  private readonly workers = new Map<string, string>();
  private running = false;

  constructor(
    private readonly database: Database,
    private readonly config: JobsConfig,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Creates the queues of `definitions` (idempotent), then works them and keeps their schedules (JOBS=on). */
  async start(definitions: readonly JobDefinition[], services: AppServices): Promise<void> {
    for (const def of definitions) {
      if (this.definitions.has(def.id)) throw new Error(`job ${def.id} is defined twice`);
      this.definitions.set(def.id, def);
    }
    const connection: PgBoss.DatabaseOptions =
      this.database.kind === 'postgres'
        ? { connectionString: this.database.url, max: this.config.poolSize, application_name: 'marquee-jobs' }
        : { db: { executeSql: (text, values) => this.database.executeSql(text, values) } };
    // A run's end is recorded even when the connection is cut at that moment (./completions.ts).
    guardJobCompletions();
    // Instances started together on a fresh database race to create pg-boss's schema (its
    // check is outside its lock): the loser fails, and a new attempt finds the schema made.
    let boss: PgBoss | null = null;
    for (let attempt = 1; !boss; attempt++) {
      const candidate = new PgBoss({
        ...connection,
        schema: JOB_SCHEMA,
        supervise: this.config.enabled,
        schedule: this.config.enabled && this.config.schedules,
        maintenanceIntervalSeconds: this.config.maintenanceSeconds,
      });
      candidate.on('error', (error) => this.log.warn({ err: error }, 'job queue error'));
      try {
        await candidate.start();
        boss = candidate;
      } catch (error) {
        // (Its pool's idle connections close by themselves after pg's idle timeout.)
        await candidate.stop({ graceful: false, close: true, wait: true }).catch(() => {});
        if (attempt >= 5) throw error;
        this.log.warn({ err: error, attempt }, 'job queue start failed, trying again');
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
    this.boss = boss;
    this.running = true;
    // A restart finds its queues and schedules made: one read of each, and a write only for
    // what is missing or changed (pg-boss's createQueue keeps an existing queue's settings,
    // so a changed expireInSeconds or retry setting is an update). The workers start last:
    // their first polls would queue the start's own statements behind them (PGlite runs one
    // at a time).
    const queues = new Map((await boss.getQueues()).map((q) => [q.name, q]));
    for (const def of definitions) {
      const options = {
        name: def.id,
        policy: 'standard' as const,
        expireInSeconds: def.expireInSeconds ?? 15 * 60,
        retryLimit: def.retryLimit ?? 2,
        retryDelay: def.retryDelay ?? 5,
      };
      const existing = queues.get(def.id);
      if (!existing) await boss.createQueue(def.id, options);
      else if (
        existing.expireInSeconds !== options.expireInSeconds ||
        existing.retryLimit !== options.retryLimit ||
        existing.retryDelay !== options.retryDelay
      ) {
        await boss.updateQueue(def.id, options);
      }
    }
    if (!this.config.enabled) return;
    const schedules = new Map(
      ((await boss.getSchedules()) as { name: string; cron: string; timezone: string }[]).map((s) => [s.name, s]),
    );
    for (const def of definitions) {
      if (!def.schedule) continue;
      const existing = schedules.get(def.id);
      if (existing?.cron === def.schedule && existing.timezone === 'UTC') continue;
      await boss.schedule(def.id, def.schedule, {}, { tz: 'UTC' });
    }
    for (const def of definitions) {
      const workerId = await boss.work(
        def.id,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: this.config.pollSeconds },
        (jobs) => this.run(def, jobs, services),
      );
      this.workers.set(def.id, workerId);
    }
  }

  private async run(def: JobDefinition, jobs: PgBoss.JobWithMetadata<unknown>[], services: AppServices) {
    for (const job of jobs) {
      const log = this.log.child({ job: def.id, jobId: job.id });
      const payload = def.payload.parse(job.data ?? {});
      try {
        await def.handler(payload, {
          services,
          log,
          jobId: job.id,
          retryCount: job.retryCount,
          retryLimit: job.retryLimit,
        });
      } catch (error) {
        log.warn({ err: error, retryCount: job.retryCount }, 'job failed');
        throw error;
      }
    }
  }

  /**
   * Sends a job after checking its payload. With `db` (a call's transaction) the job exists
   * only if that transaction commits. Returns the job's id.
   */
  async send(id: string, payload: unknown, db?: Executor): Promise<string> {
    const def = this.definitions.get(id);
    if (!def) throw new Error(`unknown job ${id}`);
    if (!this.boss) throw new Error('the job queue is not started');
    const data = def.payload.parse(payload) as object;
    const jobId = await this.boss.send(id, data, db ? { db: executorAsDb(db) } : {});
    if (!jobId) throw new Error(`job ${id} was not queued`);
    return jobId;
  }

  /**
   * Sends a job to run soon, at most once per `seconds` window: a send while one is waiting
   * in the current window goes into the next window (pg-boss debouncing), so a burst of sends
   * runs the job about every `seconds` and the last send of a burst is never lost.
   */
  async sendDebounced(id: string, payload: unknown, seconds: number): Promise<void> {
    const def = this.definitions.get(id);
    if (!def) throw new Error(`unknown job ${id}`);
    if (!this.boss) throw new Error('the job queue is not started');
    await this.boss.sendDebounced(id, def.payload.parse(payload) as object, {}, seconds);
  }

  /** Asks this instance's worker of `id` to look for work now instead of at its next poll. */
  wake(id: string): void {
    const workerId = this.workers.get(id);
    if (workerId && this.boss) this.boss.notifyWorker(workerId);
  }

  /** True when the queue is started and its tables answer (readiness). */
  async ready(): Promise<boolean> {
    if (!this.running || !this.boss) return false;
    try {
      await this.database.executeSql(`select 1 from ${JOB_SCHEMA}.version`);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Stops taking jobs and waits up to `timeoutMs` for runs in progress; runs still going
   * then are failed, so another instance retries them at once.
   */
  async stop(timeoutMs = 30_000): Promise<void> {
    const boss = this.boss;
    if (!boss || !this.running) return;
    this.running = false;
    await boss.stop({ graceful: true, timeout: timeoutMs, close: true, wait: true });
  }
}
