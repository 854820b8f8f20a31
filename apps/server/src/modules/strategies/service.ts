import {
  type CommandStateValue,
  type DeviceStrategy,
  ErrorCode,
  issueMessage,
  type StrategyApplicationDevice,
  type StrategyBody,
  type StrategyRow,
  type StrategyType,
  strategyTimeIssuesAt,
} from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import { strategies } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { messages } from '../../protocol/messages.js';
import { deviceScope } from '../devices/repository.js';
import { type DeviceTargets, NoTargetsText, queueCommands, resolveDeviceTargets } from '../devices/targets.js';
import {
  applicationDevices,
  countAssigned,
  findApplication,
  findStrategy,
  listStrategies,
  lockStrategy,
  recordApplication,
  type StrategyListRow,
  strategiesOfDevice,
  strategyScope,
} from './repository.js';
import { StrategyText } from './texts.js';

const visible = (ctx: CallContext) => scopeWhere(ctx.user, strategyScope);

function present(row: StrategyListRow): StrategyRow {
  const s = row.strategy;
  return {
    id: s.id,
    type: s.type,
    name: s.name,
    remark: s.remark,
    rules: s.rules,
    version: s.version,
    deptId: s.deptId,
    deptName: row.deptName ?? '',
    ownerName: row.ownerRealName || row.ownerLogin || '',
    appliedCount: Number(row.appliedCount),
    staleCount: Number(row.staleCount),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** A command's state as the console reads it: an open command past its expiry is expired. */
function readState(state: CommandStateValue, expiresAt: Date, now: Date): CommandStateValue {
  return (state === 'pending' || state === 'sent') && expiresAt.getTime() <= now.getTime() ? 'expired' : state;
}

/**
 * The rule a request schema cannot hold: one-off times not in the past, by the server's clock
 * (INVALID_PARAMS naming the field, like the pipeline's schema check).
 */
function checkNotPast(body: StrategyBody, ctx: CallContext): void {
  const [issue] = strategyTimeIssuesAt(body, ctx.now.getTime());
  if (!issue) return;
  const reason = issueMessage({ code: 'custom', path: issue.path, message: issue.message, input: undefined });
  throw new AppError(ErrorCode.INVALID_PARAMS, messages.invalidParams(issue.path.join('.'), reason));
}

export async function listVisibleStrategies(
  input: { page: number; size: number; type?: StrategyType; keyword?: string },
  ctx: CallContext,
): Promise<{ total: number; data: StrategyRow[] }> {
  const { total, rows } = await listStrategies(ctx.db, visible(ctx), input, input);
  return { total, data: rows.map(present) };
}

async function requireStrategy(ctx: CallContext, id: string): Promise<StrategyListRow> {
  const row = await findStrategy(ctx.db, visible(ctx), id);
  if (!row) throw new AppError(ErrorCode.NOT_FOUND, StrategyText.notFound);
  return row;
}

export async function strategyDetail(input: { id: string }, ctx: CallContext): Promise<StrategyRow> {
  return present(await requireStrategy(ctx, input.id));
}

/** A new strategy in the caller's current department, owned by the caller. */
export async function addStrategy(
  input: { name: string; remark: string } & StrategyBody,
  ctx: CallContext,
): Promise<{ id: string }> {
  checkNotPast(input, ctx);
  const [row] = await ctx.db
    .insert(strategies)
    .values({
      entId: ctx.user.entId,
      deptId: ctx.user.deptId,
      ownerId: ctx.user.accountId,
      type: input.type,
      name: input.name,
      remark: input.remark,
      rules: input.rules as Record<string, unknown>,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning({ id: strategies.id });
  await ctx.audit({
    module: 'strategy',
    action: 'add',
    targetType: 'strategy',
    targetId: row.id,
    targetName: input.name,
    detail: { type: input.type },
  });
  return { id: row.id };
}

/**
 * Changes a strategy's name, remark and rules (not its type) and raises its version; devices
 * that have it keep the older version until it is applied again (the list counts them).
 */
export async function updateStrategy(
  input: { id: string; name: string; remark: string } & StrategyBody,
  ctx: CallContext,
): Promise<{ version: number }> {
  const current = await lockStrategy(ctx.db, visible(ctx), input.id);
  if (!current) throw new AppError(ErrorCode.NOT_FOUND, StrategyText.notFound);
  if (current.type !== input.type) throw new AppError(ErrorCode.CONFLICT, StrategyText.typeFixed);
  checkNotPast(input, ctx);
  const version = current.version + 1;
  await ctx.db
    .update(strategies)
    .set({
      name: input.name,
      remark: input.remark,
      rules: input.rules as Record<string, unknown>,
      version,
      updatedAt: ctx.now,
    })
    .where(eq(strategies.id, input.id));
  await ctx.audit({
    module: 'strategy',
    action: 'update',
    targetType: 'strategy',
    targetId: input.id,
    targetName: input.name,
    detail: { type: input.type, version },
  });
  return { version };
}

/** Deletes a strategy no device has as its current one (else CONFLICT with the count). */
export async function deleteStrategy(input: { id: string }, ctx: CallContext): Promise<null> {
  const current = await lockStrategy(ctx.db, visible(ctx), input.id);
  if (!current) throw new AppError(ErrorCode.NOT_FOUND, StrategyText.notFound);
  const assigned = await countAssigned(ctx.db, input.id);
  if (assigned > 0) throw new AppError(ErrorCode.CONFLICT, StrategyText.inUse(assigned));
  await ctx.db.delete(strategies).where(eq(strategies.id, input.id));
  await ctx.audit({
    module: 'strategy',
    action: 'delete',
    targetType: 'strategy',
    targetId: input.id,
    targetName: current.name,
    detail: { type: current.type },
  });
  return null;
}

/**
 * Applies a strategy to the devices the targets name: each device's strategy of that type
 * becomes this one (at its current version), and each is sent an `applyStrategy` command
 * carrying the typed rules (one operation-log entry for the whole application).
 */
export async function applyStrategy(
  input: { id: string; targets: DeviceTargets; ttlSec: number },
  ctx: CallContext,
): Promise<{ applicationId: string; commands: { id: string; deviceId: string }[] }> {
  const strategy = await lockStrategy(ctx.db, visible(ctx), input.id);
  if (!strategy) throw new AppError(ErrorCode.NOT_FOUND, StrategyText.notFound);
  const body = { type: strategy.type, rules: strategy.rules } as StrategyBody;
  // Rules saved before a one-off time passed: the device skips what is past, nothing to refuse.
  const targets = await resolveDeviceTargets(ctx, input.targets);
  if (targets.length === 0) throw new AppError(ErrorCode.NOT_FOUND, NoTargetsText);
  const commands = await queueCommands(
    ctx,
    targets,
    {
      kind: 'applyStrategy',
      params: {
        strategyId: strategy.id,
        name: strategy.name,
        version: strategy.version,
        ...body,
      } as never,
    },
    input.ttlSec,
    { module: 'strategy', action: 'apply' },
  );
  const applicationId = await recordApplication(ctx.db, {
    entId: ctx.user.entId,
    strategyId: strategy.id,
    type: strategy.type,
    version: strategy.version,
    accountId: ctx.user.accountId,
    at: ctx.now,
    commands,
  });
  return { applicationId, commands };
}

/** The devices of one application of a strategy (its latest by default) with each command's state. */
export async function strategyApplication(
  input: { strategyId: string; applicationId?: string },
  ctx: CallContext,
): Promise<{ applicationId: string | null; createdAt: string | null; devices: StrategyApplicationDevice[] }> {
  await requireStrategy(ctx, input.strategyId);
  const application = await findApplication(ctx.db, input.strategyId, input.applicationId);
  if (!application) {
    if (input.applicationId) throw new AppError(ErrorCode.NOT_FOUND, StrategyText.applicationNotFound);
    return { applicationId: null, createdAt: null, devices: [] };
  }
  const rows = await applicationDevices(ctx.db, application.id, scopeWhere(ctx.user, deviceScope));
  return {
    applicationId: application.id,
    createdAt: application.createdAt.toISOString(),
    devices: rows.map(({ device, command: c }) => ({
      deviceId: device.id,
      deviceName: device.name,
      commandId: c.id,
      state: readState(c.state, c.expiresAt, ctx.now),
      errorCode: c.errorCode,
      errorMessage: c.errorMessage,
      sentAt: c.sentAt?.toISOString() ?? null,
      ackedAt: c.ackedAt?.toISOString() ?? null,
    })),
  };
}

/** A device's current strategy of each type (the device detail). */
export async function strategiesForDevice(
  input: { deviceId: string },
  ctx: CallContext,
): Promise<{ data: DeviceStrategy[] }> {
  await resolveDeviceTargets(ctx, { deviceIds: [input.deviceId] });
  const rows = await strategiesOfDevice(ctx.db, input.deviceId);
  return {
    data: rows.map((r) => ({
      type: r.assignment.type,
      strategyId: r.assignment.strategyId,
      name: r.name,
      version: r.assignment.version,
      currentVersion: r.currentVersion,
      appliedAt: r.assignment.appliedAt.toISOString(),
      state: r.command?.state && r.command.expiresAt ? readState(r.command.state, r.command.expiresAt, ctx.now) : null,
    })),
  };
}
