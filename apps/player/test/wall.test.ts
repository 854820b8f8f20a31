import type { ManifestFile, ManifestItem } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { bestOffset, CLOCK_RESAMPLE_MS, nextRoundMs, SharedClock, sampleOffset } from '../src/logic/clock';
import { wallEntries, wallGeometry, wallSlotAt } from '../src/logic/wall';

const item = (id: string, extra: Partial<ManifestItem> = {}): ManifestItem => ({
  id,
  source: 'layout',
  name: id,
  layoutId: null,
  adId: null,
  document: null,
  materialIds: [],
  durationSec: 10,
  schedule: {},
  ...extra,
});
const file = (materialId: string, type = 'image', duration: number | null = null): ManifestFile => ({
  materialId,
  url: `/f/${materialId}`,
  sha256: materialId,
  size: 1,
  type,
  duration,
});

describe('wall timeline', () => {
  const layout = item('layout:L', {
    document: { v: 1, pages: [{ duration: 3 }, { duration: 5 }, {}] },
    durationSec: 2,
  });
  const playlist = item('ad:A', { materialIds: ['img', 'vid', 'gone'], durationSec: 4 });
  const files = new Map([
    ['img', file('img')],
    ['vid', file('vid', 'video', 7.5)],
  ]);
  const entries = wallEntries([layout, playlist], files);

  it('lists a layout’s pages and a playlist’s materials with their times', () => {
    expect(entries.map((e) => [e.item.id, e.page, e.materialId, e.ms])).toEqual([
      ['layout:L', 0, null, 3000],
      ['layout:L', 1, null, 5000],
      // A page without a duration takes the item's.
      ['layout:L', 2, null, 2000],
      // An image the item's duration, a video its own; a material without a file is left out.
      ['ad:A', null, 'img', 4000],
      ['ad:A', null, 'vid', 7500],
    ]);
  });

  it('picks the entry at an instant and the next switch, the same whenever a tile asks', () => {
    const anchor = 1_000_000;
    const loop = 3000 + 5000 + 2000 + 4000 + 7500;
    expect(wallSlotAt(entries, anchor, anchor)).toEqual({ index: 0, loop: 0, startsAt: anchor, endsAt: anchor + 3000 });
    expect(wallSlotAt(entries, anchor + 2999, anchor)).toMatchObject({ index: 0, endsAt: anchor + 3000 });
    expect(wallSlotAt(entries, anchor + 3000, anchor)).toMatchObject({ index: 1, startsAt: anchor + 3000 });
    expect(wallSlotAt(entries, anchor + 12_500, anchor)).toMatchObject({ index: 3, startsAt: anchor + 10_000 });
    expect(wallSlotAt(entries, anchor + 15_000, anchor)).toEqual({
      index: 4,
      loop: 0,
      startsAt: anchor + 14_000,
      endsAt: anchor + loop,
    });
    // The next loop, many loops later, and before the anchor: the same position rule.
    expect(wallSlotAt(entries, anchor + loop, anchor)).toEqual({
      index: 0,
      loop: 1,
      startsAt: anchor + loop,
      endsAt: anchor + loop + 3000,
    });
    expect(wallSlotAt(entries, anchor + 1000 * loop + 9000, anchor)).toMatchObject({ index: 2, loop: 1000 });
    expect(wallSlotAt(entries, anchor - 1, anchor)).toMatchObject({ index: 4, loop: -1, endsAt: anchor });
    expect(wallSlotAt([], anchor, anchor)).toBeNull();
  });

  it('two tiles asking a few ms apart within an entry agree on it and on its end', () => {
    const a = wallSlotAt(entries, 123_456_789, 0);
    const b = wallSlotAt(entries, 123_456_789 + 40, 0);
    if (a && b && a.endsAt > 123_456_789 + 40) expect(b).toEqual(a);
  });
});

describe('wall geometry', () => {
  const tile = { rows: 2, cols: 2, row: 1, col: 1, scaling: true, rotation: 0 };

  it('draws the wall at cols x rows tiles and shows the tile’s part', () => {
    const g = wallGeometry(tile, 960, 540, 1920, 1080);
    expect(g).toMatchObject({ wallWidth: 1920, wallHeight: 1080, offsetX: -960, offsetY: -540 });
    expect(g.frame).toEqual({ left: 0, top: 0, width: 1920, height: 1080, rotation: 0 });
    expect(g.content).toEqual({ left: 0, top: 0, scaleX: 1, scaleY: 1 });
  });

  it('stretches with scaling, fits with the aspect kept without', () => {
    expect(wallGeometry(tile, 800, 600, 1920, 1080).content).toEqual({
      left: 0,
      top: 0,
      scaleX: 1600 / 1920,
      scaleY: 1200 / 1080,
    });
    const fit = wallGeometry({ ...tile, scaling: false }, 800, 600, 1920, 1080).content;
    expect(fit.scaleX).toBeCloseTo(1600 / 1920);
    expect(fit.scaleY).toBe(fit.scaleX);
    expect(fit.left).toBe(0);
    expect(fit.top).toBeCloseTo((1200 - 1080 * (1600 / 1920)) / 2);
  });

  it('turns the content with the wall’s rotation: the frame is the wall swapped, centred', () => {
    const g = wallGeometry({ ...tile, rotation: 90 }, 960, 540, 1080, 1920);
    expect(g.frame).toEqual({
      left: (1920 - 1080) / 2,
      top: (1080 - 1920) / 2,
      width: 1080,
      height: 1920,
      rotation: 90,
    });
    expect(g.content).toEqual({ left: 0, top: 0, scaleX: 1, scaleY: 1 });
  });
});

describe('shared clock', () => {
  it('takes the offset of the sample with the least round trip', () => {
    expect(sampleOffset({ sentAt: 1000, receivedAt: 1100, server: 5050 })).toEqual({ offset: 4000, rtt: 100 });
    expect(
      bestOffset([
        { sentAt: 0, receivedAt: 300, server: 4000 },
        { sentAt: 400, receivedAt: 420, server: 4410 },
        { sentAt: 500, receivedAt: 700, server: 4000 },
      ]),
    ).toEqual({ offset: 4410 + 10 - 420, rtt: 20 });
    expect(bestOffset([])).toBeNull();
  });

  it('corrects a skewed local clock to the server’s within half the round trip', async () => {
    let local = 50_000; // the device's clock, 5 s behind the server's
    const server = () => local + 5000;
    const clock = new SharedClock(
      async () => {
        local += 7; // the request's way there
        const at = server();
        local += 3; // and back
        return at;
      },
      () => local,
    );
    expect(clock.now()).toBe(local);
    expect(await clock.sync(4)).toBe(true);
    expect(Math.abs(clock.now() - server())).toBeLessThanOrEqual(clock.rtt! / 2);
    expect(clock.rtt).toBe(10);
  });

  it('keeps its estimate when the server cannot be read', async () => {
    const clock = new SharedClock(
      async () => {
        throw new Error('offline');
      },
      () => 1000,
    );
    clock.offset = 250;
    expect(await clock.sync(3)).toBe(false);
    expect(clock.now()).toBe(1250);
  });

  it('keeps the best sample across rounds, starts over when the local clock is set, and slows down', async () => {
    let real = 0;
    let skew = -1000; // the device's clock, 1 s behind the server's
    let way = 50; // a busy server: long round trips
    const clock = new SharedClock(
      async () => {
        real += way;
        const at = real;
        real += way;
        return at;
      },
      () => real + skew,
    );
    const moves: number[] = [];
    clock.subscribe(() => moves.push(clock.offset));
    await clock.sync(2);
    expect(clock.rtt).toBe(100);
    way = 2; // quiet: 4 ms
    await clock.sync(2);
    expect(clock.rtt).toBe(4);
    expect(clock.offset).toBe(1000);
    way = 80; // busy again: the quiet sample stays in use
    await clock.sync(2);
    expect(clock.rtt).toBe(4);
    expect(moves).toEqual([1000]);
    // The local clock set 1 hour back: the old samples go.
    skew -= 3600_000;
    way = 30;
    await clock.sync(2);
    expect(clock.offset).toBe(3600_000 + 1000);
    expect(clock.rtt).toBe(60);
    expect(nextRoundMs(0)).toBeLessThan(CLOCK_RESAMPLE_MS);
    expect(nextRoundMs(100)).toBe(CLOCK_RESAMPLE_MS);
  });
});
