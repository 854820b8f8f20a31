import { ErrorCode, type PushReason } from '@marquee/protocol';
import { inArray } from 'drizzle-orm';
import { contentPushes, deviceCommands, devices } from '../../db/schema/index.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { loadManaged } from '../devices/service.js';
import { currentLayoutProvider } from './sources.js';

/** A content change reaches the screen at once: the devices fetch their manifest now. */
const SYNC_TTL_SEC = 24 * 3600;

/**
 * Assigns a layout (or none) to devices the caller manages, then tells each activated one to
 * sync its content (the syncContent command, delivered when it is next online).
 */
export async function assignLayout(input: { ids: string[]; layoutId: string | null }, ctx: CallContext) {
  const targets = await loadManaged(ctx, input.ids);
  let layoutName: string | null = null;
  if (input.layoutId) {
    const provider = currentLayoutProvider();
    const layout = provider ? await provider.load(ctx.db, ctx.user.entId, input.layoutId) : null;
    if (!layout) throw new AppError(ErrorCode.LAYOUT_NOT_AVAILABLE);
    layoutName = layout.name;
  }
  await ctx.db
    .update(devices)
    .set({ layoutId: input.layoutId, updatedAt: ctx.now })
    .where(
      inArray(
        devices.id,
        targets.map((d) => d.id),
      ),
    );
  await auditDevices(ctx, 'assignLayout', targets, { layoutId: input.layoutId, layoutName });
  // Each activated device fetches its new manifest now (one audit row: this call's).
  await requestContentSync(
    ctx,
    targets.filter((d) => d.activatedAt !== null).map((d) => d.id),
    { reason: 'layout' },
  );
  return { changed: targets.length };
}

/** One audit row of a change to some devices: the device when one, their names (up to 200 characters), their ids in the detail. */
export function auditDevices(
  ctx: CallContext,
  action: string,
  targets: readonly { id: string; name: string }[],
  detail: Record<string, unknown>,
) {
  return ctx.audit({
    module: 'device',
    action,
    targetType: 'device',
    targetId: targets.length === 1 ? targets[0].id : undefined,
    targetName: targets
      .map((d) => d.name)
      .join(', ')
      .slice(0, 200),
    detail: { ...detail, devices: targets.map((d) => d.id) },
  });
}

/** What a push is about: why it was made and, for an ad's, the ad. */
export interface PushCause {
  reason: PushReason;
  adId?: string | null;
}

/**
 * Tells these (activated) devices of the caller's enterprise to fetch their manifest now: one
 * push (content_pushes, the issued record) and a syncContent command per device linked to it,
 * written in the caller's transaction and dispatched over the device protocol once it commits
 * (delivered when a device is next online, within SYNC_TTL_SEC). No device: no push.
 */
export async function requestContentSync(
  ctx: CallContext,
  deviceIds: readonly string[],
  cause: PushCause,
): Promise<{ pushId: string | null; devices: number }> {
  const unique = [...new Set(deviceIds)];
  if (unique.length === 0) return { pushId: null, devices: 0 };
  const [push] = await ctx.db
    .insert(contentPushes)
    .values({
      entId: ctx.user.entId,
      reason: cause.reason,
      adId: cause.adId ?? null,
      accountId: ctx.user.accountId,
      deviceCount: unique.length,
      createdAt: ctx.now,
    })
    .returning({ id: contentPushes.id });
  const rows = await ctx.db
    .insert(deviceCommands)
    .values(
      unique.map((deviceId) => ({
        entId: ctx.user.entId,
        deviceId,
        kind: 'syncContent' as const,
        params: {},
        accountId: ctx.user.accountId,
        createdAt: ctx.now,
        expiresAt: new Date(ctx.now.getTime() + SYNC_TTL_SEC * 1000),
        pushId: push.id,
      })),
    )
    .returning({ id: deviceCommands.id });
  const gateway = ctx.services.devices;
  ctx.afterCommit(() => {
    gateway.dispatch(rows.map((r) => r.id)).catch((error) => ctx.log.error({ err: error }, 'sync dispatch failed'));
  });
  return { pushId: push.id, devices: rows.length };
}
