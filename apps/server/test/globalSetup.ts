import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';

/**
 * What the setup provides to the test files (helpers/db.ts reads it with `inject`):
 * `pgliteImage`, the path of a migrated PGlite data directory image (tar); `pgTemplate`, a
 * migrated PostgreSQL database to copy. Typed by hand here and there rather than by augmenting
 * vitest's ProvidedContext, which the parallel type checker did not always merge.
 */
export type ProvidedKey = 'pgliteImage' | 'pgTemplate';

/**
 * Once per run of the server tests: the migrations run once on PGlite (its data directory
 * kept as an image) and once on PostgreSQL (a template database), instead of once per test
 * database; test databases are copies (helpers/db.ts). Teardown removes both.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const provide = project.provide.bind(project) as unknown as (key: ProvidedKey, value: string) => void;
  const dir = await mkdtemp(join(tmpdir(), 'mq-server-test-'));
  const pglite = await openDatabase({});
  try {
    await pglite.migrate();
    const image = await pglite.dumpImage?.();
    if (image) {
      const path = join(dir, 'pglite.tar');
      await writeFile(path, Buffer.from(await image.arrayBuffer()));
      provide('pgliteImage', path);
    }
  } finally {
    await pglite.close();
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  let template: string | undefined;
  if (adminUrl) {
    template = `mq_test_template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await admin(adminUrl, `create database "${template}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 1 });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    provide('pgTemplate', template);
  }

  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (adminUrl && template) await admin(adminUrl, `drop database if exists "${template}" with (force)`);
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
