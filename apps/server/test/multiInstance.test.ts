import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSignedCall, type CallQuery, ErrorCode, endpoints } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { z } from 'zod';
import { defineJob, type JobDefinition } from '../src/jobs/define.js';
import {
  BACKENDS,
  createEnterprise,
  createTestApp,
  createTestDatabase,
  createUser,
  TEST_PASSWORD,
  type TestApp,
  type TestDatabase,
} from './helpers/index.js';

// Several instances of the server on one database (docs/operations.md): two apps built in
// this process on the same PGlite or PostgreSQL database, as two processes behind a load
// balancer would be. What one instance learns (a call's sequence, a logout, a failed
// login, an export, a job) the other must know.

/** Polls `check` until it is true or `ms` pass; returns how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not within ${ms} ms`);
}

/** A job whose handler a test controls: runs are counted per instance and held until `hold` resolves. */
function holdJob(
  instance: string,
  runs: { instance: string; retryCount: number }[],
  hold: Promise<void> | null,
): JobDefinition {
  return defineJob({
    id: 'test-hold',
    payload: z.object({ n: z.number() }),
    expireInSeconds: 2,
    retryLimit: 3,
    retryDelay: 0,
    handler: async (_payload, ctx) => {
      runs.push({ instance, retryCount: ctx.retryCount });
      // "Dies" mid-job: does not finish while the test runs.
      if (hold) await hold;
    },
  });
}

const JOB_CONFIG = { enabled: true, schedules: false, pollSeconds: 0.5, maintenanceSeconds: 1, poolSize: 2 };

describe.each(BACKENDS)('two instances on one %s database', (backend) => {
  let database: TestDatabase;
  let dataDir: string;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    // Export files live in the data directory, which instances share (docs/operations.md).
    dataDir = await mkdtemp(join(tmpdir(), 'marquee-multi-'));
    // A only serves (JOBS=off): every job it sends is run by B.
    a = await createTestApp(backend, { database, config: { dataDir, jobs: { ...JOB_CONFIG, enabled: false } } });
    b = await createTestApp(backend, { database, config: { dataDir, jobs: JOB_CONFIG } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses on one instance a call already accepted by the other (replay)', async () => {
    const ent = await createEnterprise(database.db);
    const user = await createUser(database.db, ent);
    const client = await a.loginAs(user);
    const call = buildSignedCall(
      { pushPlatform: 1 },
      {
        token: client.token ?? undefined,
        uuid: client.uuid,
        sequence: 'replay-across-1',
        traceKey: 'trace-replay',
        language: 'en-US',
        now: a.clock.now(),
      },
    );
    const request = {
      path: endpoints.noticeList.path,
      query: call.query as CallQuery as Record<string, string>,
      body: call.body,
    };
    expect((await a.client().raw(request)).envelope.code).toBe(0);
    expect((await b.client().raw(request)).envelope.code).toBe(ErrorCode.REPLAYED_SEQUENCE);
    expect((await a.client().raw(request)).envelope.code).toBe(ErrorCode.REPLAYED_SEQUENCE);
  });

  // How soon is bench/multi-instance.ts's figure; these wait for the behaviour, bounded only so
  // that a missing invalidation fails instead of hanging.
  it('ends a session on both instances after a logout on one', async () => {
    const ent = await createEnterprise(database.db);
    const user = await createUser(database.db, ent);
    const onA = await a.loginAs(user);
    const onB = b.client({ token: onA.token });
    // B has the session in its cache (B's test clock never moves, so only an invalidation evicts it).
    expect((await onB.call(endpoints.authInfo)).envelope.code).toBe(0);
    expect((await onA.call(endpoints.logout)).envelope.code).toBe(0);
    await within(10_000, async () => (await onB.call(endpoints.authInfo)).envelope.code === ErrorCode.TOKEN_INVALID);
  });

  it('ends the sessions of a paused account on both instances', async () => {
    const ent = await createEnterprise(database.db);
    const admin = await createUser(database.db, ent, { isEntAdmin: true });
    const staff = await createUser(database.db, ent);
    const adminOnA = await a.loginAs(admin);
    const staffOnB = await b.loginAs(staff);
    expect((await staffOnB.call(endpoints.authInfo)).envelope.code).toBe(0);
    const paused = await adminOnA.call(endpoints.accountSetStatus, { id: staff.id, status: 'paused' });
    expect(paused.envelope.code).toBe(0);
    await within(
      10_000,
      async () => (await staffOnB.call(endpoints.authInfo)).envelope.code === ErrorCode.SESSION_ENDED,
    );
  });

  it('counts failed logins on both instances in one throttle', async () => {
    const ent = await createEnterprise(database.db);
    const user = await createUser(database.db, ent);
    const wrong = { loginName: user.loginName, password: 'Wrong@Pass2026' };
    for (let i = 0; i < 5; i++) {
      const app = i % 2 === 0 ? a : b;
      expect((await app.client().call(endpoints.login, wrong, { token: null })).envelope.code).toBe(
        ErrorCode.LOGIN_FAILED,
      );
    }
    // The sixth attempt, on either instance and even with the right password, waits.
    for (const app of [a, b]) {
      const res = await app.client().call(endpoints.login, { loginName: user.loginName, password: TEST_PASSWORD });
      expect(res.envelope.code).toBe(ErrorCode.RATE_LIMITED);
    }
  });

  it('serves on one instance an export started on the other and run by a third party (the job queue)', async () => {
    const { client } = await a.tenant();
    const started = await client.call(endpoints.operationLogExportStart, {});
    expect(started.envelope.code).toBe(0);
    const { exportId } = started.envelope.payload;
    // A does not run jobs: B's worker takes the job from the queue.
    const onB = b.client({ token: client.token });
    await within(15_000, async () => {
      const res = await onB.call(endpoints.operationLogExportStatus, { exportId });
      return res.envelope.payload?.status === 'done';
    });
    const file = await onB.call(endpoints.operationLogExportDownload, { exportId });
    expect(file.status).toBe(200);
    expect(file.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // And A answers the same status.
    expect((await client.call(endpoints.operationLogExportStatus, { exportId })).envelope.payload.status).toBe('done');
  });

  it('runs on another instance a job whose instance stopped mid-run', async () => {
    const runs: { instance: string; retryCount: number }[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // C takes the job and holds it; it is stopped (SIGTERM) with 1 s for its jobs.
    const c = await createTestApp(backend, {
      database,
      config: { dataDir, jobs: JOB_CONFIG, shutdownTimeoutMs: 1000 },
      extraJobs: [holdJob('c', runs, held)],
    });
    let d: TestApp | undefined;
    let statements: MockInstance<TestDatabase['executeSql']> | undefined;
    try {
      await c.services.jobs.send('test-hold', { n: 1 });
      c.services.jobs.wake('test-hold');
      await within(10_000, async () => runs.length === 1);
      await c.app.close();
      // Each run's end is written by its queue, C's too (after its stop): on PGlite through the
      // database's executeSql (pg-boss on PostgreSQL has a pool of its own, closed by the stop).
      statements = vi.spyOn(database, 'executeSql');
      // D starts after C took the job, so only a retry can bring it to D.
      d = await createTestApp(backend, {
        database,
        config: { dataDir, jobs: JOB_CONFIG },
        extraJobs: [holdJob('d', runs, null)],
      });
      await within(15_000, async () => runs.some((r) => r.instance === 'd'));
      expect(runs[0]).toEqual({ instance: 'c', retryCount: 0 });
      expect(runs.find((r) => r.instance === 'd')?.retryCount).toBeGreaterThanOrEqual(1);
    } finally {
      // C's abandoned run ends while the database is still open (its queue's late bookkeeping
      // would otherwise hit a closed PGlite): every run's completion statement has answered.
      release();
      if (statements && backend === 'pglite') {
        const spy = statements;
        const completions = () =>
          spy.mock.calls.flatMap(([text, values], i) =>
            values?.[0] === 'test-hold' && text.includes("state = 'completed'") ? [spy.mock.results[i]] : [],
          );
        await vi
          .waitFor(() => expect(completions().length).toBeGreaterThanOrEqual(runs.length), { timeout: 10_000 })
          .catch(() => {});
        await Promise.allSettled(completions().map((r) => r.value));
      }
      statements?.mockRestore();
      await c.close().catch(() => {});
      await d?.close();
    }
  });
});

const NO_POSTGRES = process.env.TEST_DATABASE_URL
  ? ''
  : ' (skipped: TEST_DATABASE_URL is not set; an instance in a process of its own needs a shared PostgreSQL)';

describe.skipIf(!process.env.TEST_DATABASE_URL)(`an instance killed mid-job on PostgreSQL${NO_POSTGRES}`, () => {
  it('leaves its job to another instance, which completes it', async () => {
    const database = await createTestDatabase('postgres');
    const runs: { instance: string; retryCount: number }[] = [];
    // Sends only (JOBS=off): the job goes to the process below.
    const sender = await createTestApp('postgres', {
      database,
      config: { jobs: { ...JOB_CONFIG, enabled: false } },
      extraJobs: [holdJob('sender', runs, null)],
    });
    const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/jobInstance.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
    });
    let d: TestApp | undefined;
    try {
      await within(60_000, async () => out.includes('ready'));
      await sender.services.jobs.send('test-hold', { n: 1 });
      await within(15_000, async () => out.includes('started'));
      // Death: no stop, no failing of its runs; the queue only sees the run go silent.
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      d = await createTestApp('postgres', {
        database,
        config: { jobs: JOB_CONFIG },
        extraJobs: [holdJob('d', runs, null)],
      });
      // Expired after its 2 s by D's maintenance (every second), then retried by D.
      await within(20_000, async () => runs.some((r) => r.instance === 'd'));
      expect(runs.find((r) => r.instance === 'd')?.retryCount).toBeGreaterThanOrEqual(1);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await d?.close();
      await sender.close();
      await database.close();
    }
  }, 120_000);
});
