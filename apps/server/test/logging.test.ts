import { Writable } from 'node:stream';
import { endpoints } from '@marquee/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, redactDeep } from '../src/logger.js';
import { BACKENDS, createEnterprise, createTestApp, createUser, type TestApp } from './helpers/index.js';

class Capture extends Writable {
  readonly chunks: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.chunks.push(chunk.toString());
    done();
  }
  get text() {
    return this.chunks.join('');
  }
  get lines(): Record<string, unknown>[] {
    return this.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  }
}

describe.each(BACKENDS)('logging on %s', (backend) => {
  let t: TestApp;
  const capture = new Capture();
  beforeAll(async () => {
    t = await createTestApp(backend, { logger: createLogger('trace', capture) });
  });
  afterAll(() => t.close());

  it('never logs the token or the password, and writes one line per request', async () => {
    const ent = await createEnterprise(t.db);
    const user = await createUser(t.db, ent, { password: 'Sup3r$ecretPw' });
    const client = t.client();
    const login = await client.login(user.loginName, user.password);
    const token = login.token;
    capture.chunks.push(''); // mark
    const list = await client.call(endpoints.noticeList, {});
    expect(list.envelope.code).toBe(0);
    await client.call(endpoints.login, { loginName: user.loginName, password: 'Wr0ng$ecretPw' });
    await client.call(endpoints.authInfo, {}, { token: `${token.slice(0, 42)}x` });
    await client.call(endpoints.logout);

    expect(capture.text).not.toContain(token);
    expect(capture.text).not.toContain('Sup3r$ecretPw');
    expect(capture.text).not.toContain('Wr0ng$ecretPw');
    expect(capture.text).not.toContain(encodeURIComponent('Sup3r$ecretPw'));

    const requests = capture.lines.filter((l) => l.msg === 'request');
    expect(requests.map((l) => l.endpoint)).toEqual([
      'auth.login',
      'notice.list',
      'auth.login',
      'auth.info',
      'auth.logout',
    ]);
    const call = requests[1];
    expect(call).toMatchObject({
      method: 'POST',
      path: endpoints.noticeList.path,
      endpoint: 'notice.list',
      code: 0,
      status: 200,
      accountId: user.id,
    });
    expect(typeof call.ms).toBe('number');
    expect(call.traceKey).toMatch(/^trace-/);
    expect(requests[2]).toMatchObject({ code: -10006 });
    expect(requests[3]).toMatchObject({ code: -11004 });
    expect(requests[0].accountId).toBe(user.id);
  });

  it('redacts secret keys at any depth', () => {
    expect(
      redactDeep({ a: { token: 't', nested: [{ password: 'p', Authorization: 'Bearer x' }] }, traceKey: 'k' }),
    ).toEqual({
      a: { token: '[Redacted]', nested: [{ password: '[Redacted]', Authorization: '[Redacted]' }] },
      traceKey: 'k',
    });
    const capture2 = new Capture();
    const log = createLogger('info', capture2);
    log.info({ req: { method: 'POST', url: '/api/x.shtm?token=abc' }, deep: { user: { password: 'pw' } } }, 'x');
    log.flush?.();
    expect(capture2.text).not.toContain('token=abc');
    expect(capture2.text).not.toContain('"pw"');
  });
});
