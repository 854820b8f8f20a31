import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type DeviceCredentials,
  type DeviceManifest,
  type ManifestItem,
  PLAYS_PATH,
  type PlayEvent,
  type RtbCadence,
} from '@marquee/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ContentPlayer, itemsToPlay } from '../../src/player/content.js';

/**
 * The headless player plays RTB slots' turns (issue 29, docs/device-protocol.md 2.7.2) as the
 * browser player does: a decided turn cuts in within a second of its start and plays its
 * winner to the turn's end, one completed play of the winner's ad per turn (what the server
 * bills); a slot's fallback only in the slot's turns nothing decided; an emergency ad wins over
 * both; the loop goes on after the turn. The manifests are made by hand (the server's
 * decisions are another module's).
 */

const S = 1000;
// A round instant (a multiple of every cadence below) so the turns read easily.
const T0 = Date.UTC(2026, 5, 15, 1, 0, 0);
const files: DeviceManifest['files'] = [
  { materialId: 'img', url: '/f/img', sha256: 'a'.repeat(64), size: 1, type: 'image' },
  { materialId: 'vid', url: '/f/vid', sha256: 'b'.repeat(64), size: 1, type: 'video', duration: 40 },
  { materialId: 'img2', url: '/f/img2', sha256: 'c'.repeat(64), size: 1, type: 'image' },
];
const ad = (id: string, role: ManifestItem['role'], extra: Partial<ManifestItem> = {}): ManifestItem => ({
  id: `ad:${id}`,
  source: 'ad',
  name: id,
  layoutId: null,
  adId: id,
  document: null,
  materialIds: ['img'],
  durationSec: 10,
  schedule: {},
  role,
  ...extra,
});
const decided = (id: string, auctionId: string, from: number, until: number, extra: Partial<ManifestItem> = {}) =>
  ad(id, 'rtb', { id: `rtb:${auctionId}`, schedule: { from, until }, rtb: { slotId: 's1', auctionId }, ...extra });
// Turns of 15 s every 60 s, 20 s after each minute.
const cadence: RtbCadence = { everySec: 60, offsetSec: 20, durationSec: 15 };
const fallback = (id: string) => ad(id, 'rtb', { id: `rtbf:s1:${id}`, rtb: { slotId: 's1', cadence } });
const manifest = (items: ManifestItem[], version = 'v1'): DeviceManifest => ({
  version,
  generatedAt: 0,
  items,
  files,
});

describe('the headless player and RTB turns', () => {
  let player: ContentPlayer | null = null;
  afterEach(async () => {
    await player?.stop();
    player = null;
    vi.useRealTimers();
  });

  /** A player with the manifest in use (no server: it uploads nothing without credentials), run from `at` for `ms`. */
  const run = (m: DeviceManifest, at: number, ms: number, during?: (p: ContentPlayer) => void) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(at);
    player = new ContentPlayer({ server: 'http://127.0.0.1:9', credentials: () => null });
    player.manifest = m;
    player.start();
    if (during) {
      vi.advanceTimersByTime(ms / 2);
      during(player);
      vi.advanceTimersByTime(ms - ms / 2);
    } else vi.advanceTimersByTime(ms);
    return player.journal;
  };
  const of = (journal: PlayEvent[], adId: string) => journal.filter((e) => e.adId === adId);
  const brief = (e: PlayEvent) => ({ adId: e.adId, start: e.start - T0, durationMs: e.durationMs, outcome: e.outcome });

  it('cuts the loop at a decided turn’s start, plays the winner to its end once, then goes on with the loop', () => {
    const journal = run(manifest([ad('c', 'loop'), decided('w', 'A1', T0 + 35 * S, T0 + 50 * S)]), T0, 80 * S);
    // The loop: 0-10, 10-20, 20-30, 30-35 cut within a second of the turn's start, then from the turn's end.
    expect(of(journal, 'w').map(brief)).toEqual([
      { adId: 'w', start: expect.any(Number), durationMs: expect.any(Number), outcome: 'completed' },
    ]);
    const [play] = of(journal, 'w');
    expect(play.start).toBeGreaterThanOrEqual(T0 + 35 * S);
    expect(play.start).toBeLessThanOrEqual(T0 + 36 * S);
    expect(play.start + play.durationMs).toBe(T0 + 50 * S);
    expect(play.materialId).toBe('img');
    const loop = of(journal, 'c').map(brief);
    expect(loop.slice(0, 4)).toEqual([
      { adId: 'c', start: 0, durationMs: 10 * S, outcome: 'completed' },
      { adId: 'c', start: 10 * S, durationMs: 10 * S, outcome: 'completed' },
      { adId: 'c', start: 20 * S, durationMs: 10 * S, outcome: 'completed' },
      { adId: 'c', start: 30 * S, durationMs: play.start - T0 - 30 * S, outcome: 'interrupted' },
    ]);
    expect(loop.slice(4)).toEqual([
      { adId: 'c', start: 50 * S, durationMs: 10 * S, outcome: 'completed' },
      { adId: 'c', start: 60 * S, durationMs: 10 * S, outcome: 'completed' },
      { adId: 'c', start: 70 * S, durationMs: 10 * S, outcome: 'completed' },
    ]);
  });

  it('plays one completed play per decided turn, back to back; a video longer than the turn is cut at its end', () => {
    const items = [
      ad('c', 'loop'),
      decided('w1', 'A1', T0 + 5 * S, T0 + 20 * S),
      decided('w2', 'A2', T0 + 20 * S, T0 + 35 * S, { materialIds: ['vid'] }),
      decided('w1', 'A3', T0 + 35 * S, T0 + 50 * S),
    ];
    const journal = run(manifest(items), T0, 60 * S);
    const turns = journal.filter((e) => e.adId?.startsWith('w')).map(brief);
    expect(turns).toHaveLength(3);
    expect(turns[0]).toMatchObject({ adId: 'w1', outcome: 'completed' });
    expect(turns[1]).toEqual({ adId: 'w2', start: 20 * S, durationMs: 15 * S, outcome: 'completed' });
    expect(turns[2]).toEqual({ adId: 'w1', start: 35 * S, durationMs: 15 * S, outcome: 'completed' });
    expect(turns[0].start).toBeGreaterThanOrEqual(5 * S);
    expect(turns[0].start + turns[0].durationMs).toBe(20 * S);
  });

  it('joins a turn under way late and still plays it once; a new manifest mid-turn does not restart it', () => {
    const turn = decided('w', 'A1', T0 - 5 * S, T0 + 20 * S);
    const journal = run(manifest([ad('c', 'loop'), turn]), T0, 30 * S, (p) => {
      // Another decision arrives (a new manifest version, the same turn in it).
      p.manifest = manifest([ad('c', 'loop'), turn, decided('x', 'A9', T0 + 60 * S, T0 + 75 * S)], 'v2');
    });
    expect(of(journal, 'w').map(brief)).toEqual([{ adId: 'w', start: 0, durationMs: 20 * S, outcome: 'completed' }]);
    expect(of(journal, 'c').map(brief)[0]).toEqual({
      adId: 'c',
      start: 20 * S,
      durationMs: 10 * S,
      outcome: 'completed',
    });
  });

  it('plays a slot’s fallback only in the slot’s turns, and a decided turn instead of it', () => {
    // Turns at 20-35 s and 80-95 s; a decided turn of another slot covers 80-95 s.
    const other = decided('w', 'B1', T0 + 80 * S, T0 + 95 * S, { rtb: { slotId: 's2', auctionId: 'B1' } });
    const journal = run(manifest([ad('c', 'loop'), fallback('f'), other]), T0, 100 * S);
    const fallbacks = of(journal, 'f').map(brief);
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0].outcome).toBe('completed');
    expect(fallbacks[0].start).toBeGreaterThanOrEqual(20 * S);
    expect(fallbacks[0].start).toBeLessThanOrEqual(21 * S);
    expect(fallbacks[0].start + fallbacks[0].durationMs).toBe(35 * S);
    expect(of(journal, 'w').map((e) => e.outcome)).toEqual(['completed']);
    // The loop plays between the turns, never during them.
    for (const e of of(journal, 'c')) {
      const end = e.start + e.durationMs;
      expect(end <= T0 + 21 * S || e.start >= T0 + 35 * S).toBe(true);
      expect(end <= T0 + 81 * S || e.start >= T0 + 95 * S).toBe(true);
    }
  });

  describe('in a layout’s RTB region', () => {
    const region = { layoutId: 'L', componentId: 'c-side' };
    const doc = { pages: [{ id: 'p1', duration: 10, components: [] }] };
    const inRegion = (id: string, auctionId: string, from: number, until: number) =>
      decided(id, auctionId, from, until, { rtb: { slotId: 's9', auctionId, region } });

    it('shows the region’s turn while its layout plays, without cutting the layout: one completed play in the region', () => {
      const own: ManifestItem = { ...ad('own', undefined), adId: null, layoutId: 'L', document: doc, materialIds: [] };
      const journal = run(manifest([own, inRegion('w', 'R1', T0 + 5 * S, T0 + 20 * S)]), T0, 30 * S);
      const plays = of(journal, 'w');
      expect(plays).toHaveLength(1);
      expect(plays[0]).toMatchObject({ layoutId: 'L', componentId: 'c-side', materialId: 'img', outcome: 'completed' });
      expect(plays[0].start).toBeGreaterThanOrEqual(T0 + 5 * S);
      expect(plays[0].start).toBeLessThanOrEqual(T0 + 6 * S);
      expect(plays[0].start + plays[0].durationMs).toBe(T0 + 20 * S);
      // The layout was never cut: its pages ran their time.
      expect(journal.filter((e) => e.layoutId === 'L' && e.componentId === null).map((e) => e.outcome)).toEqual([
        'completed',
        'completed',
        'completed',
      ]);
    });

    it('cuts the region’s play when its layout leaves the screen, and shows the turn again when it comes back', () => {
      const layoutAd: ManifestItem = ad('lay', 'loop', { layoutId: 'L', document: doc, materialIds: [] });
      const journal = run(
        manifest([layoutAd, ad('c', 'loop'), inRegion('w', 'R1', T0 + 5 * S, T0 + 25 * S)]),
        T0,
        30 * S,
      );
      expect(of(journal, 'w').map(brief)).toEqual([
        { adId: 'w', start: expect.any(Number), durationMs: expect.any(Number), outcome: 'interrupted' },
        { adId: 'w', start: 20 * S, durationMs: 5 * S, outcome: 'completed' },
      ]);
      const [cut] = of(journal, 'w');
      expect(cut.start + cut.durationMs).toBe(T0 + 10 * S);
      // Never full screen: the loop ad played its whole turn in between.
      expect(of(journal, 'c').map(brief)[0]).toEqual({
        adId: 'c',
        start: 10 * S,
        durationMs: 10 * S,
        outcome: 'completed',
      });
    });

    it('leaves a region’s turn out of the loop when its layout is not on screen', () => {
      const journal = run(manifest([ad('c', 'loop'), inRegion('w', 'R1', T0 + 5 * S, T0 + 20 * S)]), T0, 30 * S);
      expect(of(journal, 'w')).toEqual([]);
      expect(of(journal, 'c').every((e) => e.outcome === 'completed')).toBe(true);
    });
  });

  it('lets an emergency ad pre-empt a decided turn', () => {
    const m = manifest([ad('e', 'emergency'), ad('c', 'loop'), decided('w', 'A1', T0 + 5 * S, T0 + 20 * S)]);
    expect(itemsToPlay(m, new Date(T0 + 10 * S), new Map()).map((i) => i.id)).toEqual(['ad:e']);
    const journal = run(m, T0, 30 * S);
    expect(of(journal, 'w')).toEqual([]);
    expect(of(journal, 'e').length).toBeGreaterThan(0);
  });
});

/**
 * The upload is the ordinary one (`POST /dapi/v1/plays`, HTTP Basic); here a stand-in device
 * API takes it (the server's test app needs the RTB module's handlers, another change).
 */
describe('a headless player’s RTB play is uploaded', () => {
  let api: Server;
  let base: string;
  const received: { auth: string | undefined; events: PlayEvent[] }[] = [];
  beforeAll(async () => {
    api = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.method !== 'POST' || req.url !== PLAYS_PATH) {
          res.end(JSON.stringify({ code: 404, message: 'not found', payload: null }));
          return;
        }
        const { events } = JSON.parse(body) as { events: PlayEvent[] };
        received.push({ auth: req.headers.authorization, events });
        res.end(
          JSON.stringify({
            code: 0,
            message: 'ok',
            payload: { accepted: events.map((e) => e.id), duplicate: [], rejected: [] },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => api.close(resolve));
  });

  const credentials: DeviceCredentials = {
    deviceId: 'd1',
    username: 'd1',
    password: 'secret',
    clientId: 'd1',
    brokerUrls: [],
    topicPrefix: 'mq/v1/d/d1',
    heartbeatSec: 30,
    name: 'RTB screen',
  };

  it('journals the winner’s play with its real start and uploads it like any play', async () => {
    // A short turn a moment from now, on the real clock.
    const from = Date.now() + 1500;
    const until = from + 2000;
    const player = new ContentPlayer({
      server: base,
      credentials: () => credentials,
      uploadEverySec: 60,
    });
    player.manifest = manifest([ad('c', 'loop'), decided('winner', 'A1', from, until)]);
    player.start();
    await new Promise((resolve) => setTimeout(resolve, until - Date.now() + 300));
    await player.stop();
    const sent = received.flatMap((r) => r.events);
    expect(received.every((r) => r.auth === `Basic ${Buffer.from('d1:secret').toString('base64')}`)).toBe(true);
    const wins = sent.filter((e) => e.adId === 'winner');
    expect(wins).toHaveLength(1);
    expect(wins[0]).toMatchObject({ materialId: 'img', layoutId: null, outcome: 'completed' });
    // Inside the turn (what billing's proof needs); how soon after its start is the simulated-time tests' to pin.
    expect(wins[0].start).toBeGreaterThanOrEqual(from);
    expect(wins[0].start).toBeLessThan(until);
    expect(wins[0].start + wins[0].durationMs).toBeGreaterThanOrEqual(until - 5);
    // The loop ad cut by the turn, uploaded too (interrupted); nothing is left in the journal.
    expect(sent.some((e) => e.adId === 'c' && e.outcome === 'interrupted' && e.start < from)).toBe(true);
    expect(player.journal).toEqual([]);
  });
});
