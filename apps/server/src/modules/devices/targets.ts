import { type CommandBody, ErrorCode, MAX_RESOLVED_DEVICES } from '@marquee/protocol';
import { and, asc, eq, inArray, or, type SQL } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import { deviceCommands, deviceGroups, devices, deviceTags, tags } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import { type CallContext, joinTargetNames } from '../../protocol/handlers.js';
import { deviceGroupScope } from './groupScope.js';
import { deviceScope } from './repository.js';
import { DeviceText } from './texts.js';

/**
 * The one way a call names the devices it acts on (commands, strategies, screenshots,
 * bulk assignment): device ids, groups and tags (the protocol's deviceTargetsSchema).
 * Every device named by id must be within the caller's data scope, and every group must be
 * visible to the caller and every tag of its enterprise, else NOT_FOUND (nothing is
 * written); a group or tag stands for the caller's visible devices in it (none is fine).
 */
export interface DeviceTargets {
  deviceIds?: readonly string[];
  groupIds?: readonly string[];
  tagIds?: readonly string[];
}

export interface TargetDevice {
  id: string;
  name: string;
}

const GroupText = {
  'zh-CN': '设备分组不存在或无权访问',
  'en-US': 'The device group does not exist or is not accessible',
  ja: 'デバイスグループが存在しないか、アクセスできません',
};
const TagText = {
  'zh-CN': '标签不存在',
  'en-US': 'The tag does not exist',
  ja: 'タグが存在しません',
};
/** The groups and tags named no device the caller can see (a command needs at least one). */
export const NoTargetsText = {
  'zh-CN': '所选分组或标签下没有您可操作的设备',
  'en-US': 'The selected groups and tags hold no device you can act on',
  ja: '選択したグループまたはタグに操作可能なデバイスがありません',
};
const TooManyText = {
  'zh-CN': `一次最多可操作 ${MAX_RESOLVED_DEVICES} 台设备`,
  'en-US': `At most ${MAX_RESOLVED_DEVICES} devices can be acted on at once`,
  ja: `一度に操作できるデバイスは ${MAX_RESOLVED_DEVICES} 台までです`,
};

/**
 * The visible devices the targets name, de-duplicated: the ones asked by id in the order
 * asked, then those of the groups and tags by name. At most MAX_RESOLVED_DEVICES.
 */
export async function resolveDeviceTargets(ctx: CallContext, targets: DeviceTargets): Promise<TargetDevice[]> {
  const ids = [...new Set(targets.deviceIds ?? [])];
  const groupIds = [...new Set(targets.groupIds ?? [])];
  const tagIds = [...new Set(targets.tagIds ?? [])];
  const result: TargetDevice[] = [];
  if (ids.length > 0) {
    const rows = await ctx.db
      .select({ id: devices.id, name: devices.name })
      .from(devices)
      .where(and(scopeWhere(ctx.user, deviceScope), inArray(devices.id, ids)));
    if (rows.length !== ids.length) throw new AppError(ErrorCode.NOT_FOUND, DeviceText.notFound);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) result.push(byId.get(id) as TargetDevice);
  }
  const members: SQL[] = [];
  if (groupIds.length > 0) {
    const groups = await ctx.db
      .select({ id: deviceGroups.id })
      .from(deviceGroups)
      .where(and(scopeWhere(ctx.user, deviceGroupScope), inArray(deviceGroups.id, groupIds)));
    if (groups.length !== groupIds.length) throw new AppError(ErrorCode.NOT_FOUND, GroupText);
    members.push(inArray(devices.groupId, groupIds));
  }
  if (tagIds.length > 0) {
    const found = await ctx.db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.entId, ctx.user.entId), inArray(tags.id, tagIds)));
    if (found.length !== tagIds.length) throw new AppError(ErrorCode.NOT_FOUND, TagText);
    members.push(
      inArray(
        devices.id,
        ctx.db.select({ id: deviceTags.deviceId }).from(deviceTags).where(inArray(deviceTags.tagId, tagIds)),
      ),
    );
  }
  if (members.length > 0) {
    const seen = new Set(result.map((d) => d.id));
    const rows = await ctx.db
      .select({ id: devices.id, name: devices.name })
      .from(devices)
      .where(and(scopeWhere(ctx.user, deviceScope), members.length === 1 ? members[0] : (or(...members) as SQL)))
      .orderBy(asc(devices.name), asc(devices.id))
      .limit(MAX_RESOLVED_DEVICES + 1);
    for (const r of rows) if (!seen.has(r.id)) result.push(r);
  }
  if (result.length > MAX_RESOLVED_DEVICES) throw new AppError(ErrorCode.INVALID_PARAMS, TooManyText);
  return result;
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
  const rows: { id: string; deviceId: string }[] = [];
  // In slices: a group or tag may name thousands of devices (bind parameters are limited).
  for (let i = 0; i < targets.length; i += 1000) {
    const slice = await ctx.db
      .insert(deviceCommands)
      .values(
        targets.slice(i, i + 1000).map((d) => ({
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
    rows.push(...slice);
  }
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
