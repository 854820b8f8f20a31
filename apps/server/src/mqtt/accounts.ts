import { DEVICE_PUBLISHES, DEVICE_SUBSCRIBES, deviceTopic } from '@marquee/protocol';
import type { ExternalBus } from './external.js';

/**
 * The broker's side of a device's credentials. The embedded broker and EMQX (through the
 * HTTP authenticator, modules/devices/emqx.ts) ask the server at each connection, so they
 * need nothing stored: `NoBrokerAccounts`. Mosquitto's dynamic-security plugin keeps its
 * own clients and roles: `DynsecAccounts` creates, for each device, a client (username and
 * client id = the device id) with a role allowing exactly the device's topics.
 */
export interface BrokerAccounts {
  /** Creates or replaces the device's broker account with `password`. */
  provision(deviceId: string, password: string): Promise<void>;
  /** Removes the device's broker account (deleted or disabled devices). */
  revoke(deviceId: string): Promise<void>;
}

export const NoBrokerAccounts: BrokerAccounts = {
  provision: async () => {},
  revoke: async () => {},
};

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;

interface DynsecResponse {
  responses?: { command: string; error?: string }[];
}

export const dynsecRoleName = (deviceId: string) => `marquee-device-${deviceId}`;

/** Mosquitto dynamic-security: one client and one role per device, over `$CONTROL/dynamic-security/v1`. */
export class DynsecAccounts implements BrokerAccounts {
  /** The control API answers on one topic: requests go one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly bus: ExternalBus) {}

  private send(commands: Record<string, unknown>[]): Promise<DynsecResponse> {
    const run = async () => {
      const reply = await this.bus.request(CONTROL_TOPIC, JSON.stringify({ commands }), RESPONSE_TOPIC);
      return JSON.parse(reply.toString('utf8')) as DynsecResponse;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The role's ACL: publish to the device's own up-topics, subscribe to its command topic. */
  static acls(deviceId: string) {
    return [
      ...DEVICE_PUBLISHES.map((leaf) => ({
        acltype: 'publishClientSend',
        topic: deviceTopic(deviceId, leaf),
        allow: true,
      })),
      ...DEVICE_SUBSCRIBES.map((leaf) => ({
        acltype: 'subscribeLiteral',
        topic: deviceTopic(deviceId, leaf),
        allow: true,
      })),
    ];
  }

  async provision(deviceId: string, password: string): Promise<void> {
    const rolename = dynsecRoleName(deviceId);
    // Replacing: remove what a previous activation left (errors "not found" are expected).
    await this.send([
      { command: 'deleteClient', username: deviceId },
      { command: 'deleteRole', rolename },
    ]);
    const answer = await this.send([
      { command: 'createRole', rolename, acls: DynsecAccounts.acls(deviceId) },
      { command: 'createClient', username: deviceId, password, clientid: deviceId, roles: [{ rolename }] },
    ]);
    const failed = (answer.responses ?? []).filter((r) => r.error);
    if (failed.length > 0) {
      throw new Error(`dynsec: ${failed.map((r) => `${r.command}: ${r.error}`).join('; ')}`);
    }
  }

  async revoke(deviceId: string): Promise<void> {
    await this.send([
      { command: 'deleteClient', username: deviceId },
      { command: 'deleteRole', rolename: dynsecRoleName(deviceId) },
    ]);
  }
}
