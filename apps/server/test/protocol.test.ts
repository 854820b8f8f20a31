import { randomUUID } from 'node:crypto';
import {
  buildSignedCall,
  CONSOLE_APP,
  type EndpointDef,
  ErrorCode,
  endpoints,
  errorMessage,
  TIMESTAMP_WINDOW_MS,
  toQueryString,
} from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notices, operationLogs } from '../src/db/schema/index.js';
import { AppError } from '../src/protocol/appError.js';
import { contentDisposition } from '../src/protocol/download.js';
import { defineHandler, type Handler } from '../src/protocol/handlers.js';
import { pruneReplayKeys, ReplayGuard } from '../src/protocol/replayGuard.js';
import {
  BACKENDS,
  createTestApp,
  createTestDatabase,
  MINUTE,
  type TestApp,
  type TestDatabase,
} from './helpers/index.js';

// Endpoints that exist only in this test, to drive the pipeline's generic paths.
const echo = {
  name: 'test.echo',
  path: '/api/test/echo.shtm',
  auth: 'public',
  request: z.object({ text: z.string().min(1, 'validation.required'), n: z.number().int().optional() }).strict(),
  response: z.object({ text: z.string() }),
} satisfies EndpointDef;
const boom = { ...echo, name: 'test.boom', path: '/api/test/boom.shtm', request: z.object({}) } satisfies EndpointDef;
const badAnswer = { ...boom, name: 'test.badAnswer', path: '/api/test/badAnswer.shtm' } satisfies EndpointDef;
const download = {
  name: 'test.download',
  path: '/api/test/download.shtm',
  auth: 'session',
  download: true,
  request: z.object({ fail: z.boolean().default(false) }),
  response: z.null(),
} satisfies EndpointDef;
const unaudited = {
  name: 'test.unaudited',
  path: '/api/test/unaudited.shtm',
  auth: 'session',
  mutation: true,
  request: z.object({}),
  response: z.null(),
} satisfies EndpointDef;

const extraEndpoints: Handler[] = [
  defineHandler(echo, { handle: async (input) => ({ text: input.text }) }),
  defineHandler(boom, {
    handle: async () => {
      throw new Error('secret internal detail');
    },
  }),
  defineHandler(badAnswer, { handle: async () => ({ text: 42 }) as unknown as { text: string } }),
  defineHandler(download, {
    handle: async (input) => {
      if (input.fail) throw new AppError(ErrorCode.NOT_FOUND);
      return { fileName: '设备报表 2026.csv', contentType: 'text/csv; charset=utf-8', data: 'id,name\n1,屏幕\n' };
    },
  }),
  defineHandler(unaudited, {
    handle: async (_input, ctx) => {
      await ctx.db.insert(notices).values({ entId: ctx.user.entId, title: 'written without a log row' });
      return null;
    },
  }),
];

describe.each(BACKENDS)('call pipeline on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, { extraEndpoints });
  });
  afterAll(() => t.close());

  it('answers a well-formed call with code 0', async () => {
    const res = await t.client().call(echo, { text: '  hello  ' });
    expect(res.status).toBe(200);
    expect(res.envelope).toEqual({ code: 0, message: 'Operation successful', payload: { text: 'hello' } });
    expect(res.body.startsWith('{"code":0')).toBe(true);
  });

  it.each(['appid', 'sequence', 'timestamp', 'token', 'language', 'uuid', 'sign', 'traceKey', 'version', 'origin'])(
    'refuses a call without %s as BAD_ENVELOPE',
    async (field) => {
      const res = await t.client().call(
        echo,
        { text: 'x' },
        {
          tamper: ({ query, body }) => {
            const { [field]: _dropped, ...rest } = query;
            return { query: rest, body };
          },
        },
      );
      expect(res.status).toBe(200);
      expect(res.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
      expect(res.envelope.message).toContain(field);
    },
  );

  it('refuses a repeated query field and a malformed timestamp as BAD_ENVELOPE', async () => {
    const client = t.client();
    const signed = buildSignedCall(
      { text: 'x' },
      { language: 'en-US', uuid: 'u', sequence: 'dup-sequence', traceKey: 't', now: t.clock.now() },
    );
    const repeated = await client.raw({
      path: echo.path,
      query: `${toQueryString(signed.query)}&token=again`,
      body: signed.body,
    });
    expect(repeated.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
    const badTime = await client.call(
      echo,
      { text: 'x' },
      {
        tamper: ({ query, body }) => ({ query: { ...query, timestamp: 'yesterday' }, body }),
      },
    );
    expect(badTime.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
  });

  it('refuses an unknown appid as BAD_ENVELOPE', async () => {
    const res = await t.client().call(echo, { text: 'x' }, { app: { appid: 'someone-else', key: 'their-key' } });
    expect(res.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
    expect(res.envelope.message).toContain('appid');
  });

  it('refuses a body that is not the payload form as BAD_ENVELOPE', async () => {
    const client = t.client();
    const signed = buildSignedCall(
      { text: 'x' },
      { language: 'en-US', uuid: 'u', sequence: randomUUID(), traceKey: 't', now: t.clock.now() },
    );
    const asJson = await client.raw({
      path: echo.path,
      query: signed.query,
      body: signed.payload,
      contentType: 'application/json',
    });
    expect(asJson.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
    const noBody = await client.raw({ path: echo.path, query: signed.query, contentType: null });
    expect(noBody.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
    const otherField = await client.raw({ path: echo.path, query: signed.query, body: 'data=%7B%7D' });
    expect(otherField.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
    expect(otherField.envelope.message).toContain('payload');
  });

  it('refuses a body over the size limit in the envelope, not with an HTTP error', async () => {
    const client = t.client();
    const res = await client.raw({ path: echo.path, query: {}, body: `payload=${'x'.repeat(1100 * 1024)}` });
    expect(res.status).toBe(200);
    expect(res.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
  });

  it('refuses a tampered payload, a wrong key and a malformed sign as BAD_SIGNATURE', async () => {
    const client = t.client();
    const tampered = await client.call(
      echo,
      { text: 'x' },
      {
        tamper: ({ query }) => ({ query, body: `payload=${encodeURIComponent('{"text":"y"}')}` }),
      },
    );
    expect(tampered.envelope.code).toBe(ErrorCode.BAD_SIGNATURE);
    const wrongKey = await client.call(echo, { text: 'x' }, { app: { appid: CONSOLE_APP.appid, key: 'not-the-key' } });
    expect(wrongKey.envelope.code).toBe(ErrorCode.BAD_SIGNATURE);
    const changedQuery = await client.call(
      echo,
      { text: 'x' },
      {
        tamper: ({ query, body }) => ({ query: { ...query, language: 'ja' }, body }),
      },
    );
    expect(changedQuery.envelope.code).toBe(ErrorCode.BAD_SIGNATURE);
    const padded = await client.call(
      echo,
      { text: 'x' },
      {
        tamper: ({ query, body }) => ({ query: { ...query, sign: `${query.sign}zz` }, body }),
      },
    );
    expect(padded.envelope.code).toBe(ErrorCode.BAD_SIGNATURE);
  });

  it('checks the signature before the timestamp', async () => {
    const res = await t.client().call(
      echo,
      { text: 'x' },
      {
        now: t.clock.now() - TIMESTAMP_WINDOW_MS - MINUTE,
        tamper: ({ query, body }) => ({ query: { ...query, sign: '0'.repeat(64) }, body }),
      },
    );
    expect(res.envelope.code).toBe(ErrorCode.BAD_SIGNATURE);
  });

  it('refuses a timestamp outside the window either way as STALE_TIMESTAMP', async () => {
    const client = t.client();
    const old = await client.call(echo, { text: 'x' }, { now: t.clock.now() - TIMESTAMP_WINDOW_MS - 1000 });
    expect(old.envelope.code).toBe(ErrorCode.STALE_TIMESTAMP);
    const future = await client.call(echo, { text: 'x' }, { now: t.clock.now() + TIMESTAMP_WINDOW_MS + 1000 });
    expect(future.envelope.code).toBe(ErrorCode.STALE_TIMESTAMP);
    const edge = await client.call(echo, { text: 'x' }, { now: t.clock.now() - TIMESTAMP_WINDOW_MS + 1000 });
    expect(edge.envelope.code).toBe(0);
  });

  it('refuses a replayed sequence as REPLAYED_SEQUENCE, per device', async () => {
    const client = t.client();
    const first = await client.call(echo, { text: 'x' }, { sequence: 'sequence-1' });
    expect(first.envelope.code).toBe(0);
    const again = await client.call(echo, { text: 'x' }, { sequence: 'sequence-1' });
    expect(again.envelope.code).toBe(ErrorCode.REPLAYED_SEQUENCE);
    const otherDevice = await client.call(echo, { text: 'x' }, { sequence: 'sequence-1', uuid: randomUUID() });
    expect(otherDevice.envelope.code).toBe(0);
  });

  it('refuses a payload that is not JSON as INVALID_PARAMS', async () => {
    const client = t.client();
    const now = String(t.clock.now());
    const payload = '{not json';
    const fields = {
      appid: CONSOLE_APP.appid,
      language: 'en-US',
      origin: 'new',
      sequence: randomUUID(),
      timestamp: now,
      token: '-1',
      traceKey: 't',
      uuid: 'u',
      version: `1.3${now}`,
    };
    const { signCall } = await import('@marquee/protocol');
    const query = { ...fields, sign: signCall(CONSOLE_APP.key, fields, payload) };
    const res = await client.raw({ path: echo.path, query, body: `payload=${encodeURIComponent(payload)}` });
    expect(res.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(res.envelope.message).toContain('payload');
  });

  it('refuses a payload failing the request schema with the field in the message', async () => {
    const client = t.client();
    const missing = await client.call(echo, {});
    expect(missing.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(missing.envelope.message).toContain('text');
    const wrongType = await client.call(echo, { text: 'x', n: 'one' });
    expect(wrongType.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(wrongType.envelope.message).toContain('n');
    const unknownKey = await client.call(echo, { text: 'x', extra: 1 });
    expect(unknownKey.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(unknownKey.envelope.message).toContain('extra');
    // The field path survives translation.
    const zh = await client.call(echo, { text: '' }, { language: 'zh-CN' });
    expect(zh.envelope.message).toContain(errorMessage(ErrorCode.INVALID_PARAMS, 'zh-CN'));
    expect(zh.envelope.message).toContain('text（此项为必填项）');
    // The rule's own message, in the caller's language, after the field.
    const en = await client.call(echo, { text: '' }, { language: 'en-US' });
    expect(en.envelope.message).toBe('Invalid parameters: text (This field is required)');
    const wrongTypeJa = await client.call(echo, { text: 'x', n: 1.5 }, { language: 'ja' });
    expect(wrongTypeJa.envelope.message).toBe('パラメータが無効です：n（整数で入力してください）');
  });

  it('answers in the caller language and falls back to zh-CN', async () => {
    const client = t.client();
    const ja = await client.call(echo, { text: 'x' }, { language: 'ja', now: 1 });
    expect(ja.envelope).toMatchObject({
      code: ErrorCode.STALE_TIMESTAMP,
      message: errorMessage(ErrorCode.STALE_TIMESTAMP, 'ja'),
    });
    const unknown = await client.call(echo, { text: 'x' }, { language: 'xx', now: 1 });
    expect(unknown.envelope.message).toBe(errorMessage(ErrorCode.STALE_TIMESTAMP, 'zh-CN'));
  });

  it('answers an unknown /api path, or a GET of a call, with HTTP 404 JSON', async () => {
    const client = t.client();
    const unknown = await client.call({ ...echo, path: '/api/nope/missing.shtm' }, { text: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.envelope.code).toBe(ErrorCode.NOT_FOUND);
    const get = await client.raw({ path: endpoints.login.path, method: 'GET', contentType: null });
    expect(get.status).toBe(404);
    expect(get.envelope.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('answers /api/health', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toEqual({ ok: true });
  });

  it('turns an unexpected exception into SERVER_ERROR without leaking it', async () => {
    const res = await t.client().call(boom, {});
    expect(res.status).toBe(200);
    expect(res.envelope).toEqual({ code: ErrorCode.SERVER_ERROR, message: 'Server error', payload: null });
    expect(res.body).not.toContain('secret internal detail');
  });

  it('treats an answer failing the response schema as SERVER_ERROR', async () => {
    const res = await t.client().call(badAnswer, {});
    expect(res.envelope.code).toBe(ErrorCode.SERVER_ERROR);
  });

  it('refuses a mutation that writes no operation log, and rolls it back', async () => {
    const { ent, client } = await t.tenant();
    const res = await client.call(unaudited, {});
    expect(res.envelope.code).toBe(ErrorCode.SERVER_ERROR);
    expect(await t.db.select().from(notices).where(eq(notices.entId, ent.id))).toHaveLength(0);
    const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.entId, ent.id));
    expect(logs.map((l) => l.action)).toEqual(['login']);
  });

  describe('downloads', () => {
    it('sends the file with the server file name (RFC 5987)', async () => {
      const { client } = await t.tenant();
      const res = await client.call(download, {});
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      const disposition = String(res.headers['content-disposition']);
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('设备报表 2026.csv')}`);
      expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+";/);
      expect(res.rawPayload.toString('utf8')).toBe('id,name\n1,屏幕\n');
    });

    it('answers errors of a download as the JSON envelope', async () => {
      const { client } = await t.tenant();
      const failed = await client.call(download, { fail: true });
      expect(failed.headers['content-type']).toMatch(/application\/json/);
      expect(failed.envelope.code).toBe(ErrorCode.NOT_FOUND);
      const anonymous = await t.client().call(download, {});
      expect(anonymous.envelope.code).toBe(ErrorCode.TOKEN_INVALID);
    });
  });
});

describe('content disposition', () => {
  it('keeps an ASCII fallback and escapes RFC 5987 specials', () => {
    expect(contentDisposition("report (1)'s.csv")).toBe(
      `attachment; filename="report (1)'s.csv"; filename*=UTF-8''report%20%281%29%27s.csv`,
    );
    expect(contentDisposition('a"b.txt')).toContain('filename="a_b.txt"');
  });
});

describe.each(BACKENDS)('replay guard (%s)', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
  });
  afterAll(() => database?.close());

  it('accepts a key once inside its window and again once its row expired', async () => {
    const guard = new ReplayGuard(database, 1000);
    expect(await guard.accept('k', 0, 0)).toBe(true);
    expect(await guard.accept('k', 0, 500)).toBe(false);
    // A second guard (another instance) on the same database refuses it too.
    expect(await new ReplayGuard(database, 1000).accept('k', 0, 600)).toBe(false);
    expect(await guard.accept('k', 1500, 1500)).toBe(true);
  });

  it('refuses the later of two identical calls that arrive together, in one batch', async () => {
    const guard = new ReplayGuard(database, 60_000);
    const answers = await Promise.all([
      guard.accept('same', 1, 1),
      guard.accept('same', 1, 1),
      guard.accept('other', 1, 1),
    ]);
    expect(answers).toEqual([true, false, true]);
    const many = await Promise.all(Array.from({ length: 1200 }, (_, i) => guard.accept(`n${i}`, 1, 1)));
    expect(many.every(Boolean)).toBe(true);
  });

  it('prunes keys whose window has passed', async () => {
    const guard = new ReplayGuard(database, 1000);
    await guard.accept('old', 10_000, 10_000);
    await guard.accept('new', 20_000, 20_000);
    expect(await pruneReplayKeys(database.db, 15_000)).toBeGreaterThanOrEqual(1);
    expect(await guard.accept('old', 10_000, 15_000)).toBe(true);
    expect(await guard.accept('new', 20_000, 15_000)).toBe(false);
  });
});
