import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { QueryResult } from 'pg';

/**
 * What every repository takes: the root database or a transaction (a transaction is a
 * PgDatabase too), for either driver.
 */
export type Executor = PgDatabase<PgQueryResultHKT>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Executor;
  /**
   * Where a read whose shape repeats and whose planning costs more than its execution runs
   * as a named prepared statement (`preparePlanned`, db/planned.ts): on PostgreSQL a small
   * pool of its own whose connections keep one generic plan per statement
   * (`plan_cache_mode=force_generic_plan`, which PostgreSQL sets per session, not per
   * statement); on PGlite the database itself.
   */
  planned: Executor;
  /** Applies pending migrations (drizzle's migrator for the driver in use). */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL's connection string, for clients that open their own connections (the job queue). */
  url?: string;
  /**
   * Raw SQL with `$n` parameters, as pg-boss calls it: the rows of every statement of a
   * multi-statement text (pg-boss migrations), one statement when there are values.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * LISTEN on `channel`: `onNotify` gets each payload. On PostgreSQL a dedicated connection
   * that reconnects by itself; `onReconnect` runs after each reconnection (notifications may
   * have been missed meanwhile). Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /** PGlite only: an image of the data directory (uncompressed tar) that `pgliteImage` opens again. */
  dumpImage?(): Promise<Blob>;
}

/** Calls a connection of the planned pool serves before it is replaced (and its plans dropped). */
export const PLANNED_MAX_USES = 20_000;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; absent means in memory (tests). */
  pgliteDir?: string;
  /**
   * PGlite: start from this image of a data directory (`dumpImage`) instead of an empty
   * cluster. Tests open a migrated image: about 1 s instead of 3 to 5 s for a cluster and its
   * migrations.
   */
  pgliteImage?: Blob;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
}

/**
 * Opens PostgreSQL (`databaseUrl`) or the embedded PGlite. Drivers are imported lazily so
 * the one not in use costs nothing at start.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const [{ default: pg }, { drizzle }, { migrate }, { installPooledTransaction }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
      import('./pgTransaction.js'),
    ]);
    installPooledTransaction();
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.maxConnections ?? 10,
      // No JIT compilation (a startup parameter of each connection): the product's queries are
      // short (a page, a counter, a rollup's day), and a plan whose estimate passes
      // jit_above_cost (a merged list's branches, whose sorts the planner prices at a whole
      // department) spent 40 ms compiling to run in 1 ms. docs/operations.md: behind PgBouncer.
      options: '-c jit=off',
    });
    // An idle connection the server closes (restart, administrator command) must not crash
    // the process: the pool drops it and the next query opens a new one.
    pool.on('error', (err) => console.warn(`postgres: idle connection closed: ${err.message}`));
    // A connection checked out for a transaction has no listener of its own: when the server
    // goes away mid-transaction (restart, failover) its 'error' would be an uncaught
    // exception. The transaction's query fails (the call answers SERVER_ERROR) and the pool
    // discards the broken connection on release.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const db = drizzle({ client: pool });
    // The planned pool (preparePlanned): a merged list page of a region's 22 departments is a
    // union of about 50 index scans, planned in 5 to 15 ms and run in 2; kept as a named
    // statement with its generic plan it is planned once per connection and shape. Forced
    // here: under the default `plan_cache_mode = auto` PostgreSQL kept planning a region's
    // page and total anew on every execution (custom plans, 14 of 14: a generic plan under a
    // LIMIT placeholder is estimated at a tenth of the rows, so it never looks cheaper).
    // Generic plans only here: an unnamed statement of that session would get one too (42 ms
    // instead of 9 for the same page, as its values no longer choose the plan); PostgreSQL
    // sets the mode per session (or per transaction, a round trip more), not per statement,
    // hence a pool of its own. Its connections stay open while used (their plans with them)
    // and are replaced after PLANNED_MAX_USES calls, which bounds the plans a connection keeps.
    const plannedPool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: Math.max(2, Math.ceil((options.maxConnections ?? 10) / 3)),
      idleTimeoutMillis: 300_000,
      maxUses: PLANNED_MAX_USES,
      options: '-c jit=off -c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0',
    });
    plannedPool.on('error', (err) => console.warn(`postgres: idle connection closed: ${err.message}`));
    plannedPool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const databaseUrl = options.databaseUrl;
    return {
      kind: 'postgres',
      db: db as unknown as Executor,
      planned: drizzle({ client: plannedPool }) as unknown as Executor,
      migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      close: async () => {
        await Promise.all([pool.end(), plannedPool.end()]);
      },
      url: databaseUrl,
      executeSql: async (text, values) => {
        const result = (await pool.query(text, values)) as unknown as QueryResult | QueryResult[];
        return { rows: Array.isArray(result) ? result.flatMap((r) => r.rows) : result.rows };
      },
      listen: (channel, onNotify, onReconnect) => listenPostgres(pg, databaseUrl, channel, onNotify, onReconnect),
    };
  }
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  // pg_trgm (a 16 kB bundle) backs the trigram index of the template name filter; a data
  // directory whose migrations created that index needs it loaded on every open.
  // (Options go in the one argument: PGlite drops the second when the first is undefined.)
  const client = new PGlite({ dataDir: options.pgliteDir, extensions: { pg_trgm }, loadDataDir: options.pgliteImage });
  await client.waitReady;
  const db = drizzle({ client });
  return {
    kind: 'pglite',
    db: db as unknown as Executor,
    planned: db as unknown as Executor,
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
    executeSql: async (text, values) => {
      if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
      // The simple protocol runs several statements; pg-boss reads the rows of all of them.
      return { rows: (await client.exec(text)).flatMap((r) => r.rows) };
    },
    dumpImage: () => client.dumpDataDir('none'),
    // One process: NOTIFY reaches the listeners of the same PGlite, in-process.
    listen: async (channel, onNotify) => {
      const unlisten = await client.listen(channel, onNotify);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
  };
}

/** Delay before the LISTEN connection tries again, growing to 5 s. */
const RECONNECT_MS = [100, 250, 500, 1000, 2000, 5000];

/**
 * A dedicated LISTEN connection (a pooled one would be handed to other queries). When the
 * server closes it (restart, failover), it reconnects with back-off and calls `onReconnect`.
 */
async function listenPostgres(
  pg: typeof import('pg').default,
  connectionString: string,
  channel: string,
  onNotify: (payload: string) => void,
  onReconnect?: () => void,
): Promise<() => Promise<void>> {
  let client: import('pg').Client | null = null;
  let stopped = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  const quoted = `"${channel.replace(/"/g, '""')}"`;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, application_name: 'marquee-listen' });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('error', () => {
      // 'end' follows and schedules the reconnection.
    });
    next.on('end', () => {
      if (client === next) client = null;
      if (!stopped) schedule();
    });
    await next.connect();
    await next.query(`LISTEN ${quoted}`);
    client = next;
  };
  const schedule = () => {
    clearTimeout(timer);
    const wait = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)];
    attempt++;
    timer = setTimeout(() => {
      if (stopped) return;
      connect().then(
        () => {
          attempt = 0;
          onReconnect?.();
        },
        () => {
          if (!stopped && !client) schedule();
        },
      );
    }, wait);
    timer.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const current = client;
    client = null;
    await current?.end().catch(() => {});
  };
}
