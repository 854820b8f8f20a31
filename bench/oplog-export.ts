// The operation-log Excel export (issue 3): time and peak memory of exporting 100,000 log
// rows with the background job (keyset batches into exceljs's streaming writer), on
// PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a
// scratch database is created and dropped). Runs the job in-process, as the server does.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { accounts, enterprises, operationLogs } from '../apps/server/src/db/schema/index.js';
import { exportKey, runExport } from '../apps/server/src/modules/operationLog/exportJob.js';
import { findExport, insertExport } from '../apps/server/src/modules/operationLog/repository.js';
import type { AppServices } from '../apps/server/src/services.js';
import { Files } from '../apps/server/src/storage/files.js';
import { LocalDiskStorage } from '../apps/server/src/storage/local.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

const name = `mq_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database "${name}"`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 4 });
const dataDir = await mkdtemp(join(tmpdir(), 'mq-bench-export-'));
try {
  await database.migrate();
  const db = database.db;
  const [ent] = await db.insert(enterprises).values({ kind: 'enterprise', name: 'Bench Media' }).returning();
  const [acc] = await db
    .insert(accounts)
    .values({ entId: ent.id, loginName: `bench_${randomBytes(3).toString('hex')}`, passwordHash: 'x' })
    .returning();
  const now = Date.now();
  for (let i = 0; i < ROWS; i += 5000) {
    const n = Math.min(5000, ROWS - i);
    await db.insert(operationLogs).values(
      Array.from({ length: n }, (_, k) => ({
        entId: ent.id,
        accountId: acc.id,
        loginName: acc.loginName,
        module: ['device', 'advert', 'material', 'dept'][(i + k) % 4],
        action: ['add', 'update', 'delete'][(i + k) % 3],
        targetType: 'thing',
        targetId: `t${i + k}`,
        ip: '10.0.0.1',
        createdAt: new Date(now - (i + k) * 1000),
      })),
    );
  }
  const config = { ...loadConfig({}, process.cwd()), dataDir };
  const files = new Files(new LocalDiskStorage(join(dataDir, 'files')), 'bench', Date.now);
  const services = { config, db, files } as unknown as AppServices;
  const row = await insertExport(db, {
    entId: ent.id,
    accountId: acc.id,
    fileName: 'bench.xlsx',
    total: ROWS,
    filters: {
      reader: {
        entId: ent.id,
        entKind: 'enterprise',
        accountId: acc.id,
        deptId: null,
        deptPath: null,
        dataScope: 'all',
      },
      filter: {},
      until: new Date(now + 1000).toISOString(),
      language: 'en-US',
    },
  });
  let peakRss = process.memoryUsage().rss;
  const baseRss = peakRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  await runExport(services, row.id, pino({ level: 'error' }), true);
  const ms = performance.now() - started;
  clearInterval(sampler);
  const done = await findExport(db, row.id);
  const size = (await files.storage.stat(exportKey(ent.id, row.id)))?.size ?? 0;
  console.log(
    `operation-log export: ${done?.processed} rows (${done?.status}) in ${(ms / 1000).toFixed(1)} s, ` +
      `${(size / 1e6).toFixed(1)} MB file, RSS ${(baseRss / 1e6).toFixed(0)} -> peak ${(peakRss / 1e6).toFixed(0)} MB`,
  );
} finally {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
}
