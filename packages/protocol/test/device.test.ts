import { describe, expect, it } from 'vitest';
import {
  COMMAND_KINDS,
  commandAckSchema,
  commandSchema,
  deviceMayAccess,
  deviceStateSchema,
  deviceTopic,
  fleetFilter,
  heartbeatSchema,
  pairingCodeSchema,
  parseDeviceTopic,
  sharedFilter,
} from '../src/index.js';

describe('device protocol topics and ACL', () => {
  it('names topics under mq/v1/d/<id>/ and parses them back', () => {
    expect(deviceTopic('dev1', 'state')).toBe('mq/v1/d/dev1/state');
    expect(fleetFilter('hb')).toBe('mq/v1/d/+/hb');
    expect(sharedFilter('ack')).toBe('$share/marquee/mq/v1/d/+/ack');
    expect(parseDeviceTopic('mq/v1/d/dev1/cmd')).toEqual({ deviceId: 'dev1', leaf: 'cmd' });
    for (const bad of ['mq/v1/d/dev1', 'mq/v1/d/dev1/other', 'mq/v2/d/dev1/cmd', 'mq/v1/d//cmd', 'mq/v1/d/a/b/cmd']) {
      expect(parseDeviceTopic(bad)).toBeNull();
    }
  });

  it('lets a device publish state, hb and ack and subscribe to cmd, only its own, no wildcards', () => {
    expect(['state', 'hb', 'ack'].map((l) => deviceMayAccess('a', 'publish', `mq/v1/d/a/${l}`))).toEqual([
      true,
      true,
      true,
    ]);
    expect(deviceMayAccess('a', 'publish', 'mq/v1/d/a/cmd')).toBe(false);
    expect(deviceMayAccess('a', 'subscribe', 'mq/v1/d/a/cmd')).toBe(true);
    expect(deviceMayAccess('a', 'subscribe', 'mq/v1/d/a/state')).toBe(false);
    expect(deviceMayAccess('a', 'subscribe', 'mq/v1/d/b/cmd')).toBe(false);
    expect(deviceMayAccess('a', 'publish', 'mq/v1/d/b/state')).toBe(false);
    for (const wild of ['mq/v1/d/+/cmd', 'mq/v1/d/a/#', '#', 'mq/v1/d/a/+']) {
      expect(deviceMayAccess('a', 'subscribe', wild)).toBe(false);
    }
    // A username that is itself a wildcard is not a device: wildcards never pass.
    expect(deviceMayAccess('+', 'subscribe', 'mq/v1/d/+/cmd')).toBe(false);
  });
});

describe('device protocol messages', () => {
  it('checks each command kind with its parameters', () => {
    const base = { v: 1, id: 'c1', ts: 1, expiresAt: 2 };
    expect(commandSchema.parse({ ...base, kind: 'volume', params: { level: 30 } })).toMatchObject({ kind: 'volume' });
    expect(commandSchema.parse({ ...base, kind: 'reboot' })).toMatchObject({ params: {} });
    expect(commandSchema.safeParse({ ...base, kind: 'volume', params: { level: 101 } }).success).toBe(false);
    expect(commandSchema.safeParse({ ...base, kind: 'volume', params: { level: 3, extra: 1 } }).success).toBe(false);
    expect(commandSchema.safeParse({ ...base, kind: 'dance', params: {} }).success).toBe(false);
    expect(COMMAND_KINDS).toHaveLength(10);
  });

  it('reads state, heartbeat and ack, ignoring unknown fields', () => {
    expect(deviceStateSchema.parse({ v: 1, online: false, ts: 5, reason: 'lost', later: 1 })).not.toHaveProperty(
      'later',
    );
    expect(deviceStateSchema.safeParse({ v: 2, online: true, ts: 5 }).success).toBe(false);
    const hb = {
      v: 1,
      ts: 1,
      seq: 0,
      session: 1,
      player: { version: '1' },
      storage: { usedBytes: 1, freeBytes: 2 },
      net: { ip: '10.0.0.1', mac: 'aa' },
      screen: { width: 1920, height: 1080, on: true },
      volume: 50,
      brightness: 60,
    };
    expect(heartbeatSchema.safeParse(hb).success).toBe(true);
    expect(heartbeatSchema.safeParse({ ...hb, volume: 150 }).success).toBe(false);
    expect(
      commandAckSchema.safeParse({ v: 1, id: 'c1', ts: 1, result: 'error', error: { code: 'EXPIRED' } }).success,
    ).toBe(true);
    expect(
      commandAckSchema.safeParse({ v: 1, id: 'c1', ts: 1, result: 'error', error: { code: 'OOPS' } }).success,
    ).toBe(false);
  });

  it('accepts pairing codes in any case, without look-alike characters', () => {
    expect(pairingCodeSchema.parse(' k7m2qx ')).toBe('K7M2QX');
    for (const bad of ['K7M2Q', 'K7M2QXX', 'K7M2Q0', 'K7M2QI', 'K7M2QL'])
      expect(pairingCodeSchema.safeParse(bad).success).toBe(false);
  });
});
