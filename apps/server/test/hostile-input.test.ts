import { ErrorCode, endpoints } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentDisposition } from '../src/protocol/download.js';
import { BACKENDS, createTestApp, type TestApp } from './helpers/index.js';

// Text PostgreSQL cannot store and query fields outside their format are the caller's
// mistake: INVALID_PARAMS naming the field, or BAD_ENVELOPE naming the query field, decided
// once in the pipeline for every endpoint (apps/server/test/robustness.test.ts tries all).

describe.each(BACKENDS)('hostile input on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['a NUL', '\u0000'],
    ['a NUL inside text', 'dept\u0000x'],
    ['a lone high surrogate', 'x\uD800'],
    ['a lone low surrogate', '\uDC00y'],
  ])('answers %s in a field as INVALID_PARAMS naming the field', async (_label, text) => {
    const { client } = await t.tenant();
    const res = await client.call(endpoints.deptChange, { deptId: text }, { language: 'en-US' });
    expect(res.status).toBe(200);
    expect(res.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(res.envelope.message).toContain('deptId');
    const page = await client.call(endpoints.templatePage, { page: 1, size: 20, name: text }, { language: 'en-US' });
    expect(page.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(page.envelope.message).toContain('name');
  });

  it('names the path of a nested field and of an unsafe key', async () => {
    const { client } = await t.tenant();
    const nested = await client.call(
      endpoints.permissionRefresh,
      { refType: '9', refIds: ['ok', 'bad\u0000'], allocateInfos: [] },
      { language: 'en-US' },
    );
    expect(nested.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(nested.envelope.message).toContain('refIds.1');
    const key = await client.call(endpoints.deptChange, { 'dept\u0000Id': 'x' }, { language: 'en-US' });
    expect(key.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
  });

  it('refuses a payload nested deeper than any request needs as INVALID_PARAMS', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 1000; i++) deep = [deep];
    const res = await t.client().call(endpoints.login, { loginName: deep, password: 'x' }, { language: 'en-US' });
    expect(res.envelope.code).toBe(ErrorCode.INVALID_PARAMS);
    expect(res.envelope.message).toContain('loginName');
  });

  it.each([
    ['bad!seq123', false],
    ['ab', false],
    ['a'.repeat(100), false],
    ['1234567', false],
    ['12345678', true],
    ['A-z_0'.repeat(12).slice(0, 64), true],
  ])('checks the sequence format: %s', async (sequence, accepted) => {
    const res = await t.client().call(endpoints.oauthProviders, {}, { sequence, language: 'en-US' });
    expect(res.status).toBe(200);
    if (accepted) {
      expect(res.envelope.code).toBe(0);
    } else {
      expect(res.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
      expect(res.envelope.message).toContain('sequence (8 to 64');
    }
  });

  it.each(['token', 'uuid', 'language', 'traceKey'])('refuses a NUL in the %s query field', async (field) => {
    const res = await t
      .client()
      .call(
        endpoints.oauthProviders,
        {},
        { tamper: ({ query, body }) => ({ query: { ...query, [field]: 'x\u0000y' }, body }) },
      );
    expect(res.status).toBe(200);
    expect(res.envelope.code).toBe(ErrorCode.BAD_ENVELOPE);
    expect(res.envelope.message).toContain(field);
  });

  it('reads a query field that is not UTF-8 (an encoded lone surrogate) as a client mistake', async () => {
    const client = t.client();
    let qs = '';
    const res = await client.call(
      endpoints.oauthProviders,
      {},
      {
        tamper: ({ query, body }) => {
          qs = new URLSearchParams(query).toString().replace(/uuid=[^&]*/, 'uuid=x%ED%A0%80y');
          return { query, body };
        },
      },
    );
    expect(res.envelope.code).toBe(0);
    const raw = await client.raw({ path: endpoints.oauthProviders.path, query: qs, body: 'payload=%7B%7D' });
    expect(raw.status).toBe(200);
    expect([ErrorCode.BAD_ENVELOPE, ErrorCode.BAD_SIGNATURE]).toContain(raw.envelope.code);
  });

  it('answers in the fallback locale for an unknown language, which handlers never see', async () => {
    const res = await t.client().call(endpoints.oauthProviders, {}, { language: '__proto__' });
    expect(res.envelope.code).toBe(0);
    expect(res.envelope.message).toBe('操作成功');
  });

  it('names a download whose name holds a lone surrogate without throwing', () => {
    expect(contentDisposition('report\uD800.xlsx')).toContain("filename*=UTF-8''report%EF%BF%BD.xlsx");
  });
});
