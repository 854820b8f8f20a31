import { CONSOLE_APP, SIGNED_QUERY_FIELDS, type SignedQueryField, signCall } from '@marquee/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, setFetch, setRetryDelays } from '../src/api/client';
import { setErrorToast } from '../src/api/notify';
import { initI18n, storeLocale } from '../src/i18n';
import { setNavigator } from '../src/session/navigation';
import { initialSessionState, useSession } from '../src/session/session';

// Issue 25: a mutation whose answer was lost is sent again under the same sequence.

interface Captured {
  url: URL;
  body: string;
}

const requests: Captured[] = [];
const toasts: string[] = [];
const navigations: string[] = [];
/** What each attempt gets, in order: an answer, or a thrown network failure. */
let script: (() => Response)[] = [];

function ok(payload: unknown): Response {
  return new Response(JSON.stringify({ code: 0, message: '', payload }), {
    headers: { 'Content-Type': 'application/json' },
  });
}

function networkFailure(): Response {
  throw new TypeError('Failed to fetch');
}

beforeAll(async () => {
  storeLocale('en-US');
  await initI18n('en-US');
  setRetryDelays([0, 0]);
});

afterAll(() => setRetryDelays([500, 2000]));

beforeEach(() => {
  requests.length = 0;
  toasts.length = 0;
  navigations.length = 0;
  useSession.setState({ ...initialSessionState(), token: 'token-1' });
  setErrorToast((m) => toasts.push(m));
  setNavigator((to) => navigations.push(to));
  setFetch(async (input, init) => {
    requests.push({ url: new URL(String(input), 'http://console.test'), body: String(init?.body) });
    const next = script.shift();
    if (!next) throw new Error('no more scripted answers');
    return next();
  });
});

afterEach(() => {
  setErrorToast(null);
  setNavigator(null);
});

function query(captured: Captured): Record<string, string> {
  return Object.fromEntries(captured.url.searchParams);
}

function signedCorrectly(captured: Captured): boolean {
  const q = query(captured);
  const fields = Object.fromEntries(SIGNED_QUERY_FIELDS.map((f) => [f, q[f]])) as Record<SignedQueryField, string>;
  const payload = new URLSearchParams(captured.body).get('payload') ?? '';
  return signCall(CONSOLE_APP.key, fields, payload) === q.sign;
}

describe('retries of a mutation whose answer was lost', () => {
  it('sends the mutation again with the same sequence and payload, signed anew, and resolves once', async () => {
    script = [networkFailure, () => new Response('bad gateway', { status: 502 }), () => ok({ id: 'g-1' })];
    const answer = await call('deviceGroupCreate', { name: 'Lobby' });
    expect(answer).toEqual({ id: 'g-1' });
    expect(requests).toHaveLength(3);
    const sequences = new Set(requests.map((r) => query(r).sequence));
    expect(sequences.size).toBe(1);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(requests.map((r) => query(r).traceKey)).size).toBe(3);
    for (const r of requests) expect(signedCorrectly(r)).toBe(true);
    expect(toasts).toEqual([]);
    expect(navigations).toEqual([]);
  });

  it('gives up after two retries with the network toast', async () => {
    script = [networkFailure, networkFailure, networkFailure];
    const error = await call('deviceGroupCreate', { name: 'Lobby' }).catch((e) => e);
    expect(error).toMatchObject({ kind: 'network' });
    expect(requests).toHaveLength(3);
    expect(toasts).toHaveLength(1);
  });

  it('does not retry a read, nor an answer the server gave', async () => {
    script = [networkFailure];
    expect(await call('authInfo', {}).catch((e) => e)).toMatchObject({ kind: 'network' });
    expect(requests).toHaveLength(1);
    requests.length = 0;
    script = [() => new Response('bad request', { status: 400 })];
    expect(await call('deviceGroupCreate', { name: 'Lobby' }).catch((e) => e)).toMatchObject({ code: 400 });
    expect(requests).toHaveLength(1);
  });

  it('two calls with the same data are two sequences (only a retry reuses one)', async () => {
    script = [() => ok({ id: 'g-1' }), () => ok({ id: 'g-2' })];
    await call('deviceGroupCreate', { name: 'Lobby' });
    await call('deviceGroupCreate', { name: 'Lobby' });
    expect(query(requests[0]).sequence).not.toBe(query(requests[1]).sequence);
  });
});
