import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * What every repository takes: the root database or a transaction (a transaction is a
 * PgDatabase too), for either driver.
 */
export type Executor = PgDatabase<PgQueryResultHKT>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Executor;
  /** Applies pending migrations (drizzle's migrator for the driver in use). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; absent means in memory (tests). */
  pgliteDir?: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
}

/**
 * Opens PostgreSQL (`databaseUrl`) or the embedded PGlite. Drivers are imported lazily so
 * the one not in use costs nothing at start.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.maxConnections ?? 10 });
    // An idle connection the server closes (restart, administrator command) must not crash
    // the process: the pool drops it and the next query opens a new one.
    pool.on('error', (err) => console.warn(`postgres: idle connection closed: ${err.message}`));
    const db = drizzle({ client: pool });
    return {
      kind: 'postgres',
      db: db as unknown as Executor,
      migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      close: () => pool.end(),
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
  const client = new PGlite({ dataDir: options.pgliteDir, extensions: { pg_trgm } });
  await client.waitReady;
  const db = drizzle({ client });
  return {
    kind: 'pglite',
    db: db as unknown as Executor,
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.close(),
  };
}
