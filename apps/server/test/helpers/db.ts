import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import type { ProvidedKey } from '../globalSetup.js';

export type Backend = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. Use with describe.each. */
export const BACKENDS: readonly Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase extends Database {
  backend: Backend;
}

/** A value the run's global setup provided (globalSetup.ts), or undefined. */
const provided = inject as unknown as (key: ProvidedKey) => string | undefined;

let image: Promise<Blob> | undefined;

/** The migrated PGlite image of this run (globalSetup.ts), read once per test file. */
function pgliteImage(): Promise<Blob> | undefined {
  const path = provided('pgliteImage');
  if (!path) return undefined;
  image ??= readFile(path).then((bytes) => new Blob([bytes]));
  return image;
}

/**
 * A fresh, migrated database: in-memory PGlite, or a uniquely named PostgreSQL database
 * created on TEST_DATABASE_URL's server and dropped again by close(). Both start from the
 * run's migrated copy (globalSetup.ts) when there is one; `migrate()` then finds nothing to do.
 */
export async function createTestDatabase(backend: Backend): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const database = await openDatabase({ pgliteImage: await pgliteImage() });
    await database.migrate();
    return { ...database, backend };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `mq_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = provided('pgTemplate');
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
        break;
      } catch (error) {
        // Copies of one template are made one at a time: another test file's copy can hold it.
        const busy = (error as { code?: string }).code === '55006';
        if (!busy || attempt === 20) throw error;
        await sleep(50 * attempt);
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 5 });
  await database.migrate();
  return {
    ...database,
    backend,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
