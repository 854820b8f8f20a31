// What the sales benches (issue 28: sales-availability.ts, sales-orders.ts, sales-settlement.ts)
// share: a scratch PostgreSQL database (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres) migrated and dropped after, an operator
// enterprise with its administrator and advertiser accounts, screens inserted in bulk
// (INSERT ... SELECT generate_series, as bench/deviceList.ts and renewal.ts do) under one tag,
// and slots inserted directly. Nothing here measures anything.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { ADVERTISER_ROLE_CODES, ALL_PERMISSION_CODES } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/db/client.js';
import { insertDepartment } from '../apps/server/src/modules/dept/repository.js';
import { createRole } from '../apps/server/src/modules/roles/repository.js';

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type Row = Record<string, unknown>;
export const rowsOf = (result: unknown) => (result as { rows: Row[] }).rows;

export const load1 = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export const ms = (n: number) => n.toFixed(2);

/** A migrated scratch database; `done()` closes it and drops it (BENCH_KEEP=1 keeps it). */
export async function scratch(prefix: string, maxConnections = 10) {
  const keep = Boolean(process.env.BENCH_KEEP);
  const name = `mq_bench_${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: url.toString(), maxConnections });
    await database.migrate();
  } catch (error) {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
    throw error;
  }
  console.log(`database ${name}${keep ? ' (kept)' : ''}; load average ${load1()} (1, 5, 15 min)`);
  return {
    name,
    url: url.toString(),
    database,
    db: database.db,
    async done() {
      await database.close();
      if (!keep) await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

type Db = Database['db'];

/**
 * An operator enterprise: its administrator (all codes, is_ent_admin) and `advertisers`
 * advertiser accounts (the built-in advertiser role's codes), inserted directly.
 */
export async function operator(db: Db, advertisers: number) {
  const entId = `bench-ent-${randomBytes(4).toString('hex')}`;
  await db.execute(sql`insert into enterprises (id, kind, name) values (${entId}, 'enterprise', 'Sales bench media')`);
  const dept = await insertDepartment(db, { entId, name: 'Head office' });
  const adminRole = await createRole(db, {
    entId,
    name: 'Bench administrator',
    type: 'admin',
    dataScope: 'dept_and_below',
    permissionCodes: ALL_PERMISSION_CODES,
  });
  const advRole = await createRole(db, {
    entId,
    name: 'Bench advertiser',
    type: 'advertiser',
    dataScope: 'self',
    permissionCodes: ADVERTISER_ROLE_CODES,
  });
  const adminId = `${entId}-admin`;
  await db.execute(sql`
    insert into accounts (id, ent_id, login_name, real_name, password_hash, is_ent_admin, current_dept_id)
    values (${adminId}, ${entId}, ${`${entId}_admin`}, 'Bench admin', 'x', true, ${dept.id})`);
  await db.execute(
    sql`insert into account_roles (ent_id, account_id, role_id) values (${entId}, ${adminId}, ${adminRole.id})`,
  );
  const advertiserIds: string[] = [];
  if (advertisers > 0) {
    const rows = rowsOf(
      await db.execute(sql`
        insert into accounts (id, ent_id, login_name, real_name, password_hash, is_ent_admin, current_dept_id)
        select ${entId} || '-adv-' || g, ${entId}, ${entId} || '_adv_' || g, 'Advertiser ' || g, 'x', false, ${dept.id}
        from generate_series(1, ${advertisers}::int) g returning id`),
    );
    for (const r of rows) advertiserIds.push(String(r.id));
    await db.execute(sql`
      insert into account_roles (ent_id, account_id, role_id)
      select ${entId}, a.id, ${advRole.id} from accounts a where a.ent_id = ${entId} and a.is_ent_admin = false`);
    await db.execute(sql`
      insert into advertisers (account_id, ent_id) select a.id, ${entId} from accounts a
      where a.ent_id = ${entId} and a.is_ent_admin = false`);
  }
  await db.execute(sql`
    insert into account_departments (ent_id, account_id, dept_id) select ${entId}, a.id, ${dept.id} from accounts a
    where a.ent_id = ${entId}`);
  return { entId, adminId, advertiserIds };
}

/**
 * `count` online screens of `entId` (ids `<prefix>-<n>`, n from 1), seen now, all carrying one
 * new tag (returned): a slot's targets `{ tagIds: [tagId] }` reach them all.
 */
export async function screens(db: Db, entId: string, count: number, prefix = 'scr') {
  await db.execute(sql`
    insert into devices (id, ent_id, name, status, last_seen_at, status_at, activated_at, screen_width, screen_height)
    select ${prefix} || '-' || g, ${entId}, 'Screen ' || g, 'online', now(), now(), now() - interval '30 days', 1920, 1080
    from generate_series(1, ${count}::int) g`);
  const [category] = rowsOf(
    await db.execute(sql`
      insert into tag_categories (id, ent_id, name) values (gen_random_uuid()::text, ${entId}, 'Placement') returning id`),
  );
  const [tag] = rowsOf(
    await db.execute(sql`
      insert into tags (id, ent_id, category_id, name) values (gen_random_uuid()::text, ${entId}, ${category.id}, 'Bench screens')
      returning id`),
  );
  await db.execute(sql`
    insert into device_tags (device_id, tag_id, ent_id)
    select ${prefix} || '-' || g, ${tag.id}, ${entId} from generate_series(1, ${count}::int) g`);
  return { tagId: String(tag.id), ids: (n: number) => `${prefix}-${n}` };
}

let slotSeq = 0;
/** A slot inserted directly (9-digit number, targets as given). */
export async function slot(
  db: Db,
  s: {
    entId: string;
    name: string;
    salesMethod: 'cpt' | 'cpm';
    price: number;
    maxRotations: number;
    durationSec?: number;
    targets: { deviceIds?: string[]; groupIds?: string[]; tagIds?: string[] };
  },
) {
  const id = `bench-slot-${randomBytes(4).toString('hex')}`;
  const number = String(900_000_000 + (process.pid % 10_000) * 1000 + ++slotSeq);
  const targets = { deviceIds: [], groupIds: [], tagIds: [], spliceIds: [], ...s.targets };
  await db.execute(sql`
    insert into ad_slots (id, ent_id, number, name, width, height, duration_sec, sales_method, cpt_price, cpm_price,
                          max_rotations, targets)
    values (${id}, ${s.entId}, ${number}, ${s.name}, 1920, 1080, ${s.durationSec ?? 15}, ${s.salesMethod},
            ${s.salesMethod === 'cpt' ? s.price : null}, ${s.salesMethod === 'cpm' ? s.price : null},
            ${s.maxRotations}, ${JSON.stringify(targets)}::jsonb)`);
  return id;
}

/** YYYY-MM-DD of `day` days after `from` (UTC). */
export function dayAfter(from: Date, day: number): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + day));
  return d.toISOString().slice(0, 10);
}

/** A small deterministic generator (benches repeat their data across runs). */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * The app built in-process on the scratch database (as bench/ad-chain.ts does, without
 * listening): calls go through its own pipeline (signature, session, permission, transaction,
 * operation log) by app.inject, as seed/consoleCall.ts makes them.
 */
export async function benchApp(s: { url: string; database: Database; name: string }) {
  const { loadConfig } = await import('../apps/server/src/config.js');
  const { buildApp } = await import('../apps/server/src/app.js');
  const { consoleCaller } = await import('../apps/server/src/seed/consoleCall.js');
  const config = loadConfig(
    {
      DATABASE_URL: s.url,
      DATA_DIR: `/tmp/${s.name}`,
      LOG_LEVEL: 'error',
      MQTT_TCP_PORT: 'off',
      DEMO_PLAYERS: 'off',
    },
    process.cwd(),
  );
  const app = await buildApp({ config, db: s.database });
  await app.ready();
  return {
    app,
    /** Signed console calls as `account` (a session of its own). */
    caller: (account: { id: string; entId: string }, agent: string) => consoleCaller(app, account, agent),
  };
}

/** The error code of a failed consoleCaller call ('sales.orderCreate: -10140 ...'), or null. */
export function codeOf(error: unknown): number | null {
  const m = /: (-?\d+) /.exec(error instanceof Error ? error.message : '');
  return m ? Number(m[1]) : null;
}
