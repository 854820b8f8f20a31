/**
 * The device protocol's MQTT topics, version 1 (docs/device-protocol.md). Every topic of a
 * device sits under `mq/v1/d/<deviceId>/`; a device may publish and subscribe only there
 * (the broker's ACL, whichever broker runs).
 *
 * | topic                   | direction       | QoS | retain | payload            |
 * |-------------------------|-----------------|-----|--------|--------------------|
 * | mq/v1/d/<id>/state      | device -> server| 1   | yes    | DeviceState (also the last will, online false) |
 * | mq/v1/d/<id>/hb         | device -> server| 0   | no     | Heartbeat          |
 * | mq/v1/d/<id>/cmd        | server -> device| 1   | no     | Command            |
 * | mq/v1/d/<id>/ack        | device -> server| 1   | no     | CommandAck         |
 */

export const DEVICE_PROTOCOL_VERSION = 1;
export const TOPIC_ROOT = 'mq/v1/d';

/** The leaf names of a device's topics. */
export const DeviceTopic = {
  state: 'state',
  heartbeat: 'hb',
  command: 'cmd',
  ack: 'ack',
} as const;
export type DeviceTopicLeaf = (typeof DeviceTopic)[keyof typeof DeviceTopic];

/** QoS and retain of each topic. */
export const TOPIC_QOS: Record<DeviceTopicLeaf, { qos: 0 | 1; retain: boolean }> = {
  state: { qos: 1, retain: true },
  hb: { qos: 0, retain: false },
  cmd: { qos: 1, retain: false },
  ack: { qos: 1, retain: false },
};

/** What a device publishes (its own topics only). */
export const DEVICE_PUBLISHES: readonly DeviceTopicLeaf[] = ['state', 'hb', 'ack'];
/** What a device subscribes to (its own topic only). */
export const DEVICE_SUBSCRIBES: readonly DeviceTopicLeaf[] = ['cmd'];

/** `mq/v1/d/<deviceId>/<leaf>`. */
export function deviceTopic(deviceId: string, leaf: DeviceTopicLeaf): string {
  return `${TOPIC_ROOT}/${deviceId}/${leaf}`;
}

/** The filter of one leaf over every device: `mq/v1/d/+/<leaf>`. */
export function fleetFilter(leaf: DeviceTopicLeaf): string {
  return `${TOPIC_ROOT}/+/${leaf}`;
}

/** The share group of the server processes: `$share/marquee/<filter>` splits the fleet between them. */
export const SHARE_GROUP = 'marquee';
export function sharedFilter(leaf: DeviceTopicLeaf, group = SHARE_GROUP): string {
  return `$share/${group}/${fleetFilter(leaf)}`;
}

/** The device id and leaf of a device topic, or null for any other topic. */
export function parseDeviceTopic(topic: string): { deviceId: string; leaf: DeviceTopicLeaf } | null {
  const parts = topic.split('/');
  if (parts.length !== 5 || `${parts[0]}/${parts[1]}/${parts[2]}` !== TOPIC_ROOT) return null;
  const [, , , deviceId, leaf] = parts;
  if (!deviceId || !(Object.values(DeviceTopic) as string[]).includes(leaf)) return null;
  return { deviceId, leaf: leaf as DeviceTopicLeaf };
}

/**
 * The ACL of the device protocol, for every broker: may `username` (a device id) publish
 * to (`publish`) or subscribe to (`subscribe`) `topic`? Only its own topics, exactly, no
 * wildcard. The server's internal client is not judged by this rule.
 */
export function deviceMayAccess(username: string, action: 'publish' | 'subscribe', topic: string): boolean {
  if (/[+#]/.test(topic)) return false;
  const parsed = parseDeviceTopic(topic);
  if (!parsed || parsed.deviceId !== username) return false;
  return (action === 'publish' ? DEVICE_PUBLISHES : DEVICE_SUBSCRIBES).includes(parsed.leaf);
}
