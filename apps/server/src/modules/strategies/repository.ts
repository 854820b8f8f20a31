import { and, count, desc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { ScopedColumns } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import {
  accounts,
  departments,
  deviceCommands,
  deviceStrategies,
  devices,
  strategies,
  strategyApplicationDevices,
  strategyApplications,
} from '../../db/schema/index.js';
import { newestFirst } from '../../db/sort.js';

/** The scoped columns of strategies (auth/scope.ts): department and owner; strategies are not shared. */
export const strategyScope: ScopedColumns = {
  entId: strategies.entId,
  deptId: strategies.deptId,
  ownerId: strategies.ownerId,
};

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The columns of a strategy row as the console lists it. */
const rowColumns = {
  strategy: strategies,
  deptName: departments.name,
  ownerLogin: accounts.loginName,
  ownerRealName: accounts.realName,
  appliedCount: sql<number>`(select count(*)::int from ${deviceStrategies} where ${deviceStrategies.strategyId} = ${strategies.id})`,
  staleCount: sql<number>`(select count(*)::int from ${deviceStrategies} where ${deviceStrategies.strategyId} = ${strategies.id} and ${deviceStrategies.version} < ${strategies.version})`,
};

export type StrategyListRow = Awaited<ReturnType<typeof selectStrategies>>[number];

function selectStrategies(db: Executor, where: SQL | undefined) {
  return db
    .select(rowColumns)
    .from(strategies)
    .leftJoin(departments, eq(departments.id, strategies.deptId))
    .leftJoin(accounts, eq(accounts.id, strategies.ownerId))
    .where(where);
}

/** A page of the strategies `visible` lets through, newest change first. */
export async function listStrategies(
  db: Executor,
  visible: SQL,
  filter: { type?: string; keyword?: string },
  page: { page: number; size: number },
) {
  const conds: SQL[] = [visible];
  if (filter.type) conds.push(eq(strategies.type, filter.type as (typeof strategies.$inferSelect)['type']));
  if (filter.keyword) conds.push(ilike(strategies.name, `%${escapeLike(filter.keyword)}%`));
  const where = and(...conds);
  const [rows, [{ total }]] = await Promise.all([
    selectStrategies(db, where)
      .orderBy(...newestFirst(strategies.updatedAt, strategies.id))
      .limit(page.size)
      .offset((page.page - 1) * page.size),
    db.select({ total: count() }).from(strategies).where(where),
  ]);
  return { total, rows };
}

/** One visible strategy, or undefined. */
export async function findStrategy(db: Executor, visible: SQL, id: string): Promise<StrategyListRow | undefined> {
  const [row] = await selectStrategies(db, and(visible, eq(strategies.id, id)));
  return row;
}

/** Locks a visible strategy row for a change (concurrent updates and applications serialise). */
export async function lockStrategy(db: Executor, visible: SQL, id: string) {
  const [row] = await db
    .select()
    .from(strategies)
    .where(and(visible, eq(strategies.id, id)))
    .for('update');
  return row;
}

/** How many devices have the strategy as their current one of its type. */
export async function countAssigned(db: Executor, strategyId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(deviceStrategies)
    .where(eq(deviceStrategies.strategyId, strategyId));
  return n;
}

/** Records an application and makes the strategy each device's current one of its type. */
export async function recordApplication(
  db: Executor,
  input: {
    entId: string;
    strategyId: string;
    type: (typeof strategies.$inferSelect)['type'];
    version: number;
    accountId: string;
    at: Date;
    commands: readonly { id: string; deviceId: string }[];
  },
): Promise<string> {
  const [application] = await db
    .insert(strategyApplications)
    .values({
      entId: input.entId,
      strategyId: input.strategyId,
      version: input.version,
      accountId: input.accountId,
      createdAt: input.at,
    })
    .returning({ id: strategyApplications.id });
  if (input.commands.length === 0) return application.id;
  await db
    .insert(strategyApplicationDevices)
    .values(input.commands.map((c) => ({ applicationId: application.id, deviceId: c.deviceId, commandId: c.id })));
  await db
    .insert(deviceStrategies)
    .values(
      input.commands.map((c) => ({
        deviceId: c.deviceId,
        type: input.type,
        entId: input.entId,
        strategyId: input.strategyId,
        version: input.version,
        commandId: c.id,
        appliedAt: input.at,
      })),
    )
    .onConflictDoUpdate({
      target: [deviceStrategies.deviceId, deviceStrategies.type],
      set: {
        strategyId: sql`excluded.strategy_id`,
        version: sql`excluded.version`,
        commandId: sql`excluded.command_id`,
        appliedAt: sql`excluded.applied_at`,
      },
    });
  return application.id;
}

/** The application `applicationId` of a strategy, or its latest. */
export async function findApplication(db: Executor, strategyId: string, applicationId?: string) {
  const conds = [eq(strategyApplications.strategyId, strategyId)];
  if (applicationId) conds.push(eq(strategyApplications.id, applicationId));
  const [row] = await db
    .select()
    .from(strategyApplications)
    .where(and(...conds))
    .orderBy(desc(strategyApplications.createdAt), desc(strategyApplications.id))
    .limit(1);
  return row;
}

/** The devices of an application that `visibleDevices` lets through, with their command. */
export function applicationDevices(db: Executor, applicationId: string, visibleDevices: SQL) {
  return db
    .select({ device: { id: devices.id, name: devices.name }, command: deviceCommands })
    .from(strategyApplicationDevices)
    .innerJoin(devices, eq(devices.id, strategyApplicationDevices.deviceId))
    .innerJoin(deviceCommands, eq(deviceCommands.id, strategyApplicationDevices.commandId))
    .where(and(eq(strategyApplicationDevices.applicationId, applicationId), visibleDevices))
    .orderBy(devices.name, devices.id);
}

/** A device's current strategies, one per type, with their command's state. */
export function strategiesOfDevice(db: Executor, deviceId: string) {
  return db
    .select({
      assignment: deviceStrategies,
      name: strategies.name,
      currentVersion: strategies.version,
      command: { state: deviceCommands.state, expiresAt: deviceCommands.expiresAt },
    })
    .from(deviceStrategies)
    .innerJoin(strategies, eq(strategies.id, deviceStrategies.strategyId))
    .leftJoin(deviceCommands, eq(deviceCommands.id, deviceStrategies.commandId))
    .where(eq(deviceStrategies.deviceId, deviceId))
    .orderBy(deviceStrategies.type);
}
