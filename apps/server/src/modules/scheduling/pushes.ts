import { ErrorCode, type Push, type PushDevice, type PushDeviceState, type PushReason } from '@marquee/protocol';
import { and, count, desc, eq, exists, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import {
  accounts,
  ads,
  contentPushes,
  deviceCommands,
  deviceManifestDownloads,
  devices,
} from '../../db/schema/index.js';
import { newestFirst } from '../../db/sort.js';
import { AppError } from '../../protocol/appError.js';
import type { CallContext } from '../../protocol/handlers.js';
import { devicesReached } from '../ads/schedule.js';
import { lockAd } from '../ads/service.js';
import { requestContentSync } from '../content/service.js';
import { escapeLike } from '../dept/repository.js';
import { deviceScope } from '../devices/repository.js';
import { PushText } from './texts.js';

/**
 * Issued records (issue 13, /report/issuedRecords) and the broadcast and repush of an ad. A
 * push's devices are its syncContent commands (device_commands.push_id); a caller sees a push
 * when it sees one of its devices, and only the devices it sees count in the figures.
 */

/** An ad's 9-digit number. */
export const adNumber = (n: number | null) => (n === null ? null : String(n).padStart(9, '0'));

/** The start (UTC) of a date, `plus` days later. */
export const dayStart = (date: string, plus = 0) => new Date(Date.parse(`${date}T00:00:00Z`) + plus * 86_400_000);

/** A command's state as a result: an open one past its expiry reads expired (as device.commands says). */
export function commandResult(state: string, expiresAt: Date, now: Date): PushDeviceState {
  if ((state === 'pending' || state === 'sent') && expiresAt.getTime() <= now.getTime()) return 'expired';
  return state as PushDeviceState;
}

/** The ad, scheduled now, that the caller may change (else NOT_FOUND, NO_PERMISSION or AD_NOT_SCHEDULED). */
async function scheduledAd(ctx: CallContext, id: string) {
  const ad = await lockAd(ctx, id, true);
  const scheduled = ad.reviewState === 'passed' && !ad.paused && ad.endAt.getTime() > ctx.now.getTime();
  if (!scheduled) throw new AppError(ErrorCode.AD_NOT_SCHEDULED, PushText.notScheduled);
  return ad;
}

/** ad.broadcast: the ad's targets get their current manifest now. */
export async function broadcastAd(input: { id: string }, ctx: CallContext) {
  const ad = await scheduledAd(ctx, input.id);
  const ids = await devicesReached(ctx.db, ad.entId, [ad.targets]);
  const result = await requestContentSync(ctx, ids, { reason: 'broadcast', adId: ad.id });
  await ctx.audit({
    module: 'ad',
    action: 'broadcast',
    targetType: 'ad',
    targetId: ad.id,
    targetName: ad.name,
    detail: { pushId: result.pushId, devices: result.devices },
  });
  return result;
}

/**
 * ad.repush: the manifest again to the devices the ad reaches whose last push of this ad
 * failed or expired, or to the devices named (each must be one the ad reaches, else NOT_FOUND).
 */
export async function repushAd(input: { id: string; deviceIds?: string[] }, ctx: CallContext) {
  const ad = await scheduledAd(ctx, input.id);
  const reached = await devicesReached(ctx.db, ad.entId, [ad.targets]);
  let ids: string[];
  if (input.deviceIds) {
    const named = [...new Set(input.deviceIds)];
    const reach = new Set(reached);
    if (named.some((id) => !reach.has(id))) throw new AppError(ErrorCode.NOT_FOUND, PushText.deviceNotReached);
    ids = named;
  } else if (reached.length === 0) {
    ids = [];
  } else {
    const last = await ctx.db
      .selectDistinctOn([deviceCommands.deviceId], {
        deviceId: deviceCommands.deviceId,
        state: deviceCommands.state,
        expiresAt: deviceCommands.expiresAt,
      })
      .from(deviceCommands)
      .innerJoin(contentPushes, eq(contentPushes.id, deviceCommands.pushId))
      .where(
        and(
          eq(contentPushes.entId, ad.entId),
          eq(contentPushes.adId, ad.id),
          inArray(deviceCommands.deviceId, reached),
        ),
      )
      .orderBy(deviceCommands.deviceId, desc(deviceCommands.createdAt), desc(deviceCommands.id));
    ids = last
      .filter((c) => {
        const result = commandResult(c.state, c.expiresAt, ctx.now);
        return result === 'failed' || result === 'expired';
      })
      .map((c) => c.deviceId);
  }
  const result = await requestContentSync(ctx, ids, { reason: 'repush', adId: ad.id });
  await ctx.audit({
    module: 'ad',
    action: 'repush',
    targetType: 'ad',
    targetId: ad.id,
    targetName: ad.name,
    detail: { pushId: result.pushId, devices: ids },
  });
  return result;
}

/** The commands of pushes on devices the caller sees. */
function visibleCommands(ctx: CallContext): SQL {
  return and(eq(deviceCommands.entId, ctx.user.entId), scopeWhere(ctx.user, deviceScope)) as SQL;
}

/** A push has a device the caller sees. */
function pushVisible(ctx: CallContext): SQL {
  return exists(
    ctx.db
      .select({ one: sql`1` })
      .from(deviceCommands)
      .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
      .where(and(eq(deviceCommands.pushId, contentPushes.id), visibleCommands(ctx))),
  );
}

const nowIso = (ctx: CallContext) => ctx.now.toISOString();
const expired = (ctx: CallContext) =>
  sql`(${deviceCommands.state} = 'expired' or (${deviceCommands.state} in ('pending', 'sent') and ${deviceCommands.expiresAt} <= ${nowIso(ctx)}::timestamptz))`;

/** push.list: the pushes the caller sees, newest first, with their devices' results. */
export async function listPushes(
  input: {
    page: number;
    size: number;
    reason?: PushReason;
    adId?: string;
    keyword?: string;
    from?: string;
    to?: string;
  },
  ctx: CallContext,
): Promise<{ total: number; data: Push[] }> {
  const conds: SQL[] = [eq(contentPushes.entId, ctx.user.entId), pushVisible(ctx)];
  if (input.reason) conds.push(eq(contentPushes.reason, input.reason));
  if (input.adId) conds.push(eq(contentPushes.adId, input.adId));
  if (input.from) conds.push(gte(contentPushes.createdAt, dayStart(input.from)));
  if (input.to) conds.push(lt(contentPushes.createdAt, dayStart(input.to, 1)));
  if (input.keyword) {
    const pattern = `%${escapeLike(input.keyword)}%`;
    conds.push(
      inArray(
        contentPushes.adId,
        ctx.db
          .select({ id: ads.id })
          .from(ads)
          .where(
            and(
              eq(ads.entId, ctx.user.entId),
              or(ilike(ads.name, pattern), sql`lpad(${ads.number}::text, 9, '0') like ${pattern}`),
            ),
          ),
      ),
    );
  }
  const where = and(...conds) as SQL;
  const [pushes, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        push: contentPushes,
        adNumber: ads.number,
        adName: ads.name,
        accountName: sql<string | null>`coalesce(nullif(${accounts.realName}, ''), ${accounts.loginName})`,
      })
      .from(contentPushes)
      .leftJoin(ads, eq(ads.id, contentPushes.adId))
      .leftJoin(accounts, eq(accounts.id, contentPushes.accountId))
      .where(where)
      .orderBy(...newestFirst(contentPushes.createdAt, contentPushes.id))
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(contentPushes).where(where),
  ]);
  const ids = pushes.map((p) => p.push.id);
  const figures = new Map<string, { devices: number; acknowledged: number; failed: number; pending: number }>();
  if (ids.length > 0) {
    const rows = await ctx.db
      .select({
        pushId: deviceCommands.pushId,
        devices: count(),
        acknowledged: sql<number>`count(*) filter (where ${deviceCommands.state} = 'acknowledged')`.mapWith(Number),
        failed: sql<number>`count(*) filter (where ${deviceCommands.state} = 'failed' or ${expired(ctx)})`.mapWith(
          Number,
        ),
      })
      .from(deviceCommands)
      .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
      .where(and(inArray(deviceCommands.pushId, ids), visibleCommands(ctx)))
      .groupBy(deviceCommands.pushId);
    for (const r of rows) {
      figures.set(r.pushId ?? '', {
        devices: r.devices,
        acknowledged: r.acknowledged,
        failed: r.failed,
        pending: r.devices - r.acknowledged - r.failed,
      });
    }
  }
  return {
    total,
    data: pushes.map(({ push, adNumber: number, adName, accountName }) => ({
      id: push.id,
      reason: push.reason,
      adId: push.adId,
      adNumber: adNumber(number),
      adName,
      accountName: accountName ?? '',
      createdAt: push.createdAt.toISOString(),
      ...(figures.get(push.id) ?? { devices: 0, acknowledged: 0, failed: 0, pending: 0 }),
    })),
  };
}

/** push.devices: one push's devices the caller sees, with their results (NOT_FOUND when it sees none). */
export async function pushDevices(
  input: { id: string; page: number; size: number; state?: PushDeviceState; keyword?: string },
  ctx: CallContext,
): Promise<{ total: number; data: PushDevice[] }> {
  const [push] = await ctx.db
    .select({ id: contentPushes.id })
    .from(contentPushes)
    .where(and(eq(contentPushes.id, input.id), eq(contentPushes.entId, ctx.user.entId), pushVisible(ctx)));
  if (!push) throw new AppError(ErrorCode.NOT_FOUND, PushText.notFound);
  const conds: SQL[] = [eq(deviceCommands.pushId, push.id), visibleCommands(ctx)];
  if (input.state === 'expired') conds.push(expired(ctx));
  else if (input.state === 'pending' || input.state === 'sent') {
    conds.push(eq(deviceCommands.state, input.state), sql`${deviceCommands.expiresAt} > ${nowIso(ctx)}::timestamptz`);
  } else if (input.state) conds.push(eq(deviceCommands.state, input.state));
  if (input.keyword) {
    const pattern = `%${escapeLike(input.keyword)}%`;
    conds.push(or(ilike(devices.name, pattern), ilike(devices.number, pattern)) as SQL);
  }
  const where = and(...conds) as SQL;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({
        command: deviceCommands,
        number: devices.number,
        name: devices.name,
        // The first manifest the device completed after the push (device_manifest_downloads_completed_idx).
        downloadedAt: sql<string | null>`(
          select to_char(min(m.completed_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          from ${deviceManifestDownloads} m
          where m.device_id = ${deviceCommands.deviceId} and m.ent_id = ${deviceCommands.entId}
            and m.completed_at >= ${deviceCommands.createdAt})`,
      })
      .from(deviceCommands)
      .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
      .where(where)
      .orderBy(devices.name, devices.id)
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db
      .select({ total: count() })
      .from(deviceCommands)
      .innerJoin(devices, eq(devices.id, deviceCommands.deviceId))
      .where(where),
  ]);
  return {
    total,
    data: rows.map(({ command: c, number, name, downloadedAt }) => ({
      deviceId: c.deviceId,
      number,
      name,
      state: commandResult(c.state, c.expiresAt, ctx.now),
      attempts: c.attempts,
      sentAt: c.sentAt?.toISOString() ?? null,
      ackedAt: c.ackedAt?.toISOString() ?? null,
      errorCode: c.errorCode,
      errorMessage: c.errorMessage,
      downloadedAt: downloadedAt ?? null,
    })),
  };
}
