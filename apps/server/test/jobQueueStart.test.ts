import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Executor } from '../src/db/client.js';
import { defineJob } from '../src/jobs/define.js';
import { JOBS } from '../src/jobs/index.js';
import { JOB_SCHEMA } from '../src/jobs/queue.js';
import { BACKENDS, createTestApp, createTestDatabase, type TestDatabase } from './helpers/index.js';

// A restart of an instance on a database whose job queues and schedules exist (issue 25: the
// start wrote every queue and every schedule again). It writes only what changed, and a
// changed queue setting now reaches the existing queue (pg-boss's createQueue kept the old one).

const JOB_CONFIG = { enabled: true, schedules: false, pollSeconds: 0.5, maintenanceSeconds: 60, poolSize: 2 };

function probe(expireInSeconds: number, schedule: string) {
  return defineJob({
    id: 'test-start-probe',
    payload: z.object({}),
    expireInSeconds,
    retryLimit: 1,
    schedule,
    handler: async () => {},
  });
}

async function rows<T>(db: Executor, query: string): Promise<T[]> {
  return ((await db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;
}

describe.each(BACKENDS)('a restart on existing job queues (%s)', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });

  afterAll(async () => {
    await database?.close();
  });

  it('keeps unchanged schedules as they are, and applies changed settings and schedules', async () => {
    const first = await createTestApp(backend, {
      database,
      config: { jobs: JOB_CONFIG },
      extraJobs: [probe(60, '*/5 * * * *')],
    });
    await first.close();
    type Schedule = { name: string; cron: string; updated: string };
    const scheduled = `select name, cron, updated_on::text as updated from ${JOB_SCHEMA}.schedule order by name`;
    const before = await rows<Schedule>(database.db, scheduled);
    expect(before.map((s) => s.name)).toEqual(
      [...JOBS.filter((j) => j.schedule).map((j) => j.id), 'test-start-probe'].sort(),
    );

    const second = await createTestApp(backend, {
      database,
      config: { jobs: JOB_CONFIG },
      extraJobs: [probe(120, '*/10 * * * *')],
    });
    try {
      const after = await rows<Schedule>(database.db, scheduled);
      // The registry's schedules were not written again; the probe's changed one was.
      expect(after.filter((s) => s.name !== 'test-start-probe')).toEqual(
        before.filter((s) => s.name !== 'test-start-probe'),
      );
      expect(after.find((s) => s.name === 'test-start-probe')?.cron).toBe('*/10 * * * *');
      const [queue] = await rows<{ expire: number; retries: number }>(
        database.db,
        `select expire_seconds as expire, retry_limit as retries from ${JOB_SCHEMA}.queue where name = 'test-start-probe'`,
      );
      expect(queue).toEqual({ expire: 120, retries: 1 });
      // And the queue works after the restart.
      const id = await second.services.jobs.send('test-start-probe', {});
      const deadline = Date.now() + 15_000;
      let state: string | undefined;
      while (Date.now() < deadline) {
        [{ state } = { state: undefined }] = await rows<{ state: string }>(
          database.db,
          `select state from ${JOB_SCHEMA}.job where id = '${id}'`,
        );
        if (state === 'completed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(state).toBe('completed');
    } finally {
      await second.close();
    }
  }, 60_000);
});
