import { deviceTopic, endpoints } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMQX_AUTHN_PATH, EMQX_AUTHZ_PATH, PairingLimiter } from '../../src/modules/devices/http.js';
import { BACKENDS, type TestApp } from '../helpers/index.js';
import { activatePlayer, freePort } from './helpers.js';
import { channelSuite, listeningApp } from './suite.js';

/** The protocol tests against the embedded broker: WebSocket at /mqtt on the server's port, TCP on MQTT_TCP_PORT. */
channelSuite('embedded broker', BACKENDS, async (backend) => {
  const tcpPort = await freePort();
  const { t, server } = await listeningApp(backend, { tcpPort });
  return {
    t,
    server,
    tcpUrl: `mqtt://127.0.0.1:${tcpPort}`,
    brokerUrls: [`${server.replace('http://', 'ws://')}/mqtt`, `mqtt://127.0.0.1:${tcpPort}`],
    cutOffWill: true,
    close: () => t.close(),
  };
});

describe.each(BACKENDS)('EMQX HTTP authenticator and authorizer on %s', (backend) => {
  let t: TestApp;
  let server: string;
  beforeAll(async () => {
    ({ t, server } = await listeningApp(backend, { httpAuthSecret: 'broker-secret' }));
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, secret = 'broker-secret') =>
    fetch(`${server}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-marquee-broker': secret },
      body: JSON.stringify(body),
    }).then((r) => r.json());

  it('answers as EMQX calls them: allow a device its own credentials and topics, deny the rest', async () => {
    const { client } = await t.tenant();
    const player = await activatePlayer(server, client, { name: 'EMQX', connect: false });
    const c = player.credentials!;
    const authn = { username: c.username, password: c.password, clientid: c.clientId };
    expect(await post(EMQX_AUTHN_PATH, authn)).toEqual({ result: 'allow', is_superuser: false });
    // Without the broker's shared secret nobody is let in.
    expect(await post(EMQX_AUTHN_PATH, authn, 'wrong')).toEqual({ result: 'deny' });
    expect(await post(EMQX_AUTHN_PATH, { ...authn, password: 'guess' })).toEqual({ result: 'deny' });
    expect(await post(EMQX_AUTHN_PATH, { ...authn, clientid: 'other' })).toEqual({ result: 'deny' });
    const internal = t.services.devices.access.internal;
    expect(await post(EMQX_AUTHN_PATH, { ...internal, clientid: 'marquee-server-1' })).toEqual({
      result: 'allow',
      is_superuser: true,
    });
    const authz = (topic: string, action: string) =>
      post(EMQX_AUTHZ_PATH, { username: c.username, clientid: c.clientId, topic, action });
    expect(await authz(deviceTopic(c.deviceId, 'cmd'), 'subscribe')).toEqual({ result: 'allow' });
    expect(await authz(deviceTopic(c.deviceId, 'hb'), 'publish')).toEqual({ result: 'allow' });
    expect(await authz(deviceTopic(c.deviceId, 'state'), 'publish')).toEqual({ result: 'allow' });
    expect(await authz(deviceTopic(c.deviceId, 'cmd'), 'publish')).toEqual({ result: 'deny' });
    expect(await authz(deviceTopic('someone-else', 'cmd'), 'subscribe')).toEqual({ result: 'deny' });
    expect(await authz('mq/v1/d/+/cmd', 'subscribe')).toEqual({ result: 'deny' });
    expect(await authz('#', 'subscribe')).toEqual({ result: 'deny' });
    expect(await post(EMQX_AUTHZ_PATH, { nonsense: true })).toEqual({ result: 'deny' });
  });

  it('denies a disabled device and a deleted one, at connection and at each publish or subscribe', async () => {
    const { client } = await t.tenant();
    const player = await activatePlayer(server, client, { name: 'EMQX revoked', connect: false });
    const c = player.credentials!;
    const authn = () => post(EMQX_AUTHN_PATH, { username: c.username, password: c.password, clientid: c.clientId });
    const authz = () =>
      post(EMQX_AUTHZ_PATH, {
        username: c.username,
        clientid: c.clientId,
        topic: deviceTopic(c.deviceId, 'hb'),
        action: 'publish',
      });
    expect(await authz()).toEqual({ result: 'allow' });
    await client.call(endpoints.deviceDisable, { ids: [c.deviceId] });
    expect(await authn()).toEqual({ result: 'deny' });
    expect(await authz()).toEqual({ result: 'deny' });
    await client.call(endpoints.deviceEnable, { ids: [c.deviceId] });
    expect(await authn()).toEqual({ result: 'allow', is_superuser: false });
    expect(await authz()).toEqual({ result: 'allow' });
    await client.call(endpoints.deviceDelete, { ids: [c.deviceId] });
    expect(await authn()).toEqual({ result: 'deny' });
    expect(await authz()).toEqual({ result: 'deny' });
  });
});

describe('pairing limiter', () => {
  it('allows so many pairing requests per address and window', () => {
    const limiter = new PairingLimiter(2, 1000);
    expect([limiter.take('a', 0), limiter.take('a', 10), limiter.take('a', 20)]).toEqual([true, true, false]);
    expect(limiter.take('b', 20)).toBe(true);
    expect(limiter.take('a', 1000)).toBe(true);
  });
});
