import { ErrorCode, type Watermark, type WatermarkSetting } from '@marquee/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import type { Executor } from '../../db/client.js';
import { deviceGroups, devices, materials } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { auditDevices, requestContentSync } from '../content/service.js';
import { effectiveSetting } from '../content/watermark.js';
import { manageableGroupIds, visibleGroupIds } from '../deviceGroups/repository.js';
import { deviceGroupScope } from '../devices/groupScope.js';
import { deviceScope } from '../devices/repository.js';
import { loadManaged } from '../devices/service.js';
import { resolveLayoutMaterials } from '../templates/materials.js';

/**
 * Screen watermarks (issue 31; docs/device-protocol.md 2.7.5): the console's settings per
 * device and per group (manifest.ts: which one a device shows); a change tells the devices it
 * reaches to fetch their manifest now.
 */

type SettingView = {
  enabled: boolean;
  watermark: Watermark | null;
  materialName: string | null;
  materialUrl: string | null;
} | null;

async function viewOf(db: Executor, entId: string, setting: WatermarkSetting | null): Promise<SettingView> {
  if (!setting) return null;
  if (!setting.enabled) return { enabled: false, watermark: null, materialName: null, materialUrl: null };
  const { watermark } = setting;
  let materialName: string | null = null;
  let materialUrl: string | null = null;
  if (watermark.kind === 'image' && watermark.materialId) {
    const [m] = await db
      .select({ name: materials.name })
      .from(materials)
      .where(and(eq(materials.id, watermark.materialId), eq(materials.entId, entId)));
    materialName = m?.name ?? null;
    materialUrl = (await resolveLayoutMaterials(db, entId, [watermark.materialId]))[watermark.materialId]?.url ?? null;
  }
  return { enabled: true, watermark, materialName, materialUrl };
}

/** A setting as stored: a text watermark keeps no picture, a picture one no text; its picture must be a ready image of the library. */
async function checkedSetting(ctx: CallContext, setting: WatermarkSetting | null): Promise<WatermarkSetting | null> {
  if (!setting?.enabled) return setting;
  const w = setting.watermark;
  if (w.kind === 'text') return { enabled: true, watermark: { ...w, materialId: null } };
  const [m] = await ctx.db
    .select({ id: materials.id })
    .from(materials)
    .where(
      and(
        eq(materials.id, w.materialId ?? ''),
        eq(materials.entId, ctx.user.entId),
        eq(materials.type, 'image'),
        eq(materials.status, 'ready'),
      ),
    );
  if (!m) throw new AppError(ErrorCode.WATERMARK_IMAGE_INVALID);
  return { enabled: true, watermark: { ...w, text: '' } };
}

export async function deviceWatermarkInfo(input: { deviceId: string }, ctx: CallContext) {
  const [row] = await ctx.db
    .select({ own: devices.watermark, group: deviceGroups.watermark, groupName: deviceGroups.name })
    .from(devices)
    .leftJoin(deviceGroups, eq(deviceGroups.id, devices.groupId))
    .where(and(scopeWhere(ctx.user, deviceScope), eq(devices.id, input.deviceId)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  return {
    own: await viewOf(ctx.db, ctx.user.entId, row.own),
    group: await viewOf(ctx.db, ctx.user.entId, row.group),
    groupName: row.groupName,
    effective: await viewOf(ctx.db, ctx.user.entId, effectiveSetting(row.own, row.group)),
  };
}

export async function deviceWatermarkSave(
  input: { ids: string[]; setting: WatermarkSetting | null },
  ctx: CallContext,
) {
  const targets = await loadManaged(ctx, input.ids);
  const setting = await checkedSetting(ctx, input.setting);
  const ids = targets.map((d) => d.id);
  await ctx.db.update(devices).set({ watermark: setting, updatedAt: ctx.now }).where(inArray(devices.id, ids));
  await auditDevices(ctx, 'watermark', targets, { setting });
  await requestContentSync(
    ctx,
    targets.filter((d) => d.activatedAt !== null).map((d) => d.id),
    { reason: 'watermark' },
  );
  return { changed: targets.length };
}

export async function groupWatermarkInfo(input: { groupId: string }, ctx: CallContext) {
  const [row] = await ctx.db
    .select({ own: deviceGroups.watermark })
    .from(deviceGroups)
    .where(and(scopeWhere(ctx.user, deviceGroupScope), eq(deviceGroups.id, input.groupId)));
  if (!row) throw new AppError(ErrorCode.NOT_FOUND);
  return { own: await viewOf(ctx.db, ctx.user.entId, row.own) };
}

export async function groupWatermarkSave(
  input: { groupId: string; setting: WatermarkSetting | null },
  ctx: CallContext,
) {
  const visible = await visibleGroupIds(ctx.db, ctx.user, [input.groupId]);
  if (!visible.has(input.groupId)) throw new AppError(ErrorCode.NOT_FOUND);
  if (!(await manageableGroupIds(ctx.db, ctx.user, [input.groupId])).has(input.groupId)) {
    throw new AppError(ErrorCode.NO_PERMISSION);
  }
  const setting = await checkedSetting(ctx, input.setting);
  await ctx.db
    .update(deviceGroups)
    .set({ watermark: setting, updatedAt: ctx.now })
    .where(eq(deviceGroups.id, input.groupId));
  await ctx.audit({
    module: 'deviceGroup',
    action: 'watermark',
    targetType: 'deviceGroup',
    targetId: input.groupId,
    targetName: visible.get(input.groupId) ?? '',
    detail: { setting },
  });
  // The group's activated devices that follow it (no setting of their own) fetch their manifest now.
  const members = await ctx.db
    .select({ id: devices.id, activatedAt: devices.activatedAt, own: devices.watermark })
    .from(devices)
    .where(and(eq(devices.entId, ctx.user.entId), eq(devices.groupId, input.groupId)));
  const following = members.filter((d) => d.own === null && d.activatedAt !== null).map((d) => d.id);
  await requestContentSync(ctx, following, { reason: 'watermark' });
  return { changed: following.length };
}
