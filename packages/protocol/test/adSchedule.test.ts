import { describe, expect, it } from 'vitest';
import {
  type AdPlaylistEntry,
  buildAdPlaylist,
  openingEntries,
  orderAds,
  pickAdEntries,
  type SchedulableAd,
} from '../src/index.js';

const NOW = new Date(2026, 5, 15, 12, 0).getTime(); // local noon
const H = 3_600_000;
let seq = 0;
function ad(id: string, extra: Partial<SchedulableAd> = {}): SchedulableAd {
  return {
    id,
    type: 'common',
    reviewState: 'passed',
    paused: false,
    deleted: false,
    startAt: NOW - 24 * H,
    endAt: NOW + 24 * H,
    strategy: 'perLoop',
    playsMin: 1,
    playsMax: 1,
    periods: [],
    createdAt: ++seq,
    ...extra,
  };
}
const keys = (list: AdPlaylistEntry[]) => list.map((e) => e.key);
const at = (h: number, m = 0) => new Date(2026, 5, 15, h, m);

describe('buildAdPlaylist', () => {
  it.each([
    ['pending review', { reviewState: 'pending' as const }],
    ['second audit', { reviewState: 'pendingSecond' as const }],
    ['failed', { reviewState: 'failed' as const }],
    ['paused', { paused: true }],
    ['deleted', { deleted: true }],
    ['expired', { endAt: NOW }],
  ])('leaves out an ad that is %s', (_name, extra) => {
    expect(buildAdPlaylist([ad('x', extra), ad('ok')], NOW).map((e) => e.adId)).toEqual(['ok']);
  });

  it('keeps an ad whose period begins later, with its period', () => {
    const [e] = buildAdPlaylist([ad('soon', { startAt: NOW + H, endAt: NOW + 2 * H })], NOW);
    expect(e).toMatchObject({ adId: 'soon', from: NOW + H, until: NOW + 2 * H });
  });

  it('orders opening, emergency, the loop and fallbacks', () => {
    const list = buildAdPlaylist(
      [ad('f', { type: 'fallback' }), ad('c1'), ad('e', { type: 'emergency' }), ad('o', { type: 'opening' }), ad('c2')],
      NOW,
    );
    expect(list.map((e) => [e.adId, e.role])).toEqual([
      ['o', 'opening'],
      ['e', 'emergency'],
      ['c1', 'loop'],
      ['c2', 'loop'],
      ['f', 'fallback'],
    ]);
  });

  it.each([
    ['one ad thrice', [ad('a', { playsMin: 3, playsMax: 5 })], ['a', 'a#2', 'a#3']],
    ['plays spread over the loop', [ad('a', { playsMin: 2, playsMax: 2 }), ad('b'), ad('c')], ['a', 'b', 'c', 'a#2']],
    ['three and one', [ad('a', { playsMin: 3, playsMax: 3 }), ad('b')], ['a', 'a#2', 'b', 'a#3']],
    ['per-day ads once a loop', [ad('a', { strategy: 'perDay', playsMin: 5, playsMax: 8 }), ad('b')], ['a', 'b']],
    [
      'interstitials between commons',
      [ad('c1'), ad('c2'), ad('c3'), ad('c4'), ad('i1', { type: 'interstitial' }), ad('i2', { type: 'interstitial' })],
      ['c1', 'c2', 'i1', 'c3', 'c4', 'i2'],
    ],
    ['interstitials alone', [ad('i1', { type: 'interstitial' })], ['i1']],
    ['a huge per-loop count is capped', [ad('a', { playsMin: 99999, playsMax: 99999 })], null],
  ])('fills the loop: %s', (_name, ads, expected) => {
    const list = buildAdPlaylist(ads, NOW);
    if (expected) expect(keys(list)).toEqual(expected);
    else expect(list).toHaveLength(100);
  });

  it('carries the daily cap of a per-day ad and the time periods', () => {
    const [e] = buildAdPlaylist(
      [ad('a', { strategy: 'perDay', playsMin: 2, playsMax: 6, periods: [{ start: '08:00', end: '10:00' }] })],
      NOW,
    );
    expect(e).toMatchObject({ maxPerDay: 6, periods: [{ start: '08:00', end: '10:00' }] });
  });

  it('is deterministic whatever the input order', () => {
    const ads = [ad('a'), ad('b', { type: 'interstitial' }), ad('c', { playsMin: 2, playsMax: 2 }), ad('d')];
    expect(buildAdPlaylist([...ads].reverse(), NOW)).toEqual(buildAdPlaylist(ads, NOW));
  });
});

describe('pickAdEntries', () => {
  const list = buildAdPlaylist(
    [
      ad('o', { type: 'opening' }),
      ad('e', { type: 'emergency', periods: [{ start: '12:00', end: '13:00' }] }),
      ad('morning', { periods: [{ start: '08:00', end: '11:00' }] }),
      ad('evening', { periods: [{ start: '18:00', end: '24:00' }], strategy: 'perDay', playsMin: 1, playsMax: 2 }),
      ad('f', { type: 'fallback' }),
    ],
    NOW,
  );
  const pick = (d: Date, played?: Map<string, number>) => {
    const r = pickAdEntries(list, d, played);
    return [r.role, r.entries.map((e) => e.adId)];
  };

  it.each([
    ['the emergency pre-empts everything in its period', at(12, 30), ['emergency', ['e']]],
    ['a time period starts inclusive', at(8, 0), ['loop', ['morning']]],
    ['a time period ends exclusive', at(11, 0), ['fallback', ['f']]],
    ['the fallback only when nothing else', at(14, 0), ['fallback', ['f']]],
    ['an evening period up to midnight', at(23, 59), ['loop', ['evening']]],
  ])('%s', (_name, d, expected) => {
    expect(pick(d)).toEqual(expected);
  });

  it('a per-day ad that reached its plays sits out (the fallback plays)', () => {
    expect(pick(at(19), new Map([['evening', 2]]))).toEqual(['fallback', ['f']]);
    expect(pick(at(19), new Map([['evening', 1]]))).toEqual(['loop', ['evening']]);
  });

  it('nothing outside every ad period', () => {
    expect(pickAdEntries(list, new Date(NOW + 48 * H)).role).toBe('none');
  });

  it('opening entries are apart', () => {
    expect(openingEntries(list, at(9)).map((e) => e.adId)).toEqual(['o']);
    expect(pickAdEntries(list, at(9)).entries.some((e) => e.role === 'opening')).toBe(false);
  });
});

describe('the heartbeat content report', () => {
  it('reads readyAds, and a malformed report as absent without losing the heartbeat', async () => {
    const { heartbeatSchema } = await import('../src/index.js');
    const hb = {
      v: 1,
      ts: 1,
      seq: 0,
      session: 1,
      player: { version: '1' },
      storage: { usedBytes: 0, freeBytes: 0 },
      net: { ip: '', mac: '' },
      screen: { width: 1, height: 1, on: true },
      volume: 1,
      brightness: 1,
    };
    const ok = heartbeatSchema.parse({ ...hb, content: { manifestVersion: 'v', readyAds: ['a1'] } });
    expect(ok.content?.readyAds).toEqual(['a1']);
    const bad = heartbeatSchema.safeParse({ ...hb, content: { readyAds: 'nope' } });
    expect(bad.success && bad.data.content).toBeUndefined();
  });
});

describe('playlist sort (orderAds)', () => {
  const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }];
  it.each([
    ['no order keeps the list', [], ['a', 'b', 'c', 'd']],
    ['the named ads first, in that order', ['c', 'a'], ['c', 'a', 'b', 'd']],
    ['a full order', ['d', 'c', 'b', 'a'], ['d', 'c', 'b', 'a']],
    ['unknown ids are ignored', ['x', 'b', 'y'], ['b', 'a', 'c', 'd']],
    ['a repeated id counts once, at its first place', ['b', 'd', 'b'], ['b', 'd', 'a', 'c']],
  ])('%s', (_name, order, want) => {
    expect(orderAds(list, order).map((a) => a.id)).toEqual(want);
  });

  it('orders the common ads of the loop before their plays are spread; other roles keep their place', () => {
    const a = ad('sa');
    const b = ad('sb', { playsMin: 2, playsMax: 2 });
    const c = ad('sc');
    const fallback = ad('sf', { type: 'fallback' });
    const emergency = ad('se', { type: 'emergency' });
    expect(keys(buildAdPlaylist([a, b, c, fallback, emergency], NOW))).toEqual(['se', 'sb', 'sa', 'sc', 'sb#2', 'sf']);
    expect(keys(buildAdPlaylist([a, b, c, fallback, emergency], NOW, { commonOrder: ['sc', 'sa'] }))).toEqual([
      'se',
      'sb',
      'sc',
      'sa',
      'sb#2',
      'sf',
    ]);
    // A sort naming a fallback does not pull it into the loop.
    expect(keys(buildAdPlaylist([a, fallback], NOW, { commonOrder: ['sf', 'sa'] }))).toEqual(['sa', 'sf']);
  });
});
