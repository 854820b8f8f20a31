import type { Heartbeat } from '@marquee/protocol';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { deviceAudienceHourly } from '../../db/schema/index.js';

/** The UTC hour `at` falls in. */
export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
}

/**
 * Adds a heartbeat's audience counts to the device's hour (device protocol `audience`):
 * one row per hour, age band and gender, counts summed. Zero counts write nothing.
 */
export async function recordAudience(
  db: Executor,
  device: { id: string; entId: string },
  at: Date,
  audience: NonNullable<Heartbeat['audience']>,
): Promise<void> {
  const sums = new Map<string, { band: string; gender: string; count: number }>();
  for (const a of audience) {
    if (a.count <= 0) continue;
    const key = `${a.band}|${a.gender}`;
    const entry = sums.get(key) ?? { band: a.band, gender: a.gender, count: 0 };
    entry.count += a.count;
    sums.set(key, entry);
  }
  if (sums.size === 0) return;
  const hour = hourOf(at);
  await db
    .insert(deviceAudienceHourly)
    .values([...sums.values()].map((s) => ({ deviceId: device.id, entId: device.entId, hour, ...s })))
    .onConflictDoUpdate({
      target: [
        deviceAudienceHourly.deviceId,
        deviceAudienceHourly.hour,
        deviceAudienceHourly.band,
        deviceAudienceHourly.gender,
      ],
      set: { count: sql`${deviceAudienceHourly.count} + excluded.count` },
    });
}
