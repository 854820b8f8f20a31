import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { CONSOLE_APP, type EndpointDef, ErrorCode, endpoints, TIMESTAMP_WINDOW_MS } from '@marquee/protocol';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deviceGroups, notices, sessions } from '../src/db/schema/index.js';
import { createLogger } from '../src/logger.js';
import { AppError } from '../src/protocol/appError.js';
import { defineHandler, type Handler } from '../src/protocol/handlers.js';
import { pruneIdempotentCalls } from '../src/protocol/idempotency.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, MINUTE, type TestApp } from './helpers/index.js';

// Issue 25: a mutation retried with the same sequence answers the first call's envelope.

/** A mutation that writes a notice titled as asked; `fail` rolls it back after the write. */
const write = {
  name: 'test.write',
  path: '/api/test/idempotent/write.shtm',
  auth: 'session',
  mutation: true,
  request: z.object({ title: z.string().min(1), fail: z.boolean().optional() }).strict(),
  response: z.object({ id: z.string(), title: z.string() }),
} satisfies EndpointDef;
/** The same with a `prepare` step that can hold the call, to line two calls up. */
const held = { ...write, name: 'test.held', path: '/api/test/idempotent/held.shtm' } satisfies EndpointDef;

/** The key of a call's stored answer, as the server derives it (and the replay guard's). */
function keyOf(uuid: string, sequence: string): string {
  return createHash('sha256').update(`${CONSOLE_APP.appid}\n${uuid}\n${sequence}`).digest('hex');
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

let runs = 0;
let hold: { prepared: (() => void)[]; gate: Promise<void> } | null = null;

async function writeNotice(input: { title: string; fail?: boolean }, ctx: Parameters<Handler['handle']>[1]) {
  runs += 1;
  const [row] = await ctx.db
    .insert(notices)
    .values({ entId: ctx.user.entId, title: input.title })
    .returning({ id: notices.id });
  await ctx.audit({ module: 'test', action: 'write', targetType: 'notice', targetId: row.id, targetName: input.title });
  if (input.fail) throw new AppError(ErrorCode.CONFLICT);
  return { id: row.id, title: input.title };
}

const extraEndpoints: Handler[] = [
  defineHandler(write, { handle: writeNotice }),
  defineHandler(held, {
    prepare: async () => {
      const h = hold;
      if (!h) return;
      h.prepared.shift()?.();
      await h.gate;
    },
    handle: writeNotice,
  }),
];

/** The request log lines the app writes. */
class RequestLines extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry.msg === 'request') this.lines.push(entry);
    }
    done();
  }
}

describe.each(BACKENDS)('idempotent retries of mutations on %s', (backend) => {
  let t: TestApp;
  const log = new RequestLines();
  beforeAll(async () => {
    t = await createTestApp(backend, { extraEndpoints, logger: createLogger('info', log) });
  });
  afterAll(() => t.close());

  async function noticesTitled(title: string) {
    return t.db.select().from(notices).where(eq(notices.title, title));
  }

  it('answers a retried creation with the first answer and creates one row (deviceGroup.create)', async () => {
    const { ent, client } = await t.tenant();
    const sequence = `group-create-${backend}`;
    const first = await client.call(endpoints.deviceGroupCreate, { name: 'Lobby' }, { sequence });
    expect(first.envelope.code).toBe(0);
    const retry = await client.call(endpoints.deviceGroupCreate, { name: 'Lobby' }, { sequence });
    // Before issue 25 the retry answered REPLAYED_SEQUENCE: the client could not learn the outcome.
    expect(retry.envelope).toEqual(first.envelope);
    expect(retry.body).toBe(first.body);
    // The log line says which answer was a stored one.
    const lines = log.lines.filter((l) => l.endpoint === 'deviceGroup.create').slice(-2);
    expect(lines.map((l) => l.retried)).toEqual([undefined, true]);
    const groups = await t.db.select().from(deviceGroups).where(eq(deviceGroups.entId, ent.id));
    expect(groups.map((g) => g.id)).toEqual([first.envelope.payload.id]);
    // A new sequence is a new call: the name is taken now.
    const again = await client.call(endpoints.deviceGroupCreate, { name: 'Lobby' });
    expect(again.envelope.code).toBe(ErrorCode.CONFLICT);
  });

  it('answers a retry re-signed later (new timestamp and trace key) the same', async () => {
    const { client } = await t.tenant();
    const sequence = `re-signed-${backend}`;
    const first = await client.call(write, { title: `re-signed ${backend}` }, { sequence });
    t.clock.advance(30_000);
    const retry = await client.call(write, { title: `re-signed ${backend}` }, { sequence });
    expect(retry.body).toBe(first.body);
    expect(await noticesTitled(`re-signed ${backend}`)).toHaveLength(1);
  });

  it('refuses the same sequence with another payload, endpoint or token as SEQUENCE_REUSED', async () => {
    const { ent, client } = await t.tenant();
    const sequence = `reused-${backend}`;
    const first = await client.call(write, { title: `reused ${backend}` }, { sequence });
    expect(first.envelope.code).toBe(0);
    const otherPayload = await client.call(write, { title: `other ${backend}` }, { sequence });
    expect(otherPayload.envelope.code).toBe(ErrorCode.SEQUENCE_REUSED);
    expect(otherPayload.envelope.message).toBe('This sequence was already used for a different request');
    const otherEndpoint = await client.call(held, { title: `reused ${backend}` }, { sequence });
    expect(otherEndpoint.envelope.code).toBe(ErrorCode.SEQUENCE_REUSED);
    // Another session on the same browser (uuid) cannot read the first answer.
    const other = await createUser(t.db, ent, { isEntAdmin: true });
    const otherClient = await t.loginAs(other, { uuid: client.uuid });
    const otherToken = await otherClient.call(write, { title: `reused ${backend}` }, { sequence });
    expect(otherToken.envelope.code).toBe(ErrorCode.SEQUENCE_REUSED);
    expect(await noticesTitled(`other ${backend}`)).toHaveLength(0);
    expect(await noticesTitled(`reused ${backend}`)).toHaveLength(1);
    // The first request still gets its answer.
    expect((await client.call(write, { title: `reused ${backend}` }, { sequence })).body).toBe(first.body);
  });

  it('stores nothing for a rolled-back mutation: its retry runs again', async () => {
    const { client } = await t.tenant();
    const sequence = `rolled-back-${backend}`;
    const title = `rolled back ${backend}`;
    const before = runs;
    const failed = await client.call(write, { title, fail: true }, { sequence });
    expect(failed.envelope.code).toBe(ErrorCode.CONFLICT);
    expect(await noticesTitled(title)).toHaveLength(0);
    expect(await storedRows(client.uuid, sequence)).toBe(0);
    // The retry runs the handler again (and fails again: nothing was committed either time).
    const again = await client.call(write, { title, fail: true }, { sequence });
    expect(again.envelope.code).toBe(ErrorCode.CONFLICT);
    expect(runs - before).toBe(2);
    expect(await storedRows(client.uuid, sequence)).toBe(0);
    // Nothing holds the sequence: a call under it commits and is stored.
    const fixed = await client.call(write, { title }, { sequence });
    expect(fixed.envelope.code).toBe(0);
    expect(await noticesTitled(title)).toHaveLength(1);
    expect(await storedRows(client.uuid, sequence)).toBe(1);
  });

  it('stores nothing for a refused payload (a client mistake): its retry is checked again', async () => {
    const { client } = await t.tenant();
    const sequence = `refused-payload-${backend}`;
    const title = `refused payload ${backend}`;
    const before = runs;
    expect((await client.call(write, { title: '' }, { sequence })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect((await client.call(write, { title: '' }, { sequence })).envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(runs).toBe(before);
    const first = await client.call(write, { title }, { sequence });
    expect(first.envelope.code).toBe(0);
    expect(runs - before).toBe(1);
  });

  it('runs two identical calls at once exactly once, the second answered with the first answer', async () => {
    const { client } = await t.tenant();
    const sequence = `concurrent-${backend}`;
    const title = `concurrent ${backend}`;
    const gate = deferred();
    const firstPrepared = deferred();
    const secondPrepared = deferred();
    hold = { prepared: [firstPrepared.resolve, secondPrepared.resolve], gate: gate.promise };
    const before = runs;
    try {
      const first = client.call(held, { title }, { sequence });
      await firstPrepared.promise;
      const second = client.call(held, { title }, { sequence });
      // Both calls are past the stored-answer check and in prepare: neither committed.
      await secondPrepared.promise;
      hold = null;
      gate.resolve();
      const [a, b] = await Promise.all([first, second]);
      expect(a.envelope.code).toBe(0);
      expect(b.body).toBe(a.body);
    } finally {
      hold = null;
      gate.resolve();
    }
    expect(runs - before).toBe(1);
    expect(await noticesTitled(title)).toHaveLength(1);
  });

  it('runs a burst of identical creations once (deviceGroup.create)', async () => {
    const { ent, client } = await t.tenant();
    const sequence = `burst-${backend}`;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => client.call(endpoints.deviceGroupCreate, { name: 'Burst' }, { sequence })),
    );
    expect(answers[0].envelope.code).toBe(0);
    for (const a of answers) expect(a.body).toBe(answers[0].body);
    const groups = await t.db.select().from(deviceGroups).where(eq(deviceGroups.entId, ent.id));
    expect(groups).toHaveLength(1);
  });

  it('answers a retried login with the same session, and the table holds no readable token', async () => {
    const admin = await createUser(t.db, await createEnterprise(t.db));
    const client = t.client();
    const sequence = `login-${backend}`;
    const data = { loginName: admin.loginName, password: admin.password };
    const first = await client.call(endpoints.login, data, { sequence, token: null });
    expect(first.envelope.code).toBe(0);
    const retry = await client.call(endpoints.login, data, { sequence, token: null });
    expect(retry.body).toBe(first.body);
    const token = first.envelope.payload.token;
    const own = await t.db.select().from(sessions).where(eq(sessions.accountId, admin.id));
    expect(own).toHaveLength(1);
    const found = await t.db.execute(
      sql`select count(*)::int as n from idempotent_calls where answer like ${`%${token.slice(0, 16)}%`} or request_hash like ${`%${token.slice(0, 16)}%`}`,
    );
    expect((found as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });

  it('keeps stored answers for the replay window, then the prune deletes them', async () => {
    const { client } = await t.tenant();
    const sequence = `expiry-${backend}`;
    const title = `expiry ${backend}`;
    const first = await client.call(write, { title }, { sequence });
    const key = await t.db.execute(
      sql`select expires_at from idempotent_calls where key = ${keyOf(client.uuid, sequence)}`,
    );
    const expiresAt = Number((key as unknown as { rows: { expires_at: number }[] }).rows[0].expires_at);
    expect(expiresAt).toBe(t.clock.now() + TIMESTAMP_WINDOW_MS);
    expect(await pruneIdempotentCalls(t.db, t.clock.now())).toBe(0);
    expect((await client.call(write, { title }, { sequence })).body).toBe(first.body);
    t.clock.advance(TIMESTAMP_WINDOW_MS + MINUTE);
    expect(await pruneIdempotentCalls(t.db, t.clock.now())).toBeGreaterThan(0);
    const left = await t.db.execute(
      sql`select count(*)::int as n from idempotent_calls where expires_at < ${t.clock.now()}`,
    );
    expect((left as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });

  it('still refuses a replayed read as REPLAYED_SEQUENCE', async () => {
    const { client } = await t.tenant();
    const sequence = `read-${backend}`;
    expect((await client.call(endpoints.noticeList, { pushPlatform: 1 }, { sequence })).envelope.code).toBe(0);
    expect((await client.call(endpoints.noticeList, { pushPlatform: 1 }, { sequence })).envelope.code).toBe(
      ErrorCode.REPLAYED_SEQUENCE,
    );
  });

  it('waits on PostgreSQL for the first call holding the key, then answers its answer', async () => {
    if (backend !== 'postgres') return;
    const { client } = await t.tenant();
    const sequence = `lock-wait-${backend}`;
    const title = `lock wait ${backend}`;
    const before = runs;
    let results: string[] = [];
    // Our lock on notices keeps the first call's transaction open after it claimed its key.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`lock table notices in share mode`);
      const first = client.call(write, { title }, { sequence });
      // The first call claimed its key and waits on our lock to insert its notice.
      await waitFor(async () => (await waiting(`insert into "notices"`)) > 0);
      const second = client.call(write, { title }, { sequence });
      // The second waits on the first's claim.
      await waitFor(async () => (await waiting('insert into idempotent_calls')) > 0);
      void Promise.all([first, second]).then(([a, b]) => {
        results = [a.body, b.body];
      });
    });
    await waitFor(async () => results.length === 2);
    expect(results[1]).toBe(results[0]);
    expect(JSON.parse(results[0]).code).toBe(0);
    expect(runs - before).toBe(1);
    expect(await noticesTitled(title)).toHaveLength(1);
  });

  /** Rows of idempotent_calls under this client's sequence (the key as the server derives it). */
  async function storedRows(uuid: string, sequence: string): Promise<number> {
    const found = await t.db.execute(
      sql`select count(*)::int as n from idempotent_calls where key = ${keyOf(uuid, sequence)}`,
    );
    return (found as unknown as { rows: { n: number }[] }).rows[0].n;
  }

  /** Backends' sessions waiting on a lock whose query starts with `prefix`. */
  async function waiting(prefix: string): Promise<number> {
    const found = await t.db.execute(sql`
      select count(*)::int as n from pg_stat_activity
      where wait_event_type = 'Lock' and ltrim(query, chr(32) || chr(10)) like ${`${prefix}%`}`);
    return (found as unknown as { rows: { n: number }[] }).rows[0].n;
  }

  async function waitFor(check: () => Promise<boolean>): Promise<void> {
    while (!(await check())) await new Promise((r) => setImmediate(r));
  }
});

describe.each(BACKENDS)('idempotent retries across two instances on one %s database', (backend) => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp(backend);
    b = await createTestApp(backend, {
      database: a.database,
      config: { jobs: { ...a.services.config.jobs, enabled: false } },
    });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('answers a retry on the other instance with the first answer, and runs identical calls on both once', async () => {
    const { ent, client } = await a.tenant();
    // The same browser (uuid and token) reaching the other instance behind a load balancer.
    const onB = b.client({ uuid: client.uuid, token: client.token });
    const first = await client.call(endpoints.deviceGroupCreate, { name: 'Hall' }, { sequence: 'across-1' });
    expect(first.envelope.code).toBe(0);
    const retry = await onB.call(endpoints.deviceGroupCreate, { name: 'Hall' }, { sequence: 'across-1' });
    expect(retry.body).toBe(first.body);
    const [x, y] = await Promise.all([
      client.call(endpoints.deviceGroupCreate, { name: 'Annex' }, { sequence: 'across-2' }),
      onB.call(endpoints.deviceGroupCreate, { name: 'Annex' }, { sequence: 'across-2' }),
    ]);
    expect(x.envelope.code).toBe(0);
    expect(y.body).toBe(x.body);
    const groups = await a.db.select().from(deviceGroups).where(eq(deviceGroups.entId, ent.id));
    expect(groups.map((g) => g.name).sort()).toEqual(['Annex', 'Hall']);
  });
});
