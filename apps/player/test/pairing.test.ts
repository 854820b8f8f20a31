import { ErrorCode } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import {
  chooseDeviceNumber,
  normalMac,
  type PairingApi,
  type PairingStore,
  PENDING_PAIRING_KEY,
  type PendingPairing,
  RESUME_MARGIN_MS,
  resumablePairing,
  runPairing,
} from '../src/logic/pairing';

/** The player's storage across reloads (kv: IndexedDB and localStorage). */
class MemoryStore implements PairingStore {
  readonly values = new Map<string, unknown>();
  async get<T>(key: string): Promise<T | null> {
    return (this.values.get(key) as T) ?? null;
  }
  async set(key: string, value: unknown): Promise<void> {
    if (value === null) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
  }
}

class ApiError extends Error {
  constructor(readonly code: number) {
    super(`code ${code}`);
  }
}

/** A server that hands out pairings and binds them when told. */
function fakeServer(now: () => number) {
  let n = 0;
  const pairings = new Map<string, { token: string; bound: boolean; expiresAt: number }>();
  const calls = { pair: 0, polls: [] as string[] };
  const api: PairingApi<{ deviceId: string }> = {
    async pair() {
      calls.pair++;
      n++;
      const p = { pairingId: `p${n}`, pollToken: `t${n}`, code: `CODE${n}`, qr: `qr${n}`, expiresAt: now() + 900_000 };
      pairings.set(p.pairingId, { token: p.pollToken, bound: false, expiresAt: p.expiresAt });
      return p;
    },
    async poll(pairingId, pollToken) {
      calls.polls.push(pairingId);
      const p = pairings.get(pairingId);
      if (!p || p.token !== pollToken || p.expiresAt <= now()) throw new ApiError(ErrorCode.PAIRING_CODE_INVALID);
      if (!p.bound) throw new Error('network down');
      return { status: 'bound', expiresAt: p.expiresAt };
    },
    async credentials(pairingId) {
      return { deviceId: `device-of-${pairingId}` };
    },
  };
  return { api, calls, bind: (id: string) => ((pairings.get(id) as { bound: boolean }).bound = true), pairings };
}

describe('pairing across reloads', () => {
  it('keeps the pending pairing: a reload shows the same code and polls the same pairing', async () => {
    let clock = 1_000_000;
    const now = () => clock;
    const store = new MemoryStore();
    const server = fakeServer(now);
    const shown: string[] = [];
    const show = (p: PendingPairing) => shown.push(p.code);

    // First load: a new pairing, stored before its code is shown; the poll fails (the page reloads).
    await expect(runPairing({ api: server.api, store, now, show })).rejects.toThrow('network down');
    expect(server.calls.pair).toBe(1);
    expect(await store.get<PendingPairing>(PENDING_PAIRING_KEY)).toMatchObject({ pairingId: 'p1', code: 'CODE1' });

    // Reload two minutes later: the same code, no new pairing; the operator adds it meanwhile.
    clock += 120_000;
    server.bind('p1');
    const credentials = await runPairing({ api: server.api, store, now, show });
    expect(credentials).toEqual({ deviceId: 'device-of-p1' });
    expect(server.calls.pair).toBe(1);
    expect(shown).toEqual(['CODE1', 'CODE1']);
    expect(server.calls.polls).toEqual(['p1', 'p1']);
    // Collected: forgotten.
    expect(await store.get(PENDING_PAIRING_KEY)).toBeNull();
  });

  it('pairs a screen whose clock is hours ahead of the server’s (the expiry is the server’s to judge)', async () => {
    const serverClock = 1_000_000;
    const server = fakeServer(() => serverClock);
    const store = new MemoryStore();
    server.api.pair = ((pair) => async () => {
      const p = await pair();
      server.bind(p.pairingId);
      return p;
    })(server.api.pair);
    const deviceNow = () => serverClock + 3 * 3600_000;
    expect(await runPairing({ api: server.api, store, now: deviceNow, show: () => {} })).toEqual({
      deviceId: 'device-of-p1',
    });
    expect(server.calls.pair).toBe(1);
  });

  it('asks for a new pairing when the stored one expired or the server no longer knows it', async () => {
    let clock = 5_000_000;
    const now = () => clock;
    const store = new MemoryStore();
    const server = fakeServer(now);
    const shown: string[] = [];
    await expect(runPairing({ api: server.api, store, now, show: (p) => shown.push(p.code) })).rejects.toThrow();
    // Past its expiry (less than the margin left): not resumed.
    clock += 900_000 - RESUME_MARGIN_MS + 1;
    await expect(runPairing({ api: server.api, store, now, show: (p) => shown.push(p.code) })).rejects.toThrow();
    expect(shown).toEqual(['CODE1', 'CODE2']);
    // The server forgot it (PAIRING_CODE_INVALID): a new one at once, in the same run.
    server.pairings.delete('p2');
    server.api.pair = ((pair) => async () => {
      const p = await pair();
      server.bind(p.pairingId);
      return p;
    })(server.api.pair);
    expect(await runPairing({ api: server.api, store, now, show: (p) => shown.push(p.code) })).toEqual({
      deviceId: 'device-of-p3',
    });
    expect(shown).toEqual(['CODE1', 'CODE2', 'CODE2', 'CODE3']);
  });

  it('resumes only a well-formed pairing that has not expired', () => {
    const p = { pairingId: 'a', pollToken: 'b', code: 'C', qr: 'q', expiresAt: 100_000 };
    expect(resumablePairing(p, 0)).toBe(p);
    expect(resumablePairing(p, 100_000 - RESUME_MARGIN_MS)).toBeNull();
    expect(resumablePairing(null, 0)).toBeNull();
    expect(resumablePairing({ ...p, pollToken: 1 } as unknown as PendingPairing, 0)).toBeNull();
  });
});

describe('the device number and MAC the browser player reports', () => {
  it('takes ?number= first, else the stored one, else a new WEB- number', () => {
    expect(chooseDeviceNumber('SN-4411', 'WEB-OLD', () => 'x')).toBe('SN-4411');
    expect(chooseDeviceNumber(null, 'WEB-OLD', () => 'x')).toBe('WEB-OLD');
    expect(chooseDeviceNumber('bad number!', null, () => 'ab12cd34ef56gh')).toBe('WEB-AB12CD34EF56');
  });
  it('reads a MAC in any common spelling', () => {
    expect(normalMac('02-00-5E-10-00-23')).toBe('02:00:5e:10:00:23');
    expect(normalMac('02005e100023')).toBe('02:00:5e:10:00:23');
    expect(normalMac('nope')).toBe('');
    expect(normalMac(null)).toBe('');
  });
});
