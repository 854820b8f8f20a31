// The material library (issue 10): p50/p95/p99 of material.list's service (listMaterials, the
// function the endpoint runs, with the caller's data scope) for a page of 50 rows with their
// thumbnails' signed URLs, at 1,000,000 materials of one enterprise on PostgreSQL
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a scratch database
// is created, filled with one INSERT ... SELECT generate_series, and dropped). Callers: the
// enterprise administrator (whole library) and region staff ('department and below'); calls
// vary the page (1-5, 20) and the filter (none, type image, one folder with sub-folders).
// Then the time to probe a 20 MB video and a 10 MB image (made here with the shipped ffmpeg
// and sharp). Figures, never assertions.
//
//   npx tsx bench/material-list.ts        BENCH_MATERIALS=1000000 BENCH_ITERATIONS=300
// BENCH_KEEP=1 keeps the seeded database (for EXPLAIN in psql; drop it by hand) and BENCH_DB=<name>
// measures such a kept database instead of seeding a new one.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import type { ScopeSubject } from '../apps/server/src/auth/scope.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { accounts, departments, enterprises, materialFolders } from '../apps/server/src/db/schema/index.js';
import { mediaTools, probeFile } from '../apps/server/src/modules/materials/probe.js';
import { listMaterials, type MaterialListInput } from '../apps/server/src/modules/materials/service.js';
import type { CallContext } from '../apps/server/src/protocol/handlers.js';
import { Files } from '../apps/server/src/storage/files.js';
import { LocalDiskStorage } from '../apps/server/src/storage/local.js';
import { percentile } from './lib.js';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MATERIALS = Number(process.env.BENCH_MATERIALS ?? 1_000_000);
const DEPARTMENTS = 20;
const FOLDERS = 200;
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const PAGES = [1, 2, 3, 4, 5, 20];
const f = (n: number) => n.toFixed(2);

// BENCH_DB=<name>: measure a database kept by an earlier run (BENCH_KEEP=1) instead of seeding one.
const reuse = process.env.BENCH_DB;
const name = reuse ?? `mq_bench_mat_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
if (!reuse) await admin.query(`create database "${name}"`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 4 });

try {
  const db = database.db;
  const { ent, depts, owners, folders } = reuse ? await readSeed() : await seed();

  async function readSeed() {
    const rows = async <T>(query: ReturnType<typeof sql>) =>
      ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const [found] = await rows<{ id: string }>(sql`select id from enterprises where name = 'Bench Library'`);
    const deptRows = await rows<{ id: string; path: string }>(
      sql`select id, path from departments where ent_id = ${found.id} order by substr(name, 6)::int`,
    );
    const ownerRows = await rows<{ id: string; dept: string; login: string }>(
      sql`select id, current_dept_id as dept, login_name as login from accounts where ent_id = ${found.id}`,
    );
    const folderRows = await rows<{ id: string; path: string; dept_id: string }>(
      sql`select id, path, dept_id from material_folders where ent_id = ${found.id} order by substr(name, 8)::int`,
    );
    return {
      ent: found,
      depts: deptRows,
      owners: deptRows.map((d) => ownerRows.find((o) => o.dept === d.id) as (typeof ownerRows)[number]),
      folders: folderRows.map((fo) => ({
        id: fo.id,
        path: fo.path,
        dept: deptRows.findIndex((d) => d.id === fo.dept_id),
      })),
    };
  }

  async function seed() {
    await database.migrate();
    const t0 = performance.now();
    const [ent] = await db.insert(enterprises).values({ kind: 'enterprise', name: 'Bench Library' }).returning();
    // 20 departments: a root and 19 regions under it.
    const depts: { id: string; path: string }[] = [];
    const rootId = randomUUID();
    depts.push({ id: rootId, path: `/${rootId}/` });
    for (let i = 1; i < DEPARTMENTS; i++) {
      const id = randomUUID();
      depts.push({ id, path: `/${rootId}/${id}/` });
    }
    await db.insert(departments).values(
      depts.map((d, i) => ({
        id: d.id,
        entId: ent.id,
        parentId: i === 0 ? null : rootId,
        name: `Dept ${i}`,
        path: d.path,
        depth: i === 0 ? 0 : 1,
      })),
    );
    const owners = depts.map((d, i) => ({ id: randomUUID(), dept: d.id, login: `bench_mat_${i}_${name}` }));
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
    // 200 folders: 20 top-level (one per department), 9 sub-folders under each.
    const folders: { id: string; path: string; dept: number }[] = [];
    for (let d = 0; d < DEPARTMENTS; d++) {
      const top = randomUUID();
      folders.push({ id: top, path: `/${top}/`, dept: d });
      for (let s = 0; s < FOLDERS / DEPARTMENTS - 1; s++) {
        const id = randomUUID();
        folders.push({ id, path: `/${top}/${id}/`, dept: d });
      }
    }
    await db.insert(materialFolders).values(
      folders.map((fo, i) => ({
        id: fo.id,
        entId: ent.id,
        parentId: fo.path.split('/').filter(Boolean).length === 2 ? fo.path.split('/')[1] : null,
        path: fo.path,
        depth: fo.path.split('/').filter(Boolean).length,
        name: `Folder ${i}`,
        deptId: depts[fo.dept].id,
        ownerId: owners[fo.dept].id,
      })),
    );
    // 1,000,000 materials over a year: 60% images (with thumbnails), 25% video (posters), 10%
    // audio, 5% documents; each in a folder of its department, owned by its department's account.
    const fol = sql.raw(`array[${folders.map((fo) => `'${fo.id}'`).join(',')}]::text[]`);
    const dep = sql.raw(`array[${folders.map((fo) => `'${depts[fo.dept].id}'`).join(',')}]::text[]`);
    const own = sql.raw(`array[${folders.map((fo) => `'${owners[fo.dept].id}'`).join(',')}]::text[]`);
    await db.execute(sql`
      insert into materials (id, ent_id, folder_id, dept_id, owner_id, name, type, mime, size, bytes, sha256,
        width, height, duration, codec, file_key, thumb_key, poster_key, status, created_at, updated_at)
      select gen_random_uuid()::text, ${ent.id}, f.folder, f.dept, f.owner,
        'Material ' || g,
        case when g % 20 < 12 then 'image' when g % 20 < 17 then 'video' when g % 20 < 19 then 'audio' else 'document' end,
        'image/png', 100000 + g % 5000000, 100000 + g % 5000000, md5((g % 900000)::text) || md5(g::text),
        1920, 1080, case when g % 20 between 12 and 16 then 15 end, 'h264',
        'e/' || ${ent.id} || '/materials/' || g || '.png',
        case when g % 20 < 12 then 'e/' || ${ent.id} || '/materials/thumbs/' || g || '.jpg' end,
        case when g % 20 between 12 and 16 then 'e/' || ${ent.id} || '/materials/thumbs/' || g || '.jpg' end,
        'ready', now() - ((g::bigint * 7919) % 31536000) * interval '1 second', now()
      from generate_series(1, ${MATERIALS}::int) g
      join unnest(${fol}, ${dep}, ${own}) with ordinality as f(folder, dept, owner, n) on f.n = 1 + g % ${FOLDERS}`);
    await db.execute(sql`vacuum analyze`);
    console.log(
      `seeded ${MATERIALS} materials in ${FOLDERS} folders in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    return { ent, depts, owners, folders };
  }

  const files = new Files(new LocalDiskStorage(join(tmpdir(), name)), 'bench-secret', Date.now);
  const subject = (d: number, dataScope: ScopeSubject['dataScope']): ScopeSubject => ({
    entId: ent.id,
    accountId: owners[d].id,
    deptId: depts[d].id,
    deptPath: depts[d].path,
    dataScope,
  });
  const ctxOf = (user: ScopeSubject) => ({ user, db, now: new Date(), services: { files } }) as unknown as CallContext;
  const base: MaterialListInput = {
    page: 1,
    size: 50,
    includeSubfolders: true,
    duplicatesOnly: false,
    sort: 'createdAt',
    order: 'desc',
  };
  /** The filters, the folder one on a top-level folder of the caller's department (with its 9 sub-folders). */
  const filtersOf = (d: number): [string, Partial<MaterialListInput>][] => [
    ['none', {}],
    ['type image', { type: 'image' }],
    [
      'folder + subfolders',
      { folderId: (folders.find((fo) => fo.dept === d && fo.path.split('/').length === 3) ?? folders[0]).id },
    ],
  ];
  const [load1, load5] = loadavg();
  console.log(
    `material.list (listMaterials), page of 50 with thumbnails' signed URLs, ${ITERATIONS} calls per caller; load average ${load1.toFixed(1)} ${load5.toFixed(1)}:`,
  );
  for (const [label, d, user] of [
    ['enterprise administrator (all)', 0, subject(0, 'all')],
    ['region staff, dept and below', 3, subject(3, 'dept_and_below')],
  ] as const) {
    const filters = filtersOf(d);
    const first = performance.now();
    await listMaterials(base, ctxOf(user));
    console.log(`  (${label}: first call ${f(performance.now() - first)} ms)`);
    for (let i = 0; i < 24; i++) {
      await listMaterials({ ...base, page: PAGES[i % PAGES.length], ...filters[i % 3][1] }, ctxOf(user));
    }
    const byFilter = new Map<string, number[]>();
    const all: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const [key, filter] = filters[i % filters.length];
      const page = PAGES[Math.floor(i / filters.length) % PAGES.length];
      const t = performance.now();
      const answer = await listMaterials({ ...base, page, ...filter }, ctxOf(user));
      const ms = performance.now() - t;
      if (answer.data.length === 0) throw new Error(`empty page ${page} for ${key}`);
      all.push(ms);
      byFilter.set(key, [...(byFilter.get(key) ?? []), ms]);
    }
    all.sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(32)} p50 ${f(percentile(all, 50))} ms  p95 ${f(percentile(all, 95))} ms  p99 ${f(percentile(all, 99))} ms`,
    );
    for (const [key, times] of byFilter) {
      times.sort((a, b) => a - b);
      console.log(
        `    filter ${key.padEnd(22)} p50 ${f(percentile(times, 50))} ms  p99 ${f(percentile(times, 99))} ms`,
      );
    }
  }
} finally {
  await database.close();
  if (process.env.BENCH_KEEP || reuse) console.log(`kept database ${name}`);
  for (let attempt = 0; attempt < 20 && !process.env.BENCH_KEEP && !reuse; attempt++) {
    try {
      await admin.query(`drop database if exists "${name}"`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await admin.end();
}

// Probing: a 20 MB video (ffmpeg test pattern at a high bitrate) and a 10 MB image (noise PNG).
const dir = await mkdtemp(join(tmpdir(), 'marquee-probe-bench-'));
try {
  const video = join(dir, 'clip.mp4');
  await promisify(execFile)(mediaTools().ffmpeg, [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=duration=15:size=1920x1080:rate=25'],
    ...['-c:v', 'libx264', '-b:v', '10M', '-maxrate', '11M', '-bufsize', '2M', '-pix_fmt', 'yuv420p', '-y', video],
  ]);
  const side = 1900;
  const noise = randomBytes(side * side * 3);
  const image = join(dir, 'photo.png');
  await writeFile(
    image,
    await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer(),
  );
  for (const [label, path, type] of [
    ['video', video, 'video'],
    ['image', image, 'image'],
  ] as const) {
    const size = (await stat(path)).size;
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await probeFile(path, type);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(
      `probe ${label} of ${(size / 1024 / 1024).toFixed(1)} MB (facts + 320 px thumbnail${type === 'video' ? ' of a poster frame' : ''}): median ${f(times[2])} ms, max ${f(times[4])} ms of 5`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
