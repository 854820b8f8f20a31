import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AppServices } from '../services.js';

/** What a job's handler gets besides its payload. */
export interface JobContext {
  services: AppServices;
  log: FastifyBaseLogger;
  /** The queue's id of this run. */
  jobId: string;
  /** 0 on the first run, then 1, 2... on retries (after a failure or an instance's death). */
  retryCount: number;
  /** Retries allowed; the run with retryCount === retryLimit is the last. */
  retryLimit: number;
}

/**
 * One kind of background work: its id (the pg-boss queue name), the schema of its payload,
 * its handler, and optionally a cron schedule (UTC) on which one instance sends it.
 */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  id: string;
  payload: S;
  handler: (payload: z.infer<S>, ctx: JobContext) => Promise<void>;
  /** Cron expression (minute granularity, UTC); the job is sent with `{}` as its payload. */
  schedule?: string;
  /**
   * How long a run may take before the queue counts it as lost (its instance died) and
   * runs it again; default 15 minutes.
   */
  expireInSeconds?: number;
  /** Runs after the first that a failure (or expiry) allows; default 2. */
  retryLimit?: number;
  /** Seconds between a failure and the retry; default 5. */
  retryDelay?: number;
}

/** Declares a job (the type of its handler's payload comes from the schema). */
export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}
