import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type DeviceStatusValue,
  type endpoints,
  type LicenceState,
  MISSED_HEARTBEATS_OFFLINE,
  RefType,
} from '@marquee/protocol';
import {
  and,
  asc,
  count,
  eq,
  getTableColumns,
  gt,
  ilike,
  inArray,
  lt,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  inDeptSubtree,
  type ScopedColumns,
  type ScopeSubject,
  scopeOutsideBranches,
  scopeWhere,
} from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  type MergeBranch,
  type MergeKey,
  type MergeSource,
  mergedPageIds,
  mergedUpTo,
  type PageWindow,
  pageWindow,
} from '../../db/mergedPage.js';
import { type Prepared, plannedStatements, preparePlanned } from '../../db/planned.js';
import {
  type DeviceStatus,
  departments,
  deviceCommands,
  deviceCustomFields,
  deviceDeptCounts,
  deviceGroups,
  devicePresence,
  deviceStatusHistory,
  devices,
  deviceTags,
  marketItems,
  stores,
  tags,
} from '../../db/schema/index.js';
import { listOrder } from '../../db/sort.js';
import type { CallContext } from '../../protocol/handlers.js';

/**
 * The scoped columns of devices (auth/scope.ts): department, owner, sharing as ref-type '1',
 * and the allocations of the device's group (ref-type '2', its container): a group shared
 * with a department or account shares the devices in it.
 */
export const deviceScope: ScopedColumns = {
  entId: devices.entId,
  deptId: devices.deptId,
  ownerId: devices.ownerId,
  share: {
    refType: RefType.device,
    id: devices.id,
    containers: [{ refType: RefType.deviceGroup, id: devices.groupId }],
  },
};

/** The devices a caller may edit, disable and delete: its own data scope (being shared one lets one see and command it). */
export const deviceManageScope: ScopedColumns = {
  entId: devices.entId,
  deptId: devices.deptId,
  ownerId: devices.ownerId,
};

/** sha256 hex of a high-entropy secret (device passwords, poll tokens). */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Whether `value` hashes to `hash` (constant time). */
export function matchesHash(value: string, hash: string | null): boolean {
  if (!hash) return false;
  const a = Buffer.from(sha256(value), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What the console shows as a device's state: presence says `online`, but a device that
 * sent nothing for MISSED_HEARTBEATS_OFFLINE heartbeats is offline. The `device-offline`
 * job writes the same rule to the row and its history each minute (markMissedOffline);
 * between its runs this keeps reads right.
 */
export function effectiveStatus(
  row: { status: DeviceStatus; lastSeenAt: Date | null; statusAt: Date; heartbeatSec: number },
  now: number,
): DeviceStatusValue {
  if (row.status !== 'online') return row.status;
  const seen = Math.max(row.lastSeenAt?.getTime() ?? 0, row.statusAt.getTime());
  return now - seen > row.heartbeatSec * 1000 * MISSED_HEARTBEATS_OFFLINE ? 'offline' : 'online';
}

/** Sets a device's presence and records the change in its history (no-op when unchanged). */
export async function setPresence(
  db: Executor,
  device: { id: string; entId: string; status: DeviceStatus },
  status: DeviceStatus,
  reason: string,
  at: Date,
): Promise<boolean> {
  if (device.status === status) return false;
  await db.update(devices).set({ status, statusAt: at, updatedAt: at }).where(eq(devices.id, device.id));
  await db.insert(deviceStatusHistory).values({ entId: device.entId, deviceId: device.id, status, reason, at });
  return true;
}

/** The device's commands still to deliver (pending or sent), oldest first. */
export function openCommands(db: Executor, deviceId: string) {
  return db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), inArray(deviceCommands.state, ['pending', 'sent'])))
    .orderBy(deviceCommands.createdAt, deviceCommands.id);
}

/**
 * Counts one more publication of a command, and marks it sent while it is still open. The
 * player's ack can be written before this (the publish resolves after the player received it),
 * so a closed command keeps its state and send time but still counts the attempt.
 */
export async function markSent(db: Executor, id: string, at: Date): Promise<void> {
  const open = sql`${deviceCommands.state} in ('pending', 'sent')`;
  await db
    .update(deviceCommands)
    .set({
      state: sql`case when ${open} then 'sent' else ${deviceCommands.state} end`,
      sentAt: sql`case when ${open} then ${at.toISOString()}::timestamptz else coalesce(${deviceCommands.sentAt}, ${at.toISOString()}::timestamptz) end`,
      attempts: sql`${deviceCommands.attempts} + 1`,
    })
    .where(eq(deviceCommands.id, id));
}

/** Marks open commands past their expiry expired; returns how many. */
export async function expireCommands(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(deviceCommands)
    .set({ state: 'expired' })
    .where(and(inArray(deviceCommands.id, ids), inArray(deviceCommands.state, ['pending', 'sent'])));
}

/**
 * The offline job's work: every `online` device that sent nothing for
 * MISSED_HEARTBEATS_OFFLINE heartbeats (effectiveStatus's rule) is written `offline` with a
 * history row (reason 'heartbeat'), in one statement: those past their deadline in
 * device_presence (its index finds the few), each tested on its row. Returns how many.
 */
export async function markMissedOffline(db: Executor, now: Date): Promise<number> {
  const result = await db.execute(sql`
    with stale as (
      update ${devices} set status = 'offline', status_at = ${now}, updated_at = ${now}
      where ${devices.id} = any(array(select ${devicePresence.deviceId} from ${devicePresence} where ${devicePresence.deadline} < ${now}::timestamptz))
        and ${devices.status} = 'online'
        and greatest(coalesce(${devices.lastSeenAt}, ${devices.statusAt}), ${devices.statusAt})
          < ${now}::timestamptz - make_interval(secs => ${devices.heartbeatSec} * ${MISSED_HEARTBEATS_OFFLINE})
      returning ${devices.id} as id, ${devices.entId} as ent_id
    )
    insert into ${deviceStatusHistory} (id, ent_id, device_id, status, reason, at)
    select gen_random_uuid()::text, ent_id, id, 'offline', 'heartbeat', ${now} from stale
    returning 1`);
  const rows = (result as unknown as { rows?: unknown[] }).rows ?? (Array.isArray(result) ? result : []);
  return rows.length;
}

/**
 * Marks a device of `entId` as a player of the demo fleet (src/demo/fleet.ts), once the
 * fleet's supervisor added it through device.add: the list shows it as such.
 */
export async function markDemoDevice(db: Executor, entId: string, deviceId: string): Promise<boolean> {
  const rows = await db
    .update(devices)
    .set({ demo: true })
    .where(and(eq(devices.entId, entId), eq(devices.id, deviceId)))
    .returning({ id: devices.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------
// The device list's queries (device.list, its export, the home figures): the filters, the
// scope's counts, the plans (walk, narrow, merged) and the statements kept per shape.
// Rows come back as drizzle selects them; presenter.ts shapes them as DeviceRow.

/** device.list's request as the endpoint has parsed it (defaults filled). */
export type DeviceListInput = z.infer<typeof endpoints.deviceList.request>;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The SQL of "shown as `status`" (effectiveStatus): online with missed heartbeats is offline. */
export function statusFilter(status: DeviceStatusValue, now: Date | Placeholder): SQL {
  const stale = sql`greatest(coalesce(${devices.lastSeenAt}, ${devices.statusAt}), ${devices.statusAt}) < ${now}::timestamptz - make_interval(secs => ${devices.heartbeatSec} * ${MISSED_HEARTBEATS_OFFLINE})`;
  if (status === 'online') return and(eq(devices.status, 'online'), sql`not (${stale})`) as SQL;
  if (status === 'offline') return or(eq(devices.status, 'offline'), and(eq(devices.status, 'online'), stale)) as SQL;
  return eq(devices.status, status);
}

/** A device's columns as lists read them: all but its secret's hash, which no list shows. */
const { secretHash: _secretHash, ...listedColumns } = getTableColumns(devices);
export type ListedDevice = Omit<typeof devices.$inferSelect, 'secretHash'>;

/** Whether the caller may edit, disable and delete a visible device (own scope, not only shared). */
export const canManageColumn = (ctx: { user: ScopeSubject }) =>
  sql<boolean>`(${scopeWhere(ctx.user, deviceManageScope)})`.mapWith((v: unknown) => v === true || v === 't');

/** The department filter: the department and those below it (nothing for an unknown one). */
async function deptFilter(db: Executor, entId: string, deptId: string): Promise<SQL> {
  const [dept] = await db
    .select({ path: departments.path })
    .from(departments)
    .where(and(eq(departments.id, deptId), eq(departments.entId, entId)));
  return dept ? inDeptSubtree(devices.deptId, entId, dept.path) : sql`false`;
}

/** The list's filters (device.list without page and sort; the device export takes the same). */
export type DeviceListFilter = Omit<DeviceListInput, 'page' | 'size' | 'sort' | 'order'>;

/** The devices a subject sees that pass the list's filters (device.list, its export). */
export async function deviceListWhere(
  db: Executor,
  subject: ScopeSubject,
  input: DeviceListFilter,
  now: Date,
): Promise<SQL> {
  const conds: SQL[] = [scopeWhere(subject, deviceScope)];
  // device groups and tags (branch dev-groups): the filters
  if (input.groupId) conds.push(eq(devices.groupId, input.groupId));
  if (input.tagId) {
    conds.push(
      inArray(
        devices.id,
        db.select({ id: deviceTags.deviceId }).from(deviceTags).where(eq(deviceTags.tagId, input.tagId)),
      ),
    );
  }
  if (input.storeId) conds.push(eq(devices.storeId, input.storeId));
  if (input.status) conds.push(statusFilter(input.status, now));
  if (input.keyword) {
    const pattern = `%${escapeLike(input.keyword)}%`;
    conds.push(
      or(
        ilike(devices.name, pattern),
        ilike(devices.number, pattern),
        ilike(devices.ip, pattern),
        ilike(devices.mac, pattern),
      ) as SQL,
    );
  }
  if (input.deptId) conds.push(await deptFilter(db, subject.entId, input.deptId));
  if (input.type) conds.push(eq(devices.type, input.type));
  if (input.scene) conds.push(eq(devices.scene, input.scene));
  if (input.expireBefore) conds.push(lt(devices.expireAt, new Date(input.expireBefore)));
  if (input.licence) conds.push(licenceFilter(input.licence, now));
  if (input.playerVersion) conds.push(eq(devices.playerVersion, input.playerVersion));
  // A custom field (issue 31): text contains, the other types equal (as text: '55', '2026-01-31').
  if (input.customField) {
    const value = sql`(${devices.customFields} ->> ${input.customField.key})`;
    const def = await db
      .select({ type: deviceCustomFields.type })
      .from(deviceCustomFields)
      .where(and(eq(deviceCustomFields.entId, subject.entId), eq(deviceCustomFields.key, input.customField.key)));
    const type = def[0]?.type;
    if (type === 'text') conds.push(ilike(value, `%${escapeLike(input.customField.value)}%`));
    else if (type === 'number') {
      const n = Number(input.customField.value);
      conds.push(
        Number.isFinite(n)
          ? sql`${devices.customFields} -> ${input.customField.key} = to_jsonb(${n}::numeric)`
          : sql`false`,
      );
    } else if (type) conds.push(eq(value, input.customField.value));
    else conds.push(sql`false`);
  }
  return and(...conds) as SQL;
}

/**
 * The list's total is counted up to this many rows: beyond it the answer says `totalCapped`
 * and the console shows "1,000+" (20 pages of 50; filters narrow the list), as search
 * consoles do. An exact count of a scope of hundreds of thousands of devices costs tens to
 * hundreds of milliseconds on every page (bench/deviceList.ts); counting up to the cap costs
 * about as much as the page itself.
 */
export const DEVICE_LIST_COUNT_CAP = 1000;

/**
 * The list reads the scope's rows (a bitmap over devices_ent_dept_status_created_idx and
 * the owner and share indexes) and sorts them when that reads fewer rows than walking the
 * newest-first index would (narrowScope); never above this many. A walk reads about
 * (cap + 1) / share rows for the bounded total, where share is the scope's part of the
 * enterprise's devices of the status asked: a store's 5,000 of 1,000,000 devices walk
 * 200,000 rows (1.5 s for the offline filter, bench/deviceList.ts), a region's 110,000
 * read 9,000 in order but 110,000 to sort.
 */
export const DEVICE_SCAN_LIMIT = 20_000;

/** The departments the caller's role scope covers whole, as a condition on device_dept_counts; undefined for 'self'. */
function coveredDeviceDepartments(subject: ScopeSubject): SQL | undefined {
  if (subject.dataScope === 'all') return sql`true`;
  if (subject.deptId && subject.dataScope === 'dept_only') return eq(deviceDeptCounts.deptId, subject.deptId);
  if (subject.deptId && subject.dataScope === 'dept_and_below') {
    return inDeptSubtree(deviceDeptCounts.deptId, subject.entId, subject.deptPath ?? '\u0000');
  }
  return undefined;
}

/** Devices by stored status: of the departments the caller's scope covers, and of the whole enterprise. */
export interface DeviceScopeCounts {
  covered: Map<string, number>;
  enterprise: Map<string, number>;
  /**
   * For a department scope ('dept_only', 'dept_and_below'): the covered departments that
   * hold devices, with their devices by stored status (the branches of the merged plan,
   * mergedPageQueries). Undefined for the other scopes.
   */
  byDept?: Map<string, Map<string, number>>;
}

/** The caller's data scope as a key of statements kept for it (its type's five fields). */
export const scopeKey = (subject: ScopeSubject) =>
  JSON.stringify([subject.entId, subject.accountId, subject.deptId, subject.deptPath, subject.dataScope]);

/** deviceScopeCounts's statements kept per scope, of the database `db`. */
const countStatements = (db: Executor) =>
  plannedStatements<Prepared<Awaited<ReturnType<typeof scopeCountsQuery>>>>(db, 'deviceScopeCounts', 256);

/** The read of deviceScopeCounts: by status for the enterprise, and for a department scope per covered department. */
function scopeCountsQuery(db: Executor, subject: ScopeSubject) {
  const coveredDepts = coveredDeviceDepartments(subject);
  const perDept =
    subject.dataScope === 'dept_only' || subject.dataScope === 'dept_and_below' ? coveredDepts : undefined;
  const byStatus = db
    .select({
      status: deviceDeptCounts.status,
      deptId: sql<string | null>`null::text`,
      n: sql<string>`sum(${deviceDeptCounts.n})`,
    })
    .from(deviceDeptCounts)
    .where(eq(deviceDeptCounts.entId, subject.entId))
    .groupBy(deviceDeptCounts.status);
  // Departments in the database's own order (their ids' collation): mergedPageQueries cuts the
  // ranges between them.
  return perDept
    ? byStatus
        .unionAll(
          db
            .select({
              status: deviceDeptCounts.status,
              deptId: deviceDeptCounts.deptId,
              n: sql<string>`${deviceDeptCounts.n}::bigint`,
            })
            .from(deviceDeptCounts)
            .where(and(eq(deviceDeptCounts.entId, subject.entId), perDept, gt(deviceDeptCounts.n, 0))),
        )
        .orderBy(sql`2 nulls first`)
    : byStatus;
}

/**
 * The devices of the departments the caller's role scope covers, and of its enterprise, by
 * stored status, from device_dept_counts (a trigger keeps it): one read of a few rows. The
 * covered count leaves out the caller's own and shared devices elsewhere (none are counted
 * for 'self'), so it is a lower bound of what the caller sees: enough to choose the list's
 * plan (narrowScope) and to know a total passes the count cap without counting. A
 * department scope also gets its covered departments' rows (byDept).
 */
export async function deviceScopeCounts(
  db: Executor,
  subject: ScopeSubject,
  planned = false,
): Promise<DeviceScopeCounts> {
  const perDept = subject.dataScope === 'dept_only' || subject.dataScope === 'dept_and_below';
  const coveredDepts = coveredDeviceDepartments(subject);
  // `planned`: db is Database.planned and the read a statement kept per scope (one shape per scope kind).
  const rows = planned
    ? await countStatements(db)
        .get(scopeKey(subject), () => preparePlanned(scopeCountsQuery(db, subject)))
        .execute()
    : await scopeCountsQuery(db, subject);
  const enterprise = new Map<string, number>();
  const covered = new Map<string, number>();
  const byDept = perDept ? new Map<string, Map<string, number>>() : undefined;
  for (const r of rows) {
    const n = Number(r.n);
    if (r.deptId === null) {
      enterprise.set(r.status, n);
      if (!perDept) covered.set(r.status, coveredDepts ? n : 0);
      continue;
    }
    covered.set(r.status, (covered.get(r.status) ?? 0) + n);
    const dept = byDept?.get(r.deptId) ?? new Map<string, number>();
    dept.set(r.status, n);
    byDept?.set(r.deptId, dept);
  }
  for (const status of enterprise.keys()) if (!covered.has(status)) covered.set(status, 0);
  return { covered, enterprise, byDept };
}

/**
 * The rows of `counts` a status filter leaves to look at (shown offline are stored offline
 * or online).
 */
export function planSize(counts: Map<string, number>, status?: DeviceStatusValue): number {
  const statuses = !status ? null : status === 'offline' ? ['offline', 'online'] : [status];
  let n = 0;
  for (const [stored, v] of counts) if (!statuses || statuses.includes(stored)) n += v;
  return n;
}

/**
 * Whether reading and sorting the scope's rows costs less than walking the newest-first
 * index (DEVICE_SCAN_LIMIT): the scope's rows s against (cap + 1) x e / s for the walk, e
 * the enterprise's rows of the status asked, that is s^2 < (cap + 1) x e.
 */
export function narrowScope(counts: DeviceScopeCounts, status?: DeviceStatusValue): boolean {
  const s = planSize(counts.covered, status);
  const e = planSize(counts.enterprise, status);
  return s <= DEVICE_SCAN_LIMIT && s * s < (DEVICE_LIST_COUNT_CAP + 1) * e;
}

/**
 * Whether the list's total is known to pass DEVICE_LIST_COUNT_CAP from the scope's counts
 * alone: only the scope and a status filter apply, and more devices of the covered
 * departments have that stored status than the cap. Shown offline is the stored offline
 * and online ones that missed their heartbeats, so the stored offline count is a lower bound
 * of it; shown online is not bounded below by a stored count, so it is always counted.
 */
export function totalPassesCap(input: DeviceListInput, counts: DeviceScopeCounts): boolean {
  const { page: _p, size: _s, sort: _o, order: _d, status, ...others } = input;
  if (Object.values(others).some((v) => v !== undefined && v !== '')) return false;
  if (status === 'online') return false;
  let n = 0;
  for (const [stored, v] of counts.covered) if (!status || stored === status) n += v;
  return n > DEVICE_LIST_COUNT_CAP;
}

/**
 * The two queries of a device page: its rows and its total bounded by DEVICE_LIST_COUNT_CAP
 * (+1). `narrow` (narrowScope) chooses the plan of the default order (newest first): the
 * sort key is written so that no index's order serves it, which makes PostgreSQL read the
 * scope's rows and sort them (same order, same rows); otherwise it walks the index.
 */
export async function devicePageQueries(
  ctx: Pick<CallContext, 'db' | 'user' | 'now'>,
  input: DeviceListInput,
  narrow = false,
) {
  const where = await deviceListWhere(ctx.db, ctx.user, input, ctx.now);
  // `+ interval '0'` changes no value (null stays null): it only hides the column from the
  // planner's choice of an ordered index scan.
  const created = narrow ? sql`(${devices.createdAt} + interval '0 seconds')` : sql`${devices.createdAt}`;
  const order = listOrder(
    input,
    {
      name: devices.name,
      number: devices.number,
      status: devices.status,
      playerVersion: devices.playerVersion,
      storageUsed: devices.storageUsed,
      screenSize: devices.screenSize,
      installedAt: devices.installedAt,
      expireAt: devices.expireAt,
      lastSeenAt: devices.lastSeenAt,
      createdAt: devices.createdAt,
    },
    devices.id,
    // `desc nulls last`: the order of devices_ent_created_idx and devices_ent_status_created_idx
    // (plain desc means nulls first, which no index of the table serves: a sort of the whole scope).
    [sql`${created} desc nulls last`, asc(devices.id)],
  );
  const upTo = ctx.db
    .select({ one: sql`1` })
    .from(devices)
    .where(where)
    .limit(DEVICE_LIST_COUNT_CAP + 1)
    .as('up_to');
  // The page's ids first, then their rows: PostgreSQL computes a row's select list (its tags,
  // names, canManage) below LIMIT, so a page read whole would compute it for every row OFFSET
  // skips too (page 20: 1,000 rows' subqueries for 50, about 40 ms).
  const pageIds = ctx.db
    .select({ id: devices.id })
    .from(devices)
    .where(where)
    .orderBy(...order)
    .limit(input.size)
    .offset((input.page - 1) * input.size);
  return {
    rows: listRows(ctx, inArray(devices.id, pageIds)).orderBy(...order),
    // A narrow scope is counted whole, through the same bitmap as its rows (it holds at most
    // DEVICE_SCAN_LIMIT rows of its departments): bounded by LIMIT, PostgreSQL bets on finding the rows early
    // in a sequential scan, and reads the whole table when the filter keeps few or none.
    total: narrow
      ? ctx.db.select({ total: count() }).from(devices).where(where)
      : ctx.db.select({ total: count() }).from(upTo),
  };
}

/**
 * A column of the list's device row, written with its table's name: drizzle writes the columns
 * of a one-table query bare, and a bare `id` inside a subquery of tags names the tag's.
 */
export const deviceColumn = (column: AnyPgColumn) => sql`${devices}.${sql.identifier(column.name)}`;

const tagColumn = (column: AnyPgColumn) => sql`${tags}.${sql.identifier(column.name)}`;

/** A device's tags by name, as a column of its row (one correlated subquery, no round trip of its own). */
const tagsColumn = sql<
  { id: string; name: string }[]
>`coalesce((select json_agg(json_build_object('id', ${tagColumn(tags.id)}, 'name', ${tagColumn(tags.name)}) order by ${tagColumn(tags.name)}) from ${deviceTags} join ${tags} on ${tagColumn(tags.id)} = ${deviceTags}.${sql.identifier(deviceTags.tagId.name)} where ${deviceTags}.${sql.identifier(deviceTags.deviceId.name)} = ${deviceColumn(devices.id)}), '[]'::json)`.mapWith(
  (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as { id: string; name: string }[],
);

/**
 * Whether points were bought for the device (issue 27): a market item of kind devicePoints
 * names it (market_items_subject_key; read through the schema: devices must not import the market).
 */
export const licensedColumn =
  sql<boolean>`exists (select 1 from ${marketItems} where ${marketItems}.${sql.identifier(marketItems.kind.name)} = 'devicePoints' and ${marketItems}.${sql.identifier(marketItems.subjectId.name)} = ${deviceColumn(devices.id)})`.mapWith(
    (v: unknown) => v === true || v === 't',
  );

/** The SQL of "the licence is `licence` at `now`" (licenceOf). */
export function licenceFilter(licence: LicenceState, now: Date): SQL {
  const expired = sql`(${deviceColumn(devices.expireAt)} is not null and ${deviceColumn(devices.expireAt)} <= ${now.toISOString()}::timestamptz)`;
  if (licence === 'expired') return expired;
  return sql`(not ${expired} and ${licence === 'licensed' ? sql`` : sql`not `}${licensedColumn})`;
}

/** The name of the row of `table` whose id is the device's `column` (a correlated subquery). */
const nameOf = (table: typeof departments | typeof deviceGroups | typeof stores, column: AnyPgColumn) =>
  sql<
    string | null
  >`(select ${table}.${sql.identifier(table.name.name)} from ${table} where ${table}.${sql.identifier(table.id.name)} = ${deviceColumn(column)})`;

/**
 * The list's rows of `where`: each device with its department, group and store names and its
 * tags; `extra` columns beside them (the detail's owner).
 */
export function listRows<E extends Record<string, SQL.Aliased | SQL>>(
  ctx: { db: CallContext['db']; user: ScopeSubject },
  where: SQL | undefined,
  extra: E = {} as E,
) {
  // The names as scalar subqueries, not left joins: PostgreSQL plans each alone, where three
  // joins beside the page's `id in (...)` made it search join orders over the devices table's
  // indexes, 3 to 4 ms of planning on every page (bench/deviceList.ts).
  return ctx.db
    .select({
      device: listedColumns,
      deptName: nameOf(departments, devices.deptId),
      groupName: nameOf(deviceGroups, devices.groupId),
      storeName: nameOf(stores, devices.storeId),
      tags: tagsColumn,
      canManage: canManageColumn(ctx),
      licensed: licensedColumn,
      ...extra,
    })
    .from(devices)
    .where(where);
}

/**
 * The most branches (a covered department, or a department and stored status) the merged
 * plan reads; a scope of more departments takes the bitmap or walk plan (narrowScope).
 */
export const DEVICE_MERGE_BRANCHES = 96;

/**
 * What the merged plan's statements depend on besides the filter and the counts: the caller's
 * data scope only (ScopeSubject: the key of a statement kept by plannedMergedPage), and the
 * time that decides missed heartbeats (a placeholder in a kept statement).
 */
export interface MergeContext {
  db: CallContext['db'];
  user: ScopeSubject;
  now: Date | Placeholder;
}

/**
 * The merged plan of a department scope's first pages (issue 9): only for the default order
 * (newest first) and no filter but status and tag. The visible devices are the union of
 * disjoint branches, each read newest first from an index: one per covered department that
 * holds devices (devices_ent_dept_created_idx), or per department and stored status a status
 * filter leaves (devices_ent_dept_status_created_idx, shown online and offline checked per
 * row as statusFilter does), or with a tag the same of the tag's rows (device_tags_tag_dept_
 * created_idx and device_tags_tag_dept_status_created_idx: device_tags carries each device's
 * department, stored status and creation time); the caller's own devices outside those
 * departments (devices_ent_owner_dept_idx) and the devices shared with the caller outside
 * both (scopeOutsideBranches), merged by db/mergedPage.ts: PostgreSQL reads about offset +
 * size rows whatever the scope's size, instead of the scope's rows (a sort) or the
 * enterprise's newest until enough of them are the caller's (a walk). Its total is the same
 * union bounded by the count cap. The enterprise administrator's list is one branch per
 * stored status of the enterprise's rows (devices_ent_(status_)created_idx), or with a tag of
 * the tag's rows of it (device_tags_ent_tag(_status)_created_idx), and shown offline adds the
 * stale branch: the same index walk as devicePageQueries's, kept per shape by
 * plannedMergedPage, without the walk's per-row test of every stored online row. Same rows,
 * same order as devicePageQueries; undefined when it does not apply.
 */
export function mergedPageQueries(
  ctx: MergeContext,
  input: DeviceListInput,
  counts: DeviceScopeCounts,
  window: PageWindow = pageWindow(input.page, input.size),
) {
  const { page: _page, size: _size, sort, order: _order, status, tagId, ...others } = input;
  if (sort || Object.values(others).some((v) => v !== undefined && v !== '')) return undefined;
  // The enterprise administrator's list: the enterprise's rows, or with a tag the tag's rows of it.
  const whole = ctx.user.dataScope === 'all';
  if (!counts.byDept && !whole) return undefined;
  // Shown offline is stored offline, and stored online past its presence deadline: those few
  // are one branch of their own (staleBranch), so no branch tests every stored online row.
  const stored = !status ? null : [status];
  const shown = status ? statusFilter(status, ctx.now) : undefined;
  // The tag, tested on a row of devices (the branches outside the departments).
  const tagged = tagId
    ? sql`exists (select 1 from ${deviceTags} where ${deviceTags.deviceId} = ${devices.id} and ${deviceTags.tagId} = ${tagId})`
    : undefined;
  const entId = eq(devices.entId, ctx.user.entId);
  // One family of branches per stored status (or one without a status filter): the
  // departments holding devices of it, each read alike. (A family is built once per shape:
  // the statements are kept, plannedMergedPage.)
  const depts = [...(counts.byDept?.keys() ?? [])];
  const holding = (s: string) => depts.filter((d) => counts.byDept?.get(d)?.get(s));
  const branches: MergeBranch[] = [];
  const family = (each: readonly string[], where: (dept: string) => SQL, from?: MergeSource) => {
    for (const dept of each) branches.push({ where: where(dept), from });
  };
  // A stored online row is tested for missed heartbeats (shown online); the other stored
  // statuses are shown as stored.
  const live = status === 'online' ? shown : undefined;
  if (whole) {
    // Newest first from devices_ent_created_idx or devices_ent_status_created_idx, or with a
    // tag from device_tags_ent_tag(_status)_created_idx (stored online rows tested on the
    // device's row).
    const ofTag = tagId ? and(eq(deviceTags.entId, ctx.user.entId), eq(deviceTags.tagId, tagId)) : undefined;
    const from = tagId ? tagSource : undefined;
    // Without a tag or a status, one branch per stored status too: a generic plan of the
    // enterprise's rows under a LIMIT placeholder (planned as a tenth of them) sorted the
    // whole enterprise (390 ms, bench/deviceList.ts).
    const each = stored ?? (tagId ? null : [...counts.covered.keys()]);
    if (!each) branches.push({ where: ofTag as SQL, from });
    for (const s of each ?? []) {
      if (!counts.covered.get(s)) continue;
      branches.push({
        where: (ofTag
          ? and(ofTag, sql`${deviceTags.status} = ${s}`, live && liveOnRow(live))
          : and(entId, sql`${devices.status} = ${s}`, live)) as SQL,
        from,
      });
    }
    if (status === 'offline' && counts.covered.get('online')) branches.push(staleBranch(ctx, and(entId, tagged)));
  } else if (tagId) {
    // The tag's rows of each department (and stored status). (The department and the tag are
    // the caller's enterprise's.)
    const ofTag = (dept: string) => and(eq(deviceTags.tagId, tagId), eq(deviceTags.deptId, dept)) as SQL;
    if (!stored) family(depts, ofTag, tagSource);
    for (const s of stored ?? []) {
      family(
        holding(s),
        (dept) => and(ofTag(dept), sql`${deviceTags.status} = ${s}`, live && liveOnRow(live)) as SQL,
        tagSource,
      );
    }
  } else {
    if (!stored) family(depts, (dept) => and(entId, eq(devices.deptId, dept)) as SQL);
    for (const s of stored ?? []) {
      family(holding(s), (dept) => and(entId, eq(devices.deptId, dept), sql`${devices.status} = ${s}`, live) as SQL);
    }
  }
  if (!whole && status === 'offline') {
    const online = holding('online');
    if (online.length > 0) {
      branches.push(staleBranch(ctx, and(entId, inArray(devices.deptId, online), tagged), online));
    }
  }
  if (branches.length > DEVICE_MERGE_BRANCHES) return undefined;
  const outside = whole
    ? undefined
    : scopeOutsideBranches(
        ctx.user,
        deviceScope as Required<Pick<ScopedColumns, 'entId' | 'deptId' | 'ownerId' | 'share'>>,
        depts,
      );
  const all: MergeBranch[] = outside
    ? [
        ...branches,
        { where: outside.own.map((where) => and(where, shown, tagged) as SQL), few: true },
        { where: and(outside.shared, shown, tagged) as SQL, few: true },
      ]
    : branches;
  // No branch (no device of the status asked): the empty page of a branch that reads nothing.
  if (all.length === 0) all.push({ where: sql`false` });
  return {
    rows: listRows(ctx, sql`${devices.id} in (${mergedPageIds(devices, devices.id, newestKeys, all, window)})`).orderBy(
      sql`${devices.createdAt} desc nulls last`,
      asc(devices.id),
    ),
    total: ctx.db.select({ total: count() }).from(mergedUpTo(devices, devices.id, all, DEVICE_LIST_COUNT_CAP)),
  };
}

/**
 * A tag's row whose device's row passes `shown` (the missed-heartbeat test of a stored online
 * device): a scalar subquery, one probe of the device per row read, where an `exists` let a
 * generic plan hash every online row of the tag to count a capped total (98 ms for 87,000).
 */
const liveOnRow = (shown: SQL) =>
  sql`coalesce((select ${shown} from ${devices} where ${devices.id} = ${deviceTags.deviceId}), false)`;

/**
 * The merged plan's branch of the devices shown offline though stored online (they missed
 * their heartbeats) among `where`: the enterprise's device_presence rows past their deadline,
 * a few (of the departments `depts` only, when given), each looked up by id (an InitPlan's
 * array, so even a generic plan probes the primary key rather than joining every presence
 * row), then tested as statusFilter does.
 */
function staleBranch(ctx: Omit<MergeContext, 'db'>, where: SQL | undefined, depts?: readonly string[]): MergeBranch {
  const ofDepts = depts ? sql` and ${inArray(devicePresence.deptId, [...depts])}` : sql``;
  const due = sql`array(select ${devicePresence.deviceId} from ${devicePresence} where ${devicePresence.entId} = ${ctx.user.entId} and ${devicePresence.deadline} < ${ctx.now}::timestamptz${ofDepts})`;
  return {
    where: and(
      sql`${devices.id} = any(${due})`,
      sql`${devices.status} = 'online'`,
      statusFilter('offline', ctx.now),
      where,
    ) as SQL,
    few: true,
  };
}

/** Newest first, as devices_ent_dept_created_idx and devices_ent_dept_status_created_idx hold it. */
const newestKeys: MergeKey[] = [
  { column: devices.createdAt, desc: true, nullsFirst: false },
  { column: devices.id, desc: false, nullsFirst: false },
];

/** A tag's rows of device_tags in the same order (device_tags_tag_dept_created_idx). */
const tagSource: MergeSource = {
  table: deviceTags,
  id: deviceTags.deviceId,
  columns: [deviceTags.deviceCreatedAt, deviceTags.deviceId],
};

/**
 * The queries of a device page as listDevices runs them: the merged plan when it applies,
 * otherwise devicePageQueries with the plan narrowScope chooses.
 */
export async function deviceListQueries(
  ctx: Pick<CallContext, 'db' | 'user' | 'now'>,
  input: DeviceListInput,
  counts: DeviceScopeCounts,
) {
  const merged = mergedPageQueries(ctx, input, counts);
  if (merged) return { plan: 'merge' as const, ...merged };
  // 'self' reads no counts: its own devices come in order from devices_ent_owner_created_idx.
  const narrow = ctx.user.dataScope !== 'self' && narrowScope(counts, input.status);
  return { plan: narrow ? ('narrow' as const) : ('walk' as const), ...(await devicePageQueries(ctx, input, narrow)) };
}

/** The merged plan's statements kept per shape, of the database `db` (each holds two statements' text, about 30 KB). */
const mergedStatements = (db: CallContext['db']) =>
  plannedStatements<ReturnType<typeof prepareMerged>>(db, 'deviceList', 256);

const NOW = sql.placeholder('now');
const WINDOW: PageWindow = {
  end: sql.placeholder('end'),
  size: sql.placeholder('size'),
  offset: sql.placeholder('offset'),
};

function prepareMerged(
  planned: CallContext['db'],
  user: ScopeSubject,
  input: DeviceListInput,
  counts: DeviceScopeCounts,
) {
  const q = mergedPageQueries({ db: planned, user, now: NOW }, input, counts, WINDOW);
  return q ? { rows: preparePlanned(q.rows), total: preparePlanned(q.total) } : null;
}

/** What fills the placeholders of plannedMergedPage's statements for a call. */
export function mergedPageValues(now: Date, input: Pick<DeviceListInput, 'page' | 'size'>) {
  return { now, ...pageWindow(input.page, input.size) };
}

/**
 * The merged plan's page and total as statements prepared once per shape, `now` and the page
 * a placeholder: building and rendering a region's (26,000 characters, 368 parameters) cost
 * 5 ms of JavaScript a call. The key is what mergedPageQueries reads: the caller's data scope
 * (its type allows no more), the status and tag asked, and which departments hold devices of
 * which stored status; undefined when the merged plan does not apply.
 */
export function plannedMergedPage(
  planned: CallContext['db'],
  user: ScopeSubject,
  input: DeviceListInput,
  counts: DeviceScopeCounts,
) {
  const { page: _page, size: _size, ...filters } = input;
  const held = (m: Map<string, number>) =>
    [...m]
      .filter(([, n]) => n > 0)
      .map(([s]) => s)
      .sort();
  const key = JSON.stringify([
    scopeKey(user),
    Object.entries(filters)
      .filter(([, v]) => v !== undefined && v !== '')
      .sort(),
    held(counts.covered),
    [...(counts.byDept ?? [])].map(([dept, m]) => [dept, held(m)]),
    counts.byDept === undefined,
  ]);
  return mergedStatements(planned).get(key, () => prepareMerged(planned, user, input, counts)) ?? undefined;
}

/**
 * The scope's counts each caller's data scope read last, of the database `db`: the guess of
 * the merged statement a call starts with while its own counts are read (listDevices).
 */
export const seenCounts = (db: CallContext['db']) =>
  plannedStatements<DeviceScopeCounts>(db, 'deviceScopeCountsSeen', 1024);
