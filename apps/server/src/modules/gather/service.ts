import { AGE_BANDS, type AudienceFigures, type GatherRow } from '@marquee/protocol';
import { and, count, desc, eq, exists, gte, ilike, or, type SQL, sql } from 'drizzle-orm';
import { scopeWhere } from '../../auth/scope.js';
import { departments, deviceAudienceHourly, devices } from '../../db/schema/index.js';
import type { CallContext } from '../../protocol/handlers.js';
import type { DeviceChannelListener } from '../devices/channel.js';
import { deviceScope, effectiveStatus } from '../devices/repository.js';
import { resolveDeviceTargets } from '../devices/targets.js';
import { hourOf, recordAudience } from './repository.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const DAY_MS = 86_400_000;

/** The devices the caller sees with what each last reported, and its audience of the last 24 hours. */
export async function gatherList(
  input: { page: number; size: number; keyword?: string; withAudience?: boolean },
  ctx: CallContext,
): Promise<{ total: number; data: GatherRow[] }> {
  const since = hourOf(new Date(ctx.now.getTime() - DAY_MS));
  const conds: SQL[] = [scopeWhere(ctx.user, deviceScope)];
  if (input.keyword) {
    const pattern = `%${escapeLike(input.keyword)}%`;
    conds.push(or(ilike(devices.name, pattern), ilike(devices.number, pattern)) as SQL);
  }
  if (input.withAudience) {
    conds.push(
      exists(
        ctx.db
          .select({ one: sql`1` })
          .from(deviceAudienceHourly)
          .where(and(eq(deviceAudienceHourly.deviceId, devices.id), gte(deviceAudienceHourly.hour, since))),
      ),
    );
  }
  const where = and(...conds);
  const audience = ctx.db
    .select({
      deviceId: deviceAudienceHourly.deviceId,
      total: sql<number>`sum(${deviceAudienceHourly.count})::int`.as('total'),
    })
    .from(deviceAudienceHourly)
    .where(and(eq(deviceAudienceHourly.entId, ctx.user.entId), gte(deviceAudienceHourly.hour, since)))
    .groupBy(deviceAudienceHourly.deviceId)
    .as('audience');
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ device: devices, deptName: departments.name, audience: audience.total })
      .from(devices)
      .leftJoin(departments, eq(departments.id, devices.deptId))
      .leftJoin(audience, eq(audience.deviceId, devices.id))
      .where(where)
      .orderBy(desc(devices.lastSeenAt), desc(devices.createdAt), devices.id)
      .limit(input.size)
      .offset((input.page - 1) * input.size),
    ctx.db.select({ total: count() }).from(devices).where(where),
  ]);
  const now = ctx.now.getTime();
  return {
    total,
    data: rows.map(({ device: d, deptName, audience: people }) => ({
      id: d.id,
      number: d.number,
      name: d.name,
      status: effectiveStatus(d, now),
      deptName: deptName ?? '',
      playerVersion: d.playerVersion,
      storageUsed: d.storageUsed,
      storageFree: d.storageFree,
      volume: d.volume,
      brightness: d.brightness,
      screenWidth: d.screenWidth,
      screenHeight: d.screenHeight,
      screenOn: d.screenOn === null ? null : d.screenOn === 1,
      uptimeSec: d.uptimeSec,
      lastSeenAt: d.lastSeenAt?.toISOString() ?? null,
      audience24h: people ?? null,
    })),
  };
}

/** Audience per age band and gender over the last `days`, of one device or of all the caller sees. */
export async function gatherAudience(
  input: { deviceId?: string; days: number },
  ctx: CallContext,
): Promise<AudienceFigures> {
  if (input.deviceId) await resolveDeviceTargets(ctx, { deviceIds: [input.deviceId] });
  const to = ctx.now;
  const from = hourOf(new Date(to.getTime() - input.days * DAY_MS));
  const conds: SQL[] = [eq(deviceAudienceHourly.entId, ctx.user.entId), gte(deviceAudienceHourly.hour, from)];
  if (input.deviceId) conds.push(eq(deviceAudienceHourly.deviceId, input.deviceId));
  else {
    conds.push(
      exists(
        ctx.db
          .select({ one: sql`1` })
          .from(devices)
          .where(and(eq(devices.id, deviceAudienceHourly.deviceId), scopeWhere(ctx.user, deviceScope))),
      ),
    );
  }
  const rows = await ctx.db
    .select({
      band: deviceAudienceHourly.band,
      gender: deviceAudienceHourly.gender,
      total: sql<number>`sum(${deviceAudienceHourly.count})::int`,
      devices: sql<number>`count(distinct ${deviceAudienceHourly.deviceId})::int`,
    })
    .from(deviceAudienceHourly)
    .where(and(...conds))
    .groupBy(deviceAudienceHourly.band, deviceAudienceHourly.gender);
  const [{ reporting }] = await ctx.db
    .select({ reporting: sql<number>`count(distinct ${deviceAudienceHourly.deviceId})::int` })
    .from(deviceAudienceHourly)
    .where(and(...conds));
  const bands = AGE_BANDS.map((band) => {
    const of = (gender: string) => rows.find((r) => r.band === band && r.gender === gender)?.total ?? 0;
    return { band, male: of('male'), female: of('female'), unknown: of('unknown') };
  });
  return {
    bands,
    total: bands.reduce((sum, b) => sum + b.male + b.female + b.unknown, 0),
    devices: reporting,
    from: from.toISOString(),
    to: to.toISOString(),
  };
}

/**
 * The device channel's listener (registered by app.ts): a heartbeat's audience counts (only
 * from devices that measure them) go to the device's hour.
 */
export const audienceListener: DeviceChannelListener = {
  async heartbeat({ db, heartbeat, at, device }) {
    if (!heartbeat.audience?.length) return;
    const known = await device();
    if (known) await recordAudience(db, known, at, heartbeat.audience);
  },
};
