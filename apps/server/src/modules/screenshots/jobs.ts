import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../../services.js';
import { pruneScreenshots, queueTimedScreenshots } from './service.js';

/** The timed-screenshot job's id and schedule (spec section 9: hourly on the hour). */
export const TIMED_SCREENSHOT_JOB = 'screenshot-timed';
export const TIMED_SCREENSHOT_CRON = '0 * * * *';
/** The daily cleanup of screenshots older than 7 days, with their files. */
export const SCREENSHOT_CLEANUP_JOB = 'screenshot-cleanup';
export const SCREENSHOT_CLEANUP_CRON = '47 3 * * *';

/** Stores the hour's screenshot commands, then publishes them to their (online) devices. */
export async function runTimedScreenshots(services: AppServices, log: FastifyBaseLogger): Promise<number> {
  const ids = await queueTimedScreenshots(services.db, new Date(services.clock()));
  await services.devices.dispatch(ids);
  log.debug({ commands: ids.length }, 'timed screenshots sent');
  return ids.length;
}

export async function runScreenshotCleanup(services: AppServices, log: FastifyBaseLogger): Promise<number> {
  const deleted = await pruneScreenshots(services.db, services.files, new Date(services.clock()));
  log.debug({ deleted }, 'old screenshots deleted');
  return deleted;
}
