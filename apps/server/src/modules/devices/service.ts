import {
  type CommandBody,
  type CommandRow,
  type DEVICE_SORT_KEYS,
  type DeviceDetail,
  type DeviceRow,
  type DeviceStatusValue,
  type DeviceTypeValue,
  ErrorCode,
  MISSED_HEARTBEATS_OFFLINE,
  RefType,
  type SortOrder,
  type StatusHistoryRow,
} from '@marquee/protocol';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  ilike,
  inArray,
  isNull,
  lt,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  inDeptSubtree,
  type ScopedColumns,
  type ScopeSubject,
  scopeOutsideBranches,
  scopeWhere,
} from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  EACH,
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
  accounts,
  allocations,
  departments,
  deviceCommands,
  deviceDeptCounts,
  deviceGroups,
  devicePairings,
  devicePresence,
  deviceScreenshots,
  deviceStatusHistory,
  devices,
  deviceTags,
  stores,
  tags,
} from '../../db/schema/index.js';
import { listOrder } from '../../db/sort.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { loadVisibleDept } from '../dept/manage.js';
import { registerStat } from '../home/stats.js';
import { findOpenPairing, pairingBound } from './pairing.js';
import { deviceManageScope, deviceScope, effectiveStatus, setPresence } from './repository.js';
import { type DeviceTargets, NoTargetsText, queueCommands, resolveDeviceTargets } from './targets.js';
import { DeviceText } from './texts.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

// Home page figures: the devices the caller sees shown online and shown offline, counted as the
// device list's status filter counts them (an online device past its missed heartbeats is offline).
for (const [key, status] of [
  ['devicesOnline', 'online'],
  ['devicesOffline', 'offline'],
] as const) {
  registerStat({
    key,
    async count(db, caller, now) {
      const where = await deviceListWhere(db, caller, { status }, now);
      const [row] = await db.select({ n: count() }).from(devices).where(where);
      return Number(row?.n ?? 0);
    },
  });
}

/**
 * Adds a paired player to the registry (console add-device): the live pairing with the code
 * (or the device number the player reported) is bound to a new device in the caller's
 * enterprise and a department of the caller's scope; the player then collects its
 * credentials (pairing.ts). The device is `activating` until it connects.
 */
export async function addDevice(
  input: { code?: string; number?: string; name: string; deptId?: string },
  ctx: CallContext,
): Promise<{ id: string }> {
  // The caller's own current department needs no check; another must be within the caller's scope.
  const deptId = input.deptId ?? ctx.user.deptId;
  if (deptId && deptId !== ctx.user.deptId) await loadVisibleDept(ctx, deptId);
  const pairing = await findOpenPairing(ctx.db, input, ctx.now.getTime());
  if (!pairing) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
  const number = pairing.number ?? input.number ?? null;
  let preRegistered: { id: string } | undefined;
  if (number) {
    const [taken] = await ctx.db
      .select({ id: devices.id, entId: devices.entId, status: devices.status, secretHash: devices.secretHash })
      .from(devices)
      .where(eq(devices.number, number));
    // A device pre-registered by an Excel import (deviceIo) waits for its player: an
    // activating row of the caller's enterprise and scope, without credentials and without
    // a pairing bound to it, is bound to this pairing instead of refusing the number.
    if (taken) {
      preRegistered = await preRegisteredRow(ctx, taken);
      if (!preRegistered) throw new AppError(ErrorCode.CONFLICT, DeviceText.numberTaken);
    }
  }
  const [device] = preRegistered
    ? await ctx.db
        .update(devices)
        .set({
          name: input.name,
          ...(input.deptId ? { deptId: input.deptId } : {}),
          playerVersion: pairing.playerVersion,
          model: pairing.model,
          ip: pairing.ip,
          updatedAt: ctx.now,
        })
        .where(eq(devices.id, preRegistered.id))
        .returning({ id: devices.id })
    : await ctx.db
        .insert(devices)
        .values({
          entId: ctx.user.entId,
          deptId: deptId ?? null,
          ownerId: ctx.user.accountId,
          number,
          name: input.name,
          status: 'activating',
          playerVersion: pairing.playerVersion,
          model: pairing.model,
          // The address the pairing came from, until the player's heartbeats report its own.
          ip: pairing.ip,
          statusAt: ctx.now,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning({ id: devices.id });
  const bound = await ctx.db
    .update(devicePairings)
    .set({ deviceId: device.id, boundAt: ctx.now })
    .where(and(eq(devicePairings.id, pairing.id), isNull(devicePairings.deviceId)))
    .returning({ id: devicePairings.id });
  // Two operators entered the same code at once: the second finds it bound.
  if (bound.length === 0) throw new AppError(ErrorCode.PAIRING_CODE_INVALID);
  // The player's held poll answers `bound` once this commits (pairing.ts, long poll).
  ctx.afterCommit(() => pairingBound(ctx.services, pairing.id));
  if (!preRegistered) {
    await ctx.db
      .insert(deviceStatusHistory)
      .values({ entId: ctx.user.entId, deviceId: device.id, status: 'activating', reason: 'added', at: ctx.now });
  }
  await ctx.audit({
    module: 'device',
    action: 'add',
    targetType: 'device',
    targetId: device.id,
    targetName: input.name,
    detail: {
      name: input.name,
      number,
      deptId: deptId ?? null,
      by: input.code ? 'code' : 'number',
      preRegistered: Boolean(preRegistered),
    },
  });
  return { id: device.id };
}

/** The pre-registered device `taken` is, when the caller may bind a player to it (see addDevice). */
async function preRegisteredRow(
  ctx: CallContext,
  taken: { id: string; entId: string; status: string; secretHash: string | null },
): Promise<{ id: string } | undefined> {
  if (taken.entId !== ctx.user.entId || taken.status !== 'activating' || taken.secretHash) return undefined;
  const [visible] = await ctx.db
    .select({ id: devices.id })
    .from(devices)
    .where(and(scopeWhere(ctx.user, deviceScope), eq(devices.id, taken.id)));
  if (!visible) return undefined;
  const [bound] = await ctx.db
    .select({ id: devicePairings.id })
    .from(devicePairings)
    .where(eq(devicePairings.deviceId, taken.id))
    .limit(1);
  return bound ? undefined : visible;
}

/** The SQL of "shown as `status`" (effectiveStatus): online with missed heartbeats is offline. */
export function statusFilter(status: DeviceStatusValue, now: Date | Placeholder): SQL {
  const stale = sql`greatest(coalesce(${devices.lastSeenAt}, ${devices.statusAt}), ${devices.statusAt}) < ${now}::timestamptz - make_interval(secs => ${devices.heartbeatSec} * ${MISSED_HEARTBEATS_OFFLINE})`;
  if (status === 'online') return and(eq(devices.status, 'online'), sql`not (${stale})`) as SQL;
  if (status === 'offline') return or(eq(devices.status, 'offline'), and(eq(devices.status, 'online'), stale)) as SQL;
  return eq(devices.status, status);
}

/** A device's columns as lists read them: all but its secret's hash, which no list shows. */
const { secretHash: _secretHash, ...listedColumns } = getTableColumns(devices);
type ListedDevice = Omit<typeof devices.$inferSelect, 'secretHash'>;

/** The row of a device as lists show it (`device` joined with its department's name). */
function presentRow(
  d: ListedDevice,
  deptName: string | null,
  canManage: boolean,
  now: number,
  group: { name: string | null; tags: { id: string; name: string }[]; storeName?: string | null },
): DeviceRow {
  return {
    id: d.id,
    number: d.number,
    name: d.name,
    status: effectiveStatus(d, now),
    deptId: d.deptId,
    deptName: deptName ?? '',
    playerVersion: d.playerVersion,
    ip: d.ip,
    mac: d.mac,
    storageUsed: d.storageUsed,
    storageFree: d.storageFree,
    screenWidth: d.screenWidth,
    screenHeight: d.screenHeight,
    volume: d.volume,
    brightness: d.brightness,
    lastSeenAt: d.lastSeenAt?.toISOString() ?? null,
    activatedAt: d.activatedAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    type: d.type,
    screenSize: d.screenSize,
    screenCount: d.screenCount,
    installedAt: d.installedAt?.toISOString() ?? null,
    expireAt: d.expireAt?.toISOString() ?? null,
    remark: d.remark,
    groupId: d.groupId,
    groupName: group.name ?? '',
    tags: group.tags,
    address: d.address,
    poi: d.poi,
    latitude: d.latitude,
    longitude: d.longitude,
    coordApprox: d.coordApproximate,
    storeId: d.storeId,
    storeName: group.storeName ?? '',
    canManage,
    demo: d.demo,
  };
}

/** Whether the caller may edit, disable and delete a visible device (own scope, not only shared). */
const canManageColumn = (ctx: { user: ScopeSubject }) =>
  sql<boolean>`(${scopeWhere(ctx.user, deviceManageScope)})`.mapWith((v: unknown) => v === true || v === 't');

export interface DeviceListInput {
  page: number;
  size: number;
  sort?: (typeof DEVICE_SORT_KEYS)[number];
  order?: SortOrder;
  status?: DeviceStatusValue;
  keyword?: string;
  deptId?: string;
  type?: DeviceTypeValue;
  expireBefore?: string;
  playerVersion?: string;
  groupId?: string;
  tagId?: string;
  storeId?: string;
}

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
  if (input.expireBefore) conds.push(lt(devices.expireAt, new Date(input.expireBefore)));
  if (input.playerVersion) conds.push(eq(devices.playerVersion, input.playerVersion));
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
const scopeKey = (subject: ScopeSubject) =>
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
function totalPassesCap(input: DeviceListInput, counts: DeviceScopeCounts): boolean {
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
const deviceColumn = (column: AnyPgColumn) => sql`${devices}.${sql.identifier(column.name)}`;

const tagColumn = (column: AnyPgColumn) => sql`${tags}.${sql.identifier(column.name)}`;

/** A device's tags by name, as a column of its row (one correlated subquery, no round trip of its own). */
const tagsColumn = sql<
  { id: string; name: string }[]
>`coalesce((select json_agg(json_build_object('id', ${tagColumn(tags.id)}, 'name', ${tagColumn(tags.name)}) order by ${tagColumn(tags.name)}) from ${deviceTags} join ${tags} on ${tagColumn(tags.id)} = ${deviceTags}.${sql.identifier(deviceTags.tagId.name)} where ${deviceTags}.${sql.identifier(deviceTags.deviceId.name)} = ${deviceColumn(devices.id)}), '[]'::json)`.mapWith(
  (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as { id: string; name: string }[],
);

/** The name of the row of `table` whose id is the device's `column` (a correlated subquery). */
const nameOf = (table: typeof departments | typeof deviceGroups | typeof stores, column: AnyPgColumn) =>
  sql<
    string | null
  >`(select ${table}.${sql.identifier(table.name.name)} from ${table} where ${table}.${sql.identifier(table.id.name)} = ${deviceColumn(column)})`;

/**
 * The list's rows of `where`: each device with its department, group and store names and its
 * tags; `extra` columns beside them (the detail's owner).
 */
function listRows<E extends Record<string, SQL.Aliased | SQL>>(
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
  // One family of branches (db/mergedPage.ts `each`) per stored status (or one without a
  // status filter): the departments holding devices of it, each read alike.
  const depts = [...(counts.byDept?.keys() ?? [])];
  const holding = (s: string) => depts.filter((d) => counts.byDept?.get(d)?.get(s));
  const branches: MergeBranch[] = [];
  const family = (each: readonly string[], where: SQL, from?: MergeSource) => {
    if (each.length > 0) branches.push({ where, each, from });
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
    const ofTag = and(eq(deviceTags.tagId, tagId), eq(deviceTags.deptId, EACH));
    if (!stored) family(depts, ofTag as SQL, tagSource);
    for (const s of stored ?? []) {
      family(holding(s), and(ofTag, sql`${deviceTags.status} = ${s}`, live && liveOnRow(live)) as SQL, tagSource);
    }
  } else {
    if (!stored) family(depts, and(entId, eq(devices.deptId, EACH)) as SQL);
    for (const s of stored ?? []) {
      family(holding(s), and(entId, eq(devices.deptId, EACH), sql`${devices.status} = ${s}`, live) as SQL);
    }
  }
  if (!whole && status === 'offline') {
    const online = holding('online');
    if (online.length > 0) {
      branches.push(staleBranch(ctx, and(entId, inArray(devices.deptId, online), tagged), online));
    }
  }
  if (branches.reduce((n, b) => n + (b.each?.length ?? 1), 0) > DEVICE_MERGE_BRANCHES) return undefined;
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
const seenCounts = (db: CallContext['db']) => plannedStatements<DeviceScopeCounts>(db, 'deviceScopeCountsSeen', 1024);

/** A statement's result, run now; a rejection nobody awaits (a guess not kept) is not unhandled. */
function started<T>(run: Promise<T>): Promise<T> {
  run.catch(() => {});
  return run;
}

/** A page of the devices the caller can see, newest first unless a sort is asked; the total is capped. */
export async function listDevices(
  input: DeviceListInput,
  ctx: CallContext,
): Promise<{ total: number; totalCapped: boolean; data: DeviceRow[] }> {
  // The counts and the merged plan's page and total are planned once per shape (db/planned.ts):
  // a region's page is a union of about 50 index scans whose planning cost more than its run.
  // Outside a transaction only (the planned pool's connections see what is committed).
  const planned = ctx.services && ctx.db === ctx.services.db ? ctx.services.database.planned : undefined;
  const values = mergedPageValues(ctx.now, input);
  // The statement the scope's counts chose last time runs beside this call's read of them
  // (one round trip, 1.7 ms, no longer before the page): kept when the counts choose the same
  // statement, which is the same object of mergedStatements; otherwise dropped and the
  // counts' own statement runs.
  const guess = planned ? seenCounts(planned).peek(scopeKey(ctx.user)) : undefined;
  const early = planned && guess ? plannedMergedPage(planned, ctx.user, input, guess) : undefined;
  const earlyRows = early && started(early.rows.execute(values));
  const earlyTotal = early && guess && !totalPassesCap(input, guess) ? started(early.total.execute(values)) : undefined;
  // One read of a few counter rows: how wide the scope is (the plan) and whether the total passes the cap.
  const counts = await deviceScopeCounts(planned ?? ctx.db, ctx.user, planned !== undefined);
  if (planned) seenCounts(planned).set(scopeKey(ctx.user), counts);
  const merged = planned ? plannedMergedPage(planned, ctx.user, input, counts) : undefined;
  const kept = merged !== undefined && merged === early;
  const q = merged
    ? {
        rows: (kept && earlyRows) || merged.rows.execute(values),
        total: () => (kept && earlyTotal) || merged.total.execute(values),
      }
    : await deviceListQueries(ctx, input, counts).then((o) => ({ rows: o.rows, total: () => o.total }));
  // The total is counted only when the counts do not already tell it passes the cap.
  const knownCapped = totalPassesCap(input, counts);
  const [rows, counted] = await Promise.all([
    q.rows,
    knownCapped ? DEVICE_LIST_COUNT_CAP + 1 : q.total().then(([r]) => r.total),
  ]);
  const totalCapped = counted > DEVICE_LIST_COUNT_CAP;
  const total = Math.min(counted, DEVICE_LIST_COUNT_CAP);
  const now = ctx.now.getTime();
  return {
    total,
    totalCapped,
    data: rows.map((r) =>
      presentRow(r.device, r.deptName, r.canManage, now, { name: r.groupName, tags: r.tags, storeName: r.storeName }),
    ),
  };
}

/** One visible device with everything the registry knows of it, or NOT_FOUND. */
export async function deviceDetail(input: { id: string }, ctx: CallContext): Promise<DeviceDetail> {
  const [row] = await listRows(ctx, and(scopeWhere(ctx.user, deviceScope), eq(devices.id, input.id)), {
    ownerName: sql<
      string | null
    >`(select coalesce(nullif(${accounts.realName}, ''), ${accounts.loginName}) from ${accounts} where ${accounts}.${sql.identifier(accounts.id.name)} = ${deviceColumn(devices.ownerId)})`,
  });
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, DeviceText.notFound);
  const d = row.device;
  return {
    ...presentRow(d, row.deptName, row.canManage, ctx.now.getTime(), {
      name: row.groupName,
      storeName: row.storeName,
      tags: row.tags,
    }),
    firmware: d.firmware,
    model: d.model,
    screenOn: d.screenOn === null ? null : d.screenOn === 1,
    heartbeatSec: d.heartbeatSec,
    statusAt: d.statusAt.toISOString(),
    ownerName: row.ownerName ?? '',
    updatedAt: d.updatedAt.toISOString(),
  };
}

/** The devices of `ids` the caller may manage (own data scope), all of them or NOT_FOUND. */
export async function loadManaged(ctx: CallContext, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .select({
      id: devices.id,
      entId: devices.entId,
      name: devices.name,
      status: devices.status,
      activatedAt: devices.activatedAt,
    })
    .from(devices)
    .where(and(scopeWhere(ctx.user, deviceManageScope), inArray(devices.id, unique)));
  if (rows.length !== unique.length) throw new AppError(ErrorCode.NOT_FOUND, DeviceText.notFound);
  return rows;
}

const timeOrNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

/** Edits a device's registry fields (a department must be within the caller's scope). */
export async function updateDevice(
  input: {
    id: string;
    name: string;
    deptId?: string | null;
    type?: DeviceTypeValue | null;
    screenSize?: number | null;
    screenCount?: number;
    installedAt?: string | null;
    expireAt?: string | null;
    remark?: string;
  },
  ctx: CallContext,
): Promise<null> {
  const [device] = await loadManaged(ctx, [input.id]);
  if (input.deptId) await loadVisibleDept(ctx, input.deptId);
  const changes = {
    name: input.name,
    deptId: input.deptId,
    type: input.type,
    screenSize: input.screenSize,
    screenCount: input.screenCount,
    installedAt: timeOrNull(input.installedAt),
    expireAt: timeOrNull(input.expireAt),
    remark: input.remark,
  };
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  await ctx.db
    .update(devices)
    .set({ ...set, updatedAt: ctx.now })
    .where(eq(devices.id, device.id));
  await ctx.audit({
    module: 'device',
    action: 'update',
    targetType: 'device',
    targetId: device.id,
    targetName: input.name,
    detail: { ...set, previousName: device.name },
  });
  return null;
}

/**
 * Deletes devices with their history, commands, pairings and shares. Their broker access
 * ends at once: Mosquitto's dynsec client is removed in this transaction, the embedded
 * broker closes their connections once committed, EMQX is refused at the next check.
 */
export async function deleteDevices(input: { ids: string[] }, ctx: CallContext): Promise<{ deleted: number }> {
  const rows = await loadManaged(ctx, input.ids);
  const ids = rows.map((r) => r.id);
  for (const id of ids) await ctx.services.devices.accounts.revoke(id);
  await ctx.db
    .delete(allocations)
    .where(
      and(
        eq(allocations.entId, ctx.user.entId),
        eq(allocations.refType, RefType.device),
        inArray(allocations.refId, ids),
      ),
    );
  // Their screenshots' rows go with them (cascade); their files once the delete is committed.
  const shots = await ctx.db
    .select({ fileKey: deviceScreenshots.fileKey })
    .from(deviceScreenshots)
    .where(inArray(deviceScreenshots.deviceId, ids));
  await ctx.db.delete(devices).where(inArray(devices.id, ids));
  await ctx.audit({
    module: 'device',
    action: 'delete',
    targetType: 'device',
    targetId: ids.length === 1 ? ids[0] : undefined,
    targetName: joinTargetNames(rows.map((r) => r.name)),
    detail: { ids },
  });
  ctx.afterCommit(() => {
    ctx.services.devices.cutOff(ids);
    if (shots.length === 0) return;
    ctx.services.files.deleteMany(shots.map((s) => s.fileKey)).catch((error: unknown) => {
      ctx.log.warn({ err: error, devices: ids.length }, 'screenshot files of deleted devices not removed');
    });
  });
  return { deleted: ids.length };
}

/** The operation-log entry of a batch: the devices named, and those actually changed. */
function auditBatch(
  ctx: CallContext,
  action: string,
  named: readonly { id: string; name: string }[],
  changed: readonly { id: string }[],
) {
  return ctx.audit({
    module: 'device',
    action,
    targetType: 'device',
    targetId: named.length === 1 ? named[0].id : undefined,
    targetName: joinTargetNames(named.map((r) => r.name)),
    detail: { ids: named.map((r) => r.id), changed: changed.map((r) => r.id) },
  });
}

/**
 * Disables devices (`invalid`, with a history row): the broker refuses them and their live
 * connections close, as for a delete, but they keep their credentials for `enableDevices`.
 */
export async function disableDevices(input: { ids: string[] }, ctx: CallContext): Promise<{ changed: number }> {
  const named = await loadManaged(ctx, input.ids);
  const rows = named.filter((r) => r.status !== 'invalid');
  for (const row of rows) {
    await ctx.services.devices.accounts.disable(row.id);
    await setPresence(ctx.db, row, 'invalid', 'disabled', ctx.now);
  }
  await auditBatch(ctx, 'disable', named, rows);
  if (rows.length > 0) ctx.afterCommit(() => ctx.services.devices.cutOff(rows.map((r) => r.id)));
  return { changed: rows.length };
}

/**
 * Enables disabled devices: offline until they connect again (activating when the player
 * never collected its credentials).
 */
export async function enableDevices(input: { ids: string[] }, ctx: CallContext): Promise<{ changed: number }> {
  const named = await loadManaged(ctx, input.ids);
  const rows = named.filter((r) => r.status === 'invalid');
  for (const row of rows) {
    await ctx.services.devices.accounts.enable(row.id);
    await ctx.db.update(devices).set({ stateTs: null }).where(eq(devices.id, row.id));
    await setPresence(ctx.db, row, row.activatedAt ? 'offline' : 'activating', 'enabled', ctx.now);
  }
  await auditBatch(ctx, 'enable', named, rows);
  return { changed: rows.length };
}

/** A visible device's presence changes, newest first. */
export async function statusHistory(
  input: { deviceId: string; page: number; size: number },
  ctx: CallContext,
): Promise<{ total: number; data: StatusHistoryRow[] }> {
  await resolveDeviceTargets(ctx, { deviceIds: [input.deviceId] });
  const where = eq(deviceStatusHistory.deviceId, input.deviceId);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(deviceStatusHistory)
      .where(where)
      .orderBy(desc(deviceStatusHistory.at), desc(deviceStatusHistory.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(deviceStatusHistory).where(where),
  ]);
  return {
    total,
    data: rows.map((r) => ({ id: r.id, status: r.status, reason: r.reason, at: r.at.toISOString() })),
  };
}

/** Sends a command to the devices the call names (ids, groups, tags; stored, then published once committed). */
export async function sendCommand(
  input: DeviceTargets & { ttlSec: number } & CommandBody,
  ctx: CallContext,
): Promise<{ commands: { id: string; deviceId: string }[] }> {
  const targets = await resolveDeviceTargets(ctx, input);
  if (targets.length === 0) throw new AppError(ErrorCode.NOT_FOUND, NoTargetsText);
  const body = { kind: input.kind, params: input.params } as CommandBody;
  return { commands: await queueCommands(ctx, targets, body, input.ttlSec) };
}

/** A device's commands, newest first, with their states (an open command past expiry reads expired). */
export async function listCommands(
  input: { deviceId: string; ids?: string[]; page: number; size: number },
  ctx: CallContext,
): Promise<{ total: number; data: CommandRow[] }> {
  await resolveDeviceTargets(ctx, { deviceIds: [input.deviceId] });
  const conds: SQL[] = [eq(deviceCommands.deviceId, input.deviceId), eq(deviceCommands.entId, ctx.user.entId)];
  if (input.ids) conds.push(inArray(deviceCommands.id, input.ids.length > 0 ? input.ids : ['']));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(deviceCommands)
      .where(where)
      .orderBy(desc(deviceCommands.createdAt), deviceCommands.id)
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(deviceCommands).where(where),
  ]);
  const now = ctx.now.getTime();
  return {
    total,
    data: rows.map((c) => ({
      id: c.id,
      deviceId: c.deviceId,
      kind: c.kind as CommandRow['kind'],
      params: c.params,
      state: (c.state === 'pending' || c.state === 'sent') && c.expiresAt.getTime() <= now ? 'expired' : c.state,
      attempts: c.attempts,
      errorCode: c.errorCode,
      errorMessage: c.errorMessage,
      result: c.result,
      createdAt: c.createdAt.toISOString(),
      sentAt: c.sentAt?.toISOString() ?? null,
      ackedAt: c.ackedAt?.toISOString() ?? null,
      expiresAt: c.expiresAt.toISOString(),
    })),
  };
}
