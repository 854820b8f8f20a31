import { execFileSync } from 'node:child_process';
import { chownSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildSignedCall,
  type CallQuery,
  type EndpointDef,
  ErrorCode,
  endpoints,
  toQueryString,
} from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../src/db/client.js';
import { defineHandler } from '../src/protocol/handlers.js';
import { shutdownGracefully } from '../src/shutdown.js';
import { BACKENDS, createTestApp, createTestDatabase, type TestApp } from './helpers/index.js';

// The server's life around its calls: a graceful stop (SIGTERM), and PostgreSQL restarted
// under load on a cluster of the test's own.

/** A call that, with `hold`, stays in its handler until the test lets it go (`release`). */
const slow = {
  name: 'test.slow',
  path: '/api/test/slow.shtm',
  auth: 'public',
  request: z.object({ hold: z.boolean() }).strict(),
  response: z.object({ held: z.boolean() }),
} satisfies EndpointDef;
/** Resolved when a held call reaches its handler (the call is then in flight). */
let reached: () => void = () => {};
/** Lets the held call answer. */
let release: () => void = () => {};
let released = Promise.resolve();
const slowHandler = defineHandler(slow, {
  handle: async ({ hold }) => {
    if (hold) {
      reached();
      await released;
    }
    return { held: hold };
  },
});

let sequence = 0;
/** A signed call over real HTTP (not inject: a stop must refuse connections). */
async function post(port: number, def: EndpointDef, data: unknown, now: number, token?: string) {
  const call = buildSignedCall(data, {
    token,
    uuid: 'lifecycle-test',
    sequence: `life-${process.pid}-${++sequence}`,
    traceKey: `life-${sequence}`,
    language: 'en-US',
    now,
  });
  const res = await fetch(`http://127.0.0.1:${port}${def.path}?${toQueryString(call.query as CallQuery)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-id': '86', platform: '2' },
    body: call.body,
  });
  return { status: res.status, envelope: (await res.json().catch(() => null)) as { code: number; payload: unknown } };
}

describe.each(BACKENDS)('graceful shutdown (%s)', (backend) => {
  it('finishes the calls in flight, refuses new ones, then closes the database', async () => {
    const database = await createTestDatabase(backend);
    const t = await createTestApp(backend, { database, extraEndpoints: [slowHandler] });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const inHandler = new Promise<void>((resolve) => {
        reached = resolve;
      });
      released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const inFlight = post(port, slow, { hold: true }, t.clock.now());
      // (A call refused before its handler would answer first and fail the test here.)
      const first = await Promise.race([inHandler.then(() => 'in handler'), inFlight]);
      expect(first).toBe('in handler');
      const stopping = shutdownGracefully(t.app, database);
      // The stop has closed the listener (after the device channel: the app's preClose hook).
      await vi.waitFor(() => expect(t.app.server.listening).toBe(false), { timeout: 10_000, interval: 20 });
      // A new call while the stop waits for the one in flight: refused (connection refused or 503).
      const late = await post(port, slow, { hold: false }, t.clock.now()).then(
        (res) => res.status,
        () => 'refused' as const,
      );
      expect([503, 'refused']).toContain(late);
      release();
      const answered = await inFlight;
      expect(answered.status).toBe(200);
      expect(answered.envelope).toMatchObject({ code: 0, payload: { held: true } });
      await stopping;
      await expect(database.db.execute(sql`select 1`)).rejects.toThrow();
    } finally {
      // Already closed by the stop; closing again only drops a PostgreSQL test database.
      await database.close().catch(() => {});
    }
  }, 120_000);
});

const PG_BIN = '/usr/lib/postgresql/15/bin';
const PG_REASON = existsSync(join(PG_BIN, 'initdb'))
  ? null
  : `PostgreSQL 15's initdb and pg_ctl are not in ${PG_BIN}: the restart test makes its own cluster`;

/** initdb refuses root: as root, the cluster's commands run as the postgres user. */
function pgCommand(command: string, args: string[], cwd: string): string {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, command), ...args]]
    : [join(PG_BIN, command), args];
  return execFileSync(file, argv as string[], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    server.on('error', reject);
  });
}

describe.skipIf(PG_REASON !== null)(
  `PostgreSQL restarted under load${PG_REASON ? ` (skipped: ${PG_REASON})` : ''}`,
  () => {
    let dir: string;
    let port: number;
    let options: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'marquee-pg-'));
      if (process.getuid?.() === 0) {
        const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
        const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
        chownSync(dir, uid, gid);
      }
      port = await freePort();
      options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
      pgCommand('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync'], dir);
      pgCommand('pg_ctl', ['-D', join(dir, 'data'), '-o', options, '-l', join(dir, 'log'), '-w', 'start'], dir);
    }, 60_000);

    afterAll(async () => {
      if (!dir) return;
      try {
        pgCommand('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop'], dir);
      } catch {
        // not running
      }
      await rm(dir, { recursive: true, force: true });
    });

    it('reconnects by itself and answers again, with no acknowledged write lost', async () => {
      const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
      const opened = await openDatabase({ databaseUrl: url, maxConnections: 5 });
      await opened.migrate();
      const database = { ...opened, backend: 'postgres' as const };
      let t: TestApp | undefined;
      try {
        t = await createTestApp('postgres', {
          database,
          config: { jobs: { enabled: true, schedules: false, pollSeconds: 0.5, maintenanceSeconds: 1, poolSize: 2 } },
        });
        const app = t;
        const { ent, client } = await app.tenant();
        const acknowledged: string[] = [];
        const failures: number[] = [];
        let restartedAt = Number.POSITIVE_INFINITY;
        let afterRestart = 0;
        let stop = false;
        let n = 0;
        const worker = async (w: number) => {
          while (!stop) {
            const name = `w${w}-${n++}`;
            const res = await client.call(endpoints.deptAdd, { parentId: ent.depts.root, name });
            if (res.envelope.code === 0) {
              acknowledged.push(res.envelope.payload.id);
              if (Date.now() > restartedAt) afterRestart++;
            } else {
              failures.push(res.envelope.code);
              await new Promise((r) => setTimeout(r, 20));
            }
          }
        };
        const workers = [0, 1, 2, 3].map(worker);
        // Writes under way before the restart.
        await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThanOrEqual(20), {
          timeout: 20_000,
          interval: 20,
        });
        const before = acknowledged.length;
        pgCommand(
          'pg_ctl',
          ['-D', join(dir, 'data'), '-o', options, '-l', join(dir, 'log'), '-m', 'fast', '-w', 'restart'],
          dir,
        );
        restartedAt = Date.now();
        await vi
          .waitFor(() => expect(afterRestart).toBeGreaterThanOrEqual(20), { timeout: 20_000, interval: 50 })
          .catch(() => {});
        stop = true;
        await Promise.all(workers);

        expect(before).toBeGreaterThan(0);
        // It answers again by itself: no restart of the server, no manual reconnection.
        expect(afterRestart).toBeGreaterThanOrEqual(20);
        // Calls cut off by the restart failed as server errors, never as anything misleading.
        expect(failures.every((code) => code === ErrorCode.SERVER_ERROR)).toBe(true);
        // Every acknowledged write is there.
        const ids = new Set(
          (
            (await opened.db.execute(sql`select id from departments where ent_id = ${ent.id}`)) as unknown as {
              rows: { id: string }[];
            }
          ).rows.map((r) => r.id),
        );
        const lost = acknowledged.filter((id) => !ids.has(id));
        expect(lost).toEqual([]);
        // Readiness comes back (database and job queue), and so does the LISTEN connection.
        await vi.waitFor(
          async () => expect((await app.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200),
          { timeout: 15_000, interval: 200 },
        );
        await vi.waitFor(
          async () => {
            const result = (await opened.db.execute(
              sql`select count(*)::int as n from pg_stat_activity where application_name = 'marquee-listen'`,
            )) as unknown as { rows: { n: number }[] };
            expect(result.rows[0].n).toBe(1);
          },
          { timeout: 15_000, interval: 200 },
        );
        console.log(
          `restart under load: ${acknowledged.length} writes acknowledged (${before} before the restart), ` +
            `${failures.length} calls cut off, ${lost.length} lost`,
        );
      } finally {
        await t?.app.close();
        await opened.close();
      }
    }, 90_000);
  },
);
