import { Writable } from 'node:stream';
import {
  DEVICE_API_PREFIX,
  DEVICE_TRIAL_DAYS,
  deviceHttpCalls,
  deviceTopic,
  ErrorCode,
  endpoints,
  MAX_PLAYS_BODY_BYTES,
  PLAYS_PATH,
} from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { devices } from '../../src/db/schema/index.js';
import { createLogger } from '../../src/logger.js';
import { pairingWaits } from '../../src/modules/devices/pairing.js';
import { HeadlessPlayer } from '../../src/player/player.js';
import { type ApiClient, BACKENDS, createTestApp, type TestApp, type TestDatabase } from '../helpers/index.js';
import { activatePlayer, EMBEDDED_WS_MQTT, waitFor } from './helpers.js';

// The player's pairing calls (docs/device-protocol.md 2.1-2.3): the long poll, adding by a
// number several pairings report, what the pairing tells the console (number, address), the
// device API's refusals, and device messages holding text PostgreSQL cannot store.

class Capture extends Writable {
  readonly chunks: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.chunks.push(chunk.toString());
    done();
  }
  get lines(): Record<string, unknown>[] {
    return this.chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  }
}

async function listening(
  backend: (typeof BACKENDS)[number],
  options: { database?: TestDatabase; capture?: Capture } = {},
): Promise<{ t: TestApp; server: string }> {
  const t = await createTestApp(backend, {
    database: options.database,
    ...(options.capture ? { logger: createLogger('warn', options.capture) } : {}),
    config: {
      host: '127.0.0.1',
      mqtt: { ...loadConfig({ LOG_LEVEL: 'silent' }, process.cwd()).mqtt, ...EMBEDDED_WS_MQTT },
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  return { t, server: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** The fields of the pairing answers the tests read. */
type Payload = { pairingId: string; pollToken: string; code: string; status: string };

const post = (server: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en-US', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { code: number; message: string; payload: Payload },
  }));

describe.each(BACKENDS)('device pairing on %s', (backend) => {
  let t: TestApp;
  let server: string;
  let client: ApiClient;
  const capture = new Capture();
  beforeAll(async () => {
    ({ t, server } = await listening(backend, { capture }));
    ({ client } = await t.tenant());
  });
  afterAll(() => t?.close());

  const pair = (body: unknown = {}) => post(server, deviceHttpCalls.pair.path, body);
  const poll = (p: { pairingId: string; pollToken: string }, waitMs: number) =>
    post(server, deviceHttpCalls.poll.path, { pairingId: p.pairingId, pollToken: p.pollToken, waitMs });

  it('holds a poll until the device is added, then answers bound', async () => {
    const pairing = (await pair()).body.payload;
    const answer = poll(pairing, 25_000);
    // The poll is held (not answered pending at once).
    await waitFor('poll held', () => (pairingWaits(t.services).size === 1 ? true : undefined));
    const added = await client.call(endpoints.deviceAdd, { code: pairing.code, name: 'Held poll' });
    expect(added.envelope.code).toBe(0);
    expect((await answer).body).toMatchObject({ code: 0, payload: { status: 'bound' } });
    expect(pairingWaits(t.services).size).toBe(0);
    // A poll of a bound pairing answers at once.
    expect((await poll(pairing, 25_000)).body.payload.status).toBe('bound');
  });

  it('answers a held poll pending when the wait ends; waitMs over the documented maximum is refused', async () => {
    const pairing = (await pair()).body.payload;
    expect((await poll(pairing, 50)).body).toMatchObject({ code: 0, payload: { status: 'pending' } });
    const tooLong = await poll(pairing, 25_001);
    expect(tooLong.body.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(tooLong.body.message).toContain('waitMs');
  });

  it('refuses to add by a number that several live pairings report, and lists them for the operator', async () => {
    const number = `SN-${Math.random().toString(36).slice(2, 10)}`;
    const screen = (await pair({ number, player: { version: '3.2.1', model: 'RK3568' } })).body.payload;
    const impostor = (await pair({ number })).body.payload;
    const byNumber = await client.call(endpoints.deviceAdd, { number, name: 'Ambiguous' });
    expect(byNumber.envelope.code).toBe(ErrorCode.PAIRING_NUMBER_AMBIGUOUS);
    // Nothing was bound: the impostor's poll still answers pending.
    expect((await poll(impostor, 0)).body.payload.status).toBe('pending');

    const candidates = await client.call(endpoints.devicePairingCandidates, { number });
    expect(candidates.envelope.code).toBe(0);
    const listed = candidates.envelope.payload.data;
    expect(listed.map((c) => c.code).sort()).toEqual([impostor.code, screen.code].sort());
    expect(listed.find((c) => c.code === screen.code)).toMatchObject({
      ip: '127.0.0.1',
      playerVersion: '3.2.1',
      model: 'RK3568',
    });

    // The operator adds the screen by the code it shows.
    const byCode = await client.call(endpoints.deviceAdd, { code: screen.code, name: 'The real screen' });
    expect(byCode.envelope.code).toBe(0);
    expect((await poll(screen, 0)).body.payload.status).toBe('bound');
    expect((await poll(impostor, 0)).body.payload.status).toBe('pending');
  });

  it('gives the device the number and the address of its pairing; an empty heartbeat address keeps it', async () => {
    const player = await activatePlayer(server, client, { by: 'number', connect: false, name: 'Numbered' });
    const id = player.credentials?.deviceId as string;
    const [row] = await t.db.select().from(devices).where(eq(devices.id, id));
    expect(row.number).toBe(player.options.number);
    expect(row.ip).toBe('127.0.0.1');
    // A newly paired device serves a trial of DEVICE_TRIAL_DAYS (issue 27), shown as such.
    expect(row.expireAt?.getTime()).toBe(row.createdAt.getTime() + DEVICE_TRIAL_DAYS * 86_400_000);
    const detail = (await client.call(endpoints.deviceDetail, { id })).envelope.payload;
    expect(detail).toMatchObject({ licence: 'trial', expireAt: row.expireAt?.toISOString() });
    const gateway = t.services.devices;
    const ts = Date.now();
    await gateway.onMessage(deviceTopic(id, 'state'), Buffer.from(JSON.stringify({ v: 1, online: true, ts })));
    const hb = {
      v: 1,
      ts,
      seq: 0,
      session: ts,
      player: { version: 'web-0.1.0' },
      storage: { usedBytes: 0, freeBytes: 0 },
      net: { ip: '', mac: '02:00:5e:10:00:99' },
      screen: { width: 1920, height: 1080, on: true },
      volume: 50,
      brightness: 80,
    };
    await gateway.onMessage(deviceTopic(id, 'hb'), Buffer.from(JSON.stringify(hb)));
    await gateway.onMessage(deviceTopic(id, 'hb'), Buffer.from(JSON.stringify({ ...hb, seq: 1, ts: ts + 1 })));
    const [after] = await t.db.select().from(devices).where(eq(devices.id, id));
    expect(after).toMatchObject({ ip: '127.0.0.1', mac: '02:00:5e:10:00:99', playerVersion: 'web-0.1.0' });
  });

  it('drops device messages holding a NUL or a lone surrogate in any field, naming it', async () => {
    const player = await activatePlayer(server, client, { connect: false, name: 'NUL' });
    const id = player.credentials?.deviceId as string;
    const gateway = t.services.devices;
    const before = capture.chunks.length;
    const ts = Date.now();
    const send = (leaf: 'state' | 'hb' | 'ack', message: unknown) =>
      gateway.onMessage(deviceTopic(id, leaf), Buffer.from(JSON.stringify(message)));
    await send('state', { v: 1, online: true, ts, player: { version: '1.0\u0000' } });
    await send('ack', { v: 1, id: 'cmd\u0000x', ts, result: 'ok' });
    await send('ack', { v: 1, id: 'cmd', ts, result: 'ok', data: { note: 'a\uD800' } });
    const lines = capture.lines.slice(0).filter((l) => l.msg === 'bad device message');
    expect(lines.map((l) => l.field)).toEqual(['player.version', 'id', 'data.note']);
    // A message failing its schema is dropped naming the field too.
    await send('hb', { v: 1, ts, seq: 0, session: ts, volume: 'loud' });
    await send('ack', { v: 1, id: 'cmd', ts, result: 'maybe' });
    const schema = capture.lines.filter((l) => l.msg === 'bad heartbeat' || l.msg === 'bad ack');
    expect(schema.map((l) => [l.msg, l.field])).toEqual([
      ['bad heartbeat', 'player'],
      ['bad ack', 'result'],
    ]);
    // Dropped before the database: no failure logged, the device untouched.
    const failed = capture.chunks.slice(before).join('');
    expect(failed).not.toContain('device message failed');
    const [row] = await t.db.select().from(devices).where(eq(devices.id, id));
    expect(row.status).toBe('activating');
  });

  it('names the field of a refused player call and answers an oversized body with the envelope', async () => {
    const bad = await pair({ number: 12 });
    expect(bad.body.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(bad.body.message).toContain('number');
    const extra = await pair({ player: { version: '1', colour: 'red' } });
    expect(extra.body.message).toContain('player.colour');
    const notJson = await pair('{not json');
    expect(notJson.body).toMatchObject({ code: ErrorCode.INVALID_PARAMS, payload: null });
    expect(notJson.body.message).toContain('body');
    const nul = await pair({ number: 'SN\u0000' });
    expect(nul.body.message).toContain('number');

    const huge = await pair({ number: 'x'.repeat(17 * 1024) });
    expect(huge.status).toBe(200);
    expect(huge.body).toMatchObject({ code: ErrorCode.INVALID_PARAMS, payload: null });
    expect(huge.body.message).toContain('body');

    const player = await activatePlayer(server, client, { connect: false, name: 'Plays' });
    const c = player.credentials!;
    const auth = { authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}` };
    const event = { id: 'not-a-uuid', start: Date.now(), durationMs: 1000, outcome: 'completed' };
    const plays = await post(server, PLAYS_PATH, { events: [event] }, auth);
    expect(plays.body.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(plays.body.message).toContain('events.0.id');
    const hugePlays = await post(server, PLAYS_PATH, { events: [], pad: 'x'.repeat(MAX_PLAYS_BODY_BYTES) }, auth);
    expect(hugePlays.status).toBe(200);
    expect(hugePlays.body.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(DEVICE_API_PREFIX).toBe('/dapi/v1');
  });
});

describe.each(BACKENDS)('long poll across instances on one %s database', (backend) => {
  let a: { t: TestApp; server: string };
  let b: { t: TestApp; server: string };
  beforeAll(async () => {
    a = await listening(backend);
    b = await listening(backend, { database: a.t.database });
  });
  afterAll(async () => {
    await b?.t.close();
    await a?.t.close();
  });

  it('answers a poll held on one instance when the device is added through another', async () => {
    const { client } = await a.t.tenant();
    const player = new HeadlessPlayer({ server: b.server });
    const pairing = await player.pair();
    const answer = post(b.server, deviceHttpCalls.poll.path, {
      pairingId: pairing.pairingId,
      pollToken: pairing.pollToken,
      waitMs: 25_000,
    });
    await waitFor('poll held on b', () => (pairingWaits(b.t.services).size === 1 ? true : undefined));
    const added = await client.call(endpoints.deviceAdd, { code: pairing.code, name: 'Across' });
    expect(added.envelope.code).toBe(0);
    expect((await answer).body.payload.status).toBe('bound');
  });

  it('releases held polls when the server stops: they answer pending', async () => {
    const c = await listening(backend, { database: a.t.database });
    const pairing = (await post(c.server, deviceHttpCalls.pair.path, {})).body.payload;
    const answer = post(c.server, deviceHttpCalls.poll.path, {
      pairingId: pairing.pairingId,
      pollToken: pairing.pollToken,
      waitMs: 25_000,
    });
    await waitFor('poll held on c', () => (pairingWaits(c.t.services).size === 1 ? true : undefined));
    const closing = c.t.close();
    expect((await answer).body).toMatchObject({ code: 0, payload: { status: 'pending' } });
    await closing;
  });
});
