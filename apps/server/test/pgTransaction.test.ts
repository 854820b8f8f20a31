import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { pgErrorCode } from '../src/db/errors.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from './helpers/db.js';

/** What every transaction promises, on both databases (PGlite runs its own, one at a time). */
describe.each(BACKENDS)('a transaction on %s', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    await database.db.execute(sql`create table tx_probe (n int primary key)`);
  });

  afterAll(async () => {
    await database?.close();
  });

  it("rolls back on a failure, answers with the failure's own error, and the next one works", async () => {
    const failed = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (1)`);
        await tx.execute(sql`insert into tx_probe values (1)`);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    // 23505 (unique_violation): the statement's own error.
    expect(pgErrorCode(failed)).toBe('23505');
    const none = (await database.db.execute(sql`select count(*)::int as n from tx_probe`)) as unknown as {
      rows: { n: number }[];
    };
    expect(none.rows).toEqual([{ n: 0 }]);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_probe values (2)`);
    });
    const one = (await database.db.execute(sql`select n from tx_probe`)) as unknown as { rows: { n: number }[] };
    expect(one.rows).toEqual([{ n: 2 }]);
  });
});

const NO_POSTGRES = process.env.TEST_DATABASE_URL
  ? ''
  : ' (skipped: TEST_DATABASE_URL is not set; PGlite lends no connections)';

/**
 * A pooled transaction always gives its connection back (db/pgTransaction.ts): drizzle's own
 * lost the pool's client when BEGIN failed, and closing the pool then waited for ever (the
 * PostgreSQL restart test's teardown hung in CI). PostgreSQL only: PGlite lends no connections.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(`a pooled transaction on postgres${NO_POSTGRES}`, () => {
  const backend = 'postgres' as const;
  let base: TestDatabase;
  let opened: Database;
  let pool: pg.Pool;

  beforeAll(async () => {
    base = await createTestDatabase(backend);
    // One connection: a connection the pool lost would leave nothing for the next call.
    opened = await openDatabase({ databaseUrl: base.url, maxConnections: 1 });
    pool = (opened.db as unknown as { $client: pg.Pool }).$client;
  });

  afterAll(async () => {
    // Resolves only when every connection came back to the pool.
    await opened?.close();
    await base?.close();
  });

  it('gives the connection back when BEGIN fails, and the next call gets a working one', async () => {
    // The pool's one connection left inside a failed transaction: its next BEGIN fails (25P02),
    // as a BEGIN on a connection the database has just closed does.
    const client = await pool.connect();
    await client.query('begin');
    await client.query('select 1 / 0').catch(() => {});
    client.release();

    let ran = false;
    const failed = await opened.db
      .transaction(async (tx) => {
        ran = true;
        await tx.execute(sql`select 1`);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(pgErrorCode(failed)).toBe('25P02');
    expect(ran).toBe(false);
    // The broken connection was closed, not kept and not lent again.
    expect(pool.totalCount).toBe(0);
    const answer = (await opened.db.execute(sql`select 1 as one`)) as unknown as { rows: { one: number }[] };
    expect(answer.rows).toEqual([{ one: 1 }]);
    const inTransaction = await opened.db.transaction(
      async (tx) => (await tx.execute(sql`select 2 as two`)) as unknown as { rows: { two: number }[] },
    );
    expect(inTransaction.rows).toEqual([{ two: 2 }]);
  });

  it("answers with the transaction's own error when its connection dies and the rollback fails too", async () => {
    const failed = await opened.db
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    // 57P01 (admin_shutdown): the cause, not the rollback's 'Client was closed'.
    expect(pgErrorCode(failed)).toBe('57P01');
    expect(pool.totalCount).toBe(0);
    const answer = (await opened.db.execute(sql`select 3 as three`)) as unknown as { rows: { three: number }[] };
    expect(answer.rows).toEqual([{ three: 3 }]);
  });
});
