import type { DeviceManifest, ManifestItem, RtbCadence } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { itemsToPlay, rtbTurnOf } from '../src/logic/ads';

/**
 * RTB slots on the screen (issue 29, docs/device-protocol.md 2.7.2): a decided turn plays its
 * winner from its start to its end, pre-empting the loop and the device's own layout but not an
 * emergency ad nor the opening ads; a slot's fallback plays in the slot's turns that nothing
 * decided; between turns the loop goes on.
 */
describe('RTB turns on the screen', () => {
  // A round instant (a multiple of every cadence below), so the turns' arithmetic is easy to read.
  const T0 = Date.UTC(2026, 5, 15, 1, 0, 0);
  const S = 1000;
  const ad = (id: string, role: ManifestItem['role'], extra: Partial<ManifestItem> = {}): ManifestItem => ({
    id: `ad:${id}`,
    source: 'ad',
    name: id,
    layoutId: null,
    adId: id,
    document: null,
    materialIds: ['m1'],
    durationSec: 10,
    schedule: {},
    role,
    ...extra,
  });
  const decided = (id: string, auctionId: string, from: number, until: number, slotId = 's1') =>
    ad(id, 'rtb', { id: `rtb:${auctionId}`, schedule: { from, until }, rtb: { slotId, auctionId } });
  // Turns of 15 s every 60 s, starting 20 s after each minute.
  const cadence: RtbCadence = { everySec: 60, offsetSec: 20, durationSec: 15 };
  const fallback = (id: string, extra: Partial<ManifestItem> = {}) =>
    ad(id, 'rtb', { id: `rtbf:s1:${id}`, rtb: { slotId: 's1', cadence }, ...extra });
  const own: ManifestItem = {
    id: 'layout:L1',
    source: 'layout',
    name: 'own',
    layoutId: 'L1',
    adId: null,
    document: null,
    materialIds: ['m1'],
    durationSec: 10,
    schedule: {},
  };
  const m = (items: ManifestItem[]): DeviceManifest => ({ version: 'v', generatedAt: 0, items, files: [] });
  const pick = (items: ManifestItem[], at: number, opts: { startedAt?: number; serverNow?: number } = {}) => {
    const r = itemsToPlay(m(items), new Date(at), {
      startedAt: opts.startedAt ?? 0,
      playedToday: new Map(),
      serverNow: opts.serverNow,
    });
    return [r.role, r.items.map((i) => i.id)];
  };

  it('a decided turn pre-empts the loop from its start to its end, then the loop resumes', () => {
    const items = [ad('c', 'loop'), own, decided('w', 'A1', T0 + 30 * S, T0 + 45 * S)];
    expect(pick(items, T0 + 29_999)).toEqual(['loop', ['ad:c']]);
    expect(pick(items, T0 + 30 * S)).toEqual(['rtb', ['rtb:A1']]);
    expect(pick(items, T0 + 44_999)).toEqual(['rtb', ['rtb:A1']]);
    expect(pick(items, T0 + 45 * S)).toEqual(['loop', ['ad:c']]);
  });

  it('a decided turn pre-empts the device’s own layout too', () => {
    const items = [own, decided('w', 'A1', T0, T0 + 15 * S)];
    expect(pick(items, T0 + 5 * S)).toEqual(['rtb', ['rtb:A1']]);
    expect(pick(items, T0 + 15 * S)).toEqual(['own', ['layout:L1']]);
  });

  it('an emergency ad pre-empts a decided turn; the opening ads play out first', () => {
    const turn = decided('w', 'A1', T0, T0 + 15 * S);
    expect(pick([ad('e', 'emergency'), turn, ad('c', 'loop')], T0 + 5 * S)).toEqual(['emergency', ['ad:e']]);
    // The opening (10 s once through) started 2 s before the turn: it plays to its end, then the turn.
    const items = [ad('o', 'opening'), turn, ad('c', 'loop')];
    expect(pick(items, T0 + 5 * S, { startedAt: T0 - 2 * S })).toEqual(['opening', ['ad:o']]);
    expect(pick(items, T0 + 8 * S, { startedAt: T0 - 2 * S })).toEqual(['rtb', ['rtb:A1']]);
  });

  it('a fallback plays only inside its slot’s turns', () => {
    const items = [ad('c', 'loop'), fallback('f')];
    // Turns: [T0 + 20 s, T0 + 35 s), [T0 + 80 s, T0 + 95 s), ...
    expect(pick(items, T0 + 19_999)).toEqual(['loop', ['ad:c']]);
    expect(pick(items, T0 + 20 * S)).toEqual(['rtb', ['rtbf:s1:f']]);
    expect(pick(items, T0 + 34_999)).toEqual(['rtb', ['rtbf:s1:f']]);
    expect(pick(items, T0 + 35 * S)).toEqual(['loop', ['ad:c']]);
    expect(pick(items, T0 + 80 * S)).toEqual(['rtb', ['rtbf:s1:f']]);
    // Nothing else to play: between turns the fallback of the slot does not fill the screen.
    expect(pick([fallback('f')], T0 + 50 * S)).toEqual(['none', []]);
  });

  it('a fallback sits out outside its ad’s period and hours', () => {
    const late = fallback('f', { schedule: { from: T0 + 60 * S } });
    expect(pick([ad('c', 'loop'), late], T0 + 20 * S)).toEqual(['loop', ['ad:c']]);
    expect(pick([ad('c', 'loop'), late], T0 + 80 * S)).toEqual(['rtb', ['rtbf:s1:f']]);
    const hour = new Date(T0 + 20 * S).getHours();
    const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
    const period = hour < 23 ? { start: hh(hour + 1), end: '24:00' } : { start: '00:00', end: hh(23) };
    const otherHours = fallback('f', { schedule: { periods: [period] } });
    expect(pick([ad('c', 'loop'), otherHours], T0 + 20 * S)).toEqual(['loop', ['ad:c']]);
  });

  it('a decided turn of any slot is played instead of a fallback’s turn', () => {
    const items = [ad('c', 'loop'), fallback('f'), decided('w', 'A2', T0 + 25 * S, T0 + 40 * S, 's2')];
    expect(pick(items, T0 + 22 * S)).toEqual(['rtb', ['rtbf:s1:f']]);
    expect(pick(items, T0 + 25 * S)).toEqual(['rtb', ['rtb:A2']]);
    expect(pick(items, T0 + 39 * S)).toEqual(['rtb', ['rtb:A2']]);
    expect(pick(items, T0 + 40 * S)).toEqual(['loop', ['ad:c']]);
  });

  it('two decided turns live at once: the earlier one plays', () => {
    const items = [decided('x', 'B2', T0 + 5 * S, T0 + 20 * S), decided('w', 'B1', T0, T0 + 15 * S)];
    expect(pick(items, T0 + 10 * S)).toEqual(['rtb', ['rtb:B1']]);
    expect(pick(items, T0 + 15 * S)).toEqual(['rtb', ['rtb:B2']]);
  });

  it('turns follow the server’s clock, the rest of the schedule the local one', () => {
    const items = [ad('c', 'loop'), decided('w', 'A1', T0 + 30 * S, T0 + 45 * S)];
    // The local clock is 20 s behind the server's: the turn starts when the server's clock says so.
    expect(pick(items, T0 + 15 * S, { serverNow: T0 + 35 * S })).toEqual(['rtb', ['rtb:A1']]);
    expect(pick(items, T0 + 35 * S, { serverNow: T0 + 55 * S })).toEqual(['loop', ['ad:c']]);
  });

  it('names each turn and its end: a decided turn by its auction, a fallback by its turn', () => {
    expect(rtbTurnOf(decided('w', 'A1', T0, T0 + 15 * S), T0 + 3 * S)).toEqual({
      key: 'a:A1',
      start: T0,
      end: T0 + 15 * S,
    });
    expect(rtbTurnOf(decided('w', 'A1', T0, T0 + 15 * S), T0 + 15 * S)).toBeNull();
    expect(rtbTurnOf(fallback('f'), T0 + 81 * S)).toEqual({
      key: `f:rtbf:s1:f:${T0 + 80 * S}`,
      start: T0 + 80 * S,
      end: T0 + 95 * S,
    });
    // A fallback whose ad ends mid-turn ends with it.
    expect(rtbTurnOf(fallback('f', { schedule: { until: T0 + 90 * S } }), T0 + 81 * S)?.end).toBe(T0 + 90 * S);
    expect(rtbTurnOf(fallback('f'), T0 + 50 * S)).toBeNull();
    expect(rtbTurnOf(ad('c', 'loop'), T0)).toBeNull();
  });
});
