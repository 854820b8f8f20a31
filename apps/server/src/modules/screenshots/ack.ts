import type { CommandAck } from '@marquee/protocol';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { deviceCommands, deviceScreenshots } from '../../db/schema/index.js';
import type { DeviceChannelListener } from '../devices/channel.js';

/**
 * Whether an 'ok' ack is acceptable as far as screenshots go: for a `screenshot` command it
 * must name (`data.screenshotId`) the screenshot the device uploaded for that command; any
 * other command passes.
 */
export async function screenshotAckValid(db: Executor, deviceId: string, ack: CommandAck): Promise<boolean> {
  const [command] = await db
    .select({ kind: deviceCommands.kind })
    .from(deviceCommands)
    .where(and(eq(deviceCommands.id, ack.id), eq(deviceCommands.deviceId, deviceId)));
  if (command?.kind !== 'screenshot') return true;
  const screenshotId = ack.data?.screenshotId;
  if (typeof screenshotId !== 'string') return false;
  const [shot] = await db
    .select({ id: deviceScreenshots.id })
    .from(deviceScreenshots)
    .where(and(eq(deviceScreenshots.id, screenshotId), eq(deviceScreenshots.commandId, ack.id)));
  return Boolean(shot);
}

/**
 * The device channel's listener (registered by app.ts): an 'ok' ack of a screenshot command
 * naming no upload of that command fails it (docs/device-protocol.md 2.5).
 */
export const screenshotAckListener: DeviceChannelListener = {
  async ackError(db, deviceId, ack) {
    if (await screenshotAckValid(db, deviceId, ack)) return null;
    return { code: 'FAILED', message: 'no screenshot uploaded for this command' };
  },
};
