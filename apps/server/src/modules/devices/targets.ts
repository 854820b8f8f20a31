import { type CommandBody, ErrorCode } from '@marquee/protocol';
import { and, inArray } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import { deviceCommands, devices } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { deviceScope } from './repository.js';
import { DeviceText } from './texts.js';

/**
 * The one way a call names the devices it acts on (commands, strategies, screenshots,
 * bulk assignment): explicit device ids today; groups and tags resolve to their devices
 * here too once they exist, so every caller gains them at once. Every device must be
 * within the caller's data scope, else NOT_FOUND (nothing is written).
 */
export interface DeviceTargets {
  deviceIds?: readonly string[];
}

export interface TargetDevice {
  id: string;
  name: string;
}

/** The visible devices the targets name, de-duplicated, in the order asked. */
export async function resolveDeviceTargets(ctx: CallContext, targets: DeviceTargets): Promise<TargetDevice[]> {
  const ids = [...new Set(targets.deviceIds ?? [])];
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select({ id: devices.id, name: devices.name })
    .from(devices)
    .where(and(scopeWhere(ctx.user, deviceScope), inArray(devices.id, ids)));
  if (rows.length !== ids.length) throw new AppError(ErrorCode.NOT_FOUND, DeviceText.notFound);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) as TargetDevice);
}

/**
 * Stores one command per device (pending) in the call's transaction and writes one
 * operation-log entry; once committed, the gateway publishes each to its device if online
 * (QoS 1), the others wait for the device's next connection.
 */
export async function queueCommands(
  ctx: CallContext,
  targets: readonly TargetDevice[],
  body: CommandBody,
  ttlSec: number,
  audit: { module?: string; action?: string } = {},
): Promise<{ id: string; deviceId: string }[]> {
  if (targets.length === 0) return [];
  const expiresAt = new Date(ctx.now.getTime() + ttlSec * 1000);
  const rows = await ctx.db
    .insert(deviceCommands)
    .values(
      targets.map((d) => ({
        entId: ctx.user.entId,
        deviceId: d.id,
        kind: body.kind,
        params: body.params as Record<string, unknown>,
        accountId: ctx.user.accountId,
        createdAt: ctx.now,
        expiresAt,
      })),
    )
    .returning({ id: deviceCommands.id, deviceId: deviceCommands.deviceId });
  await ctx.audit({
    module: audit.module ?? 'device',
    action: audit.action ?? 'command',
    targetType: 'device',
    targetId: targets.length === 1 ? targets[0].id : undefined,
    targetName: joinTargetNames(targets.map((d) => d.name)),
    detail: { kind: body.kind, params: body.params, devices: targets.length, commandIds: rows.map((r) => r.id) },
  });
  const gateway = ctx.services.devices;
  ctx.afterCommit(() => {
    gateway.dispatch(rows.map((r) => r.id)).catch((error) => ctx.log.error({ err: error }, 'command dispatch failed'));
  });
  return rows;
}
