import type { DeviceManifest, ManifestItem, PlayEvent } from '@marquee/protocol';
import { heartbeatSchema } from '@marquee/protocol';
import { describe, expect, it, vi } from 'vitest';
import { pickLocale } from '../src/i18n';
import { AdPlayCounter, itemsToPlay } from '../src/logic/ads';
import { backoffDelay, backoffSchedule } from '../src/logic/backoff';
import { MemoryJournalStore, PlayJournal } from '../src/logic/journal';
import { ChangeReporter, downloadReports, materialStates, planManifest, readyToSwitch } from '../src/logic/manifest';
import { levelAt, playableItems, powerOnAt, scheduleAllows } from '../src/logic/schedule';

const file = (materialId: string, sha256: string, size = 10) => ({
  materialId,
  sha256,
  size,
  url: `/f/${sha256}`,
  type: 'image',
});
const manifest = (version: string, files: ReturnType<typeof file>[]): DeviceManifest => ({
  version,
  generatedAt: 0,
  items: [
    {
      id: `layout:${version}`,
      source: 'layout',
      name: version,
      layoutId: 'L1',
      adId: null,
      document: null,
      materialIds: files.map((f) => f.materialId),
      durationSec: 10,
      schedule: {},
    },
  ],
  files,
});

describe('manifest switch', () => {
  const v1 = manifest('v1', [file('a', 'h1'), file('b', 'h2')]);
  const v2 = manifest('v2', [file('b', 'h2'), file('c', 'h3'), file('c2', 'h3')]);

  it('downloads only the hashes it does not have, once each', () => {
    const plan = planManifest(v1, v2, new Set(['h1', 'h2', 'old']));
    expect(plan.download.map((f) => f.sha256)).toEqual(['h3']);
    expect(plan.keep.map((f) => f.sha256)).toEqual(['h2']);
    // h1 is still used by the manifest playing now; only 'old' may go.
    expect(plan.unused).toEqual(['old']);
  });

  it('switches only once every file of the new manifest is cached', () => {
    expect(readyToSwitch(v2, new Set(['h1', 'h2']))).toBe(false);
    expect(readyToSwitch(v2, new Set(['h2', 'h3']))).toBe(true);
    expect(readyToSwitch(manifest('empty', []), new Set())).toBe(true);
  });

  it('reports each material in the four download states', () => {
    const states = materialStates(
      manifest('v', [file('a', 'h1'), file('b', 'h2'), file('c', 'h3'), file('d', 'h4')]),
      new Set(['h1']),
      new Set(['h2']),
      new Set(['h3']),
    );
    expect(states).toEqual({ a: 'successful', b: 'downloading', c: 'failed', d: 'not_downloaded' });
  });

  it('reports state, bytes, failure reason and the time of the last change, per material', () => {
    const m = manifest('v', [file('a', 'h1', 100), file('b', 'h2', 200), file('c', 'h3', 50), file('d', 'h4', 10)]);
    const changedAt = new Map([
      ['h1', 1000],
      ['h2', 2000],
      ['h3', 3000],
    ]);
    const facts = {
      cached: new Set(['h1']),
      running: new Set(['h2']),
      failed: new Set(['h3']),
      progress: new Map([
        ['h2', { loaded: 80 }],
        ['h3', { loaded: 10, error: 'HTTP 404' }],
      ]),
      changedAt,
    };
    const reports = downloadReports(m, facts, 9000);
    expect(reports).toEqual([
      { materialId: 'a', state: 'successful', bytes: 100, size: 100, at: 1000 },
      { materialId: 'b', state: 'downloading', bytes: 80, size: 200, at: 2000 },
      { materialId: 'c', state: 'failed', bytes: 10, size: 50, error: 'HTTP 404', at: 3000 },
      // Never changed: stamped once, the same in the next report (the server then writes nothing).
      { materialId: 'd', state: 'not_downloaded', bytes: 0, size: 10, at: 9000 },
    ]);
    expect(downloadReports(m, facts, 12_000)[3].at).toBe(9000);
    // What the heartbeat carries passes the protocol's schema.
    const hb = heartbeatSchema.parse({
      v: 1,
      ts: 1,
      seq: 0,
      session: 1,
      player: { version: 't' },
      storage: { usedBytes: 0, freeBytes: 0 },
      net: { ip: '', mac: '' },
      screen: { width: 1, height: 1, on: true },
      volume: 1,
      brightness: 1,
      content: { manifestVersion: 'v', downloads: reports },
    });
    expect(hb.content?.downloads).toHaveLength(4);
  });

  it('sends a report soon after a change, at most once per gap, the burst together', () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const send = vi.fn();
      const reporter = new ChangeReporter(send, 2000);
      reporter.changed();
      vi.advanceTimersByTime(0);
      expect(send).toHaveBeenCalledTimes(1);
      reporter.sent();
      // Three changes within the gap (chunks of progress never call changed): one more report, at the gap's end.
      reporter.changed();
      vi.advanceTimersByTime(500);
      reporter.changed();
      reporter.changed();
      expect(send).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1500);
      expect(send).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('schedule and power', () => {
  // Monday 2026-11-23 local time.
  const at = (hh: number, mm = 0, day = 23) => new Date(2026, 10, day, hh, mm);

  it('plays inside the time of day, weekdays and dates only', () => {
    const schedule = { weekdays: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' };
    expect(scheduleAllows(schedule, at(9))).toBe(true);
    expect(scheduleAllows(schedule, at(8, 59))).toBe(false);
    expect(scheduleAllows(schedule, at(18))).toBe(false);
    expect(scheduleAllows(schedule, at(12, 0, 22))).toBe(false); // Sunday
    expect(scheduleAllows({ from: at(10).getTime() }, at(9))).toBe(false);
    expect(scheduleAllows({ until: at(10).getTime() }, at(10))).toBe(false);
    expect(scheduleAllows({}, at(3))).toBe(true);
    const items = manifest('v', [file('a', 'h')]).items;
    expect(playableItems([{ ...items[0], schedule: { start: '10:00', end: '24:00' } }], at(23, 59))).toHaveLength(1);
  });

  it('darkens the screen outside the on-hours of a power strategy', () => {
    const rules = {
      weekly: [
        { weekdays: [1], off: '00:00', on: '08:00' },
        { weekdays: [1], off: '22:00', on: '24:00' },
      ],
      once: [{ off: at(12).toISOString(), on: at(13).toISOString() }],
    };
    expect(powerOnAt(rules, at(7, 59))).toBe(false);
    expect(powerOnAt(rules, at(8))).toBe(true);
    expect(powerOnAt(rules, at(12, 30))).toBe(false);
    expect(powerOnAt(rules, at(22, 0))).toBe(false);
    expect(powerOnAt(rules, at(7, 0, 24))).toBe(true); // Tuesday: no weekly period
    expect(powerOnAt(null, at(3))).toBe(true);
  });

  it('picks a period level, else the default', () => {
    const rules = { defaultLevel: 50, periods: [{ weekdays: [1], start: '08:00', end: '10:00', level: 90 }] };
    expect(levelAt(rules, at(9))).toBe(90);
    expect(levelAt(rules, at(10))).toBe(50);
  });
});

describe('retry back-off', () => {
  it('doubles from 1 s to a 60 s ceiling, with jitter in the upper half', () => {
    expect(backoffSchedule(8, () => 1)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(backoffDelay(0, 0)).toBe(500);
    expect(backoffDelay(100, 0.5)).toBe(45000);
  });
});

describe('play journal', () => {
  const event = (n: number): PlayEvent => ({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    materialId: 'm',
    layoutId: 'l',
    componentId: null,
    adId: null,
    start: 1000 + n,
    durationMs: 10,
    outcome: 'completed',
  });

  it('deletes only the events the server acknowledged, keeps the rest for later', async () => {
    const store = new MemoryJournalStore();
    const journal = new PlayJournal(store, 2);
    for (let n = 0; n < 5; n++) await journal.record(event(n));
    const sent: string[][] = [];
    // The server acknowledges every event except #3 (as if it had not been stored).
    const acked = await journal.flush(async (events) => {
      sent.push(events.map((e) => e.id));
      const ids = events.map((e) => e.id).filter((id) => id !== event(3).id);
      return { accepted: ids.slice(0, 1), duplicate: ids.slice(1), rejected: [] };
    });
    expect(acked).toBe(4);
    expect([...store.events.keys()]).toEqual([event(3).id]);
    expect(sent[0]).toEqual([event(0).id, event(1).id]);
  });

  it('keeps everything when the upload fails (offline), and sends it all later', async () => {
    const store = new MemoryJournalStore();
    const journal = new PlayJournal(store, 10);
    for (let n = 0; n < 3; n++) await journal.record(event(n));
    await expect(
      journal.flush(async () => {
        throw new Error('offline');
      }),
    ).rejects.toThrow('offline');
    expect(await journal.pending()).toBe(3);
    const acked = await journal.flush(async (events) => ({
      accepted: events.map((e) => e.id),
      duplicate: [],
      rejected: [],
    }));
    expect(acked).toBe(3);
    expect(await journal.pending()).toBe(0);
  });

  it('drops rejected events and ignores ids it did not send', async () => {
    const store = new MemoryJournalStore();
    const journal = new PlayJournal(store);
    await journal.record(event(1));
    await journal.flush(async () => ({ accepted: ['not-sent'], duplicate: [], rejected: [event(1).id] }));
    expect(await journal.pending()).toBe(0);
  });
});

describe('locale', () => {
  it('picks zh-CN, ja or en-US from the browser languages', () => {
    expect(pickLocale(['zh-TW'])).toBe('zh-CN');
    expect(pickLocale(['ja-JP', 'en'])).toBe('ja');
    expect(pickLocale(['fr-FR', 'en-GB'])).toBe('en-US');
    expect(pickLocale([])).toBe('en-US');
  });
});

describe('ads on the screen', () => {
  const at = (h: number, m = 0) => new Date(2026, 5, 15, h, m);
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
  const pick = (items: ManifestItem[], now: Date, startedAt = 0, played = new Map<string, number>()) => {
    const r = itemsToPlay(m(items), now, { startedAt, playedToday: played });
    return [r.role, r.items.map((i) => i.id)];
  };

  it.each([
    [
      'the opening first, for as long as it takes',
      [ad('o', 'opening'), ad('c', 'loop')],
      at(9, 0),
      5_000,
      ['opening', ['ad:o']],
    ],
    ['then the loop', [ad('o', 'opening'), ad('c', 'loop')], at(9, 0), 20_000, ['loop', ['ad:c']]],
    ['an emergency pre-empts', [ad('e', 'emergency'), ad('c', 'loop'), own], at(9), null, ['emergency', ['ad:e']]],
    ['loop ads before the own layout', [ad('c', 'loop'), own, ad('f', 'fallback')], at(9), null, ['loop', ['ad:c']]],
    [
      'outside its time period an ad sits out',
      [ad('c', 'loop', { schedule: { periods: [{ start: '08:00', end: '09:00' }] } }), own],
      at(9),
      null,
      ['own', ['layout:L1']],
    ],
    ['the fallback only when nothing else', [ad('f', 'fallback')], at(9), null, ['fallback', ['ad:f']]],
    ['nothing', [], at(9), null, ['none', []]],
  ])('%s', (_name, items, now, sinceStart, expected) => {
    const startedAt = sinceStart === null ? 0 : now.getTime() - sinceStart;
    expect(pick(items, now, startedAt)).toEqual(expected);
  });

  it('a per-day ad stops at its cap for the day', () => {
    const items = [ad('c', 'loop', { maxPerDay: 2 }), ad('f', 'fallback')];
    const counter = new AdPlayCounter();
    counter.add('c', at(9));
    expect(pick(items, at(10), 0, new Map(counter.today(at(10))))).toEqual(['loop', ['ad:c']]);
    counter.add('c', at(10));
    expect(pick(items, at(11), 0, new Map(counter.today(at(11))))).toEqual(['fallback', ['ad:f']]);
    // A new day: zero again.
    expect(counter.today(new Date(2026, 5, 16, 0, 1)).get('c')).toBeUndefined();
  });
});
