import { ErrorCode } from '@marquee/protocol';
import { inArray } from 'drizzle-orm';
import { deviceCommands, devices } from '../../db/schema/index.js';
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
  await ctx.audit({
    module: 'device',
    action: 'assignLayout',
    targetType: 'device',
    targetId: targets.length === 1 ? targets[0].id : undefined,
    targetName: targets
      .map((d) => d.name)
      .join(', ')
      .slice(0, 200),
    detail: { layoutId: input.layoutId, layoutName, devices: targets.map((d) => d.id) },
  });
  // Each activated device fetches its new manifest now (one audit row: this call's).
  await requestContentSync(
    ctx,
    targets.filter((d) => d.activatedAt !== null).map((d) => d.id),
  );
  return { changed: targets.length };
}

/**
 * Tells these (activated) devices of the caller's enterprise to fetch their manifest now: a
 * syncContent command each, dispatched over the device protocol once the transaction commits
 * (delivered when a device is next online, within SYNC_TTL_SEC). Returns how many were sent.
 */
export async function requestContentSync(ctx: CallContext, deviceIds: readonly string[]): Promise<number> {
  const unique = [...new Set(deviceIds)];
  if (unique.length === 0) return 0;
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
      })),
    )
    .returning({ id: deviceCommands.id });
  const gateway = ctx.services.devices;
  ctx.afterCommit(() => {
    gateway.dispatch(rows.map((r) => r.id)).catch((error) => ctx.log.error({ err: error }, 'sync dispatch failed'));
  });
  return rows.length;
}
