import type { CommandAck, Heartbeat } from '@marquee/protocol';
import type { Executor } from '../../db/client.js';

/** The device a message came from: registered and not disabled. */
export interface ChannelDevice {
  id: string;
  entId: string;
}

/** A valid heartbeat, as the device channel announces it. */
export interface HeartbeatEvent {
  db: Executor;
  deviceId: string;
  heartbeat: Heartbeat;
  /** When it arrived: the device's last seen. */
  at: Date;
  /** The device's row, read once for all listeners; undefined when unknown or disabled. */
  device(): Promise<ChannelDevice | undefined>;
}

/**
 * What a module hears of the device channel (modules/devices/gateway.ts). The channel reaches
 * no module above devices: a module that keeps facts from device messages (gather's audience,
 * ads' download times, screenshots' uploads) hands the gateway its listener, and app.ts,
 * above both, registers it (DeviceGateway.listen).
 */
export interface DeviceChannelListener {
  /** Every valid heartbeat, before the device's own reported fields are written. */
  heartbeat?(event: HeartbeatEvent): Promise<void>;
  /**
   * An 'ok' ack before it is stored: an error (the first listener's) stores the command as
   * failed with it instead; null accepts it.
   */
  ackError?(db: Executor, deviceId: string, ack: CommandAck): Promise<NonNullable<CommandAck['error']> | null>;
  /**
   * Every valid ack, after it is stored, repeats and progress acks included (upgrades: each
   * step of an `upgrade` command, docs/device-protocol.md 2.6). Answers the ids of commands it
   * stored, which the gateway dispatches.
   */
  ack?(db: Executor, deviceId: string, ack: CommandAck): Promise<readonly string[]>;
}

/** The listeners of one gateway, heard in the order they were registered. */
export class DeviceChannelListeners {
  private readonly listeners: DeviceChannelListener[] = [];

  add(listener: DeviceChannelListener): void {
    this.listeners.push(listener);
  }

  async heartbeat(event: HeartbeatEvent): Promise<void> {
    for (const listener of this.listeners) await listener.heartbeat?.(event);
  }

  async ack(db: Executor, deviceId: string, ack: CommandAck): Promise<string[]> {
    const ids: string[] = [];
    for (const listener of this.listeners) ids.push(...((await listener.ack?.(db, deviceId, ack)) ?? []));
    return ids;
  }

  async ackError(db: Executor, deviceId: string, ack: CommandAck): Promise<NonNullable<CommandAck['error']> | null> {
    for (const listener of this.listeners) {
      const error = (await listener.ackError?.(db, deviceId, ack)) ?? null;
      if (error) return error;
    }
    return null;
  }
}
