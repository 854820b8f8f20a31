import type { DeviceManifest } from '@marquee/protocol';
import { usageUploadSchema } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { messages } from '../src/i18n';
import { Journal, MemoryJournalStore } from '../src/logic/journal';
import { fallbackScreen, licenceExpired } from '../src/logic/licence';
import { type JournaledUsage, USAGE_WINDOW_MS, UsageMeter } from '../src/logic/usage';

const manifest = (licence?: DeviceManifest['licence'], items = 1): DeviceManifest => ({
  version: 'v',
  generatedAt: 0,
  items: Array.from({ length: items }, (_, i) => ({
    id: `layout:${i}`,
    source: 'layout',
    name: 'L',
    layoutId: 'L1',
    adId: null,
    document: null,
    materialIds: [],
    durationSec: 10,
    schedule: {},
  })),
  files: [],
  ...(licence ? { licence } : {}),
});

describe('the expired screen (issue 27)', () => {
  it('shows the expired notice while the licence is expired, and the content once a manifest brings items again', () => {
    const expired = manifest({ state: 'expired', expiresAt: 1 }, 0);
    expect(licenceExpired(expired)).toBe(true);
    expect(fallbackScreen(expired, 0)).toBe('expired');
    // Renewed: the next manifest is on trial or licensed, with items.
    expect(fallbackScreen(manifest({ state: 'licensed', expiresAt: 2 }), 1)).toBeNull();
    expect(fallbackScreen(manifest({ state: 'trial', expiresAt: null }), 0)).toBe('nothing');
    // An older server sends no licence: licensed.
    expect(licenceExpired(manifest())).toBe(false);
    expect(licenceExpired(null)).toBe(false);
    expect(fallbackScreen(null, 0)).toBe('nothing');
  });

  it('says why in every language of the player', () => {
    for (const lang of Object.values(messages)) {
      expect(lang.expired.length).toBeGreaterThan(0);
      expect(lang.expiredHint.length).toBeGreaterThan(0);
    }
    expect(messages['en-US'].expired).toBe('Service expired');
    expect(messages['en-US'].expiredHint).toMatch(/renew this screen's licence in the console/i);
  });
});

describe('data usage (issue 27)', () => {
  const Q = USAGE_WINDOW_MS;
  const base = 1_800_000_000_000 - (1_800_000_000_000 % Q);

  it('journals one sample per quarter hour that moved bytes, and uploads it like plays', async () => {
    const store = new MemoryJournalStore<JournaledUsage>();
    const journal = new Journal(store);
    let n = 0;
    const meter = new UsageMeter(journal, () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`);
    await meter.add(base + 1000, 1500, 0);
    await meter.add(base + 2000, 0, 300);
    await meter.add(base + Q - 1, 500, 0);
    expect(await journal.pending()).toBe(0);
    expect(meter.current()).toEqual({ start: base, rxBytes: 2000, txBytes: 300 });
    // The next quarter hour's first bytes close the last one.
    await meter.add(base + Q + 5, 10, 0);
    expect([...store.events.values()]).toEqual([
      { id: expect.any(String), start: base, durationMs: Q, rxBytes: 2000, txBytes: 300, iccid: null },
    ]);
    // A quarter hour without a byte writes nothing; closing by time writes the one that ended.
    expect(await meter.close(base + Q + 10)).toBeNull();
    const second = await meter.close(base + 3 * Q);
    expect(second).toMatchObject({ start: base + Q, rxBytes: 10, txBytes: 0 });
    expect(await meter.close(base + 4 * Q)).toBeNull();
    await meter.add(base + 4 * Q, 0, 0);
    expect(meter.current()).toBeNull();

    // The upload's body is the protocol's; acknowledged samples leave the journal, a failure keeps them.
    const bodies: unknown[] = [];
    await expect(journal.flush(async () => Promise.reject(new Error('HTTP 404')))).rejects.toThrow();
    expect(await journal.pending()).toBe(2);
    await journal.flush(async (samples) => {
      bodies.push(usageUploadSchema.parse({ samples }));
      return { accepted: samples.map((s) => s.id), duplicate: [], rejected: [] };
    });
    expect(bodies).toHaveLength(1);
    expect(await journal.pending()).toBe(0);
  });

  it('resumes the quarter hour saved before a reload', async () => {
    const journal = new Journal(new MemoryJournalStore<JournaledUsage>());
    const meter = new UsageMeter(journal, () => '00000000-0000-4000-8000-000000000001', {
      start: base,
      rxBytes: 100,
      txBytes: 1,
    });
    await meter.add(base + 60_000, 50, 0);
    expect(meter.current()).toEqual({ start: base, rxBytes: 150, txBytes: 1 });
    expect(await meter.close(base + Q)).toMatchObject({ rxBytes: 150, txBytes: 1 });
  });
});
