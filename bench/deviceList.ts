// The device list page (issue 9 (c)): p50/p95/p99 of device.list's service (listDevices, the
// function the endpoint runs, with the caller's data scope) for a page of 50 rows, at
// 1,000,000 devices over 200 departments of one enterprise on PostgreSQL
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a scratch
// database is created, filled with one INSERT ... SELECT generate_series, and dropped).
// Callers: department staff with the 'department and below' scope, at a region (22
// departments, about 110,000 devices) and at a store (5,000), and the enterprise
// administrator (all 1,000,000); calls vary the page (1-5, and
// 20), the status filter (none and each status) and the tag filter (none, a tag of 12.5% of
// the devices, one of 1%). Figures, never assertions.
//
//   npx tsx bench/deviceList.ts        BENCH_DEVICES=1000000 BENCH_ITERATIONS=300 BENCH_POOL=10 BENCH_WARM=8
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { DEVICE_STATUSES, type DeviceStatusValue } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { ScopeSubject } from '../apps/server/src/auth/scope.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { accounts, departments, enterprises, tagCategories, tags } from '../apps/server/src/db/schema/index.js';
import {
  deviceListQueries,
  devicePageQueries,
  deviceScopeCounts,
  narrowScope,
} from '../apps/server/src/modules/devices/repository.js';
import { listDevices } from '../apps/server/src/modules/devices/service.js';
import type { CallContext } from '../apps/server/src/protocol/handlers.js';
import { percentile } from './lib.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 1_000_000);
const DEPARTMENTS = 200;
const PAGE_SIZE = 50;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 324);
// Rounds of every call shape before the measured calls (see the warm-up). BENCH_WARM sets another.
const WARM_ROUNDS = Number(process.env.BENCH_WARM ?? 8);
const PAGES = [1, 2, 3, 4, 5, 20];
const PLACEMENTS = ['Lobby', 'Elevator', 'Entrance', 'Checkout', 'Window', 'Aisle', 'Parking', 'Office'];

// BENCH_DB=<name>: measure a database kept by an earlier run (BENCH_KEEP=1) instead of seeding one.
const reuse = process.env.BENCH_DB;
const name = reuse ?? `mq_bench_dev_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
if (!reuse) await admin.query(`create database "${name}"`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
// The server's pool (DATABASE_POOL_SIZE, default 10: its planned pool gets 4); BENCH_POOL sets another.
const database = await openDatabase({
  databaseUrl: url.toString(),
  maxConnections: Number(process.env.BENCH_POOL ?? 10),
});
const f = (n: number) => n.toFixed(2);

try {
  const db = database.db;
  let ent: { id: string };
  const depts: { id: string; path: string; parent: number | null; depth: number }[] = [];
  let owners: { id: string; dept: string; login: string }[] = [];
  if (reuse) {
    // A kept database gets the migrations written since it was seeded (indexes of the list's plans).
    await database.migrate();
    const rows = (await db.execute(
      sql`select d.id, d.path, d.ent_id, a.id as owner from departments d join accounts a on a.current_dept_id = d.id
          where d.name like 'Dept %' order by substr(d.name, 6)::int`,
    )) as unknown as { rows: { id: string; path: string; ent_id: string; owner: string }[] };
    ent = { id: rows.rows[0].ent_id };
    for (const r of rows.rows) depts.push({ id: r.id, path: r.path, parent: null, depth: 0 });
    owners = rows.rows.map((r) => ({ id: r.owner, dept: r.id, login: '' }));
  } else {
    await database.migrate();
    const t0 = performance.now();
    [ent] = await db.insert(enterprises).values({ kind: 'enterprise', name: 'Bench Screens' }).returning();

    // 200 departments: a root, 9 regions, 190 stores (21 or so per region).
    const mk = (parent: number | null) => {
      const id = randomUUID();
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
    // One account per department (the devices' owners, who added them).
    owners = depts.map((d, i) => ({ id: randomUUID(), dept: d.id, login: `bench_dev_${i}_${name}` }));
    await db.insert(accounts).values(
      owners.map((o) => ({
        id: o.id,
        entId: ent.id,
        loginName: o.login,
        realName: o.login,
        passwordHash: 'x',
        currentDeptId: o.dept,
      })),
    );

    // 1,000,000 devices, 5,000 per department, added over a year; statuses, whatever the
    // department: 70% online (1 in 700 of them silent for 100 s, past three heartbeats, so
    // shown offline: those that stopped since the offline job's last run a minute ago),
    // 20% offline, 5% activating, 3% invalid, 2% trial. The counts' trigger (device_dept_counts) is off for
    // the one INSERT and the counts written after it as migration 0022 does: a million
    // row-trigger upserts on a few hundred rows took most of an hour of seeding.
    await db.execute(sql`alter table devices disable trigger devices_count`);
    await db.execute(sql`
      insert into devices (id, ent_id, dept_id, owner_id, number, name, status, secret_hash, heartbeat_sec,
        last_seen_at, status_at, state_ts, activated_at, player_version, ip, mac, storage_used, storage_free,
        screen_width, screen_height, screen_on, volume, brightness, created_at, updated_at)
      select gen_random_uuid()::text, ${ent.id}, (string_to_array(${depts.map((d) => d.id).join(',')}, ','))[1 + g % ${DEPARTMENTS}],
        (string_to_array(${owners.map((o) => o.id).join(',')}, ','))[1 + g % ${DEPARTMENTS}], 'SN' || lpad(g::text, 8, '0'), 'Screen ' || g,
        case when g / ${DEPARTMENTS} % 100 < 70 then 'online' when g / ${DEPARTMENTS} % 100 < 90 then 'offline'
             when g / ${DEPARTMENTS} % 100 < 95 then 'activating' when g / ${DEPARTMENTS} % 100 < 98 then 'invalid' else 'trial' end,
        md5(g::text), 30,
        case when g / ${DEPARTMENTS} % 1000 = 0 then now() - interval '100 seconds'
             when g / ${DEPARTMENTS} % 100 < 90 then now() - (g % 25) * interval '1 second' end,
        now() - (g % 86400) * interval '1 second', 0, now() - (g % 31536000) * interval '1 second', '2.4.' || (g % 7),
        '10.' || (g % 250) || '.' || (g / 250 % 250) || '.' || (g % 200), '02:00:5e:' || lpad(to_hex(g % 256), 2, '0') || ':00:01',
        1250000000, 6750000000, 1920, 1080, 1, 50, 80,
        now() - ((g::bigint * 7919) % 31536000) * interval '1 second', now()
      from generate_series(1, ${DEVICES}::int) g`);
    await db.execute(sql`alter table devices enable trigger devices_count`);
    // Tags: each device one of 8 placements (12.5% each), and 1 in 100 a 'Pilot' tag.
    const [category] = await db.insert(tagCategories).values({ entId: ent.id, name: 'Placement' }).returning();
    const placements = await db
      .insert(tags)
      .values(PLACEMENTS.map((tagName) => ({ entId: ent.id, categoryId: category.id, name: tagName })))
      .returning();
    const [pilot] = await db.insert(tags).values({ entId: ent.id, categoryId: category.id, name: 'Pilot' }).returning();
    await db.execute(sql`
      insert into device_tags (device_id, tag_id, ent_id)
      select id, (string_to_array(${placements.map((t) => t.id).join(',')}, ','))[1 + substr(number, 3)::int / 7 % 8], ent_id
      from devices
      union all
      select id, ${pilot.id}, ent_id from devices where substr(number, 3)::int % 100 = 37`);
    await db.execute(sql`
      insert into device_dept_counts (ent_id, dept_id, status, n)
      select ent_id, coalesce(dept_id, ''), status, count(*) from devices group by 1, 2, 3
      on conflict (ent_id, dept_id, status) do update set n = excluded.n`);
    // As autovacuum would have by now: statistics and the visibility map.
    await db.execute(sql`vacuum analyze`);
    console.log(
      `seeded ${DEVICES} devices over ${depts.length} departments in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  const region = depts[1];
  const store = depts[10];
  const subject = (
    d: (typeof depts)[number],
    dataScope: ScopeSubject['dataScope'] = 'dept_and_below',
  ): ScopeSubject => ({
    entId: ent.id,
    accountId: owners[depts.indexOf(d)].id,
    deptId: d.id,
    deptPath: d.path,
    dataScope,
  });
  // The calls' clock: the moment of the newest heartbeat seeded, so the fleet reads as it was
  // seeded (70% online with live heartbeats) however long seeding took.
  const seen = (await db.execute(sql`select max(last_seen_at) as at from devices`)) as unknown as {
    rows: { at: string | Date }[];
  };
  const callTime = new Date(new Date(seen.rows[0].at).getTime() + 1000);
  // As the endpoint calls it: outside a transaction, so the merged plan runs on the planned pool.
  const ctxOf = (user: ScopeSubject) =>
    ({ user, db, now: callTime, services: { db, database } }) as unknown as CallContext;
  const tagRows = (await db.execute(
    sql`select id, name from tags where ent_id = ${ent.id} and name in ('Lobby', 'Pilot') order by name`,
  )) as unknown as { rows: { id: string; name: string }[] };
  // The tag filter: none, a placement (12.5% of the devices), 'Pilot' (1%).
  const tagChoices: { label: string; id?: string }[] = [
    { label: 'no tag' },
    ...tagRows.rows.map((r) => ({ label: `tag ${r.name}`, id: r.id })),
  ];
  const statuses: (DeviceStatusValue | undefined)[] = [undefined, ...DEVICE_STATUSES];
  const [load1, load5] = loadavg();
  console.log(
    `device.list (listDevices), page of ${PAGE_SIZE} with its total, ${ITERATIONS} calls per caller over pages ${PAGES.join(', ')} x status (none, ${DEVICE_STATUSES.join(', ')}) x tag (${tagChoices.map((c) => c.label).join(', ')}); load average ${load1.toFixed(1)} ${load5.toFixed(1)}:`,
  );
  for (const [label, dept, scope] of [
    ['region staff, dept and below', region, 'dept_and_below'],
    ['store staff, dept and below', store, 'dept_and_below'],
    ['enterprise administrator, all', depts[0], 'all'],
  ] as const) {
    const user = subject(dept, scope);
    // The call of round i: each status with each tag choice, then the next page.
    const call = (i: number) => ({
      status: statuses[i % statuses.length],
      tag: tagChoices[Math.floor(i / statuses.length) % tagChoices.length],
      page: PAGES[Math.floor(i / (statuses.length * tagChoices.length)) % PAGES.length],
    });
    // Warm-up: each call shape (status x tag) WARM_ROUNDS times, so that each connection of
    // the planned pool has planned it (db/planned.ts), as a running server's have; those first
    // calls, which plan a shape, are printed apart. A call's page, total and counts take
    // connections of the pool as they come: three rounds left a shape unplanned on one of the
    // 4 connections now and then, and its measured call then planned it (48-69 ms), which
    // was the region's whole p99.
    const shapes = statuses.length * tagChoices.length;
    const warm: number[] = [];
    for (let i = 0; i < WARM_ROUNDS * shapes; i++) {
      const { status, tag } = call(i);
      const t = performance.now();
      await listDevices(
        { page: PAGES[Math.floor(i / shapes) % PAGES.length], size: PAGE_SIZE, status, tagId: tag.id },
        ctxOf(user),
      );
      warm.push(performance.now() - t);
    }
    warm.sort((a, b) => a - b);
    console.log(
      `  ${label}: warm-up, ${warm.length} calls over ${shapes} shapes (the first of a shape on a connection plans it): p50 ${f(percentile(warm, 50))} ms  max ${f(warm[warm.length - 1])} ms`,
    );
    const all: number[] = [];
    const byStatus = new Map<string, number[]>();
    const byTag = new Map<string, number[]>();
    let capped = 0;
    // The process's CPU time over the measured calls (JavaScript: building, rendering, parsing
    // rows): less moved by other processes' load than the calls' wall times.
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < ITERATIONS; i++) {
      const { status, tag, page } = call(i);
      const t = performance.now();
      const answer = await listDevices({ page, size: PAGE_SIZE, status, tagId: tag.id }, ctxOf(user));
      const ms = performance.now() - t;
      if (answer.totalCapped) capped++;
      all.push(ms);
      byTag.set(tag.label, [...(byTag.get(tag.label) ?? []), ms]);
      if (tag.id) continue;
      const key = status ?? 'any';
      byStatus.set(key, [...(byStatus.get(key) ?? []), ms]);
    }
    const cpu = process.cpuUsage(cpu0);
    all.sort((a, b) => a - b);
    const first = await listDevices({ page: 1, size: PAGE_SIZE }, ctxOf(user));
    console.log(
      `  ${label.padEnd(30)} visible ${first.totalCapped ? `${first.total}+` : first.total}: p50 ${f(percentile(all, 50))} ms  p95 ${f(percentile(all, 95))} ms  p99 ${f(percentile(all, 99))} ms (${capped} of ${ITERATIONS} totals capped; this process's CPU ${f((cpu.user + cpu.system) / 1000 / ITERATIONS)} ms a call)`,
    );
    for (const [key, times] of byTag) {
      times.sort((a, b) => a - b);
      console.log(
        `    ${key.padEnd(17)} p50 ${f(percentile(times, 50))} ms  p95 ${f(percentile(times, 95))} ms  p99 ${f(percentile(times, 99))} ms`,
      );
    }
    for (const [key, times] of byStatus) {
      times.sort((a, b) => a - b);
      // The database's own time of page 3's rows and of the bounded total (EXPLAIN ANALYZE, median of 5).
      const q = await deviceListQueries(
        ctxOf(user),
        { page: 3, size: PAGE_SIZE, status: key === 'any' ? undefined : (key as DeviceStatusValue) },
        await deviceScopeCounts(db, user),
      );
      const rowsMs: number[] = [];
      const totalMs: number[] = [];
      for (let k = 0; k < 5; k++) {
        rowsMs.push(await executionMs(db, q.rows.getSQL()));
        totalMs.push(await executionMs(db, q.total.getSQL()));
      }
      rowsMs.sort((a, b) => a - b);
      totalMs.sort((a, b) => a - b);
      // The plan by scope size alone (before the merged plan): the same page and total.
      const status = key === 'any' ? undefined : (key as DeviceStatusValue);
      const before = await devicePageQueries(
        ctxOf(user),
        { page: 3, size: PAGE_SIZE, status },
        narrowScope(await deviceScopeCounts(db, user), status),
      );
      const beforeMs: number[] = [];
      for (let k = 0; k < 3; k++) {
        beforeMs.push((await executionMs(db, before.rows.getSQL())) + (await executionMs(db, before.total.getSQL())));
      }
      beforeMs.sort((a, b) => a - b);
      console.log(
        `    status ${key.padEnd(10)} p50 ${f(percentile(times, 50))} ms  p99 ${f(percentile(times, 99))} ms  (in the database, ${q.plan} plan: page 3 ${f(rowsMs[2])} ms, total ${f(totalMs[2])} ms; by scope size alone: page + total ${f(beforeMs[1])} ms)`,
      );
    }
  }
  if (process.env.BENCH_EXPLAIN) {
    const who = subject(process.env.BENCH_EXPLAIN_STORE ? store : region);
    const q = await deviceListQueries(
      ctxOf(who),
      {
        page: Number(process.env.BENCH_EXPLAIN_PAGE ?? 3),
        size: PAGE_SIZE,
        status: (process.env.BENCH_EXPLAIN || undefined) as DeviceStatusValue,
      },
      await deviceScopeCounts(db, who),
    );
    console.log(`plan: ${q.plan}`);
    for (const part of [q.rows, q.total]) {
      const res = (await db.execute(sql`explain (analyze, buffers) ${part.getSQL()}`)) as unknown as {
        rows: { 'QUERY PLAN': string }[];
      };
      console.log(res.rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
  }
} finally {
  await database.close();
  // BENCH_KEEP=1 leaves the database for EXPLAIN in psql (drop it by hand).
  if (process.env.BENCH_KEEP || reuse) console.log(`kept database ${name}`);
  else await dropScratch();
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
