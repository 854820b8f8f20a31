// The data-scoped list page (issue 3): p50 and p99 of one page of 50 templates for each data
// scope, over 100,000 templates spread across 200 departments of one enterprise, on
// PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a
// scratch database is created and dropped). Calls the repository in-process, the query the
// template.page endpoint runs, so the figure is the database's and the where-builder's.
import { randomBytes } from 'node:crypto';
import { RefType } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { ScopeSubject } from '../apps/server/src/auth/scope.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { accounts, allocations, departments, enterprises, templates } from '../apps/server/src/db/schema/index.js';
import {
  deptScopeSize,
  listTemplates,
  NAME_SCAN_LIMIT,
  templatePageQueries,
} from '../apps/server/src/modules/templates/repository.js';
import { percentile } from './lib.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 100_000);
const DEPARTMENTS = 200;
const PAGE_SIZE = 50;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 400);
// Name filters: a common term ('Template 1' matches 1, 10-19, 100-199, ...: about 11% of the
// rows) and a selective one ('Template 123': 111 rows, about 0.1%).
const NAME_TERMS = [
  ['Template 1', '11%'],
  ['Template 123', '0.1%'],
] as const;

const name = `mq_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database "${name}"`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 4 });

try {
  await database.migrate();
  const db = database.db;
  const t0 = performance.now();
  const [ent] = await db.insert(enterprises).values({ kind: 'enterprise', name: 'Bench Media' }).returning();

  // 200 departments: a root, 9 regions, 190 stores (21 or so per region).
  const depts: { id: string; path: string; depth: number; parent: number | null }[] = [];
  const mk = (parent: number | null) => {
    const id = crypto.randomUUID();
    const p = parent === null ? null : depts[parent];
    depts.push({ id, path: `${p ? p.path : '/'}${id}/`, depth: p ? p.depth + 1 : 0, parent });
  };
  mk(null);
  for (let r = 0; r < 9; r++) mk(0);
  for (let s = 0; depts.length < DEPARTMENTS; s++) mk(1 + (s % 9));
  await db.insert(departments).values(
    depts.map((d, i) => ({
      id: d.id,
      entId: ent.id,
      parentId: d.parent === null ? null : depts[d.parent].id,
      name: `Dept ${i}`,
      path: d.path,
      depth: d.depth,
    })),
  );
  // Two accounts per department.
  const owners = depts.flatMap((d, i) =>
    [0, 1].map((k) => ({ id: crypto.randomUUID(), dept: d.id, login: `bench_${i}_${k}` })),
  );
  await db.insert(accounts).values(
    owners.map((o) => ({
      id: o.id,
      entId: ent.id,
      loginName: `${o.login}_${name}`,
      realName: o.login,
      passwordHash: 'x',
      currentDeptId: o.dept,
    })),
  );
  // 100,000 templates, each owned by an account of its department, spread over a year.
  const now = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < TEMPLATES; i += 5000) {
    const rows = [];
    for (let k = i; k < Math.min(TEMPLATES, i + 5000); k++) {
      const owner = owners[k % owners.length];
      const id = crypto.randomUUID();
      ids.push(id);
      const at = new Date(now - ((k * 7919) % 31_536_000) * 1000);
      rows.push({
        id,
        entId: ent.id,
        deptId: owner.dept,
        ownerId: owner.id,
        name: `Template ${k}`,
        createdAt: at,
        updatedAt: at,
      });
    }
    await db.insert(templates).values(rows);
  }
  // 2,000 shares: half to departments (both types), half to accounts.
  const shares = [];
  for (let k = 0; k < 2000; k++) {
    const refId = ids[(k * 37) % ids.length];
    if (k % 2 === 0) {
      shares.push({
        entId: ent.id,
        refType: RefType.template,
        refId,
        targetType: 1 as const,
        targetId: depts[k % depts.length].id,
        deptDataType: (k % 4 === 0 ? 1 : 2) as 1 | 2,
      });
    } else {
      shares.push({
        entId: ent.id,
        refType: RefType.template,
        refId,
        targetType: 2 as const,
        targetId: owners[k % owners.length].id,
        deptDataType: 2 as const,
      });
    }
  }
  await db.insert(allocations).values(shares).onConflictDoNothing();
  // As autovacuum would have by now: statistics and the visibility map (index-only scans).
  await db.execute('vacuum analyze' as never);
  console.log(
    `seeded ${TEMPLATES} templates, ${depts.length} departments, ${owners.length} accounts, ${shares.length} shares in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // Callers: a store account (self), a region (dept only, and dept and below), the administrator.
  const region = depts[1];
  const store = depts[10];
  const storeOwner = owners.find((o) => o.dept === store.id);
  const regionOwner = owners.find((o) => o.dept === region.id);
  if (!storeOwner || !regionOwner) throw new Error('no owner');
  const callers: [string, ScopeSubject][] = [
    ['self', { entId: ent.id, accountId: storeOwner.id, deptId: store.id, deptPath: store.path, dataScope: 'self' }],
    [
      'dept_only',
      { entId: ent.id, accountId: regionOwner.id, deptId: region.id, deptPath: region.path, dataScope: 'dept_only' },
    ],
    [
      'dept_and_below',
      {
        entId: ent.id,
        accountId: regionOwner.id,
        deptId: region.id,
        deptPath: region.path,
        dataScope: 'dept_and_below',
      },
    ],
    [
      'admin (all)',
      { entId: ent.id, accountId: regionOwner.id, deptId: depts[0].id, deptPath: depts[0].path, dataScope: 'all' },
    ],
  ];
  const [load1] = (await import('node:os')).loadavg();
  console.log(
    `page of ${PAGE_SIZE} rows with its total, ${ITERATIONS} calls each over pages 1-5 (and a call per name filter every 5th); load average ${load1.toFixed(1)}:`,
  );
  for (const [label, caller] of callers) {
    const first = await listTemplates(db, caller, { page: 1, size: PAGE_SIZE });
    for (let i = 0; i < 30; i++) await listTemplates(db, caller, { page: 1 + (i % 5), size: PAGE_SIZE });
    const times: number[] = [];
    const filtered = NAME_TERMS.map(() => [] as number[]);
    for (let i = 0; i < ITERATIONS; i++) {
      const started = performance.now();
      await listTemplates(db, caller, { page: 1 + (i % 5), size: PAGE_SIZE });
      times.push(performance.now() - started);
      if (i % 5 === 4) {
        for (const [k, [term]] of NAME_TERMS.entries()) {
          const t = performance.now();
          await listTemplates(db, caller, { page: 1, size: PAGE_SIZE, name: term });
          filtered[k].push(performance.now() - t);
        }
      }
    }
    times.sort((a, b) => a - b);
    for (const f of filtered) f.sort((a, b) => a - b);
    // The database's own time of the page query (EXPLAIN ANALYZE, median of 9 runs of page 3),
    // apart from the queueing a loaded machine adds to the wall-clock figures.
    const q = templatePageQueries(db, caller, { page: 3, size: PAGE_SIZE });
    const pageMs: number[] = [];
    for (let i = 0; i < 9; i++) pageMs.push(await executionMs(db, q.rows.getSQL()));
    pageMs.sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(16)} visible ${String(first.total).padStart(6)}  p50 ${percentile(times, 50).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms` +
        `  (page query in the database ${pageMs[4].toFixed(2)} ms)`,
    );
    // Each name filter: wall clock of the call (the scope's size, then page and total), and the
    // database's own time of its page and of its total (median of 9). The filter scans the
    // scope's rows up to NAME_SCAN_LIMIT of them, else searches the trigram index.
    const scopeSize = await deptScopeSize(db, caller);
    const how = scopeSize <= NAME_SCAN_LIMIT ? 'scan' : 'index';
    for (const [k, [term, share]] of NAME_TERMS.entries()) {
      const fq = templatePageQueries(db, caller, { page: 1, size: PAGE_SIZE, name: term }, scopeSize);
      const rowsMs: number[] = [];
      const totalMs: number[] = [];
      for (let i = 0; i < 9; i++) {
        rowsMs.push(await executionMs(db, fq.rows.getSQL()));
        totalMs.push(await executionMs(db, fq.total.getSQL()));
      }
      rowsMs.sort((a, b) => a - b);
      totalMs.sort((a, b) => a - b);
      const matched = (await listTemplates(db, caller, { page: 1, size: PAGE_SIZE, name: term })).total;
      console.log(
        `  ${''.padEnd(16)} name '${term}' (${share}): ${String(matched).padStart(5)} visible  p50 ${percentile(filtered[k], 50).toFixed(2)} ms  p99 ${percentile(filtered[k], 99).toFixed(2)} ms` +
          `  (${how}; in the database: page ${rowsMs[4].toFixed(2)} ms, total ${totalMs[4].toFixed(2)} ms)`,
      );
    }
  }
} finally {
  await database.close();
  await dropScratch();
  await admin.end();
}

/** Drops the scratch database once the pool's connections are gone (forcing only as a last resort). */
async function dropScratch() {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      await admin.query(`drop database if exists "${name}"`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await admin.query(`drop database if exists "${name}" with (force)`);
}

/** Execution time PostgreSQL reports for one query. */
async function executionMs(db: typeof database.db, query: ReturnType<typeof sql>): Promise<number> {
  const res = (await db.execute(sql`explain (analyze, format json) ${query}`)) as unknown as {
    rows: { 'QUERY PLAN': [{ 'Execution Time': number }] }[];
  };
  return res.rows[0]['QUERY PLAN'][0]['Execution Time'];
}
