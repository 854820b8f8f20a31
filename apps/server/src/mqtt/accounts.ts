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
  /** Removes the device's broker account (deleted devices); the broker closes its connection. */
  revoke(deviceId: string): Promise<void>;
  /** Disables the account (a device disabled in the console); the broker closes its connection. */
  disable(deviceId: string): Promise<void>;
  /** Enables a disabled account again. */
  enable(deviceId: string): Promise<void>;
}

export const NoBrokerAccounts: BrokerAccounts = {
  provision: async () => {},
  revoke: async () => {},
  disable: async () => {},
  enable: async () => {},
};

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;

interface DynsecResponse {
  responses?: { command: string; error?: string }[];
}

/** The role of the server's own client. */
export const SERVER_ROLE = 'marquee-server';

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

  /**
   * Gives the server's own client (e.g. the admin made by `mosquitto_ctrl dynsec init`, which
   * may administer and read but not publish) the role `marquee-server`: publish commands,
   * read the fleet. Mosquitto disconnects a client whose roles change, so when the role is
   * added the connection drops once and the bus reconnects with the new rights; a client
   * that already has the role is left alone.
   */
  async ensureServerRole(username: string): Promise<void> {
    const rolename = SERVER_ROLE;
    const current = await this.send([{ command: 'getClient', username }]);
    const client = current.responses?.[0] as { data?: { client?: { roles?: { rolename: string }[] } } } | undefined;
    if (client?.data?.client?.roles?.some((r) => r.rolename === rolename)) return;
    await this.send([
      { command: 'createRole', rolename },
      { command: 'addRoleACL', rolename, acltype: 'publishClientSend', topic: deviceTopic('+', 'cmd'), allow: true },
      { command: 'addRoleACL', rolename, acltype: 'subscribePattern', topic: 'mq/v1/d/#', allow: true },
      { command: 'addRoleACL', rolename, acltype: 'publishClientReceive', topic: 'mq/v1/d/#', allow: true },
    ]);
    const reconnected = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('dynsec: no reconnection after the role change')), 15_000);
      this.bus.client.once('close', () =>
        this.bus.client.once('connect', () => {
          clearTimeout(timer);
          resolve();
        }),
      );
    });
    this.bus.client.publish(
      CONTROL_TOPIC,
      JSON.stringify({ commands: [{ command: 'addClientRole', username, rolename }] }),
      { qos: 1 },
    );
    await reconnected;
  }

  /**
   * One control message (one round trip): removes what a previous activation left (its
   * "not found" errors are expected), then creates the role and the client. Mosquitto 2.0
   * rewrites its whole dynsec file after each change, so each create costs in proportion to
   * the clients it already has (docs/operations.md).
   */
  async provision(deviceId: string, password: string): Promise<void> {
    const rolename = dynsecRoleName(deviceId);
    const answer = await this.send([
      { command: 'deleteClient', username: deviceId },
      { command: 'deleteRole', rolename },
      { command: 'createRole', rolename, acls: DynsecAccounts.acls(deviceId) },
      { command: 'createClient', username: deviceId, password, clientid: deviceId, roles: [{ rolename }] },
    ]);
    const failed = (answer.responses ?? []).filter((r) => r.error && r.command.startsWith('create'));
    if (failed.length > 0) {
      throw new Error(`dynsec: ${failed.map((r) => `${r.command}: ${r.error}`).join('; ')}`);
    }
  }

  /** Mosquitto kicks a deleted client's connection itself. */
  async revoke(deviceId: string): Promise<void> {
    await this.send([
      { command: 'deleteClient', username: deviceId },
      { command: 'deleteRole', rolename: dynsecRoleName(deviceId) },
    ]);
  }

  /**
   * A disabled client cannot connect and Mosquitto kicks its connection. "Client not found"
   * (a device that never collected its credentials) is no failure.
   */
  async disable(deviceId: string): Promise<void> {
    await this.toggle('disableClient', deviceId);
  }

  async enable(deviceId: string): Promise<void> {
    await this.toggle('enableClient', deviceId);
  }

  private async toggle(command: 'disableClient' | 'enableClient', deviceId: string): Promise<void> {
    const answer = await this.send([{ command, username: deviceId }]);
    const failed = (answer.responses ?? []).filter((r) => r.error && !/not found/i.test(r.error));
    if (failed.length > 0) throw new Error(`dynsec: ${failed.map((r) => `${r.command}: ${r.error}`).join('; ')}`);
  }
}
